"""The shared web room: what every page blueprint uses, defined once and registered at app level.

- `signed_in_only(bp)`: every page of a blueprint belongs to the signed-in account, and none
  is cached (several phones change the same data; the back button must not show a stale one);
- `account_id()`: the signed-in account's id, the one every service call is scoped to;
- `one_time_messages()`: the flashes a page shows, each once;
- `local_zone()`: the family's time zone (`KOSCI_TIMEZONE`), for dates shown and filtered;
- `history_place()`: the history list's page and filter a game's page was opened from;
- the Jinja filters `when`, `clock`, `and_list`, `plural`, `polish_sorted` and `rolls_unbroken`,
  and `plural` as a function for views that build sentences.

No blueprint imports another blueprint: what two of them share lives here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import cast
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from babel.dates import format_date
from babel.lists import format_list
from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    get_flashed_messages,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from . import guests, i18n
from .collation import polish_sorted  # Polish alphabetical order (ą after a, ł after l)
from .extensions import login_manager
from .i18n import N_, gettext
from .rules import VARIANT_NAMES
from .rules_text import rules_text
from .services import ServiceError
from .services.filters import GameFilter

DEFAULT_TIMEZONE = "Europe/Warsaw"  # times are stored in UTC; the table sits in Poland


def signed_in_only(bp: Blueprint) -> Blueprint:
    """Make every page of `bp` private to the signed-in account and never cached."""
    bp.before_request(_require_sign_in)
    bp.after_request(_never_cache)
    return bp


def _require_sign_in() -> ResponseReturnValue | None:
    if current_user.is_authenticated or guests.is_guest():  # a guest: its game only (guests.py)
        return None
    # Back to this page after signing in; a form posted after the session ended, back to the
    # page it was sent from (KosciLoginManager.unauthorized).
    return login_manager.unauthorized()


def _never_cache(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def same_site_path(target: str | None) -> str:
    """`target` when it is a path of this site, else the home page: a redirect to wherever a
    link said (`?next=` after sign-in, the page a theme switch was tapped on) must never lead
    a family off-site, to a phishing page.

    Browsers read a backslash as a slash and drop tabs and newlines, so `/\\evil.example` and
    `/<tab>/evil.example` lead off-site like `//evil.example`: refuse them too.
    """
    if (
        target
        and target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and target.isprintable()
    ):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("main.home")


def retry_after(exc: ServiceError) -> list[tuple[str, str]]:
    """The Retry-After header of a refusal that says when to try again (`Throttled`), else
    none: every page and API answer that shows a service's refusal sends it."""
    seconds = getattr(exc, "retry_after", None)
    return [("Retry-After", str(seconds))] if seconds else []


def prefers_minimal() -> bool:
    """RFC 7240: the client sent `Prefer: return=minimal` and wants the lean answer to a write
    (the API's turn, and turn.js writing a turn)."""
    # One lookup (servers join repeated headers with commas); `getlist` would walk every
    # header of the request, on every turn.
    prefer = request.headers.get("Prefer")
    return prefer is not None and any(
        part.strip().lower() == "return=minimal" for part in prefer.split(",")
    )


def account_id() -> int:
    """The signed-in account (the pages of `signed_in_only` blueprints have one), or for a
    guest phone the account whose game it joined (`tracker.guests`)."""
    if current_user.is_authenticated:
        return int(current_user.id)
    return guests.account_id()


# live.js's poll redraws the screen in the background; while turn.js's „Ponów” waits, it says
# so with this header. That screen may be dropped unseen (the retry is tapped meanwhile), so it
# must not take the one-time messages waiting in the session („Zapisano”, its cookie arrived
# with an answer whose body was cut off): its answer's cookie, landing after the retry's,
# would leave the screen the retry brings with none.
REDRAW_HEADER = "Kosci-Redraw"


# A roll in a sentence: two to five faces joined by hyphens („5-5-3-1-2”), not part of a longer
# word or code.
_ROLL = re.compile(r"(?<![\w-])[1-6](?:-[1-6]){1,4}(?![\w-])")


def rolls_unbroken(message: object) -> Markup:
    """A message (escaped, as any text in a page) with each roll in it kept on one line. A
    narrow phone would otherwise break it at a hyphen, „5-5-” at the end of one line and
    „3-1-2” on the next, and the table would read two rolls. The text itself stays as it is."""
    return Markup(
        _ROLL.sub(lambda found: f'<span class="nowrap">{found[0]}</span>', str(escape(message)))
    )


# A flash of these categories holds the id of what a tap just did and can be undone: a trash
# entry (`services.trash`) made by deleting a game, a merge of two players
# (`services.players`). base.html shows it as the „Cofnij” of the message before it.
UNDO_DELETE = "undo-delete"
UNDO_MERGE = "undo-merge"


def is_page_request() -> bool:
    """A page the browser opens (GET, a known address): not a background redraw
    (`REDRAW_HEADER`), nor a fragment of one, nor a write."""
    return (
        request.method == "GET"
        and request.endpoint is not None
        and "fragment" not in request.args
        and request.headers.get(REDRAW_HEADER) is None
    )


def to_restored_game(game_id: int) -> Response:
    """The same page of the game restored from the trash as `game_id` (an old address of it,
    opened on a phone of the family or a guest phone joined to it), said so."""
    flash(i18n.gettext("Tę grę przywrócono z kosza (może na innym telefonie). Oto ona."), "info")
    target = {**(request.view_args or {}), "game_id": game_id}
    return redirect(url_for(str(request.endpoint), **target), code=303)


