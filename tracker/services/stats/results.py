"""What the statistics return: frozen figures, records, pairs, charts' data and the two pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from ..filters import GameFilter
from .query import is_table


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
    generals: int = 0  # turns whose five dice were all equal, wherever written
    extra_bonuses: int = 0
    turns: int = 0  # turns in force of the table games: every field of every column once

    @property
    def generals_per_100_turns(self) -> float | None:
        """Generały rolled per 100 turns (meaningful per variant: the turns of a game differ)."""
        return 100 * self.generals / self.turns if self.turns else None

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
            turns=self.turns + other.turns,
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
        return {v: f for v, f in self.by_variant.items() if is_table(v)}


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
class SeatAdvantage:
    """The finished games of one table size and the wins of each seat (seat 0 started); a
    shared win counts for each winner, so the win rates may add up to more than 1."""

    players: int
    games: int
    wins: tuple[int, ...]  # per seat

    def win_rate(self, seat: int) -> float:
        return self.wins[seat] / self.games if self.games else 0.0

    @property
    def fair_share(self) -> float:
        """The win rate of every seat if the seat made no difference (and nobody tied)."""
        return 1 / self.players


@dataclass(frozen=True)
class Nemesis:
    """The rival who most often finished ahead of a player, and the rival's record against
    them in the games they both played: `wins` (rival ahead), `losses` (player ahead), `draws`
    (the same place, a shared win included)."""

    player_id: int
    name: str
    rival_id: int
    rival_name: str
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


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
class Skill:
    """How one player played some table games of one variant, judged against optimal solitaire
    play (the seat reviews, `tracker.services.skill`): the expected points their choices gave
    away, and the luck of their dice (actual total minus what optimal play expected, plus the
    points given away, so that total = expected start + luck − loss)."""

    games: int = 0
    turns: int = 0
    loss: float = 0.0  # expected points given away, in all
    luck: float = 0.0  # in all
    exact: bool = True  # false when any figure is approximate (Kości potrójne)

    @property
    def loss_per_turn(self) -> float | None:
        return self.loss / self.turns if self.turns else None

    @property
    def luck_per_game(self) -> float | None:
        return self.luck / self.games if self.games else None

    def __add__(self, other: Skill) -> Skill:
        return Skill(
            self.games + other.games,
            self.turns + other.turns,
            self.loss + other.loss,
            self.luck + other.luck,
            self.exact and other.exact,
        )


@dataclass(frozen=True)
class PlayerSkill:
    player_id: int
    name: str
    skill: Skill


@dataclass(frozen=True)
class VariantSkill:
    """Who plays best in one table variant: players fewest expected points given away per turn
    first."""

    variant: str
    exact: bool
    players: list[PlayerSkill]


@dataclass(frozen=True)
class SkillPoint:
    at: datetime | date  # a game's end, or the first day of a month
    skill: Skill
    game_id: int | None = None  # per game: which one


@dataclass(frozen=True)
class SkillTimeline:
    """One player's play in one table variant over time: every game, or each month when there
    are more games than the chart shows."""

    variant: str
    per_game: bool
    points: list[SkillPoint]


@dataclass(frozen=True)
class Overview:
    """The statistics page: everything about the filtered games."""

    filters: GameFilter
    games: int
    by_variant: dict[str, int]  # most played first
    by_month: list[MonthCount]  # every month from the first game's to the last's
    players: list[PlayerStats]  # most wins first
    best_totals: list[Feat]  # the highest total of each table variant, in `VARIANT_NAMES` order
    most_generals: Feat | None
    longest_streak: Streak | None
    pairs: list[Pair]  # most games together first
    distributions: list[Histogram]  # one per table variant played
    skill: list[VariantSkill] = field(default_factory=list)  # who plays best, per variant
    seat_advantage: list[SeatAdvantage] = field(default_factory=list)  # by table size, 2 up
    nemeses: list[Nemesis] = field(default_factory=list)  # in the order of `players`


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
    filters: GameFilter  # as asked, without the player
    stats: PlayerStats | None  # None: no finished game in the filter
    best_totals: list[Feat]
    most_generals: Feat | None
    fields: list[TableFields]  # of the variant the charts show
    timeline: Timeline | None
    timeline_variants: list[str]  # table variants the player has totals in
    distribution: Histogram | None
    pairs: list[Pair]  # this player first
    recent: list[RecentGame]
    skill: dict[str, Skill] = field(default_factory=dict)  # per table variant reviewed
    skill_timeline: SkillTimeline | None = None  # of the variant the charts show
    nemesis: Nemesis | None = None
