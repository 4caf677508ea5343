from __future__ import annotations

from wtforms import PasswordField, StringField
from wtforms.validators import EqualTo, InputRequired, Length

from ..forms import PageForm
from ..services.accounts import NAME_MAX, PASSWORD_MIN


class SignUpForm(PageForm):
    name = StringField(
        "Nazwa konta (np. Kowalscy)",
        validators=[
            InputRequired("Podaj nazwę konta."),
            Length(max=NAME_MAX, message=f"Nazwa konta może mieć najwyżej {NAME_MAX} znaków."),
        ],
        render_kw={"autocomplete": "username", "autocapitalize": "words"},
    )
    password = PasswordField(
        "Hasło",
        validators=[
            InputRequired("Podaj hasło."),
            Length(min=PASSWORD_MIN, message=f"Hasło musi mieć co najmniej {PASSWORD_MIN} znaków."),
        ],
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        "Powtórz hasło",
        validators=[InputRequired("Powtórz hasło."), EqualTo("password", "Hasła się różnią.")],
        render_kw={"autocomplete": "new-password"},
    )
    # Only with `KOSCI_SIGNUP=invite`: the view removes the field otherwise.
    invite = StringField(
        "Kod zaproszenia",
        validators=[
            InputRequired("Podaj kod zaproszenia."),
            Length(max=100, message="To nie jest kod zaproszenia."),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )


class SignInForm(PageForm):
    name = StringField(
        "Nazwa konta",
        validators=[InputRequired("Podaj nazwę konta.")],
        render_kw={"autocomplete": "username", "autocapitalize": "words"},
    )
    password = PasswordField(
        "Hasło",
        validators=[InputRequired("Podaj hasło.")],
        render_kw={"autocomplete": "current-password"},
    )


def _current_password() -> PasswordField:
    """The signed-in account's password again, before a step a borrowed phone must not take."""
    return PasswordField(
        "Twoje obecne hasło",
        validators=[InputRequired("Podaj obecne hasło.")],
        render_kw={"autocomplete": "current-password"},
    )


class TokenForm(PageForm):
    name = StringField(
        "Nazwa tokenu (np. skrypt domowy)",
        validators=[
            InputRequired("Podaj nazwę tokenu."),
            Length(max=NAME_MAX, message=f"Nazwa tokenu może mieć najwyżej {NAME_MAX} znaków."),
        ],
    )
    current_password = _current_password()


class PasswordChangeForm(PageForm):
    current_password = _current_password()
    new_password = PasswordField(
        "Nowe hasło",
        validators=[
            InputRequired("Podaj nowe hasło."),
            Length(min=PASSWORD_MIN, message=f"Hasło musi mieć co najmniej {PASSWORD_MIN} znaków."),
        ],
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        "Powtórz nowe hasło",
        validators=[
            InputRequired("Powtórz nowe hasło."),
            EqualTo("new_password", "Hasła się różnią."),
        ],
        render_kw={"autocomplete": "new-password"},
    )
