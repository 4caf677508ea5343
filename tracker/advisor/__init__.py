"""Optimal play for the table variants: what each free field is worth in expected points.

Pure Python, standard library only at run time, like `tracker/rules/`. The values come from
tables built by `tracker/advisor/build.py` (numpy, offline) from exactly the rules in
`tracker/rules/` (every point and refusal asked of `rules.evaluate`; a review prices its moves with
`rules.allowed_moves`, `evaluate`'s allowed moves without their words) and shipped as data files.

- `advise(variant, sheet, dice, options)`: the expected final total of the sheet before the roll,
  and for every field the rules allow for these dice, the expected final total if they are
  written there and how much less that is than the best field ("loss").
- `review_seat(variant, options, turns)`: one player's turns judged one by one; the sum of what
  the choices cost, and the luck of the dice (what they brought above the expectation).

Values are for optimal *solitaire* play: the most points on average, not the best chance to
beat the others. `standard`, `ordered` (63 and 42) and `scandinavian` are exact; `triple` is an
approximation (each column valued as a lone column without joker and extra bonus, times its
multiplier, plus a measured term for the choice among three columns, `_flexibility`) and every
figure it gives says so (`exact` false). Dice poker has no field choice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ..rules import (
    Dice,
    Move,
    Options,
    Sheet,
    Variant,
    allowed_moves,
    sheet_totals,
    write_move,
)
from ..rules.sheet import Column, empty_sheet
from .specs import Spec, spec_for
from .store import AdvisorUnavailable, table

EQUAL_WITHIN = 0.05  # expected points: closer than this, two choices count as equally good

__all__ = [
    "EQUAL_WITHIN",
    "Advice",
    "AdvisorUnavailable",
    "MoveAdvice",
    "SeatReview",
    "SeatSummary",
    "TurnReview",
    "advise",
    "expected_total",
    "is_exact",
    "review_game",
    "review_seat",
    "summarise_game",
    "summarise_seat",
    "supports",
]


class MoveAdvice(NamedTuple):
    """One move the rules allow for the dice, priced (a tuple: a review builds thousands)."""

    column: int
    field: str
    label: str
    points: int  # written in the field
    extra_bonus: int  # unmultiplied, as the rules give it
    expected: float  # the expected final total after writing the dice here
    loss: float  # the best move's expected minus this one's (0 for the best)
    gain: int = 0  # how much the sheet's total rises (bonuses and multiplier included)

    @property
    def best(self) -> bool:
        return self.loss < EQUAL_WITHIN


@dataclass(frozen=True)
class Advice:
    variant: str
    exact: bool
    expected: float  # the expected final total of the sheet as sent, before the roll
    moves: tuple[MoveAdvice, ...]  # every allowed move, best first; empty without dice
    total: int = 0  # the points on the sheet as sent

    @property
    def best(self) -> MoveAdvice | None:
        return self.moves[0] if self.moves else None

    def find(self, field_id: str, column: int = 0) -> MoveAdvice | None:
        return next((m for m in self.moves if m.field == field_id and m.column == column), None)


def supports(variant: object) -> bool:
    """Whether the advisor values this variant (every table variant; not dice poker)."""
    return isinstance(variant, Variant) and spec_for(variant, 63) is not None


def is_exact(variant: Variant) -> bool:
    """Exact optimal play for one-column variants; `triple` is approximate."""
    return variant.columns == 1


def _spec(variant: Variant, options: Options | None) -> Spec:
    threshold = (options or Options()).bonus_threshold
    spec = spec_for(variant, threshold)
    if spec is None:
        raise AdvisorUnavailable(f"No advisor table for {variant.id} at {threshold}.")
    return spec


# Kości potrójne: three lone columns undervalue a sheet whose every roll may go to any of three
# columns. Measured by bench/advisor_triple.py (500 games played by this approximation, seed
# 20261202): the realised total exceeds Σ multiplier × column value by 221.7 ± 12.5 before the
# first turn, 133.9 before turn 14, 48.6 before turn 27, 2.2 before the last; about
# 221.7 × (free / 39) ^ 1.3. The term depends only on how many fields are free, the same after
# every move of a turn, so it changes no advice; it makes the expected totals and the luck of
# a triple game unbiased on average (docs/benchmarks.md, "Kości potrójne approximation").
TRIPLE_FLEX_POINTS = 221.7
TRIPLE_FLEX_POWER = 1.3


def _flexibility(variant: Variant, free: int) -> float:
    """The calibrated value of choosing among several columns, with `free` fields left."""
    if variant.columns == 1 or free <= 0:
        return 0.0
    fields = len(variant.table.fields) * variant.columns
    share: float = (free / fields) ** TRIPLE_FLEX_POWER
    return TRIPLE_FLEX_POINTS * share


def _free(variant: Variant, sheet: Sheet) -> int:
    return len(variant.table.fields) * variant.columns - sum(len(c.cells) for c in sheet)


def expected_total(variant: Variant, sheet: Sheet, options: Options | None = None) -> float:
    """Points on the sheet plus the points still to come under optimal play (before a roll)."""
    return _Position(_spec(variant, options), variant, sheet, options).expected


class _Position:
    """A sheet as the tables price it: its total, each column's state and the value still to
    come in it, and how many fields are free. `advise` prices one roll on it; `summarise_seat`
    prices every turn of a game and follows the chosen moves (`move`) instead of recomputing."""

    def __init__(self, spec: Spec, variant: Variant, sheet: Sheet, options: Options | None):
        self.spec = spec
        self.variant = variant
        self.values = table(spec.key)
        self.total = sheet_totals(variant, sheet, options).total
        self.states = [spec.state_of(col) for col in sheet]
        self.columns = [
            mult * self.values.remaining(spec.index(*state))
            for state, mult in zip(self.states, variant.multipliers, strict=True)
        ]
        self.free = _free(variant, sheet)

    @property
    def expected(self) -> float:
        """The expected final total before the roll."""
        return self.total + sum(self.columns) + _flexibility(self.variant, self.free)

    def priced(
        self, sheet: Sheet, dice: Dice, options: Options | None
    ) -> list[tuple[float, Move, tuple[int, int, bool], float]]:
        """Every move the rules allow for the dice: (expected final total after it, the move,
        its column's new state, that column's value still to come)."""
        after, index, remaining = self.spec.after, self.spec.index, self.values.remaining
        states, columns, total = self.states, self.columns, self.total
        columns_sum = sum(columns)
        flex_after = _flexibility(self.variant, self.free - 1)  # every move leaves one fewer
        priced = []
        for p in allowed_moves(self.variant, sheet, dice, options):
            # A move changes one column: only its new state is looked up.
            state = after(states[p.column], p.field, p.points)
            column_value = p.multiplier * remaining(index(*state))
            rest = columns_sum - columns[p.column] + flex_after
            priced.append((total + p.gain + rest + column_value, p, state, column_value))
        return priced

    def move(self, p: Move, state: tuple[int, int, bool], column_value: float) -> None:
        """Follow the move `priced` gave this state and value for."""
        self.states[p.column] = state
        self.columns[p.column] = column_value
        self.total += p.gain
        self.free -= 1


def advise(
    variant: Variant, sheet: Sheet, dice: Dice | None = None, options: Options | None = None
) -> Advice:
    """The sheet's expected final total, and every move these dice allow, best first."""
    spec = _spec(variant, options)
    position = _Position(spec, variant, sheet, options)
    expected = position.expected
    if dice is None:
        return Advice(variant.id, is_exact(variant), expected, (), position.total)
    priced = sorted(
        (
            (-value, p.column, spec.bits[p.field], p)
            for value, p, _, _ in position.priced(sheet, dice, options)
        ),
        key=lambda item: item[:3],
    )
    best = -priced[0][0] if priced else 0.0
    moves = tuple(
        MoveAdvice(p.column, p.field, p.label, p.points, p.extra_bonus, -neg, best + neg, p.gain)
        for neg, _, _, p in priced
    )
    return Advice(variant.id, is_exact(variant), expected, moves, position.total)


