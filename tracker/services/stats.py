"""Statistics of an account's finished games, computed by the database.

Figures are SQL aggregates: GROUP BY over `game_seats` joined to `games`, reading the results
cached on each seat (derived from the turns and recomputable: `flask --app tracker recompute`),
and per-field figures GROUP BY over `turns`. No game, sheet or turn is loaded into Python. The one
sequence, winning streaks, is counted here from one short row per game (the ids of its players
and of its winners, in the order the games finished), which also gives head-to-head.

A page is a handful of queries, each one pass over the filtered games: at 10,000 games of six
players, SQLite's sort for each GROUP BY is most of the cost, so one pass serves several figures
(docs/benchmarks.md, "Statistics").

What counts, as DECISIONS.md ("Winning a table game") decides:

- only finished games; a game's date is the moment it finished, in the table's local time
  (`Filters.zone`), so "from 1 May to 31 May" means local calendar days, both included;
- equal highest totals share the win, and a shared win counts as a win for each winner;
- a one-player game is valid and its player is the winner: it counts in games, wins, totals and
  records ("pobij własny rekord"). A winning streak, though, is of games won against someone:
  one-player games are left out of streaks (they could only ever extend one);
- dice poker has no table: a poker seat's `total` is its round wins, so poker games count in
  games, wins, head-to-head and streaks, never in totals, averages, records or distributions.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from itertools import combinations
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Integer,
    String,
    and_,
    case,
    cast,
    func,
    literal,
    or_,
    select,
)

from .. import rules
from ..extensions import db
from ..models import Game, GameSeat, Player, Turn, name_key
from ..rules.tables import ALL_FIELD_IDS
from .errors import InvalidInput
from .inputs import check_day, local_midnight

DEFAULT_TIMEZONE = "Europe/Warsaw"
# The player page's chart shows every game up to this many, monthly averages beyond.
TIMELINE_GAMES = 60
RECENT_GAMES = 10
# At most this many bars in a distribution of totals.
HISTOGRAM_BINS = 12
_NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


# --- filters -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    """Which finished games a statistic covers. Empty: all of the account's finished games.

    `player_ids`: games in which every one of these players took part. `since` and `until` are
    local calendar days in `zone`, both included.
    """

    variant: str | None = None
    player_ids: frozenset[int] = frozenset()
    since: date | None = None
    until: date | None = None
    zone: tzinfo = field(default_factory=lambda: ZoneInfo(DEFAULT_TIMEZONE))


def parse_variant(raw: str | None) -> str | None:
    """A variant id from a filter; empty means every variant."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if raw not in rules.VARIANT_NAMES:
        known = ", ".join(rules.VARIANT_NAMES)
        raise InvalidInput(f"Nieznany wariant {raw!r}. Znane warianty: {known}.", "variant")
    return raw


def parse_day(raw: str | None, field_name: str) -> date | None:
    """A day written YYYY-MM-DD (what `<input type="date">` sends); empty means no limit. A day
    at the very ends of the calendar is refused: its bounds in UTC cannot be computed."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if not _DAY.fullmatch(raw):
        raise InvalidInput(
            f"Podaj datę w postaci RRRR-MM-DD, np. 2025-05-03 (jest {raw!r}).", field_name
        )
    try:
        day = date.fromisoformat(raw)
    except ValueError:
        raise InvalidInput(f"Nie ma takiego dnia: {raw}.", field_name) from None
    return check_day(day, field_name)  # its local midnights must be computable


def make_filters(
    *,
    variant: str | None = None,
    since: str | None = None,
    until: str | None = None,
    player_ids: Iterable[int] = (),
    zone: tzinfo | None = None,
) -> Filters:
    """Filters from the strings a form or a query string sends; InvalidInput (with the field:
    `variant`, `from` or `to`) for an unknown variant, a malformed day, or `from` after `to`."""
    first = parse_day(since, "from")
    last = parse_day(until, "to")
    if first and last and first > last:
        raise InvalidInput("Data końcowa jest wcześniejsza niż początkowa.", "to")
    return Filters(
        variant=parse_variant(variant),
        player_ids=frozenset(player_ids),
        since=first,
        until=last,
        zone=zone or ZoneInfo(DEFAULT_TIMEZONE),
    )


def find_player_id(account_id: int, name: str) -> int | None:
    """The id of the account's player with this name (case and spacing ignored), if any."""
    return db.session.scalar(
        select(Player.id).where(Player.account_id == account_id, Player.name_key == name_key(name))
    )


def _conditions(
    account_id: int, f: Filters, *, seat_of: int | None = None
) -> list[ColumnElement[bool]]:
    """Conditions on `Game`: the account's finished games the filters keep. `seat_of`: the
    query reads only that player's seats, so the games are already the ones they played."""
    conditions: list[ColumnElement[bool]] = [
        Game.account_id == account_id,
        Game.finished_at.is_not(None),
    ]
    if f.variant is not None:
        conditions.append(Game.variant == f.variant)
    if f.since is not None:
        conditions.append(Game.finished_at >= local_midnight(f.since, f.zone))
    if f.until is not None:
        conditions.append(Game.finished_at < local_midnight(f.until + timedelta(days=1), f.zone))
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


