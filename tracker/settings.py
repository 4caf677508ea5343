"""The server's settings that can be wrong, and the one sentence the start stops with.

A setting that cannot work (an environment variable, the database URL, a database that does not
answer) stops the start with one sentence in Polish, never a traceback: `ConfigError` is a
`click.ClickException`, so every `flask --app tracker …` command, `serve` first, prints
`Error: <sentence>` and exits with status 1. Outside the command line (a WSGI server importing
`create_app`) it is an ordinary exception with the same sentence. Only whoever runs the server
reads these, so they are in Polish only, like the rest of the command line.

No message repeats a database URL as given: it may hold a password.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Sequence
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click
from sqlalchemy import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

ON = ("1", "true", "yes", "on")
OFF = ("0", "false", "no", "off")
URL_EXAMPLE = "postgresql+psycopg://UŻYTKOWNIK:HASŁO@127.0.0.1/kosci"


class ConfigError(click.ClickException):
    """A setting that cannot work, said in one Polish sentence."""


def env_flag(name: str, default: bool) -> bool:
    """A yes/no setting: 1, true, yes, on / 0, false, no, off (any case, spaces around
    ignored); unset or empty: `default`."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ON:
        return True
    if raw in OFF:
        return False
    raise ConfigError(
        f"{name} ma wartość {raw!r}: włącza {', '.join(ON)}, wyłącza {', '.join(OFF)} "
        "(albo brak zmiennej)."
    )


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """A count: a whole number, `minimum` or more; unset or empty: `default`."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    return check_count(name, raw if value is None else value, minimum)


def check_count(name: str, value: object, minimum: int) -> int:
    """`value` if it is a whole number of at least `minimum`, else a ConfigError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        shown = value if isinstance(value, str) else str(value)
        raise ConfigError(
            f"{name} ma wartość {shown!r}: wpisz liczbę całkowitą, {minimum} lub więcej."
        )
    return value


def check_choice(name: str, value: object, choices: Sequence[str]) -> None:
    """A ConfigError unless `value` is one of `choices` (already normalised by the caller)."""
    if value not in choices:
        raise ConfigError(f"{name} ma wartość {value!r}: dozwolone są {', '.join(choices)}.")


def check_timezone(name: str, value: object) -> None:
    """A ConfigError unless `value` names a time zone of the IANA database."""
    try:
        ZoneInfo(str(value))
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(
            f"{name} ma wartość {value!r}: to nie jest nazwa strefy czasowej "
            "(np. Europe/Warsaw, Europe/London)."
        ) from exc


def check_database_url(raw: str | URL) -> URL:
    """The parsed `DATABASE_URL`, its dialect and driver importable; else a ConfigError."""
    try:
        url = make_url(raw)
    except ArgumentError as exc:
        raise ConfigError(
            "DATABASE_URL nie jest adresem bazy danych, który rozumie SQLAlchemy; "
            f"przykład: {URL_EXAMPLE}."
        ) from exc
    try:
        url.get_dialect().import_dbapi()
    except NoSuchModuleError as exc:
        raise ConfigError(
            f"DATABASE_URL: nieznana baza danych albo sterownik {url.drivername!r}; "
            f"Kości działa na sqlite:///… i {URL_EXAMPLE}."
        ) from exc
    except ImportError as exc:
        raise ConfigError(
            f"DATABASE_URL: sterownik {url.drivername!r} nie jest zainstalowany "
            f"(brak modułu {exc.name}). Dla PostgreSQL zainstaluj .venv/bin/pip install -e "
            f"'.[postgres]' i użyj adresu {URL_EXAMPLE}."
        ) from exc
    return url


def empty_secret_key(path: object) -> ConfigError:
    """The generated secret key's file is there but empty."""
    return ConfigError(
        f"Plik {path} jest pusty: usuń go, a przy następnym starcie powstanie nowy klucz "
        "(wszyscy zalogują się ponownie)."
    )


def inaccessible_secret_key(path: Path, exc: OSError) -> ConfigError:
    """The generated secret key's file (or its folder) is not this user's to read or write."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):
        user = "UŻYTKOWNIK"
    folder = path.parent
    return ConfigError(
        f"Serwer (użytkownik {user}) nie może odczytać ani utworzyć pliku {path} "
        f"({exc.strerror or exc}): oddaj mu katalog {folder} "
        f"(np. chown -R {user}: {folder}) albo uruchom serwer jako jego właściciel."
    )


# The PostgreSQL advisory lock the migrations hold for their transaction (migrations/env.py):
# two `serve` or `db upgrade` started at once on one database migrate one after the other.
MIGRATIONS_LOCK = 0x6B6F736369  # "kosci"


# A database whose schema a later version of Kości made (a rollback after an upgrade): no
# command of this version touches it.
NEWER_SCHEMA = (
    "Baza danych pochodzi z nowszej wersji Kości niż ta instalacja: uaktualnij Kości, zanim "
    "jej użyjesz."
)


def reach_database(engine: Engine) -> None:
    """Open one connection to the database, or a ConfigError that says where and why not (the
    driver's own words, on one line; the URL without its password)."""
    try:
        with engine.connect():
            pass
    except DBAPIError as exc:
        shown = engine.url.render_as_string(hide_password=True)
        detail = " ".join(str(exc.orig).split()).rstrip(".") or type(exc.orig).__name__
        raise ConfigError(
            f"Nie można połączyć się z bazą danych {shown} ({detail}). Sprawdź DATABASE_URL "
            "(serwer, użytkownika, hasło albo ścieżkę pliku) i czy serwer bazy działa."
        ) from exc
