"""Languages: Polish (the default, and the language of the sources) and English (README "Języki").

The texts are Polish in the code and the templates and are the catalogs' message ids; their
translations live in `tracker/translations/<lang>/LC_MESSAGES/messages.po`, compiled beside it to
`messages.mo` (committed, so a fresh clone needs no build step). Polish has a catalog too, for
its three plural forms (1 gra, 2 gry, 5 gier).

Which language a request gets (`select_locale`):

- the JSON API (`/api/...`): the client's `Accept-Language`, Polish when it names neither;
- a page: the signed-in account's choice, else this browser's (`LANGUAGE_COOKIE`, set by the
  switch at the foot of every page, also for a guest phone), else Polish.

Marking a text:

- Python inside a request: `_("…")` / `ngettext("%(num)d gra", "%(num)d gier", n)` (eager);
- a module-level constant or a form label: `lazy_gettext("…")`, or `N_("…")` (a plain marker that
  returns the text unchanged: translate it with `_()` where it is shown);
- templates: `{{ _("…") }}`, or `{% trans name=x %}…{{ name }}…{% endtrans %}`.

`flask --app tracker translations extract|compile|init <lang>` keeps the catalogs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from babel import Locale
from babel.dates import get_month_names
from flask import Flask, current_app, g, has_request_context, request
from flask.cli import AppGroup
from flask_babel import (
    Babel,
    force_locale,
    get_locale,
    gettext,
    lazy_gettext,
    lazy_ngettext,
    ngettext,
)
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

LANGUAGES = ("pl", "en")
DEFAULT = "pl"
# What the switch calls each language, in that language.
LANGUAGE_NAMES = {"pl": "Polski", "en": "English"}
LANGUAGE_COOKIE = "kosci_lang"
LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

API_PATH_PREFIX = "/api/"  # tracker.api's, not imported: the API imports this module

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "_",
    "current_language",
    "gettext",
    "init_i18n",
    "lazy_gettext",
    "lazy_ngettext",
    "ngettext",
]

_ = gettext


def N_(message: str) -> str:  # noqa: N802 (the customary name of the marker)
    """Mark `message` for the catalogs without translating it (module-level constants)."""
    return message


# The texts the scripts in static/js show, keyed "<script>.<name>": base.html hands the ones
# its page needs to them as JSON (`js_strings`), and they read them with
# `kosciText("<script>.<name>")` (static/js/app.js).
JS_STRINGS: dict[str, str] = {
    # app.js, on every page: the banner of a lost connection, and a form it did not send.
    "app.retry": N_("Ponów"),
    "app.offline_form": N_(
        "Brak połączenia z serwerem – nic nie wysłano. Sprawdź Wi-Fi i spróbuj ponownie."
    ),
    "live.offline_retrying": N_("Brak połączenia z serwerem – próbuję ponownie…"),
    "live.database_retrying": N_("Baza danych nie odpowiada – próbuję ponownie…"),
    # dice.js: what a screen reader hears of the five dice (%(…)s filled in by the script).
    "dice.added": N_("Kość nr %(number)s: %(face)s."),
    "dice.all_five": N_("Pięć kości: %(dice)s."),
    "dice.empty": N_("Kość nr %(number)s: pusta"),
    "dice.filled": N_("Kość nr %(number)s: %(face)s – dotknij, aby usunąć"),
    "dice.removed": N_("Kość nr %(number)s: usunięta."),
    "dice.bad_digit": N_("Kość ma oczka od 1 do 6, a nie %(digit)s. Popraw kości."),
    "dice.too_many": N_("Wpisano %(count)s kości – potrzeba dokładnie pięciu. Popraw kości."),
    "turn.offline_retry": N_("Brak połączenia z serwerem – spróbuj ponownie."),
    "turn.database_retry": N_("Baza danych nie odpowiada – spróbuj ponownie za chwilę."),
    "turn.undone_elsewhere": N_("Na innym telefonie cofnięto ruch. Teraz kolej: %(name)s."),
    "turn.corrected_elsewhere": N_(
        "Na innym telefonie poprawiono wcześniejszy ruch – wyniki się zmieniły."
    ),
    "invite.copied": N_("Skopiowano link."),
    "invite.selected": N_("Link zaznaczony – skopiuj go z menu telefonu."),
}


def js_strings(*scripts: str) -> dict[str, str]:
    """The texts of `scripts` ("live", "turn"…), translated, for the page's JSON block."""
    prefixes = tuple(f"{script}." for script in scripts)
    return {key: gettext(text) for key, text in JS_STRINGS.items() if key.startswith(prefixes)}


