"""A player's sheet (one column per multiplier) and its totals.

The sheet is what the paper shows: the points written in each filled field, and per column the
extra Generał bonuses marked beside it (unmultiplied). Totals are always derived, never stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .codes import Code
from .errors import RulesError
from .tables import ALL_FIELD_IDS
from .text import N_, Text
from .variants import DEFAULT_BONUS_THRESHOLD, Options, Variant


@dataclass(frozen=True)
class Column:
    cells: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    extra_bonus: int = 0

    def is_filled(self, field_id: str) -> bool:
        return field_id in self.cells

    def write(self, field_id: str, points: int, extra_bonus: int = 0) -> Column:
        cells = dict(self.cells)
        cells[field_id] = points
        return Column(MappingProxyType(cells), self.extra_bonus + extra_bonus)

    def erase(self, field_id: str, extra_bonus: int = 0) -> Column:
        """The column before `write(field_id, points, extra_bonus)`: the field free again."""
        cells = dict(self.cells)
        del cells[field_id]
        return Column(MappingProxyType(cells), self.extra_bonus - extra_bonus)


Sheet = tuple[Column, ...]


@dataclass(frozen=True)
class ColumnTotals:
    upper: int
    upper_bonus: int
    lower: int
    extra_bonus: int
    multiplier: int
    total: int  # (upper + upper_bonus + lower + extra_bonus) × multiplier

    def as_dict(self) -> dict[str, int]:
        return {
            "upper": self.upper,
            "upper_bonus": self.upper_bonus,
            "lower": self.lower,
            "extra_bonus": self.extra_bonus,
            "multiplier": self.multiplier,
            "total": self.total,
        }


@dataclass(frozen=True)
class SheetTotals:
    columns: tuple[ColumnTotals, ...]
    total: int


@dataclass(frozen=True)
class UpperStatus:
    """Progress towards the upper bonus, as players say it at the table."""

    upper: int
    threshold: int
    missing: int  # points still needed for the bonus (0 once reached)
    par_delta: int  # against "three of each" (two of each at 42) for the filled upper fields
    bonus: int  # the bonus already secured (0 until reached)
    complete: bool = False  # all six upper fields are filled: the bonus is decided
    reachable: bool = True  # five of a face in each free upper field could still reach it

    @property
    def label(self) -> str:
        return str(self.label_text)

    @property
    def label_text(self) -> Text:
        # The line reads "Górna część: 57 – <label>": a distance under par is said as a
        # positive number ("6 pod normą"), never "– -6"; once the bonus cannot be had, nothing
        # is "still missing".
        if self.bonus:
            return Text(N_("premia +%(bonus)d"), bonus=self.bonus)
        if self.complete:
            return Text(N_("bez premii, zabrakło %(missing)d"), missing=self.missing)
        if not self.reachable:
            return Text(N_("premia już nieosiągalna"))
        if self.par_delta > 0:
            return Text(N_("+%(delta)d ponad normę"), delta=self.par_delta)
        if self.par_delta < 0:
            return Text(
                N_("%(delta)d pod normą, do premii brakuje %(missing)d"),
                delta=-self.par_delta,
                missing=self.missing,
            )
        return Text(N_("do premii brakuje %(missing)d"), missing=self.missing)


def empty_sheet(variant: Variant) -> Sheet:
    return tuple(Column() for _ in variant.multipliers)


def is_full(variant: Variant, sheet: Sheet) -> bool:
    return all(len(col.cells) == len(variant.table.fields) for col in sheet)


def column_totals(
    variant: Variant, column: Column, multiplier: int, options: Options | None = None
) -> ColumnTotals:
    threshold = options.bonus_threshold if options else DEFAULT_BONUS_THRESHOLD
    table = variant.table
    # A column holds only its table's fields (`write` and `parse_sheet` see to it): one pass.
    upper_ids = table.upper_ids
    upper = lower = 0
    for field_id, points in column.cells.items():
        if field_id in upper_ids:
            upper += points
        else:
            lower += points
    bonus = table.upper_bonus if upper >= threshold else 0
    total = (upper + bonus + lower + column.extra_bonus) * multiplier
    return ColumnTotals(upper, bonus, lower, column.extra_bonus, multiplier, total)


def column_rise(
    variant: Variant,
    totals: ColumnTotals,
    field_id: str,
    points: int,
    extra_bonus: int,
    options: Options | None = None,
) -> int:
    """How much a column's total (`totals`, from `column_totals`) rises when `points` and
    `extra_bonus` are written in its free field `field_id`: the same sum as `column_totals` of
    the column after the write, without building that column."""
    threshold = options.bonus_threshold if options else DEFAULT_BONUS_THRESHOLD
    table = variant.table
    upper, lower = totals.upper, totals.lower
    if field_id in table.upper_ids:
        upper += points
    else:
        lower += points
    bonus = table.upper_bonus if upper >= threshold else 0
    total = (upper + bonus + lower + totals.extra_bonus + extra_bonus) * totals.multiplier
    return total - totals.total


def sheet_totals(variant: Variant, sheet: Sheet, options: Options | None = None) -> SheetTotals:
    columns = tuple(
        column_totals(variant, col, mult, options)
        for col, mult in zip(sheet, variant.multipliers, strict=True)
    )
    return SheetTotals(columns, sum(c.total for c in columns))


def upper_status(variant: Variant, column: Column, options: Options | None = None) -> UpperStatus:
    options = options or Options()
    dice_per_field = 3 if options.bonus_threshold == 63 else 2
    upper = 0
    par = 0
    best_to_come = 0  # five of its face in every free upper field
    for f in variant.table.upper_fields:
        if f.id in column.cells:
            upper += column.cells[f.id]
            par += dice_per_field * (f.face or 0)
        else:
            best_to_come += 5 * (f.face or 0)
    reached = upper >= options.bonus_threshold
    return UpperStatus(
        upper=upper,
        threshold=options.bonus_threshold,
        missing=max(0, options.bonus_threshold - upper),
        par_delta=upper - par,
        bonus=variant.table.upper_bonus if reached else 0,
        complete=best_to_come == 0,
        reachable=upper + best_to_come >= options.bonus_threshold,
    )


def extra_bonus_count(variant: Variant, sheet: Sheet) -> int:
    """How many extra Generał bonuses the sheet carries (the marks beside the Generał field)."""
    if not variant.extra_bonus:
        return 0
    return sum(col.extra_bonus for col in sheet) // variant.extra_bonus


def generals_at_fifty(sheet: Sheet) -> bool:
    """The extra-bonus condition: every column's Generał field holds 50."""
    return all(col.cells.get("five_of_a_kind") == 50 for col in sheet)


