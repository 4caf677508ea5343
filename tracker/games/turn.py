"""What the turn screen shows, built from what the rules core says.

Nothing here judges a roll: `TableGame.evaluate` (the rules core) gives every free field's
points, refusal reasons and notes. This module only arranges them for the screen: which field is
the best, which zero deserves a second question, which reason is shared by many fields. The hint
of a game that agreed to it („Podpowiedzi”) is `tracker.advisor`'s, arranged the same way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from .. import advisor
from ..i18n import decimal_separator, gettext
from ..rules import (
    Code,
    Dice,
    Evaluation,
    Field,
    Placement,
    Sheet,
    Variant,
    extra_bonus_count,
    upper_status,
)
from ..rules_text import points_text, rules_text
from ..services.games import GameView, better_than_zero
from ..store.rows import TurnRow

logger = logging.getLogger(__name__)


def cell_name(variant: Variant, field_id: str, column: int) -> str:
    """The field's name on the screen: "Ful", or "Ful ×2" when there are several columns (in
    the request's language: the rules core marks its labels with N_)."""
    label = rules_text(variant.table.by_id[field_id].label)
    return f"{label} ×{variant.multipliers[column]}" if variant.columns > 1 else label


def turn_text(view: GameView, turn: TurnRow, rise: int | None = None) -> str:
    """A written turn as the log says it: "Ala – Ful 25"; in a column of several, after a
    colon, "Ala – Generał ×3: 50" (not "×3 50", read as 350). `rise`: what the turn added to
    the player's total (`TableGame.rise`), said where that is not simply its points: "Ala –
    Generał ×3: 50, do wyniku +150", "Ala – Szóstki 24, do wyniku +59" (the upper bonus)."""
    name = view.seats[turn.seat].player.name
    variant = view.table.variant
    where = cell_name(variant, turn.field or "", turn.column or 0)
    colon = ":" if variant.columns > 1 else ""
    text = f"{name} – {where}{colon} {points_text(turn.points, turn.extra_bonus)}"
    if rise is None or rise == (turn.points or 0) + turn.extra_bonus:
        return text
    return gettext("%(turn)s, do wyniku +%(rise)s", turn=text, rise=rise)


def last_turn_text(view: GameView) -> str | None:
    """The last turn in force as the flash, the undo button and the watching screen say it:
    with what it added to the total (`turn_text`); None before the first turn."""
    if not view.turns:
        return None
    return turn_text(view, view.turns[-1], view.table.rise())


def zero_question(evaluation: Evaluation, placement: Placement) -> str | None:
    """The question asked before writing a 0 where another field would score more, else None
    (when to ask is the service's decision: `games.better_than_zero`)."""
    best = better_than_zero(evaluation, placement)
    return None if best is None else zero_question_text(evaluation.variant, placement, best)


def zero_question_text(variant: Variant, chosen: Placement, best: Placement) -> str:
    where = cell_name(variant, chosen.field, chosen.column)
    best_where = cell_name(variant, best.field, best.column)
    if best.gain != best.points:
        return gettext(
            "Wpisać 0 w polu %(field)s? Najwięcej teraz: %(best)s za %(points)s pkt "
            "(do wyniku +%(gain)s).",
            field=where,
            best=best_where,
            points=best.points,
            gain=best.gain,
        )
    return gettext(
        "Wpisać 0 w polu %(field)s? Najwięcej teraz: %(best)s za %(points)s pkt.",
        field=where,
        best=best_where,
        points=best.points,
    )


def _worth_showing(placement: Placement) -> str | None:
    """The rules core's note on a field, unless it only says that the roll does not fit there:
    a pencilled 0 already says it, so the screen leaves it out under half the fields."""
    if placement.note_code is Code.CROSSING_OUT or placement.note_text is None:
        return None
    return rules_text(placement.note_text)  # b1: in the request's language


@dataclass(frozen=True)
class Pencil:
    """One free field with the roll pencilled in."""

    placement: Placement
    name: str  # "Ful" or "Ful ×2"
    best: bool
    confirm: str | None  # the zero question, when writing here needs one
    reason: str | None  # the refusal reason shown on this field (None when shared)

    @property
    def note(self) -> str | None:
        """The rules core's note on this field, unless it only says what the 0 says."""
        return _worth_showing(self.placement) if self.placement.allowed else None

    @property
    def gain_note(self) -> str | None:
        """How the total rises when that is not simply the points: bonus, multiplier."""
        p = self.placement
        if not p.allowed or p.gain == p.points:
            return None
        parts = []
        if p.extra_bonus:
            parts.append(gettext("+%(bonus)s za generała", bonus=p.extra_bonus))
        if p.gain > (p.points + p.extra_bonus) * p.multiplier:
            parts.append(gettext("z premią za górną"))
        if p.multiplier > 1:
            parts.append(f"×{p.multiplier}")
        return " · ".join(parts) + f" = +{p.gain}"