def _seats(account_id: int, f: Filters, player_id: int | None = None) -> list[ColumnElement[bool]]:
    """Conditions on `GameSeat` joined to `Game`: the filtered games, one player's seats."""
    conditions = _conditions(account_id, f, seat_of=player_id)
    if player_id is not None:
        conditions.append(GameSeat.player_id == player_id)
    return conditions


_IS_TABLE = Game.variant != rules.POKER


# --- what everything returns -------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    """One player's figures over some games (one variant, or all of them)."""

    games: int = 0
    wins: int = 0
    table_games: int = 0  # finished table games, the ones with totals (not poker)
    total_sum: int = 0
    best: int | None = None
    worst: int | None = None
    columns: int = 0  # columns played: three a game in Kości potrójne
    upper_bonuses: int = 0
    generals: int = 0
    extra_bonuses: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average(self) -> float | None:
        return self.total_sum / self.table_games if self.table_games else None

    @property
    def upper_bonus_rate(self) -> float | None:
        """Share of the columns played that earned the upper bonus."""
        return self.upper_bonuses / self.columns if self.columns else None

    def __add__(self, other: Figures) -> Figures:
        return Figures(
            games=self.games + other.games,
            wins=self.wins + other.wins,
            table_games=self.table_games + other.table_games,
            total_sum=self.total_sum + other.total_sum,
            best=_max(self.best, other.best),
            worst=_min(self.worst, other.worst),
            columns=self.columns + other.columns,
            upper_bonuses=self.upper_bonuses + other.upper_bonuses,
            generals=self.generals + other.generals,
            extra_bonuses=self.extra_bonuses + other.extra_bonuses,
        )


