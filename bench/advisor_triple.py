"""Kości potrójne: the advisor's approximation against a greedy player, in simulated games.

    .venv/bin/python bench/advisor_triple.py [--games 500] [--standard-games 2000]
        [--seed 20261202] [--check-games 1]

Plays solitaire games with seeded random dice, for two players on the same dice:

- "approx" plays to maximise the advisor's value of a position: the points on the sheet plus,
  for each column, its multiplier times the one-column table value (what
  `tracker.advisor.expected_total` computes). The keeps of a turn are chosen by expectimax over
  the two rerolls, with a final roll worth the best, over the moves the rules allow, of
  total + gain + remaining after the move; the final roll is written where that is highest.
- "greedy" keeps by the same expectimax but with a final roll worth its best immediate gain
  (multiplier and upper bonus included), and writes the highest-gain field (ties: first in
  table order, upper before lower, then the lower multiplier).

The same is run on `standard`, where "approx" is exact optimal play: its mean must come out at
the published 254.59 (a check of the simulator itself).

Every written move is the rules' own: the final roll's moves come from `rules.evaluate` on the
real sheet and are written with `rules.play`, which decides legality, the joker and the +100.
For the keep decisions (252 hypothetical final rolls per turn) the values are vectorised with
numpy: a roll that is not five of a kind writes, in every free field of every column, the
ordinary points the rules give it (read once from `rules.evaluate`), and the five rolls of five
of a kind are asked of `rules.evaluate` on the real sheet every turn. `--check-games` games per
player compare that shortcut with a full `rules.evaluate` of all 252 rolls on every turn, and
every turn checks the chosen move's value against `expected_total` of the sheet it leads to.

Dice: for game g and turn t, a fixed 3 × 5 block of random faces from the seed; the roll k of a
turn takes its first n faces for the n dice thrown, so both players see the same first roll of
every turn and the same random numbers after (a paired comparison).

Runs on one core (BLAS threads pinned to 1).
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from itertools import combinations, combinations_with_replacement  # noqa: E402
from math import factorial  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(ROOT))

from tracker.advisor import expected_total  # noqa: E402
from tracker.advisor.specs import Spec, spec_for  # noqa: E402
from tracker.advisor.store import table  # noqa: E402
from tracker.rules import (  # noqa: E402
    TABLE_VARIANTS,
    Options,
    Section,
    Sheet,
    Variant,
    empty_sheet,
    evaluate,
    play,
    sheet_totals,
)

SEED = 20261202
FACES = (1, 2, 3, 4, 5, 6)
GENERAL = "five_of_a_kind"

# --- dice: rolls, keeps and their chances -----------------------------------------------------

ROLLS: list[tuple[int, ...]] = list(combinations_with_replacement(FACES, 5))
ROLL_INDEX = {r: i for i, r in enumerate(ROLLS)}
KEEPS: list[tuple[int, ...]] = [
    k for n in range(6) for k in combinations_with_replacement(FACES, n)
]
KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}
FIVES = [ROLL_INDEX[(f,) * 5] for f in FACES]
NOT_FIVE = np.array([len(set(r)) > 1 for r in ROLLS])


def _chance(dice: tuple[int, ...]) -> float:
    ways = factorial(len(dice))
    for face in set(dice):
        ways //= factorial(dice.count(face))
    return ways / 6 ** len(dice)


def _transitions() -> np.ndarray:
    """A[k, r]: the chance that keeping KEEPS[k] and throwing the rest ends at ROLLS[r]."""
    a = np.zeros((len(KEEPS), len(ROLLS)))
    for k, keep in enumerate(KEEPS):
        for thrown in combinations_with_replacement(FACES, 5 - len(keep)):
            a[k, ROLL_INDEX[tuple(sorted(keep + thrown))]] += _chance(thrown)
    return a


def _choices() -> tuple[np.ndarray, list[list[int]]]:
    """For each roll the keeps it allows: a padded array (for max) and the plain lists."""
    lists = [
        sorted({KEEP_INDEX[kept] for n in range(6) for kept in combinations(roll, n)})
        for roll in ROLLS
    ]
    width = max(len(x) for x in lists)
    padded = np.array([x + [x[0]] * (width - len(x)) for x in lists])
    return padded, lists


TRANSITIONS = _transitions()
CHOICES, CHOICE_LISTS = _choices()
FIRST_ROLL = TRANSITIONS[KEEP_INDEX[()]]


def keep_values(final: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Expectimax of a turn: the value of each keep before the second roll (K1) and before
    the third (K2), when a final roll r is worth final[r]."""
    k2 = TRANSITIONS @ final
    v2 = k2[CHOICES].max(axis=1)
    k1 = TRANSITIONS @ v2
    return k1, k2


