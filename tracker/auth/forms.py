from __future__ import annotations

from wtforms import PasswordField, StringField
from wtforms.validators import EqualTo, InputRequired, Length

from ..forms import PageForm
from ..i18n import lazy_gettext, lazy_ngettext
from ..services.accounts import NAME_MAX, PASSWORD_MIN

# Labels and messages are lazy: the form classes are built once, the language per request.
PASSWORD_TOO_SHORT = lazy_ngettext(
    "Hasło musi mieć co najmniej %(num)d znak.",
    "Hasło musi mieć co najmniej %(num)d znaków.",
    PASSWORD_MIN,
)
PASSWORDS_DIFFER = lazy_gettext("Hasła się różnią.")


class SignUpForm(PageForm):
    name = StringField(
        lazy_gettext("Nazwa konta (np. Kowalscy)"),
        validators=[
            InputRequired(lazy_gettext("Podaj nazwę konta.")),
            Length(
                max=NAME_MAX,
                message=lazy_gettext(
                    "Nazwa konta może mieć najwyżej %(num)d znaków.", num=NAME_MAX
                ),
            ),
        ],
        render_kw={"autocomplete": "username", "autocapitalize": "words"},
    )
    password = PasswordField(
        lazy_gettext("Hasło"),
        validators=[
            InputRequired(lazy_gettext("Podaj hasło.")),
            Length(min=PASSWORD_MIN, message=PASSWORD_TOO_SHORT),
        ],
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        lazy_gettext("Powtórz hasło"),
        validators=[
            InputRequired(lazy_gettext("Powtórz hasło.")),
            EqualTo("password", PASSWORDS_DIFFER),
        ],
        render_kw={"autocomplete": "new-password"},
    )
    # Only with `KOSCI_SIGNUP=invite`: the view removes the field otherwise.
    invite = StringField(
        lazy_gettext("Kod zaproszenia"),
        validators=[
            InputRequired(lazy_gettext("Podaj kod zaproszenia.")),
            Length(max=100, message=lazy_gettext("To nie jest kod zaproszenia.")),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )


class SignInForm(PageForm):
    name = StringField(
        lazy_gettext("Nazwa konta"),
        validators=[InputRequired(lazy_gettext("Podaj nazwę konta."))],
        render_kw={"autocomplete": "username", "autocapitalize": "words"},
    )
    password = PasswordField(
        lazy_gettext("Hasło"),
        validators=[InputRequired(lazy_gettext("Podaj hasło."))],
        render_kw={"autocomplete": "current-password"},
    )


def _current_password() -> PasswordField:
    """The signed-in account's password again, before a step a borrowed phone must not take."""
    return PasswordField(
        lazy_gettext("Twoje obecne hasło"),
        validators=[InputRequired(lazy_gettext("Podaj obecne hasło."))],
        render_kw={"autocomplete": "current-password"},
    )


class TokenForm(PageForm):
    name = StringField(
        lazy_gettext("Nazwa tokenu (np. skrypt domowy)"),
        validators=[
            InputRequired(lazy_gettext("Podaj nazwę tokenu.")),
            Length(
                max=NAME_MAX,
                message=lazy_gettext(
                    "Nazwa tokenu może mieć najwyżej %(num)d znaków.", num=NAME_MAX
                ),
            ),
        ],
    )
    current_password = _current_password()


class PasswordChangeForm(PageForm):
    current_password = _current_password()
    new_password = PasswordField(
        lazy_gettext("Nowe hasło"),
        validators=[
            InputRequired(lazy_gettext("Podaj nowe hasło.")),
            Length(min=PASSWORD_MIN, message=PASSWORD_TOO_SHORT),
        ],
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        lazy_gettext("Powtórz nowe hasło"),
        validators=[
            InputRequired(lazy_gettext("Powtórz nowe hasło.")),
            EqualTo("new_password", PASSWORDS_DIFFER),
        ],
        render_kw={"autocomplete": "new-password"},
    )