def _max(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


def _min(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


@dataclass(frozen=True)
class Streak:
    """Games won one after another (games against someone; see the module docstring)."""

    player_id: int
    name: str
    length: int
    first_at: datetime
    last_at: datetime


@dataclass(frozen=True)
class PlayerStats:
    player_id: int
    name: str
    overall: Figures
    by_variant: dict[str, Figures]  # variant id -> figures, in `VARIANT_NAMES` order
    streak: Streak | None  # the longest winning streak

    @property
    def table_variants(self) -> dict[str, Figures]:
        return {v: f for v, f in self.by_variant.items() if v != rules.POKER}


@dataclass(frozen=True)
class Feat:
    """A record: what, who, in which game and when (the first to reach it holds it)."""

    variant: str
    value: int
    player_id: int
    name: str
    game_id: int
    finished_at: datetime
    players: int  # at the table; 1 is a game played alone


@dataclass(frozen=True)
class Pair:
    """Two players' games together and the wins of each (a shared win counts for both)."""

    a_id: int
    a_name: str
    b_id: int
    b_name: str
    games: int
    a_wins: int
    b_wins: int

    def facing(self, player_id: int) -> Pair:
        """The same pair with `player_id` first."""
        if player_id == self.a_id:
            return self
        return Pair(
            self.b_id, self.b_name, self.a_id, self.a_name, self.games, self.b_wins, self.a_wins
        )


@dataclass(frozen=True)
class Histogram:
    """Totals of one variant counted in bins of `width` points; `bins` has every bin from the
    lowest total's to the highest's, empty ones included."""

    variant: str
    width: int
    bins: list[tuple[int, int]]  # (lowest total of the bin, how many totals)

    @property
    def count(self) -> int:
        return sum(n for _, n in self.bins)


@dataclass(frozen=True)
class MonthCount:
    month: date  # the first day of a local calendar month
    games: int


@dataclass(frozen=True)
class Overview:
    """The statistics page: everything about the filtered games."""

    filters: Filters
    games: int
    by_variant: dict[str, int]  # most played first
    by_month: list[MonthCount]  # every month from the first game's to the last's
    players: list[PlayerStats]  # most wins first
    best_totals: list[Feat]  # the highest total of each table variant, in `VARIANT_NAMES` order
    most_generals: Feat | None
    longest_streak: Streak | None
    pairs: list[Pair]  # most games together first
    distributions: list[Histogram]  # one per table variant played


@dataclass(frozen=True)
class FieldFigures:
    field: str
    label: str
    written: int  # times this field was written (once a game, three times in potrójne)
    points: int
    crossed_out: int  # written with 0

    @property
    def average(self) -> float:
        return self.points / self.written if self.written else 0.0


@dataclass(frozen=True)
class TableFields:
    """Per-field figures of one table (the Polish table serves three variants)."""

    table: str
    variants: list[str]
    fields: list[FieldFigures]  # in table order

    @property
    def most_crossed_out(self) -> FieldFigures | None:
        """The field crossed out most often (the first in table order on a tie), if any was."""
        best = max(self.fields, key=lambda f: f.crossed_out, default=None)
        return best if best is not None and best.crossed_out else None


@dataclass(frozen=True)
class TimelinePoint:
    at: datetime | date  # a game's end, or the first day of a month
    value: float
    game_id: int | None = None  # per game: which one
    games: int = 1  # per month: how many games the average covers


@dataclass(frozen=True)
class Timeline:
    """One player's totals in one variant over time: every game, or monthly averages when there
    are more than `TIMELINE_GAMES`."""

    variant: str
    per_game: bool
    points: list[TimelinePoint]


@dataclass(frozen=True)
class RecentGame:
    game_id: int
    variant: str
    finished_at: datetime
    total: int
    place: int | None
    is_winner: bool
    players: int
    winners: list[str]


@dataclass(frozen=True)
class PlayerReport:
    """The player page: one player's statistics in the filtered games they took part in."""

    player_id: int
    name: str
    filters: Filters  # as asked, without the player
    stats: PlayerStats | None  # None: no finished game in the filter
    best_totals: list[Feat]
    most_generals: Feat | None
    fields: list[TableFields]  # of the variant the charts show
    timeline: Timeline | None
    timeline_variants: list[str]  # table variants the player has totals in
    distribution: Histogram | None
    pairs: list[Pair]  # this player first
    recent: list[RecentGame]


# --- queries -----------------------------------------------------------------------------


def games_by_variant(account_id: int, f: Filters) -> dict[str, int]:
    """Finished games per variant, most played first (then in `VARIANT_NAMES` order)."""
    rows = db.session.execute(
        select(Game.variant, func.count()).where(*_conditions(account_id, f)).group_by(Game.variant)
    ).all()
    order = list(rules.VARIANT_NAMES)
    rows.sort(key=lambda r: (-r[1], order.index(r[0]) if r[0] in order else len(order)))
    return {variant: count for variant, count in rows}


def games_by_month(account_id: int, f: Filters) -> list[MonthCount]:
    counts = _by_local_month(
        select(func.count()).select_from(Game).where(*_conditions(account_id, f)), f.zone
    )
    return [MonthCount(month, row[0]) for month, row in _fill_months(counts, (0,))]


def _by_local_month(
    query: Any, zone: tzinfo, column: Any = Game.finished_at
) -> dict[date, list[int]]:
    """Run an aggregate `query` (its columns summed per local month) grouped by the local
    calendar month of `column`, a naive UTC time.

    The database knows no time zones, so the query groups by UTC month, except in the hours
    around a month's end that may belong to the next local month (or, west of Greenwich, the
    hours after its start that belong to the previous one): those rows are grouped by the UTC
    day and hour, and each such hour is converted here.
    """
    month, edge = _month_parts(column, zone)
    rows = db.session.execute(
        query.add_columns(month.label("month"), edge.label("edge")).group_by(month, edge)
    ).all()
    result: dict[date, list[int]] = {}
    for *figures, utc_month, edge_value in rows:
        year, mon = int(utc_month[:4]), int(utc_month[5:7])
        if edge_value is None:
            local = date(year, mon, 1)
        else:
            day, hour = (int(part) for part in edge_value.split())
            moment = datetime(year, mon, day, hour, tzinfo=UTC).astimezone(zone)
            local = date(moment.year, moment.month, 1)
        sums = result.setdefault(local, [0] * len(figures))
        for i, value in enumerate(figures):
            sums[i] += value or 0
    return result


def _month_parts(column: Any, zone: tzinfo) -> tuple[Any, Any]:
    """SQL for "YYYY-MM" of a UTC time, and "DD HH" for the hours near a month's edge."""
    if db.engine.dialect.name == "postgresql":
        month, day, hour = (func.to_char(column, p) for p in ("YYYY-MM", "DD", "HH24"))
        day_hour = func.to_char(column, "DD HH24")
    else:
        # SQLite stores a time as text, "2025-05-03 18:42:07.123456": cutting it is twice as
        # fast as strftime().
        month, day, hour = (
            func.substr(column, 1, 7),
            func.substr(column, 9, 2),
            func.substr(column, 12, 2),
        )
        day_hour = func.substr(column, 9, 5)
    # The zone's offsets in winter and in summer, in whole hours away from UTC.
    year = datetime.now(UTC).year
    offsets = [
        (datetime(year, m, 1, tzinfo=UTC).astimezone(zone).utcoffset() or timedelta())
        / timedelta(hours=1)
        for m in (1, 7)
    ]
    ahead = math.ceil(max(0, *offsets))  # east: the last hours of a month are the next one's
    behind = math.ceil(max(0, *(-o for o in offsets)))  # west: the first hours, the last one's
    near_edge = []
    if ahead:
        # The last day of a month is 28 to 31; an hour on day 28-30 that is not the last day of
        # its month just lands in the same local month as the rest of it.
        near_edge.append(and_(day.in_(["28", "29", "30", "31"]), hour >= f"{24 - ahead:02d}"))
    if behind:
        near_edge.append(and_(day == "01", hour < f"{behind:02d}"))
    edge = case((or_(*near_edge), day_hour), else_=None) if near_edge else literal(None)
    return month, edge


def _fill_months(
    counts: dict[date, list[int]], empty: Sequence[int]
) -> list[tuple[date, list[int]]]:
    """Every month from the first to the last, those without games as `empty`."""
    if not counts:
        return []
    first, last = min(counts), max(counts)
    months = []
    month = first
    while month <= last:
        months.append((month, counts.get(month, list(empty))))
        month = date(month.year + month.month // 12, month.month % 12 + 1, 1)
    return months


# --- one pass over the seats: figures, distributions, record maxima -----------------------


# A row of `_seat_groups` is the seats of one player in one variant that ended with the same
# total: (player, variant, total, seats, wins, upper bonuses, Generały, most Generały in one game,
# +100 bonuses). Grouping by the total too costs little more than by player and variant, and the
# same rows then give the averages, the best and worst totals, the distributions of totals in
# any bin width and the highest totals of the records.
_VARIANT, _TOTAL, _SEATS, _MOST_GENERALS = 1, 2, 3, 7

# The seats are grouped by one integer, (player × 8 + variant) × 1,000,000 + total: SQLite sorts
# the rows of a GROUP BY, and sorting one integer is a third faster than sorting a player, a
# variant name and a total (measured: 42 ms against 59 ms at 60,000 seats).
_VARIANT_CODES = {variant: code for code, variant in enumerate(rules.VARIANT_NAMES)}
_VARIANT_OF_CODE = dict(enumerate(rules.VARIANT_NAMES))
_KEY_VARIANTS = 8  # more than there are variants
_KEY_TOTALS = 1_000_000  # more than any total (Kości potrójne stays under 20,000)
_FIELD_CODES = {field_id: code for code, field_id in enumerate(sorted(ALL_FIELD_IDS))}
_FIELD_OF_CODE = {code: field_id for field_id, code in _FIELD_CODES.items()}
_KEY_FIELDS = 32  # more than there are fields in both tables
assert len(_VARIANT_CODES) < _KEY_VARIANTS
assert len(_FIELD_CODES) < _KEY_FIELDS


def _seat_groups(account_id: int, f: Filters, player_id: int | None = None) -> list[Any]:
    code = case(_VARIANT_CODES, value=Game.variant, else_=_KEY_VARIANTS - 1)
    key = (
        GameSeat.player_id * literal(_KEY_VARIANTS * _KEY_TOTALS, BigInteger)
        + code * _KEY_TOTALS
        + GameSeat.total
    ).label("key")
    query = (
        select(
            key,
            func.count(),
            # A cast, not a CASE: each CASE per seat costs about as much as the grouping.
            func.sum(cast(GameSeat.is_winner, Integer)),
            func.sum(GameSeat.upper_bonuses),
            func.sum(GameSeat.generals),
            func.max(GameSeat.generals),
            func.sum(GameSeat.extra_bonuses),
        )
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*_seats(account_id, f, player_id))
        .group_by(key)
    )
    groups = []
    for packed, *figures in _rows(query):
        rest, total = divmod(packed, _KEY_TOTALS)
        pid, variant_code = divmod(rest, _KEY_VARIANTS)
        variant = _VARIANT_OF_CODE.get(variant_code)
        if variant is not None:  # a variant this version does not know is left out
            groups.append((pid, variant, total, *figures))
    return groups


def _rows(query: Any) -> list[Any]:
    """The rows of a Core query, without the ORM's row processing (a tenth of a large
    statistics query's time)."""
    return db.session.connection().execute(query).all()


def _figures(groups: Iterable[Any]) -> dict[int, dict[str, Figures]]:
    """Each player's figures per variant, variants in `VARIANT_NAMES` order."""
    sums: dict[tuple[int, str], list[Any]] = {}
    for pid, variant, total, seats, wins, bonuses, generals, _, extra in groups:
        s = sums.get((pid, variant))
        if s is None:
            sums[(pid, variant)] = [seats, wins, total * seats, total, total, bonuses, generals,
                                    extra]  # fmt: skip
            continue
        s[0] += seats
        s[1] += wins
        s[2] += total * seats
        s[3] = max(s[3], total)
        s[4] = min(s[4], total)
        s[5] += bonuses
        s[6] += generals
        s[7] += extra
    order = _variant_order()
    result: dict[int, dict[str, Figures]] = defaultdict(dict)
    for (pid, variant), s in sorted(sums.items(), key=lambda kv: order(kv[0][1])):
        table = rules.TABLE_VARIANTS.get(variant)
        if table is None:  # poker: a seat's total is its round wins, no score
            result[pid][variant] = Figures(games=s[0], wins=s[1])
        else:
            columns = s[0] * table.columns
            result[pid][variant] = Figures(s[0], s[1], s[0], *s[2:5], columns, *s[5:])
    return result


def _histograms(groups: Iterable[Any]) -> list[Histogram]:
    """The totals of each table variant in at most `HISTOGRAM_BINS` bins of a round width."""
    totals: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for g in groups:
        if g[_VARIANT] != rules.POKER:
            totals[g[_VARIANT]][g[_TOTAL]] += g[_SEATS]
    result = []
    for variant in sorted(totals, key=_variant_order()):
        counts = totals[variant]
        width = bin_width(min(counts), max(counts))
        binned: dict[int, int] = defaultdict(int)
        for total, n in counts.items():
            binned[total // width] += n
        bins = [(b * width, binned.get(b, 0)) for b in range(min(binned), max(binned) + 1)]
        result.append(Histogram(variant, width, bins))
    return result


def _variant_order() -> Callable[[str], int]:
    """A sort key: variants in `VARIANT_NAMES` order, unknown ones last."""
    order = {v: i for i, v in enumerate(rules.VARIANT_NAMES)}
    return lambda variant: order.get(variant, len(order))


def _names(ids: Iterable[int]) -> dict[int, str]:
    ids = sorted(set(ids))
    if not ids:
        return {}
    return dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())


def _player_stats(
    figures: dict[int, dict[str, Figures]], streaks: dict[int, Streak]
) -> list[PlayerStats]:
    names = _names(figures)
    result = [
        PlayerStats(
            player_id=pid,
            name=names[pid],
            overall=sum(by_variant.values(), Figures()),
            by_variant=by_variant,
            streak=streaks.get(pid),
        )
        for pid, by_variant in figures.items()
    ]
    result.sort(key=lambda p: (-p.overall.wins, -p.overall.win_rate, sort_key(p.name)))
    return result


def player_stats(account_id: int, f: Filters, player_id: int | None = None) -> list[PlayerStats]:
    """Every player of the filtered games (or only `player_id`), most wins first."""
    figures = _figures(_seat_groups(account_id, f, player_id))
    if not figures:
        return []
    return _player_stats(figures, longest_streaks(account_id, f, player_id))


def distributions(account_id: int, f: Filters, player_id: int | None = None) -> list[Histogram]:
    return _histograms(_seat_groups(account_id, f, player_id))


def bin_width(low: int, high: int, bins: int = HISTOGRAM_BINS) -> int:
    """The smallest round width that covers `low`..`high` in at most `bins` bins."""
    for width in _NICE_WIDTHS:
        if high // width - low // width + 1 <= bins:
            return width
    return _NICE_WIDTHS[-1]


# --- one pass over the games: winning streaks and head-to-head ----------------------------


# A row of `_game_results`: a game's id, the ids of its players and of its winners, each list
# joined with commas ("3,5,8" and "5"; the winners empty or NULL for none).
GameResult = tuple[int, str, str | None]


def _id_list(column: Any) -> Any:
    """SQL: the ids of a group joined with commas."""
    if db.engine.dialect.name == "postgresql":
        return func.string_agg(cast(column, String), ",")
    return func.group_concat(column)


def _game_results(account_id: int, f: Filters) -> list[GameResult]:
    """One row per filtered game, in the order the games finished.

    A winning streak is a sequence: counting one needs every game of a player in order, which
    SQL does with window functions sorting all the seats (measured: about three times slower
    than this at 10,000 games, see docs/benchmarks.md). The database sends the players and the
    winners of each game as two short lists instead, and the streaks and the head-to-head
    counts are added up here in one pass.
    """
    query = (
        select(
            Game.id,
            _id_list(GameSeat.player_id),
            _id_list(case((GameSeat.is_winner, GameSeat.player_id), else_=None)),
        )
        .select_from(Game)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .where(*_conditions(account_id, f))
        # In the order of the index on (account, finished_at): grouped without a sort.
        .group_by(Game.finished_at, Game.id)
        .order_by(Game.finished_at, Game.id)
    )
    return _rows(query)


def longest_streaks(account_id: int, f: Filters, player_id: int | None = None) -> dict[int, Streak]:
    """Each player's longest run of games won in a row (the earliest of equal runs), over the
    filtered games against someone, in the order they finished; only `player_id`'s if given."""
    return _streaks(_game_results(account_id, f), player_id)


def _streaks(results: list[GameResult], player_id: int | None = None) -> dict[int, Streak]:
    only = None if player_id is None else str(player_id)
    length: dict[str, int] = defaultdict(int)  # the run going on, per player
    start: dict[str, int] = {}  # where it began
    best: dict[str, tuple[int, int, int]] = {}  # player -> (length, first game, last game)
    for index, (_, players, winners) in enumerate(results):
        if "," not in players:  # a game alone neither extends nor breaks a streak
            continue
        won = winners.split(",") if winners else ()
        for player in players.split(",") if only is None else (only,):
            if player in won:
                n = length[player] = length[player] + 1
                if n == 1:
                    start[player] = index
                if n > best.get(player, (0,))[0]:
                    best[player] = (n, start[player], index)
            else:
                length[player] = 0
    if not best:
        return {}
    # Only the games that begin or end a streak are looked up, to date it.
    ids = {results[i][0] for _, first, last in best.values() for i in (first, last)}
    moments = dict(
        db.session.execute(select(Game.id, Game.finished_at).where(Game.id.in_(ids))).all()
    )
    names = _names(int(p) for p in best)
    return {
        int(p): Streak(
            int(p),
            names[int(p)],
            n,
            moments[results[first][0]],
            moments[results[last][0]],
        )
        for p, (n, first, last) in best.items()
    }


def head_to_head(account_id: int, f: Filters, player_id: int | None = None) -> list[Pair]:
    """Every pair of players who played together (with `player_id` only, when given): their
    games together and the wins of each, most games together first."""
    return _pairs(_game_results(account_id, f), player_id)


def _pairs(results: list[GameResult], player_id: int | None = None) -> list[Pair]:
    # Games with the same players and winners count the same: add those up first.
    kinds = Counter((players, winners) for _, players, winners in results)
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    only = None if player_id is None else str(player_id)
    for (players, winners), n in kinds.items():
        won = winners.split(",") if winners else ()
        for a, b in combinations(sorted(players.split(","), key=int), 2):
            if only is not None and only not in (a, b):
                continue
            c = counts[(a, b)]
            c[0] += n
            c[1] += n if a in won else 0
            c[2] += n if b in won else 0
    names = _names(int(p) for pair in counts for p in pair)
    pairs = []
    for (a, b), (games, a_wins, b_wins) in counts.items():
        pair = Pair(int(a), names[int(a)], int(b), names[int(b)], games, a_wins, b_wins)
        if player_id is not None:
            pair = pair.facing(player_id)
        elif sort_key(pair.b_name) < sort_key(pair.a_name):
            pair = pair.facing(pair.b_id)
        pairs.append(pair)
    pairs.sort(key=lambda p: (-p.games, sort_key(p.a_name), sort_key(p.b_name)))
    return pairs


# --- records ------------------------------------------------------------------------------


def best_totals(account_id: int, f: Filters, player_id: int | None = None) -> list[Feat]:
    """The highest total of each table variant; a record belongs to whoever reached it first."""
    groups = _seat_groups(account_id, f, player_id)
    return _feats(account_id, f, groups, player_id)[0]


def most_generals(account_id: int, f: Filters, player_id: int | None = None) -> Feat | None:
    """Most five of a kind rolled by one player in one table game (None when nobody rolled
    one); the first to reach it holds the record."""
    groups = _seat_groups(account_id, f, player_id)
    return _feats(account_id, f, groups, player_id)[1]


def _feats(
    account_id: int, f: Filters, groups: list[Any], player_id: int | None = None
) -> tuple[list[Feat], Feat | None]:
    """The records of `best_totals` and `most_generals`, found with the maxima the seat groups
    already hold: one query for the few seats that reached them."""
    best: dict[str, int] = {}
    generals = 0
    for g in groups:
        variant, total = g[_VARIANT], g[_TOTAL]
        if variant != rules.POKER:
            best[variant] = max(best.get(variant, total), total)
            generals = max(generals, g[_MOST_GENERALS])
    if not best:
        return [], None
    reached = [and_(Game.variant == v, GameSeat.total == total) for v, total in best.items()]
    if generals:
        reached.append(GameSeat.generals == generals)
    rows = _rows(
        select(
            Game.variant,
            GameSeat.total,
            GameSeat.generals,
            GameSeat.player_id,
            Game.id,
            Game.finished_at,
            GameSeat.seat,
        )
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*_seats(account_id, f, player_id), _IS_TABLE, or_(*reached))
    )
    # The first to reach a record holds it: the game that finished first, the earlier seat.
    rows.sort(key=lambda r: (r[5], r[4], r[6]))
    first_total: dict[str, Any] = {}
    first_generals = None
    for variant, total, most, *holder, _ in rows:
        if total == best[variant]:
            first_total.setdefault(variant, (variant, total, *holder))
        if generals and most == generals and first_generals is None:
            first_generals = (variant, most, *holder)
    chosen = [*first_total.values(), *([first_generals] if first_generals else [])]
    names = _names(r[2] for r in chosen)
    sizes = _table_sizes(r[3] for r in chosen)
    feats = [
        Feat(variant, value, pid, names[pid], game_id, finished_at, sizes[game_id])
        for variant, value, pid, game_id, finished_at in chosen
    ]
    totals = sorted(feats[: len(first_total)], key=lambda feat: _variant_order()(feat.variant))
    return totals, (feats[-1] if first_generals else None)


def _table_sizes(game_ids: Iterable[int]) -> dict[int, int]:
    ids = sorted(set(game_ids))
    return dict(
        db.session.execute(
            select(GameSeat.game_id, func.count())
            .where(GameSeat.game_id.in_(ids))
            .group_by(GameSeat.game_id)
        ).all()
    )


# --- the player page's own figures --------------------------------------------------------


def field_figures(account_id: int, f: Filters, player_id: int) -> list[TableFields]:
    """How one player fills each field: times written, average points, times crossed out.

    From the turns in force of the filtered table games. Points are as written in the field
    (a column's multiplier in Kości potrójne is not applied); the three variants on the Polish
    table share its fields.
    """
    # Grouped by one integer, variant × 32 + field, as the seats are (see `_seat_groups`).
    key = (
        case(_VARIANT_CODES, value=Game.variant, else_=_KEY_VARIANTS - 1) * _KEY_FIELDS
        + case(_FIELD_CODES, value=Turn.field, else_=_KEY_FIELDS - 1)
    ).label("key")
    query = (
        select(key, func.count(), func.sum(Turn.points), func.sum(cast(Turn.points == 0, Integer)))
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .join(Turn, and_(Turn.game_id == GameSeat.game_id, Turn.seat == GameSeat.seat))
        .where(*_seats(account_id, f, player_id), _IS_TABLE, Turn.undone_at.is_(None))
        .group_by(key)
    )
    per_table: dict[str, dict[str, list[int]]] = defaultdict(dict)
    variants: dict[str, list[str]] = defaultdict(list)
    for packed, written, points, zeros in _rows(query):
        variant_code, field_code = divmod(packed, _KEY_FIELDS)
        variant = rules.TABLE_VARIANTS.get(_VARIANT_OF_CODE.get(variant_code, ""))
        field_id = _FIELD_OF_CODE.get(field_code)
        if variant is None or field_id is None:
            continue
        table = variant.table.id
        if variant.id not in variants[table]:
            variants[table].append(variant.id)
        sums = per_table[table].setdefault(field_id, [0, 0, 0])
        sums[0] += written
        sums[1] += points or 0
        sums[2] += zeros or 0
    tables = {t.id: t for t in (rules.STANDARD, rules.SCANDINAVIAN)}
    order = list(rules.VARIANT_NAMES)
    result = []
    for table_id in sorted(per_table, key=lambda t: list(tables).index(t)):
        sums = per_table[table_id]
        fields = [
            FieldFigures(fd.id, fd.label, *sums[fd.id])
            for fd in tables[table_id].fields
            if fd.id in sums
        ]
        result.append(TableFields(table_id, sorted(variants[table_id], key=order.index), fields))
    return result


def timeline(
    account_id: int, f: Filters, player_id: int, variant: str, games: int | None = None
) -> Timeline:
    """One player's totals in one table variant, oldest first. `games`: how many games that
    is, when the caller already knows."""
    conditions = [*_seats(account_id, f, player_id), Game.variant == variant]
    if games is None:
        games = db.session.scalar(
            select(func.count())
            .select_from(GameSeat)
            .join(Game, Game.id == GameSeat.game_id)
            .where(*conditions)
        )
    if games <= TIMELINE_GAMES:
        rows = db.session.execute(
            select(Game.finished_at, GameSeat.total, Game.id)
            .join(Game, Game.id == GameSeat.game_id)
            .where(*conditions)
            .order_by(Game.finished_at, Game.id)
        ).all()
        points = [TimelinePoint(at, total, game_id) for at, total, game_id in rows]
        return Timeline(variant, True, points)
    months = _by_local_month(
        select(func.count(), func.sum(GameSeat.total))
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*conditions),
        f.zone,
    )
    points = [
        TimelinePoint(month, total / count, None, count)
        for month, (count, total) in sorted(months.items())
    ]
    return Timeline(variant, False, points)