# --- reading a sheet sent by a client -----------------------------------------------------


def parse_sheet(variant: Variant, raw: object) -> Sheet:
    """Validate a sheet given as JSON-like data and return it.

    `raw` is a list with one mapping per column (field id → points, plus an optional
    "extra_bonus"); a single-column variant also accepts a bare mapping; None is an empty sheet.
    Every value must be one that some roll can write in that field, fixed-order sheets may have
    no gap, and extra bonuses need a Generał of 50 (in every column for `triple`).
    """
    if raw is None:
        return empty_sheet(variant)
    if isinstance(raw, Mapping) and variant.columns == 1:
        raw = [raw]
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise RulesError(
            Text(N_("Tabelę (sheet) podaj jako listę kolumn: obiektów pole → punkty.")),
            Code.BAD_SHEET,
        )
    if len(raw) != variant.columns:
        raise RulesError(
            Text(
                N_("Wariant %(variant)s ma %(columns)d kolumnę, podano %(count)d.")
                if variant.columns == 1
                else N_("Wariant %(variant)s ma %(columns)d kolumny, podano %(count)d."),
                variant=variant.id,
                columns=variant.columns,
                count=len(raw),
            ),
            Code.BAD_SHEET,
        )
    columns = tuple(_parse_column(variant, item, index) for index, item in enumerate(raw))
    _check_extra_bonuses(variant, columns)
    return columns