@dataclass(frozen=True)
class TurnReview:
    """One turn of one player, judged against optimal solitaire play."""

    dice: Dice
    field: str
    column: int
    expected_before: float  # the sheet's expected final total before the roll
    expected_after: float  # … after writing the dice where the player did
    best: tuple[MoveAdvice, ...]  # the best moves for these dice (within EQUAL_WITHIN)
    loss: float  # expected points given away by the choice (0 when within EQUAL_WITHIN)
    luck: float  # the dice: the best move's expected minus the expectation before the roll
    total: int  # the points on the sheet after the turn

    @property
    def chose_best(self) -> bool:
        return self.loss == 0.0


@dataclass(frozen=True)
class SeatReview:
    variant: str
    exact: bool
    expected_start: float  # an empty sheet's expected final total
    turns: tuple[TurnReview, ...]

    @property
    def total(self) -> int:
        return self.turns[-1].total if self.turns else 0

    @property
    def expected_now(self) -> float:
        return self.turns[-1].expected_after if self.turns else self.expected_start

    @property
    def loss(self) -> float:
        """Expected points given away by the choices, in all."""
        return sum(t.loss for t in self.turns)

    @property
    def loss_per_turn(self) -> float:
        return self.loss / len(self.turns) if self.turns else 0.0

    @property
    def luck(self) -> float:
        """How far the dice were above (+) or below (−) what optimal play expects:
        expected now − expected at the start + the points the choices gave away, so that
        total = expected at the start + luck − loss once the sheet is full."""
        return self.expected_now - self.expected_start + self.loss