def recent_games(
    account_id: int, f: Filters, player_id: int, limit: int = RECENT_GAMES
) -> list[RecentGame]:
    rows = db.session.execute(
        select(
            Game.id,
            Game.variant,
            Game.finished_at,
            GameSeat.total,
            GameSeat.place,
            GameSeat.is_winner,
        )
        .join(Game, Game.id == GameSeat.game_id)
        .where(*_seats(account_id, f, player_id))
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(limit)
    ).all()
    if not rows:
        return []
    seats: dict[int, list[tuple[str, bool]]] = defaultdict(list)
    for game_id, name, won in db.session.execute(
        select(GameSeat.game_id, Player.name, GameSeat.is_winner)
        .join(Player, Player.id == GameSeat.player_id)
        .where(GameSeat.game_id.in_([r[0] for r in rows]))
        .order_by(GameSeat.game_id, GameSeat.seat)
    ):
        seats[game_id].append((name, won))
    return [
        RecentGame(
            game_id,
            variant,
            finished_at,
            total,
            place,
            is_winner,
            len(seats[game_id]),
            [name for name, won in seats[game_id] if won],
        )
        for game_id, variant, finished_at, total, place, is_winner in rows
    ]


# --- what the pages and the API ask for --------------------------------------------------


def overview(account_id: int, f: Filters) -> Overview:
    """Five passes over the filtered games, whatever their number: games per variant, games
    per month, the seats grouped by player, variant and total, the games' players and winners
    in order, and the seats that set the records; then a few lookups by id (names, dates)."""
    by_variant = games_by_variant(account_id, f)
    games = sum(by_variant.values())
    if not games:
        return Overview(f, 0, {}, [], [], [], None, None, [], [])
    groups = _seat_groups(account_id, f)
    results = _game_results(account_id, f)
    streaks = _streaks(results)
    players = _player_stats(_figures(groups), streaks)
    best, generals = _feats(account_id, f, groups)
    return Overview(
        filters=f,
        games=games,
        by_variant=by_variant,
        by_month=games_by_month(account_id, f),
        players=players,
        best_totals=best,
        most_generals=generals,
        longest_streak=min(streaks.values(), key=lambda s: (-s.length, s.last_at), default=None),
        pairs=_pairs(results),
        distributions=_histograms(groups),
    )