def _in_column(variant: Variant, index: int, message: Text) -> RulesError:
    """A sheet error; with several columns, saying which ("kolumna 2: ...")."""
    if variant.columns > 1:
        message = Text(N_("kolumna %(column)d: %(message)s"), column=index + 1, message=message)
    return RulesError(message, Code.BAD_SHEET)


def _parse_column(variant: Variant, raw: object, index: int) -> Column:
    if not isinstance(raw, Mapping):
        raise _in_column(variant, index, Text(N_("kolumnę podaj jako obiekt pole → punkty.")))
    table = variant.table
    cells: dict[str, int] = {}
    extra = 0
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise _in_column(
                variant,
                index,
                Text(N_("wartość pola %(key)s musi być liczbą całkowitą."), key=repr(key)),
            )
        if key == "extra_bonus":
            extra = value
            continue
        if key not in table.by_id:
            if key in ALL_FIELD_IDS:
                raise _in_column(
                    variant,
                    index,
                    Text(
                        N_("pola %(key)s nie ma w tabeli wariantu %(variant)s."),
                        key=repr(key),
                        variant=variant.id,
                    ),
                )
            raise _in_column(variant, index, Text(N_("nieznane pole %(key)s."), key=repr(key)))
        if value not in table.achievable[key]:
            raise _in_column(
                variant,
                index,
                Text(
                    N_("żaden rzut nie daje %(points)d pkt w polu %(field)s (%(key)s)."),
                    points=value,
                    field=table.by_id[key].label_text,
                    key=key,
                ),
            )
        cells[key] = value
    if variant.fixed_order:
        order = table.field_ids
        filled = [fid for fid in order if fid in cells]
        if filled != list(order[: len(filled)]):
            gap = next(fid for fid in order if fid not in cells)
            raise _in_column(
                variant,
                index,
                Text(
                    N_(
                        "w grze po kolei pola wypełnia się w kolejności tabeli; "
                        "pole %(field)s (%(key)s) jest puste przed wypełnionymi."
                    ),
                    field=table.by_id[gap].label_text,
                    key=gap,
                ),
            )
    return Column(MappingProxyType(cells), extra)


def _check_extra_bonuses(variant: Variant, columns: Sheet) -> None:
    for index, col in enumerate(columns):
        if not col.extra_bonus:
            continue
        if not variant.extra_bonus:
            raise _in_column(
                variant,
                index,
                Text(
                    N_("w wariancie %(variant)s nie ma premii za kolejne generały."),
                    variant=variant.id,
                ),
            )
        if col.extra_bonus < 0 or col.extra_bonus % variant.extra_bonus:
            raise _in_column(
                variant,
                index,
                Text(
                    N_("premia za kolejne generały to wielokrotność %(bonus)d."),
                    bonus=variant.extra_bonus,
                ),
            )
        if not generals_at_fifty(columns):
            raise _in_column(
                variant,
                index,
                Text(
                    N_(
                        "premia za kolejne generały wymaga 50 w polu Generał "
                        "we wszystkich kolumnach."
                    )
                    if variant.columns > 1
                    else N_("premia za kolejne generały wymaga 50 w polu Generał."),
                ),
            )
        # Each bonus was earned by a turn written in this column after the Generał(s) of 50,
        # so there are at most as many as the other filled fields of the column; in Gra po kolei
        # only the fields after Generał in table order ("in practice only Szansa").
        if variant.fixed_order:
            order = variant.table.field_ids
            later = order[order.index("five_of_a_kind") + 1 :]
            others = sum(1 for fid in later if fid in col.cells)
        else:
            others = len(col.cells) - (1 if "five_of_a_kind" in col.cells else 0)
        if col.extra_bonus // variant.extra_bonus > others:
            raise _in_column(
                variant,
                index,
                Text(
                    N_(
                        "za dużo premii za generały (%(bonus)d): każdą daje rzut "
                        "wpisany po Generale, a takich wypełnionych pól jest tu %(others)d."
                    ),
                    bonus=col.extra_bonus,
                    others=others,
                ),
            )