def best_keep(roll: tuple[int, ...], values: np.ndarray) -> tuple[int, ...]:
    """The keep of highest value (first in KEEPS order on ties: fewer dice kept)."""
    options = CHOICE_LISTS[ROLL_INDEX[roll]]
    return KEEPS[max(options, key=lambda k: (values[k], -k))]


# --- the ordinary points of every roll in every field, as the rules give them -----------------


def ordinary_points(variant: Variant) -> np.ndarray:
    """points[r, f]: what ROLLS[r] writes in field f of an empty column (no joker, no bonus
    condition: the rules' ordinary score), read from `rules.evaluate`."""
    single = variant if variant.columns == 1 else TABLE_VARIANTS["standard"]
    assert single.table is variant.table
    sheet = empty_sheet(single)
    fields = variant.table.field_ids
    points = np.zeros((len(ROLLS), len(fields)), dtype=np.int64)
    for r, roll in enumerate(ROLLS):
        found = evaluate(single, sheet, roll).placements  # type: ignore[arg-type]
        by_field = {p.field: p.points for p in found if p.column == 0}
        points[r] = [by_field[f] for f in fields]
    return points


# --- a game ------------------------------------------------------------------------------------


@dataclass
class Model:
    """What a player needs to value moves of one variant: its table, as an array."""

    variant: Variant
    options: Options
    spec: Spec
    values: np.ndarray  # the one-column table
    points: np.ndarray  # ordinary points [roll, field]
    threshold: int

    @classmethod
    def of(cls, variant_id: str) -> Model:
        variant = TABLE_VARIANTS[variant_id]
        options = Options()
        spec = spec_for(variant, options.bonus_threshold)
        assert spec is not None
        values = np.asarray(table(spec.key).values, dtype=np.float64)
        points = ordinary_points(variant)
        return cls(variant, options, spec, values, points, options.bonus_threshold)


@dataclass(frozen=True)
class ColumnState:
    mask: int
    upper: int
    fifty: bool


def column_states(model: Model, sheet: Sheet) -> list[ColumnState]:
    fields = model.variant.table.field_ids
    upper_ids = [f.id for f in model.variant.table.upper_fields]
    states = []
    for col in sheet:
        mask = sum(1 << i for i, f in enumerate(fields) if f in col.cells)
        upper = sum(col.cells.get(f, 0) for f in upper_ids)
        states.append(ColumnState(mask, upper, col.cells.get(GENERAL) == 50))
    return states


def remaining(model: Model, state: ColumnState) -> float:
    index = model.spec.index(state.mask, min(model.threshold, state.upper), state.fifty)
    return float(model.values[index])


@dataclass(frozen=True)
class Move:
    """A move of a hypothetical final roll: column, field, and per roll its gain and the
    column's remaining value after it."""

    column: int
    field: int
    gain: np.ndarray  # [252]
    after: np.ndarray  # [252] one-column remaining value after the move


def ordinary_moves(model: Model, states: list[ColumnState]) -> list[Move]:
    """Every free field of every column, for every roll as if it were ordinary."""
    table_ = model.variant.table
    bonus = table_.upper_bonus
    moves = []
    for c, (state, mult) in enumerate(zip(states, model.variant.multipliers, strict=True)):
        for f, fdef in enumerate(table_.fields):
            if state.mask >> f & 1:
                continue
            pts = model.points[:, f]
            mask = state.mask | 1 << f
            if fdef.section is Section.UPPER:
                new_upper = state.upper + pts
                crossed = (state.upper < model.threshold) & (new_upper >= model.threshold)
                gain = mult * (pts + bonus * crossed)
                after_by_sum = {
                    s: remaining(model, ColumnState(mask, int(s), state.fifty))
                    for s in np.unique(new_upper)
                }
                after = np.array([after_by_sum[s] for s in new_upper])
            else:
                gain = mult * pts
                if fdef.id == GENERAL:
                    at50 = remaining(model, ColumnState(mask, state.upper, True))
                    at0 = remaining(model, ColumnState(mask, state.upper, state.fifty))
                    after = np.where(pts == 50, at50, at0)
                else:
                    after = np.full(
                        len(ROLLS), remaining(model, ColumnState(mask, state.upper, state.fifty))
                    )
            moves.append(Move(c, f, gain.astype(np.float64), after))
    return moves