def player_report(account_id: int, player: Player, f: Filters) -> PlayerReport:
    """`f` should not name players: the report covers the games `player` took part in."""
    pid = player.id
    own = Filters(f.variant, frozenset({pid}), f.since, f.until, f.zone)
    groups = _seat_groups(account_id, own, pid)
    figures = _figures(groups)
    if not figures:
        return PlayerReport(pid, player.name, f, None, [], None, [], None, [], None, [], [])
    results = _game_results(account_id, own)
    (stats,) = _player_stats(figures, _streaks(results, pid))
    table_variants = list(stats.table_variants)
    chart_variant = None
    if f.variant in table_variants:
        chart_variant = f.variant
    elif table_variants:  # the one played most (the first of those, in the usual order)
        chart_variant = max(
            table_variants, key=lambda v: (stats.by_variant[v].games, -table_variants.index(v))
        )
    best, generals = _feats(account_id, own, groups, pid)
    # The charts and the per-field figures show one variant: the totals of different variants
    # do not compare, and in "Gra po kolei" a zero is the order's, not the player's choice.
    chart_filters = Filters(chart_variant, own.player_ids, f.since, f.until, f.zone)
    histograms = _histograms(g for g in groups if g[_VARIANT] == chart_variant)
    return PlayerReport(
        player_id=pid,
        name=player.name,
        filters=f,
        stats=stats,
        best_totals=best,
        most_generals=generals,
        fields=field_figures(account_id, chart_filters, pid) if chart_variant else [],
        timeline=(
            timeline(account_id, own, pid, chart_variant, stats.by_variant[chart_variant].games)
            if chart_variant
            else None
        ),
        timeline_variants=table_variants,
        distribution=histograms[0] if histograms else None,
        pairs=_pairs(results, pid),
        recent=recent_games(account_id, own, pid),
    )


