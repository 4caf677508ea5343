"""Which games a list or a statistic covers: one filter object for the history and the statistics.

A `GameFilter` names a variant, players who all took part, and a range of local calendar days
(both included) in the table's time zone. `read_filter` builds one from the text a form, a query
string or the API sends, with one parser for days; `game_conditions` turns one into the SQL
conditions on `Game`.

Which day a game belongs to: a finished game to the day it finished, everywhere (the
statistics count finished games only; the history lists a game played from 23:37 to 00:10 on
the same day as they do); an unfinished game, which has no end yet, to the day it started
(`played_at`).

Days come in two dialects, as the screens ask for them:

- ISO (`<input type="date">` and the API): exactly YYYY-MM-DD;
- typed (the history, whose form also serves browsers without a date picker): YYYY-M-D or the
  Polish 3.05.2025, with one sentence naming both forms for whatever is not a day.

Every day must pass `inputs.check_day`: its local midnights must be computable in any zone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any, Literal
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, func, select

from .. import rules
from ..i18n import N_, _, gettext
from ..models import Game, GameSeat
from .errors import InvalidInput
from .inputs import check_day, local_midnight

DEFAULT_TIMEZONE = "Europe/Warsaw"

# Field names of the errors, as the API calls its parameters; forms map them to their own.
VARIANT, FROM, TO = "variant", "from", "to"


@dataclass(frozen=True)
class GameFilter:
    """Which of an account's games to cover. Empty: all of them.

    `player_ids`: games in which every one of these players took part. `since` and `until` are
    local calendar days in `zone`, both included.
    """

    variant: str | None = None
    player_ids: frozenset[int] = frozenset()
    since: date | None = None
    until: date | None = None
    zone: tzinfo = field(default_factory=lambda: ZoneInfo(DEFAULT_TIMEZONE))

    @property
    def active(self) -> bool:
        """Whether anything is filtered out."""
        return bool(self.variant or self.player_ids or self.since or self.until)

    def bounds(self) -> tuple[datetime | None, datetime | None]:
        """The days as stored times (naive UTC): from inclusive, until exclusive (the next
        local midnight after the last day); None where there is no limit."""
        start = None if self.since is None else local_midnight(self.since, self.zone)
        end = None if self.until is None else local_midnight(self.until + timedelta(1), self.zone)
        return start, end


class InvalidFilter(InvalidInput):
    """Every refused part of a filter: `errors` maps a field (`variant`, `from`, `to`) to its
    message; `field` and `message` are the first of them."""

    def __init__(self, errors: dict[str, str]) -> None:
        (first, message), *_ = errors.items()
        super().__init__(message, first)
        self.errors = errors


@dataclass(frozen=True)
class _Dialect:
    patterns: tuple[tuple[re.Pattern[str], str], ...]  # a pattern and the order of its groups
    # N_-marked, shown through `gettext`; %(raw)s: the text sent (quoted)
    not_a_day: str
    no_such_day: str
    reversed: str  # the last day before the first


_ISO = _Dialect(
    patterns=((re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})"), "ymd"),),
    not_a_day=N_("Podaj datę w postaci RRRR-MM-DD, np. 2025-05-03 (jest %(raw)s)."),
    no_such_day=N_("Nie ma takiego dnia: %(raw)s."),
    reversed=N_("Data końcowa jest wcześniejsza niż początkowa."),
)
_BAD_TYPED_DAY = N_("Nieprawidłowa data. Wpisz ją jako RRRR-MM-DD (np. 2025-05-03) albo 3.05.2025.")
_TYPED = _Dialect(
    patterns=(
        (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), "ymd"),
        (re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})"), "dmy"),
    ),
    not_a_day=_BAD_TYPED_DAY,
    no_such_day=_BAD_TYPED_DAY,
    reversed=N_("Data „do” jest wcześniejsza niż data „od”. Popraw jedną z nich."),
)


def parse_day(
    raw: str | None, field_name: str | None = None, *, typed: bool = False
) -> date | None:
    """A local calendar day; None when empty. `typed` also reads what people type by hand (see
    the module docstring). InvalidInput for `field_name` when it is no day or lies at the
    calendar's ends."""
    dialect = _TYPED if typed else _ISO
    raw = (raw or "").strip()
    if not raw:
        return None
    for pattern, order in dialect.patterns:
        if match := pattern.fullmatch(raw):
            parts = dict(zip(order, map(int, match.groups()), strict=True))
            break
    else:
        raise InvalidInput(gettext(dialect.not_a_day, raw=repr(raw)), field_name)
    try:
        day = date(parts["y"], parts["m"], parts["d"])
    except ValueError:
        raise InvalidInput(gettext(dialect.no_such_day, raw=raw), field_name) from None
    return check_day(day, field_name)  # its local midnights must be computable