@dataclass(frozen=True)
class GridRow:
    """One field of a many-column sheet: per column its written points or its pencil mark."""

    field: Field
    cells: tuple[int | Pencil | None, ...]  # int: written; Pencil: the roll there; None: free


@dataclass(frozen=True)
class PencilMarks:
    evaluation: Evaluation
    pencils: tuple[Pencil, ...]  # every free field of every column, in table order per column
    shared_reason: str | None  # one reason refusing several fields, said once
    shared_code: Code | None  # that reason's code
    field_notes: tuple[tuple[str, str], ...]  # (field label, note) for the grid, deduplicated


def sheet_grid(variant: Variant, sheet: Sheet, marks: PencilMarks | None = None) -> list[GridRow]:
    """A many-column sheet as rows of fields: written points in ink, pencil marks if any."""
    by_cell = {(p.placement.field, p.placement.column): p for p in marks.pencils} if marks else {}
    rows = []
    for f in variant.table.fields:
        cells: list[int | Pencil | None] = []
        for index, column in enumerate(sheet):
            if column.is_filled(f.id):
                cells.append(column.cells[f.id])
            else:
                cells.append(by_cell.get((f.id, index)))
        rows.append(GridRow(f, tuple(cells)))
    return rows


def pencil_marks(evaluation: Evaluation) -> PencilMarks:
    variant = evaluation.variant
    # b1: the rules' reasons in the request's language (`rules_text`), per placement.
    said = {p: rules_text(p.reason_text) for p in evaluation.placements if p.reason_text}
    reasons = list(said.values())
    shared = reasons[0] if len(reasons) > 1 and len(set(reasons)) == 1 else None
    codes = {p.reason_code for p in said}
    shared_code = next(iter(codes)) if shared is not None and len(codes) == 1 else None
    best_gain = evaluation.best_gain
    pencils = tuple(
        Pencil(
            placement=p,
            name=cell_name(variant, p.field, p.column),
            best=p.allowed and best_gain > 0 and p.gain == best_gain,
            confirm=zero_question(evaluation, p),
            reason=None if said.get(p) == shared else said.get(p),
        )
        for p in evaluation.placements
    )
    notes: dict[tuple[str, str], None] = {}
    for p in evaluation.placements:
        note = _worth_showing(p) if p.allowed else None
        if note:
            notes[(rules_text(p.label), note)] = None
        if p in said and said[p] != shared:
            notes[(rules_text(p.label), said[p])] = None
    return PencilMarks(evaluation, pencils, shared, shared_code, tuple(notes))


# --- the hint („Podpowiedzi”) ----------------------------------------------------------------


def expected_text(value: float, exact: bool = True) -> str:
    """An expected total as the screen says it: one decimal, with the language's decimal mark
    ("254,6", "254.6"); "≈" before the figures of an approximation (Kości potrójne)."""
    text = f"{value:.1f}".replace(".", decimal_separator()).replace("-", "−")
    return text if exact else f"≈{text}"


@dataclass(frozen=True)
class HintMove:
    """One field the roll may go to, valued by optimal solitaire play."""

    name: str  # "Ful" or "Ful ×2"
    field: str
    column: int
    expected: str  # the expected final total if the roll is written here: "254,6"
    loss: str | None  # how much less than the best field ("12,3"); None for the best
    best: bool  # within `advisor.EQUAL_WITHIN` of the best


@dataclass(frozen=True)
class Hint:
    """The hint for one roll in a game that agreed to it: the best fields and, on request,
    every allowed field's expected final total, best first."""

    exact: bool  # False for Kości potrójne: every figure is marked approximate
    before: str  # the sheet's expected final total before this roll
    moves: tuple[HintMove, ...]

    @property
    def best(self) -> tuple[HintMove, ...]:
        return tuple(m for m in self.moves if m.best)

    def is_best(self, field_id: str, column: int = 0) -> bool:
        return any(m.field == field_id and m.column == column for m in self.best)


def turn_hint(view: GameView, seat: int, dice: Dice | None) -> Hint | None:
    """The hint for the current player's roll, or None: in a game without the option (the
    advisor is then not even asked), without five dice, or where the advisor has no table."""
    if not view.game.hints or dice is None or not advisor.supports(view.variant):
        return None
    variant = view.table.variant
    try:
        advice = advisor.advise(variant, view.table.sheets[seat], dice, view.options)
    except advisor.AdvisorUnavailable:
        logger.warning("No advisor table for %s: the hint is left out.", variant.id)
        return None
    if not advice.moves:
        return None
    exact = advice.exact
    moves = tuple(
        HintMove(
            name=cell_name(variant, m.field, m.column),
            field=m.field,
            column=m.column,
            expected=expected_text(m.expected, exact),
            loss=None if m.best else expected_text(m.loss),
            best=m.best,
        )
        for m in advice.moves
    )
    return Hint(exact, expected_text(advice.expected, exact), moves)


