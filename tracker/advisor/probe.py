"""What the rules say a roll scores, asked of `rules.evaluate`: the advisor's only rule source.

The builder never scores a roll itself. Ordinary rolls are asked once on an empty sheet (their
points do not depend on the sheet; only the order of Gra po kolei limits where they go), and a
five of a kind is asked on a sheet with exactly the fields of its state filled, because the
joker and the extra +100 depend on them. The fingerprint hashes the same answers over a fixed
family of sheets, so that a changed rule changes it and the shipped tables fail their test.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from ..rules import Column, Dice, Variant, evaluate
from ..rules.dice import (
    FACES,  # noqa: I001
    all_rolls,
)
from .specs import GENERAL, Spec


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    points: int
    extra_bonus: int


def sheet_with(spec: Spec, mask: int, fifty: bool) -> tuple[Column]:
    """A one-column sheet with the fields of `mask` filled: 0 everywhere, Generał 50 if `fifty`."""
    cells = {
        field_id: (50 if field_id == GENERAL and fifty else 0)
        for bit, field_id in enumerate(spec.fields)
        if mask >> bit & 1
    }
    return (Column(MappingProxyType(cells)),)


def verdicts(spec: Spec, mask: int, fifty: bool, dice: Dice) -> dict[str, Verdict]:
    """Every free field of the state's sheet: may the roll go there, for how much, with what
    extra bonus, as `rules.evaluate` answers."""
    sheet = sheet_with(spec, mask, fifty)
    return {
        p.field: Verdict(p.allowed, p.points, p.extra_bonus)
        for p in evaluate(spec.variant, sheet, dice).placements
    }


@cache
def ordinary_points(variant: Variant) -> dict[str, tuple[int, ...]]:
    """Each field's points for each of the 252 rolls (in `all_rolls` order), on an empty sheet."""
    sheet = (Column(),)
    table: dict[str, list[int]] = {f: [] for f in variant.table.field_ids}
    for dice in all_rolls():
        for p in evaluate(variant, sheet, dice).placements:
            table[p.field].append(p.points)
    return {f: tuple(points) for f, points in table.items()}


def _probe_masks(spec: Spec) -> list[int]:
    """A fixed family of states that exercises every rule a table depends on: each prefix
    (Gra po kolei), and for each face Generał free/filled with the face's upper field free or
    filled and the lower part partly or wholly filled."""
    fields = spec.fields
    bit = {f: 1 << i for i, f in enumerate(fields)}
    lower = [f for f in fields[spec.upper_count :]]
    all_lower = sum(bit[f] for f in lower)
    masks = {(1 << n) - 1 for n in range(len(fields))}
    general = bit.get(GENERAL, 0)
    for face in range(spec.upper_count):
        upper = 1 << face
        for extra in (0, general, general | upper, upper, all_lower, all_lower & ~upper):
            masks.add(extra)
            masks.add(extra | all_lower & ~bit[lower[-1]])
            masks.add(extra | all_lower | upper)
    full = (1 << len(fields)) - 1
    return sorted(m for m in masks if m != full)


def fingerprint(spec: Spec) -> str:
    """A SHA-256 of everything the table was built from: the variant's numbers and the rules'
    answers over `_probe_masks` (every roll of a few states, every five of a kind of them all)."""
    variant = spec.variant
    table = variant.table
    answers: list[object] = [
        spec.key,
        spec.threshold,
        table.upper_bonus,
        variant.extra_bonus,
        variant.joker,
        variant.fixed_order,
        list(spec.fields),
        {f: list(points) for f, points in ordinary_points(variant).items()},
    ]
    fives = [(face,) * 5 for face in FACES]
    for mask in _probe_masks(spec):
        for fifty in (False, True) if spec.flagged else (False,):
            if fifty and not mask >> spec.fields.index(GENERAL) & 1:
                continue
            rolls = all_rolls() if mask in (0, 1) else fives
            for dice in rolls:
                found = verdicts(spec, mask, fifty, dice)
                answers.append(
                    [
                        mask,
                        fifty,
                        list(dice),
                        sorted((f, v.allowed, v.points, v.extra_bonus) for f, v in found.items()),
                    ]
                )
    blob = json.dumps(answers, separators=(",", ":"), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()
