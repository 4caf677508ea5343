"""The shared web room: what every page blueprint uses, defined once and registered at app level.

- `signed_in_only(bp)`: every page of a blueprint belongs to the signed-in account, and none
  is cached (several phones change the same data; the back button must not show a stale one);
- `account_id()`: the signed-in account's id, the one every service call is scoped to;
- `local_zone()`: the family's time zone (`KOSCI_TIMEZONE`), for dates shown and filtered;
- the Jinja filters `when`, `clock`, `plural` and `polish_sorted`, and `plural` as a function
  for views that build sentences.

No blueprint imports another blueprint: what two of them share lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import TypeVar
from zoneinfo import ZoneInfo

from flask import Blueprint, Flask, current_app, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.wrappers import Response

from .extensions import login_manager

DEFAULT_TIMEZONE = "Europe/Warsaw"  # times are stored in UTC; the table sits in Poland

T = TypeVar("T")


def signed_in_only(bp: Blueprint) -> Blueprint:
    """Make every page of `bp` private to the signed-in account and never cached."""
    bp.before_request(_require_sign_in)
    bp.after_request(_never_cache)
    return bp


def _require_sign_in() -> ResponseReturnValue | None:
    if current_user.is_authenticated:
        return None
    if request.method == "GET":
        return login_manager.unauthorized()  # back to this page after signing in
    # A form posted after the session ended: its URL cannot be opened again with GET.
    flash(login_manager.login_message, login_manager.login_message_category)
    return redirect(url_for("auth.sign_in"))


def _never_cache(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def account_id() -> int:
    """The signed-in account (the pages of `signed_in_only` blueprints have one)."""
    return int(current_user.id)


def local_zone() -> ZoneInfo:
    return ZoneInfo(current_app.config.get("KOSCI_TIMEZONE") or DEFAULT_TIMEZONE)


def when(moment: datetime | None) -> str:
    """A stored UTC time, local: "dziś 18:42", "wczoraj 20:10", "3.05.2025 18:42"."""
    if moment is None:
        return ""
    zone = local_zone()
    local = moment.replace(tzinfo=UTC).astimezone(zone)
    today = datetime.now(zone).date()
    if local.date() == today:
        return f"dziś {local:%H:%M}"
    if local.date() == today - timedelta(days=1):
        return f"wczoraj {local:%H:%M}"
    return f"{local.day}.{local:%m.%Y} {local:%H:%M}"


def clock(moment: datetime) -> str:
    """Only the local time of day, for the turns of one game: "18:42"."""
    return f"{moment.replace(tzinfo=UTC).astimezone(local_zone()):%H:%M}"


def plural(count: int, one: str, few: str, many: str) -> str:
    """The Polish form of a noun after a number: 1 gra, 2 gry, 5 gier, 22 gry, 12 gier."""
    if count == 1:
        return one
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return few
    return many


# The Polish alphabet: ą after a, ł after l, ż last, and so on; other characters keep their
# code point order after the letters they resemble least.
_POLISH = "aąbcćdeęfghijklłmnńoóprqsśtuvwxyzźż"
_POLISH_RANK = {letter: index for index, letter in enumerate(_POLISH)}


def polish_key(text: str) -> tuple[tuple[int, int], ...]:
    """A sort key that puts names in Polish alphabetical order, case ignored: "Łukasz" comes
    after "Lucyna" and before "Marek", not after "Zoë"."""
    return tuple(
        (_POLISH_RANK[ch], 0) if ch in _POLISH_RANK else (len(_POLISH), ord(ch))
        for ch in text.casefold()
    )


def polish_sorted(items: Iterable[T], key: Callable[[T], str] = str) -> list[T]:
    return sorted(items, key=lambda item: polish_key(key(item)))


def register_web(app: Flask) -> None:
    """The filters every template may use."""
    app.add_template_filter(when, "when")
    app.add_template_filter(clock, "clock")
    app.add_template_filter(plural, "plural")
    app.add_template_filter(polish_sorted, "polish_sorted")
    app.add_template_global(plural, "plural")
