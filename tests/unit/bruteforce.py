"""Optimal solitaire play by plain enumeration: the independent check of the advisor tables.

Written apart from `tracker/advisor/build.py` (which it never imports) and as plainly as the
game is played: a turn is a roll of five dice, up to two rerolls of any dice the player does not
keep, and the final roll written in a field the rules allow. The value of a sheet is the
expected number of points still to come under the best play:

    remaining(sheet) = E[ max over keeps, twice ... max over allowed moves
                          (gain of the move + remaining(sheet after the move)) ]

Every point, refusal, joker and extra bonus comes from `rules.evaluate` on the real sheet, and
the gain of a move (upper bonus included) is its `gain`, the difference of `sheet_totals`.
Nothing is vectorised and no state layout is shared with the builder: a sheet is remembered by
what the rules can see of it — which fields are filled, the upper sum (uncapped), the value in
the Generał field — so that a recursion over a few free fields stays quick.

Floats, not fractions: the tables are float32, compared to 1e-3.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial

from tracker.rules import Column, Dice, Options, Sheet, Variant, evaluate

FACES = (1, 2, 3, 4, 5, 6)
GENERAL = "five_of_a_kind"

Outcomes = tuple[tuple[int, float], ...]  # (roll index, probability)


def _probability(dice: Sequence[int]) -> float:
    """The chance that len(dice) fair dice show exactly this multiset."""
    ways = factorial(len(dice))
    for face in set(dice):
        ways //= factorial(list(dice).count(face))
    return ways / 6 ** len(dice)


@cache
def dice_model() -> tuple[tuple[Dice, ...], tuple[Outcomes, ...], tuple[tuple[int, ...], ...]]:
    """The 252 rolls; for every keep (any sub-multiset of a roll, 462 of them) the rolls a
    reroll of the other dice can give, with their chances; for every roll the keeps it allows."""
    rolls: tuple[Dice, ...] = tuple(combinations_with_replacement(FACES, 5))
    roll_index: dict[tuple[int, ...], int] = {roll: i for i, roll in enumerate(rolls)}
    keeps = [k for n in range(6) for k in combinations_with_replacement(FACES, n)]
    keep_index = {keep: i for i, keep in enumerate(keeps)}
    outcomes = tuple(
        tuple(
            (roll_index[tuple(sorted(keep + thrown))], _probability(thrown))
            for thrown in combinations_with_replacement(FACES, 5 - len(keep))
        )
        for keep in keeps
    )
    choices = tuple(
        tuple(sorted({keep_index[kept] for n in range(6) for kept in combinations(roll, n)}))
        for roll in rolls
    )
    return rolls, outcomes, choices


def turn_value(final: Sequence[float]) -> float:
    """Expected value of a turn when a final roll r is worth final[r]: roll, keep the best,
    reroll, keep the best, reroll (keeping all five dice is a keep too, so stopping early is)."""
    _, outcomes, choices = dice_model()
    value = list(final)
    for _ in range(2):
        after_keep = [sum(p * value[r] for r, p in outs) for outs in outcomes]
        value = [max(after_keep[k] for k in keeps) for keeps in choices]
    first = outcomes[0]  # keeping nothing: the first roll of the turn
    return sum(p * value[r] for r, p in first)


class Solver:
    """Expected points still to come for the sheets of one single-column variant."""

    def __init__(self, variant: Variant, options: Options | None = None) -> None:
        assert variant.columns == 1, "the brute force values one column"
        self.variant = variant
        self.options = options or Options()
        self.upper = tuple(f.id for f in variant.table.upper_fields)
        self.memo: dict[tuple[frozenset[str], int, int | None], float] = {}

    def key(self, column: Column) -> tuple[frozenset[str], int, int | None]:
        """All of the sheet that decides the rest of the game: the filled fields (legality,
        joker, order), the upper sum (the bonus) and the Generał value (the extra bonus)."""
        upper = sum(column.cells.get(f, 0) for f in self.upper)
        return frozenset(column.cells), upper, column.cells.get(GENERAL)

    def remaining(self, column: Column) -> float:
        key = self.key(column)
        found = self.memo.get(key)
        if found is None:
            found = self._solve(column)
            self.memo[key] = found
        return found

    def final_values(self, column: Column) -> list[float]:
        """For each of the 252 rolls, the best of: its gain in an allowed field plus what the
        sheet after that move is still worth."""
        rolls, _, _ = dice_model()
        values = []
        for roll in rolls:
            sheet: Sheet = (column,)
            moves = evaluate(self.variant, sheet, roll, self.options).moves
            assert moves, f"no allowed move for {roll} on {dict(column.cells)}"
            values.append(
                max(
                    p.gain + self.remaining(column.write(p.field, p.points, p.extra_bonus))
                    for p in moves
                )
            )
        return values

    def _solve(self, column: Column) -> float:
        if len(column.cells) == len(self.variant.table.fields):
            return 0.0
        return turn_value(self.final_values(column))


@cache
def solver(variant: Variant, threshold: int = 63) -> Solver:
    """One shared solver (and memo) per variant and threshold, for the whole test run."""
    return Solver(variant, Options(bonus_threshold=threshold))