def api_summary(account_id: int, f: Filters) -> dict[str, Any]:
    """`GET /api/v1/stats`: games, games per variant, and per player games, wins, win rate and
    average, best and worst total of the table games (null without one). Players by name."""
    by_variant = games_by_variant(account_id, f)
    players = sorted(_overall_figures(account_id, f), key=lambda p: sort_key(p[0]))
    return {
        "games": sum(by_variant.values()),
        "by_variant": by_variant,
        "players": [
            {
                "name": name,
                "games": fig.games,
                "wins": fig.wins,
                "win_rate": round(fig.win_rate, 4),
                "average": None if fig.average is None else round(fig.average, 2),
                "best": fig.best,
                "worst": fig.worst,
            }
            for name, fig in players
        ],
    }


def _overall_figures(account_id: int, f: Filters) -> list[tuple[str, Figures]]:
    """Each player's overall figures in one query (the API has no use for streaks): poker
    seats grouped apart, so that their round wins never mix with totals."""
    # One integer to group by, player × 2 + poker (see `_seat_groups`).
    key = (GameSeat.player_id * 2 + cast(Game.variant == rules.POKER, Integer)).label("key")
    query = (
        select(
            key,
            func.count(),
            func.sum(cast(GameSeat.is_winner, Integer)),
            func.sum(GameSeat.total),
            func.max(GameSeat.total),
            func.min(GameSeat.total),
        )
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*_conditions(account_id, f))
        .group_by(key)
    )
    figures: dict[int, Figures] = defaultdict(Figures)
    for packed, games, wins, total, best, worst in _rows(query):
        pid, is_poker = divmod(packed, 2)
        if is_poker:
            figures[pid] += Figures(games=games, wins=wins)
        else:
            figures[pid] += Figures(games, wins, games, total, best, worst)
    names = _names(figures)
    return [(names[pid], fig) for pid, fig in figures.items()]


def empty_api_summary() -> dict[str, Any]:
    return {"games": 0, "by_variant": {}, "players": []}


# --- Polish alphabetical order -----------------------------------------------------------

_ALPHABET = "aąbcćdeęfghijklłmnńoóprsśtuvwxyzźż"
_RANK = {ch: i for i, ch in enumerate(_ALPHABET)}


def sort_key(name: str) -> tuple[tuple[int, int], ...]:
    """Names in Polish alphabetical order: Łucja after Lena, Żaneta last."""
    return tuple((_RANK.get(ch, len(_ALPHABET)), ord(ch)) for ch in name.casefold())


__all__ = [
    "Feat",
    "Figures",
    "Filters",
    "Histogram",
    "Overview",
    "Pair",
    "PlayerReport",
    "PlayerStats",
    "Streak",
    "TableFields",
    "Timeline",
    "api_summary",
    "empty_api_summary",
    "find_player_id",
    "make_filters",
    "overview",
    "player_report",
]