def review_seat(
    variant: Variant, options: Options | None, turns: Iterable[tuple[Dice, str, int]]
) -> SeatReview:
    """Judge one player's turns (dice, field, column) in the order they were played."""
    sheet: Sheet = empty_sheet(variant)
    start = expected_total(variant, sheet, options)
    reviewed: list[TurnReview] = []
    for dice, field_id, column in turns:
        advice = advise(variant, sheet, dice, options)
        chosen = advice.find(field_id, column)
        if chosen is None:  # the rules refuse it: the turns were not written by these rules
            write_move(variant, sheet, dice, field_id, column)  # raises MoveRefused
            raise AdvisorUnavailable(f"{field_id} is not a move for {dice}")
        best = advice.moves[0]
        sheet = _written(sheet, chosen)
        reviewed.append(
            TurnReview(
                dice=dice,
                field=field_id,
                column=column,
                expected_before=advice.expected,
                expected_after=chosen.expected,
                best=tuple(m for m in advice.moves if m.best),
                loss=0.0 if chosen.best else chosen.loss,
                luck=best.expected - advice.expected,
                total=advice.total + chosen.gain,
            )
        )
    return SeatReview(variant.id, is_exact(variant), start, tuple(reviewed))


def _written(sheet: Sheet, move: MoveAdvice) -> Sheet:
    col: Column = sheet[move.column].write(move.field, move.points, move.extra_bonus)
    return sheet[: move.column] + (col,) + sheet[move.column + 1 :]


class SeatSummary(NamedTuple):
    """What a `SeatReview` adds up to, without its record of every turn: the figures stored
    for "who plays best" when a game ends (`summarise_seat`)."""

    variant: str
    exact: bool
    expected_start: float
    turns: int
    loss: float
    luck: float
    total: int


def summarise_seat(
    variant: Variant, options: Options | None, turns: Iterable[tuple[Dice, str, int]]
) -> SeatSummary:
    """`review_seat`'s sums (loss, luck, total) and nothing else, at a fraction of its cost:
    the turn that ends a game pays for it on every seat.

    Every move is priced with `advise`'s arithmetic, term for term, so the figures are the
    same floats; what is left out is what only a page shows: sorting the moves, naming the
    best ones, and the sheet's total and every column's value recomputed on each turn (here
    they follow the moves, as the chosen move changes one column)."""
    sheet: Sheet = empty_sheet(variant)
    position = _Position(_spec(variant, options), variant, sheet, options)
    start = position.expected
    loss = 0.0
    expected_now = start
    count = 0
    for dice, field_id, column in turns:
        priced = position.priced(sheet, dice, options)
        chosen = next((m for m in priced if m[1].field == field_id and m[1].column == column), None)
        if chosen is None:  # the rules refuse it: the turns were not written by these rules
            write_move(variant, sheet, dice, field_id, column)  # raises MoveRefused
            raise AdvisorUnavailable(f"{field_id} is not a move for {dice}")
        value, move, state, column_value = chosen
        turn_loss = max(m[0] for m in priced) + -value  # as `advise` computes a move's loss
        loss += 0.0 if turn_loss < EQUAL_WITHIN else turn_loss
        expected_now = value
        position.move(move, state, column_value)
        count += 1
        col = sheet[column].write(field_id, move.points, move.extra_bonus)
        sheet = sheet[:column] + (col,) + sheet[column + 1 :]
    total = position.total
    return SeatSummary(
        variant.id, is_exact(variant), start, count, loss, expected_now - start + loss, total
    )


def summarise_game(
    variant: Variant,
    options: Options | None,
    seats: int,
    turns: Iterable[tuple[int, Dice, str, int]],
) -> tuple[SeatSummary, ...]:
    """`review_game`'s figures per seat, through `summarise_seat`."""
    return tuple(
        summarise_seat(variant, options, seat_turns) for seat_turns in _by_seat(seats, turns)
    )


def _by_seat(
    seats: int, turns: Iterable[tuple[int, Dice, str, int]]
) -> list[list[tuple[Dice, str, int]]]:
    by_seat: list[list[tuple[Dice, str, int]]] = [[] for _ in range(seats)]
    for seat, dice, field_id, column in turns:
        by_seat[seat].append((dice, field_id, column))
    return by_seat


def review_game(
    variant: Variant,
    options: Options | None,
    seats: int,
    turns: Iterable[tuple[int, Dice, str, int]],
) -> tuple[SeatReview, ...]:
    """Every seat's review of a table game, from its turns (seat index, dice, field, column)
    in the order they were played; a seat without turns has an empty review."""
    return tuple(review_seat(variant, options, seat_turns) for seat_turns in _by_seat(seats, turns))