@dataclass(frozen=True)
class Priced:
    """An allowed move of one roll as the rules give it, with its value for each player."""

    column: int
    field: str
    order: int
    gain: int
    value: float  # total + gain + remaining of the sheet after it (the approximation)


def priced_moves(model: Model, sheet: Sheet, roll: tuple[int, ...], base: float) -> list[Priced]:
    """The rules' allowed moves of `roll` on the real sheet, valued: `base` is the sheet's
    total plus the remaining value of every column; the move's column is valued anew."""
    states = column_states(model, sheet)
    order = {f: i for i, f in enumerate(model.variant.table.field_ids)}
    result = []
    for p in evaluate(model.variant, sheet, roll, model.options).moves:  # type: ignore[arg-type]
        was = states[p.column]
        upper = was.upper + (p.points if p.section is Section.UPPER else 0)
        fifty = was.fifty or (p.field == GENERAL and p.points == 50)
        after = ColumnState(was.mask | 1 << order[p.field], upper, fifty)
        mult = model.variant.multipliers[p.column]
        delta = mult * (remaining(model, after) - remaining(model, states[p.column]))
        result.append(Priced(p.column, p.field, order[p.field], p.gain, base + p.gain + delta))
    return result


Player = Callable[[list[Priced]], Priced]


def approx_choice(moves: list[Priced]) -> Priced:
    return max(moves, key=lambda m: (m.value, -m.column, -m.order))


def greedy_choice(moves: list[Priced]) -> Priced:
    return max(moves, key=lambda m: (m.gain, -m.order, -m.column))


def final_values(model: Model, sheet: Sheet, greedy: bool, check: bool) -> tuple[np.ndarray, float]:
    """The worth of each of the 252 final rolls on this sheet, and the sheet's base value."""
    states = column_states(model, sheet)
    mults = model.variant.multipliers
    now = [remaining(model, s) for s in states]
    total = sheet_totals(model.variant, sheet, model.options).total
    base = total + sum(m * r for m, r in zip(mults, now, strict=True))
    moves = ordinary_moves(model, states)
    if greedy:
        stack = np.stack([m.gain for m in moves])
    else:
        stack = np.stack(
            [base + m.gain + mults[m.column] * (m.after - now[m.column]) for m in moves]
        )
    final = stack.max(axis=0)
    choose = greedy_choice if greedy else approx_choice
    for r in FIVES:  # joker, +100 and where they may go: the rules, on the real sheet
        best = choose(priced_moves(model, sheet, ROLLS[r], base))
        final[r] = best.gain if greedy else best.value
    if check:
        _check_shortcut(model, sheet, moves, base)
    return final, base


def _check_shortcut(model: Model, sheet: Sheet, moves: list[Move], base: float) -> None:
    """The vectorised moves of every ordinary roll are exactly what `rules.evaluate` allows,
    with the same gain and the same value."""
    mults = model.variant.multipliers
    states = column_states(model, sheet)
    now = [remaining(model, s) for s in states]
    fields = model.variant.table.field_ids
    for r, roll in enumerate(ROLLS):
        if not NOT_FIVE[r]:
            continue
        ruled = {
            (p.column, p.field): (p.gain, p.value) for p in priced_moves(model, sheet, roll, base)
        }
        fast = {
            (m.column, fields[m.field]): (
                int(m.gain[r]),
                base + m.gain[r] + mults[m.column] * (m.after[r] - now[m.column]),
            )
            for m in moves
        }
        assert ruled.keys() == fast.keys(), (roll, sorted(ruled.keys() ^ fast.keys()))
        for key, (gain, value) in ruled.items():
            assert gain == fast[key][0], (roll, key, gain, fast[key])
            assert abs(value - fast[key][1]) < 1e-6, (roll, key, value, fast[key])


@dataclass(frozen=True)
class Game:
    total: int
    expected: list[float]  # the advisor's expected final total before each turn's roll
    extra: int  # points from extra Generał bonuses, multiplied
    fifties: int  # columns whose Generał holds 50


