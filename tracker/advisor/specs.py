"""Which optimal-play tables exist, and how a sheet's start-of-turn state indexes them.

A table holds, for every reachable start-of-turn state of one column, the points still to come
under optimal solitaire play (upper bonus and extra Generał bonuses included). The state is what
decides the rest of the game, and nothing else:

- which fields are filled (a bit per field, in table order; in Gra po kolei only how many);
- the upper sum, capped at the bonus threshold (beyond it only "reached" matters);
- whether the Generał field holds 50 (it decides the extra +100), where the variant pays it.

The values are stored only for reachable (upper fields filled, capped upper sum) pairs, so the
files hold about a third of the naive grid.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from ..rules import TABLE_VARIANTS, Sheet, Variant
from ..rules.sheet import Column

GENERAL = "five_of_a_kind"


@dataclass(frozen=True)
class Spec:
    """One table: a single-column variant and its bonus threshold."""

    key: str  # the data file's name, e.g. "standard-63"
    variant: Variant  # single column: the rules asked for every point and every refusal
    threshold: int

    @cached_property
    def fields(self) -> tuple[str, ...]:
        return self.variant.table.field_ids

    @cached_property
    def upper_count(self) -> int:
        return len(self.variant.table.upper_fields)

    @cached_property
    def lower_count(self) -> int:
        return len(self.fields) - self.upper_count

    @property
    def fixed_order(self) -> bool:
        return self.variant.fixed_order

    @cached_property
    def flagged(self) -> bool:
        """Whether a Generał of 50 changes what is to come (joker variants with the +100)."""
        return bool(self.variant.extra_bonus) and GENERAL in self.fields

    @property
    def flags(self) -> int:
        return 2 if self.flagged else 1

    @cached_property
    def pairs(self) -> dict[tuple[int, int], int]:
        """Reachable (upper mask, capped upper sum) pairs → their index, in a fixed order.

        Gra po kolei fills the upper fields first, so only its prefixes of them occur."""
        faces = range(1, self.upper_count + 1)
        result: dict[tuple[int, int], int] = {}
        for upper_mask in range(1 << self.upper_count):
            if self.fixed_order and upper_mask & (upper_mask + 1):
                continue  # not a prefix 0b0…01…1
            sums = {0}
            for face in faces:
                if upper_mask >> (face - 1) & 1:
                    sums = {min(self.threshold, s + face * n) for s in sums for n in range(6)}
            for capped in sorted(sums):
                result[(upper_mask, capped)] = len(result)
        return result

    @cached_property
    def lower_masks(self) -> int:
        return self.lower_count + 1 if self.fixed_order else 1 << self.lower_count

    @property
    def size(self) -> int:
        """How many values the table holds."""
        return len(self.pairs) * self.lower_masks * self.flags

    def index(self, mask: int, capped: int, fifty: bool) -> int:
        """Where the state (filled fields as bits in table order, capped upper sum, Generał
        at 50) is stored; KeyError for a state no game reaches."""
        upper_count, lower_masks, flags, fixed_order = self._layout
        lower_mask = mask >> upper_count
        pair = self.pairs[(mask & ((1 << upper_count) - 1), capped)]
        if fixed_order:
            if lower_mask & (lower_mask + 1):
                raise KeyError(mask)
            lower_key = lower_mask.bit_count()
        else:
            lower_key = lower_mask
        flag = 1 if fifty and flags == 2 else 0
        return (pair * lower_masks + lower_key) * flags + flag

    @cached_property
    def _layout(self) -> tuple[int, int, int, bool]:
        """What `index` reads on every call, read once."""
        return self.upper_count, self.lower_masks, self.flags, self.fixed_order

    def state_of(self, column: Column) -> tuple[int, int, bool]:
        """A column's state: (mask of filled fields, upper sum capped, Generał at 50)."""
        cells = column.cells
        mask = 0
        for bit, field_id in enumerate(self.fields):
            if field_id in cells:
                mask |= 1 << bit
        upper = sum(cells.get(f, 0) for f in self.fields[: self.upper_count])
        return mask, min(self.threshold, upper), cells.get(GENERAL) == 50

    def index_of(self, column: Column) -> int:
        return self.index(*self.state_of(column))

    @cached_property
    def bits(self) -> dict[str, int]:
        return {field_id: 1 << bit for bit, field_id in enumerate(self.fields)}

    def after(
        self, state: tuple[int, int, bool], field_id: str, points: int
    ) -> tuple[int, int, bool]:
        """The state once `points` are written in the free field `field_id`."""
        mask, capped, fifty = state
        bit = self.bits[field_id]
        if bit >> self.upper_count == 0:  # an upper field
            capped = min(self.threshold, capped + points)
        return mask | bit, capped, fifty or (field_id == GENERAL and points == 50)


def _column_variant() -> Variant:
    """One column of Kości potrójne on its own: the standard table without the joker and the
    extra bonus, whose conditions span all three columns (the documented approximation)."""
    triple = TABLE_VARIANTS["triple"]
    return replace(triple, id="triple-column", multipliers=(1,), joker=False, extra_bonus=0)


SPECS: dict[str, Spec] = {
    spec.key: spec
    for spec in (
        Spec("standard-63", TABLE_VARIANTS["standard"], 63),
        Spec("ordered-63", TABLE_VARIANTS["ordered"], 63),
        Spec("ordered-42", TABLE_VARIANTS["ordered"], 42),
        Spec("scandinavian-63", TABLE_VARIANTS["scandinavian"], 63),
        Spec("triple-column-63", _column_variant(), 63),
    )
}


def spec_for(variant: Variant, threshold: int) -> Spec | None:
    """The table that values one column of this variant; None when there is none."""
    if variant.id == "triple":
        return SPECS.get(f"triple-column-{threshold}")
    return SPECS.get(f"{variant.id}-{threshold}")


def column_sheet(column: Column) -> Sheet:
    return (column,)