def parse_variant(raw: str | None) -> str | None:
    """A variant id; empty means every variant."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if raw not in rules.VARIANT_NAMES:
        known = ", ".join(rules.VARIANT_NAMES)
        raise InvalidInput(
            _("Nieznany wariant %(raw)s. Znane warianty: %(known)s.", raw=repr(raw), known=known),
            VARIANT,
        )
    return raw


def read_filter(
    *,
    variant: str | None = None,
    since: str | None = None,
    until: str | None = None,
    player_ids: Iterable[int] = (),
    zone: tzinfo | None = None,
    typed: bool = False,
) -> GameFilter:
    """A filter from the strings a form or a query string sends. InvalidFilter with every
    refused field, in the order `from`, `to`, `variant`: a day that is none (or out of range),
    `from` after `to`, an unknown variant."""
    errors: dict[str, str] = {}
    days: dict[str, date | None] = {}
    for name, raw in ((FROM, since), (TO, until)):
        try:
            days[name] = parse_day(raw, name, typed=typed)
        except InvalidInput as exc:
            errors[name] = exc.message
            days[name] = None
    first, last = days[FROM], days[TO]
    if first and last and first > last:
        errors[TO] = gettext((_TYPED if typed else _ISO).reversed)
    try:
        chosen = parse_variant(variant)
    except InvalidInput as exc:
        errors[VARIANT] = exc.message
    if errors:
        raise InvalidFilter(errors)
    return GameFilter(
        variant=chosen,
        player_ids=frozenset(player_ids),
        since=first,
        until=last,
        zone=zone or ZoneInfo(DEFAULT_TIMEZONE),
    )


def played_at() -> ColumnElement[datetime]:
    """When a game was played, as its day counts (module docstring): its end, or while it
    goes on its start."""
    return func.coalesce(Game.finished_at, Game.started_at)


def game_conditions(
    account_id: int,
    f: GameFilter,
    *,
    dated_by: Literal["played", "finished"],
    seat_of: int | None = None,
) -> list[ColumnElement[bool]]:
    """Conditions on `Game`: the account's games `f` keeps. "finished": only finished games,
    by the day they finished (the statistics); "played": every game, a finished one by the day
    it finished, an unfinished one by the day it started (the history). `seat_of`: the query
    reads only that player's seats, so the games are already ones they played."""
    moment: Any = played_at() if dated_by == "played" else Game.finished_at
    conditions: list[ColumnElement[bool]] = [Game.account_id == account_id]
    if dated_by == "finished":
        conditions.append(Game.finished_at.is_not(None))
    if f.variant is not None:
        conditions.append(Game.variant == f.variant)
    start, end = f.bounds()
    if start is not None:
        conditions.append(moment >= start)
    if end is not None:
        conditions.append(moment < end)
    others = sorted(f.player_ids - {seat_of})
    if len(others) == 1:
        played = select(GameSeat.game_id).where(GameSeat.player_id == others[0])
        conditions.append(Game.id.in_(played))
    elif others:
        together = (
            select(GameSeat.game_id)
            .where(GameSeat.player_id.in_(others))
            .group_by(GameSeat.game_id)
            .having(func.count() == len(others))
        )
        conditions.append(Game.id.in_(together))
    return conditions