def init_i18n(app: Flask) -> None:
    """Flask-Babel on `app`, the catalogs of the package, `{% trans %}` trimmed, the switch's
    template globals and the `translations` CLI group."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    # {% trans %} blocks are whitespace-normalised (their ids are one line, as in the catalog).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals.update(
        current_language=current_language,
        language_names=LANGUAGE_NAMES,
        languages=LANGUAGES,
        js_strings=js_strings,
    )
    app.cli.add_command(translations_cli)
    from .rules_text import init_rules_text  # the rules' texts: `rules_text` filter and global

    init_rules_text(app)
    login_manager = getattr(app, "login_manager", None)
    if login_manager is not None:  # Flask-Login flashes its message through this
        login_manager.localize_callback = gettext


def select_locale() -> str:
    """The language of this request (see the module's docstring); Polish outside a request
    (the CLI, a service called in an app context)."""
    if not has_request_context():
        return DEFAULT
    if request.path.startswith(API_PATH_PREFIX):
        return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT
    if current_user.is_authenticated:
        chosen = getattr(current_user, "language", None)
        if chosen in LANGUAGES:
            return str(chosen)
    return cookie_language() or DEFAULT


def cookie_language() -> str | None:
    """This browser's choice, if it is a language of the app."""
    value = request.cookies.get(LANGUAGE_COOKIE)
    return value if value in LANGUAGES else None


def current_language() -> str:
    """The language of this request ("pl" outside one: the CLI, the services' tests)."""
    if not has_request_context():
        return DEFAULT
    cached = g.get("_kosci_language")
    if cached is None:
        cached = g._kosci_language = str(get_locale() or DEFAULT)
    return str(cached)


@contextmanager
def in_language(language: str) -> Iterator[None]:
    """Draw in `language`, whatever this request's (`current_language` included): a page fetched
    without cookies that names its language (`/offline?lang=en`, kept by the service worker)."""
    cached = g.pop("_kosci_language", None)
    try:
        with force_locale(language):
            g._kosci_language = language
            yield
    finally:
        g.pop("_kosci_language", None)
        if cached is not None:
            g._kosci_language = cached


def locale() -> Locale:
    return Locale.parse(current_language())


def remember_language(response: BaseResponse, language: str) -> None:
    """Set the language cookie: a year, never sent cross-site, never read by script."""
    response.set_cookie(
        LANGUAGE_COOKIE,
        language,
        max_age=LANGUAGE_COOKIE_MAX_AGE,
        path="/",
        samesite="Lax",
        secure=bool(
            current_app.config.get("SESSION_COOKIE_SECURE") or current_app.config["KOSCI_HTTPS"]
        ),
        httponly=True,
    )


def month_names(*, short: bool = False) -> list[str]:
    """The twelve months as a calendar names them alone ("styczeń", "sty"; "January", "Jan"),
    from the locale data of Babel (CLDR), in the request's language."""
    names = get_month_names("abbreviated" if short else "wide", "stand-alone", locale())
    return [names[month] for month in range(1, 13)]


def decimal_separator() -> str:
    """ "," in Polish, "." in English."""
    return "," if current_language() == "pl" else "."


# The CLI: `flask --app tracker translations extract|compile|init <lang>` (README "Języki").

translations_cli = AppGroup(
    "translations", help="Keep the translation catalogs (tracker/translations)."
)


@translations_cli.command("extract")
def extract_command() -> None:
    """Collect the marked texts into messages.pot and update every language's messages.po."""
    from . import catalogs  # Babel's message tools: only for this command

    for path in catalogs.extract():
        click.echo(f"Zapisano {path.relative_to(catalogs.ROOT)}")


@translations_cli.command("compile")
def compile_command() -> None:
    """Compile every messages.po to messages.mo (committed beside it)."""
    from . import catalogs

    for path in catalogs.compile_all():
        click.echo(f"Zapisano {path.relative_to(catalogs.ROOT)}")


@translations_cli.command("init")
@click.argument("language")
def init_command(language: str) -> None:
    """Start a catalog for a new LANGUAGE (a code such as "de")."""
    from . import catalogs

    path = catalogs.init(language)
    click.echo(
        f"Zapisano {path.relative_to(catalogs.ROOT)}: przetłumacz go, dopisz {language!r} "
        "do LANGUAGES i LANGUAGE_NAMES w tracker/i18n.py i uruchom `translations compile`."
    )