def play_game(model: Model, dice: np.ndarray, greedy: bool, check: bool) -> Game:
    """One solitaire game on the dice block [turn, roll, die]."""
    variant = model.variant
    sheet: Sheet = empty_sheet(variant)
    expected = []
    for turn in range(variant.turns):
        final, base = final_values(model, sheet, greedy, check)
        expected.append(base)
        k1, k2 = keep_values(final)
        roll = tuple(sorted(int(d) for d in dice[turn, 0]))
        for k, values in ((1, k1), (2, k2)):
            keep = best_keep(roll, values)
            thrown = tuple(int(d) for d in dice[turn, k, : 5 - len(keep)])
            roll = tuple(sorted(keep + thrown))
        choice = (greedy_choice if greedy else approx_choice)(
            priced_moves(model, sheet, roll, base)
        )
        sheet, placement = play(variant, sheet, roll, choice.field, choice.column, model.options)  # type: ignore[arg-type]
        assert placement.gain == choice.gain
        if not greedy:  # the value the player chased is the advisor's own figure
            assert abs(expected_total(variant, sheet, model.options) - choice.value) < 1e-3
    totals = sheet_totals(variant, sheet, model.options)
    return Game(
        totals.total,
        expected,
        sum(c.extra_bonus * c.multiplier for c in totals.columns),
        sum(col.cells.get(GENERAL) == 50 for col in sheet),
    )


# --- the run -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    label: str
    games: list[Game]
    seconds: float

    @property
    def totals(self) -> np.ndarray:
        return np.array([g.total for g in self.games], dtype=np.float64)

    def row(self) -> str:
        mean, sd, half = _stats(self.totals)
        return (
            f"| {self.label} | {len(self.games)} | {mean:.1f} | {sd:.1f} | "
            f"{mean - half:.1f} – {mean + half:.1f} | "
            f"{self.seconds / len(self.games) * 1000:.0f} ms |"
        )

    def bonuses(self) -> str:
        extra = np.array([g.extra for g in self.games])
        columns = len(self.games[0].expected) // 13
        all_fifty = np.mean([g.fifties == columns for g in self.games])
        return (
            f"{self.label}: extra Generał bonuses {extra.mean():.1f} points a game "
            f"(in {np.mean(extra > 0):.1%} of games); every Generał at 50 in {all_fifty:.1%}"
        )

    def bias(self) -> str:
        """The realised total minus the advisor's expectation before turn t: about 0 for an
        exact table, and the approximation's error for `triple`."""
        expected = np.array([g.expected for g in self.games])
        turns = expected.shape[1]
        parts = []
        for t in sorted({0, turns // 3, 2 * turns // 3, turns - 1}):
            mean, _, half = _stats(self.totals - expected[:, t])
            parts.append(f"turn {t + 1}: {mean:+.1f} ± {half:.1f}")
        return f"{self.label}: final − expected before " + "; ".join(parts)


def _stats(values: np.ndarray) -> tuple[float, float, float]:
    """Mean, standard deviation and the half width of the mean's 95 % interval."""
    sd = float(values.std(ddof=1))
    return float(values.mean()), sd, 1.96 * sd / math.sqrt(len(values))


def dice_blocks(seed: int, variant_id: str, games: int, turns: int) -> list[np.ndarray]:
    tag = sum(variant_id.encode())
    return [
        np.random.default_rng([seed, tag, g]).integers(1, 7, size=(turns, 3, 5))
        for g in range(games)
    ]


def run(variant_id: str, games: int, seed: int, check_games: int) -> list[Summary]:
    model = Model.of(variant_id)
    blocks = dice_blocks(seed, variant_id, games, model.variant.turns)
    result = []
    for label, greedy in (("approx", False), ("greedy", True)):
        start = time.perf_counter()
        games_ = [play_game(model, b, greedy, check=g < check_games) for g, b in enumerate(blocks)]
        seconds = time.perf_counter() - start
        name = "optimal (exact table)" if variant_id != "triple" and not greedy else label
        result.append(Summary(f"{variant_id}: {name}", games_, seconds))
        print(result[-1].row(), flush=True)
    return result


def paired(a: Summary, b: Summary) -> str:
    mean, sd, half = _stats(a.totals - b.totals)
    return (
        f"{a.label} − {b.label}: {mean:+.1f} (95 % {mean - half:+.1f} – "
        f"{mean + half:+.1f}, paired on the same dice, sd {sd:.1f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="triple games per player")
    parser.add_argument("--standard-games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--check-games", type=int, default=1, help="games per player checked roll by roll"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(f"seed {args.seed}; one core; numpy {np.__version__}")
    print("| player | games | mean | sd | 95 % interval of the mean | time per game |")
    print("|---|---:|---:|---:|---|---:|")
    summaries = run("standard", args.standard_games, args.seed, args.check_games)
    summaries += run("triple", args.games, args.seed, args.check_games)
    print()
    print(paired(summaries[0], summaries[1]))
    print(paired(summaries[2], summaries[3]))
    for summary in summaries:
        print(summary.bonuses())
    print(summaries[0].bias())
    print(summaries[2].bias())
    print(f"total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
