"""Build the optimal-play tables: a numpy backward induction (numpy is the `advisor` extra).

For each start-of-turn state, from the full sheet back to the empty one, the value is the
expectation over the first roll of the best keep, the best keep after the second roll, and the
best field for the final roll, each field worth its points, the upper bonus when the move reaches
the threshold, the extra +100, and the value of the state it leads to. Every point and every
refusal comes from `probe` (that is, from `rules.evaluate`).

Run it with `flask --app tracker advisor build` (all tables) or `python -m tracker.advisor.build`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import factorial
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Dice
from ..rules.dice import FACES, all_rolls
from . import probe
from .specs import GENERAL, SPECS, Spec
from .store import DATA_DIR, FORMAT, MANIFEST

ROLLS: tuple[Dice, ...] = all_rolls()
ROLL_INDEX = {roll: i for i, roll in enumerate(ROLLS)}
FIVES = tuple(ROLL_INDEX[(face,) * 5] for face in FACES)
CHUNK = 32  # masks whose in-turn programmes run as one batch

# Verdicts for a five of a kind: (mask, fifty, face) → field → Verdict.
FiveRule = Callable[[Spec, int, bool, Dice], dict[str, probe.Verdict]]


def _multiset_probs(n: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    outcomes = list(combinations_with_replacement(FACES, n))
    probs = []
    for outcome in outcomes:
        ways = factorial(n)
        for face in FACES:
            ways //= factorial(outcome.count(face))
        probs.append(ways / 6**n)
    return outcomes, np.array(probs)


@dataclass(frozen=True)
class Dice5:
    """The dice machinery shared by every state, with keeps grouped by how many dice they hold.

    A keep of m dice is worth the mean, over the face of one more die, of the keep of m + 1
    dice; a keep of five is the roll itself. After a roll the player keeps the best of its
    sub-multisets: the best of a keep is the larger of its own value and the best of each keep
    with one die fewer.
    """

    grow: list[np.ndarray]  # per size m < 5: (keeps of m, 6) → keep of m + 1 (index in size)
    shrink: list[np.ndarray]  # per size m > 0: (keeps of m, kids) → keeps of m − 1 (padded)
    first: np.ndarray  # probability of each roll of five fresh dice

    @classmethod
    def make(cls) -> Dice5:
        sizes = [list(combinations_with_replacement(FACES, m)) for m in range(6)]
        where = [{k: i for i, k in enumerate(keeps)} for keeps in sizes]
        grow = [
            np.array([[where[m + 1][tuple(sorted(k + (f,)))] for f in FACES] for k in sizes[m]])
            for m in range(5)
        ]
        shrink = [np.zeros((1, 1), dtype=np.int64)]
        for m in range(1, 6):
            kids = [sorted({where[m - 1][k[:j] + k[j + 1 :]] for j in range(m)}) for k in sizes[m]]
            width = max(len(k) for k in kids)
            shrink.append(np.array([(k * width)[:width] for k in kids]))
        _, first = _multiset_probs(5)
        return cls(grow, shrink, first)

    def best_after_keep(self, values: np.ndarray) -> np.ndarray:
        """values[row, roll] of the rolls still to be judged → for each roll, the best
        expectation over the keeps it allows (keeping all five included)."""
        kept = [values]
        for m in range(4, -1, -1):
            kept.insert(0, kept[0][:, self.grow[m]].mean(axis=2))
        best = kept[0]
        for m in range(1, 6):
            best = np.maximum(kept[m], best[:, self.shrink[m]].max(axis=2))
        return best

    def turn(self, final: np.ndarray) -> np.ndarray:
        """final[row, roll]: the value of writing each final roll at best → the expectation of
        the turn before its first roll (two rerolls of any dice)."""
        second = self.best_after_keep(final)
        first = self.best_after_keep(second)
        expected: np.ndarray = first @ self.first
        return expected


def kosci_fives(spec: Spec, mask: int, fifty: bool, dice: Dice) -> dict[str, probe.Verdict]:
    return probe.verdicts(spec, mask, fifty, dice)


@dataclass(frozen=True)
class Options:
    """Switches for validating the builder against published answers (official Yahtzee)."""

    upper_bonus: int | None = None  # None: the table's
    fives: FiveRule = kosci_fives
    extra_bonus: bool = True


# --- the published answers: official Yahtzee rules, as switches on the Kości verdicts -----
#
# Kości lets a five of a kind whose upper field is free go anywhere as an ordinary roll, and sends
# a joker to the lower part while a lower field is free. The published optimal scores are for:


def forced_joker(spec: Spec, mask: int, fifty: bool, dice: Dice) -> dict[str, probe.Verdict]:
    """Hasbro's printed rules: with the Yahtzee box filled, a later Yahtzee must go to its
    upper box if that is open (254.5877; "254.59" as Glenn and Verhoeff round it)."""
    found = probe.verdicts(spec, mask, fifty, dice)
    upper = spec.fields[dice[0] - 1]
    general_filled = mask >> spec.fields.index(GENERAL) & 1
    if general_filled and not mask >> (dice[0] - 1) & 1:
        return {f: v if f == upper else probe.Verdict(False, v.points, 0) for f, v in found.items()}
    return found


def free_joker(spec: Spec, mask: int, fifty: bool, dice: Dice) -> dict[str, probe.Verdict]:
    """Verhoeff's and Glenn's reading: any open box for a later Yahtzee, the joker's fixed
    scores once its upper box is filled, 0 in an upper box (254.5896)."""
    found = probe.verdicts(spec, mask, fifty, dice)
    extra = max((v.extra_bonus for v in found.values() if v.allowed), default=0)
    upper = set(spec.fields[: spec.upper_count])
    return {
        f: v if v.allowed or f not in upper else probe.Verdict(True, 0, extra)
        for f, v in found.items()
    }


def no_joker(spec: Spec, mask: int, fifty: bool, dice: Dice) -> dict[str, probe.Verdict]:
    """No joker rules: a later Yahtzee is an ordinary roll in any open box."""
    ordinary = probe.ordinary_points(spec.variant)
    roll = ROLL_INDEX[dice]
    free = (f for bit, f in enumerate(spec.fields) if not mask >> bit & 1)
    return {f: probe.Verdict(True, ordinary[f][roll], 0) for f in free}


OFFICIAL_YAHTZEE = Options(fives=forced_joker)
VERHOEFF_YAHTZEE = Options(fives=free_joker)
# Without the Yahtzee bonus and the joker rules (the upper bonus kept): 245.8708.
NO_YAHTZEE_BONUS = Options(fives=no_joker, extra_bonus=False)


class Solver:
    """The backward induction for one table: values[mask, capped upper, fifty] of every state
    (only reachable (capped upper, fifty) rows are computed; the others stay 0)."""

    def __init__(self, spec: Spec, switches: Options | None = None) -> None:
        self.spec = spec
        self.switches = switches or Options()
        self.dice = Dice5.make()
        self.fields = spec.fields
        self.top = spec.threshold
        table_bonus = spec.variant.table.upper_bonus
        bonus = self.switches.upper_bonus
        self.upper_bonus = table_bonus if bonus is None else bonus
        ordinary = probe.ordinary_points(spec.variant)
        self.points = np.array([ordinary[f] for f in self.fields], dtype=np.float64)
        self.counts = np.array([[roll.count(face) for roll in ROLLS] for face in FACES])
        self.general = self.fields.index(GENERAL) if GENERAL in self.fields else -1
        self.values = np.zeros((1 << len(self.fields), self.top + 1, spec.flags))
        self.sums: dict[int, np.ndarray] = {}
        for upper_mask, capped in spec.pairs:
            self.sums.setdefault(upper_mask, np.array([], dtype=np.int64))
            self.sums[upper_mask] = np.append(self.sums[upper_mask], capped)
        self._fives: dict[tuple[int, bool, int], dict[str, probe.Verdict]] = {}

    def rows(self, mask: int) -> tuple[np.ndarray, int]:
        """The reachable capped upper sums of a mask, and how many flags it can have."""
        ups = self.sums[mask & ((1 << self.spec.upper_count) - 1)]
        general_filled = self.general >= 0 and mask >> self.general & 1
        return ups, (self.spec.flags if general_filled else 1)

    def _bonus(self, ups: np.ndarray, gained: np.ndarray) -> np.ndarray:
        top = self.top
        return np.where((ups < top) & (gained >= top), self.upper_bonus, 0)

    def final_values(self, mask: int) -> np.ndarray:
        """(reachable upper, flag, roll) → best value of writing the final roll."""
        ups, flags = self.rows(mask)
        best = np.full((len(ups), flags, len(ROLLS)), -np.inf)
        free = [b for b in range(len(self.fields)) if not mask >> b & 1]
        if self.spec.fixed_order:
            free = free[:1]
        for b in free:
            after = self.values[mask | 1 << b]  # (top+1, flags)
            if b < self.spec.upper_count:
                face = b + 1
                shifted = np.empty((len(ups), flags, 6))
                for c in range(6):
                    gained = ups + face * c
                    reached = np.minimum(self.top, gained)
                    bonus = self._bonus(ups, gained) + face * c
                    shifted[:, :, c] = after[reached, :flags] + bonus[:, None]
                cand = shifted[:, :, self.counts[face - 1]]
            else:
                cand = self.points[b][None, None, :] + after[ups, :flags, None]
                if b == self.general and self.spec.flags == 2:
                    fifty = self.points[b] == 50  # a Generał of 50 raises the flag
                    raised = self.points[b] + after[ups, 1:2, None]
                    cand = np.where(fifty[None, None, :], raised, cand)
            np.maximum(best, cand, out=best)
        for face, r in zip(FACES, FIVES, strict=True):
            best[:, :, r] = self.five_values(mask, free, face, ups, flags)
        return best

    def five_values(
        self, mask: int, free: list[int], face: int, ups: np.ndarray, flags: int
    ) -> np.ndarray:
        out = np.full((len(ups), flags), -np.inf)
        for flag in range(flags):
            key = (mask, bool(flag), face)
            if key not in self._fives:
                self._fives[key] = self.switches.fives(self.spec, mask, bool(flag), (face,) * 5)
            verdict = self._fives[key]
            for b in free:
                v = verdict[self.fields[b]]
                if not v.allowed:
                    continue
                extra = v.extra_bonus if self.switches.extra_bonus else 0
                after = self.values[mask | 1 << b]
                if b < self.spec.upper_count:
                    gained = ups + v.points
                    reached = np.minimum(self.top, gained)
                    cand = after[reached, flag] + self._bonus(ups, gained) + v.points + extra
                else:
                    raise_flag = b == self.general and v.points == 50 and self.spec.flags == 2
                    cand = after[ups, 1 if raise_flag else flag] + v.points + extra
                out[:, flag] = np.maximum(out[:, flag], cand)
        return out

    def solve(self, *, log: bool = False) -> np.ndarray:
        started = time.perf_counter()
        n = len(self.fields)
        for filled in range(n - 1, -1, -1):
            masks = list(_masks_with(n, filled, self.spec.fixed_order))
            for start in range(0, len(masks), CHUNK):
                chunk = masks[start : start + CHUNK]
                finals = [self.final_values(m) for m in chunk]
                flat = np.concatenate([f.reshape(-1, len(ROLLS)) for f in finals])
                expect = self.dice.turn(flat)
                at = 0
                for mask, final in zip(chunk, finals, strict=True):
                    ups, flags = final.shape[0], final.shape[1]
                    part = expect[at : at + ups * flags].reshape(ups, flags)
                    self.values[mask, self.rows(mask)[0], :flags] = part
                    at += ups * flags
            if log:
                print(
                    f"{self.spec.key}: {filled:2d} filled, {len(masks):5d} masks, "
                    f"{time.perf_counter() - started:6.1f} s",
                    file=sys.stderr,
                )
        return self.values


def solve(spec: Spec, switches: Options | None = None, *, log: bool = False) -> np.ndarray:
    """values[mask, capped upper, fifty] of every state (unreachable ones left at 0)."""
    return Solver(spec, switches).solve(log=log)


def _masks_with(n: int, filled: int, prefix_only: bool) -> Iterable[int]:
    if prefix_only:
        yield (1 << filled) - 1
        return
    for mask in range(1 << n):
        if mask.bit_count() == filled:
            yield mask


def pack(spec: Spec, values: np.ndarray) -> np.ndarray:
    """The reachable states only, in `Spec.index` order, as little-endian float32."""
    out = np.full(spec.size, np.nan, dtype="<f4")
    n = len(spec.fields)
    for mask in _all_masks(spec, n):
        upper_mask = mask & ((1 << spec.upper_count) - 1)
        for (um, capped), _ in spec.pairs.items():
            if um != upper_mask:
                continue
            for flag in range(spec.flags):
                out[spec.index(mask, capped, bool(flag))] = values[mask, capped, flag]
    if spec.fixed_order:  # lower fields before the upper ones are full: no game gets there
        out[np.isnan(out)] = 0.0
    if np.isnan(out).any():
        raise AssertionError("a reachable state was left without a value")
    return out


def _all_masks(spec: Spec, n: int) -> Iterable[int]:
    if spec.fixed_order:
        return [(1 << k) - 1 for k in range(n + 1)]
    return range(1 << n)


def build(
    keys: Iterable[str] | None = None, *, out: Path = DATA_DIR, log: bool = True
) -> dict[str, Any]:
    """Build the named tables (all by default), write them and the manifest; the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / MANIFEST
    manifest: dict[str, Any] = (
        json.loads(path.read_text()) if path.exists() else {"format": FORMAT, "tables": {}}
    )
    if manifest.get("format") != FORMAT:
        manifest = {"format": FORMAT, "tables": {}}
    for key in keys or SPECS:
        spec = SPECS[key]
        started = time.perf_counter()
        values = solve(spec, log=log)
        packed = pack(spec, values)
        data = packed.tobytes()
        (out / f"{key}.f32").write_bytes(data)
        manifest["tables"][key] = {
            "file": f"{key}.f32",
            "variant": spec.variant.id,
            "bonus_threshold": spec.threshold,
            "values": spec.size,
            "sha256": hashlib.sha256(data).hexdigest(),
            "fingerprint": probe.fingerprint(spec),
            "empty_expected": round(float(values[0, 0, 0]), 6),
            "seconds": round(time.perf_counter() - started, 1),
        }
        path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        if log:
            print(f"{key}: empty sheet {values[0, 0, 0]:.4f}", file=sys.stderr)
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tables", nargs="*", choices=[*SPECS, []], help="default: all")
    args = parser.parse_args(argv)
    build(args.tables or None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