@dataclass(frozen=True)
class ColumnStatus:
    multiplier: int
    upper: int
    threshold: int
    label: str  # "do premii brakuje 5", "+4 ponad normę", "premia +35"
    extra_bonus: int = 0  # the column's extra Generał bonuses, before its multiplier


def column_statuses(view: GameView, seat: int) -> list[ColumnStatus]:
    """The upper-bonus progress of each column of a seat's sheet."""
    result = []
    variant = view.table.variant
    for column, multiplier in zip(view.table.sheets[seat], variant.multipliers, strict=True):
        status = upper_status(variant, column, view.options)
        label = rules_text(status.label_text)  # b1: in the request's language
        result.append(
            ColumnStatus(multiplier, status.upper, status.threshold, label, column.extra_bonus)
        )
    return result


def extra_generals(view: GameView, seat: int) -> int:
    """How many +100 marks the seat's sheet carries (extra Generał bonuses)."""
    return extra_bonus_count(view.table.variant, view.table.sheets[seat])


# --- the full sheet ----------------------------------------------------------------------


@dataclass(frozen=True)
class SheetCell:
    text: str
    last: bool = False  # the field written by the last turn in force


@dataclass(frozen=True)
class SheetRow:
    label: str
    kind: str  # "field", "sum" (a derived line), "total"
    cells: tuple[SheetCell, ...]  # one per seat and column; one per seat for "total"
    section_start: bool = False


@dataclass(frozen=True)
class FullSheet:
    """The paper table: fields × players (× columns), sums, bonuses and totals."""

    names: tuple[str, ...]
    # Each seat's name as a column too narrow for the whole name shows it („Dziadek Z.”).
    short_names: tuple[str, ...]
    multipliers: tuple[int, ...]
    rows: tuple[SheetRow, ...]
    current_seat: int | None
    winners: tuple[int, ...]

    @property
    def columns(self) -> int:
        return len(self.multipliers)

    @property
    def longest_word(self) -> int:
        """The most letters in one word of any seat's name, as its column may show it: a sheet
        that scrolls anyway widens its columns to fit that word (static/css/app.css)."""
        return max((len(word) for name in self.names for word in name.split()), default=0)


def full_sheet(view: GameView) -> FullSheet:
    table = view.table
    variant = table.variant
    seats = range(len(view.seats))
    totals = [table.totals(seat) for seat in seats]
    last = view.turns[-1] if view.turns else None

    def field_row(f: Field, section_start: bool) -> SheetRow:
        cells = []
        for seat in seats:
            for index, column in enumerate(table.sheets[seat]):
                value = column.cells.get(f.id)
                where = (seat, index, f.id)
                is_last = last is not None and (last.seat, last.column or 0, last.field) == where
                cells.append(SheetCell("" if value is None else str(value), is_last))
        return SheetRow(rules_text(f.label), "field", tuple(cells), section_start)

    def sum_row(label: str, key: str, section_start: bool = False) -> SheetRow:
        cells = tuple(
            SheetCell(str(getattr(column, key)))
            for seat in seats
            for column in totals[seat].columns
        )
        return SheetRow(label, "sum", cells, section_start)

    threshold = view.options.bonus_threshold
    rows = [field_row(f, False) for f in variant.table.upper_fields]
    rows.append(sum_row(gettext("Suma górna"), "upper", section_start=True))
    rows.append(sum_row(gettext("Premia (%(threshold)s+)", threshold=threshold), "upper_bonus"))
    rows.extend(field_row(f, i == 0) for i, f in enumerate(variant.table.lower_fields))
    rows.append(sum_row(gettext("Suma dolna"), "lower", section_start=True))
    if variant.extra_bonus:
        rows.append(
            sum_row(gettext("Generał +%(bonus)s", bonus=variant.extra_bonus), "extra_bonus")
        )
    if variant.columns > 1:
        rows.append(sum_row(gettext("Kolumna × mnożnik"), "total"))
    total_cells = tuple(SheetCell(str(totals[seat].total)) for seat in seats)
    rows.append(SheetRow(gettext("Razem"), "total", total_cells))
    return FullSheet(
        names=tuple(view.names),
        short_names=tuple(view.short_names),
        multipliers=variant.multipliers,
        rows=tuple(rows),
        current_seat=table.current_seat,
        winners=table.winners,
    )
