"""What may these dice score on this sheet: the one function every caller asks.

`evaluate` lists every free field of every column with the points the roll would write there,
whether the rules allow it, and why not or what is surprising about it. `play` writes a move
after checking it the same way, and `replay` rebuilds a sheet from the turns players entered.
`judge_move` judges one field without pricing the move (the fast path of a replay).

Every refusal reason and note carries a stable `Code` beside its Polish text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from .codes import Code
from .dice import FACE_GENITIVE, Dice, format_dice, is_five_of_a_kind
from .errors import MoveRefused, RulesError
from .sheet import (
    Column,
    Sheet,
    column_rise,
    column_totals,
    empty_sheet,
    generals_at_fifty,
    sheet_totals,
)
from .tables import Field, Section
from .variants import Options, Variant

GENERAL = "five_of_a_kind"


class Placement(NamedTuple):
    """One free field of one column, for one roll (a named tuple: `evaluate` makes one per free
    field, and a game's review thousands)."""

    column: int
    field: str
    label: str
    section: Section
    allowed: bool
    points: int  # written in the field
    extra_bonus: int  # the extra Generał bonus this move earns, unmultiplied
    multiplier: int
    gain: int  # how much the player's grand total rises, upper bonus and multiplier included
    reason: str | None = None  # why the rules refuse it
    note: str | None = None  # what is surprising about it
    reason_code: Code | None = None  # the reason's code: decide on this, not on the text
    note_code: Code | None = None  # the note's code


@dataclass(frozen=True)
class Evaluation:
    variant: Variant
    dice: Dice
    five_of_a_kind: bool
    joker: bool
    extra_bonus: int  # earned by any legal move of this roll, unmultiplied
    placements: tuple[Placement, ...]
    notes: tuple[str, ...]  # about the roll as a whole (joker, extra bonus, or why neither)
    note_codes: tuple[Code, ...] = ()  # one code per note, in the same order

    @property
    def moves(self) -> tuple[Placement, ...]:
        return tuple(p for p in self.placements if p.allowed)

    @property
    def refused(self) -> tuple[Placement, ...]:
        return tuple(p for p in self.placements if not p.allowed)

    def find(self, field_id: str, column: int = 0) -> Placement | None:
        for p in self.placements:
            if p.field == field_id and p.column == column:
                return p
        return None

    @property
    def best_gain(self) -> int:
        return max((p.gain for p in self.moves), default=0)


def is_joker(variant: Variant, sheet: Sheet, dice: Dice) -> bool:
    """A five of a kind is a joker only when every Generał field is filled (50 or 0) and the
    matching upper field is filled in every column ("Generał staje się jokerem dopiero wtedy,
    gdy zajęte są pola Generał we wszystkich trzech kolumnach i pasujące pole górnej części")."""
    if not variant.joker or not is_five_of_a_kind(dice):
        return False
    upper_id = variant.table.upper_fields[dice[0] - 1].id
    return all(col.is_filled(GENERAL) and col.is_filled(upper_id) for col in sheet)


def extra_bonus_for(variant: Variant, sheet: Sheet, dice: Dice) -> int:
    """+100 for a five of a kind while every Generał field holds 50, wherever it is written.

    The test is the state of the sheet, not the history of earlier rolls.
    """
    if variant.extra_bonus and is_five_of_a_kind(dice) and generals_at_fifty(sheet):
        return variant.extra_bonus
    return 0


@dataclass(frozen=True)
class Verdict:
    """The rules' answer for writing a roll in one free field, before pricing the move."""

    points: int  # written in the field
    extra_bonus: int  # earned by the move, unmultiplied (0 when refused)
    reason: str | None = None  # why the rules refuse it
    reason_code: Code | None = None
    note: str | None = None  # what is surprising about it
    note_code: Code | None = None

    @property
    def allowed(self) -> bool:
        return self.reason is None


@dataclass(frozen=True)
class _RollContext:
    """What a roll means on a sheet, computed once per roll and shared by every field."""

    joker: bool
    extra: int
    lower_free: bool


def _context(variant: Variant, sheet: Sheet, dice: Dice) -> _RollContext:
    if len(sheet) != variant.columns:
        raise RulesError(
            f"Wariant {variant.id} ma {variant.columns} kolumn(y), a tabela {len(sheet)}."
        )
    lower = variant.table.lower_fields
    return _RollContext(
        joker=is_joker(variant, sheet, dice),
        extra=extra_bonus_for(variant, sheet, dice),
        lower_free=any(not col.is_filled(f.id) for col in sheet for f in lower),
    )


_Text = tuple[Code, str]  # a reason or a note: its code and its Polish sentence


def _judgement(
    variant: Variant, column: Column, dice: Dice, f: Field, ctx: _RollContext
) -> tuple[int, int, _Text | None, _Text | None]:
    """Points, extra bonus, refusal and note for writing the roll in one free field: what
    `evaluate` and `judge_move` both answer."""
    points, note = _points(variant, f, dice, joker=ctx.joker, lower_free=ctx.lower_free)
    reason = _refusal(variant, column, f, ctx)
    return points, (ctx.extra if reason is None else 0), reason, note


def _verdict(
    variant: Variant, sheet: Sheet, dice: Dice, f: Field, column: int, ctx: _RollContext
) -> Verdict:
    points, extra, reason, note = _judgement(variant, sheet[column], dice, f, ctx)
    return Verdict(
        points=points,
        extra_bonus=extra,
        reason=reason[1] if reason else None,
        reason_code=reason[0] if reason else None,
        note=note[1] if note else None,
        note_code=note[0] if note else None,
    )


def _refusal(variant: Variant, column: Column, f: Field, ctx: _RollContext) -> _Text | None:
    if variant.fixed_order:
        next_free = _next_free(variant, column)
        if next_free is not None and f.id != next_free.id:
            return (
                Code.NOT_NEXT_IN_ORDER,
                f"Gra po kolei: teraz wpisujesz do pola {next_free.label}.",
            )
    if ctx.joker and f.section is Section.UPPER and ctx.lower_free:
        return (
            Code.JOKER_MUST_GO_LOWER,
            "Joker musi trafić do wolnego pola dolnej części; górną część "
            "można skreślić dopiero, gdy dolna jest pełna.",
        )
    return None


def evaluate(
    variant: Variant, sheet: Sheet, dice: Dice, options: Options | None = None
) -> Evaluation:
    """Every free field of every column: may this roll go there, for how many points, and why."""
    ctx = _context(variant, sheet, dice)
    placements: list[Placement] = []
    for index, (col, mult) in enumerate(zip(sheet, variant.multipliers, strict=True)):
        # A move changes one column: the grand total rises by that column's rise.
        base = column_totals(variant, col, mult, options)
        for f in variant.table.fields:
            if col.is_filled(f.id):
                continue
            # Straight into a Placement, without a Verdict between (a review prices thousands).
            points, extra, reason, note = _judgement(variant, col, dice, f, ctx)
            gain = column_rise(variant, base, f.id, points, extra, options)
            placements.append(
                Placement(
                    index,
                    f.id,
                    f.label,
                    f.section,
                    reason is None,
                    points,
                    extra,
                    mult,
                    gain,
                    reason[1] if reason else None,
                    note[1] if note else None,
                    reason[0] if reason else None,
                    note[0] if note else None,
                )
            )
    five = is_five_of_a_kind(dice)
    notes = _roll_notes(variant, sheet, dice, five=five, joker=ctx.joker, extra=ctx.extra)
    return Evaluation(
        variant,
        dice,
        five,
        ctx.joker,
        ctx.extra,
        tuple(placements),
        tuple(text for _, text in notes),
        tuple(code for code, _ in notes),
    )


def _written(sheet: Sheet, column: int, field_id: str, verdict: Verdict) -> Sheet:
    col = sheet[column].write(field_id, verdict.points, verdict.extra_bonus)
    return sheet[:column] + (col,) + sheet[column + 1 :]


def _placement(f: Field, column: int, multiplier: int, verdict: Verdict, gain: int) -> Placement:
    return Placement(
        column=column,
        field=f.id,
        label=f.label,
        section=f.section,
        allowed=verdict.allowed,
        points=verdict.points,
        extra_bonus=verdict.extra_bonus,
        multiplier=multiplier,
        gain=gain,
        reason=verdict.reason,
        note=verdict.note,
        reason_code=verdict.reason_code,
        note_code=verdict.note_code,
    )


def judge_move(
    variant: Variant, sheet: Sheet, dice: Dice, field_id: str, column: int = 0
) -> Verdict:
    """Judge writing the roll in one field exactly as `evaluate` does, without pricing the move.

    RulesError for a column or field the variant does not have, MoveRefused (`FIELD_FILLED`)
    for a filled field; a move the rules forbid comes back with its reason (`allowed` false).
    """
    if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < variant.columns:
        raise RulesError(
            f"Kolumna {column} nie istnieje: wariant {variant.id} ma kolumny "
            f"0–{variant.columns - 1}.",
            Code.UNKNOWN_COLUMN,
        )
    f = variant.table.by_id.get(field_id) if isinstance(field_id, str) else None
    if f is None:
        raise RulesError(
            f"Pola {field_id!r} nie ma w tabeli wariantu {variant.id}.", Code.UNKNOWN_FIELD
        )
    if sheet[column].is_filled(field_id):
        raise MoveRefused(f"Pole {f.label} jest już wypełnione.", Code.FIELD_FILLED)
    return _verdict(variant, sheet, dice, f, column, _context(variant, sheet, dice))


def write_move(
    variant: Variant, sheet: Sheet, dice: Dice, field_id: str, column: int = 0
) -> tuple[Sheet, Verdict]:
    """The sheet with the roll written in the field, unpriced; MoveRefused with the reason
    (and its code) when the rules forbid it."""
    verdict = judge_move(variant, sheet, dice, field_id, column)
    if verdict.reason is not None:
        raise MoveRefused(verdict.reason, verdict.reason_code)
    return _written(sheet, column, field_id, verdict), verdict


def play(
    variant: Variant,
    sheet: Sheet,
    dice: Dice,
    field_id: str,
    column: int = 0,
    options: Options | None = None,
) -> tuple[Sheet, Placement]:
    """Write the roll in the field; MoveRefused (with the reason) when the rules forbid it.

    Judges the one field exactly as `evaluate` does, without pricing every other field.
    """
    after, verdict = write_move(variant, sheet, dice, field_id, column)
    before = sheet_totals(variant, sheet, options).total
    gain = sheet_totals(variant, after, options).total - before
    f = variant.table.by_id[field_id]
    return after, _placement(f, column, variant.multipliers[column], verdict, gain)


def replay(
    variant: Variant,
    turns: Iterable[tuple[Dice, str, int]],
    options: Options | None = None,
) -> Sheet:
    """Rebuild a sheet from its turns (dice, field, column): the turns are the source of truth.

    Options do not change what a field holds, only the totals; they are accepted for symmetry."""
    sheet = empty_sheet(variant)
    for dice, field_id, column in turns:
        sheet, _ = write_move(variant, sheet, dice, field_id, column)
    return sheet


def _next_free(variant: Variant, column: Column) -> Field | None:
    return next((f for f in variant.table.fields if not column.is_filled(f.id)), None)


def _points(
    variant: Variant, f: Field, dice: Dice, *, joker: bool, lower_free: bool
) -> tuple[int, _Text | None]:
    """Points the roll writes in the field, and a note when the number would surprise."""
    if joker:
        return _joker_points(f, dice, lower_free=lower_free)
    ordinary = f.points(dice)
    if ordinary:
        return ordinary, None
    if is_five_of_a_kind(dice) and f.section is Section.LOWER and f.joker_points is not None:
        why = _why_not_joker(variant, dice[0])
        return 0, (
            Code.FIVE_NOT_YET_JOKER,
            f"Pięć jednakowych to nie {f.label.lower()}: jako zwykły rzut daje tu 0. {why}",
        )
    misfit = next((m for m in f.misfits if m.test(dice)), None)
    if misfit is not None:
        return 0, (misfit.code, misfit.note)
    return 0, (Code.CROSSING_OUT, "Rzut tu nie pasuje: skreślasz pole (0).")


def _joker_points(f: Field, dice: Dice, *, lower_free: bool) -> tuple[int, _Text | None]:
    """A joker scores ful 25, strits 30 and 40, the sum elsewhere below; 0 in the upper section
    ("górną część można skreślić dopiero, gdy dolna jest pełna")."""
    if f.section is Section.UPPER:
        if lower_free:
            return 0, None
        return 0, (
            Code.JOKER_UPPER_ZERO,
            "Dolna część jest pełna: joker trafia do górnej części za 0.",
        )
    if f.joker_points is not None:
        return f.joker_points, (
            Code.JOKER_FIXED_POINTS,
            f"Joker: {f.label.lower()} liczy się za {f.joker_points}.",
        )
    ordinary = f.score(dice)
    return ordinary, (Code.JOKER_SUM, f"Joker: suma oczek, {ordinary}.")


def _why_not_joker(variant: Variant, face: int) -> str:
    upper = variant.table.upper_fields[face - 1].label
    if variant.columns > 1:
        return (
            f"Jokerem byłby dopiero, gdy pola Generał i {upper} są zajęte "
            "we wszystkich trzech kolumnach."
        )
    return f"Jokerem byłby dopiero, gdy pola Generał i {upper} są zajęte."


def _roll_notes(
    variant: Variant, sheet: Sheet, dice: Dice, *, five: bool, joker: bool, extra: int
) -> tuple[_Text, ...]:
    if not five:
        return ()
    if not variant.joker and not variant.extra_bonus:
        return (
            (
                Code.NO_GENERAL_BONUSES,
                "W tabeli skandynawskiej kolejne generały nie dają premii i nie są jokerami.",
            ),
        )
    notes = (_bonus_note(variant, sheet, extra), _joker_note(variant, sheet, dice, joker=joker))
    return tuple(note for note in notes if note is not None)


def _bonus_note(variant: Variant, sheet: Sheet, extra: int) -> _Text | None:
    """Why a five of a kind earns the extra +100, or why not."""
    many = variant.columns > 1
    if extra:
        if many:
            text = (
                f"+{extra}: kolejny generał, bo we wszystkich polach Generał jest 50. "
                "Premię mnoży się tak jak kolumnę, do której wpiszesz rzut."
            )
        elif variant.fixed_order:
            text = f"+{extra}: kolejny generał, bo w polu Generał jest 50."
        else:
            text = (
                f"+{extra}: kolejny generał, bo w polu Generał jest 50 – premia należy się "
                "wszędzie, gdzie wpiszesz rzut, także za 0."
            )
        return Code.EXTRA_BONUS, text
    if all(col.is_filled(GENERAL) for col in sheet):
        return (
            Code.NO_EXTRA_BONUS_GENERAL_ZERO,
            "Bez premii +100: premię daje tylko 50 w polu Generał"
            + (" we wszystkich kolumnach." if many else ", a tu jest 0."),
        )
    if many and any(col.is_filled(GENERAL) for col in sheet):
        return (
            Code.NO_EXTRA_BONUS_YET,
            "Bez premii +100: w kościach potrójnych premia należy się dopiero, gdy we "
            "wszystkich trzech polach Generał jest 50.",
        )
    return None


def _joker_note(variant: Variant, sheet: Sheet, dice: Dice, *, joker: bool) -> _Text | None:
    """Why a five of a kind is a joker, or why not although Generał is taken."""
    face = dice[0]
    upper = variant.table.upper_fields[face - 1].label
    if joker:
        return (
            Code.JOKER,
            f"Joker ({format_dice(dice)}): pole Generał i pole {upper} są zajęte, więc rzut "
            "pasuje do każdego pola dolnej części (ful 25, mały strit 30, duży strit 40).",
        )
    if all(col.is_filled(GENERAL) for col in sheet):
        return (
            Code.NOT_JOKER_UPPER_FREE,
            f"To nie joker: pole {upper} jest wolne"
            + (" w którejś kolumnie" if variant.columns > 1 else "")
            + f", więc pięć {FACE_GENITIVE[face]} to zwykły rzut (ful i strity 0).",
        )
    return None