def one_time_messages() -> list[tuple[str, str]]:
    """The flashes for this page as (category, message), each once, taken from the session;
    none for a background redraw (`REDRAW_HEADER`), which leaves them for the next page. The
    same message twice is said once: a write sent again (its first answer lost after the
    session cookie had arrived) says „Zapisano” once, with one undo; a sign-in asked for by a
    poll and by the reload it caused is asked for once."""
    if request.headers.get(REDRAW_HEADER) == "poll":
        return []
    # Flask types the pairs loosely (`with_categories` decides what the list holds).
    taken = cast(list[tuple[str, str]], get_flashed_messages(with_categories=True))
    return list(dict.fromkeys((str(category), str(message)) for category, message in taken))


def local_zone() -> ZoneInfo:
    return ZoneInfo(current_app.config.get("KOSCI_TIMEZONE") or DEFAULT_TIMEZONE)


# The history list's own query arguments (`history.views`): its page and its filter.
HISTORY_PLACE = ("strona", "wariant", "gracz", "stan", "od", "do")
# The values of its `stan` (whether a game is over), which the home page links to as well.
HISTORY_UNFINISHED, HISTORY_FINISHED = "w-toku", "zakonczone"
# A filter's variant that is none of its list's (an old bookmark's id): the history's and the
# statistics' forms say it in the words of their select, not as the API's list of ids.
UNKNOWN_VARIANT_CHOICE = N_("Nie ma takiego wariantu. Wybierz jeden z listy.")

_LONGEST_PLACE_VALUE = 32  # a page number, an id, a day as typed: anything longer is no place


def history_place() -> dict[str, str]:
    """Where in the history list this page was opened from: the list's page and filter, which
    the list passes on in the query string of each game's link. The game's „Historia gier”
    leads back there: an installed app has no back button, and three years of games are 65
    pages. Only the list's own arguments, short, and only ever as arguments of the list's URL;
    the list checks them as it checks what anyone types."""
    args = request.args
    return {
        name: value
        for name in HISTORY_PLACE
        if (value := args.get(name, "").strip()) and len(value) <= _LONGEST_PLACE_VALUE
    }


def when(moment: datetime | None) -> str:
    """A stored UTC time, local: "dziś 18:42", "wczoraj 20:10", "3.05.2025 18:42" (in English
    "today 18:42", "yesterday 20:10", "3 May 2025 18:42")."""
    if moment is None:
        return ""
    zone = local_zone()
    local = moment.replace(tzinfo=UTC).astimezone(zone)
    today = datetime.now(zone).date()
    time = f"{local:%H:%M}"
    if local.date() == today:
        return gettext("dziś %(time)s", time=time)
    if local.date() == today - timedelta(days=1):
        return gettext("wczoraj %(time)s", time=time)
    return f"{local_date(local.date())} {time}"


def local_date(day: date) -> str:
    """A calendar day: "3.05.2025" ("3 May 2025")."""
    if i18n.current_language() == "pl":
        return f"{day.day}.{day:%m.%Y}"
    return format_date(day, "d MMM y", locale=i18n.locale())


def describe_filter(f: GameFilter, names: dict[int, str]) -> str:
    """A filter in words, for the summary of a folded filter form (statistics, history):
    "Kości (tabela polska) · 1.08.2026 – 31.08.2026 · razem: Ala, Ola"; empty for no filter.
    `names`: the players' names by id (a player not in it is left out)."""
    parts = []
    if f.variant:
        parts.append(rules_text(VARIANT_NAMES[f.variant]))
    if f.since and f.until:
        one_day = f.since == f.until
        since, until = local_date(f.since), local_date(f.until)
        parts.append(since if one_day else f"{since} – {until}")
    elif f.since:
        parts.append(gettext("od %(day)s", day=local_date(f.since)))
    elif f.until:
        parts.append(gettext("do %(day)s", day=local_date(f.until)))
    if f.player_ids:
        chosen = polish_sorted(names[i] for i in f.player_ids if i in names)
        together = ", ".join(chosen)
        if len(chosen) > 1:
            parts.append(gettext("razem: %(names)s", names=together))
        else:
            parts.append(gettext("z udziałem: %(names)s", names=together))
    return " · ".join(parts)


def clock(moment: datetime) -> str:
    """Only the local time of day, for the turns of one game: "18:42"."""
    return f"{moment.replace(tzinfo=UTC).astimezone(local_zone()):%H:%M}"


def and_list(names: Sequence[str]) -> str:
    """Names as a sentence lists them, in the request's language (CLDR, by Babel): "Ala i Ola",
    "Ala, Ola i Ela"; "Ala and Ola", "Ala, Ola, and Ela"."""
    return format_list(list(names), locale=i18n.locale()) if names else ""


def plural(count: int, one: str, few: str, many: str) -> str:
    """Deprecated, Polish only (it cannot be translated): the form of a noun after a number,
    1 gra, 2 gry, 5 gier, 22 gry, 12 gier. Write `ngettext("%(num)d gra", "%(num)d gier", n)`
    instead, with the three Polish forms in the pl catalog (README "Języki")."""
    if count == 1:
        return one
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return few
    return many


def register_web(app: Flask) -> None:
    """The filters every template may use."""
    app.add_template_filter(when, "when")
    app.add_template_filter(clock, "clock")
    app.add_template_filter(and_list, "and_list")
    app.add_template_filter(plural, "plural")
    app.add_template_filter(polish_sorted, "polish_sorted")
    app.add_template_filter(rolls_unbroken, "rolls_unbroken")
    app.add_template_global(plural, "plural")
    app.add_template_global(one_time_messages, "one_time_messages")
    app.add_template_global(history_place, "history_place")
    guests.register_guests(app)
