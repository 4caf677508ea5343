"""What may these dice score on this sheet: the one function every caller asks.

`evaluate` lists every free field of every column with the points the roll would write there,
whether the rules allow it, and why not or what is surprising about it. `play` writes a move
after checking it the same way, and `replay` rebuilds a sheet from the turns players entered.
`judge_move` judges one field without pricing the move (the fast path of a replay).

Every refusal reason and note carries a stable `Code` beside its Polish text, and the same text
as a `Text` (`reason_text`, `note_text`, `note_texts`) for showing it in the player's language.
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
from .text import N_, Text
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
    reason_text: Text | None = None  # the reason, translatable (`str()` is `reason`)
    note_text: Text | None = None  # the note, translatable (`str()` is `note`)


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
    note_texts: tuple[Text, ...] = ()  # the notes, translatable, in the same order

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
    reason_text: Text | None = None
    note_text: Text | None = None

    @property
    def allowed(self) -> bool:
        return self.reason is None


@dataclass(frozen=True)
class _RollContext:
    """What a roll means on a sheet, computed once per roll and shared by every field."""

    joker: bool
    extra: int
    lower_free: bool  # a lower field is free in some column (asked only of a joker)
    # Whether `_refusal` can refuse any field: only Gra po kolei and a joker refuse.
    may_refuse: bool


def _context(variant: Variant, sheet: Sheet, dice: Dice) -> _RollContext:
    if len(sheet) != variant.columns:
        raise RulesError(
            Text(
                N_("Wariant %(variant)s ma %(columns)d kolumn(y), a tabela %(count)d."),
                variant=variant.id,
                columns=variant.columns,
                count=len(sheet),
            ),
            Code.BAD_SHEET,
        )
    lower = variant.table.lower_fields
    joker = is_joker(variant, sheet, dice)
    return _RollContext(
        joker=joker,
        extra=extra_bonus_for(variant, sheet, dice),
        lower_free=joker and any(not col.is_filled(f.id) for col in sheet for f in lower),
        may_refuse=joker or variant.fixed_order,
    )


_Said = tuple[Code, Text]  # a reason or a note: its code and its sentence


def _judgement(
    variant: Variant, column: Column, dice: Dice, f: Field, ctx: _RollContext
) -> tuple[int, int, _Said | None, _Said | None]:
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
        reason=str(reason[1]) if reason else None,
        reason_code=reason[0] if reason else None,
        note=str(note[1]) if note else None,
        note_code=note[0] if note else None,
        reason_text=reason[1] if reason else None,
        note_text=note[1] if note else None,
    )


def _refusal(variant: Variant, column: Column, f: Field, ctx: _RollContext) -> _Said | None:
    if not ctx.may_refuse:
        return None
    if variant.fixed_order:
        next_free = next_in_order(variant, column)
        if next_free is not None and f.id != next_free.id:
            return (
                Code.NOT_NEXT_IN_ORDER,
                Text(
                    N_("Gra po kolei: teraz wpisujesz do pola %(field)s."),
                    field=next_free.label_text,
                ),
            )
    if ctx.joker and f.section is Section.UPPER and ctx.lower_free:
        return Code.JOKER_MUST_GO_LOWER, JOKER_MUST_GO_LOWER
    return None


JOKER_MUST_GO_LOWER = Text(
    N_(
        "Joker musi trafić do wolnego pola dolnej części; górną część "
        "można skreślić dopiero, gdy dolna jest pełna."
    )
)
CROSSING_OUT = Text(N_("Rzut tu nie pasuje: skreślasz pole (0)."))


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
                    str(reason[1]) if reason else None,
                    str(note[1]) if note else None,
                    reason[0] if reason else None,
                    note[0] if note else None,
                    reason[1] if reason else None,
                    note[1] if note else None,
                )
            )
    five = is_five_of_a_kind(dice)
    notes = _roll_notes(
        variant,
        sheet,
        dice,
        five=five,
        joker=ctx.joker,
        extra=ctx.extra,
        lower_free=ctx.lower_free,
    )
    return Evaluation(
        variant,
        dice,
        five,
        ctx.joker,
        ctx.extra,
        tuple(placements),
        tuple(str(text) for _, text in notes),
        tuple(code for code, _ in notes),
        tuple(text for _, text in notes),
    )


class Move(NamedTuple):
    """One move the rules allow, as `allowed_moves` answers it: what a move scores and adds to
    the grand total, without the words a page shows about it."""

    column: int
    field: str
    label: str
    points: int  # written in the field
    extra_bonus: int  # the extra Generał bonus this move earns, unmultiplied
    multiplier: int
    gain: int  # how much the player's grand total rises, upper bonus and multiplier included


def allowed_moves(
    variant: Variant, sheet: Sheet, dice: Dice, options: Options | None = None
) -> list[Move]:
    """`evaluate`'s allowed moves, in its order, with the same points, bonus and gain, and
    nothing else: no refused fields, no reasons or notes. For callers that price every move of
    many rolls (the advisor's review of a whole game). It asks what `evaluate` asks (a field's
    `points`, `_joker_score`, `_refusal`), so the two cannot disagree."""
    ctx = _context(variant, sheet, dice)
    fields = variant.table.fields
    joker, may_refuse, extra = ctx.joker, ctx.may_refuse, ctx.extra
    moves: list[Move] = []
    for index, (col, mult) in enumerate(zip(sheet, variant.multipliers, strict=True)):
        base = column_totals(variant, col, mult, options)
        cells = col.cells
        for f in fields:
            if f.id in cells or (may_refuse and _refusal(variant, col, f, ctx) is not None):
                continue
            points = _joker_score(f, dice) if joker else f.points(dice)
            gain = column_rise(variant, base, f.id, points, extra, options)
            moves.append(Move(index, f.id, f.label, points, extra, mult, gain))
    return moves


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
        reason_text=verdict.reason_text,
        note_text=verdict.note_text,
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
            Text(
                N_("Kolumna %(column)s nie istnieje: wariant %(variant)s ma kolumny 0–%(last)d."),
                column=str(column),
                variant=variant.id,
                last=variant.columns - 1,
            ),
            Code.UNKNOWN_COLUMN,
        )
    f = variant.table.by_id.get(field_id) if isinstance(field_id, str) else None
    if f is None:
        raise RulesError(unknown_field(field_id, variant.id), Code.UNKNOWN_FIELD)
    if sheet[column].is_filled(field_id):
        raise MoveRefused(
            Text(N_("Pole %(field)s jest już wypełnione."), field=f.label_text), Code.FIELD_FILLED
        )
    return _verdict(variant, sheet, dice, f, column, _context(variant, sheet, dice))


def write_move(
    variant: Variant, sheet: Sheet, dice: Dice, field_id: str, column: int = 0
) -> tuple[Sheet, Verdict]:
    """The sheet with the roll written in the field, unpriced; MoveRefused with the reason
    (and its code) when the rules forbid it."""
    verdict = judge_move(variant, sheet, dice, field_id, column)
    if verdict.reason_text is not None:
        raise MoveRefused(verdict.reason_text, verdict.reason_code)
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


def unknown_field(field_id: object, variant_id: str) -> Text:
    """ "Pola 'x' nie ma w tabeli wariantu standard." """
    return Text(
        N_("Pola %(field)s nie ma w tabeli wariantu %(variant)s."),
        field=repr(field_id),
        variant=variant_id,
    )


def next_in_order(variant: Variant, column: Column) -> Field | None:
    """Gra po kolei: the field the column's next roll is written to, the first free one in
    table order; None for a variant whose player chooses the field, or a full column."""
    if not variant.fixed_order:
        return None
    return next((f for f in variant.table.fields if not column.is_filled(f.id)), None)


def _points(
    variant: Variant, f: Field, dice: Dice, *, joker: bool, lower_free: bool
) -> tuple[int, _Said | None]:
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
            Text(
                N_("Pięć jednakowych to nie %(field)s: jako zwykły rzut daje tu 0. %(why)s"),
                field=f.label_text.lowered(),
                why=why,
            ),
        )
    misfit = next((m for m in f.misfits if m.test(dice)), None)
    if misfit is not None:
        return 0, (misfit.code, misfit.note)
    return 0, (Code.CROSSING_OUT, CROSSING_OUT)


def _joker_score(f: Field, dice: Dice) -> int:
    """A joker scores ful 25, strits 30 and 40, the sum elsewhere below; 0 in the upper section
    ("górną część można skreślić dopiero, gdy dolna jest pełna")."""
    if f.section is Section.UPPER:
        return 0
    return f.joker_points if f.joker_points is not None else f.score(dice)


def _joker_points(f: Field, dice: Dice, *, lower_free: bool) -> tuple[int, _Said | None]:
    """`_joker_score`, and the note that explains it."""
    points = _joker_score(f, dice)
    if f.section is Section.UPPER:
        if lower_free:
            return points, None
        return points, (
            Code.JOKER_UPPER_ZERO,
            Text(N_("Dolna część jest pełna: joker trafia do górnej części za 0.")),
        )
    if f.joker_points is not None:
        return points, (
            Code.JOKER_FIXED_POINTS,
            Text(
                N_("Joker: %(field)s liczy się za %(points)d."),
                field=f.label_text.lowered(),
                points=points,
            ),
        )
    return points, (Code.JOKER_SUM, Text(N_("Joker: suma oczek, %(points)d."), points=points))


def _why_not_joker(variant: Variant, face: int) -> Text:
    upper = variant.table.upper_fields[face - 1].label_text
    if variant.columns > 1:
        return Text(
            N_(
                "Jokerem byłby dopiero, gdy pola Generał i %(field)s są zajęte "
                "we wszystkich trzech kolumnach."
            ),
            field=upper,
        )
    return Text(N_("Jokerem byłby dopiero, gdy pola Generał i %(field)s są zajęte."), field=upper)


def _roll_notes(
    variant: Variant,
    sheet: Sheet,
    dice: Dice,
    *,
    five: bool,
    joker: bool,
    extra: int,
    lower_free: bool,
) -> tuple[_Said, ...]:
    if not five:
        return ()
    if not variant.joker and not variant.extra_bonus:
        return (
            (
                Code.NO_GENERAL_BONUSES,
                Text(
                    N_(
                        "W tabeli skandynawskiej kolejne generały nie dają premii "
                        "i nie są jokerami."
                    )
                ),
            ),
        )
    notes = (
        _bonus_note(variant, sheet, extra),
        _joker_note(variant, sheet, dice, joker=joker, lower_free=lower_free),
    )
    return tuple(note for note in notes if note is not None)


def _bonus_note(variant: Variant, sheet: Sheet, extra: int) -> _Said | None:
    """Why a five of a kind earns the extra +100, or why not."""
    many = variant.columns > 1
    if extra:
        if many:
            template = N_(
                "+%(bonus)d: kolejny generał, bo we wszystkich polach Generał jest 50. "
                "Premię mnoży się tak jak kolumnę, do której wpiszesz rzut."
            )
        elif variant.fixed_order:
            template = N_("+%(bonus)d: kolejny generał, bo w polu Generał jest 50.")
        else:
            template = N_(
                "+%(bonus)d: kolejny generał, bo w polu Generał jest 50 – premia należy się "
                "wszędzie, gdzie wpiszesz rzut, także za 0."
            )
        return Code.EXTRA_BONUS, Text(template, bonus=extra)
    if all(col.is_filled(GENERAL) for col in sheet):
        return (
            Code.NO_EXTRA_BONUS_GENERAL_ZERO,
            Text(
                N_("Bez premii +100: premię daje tylko 50 w polu Generał we wszystkich kolumnach.")
                if many
                else N_("Bez premii +100: premię daje tylko 50 w polu Generał, a tu jest 0.")
            ),
        )
    if many and any(col.is_filled(GENERAL) for col in sheet):
        return (
            Code.NO_EXTRA_BONUS_YET,
            Text(
                N_(
                    "Bez premii +100: w kościach potrójnych premia należy się dopiero, gdy we "
                    "wszystkich trzech polach Generał jest 50."
                )
            ),
        )
    return None


def _joker_note(
    variant: Variant, sheet: Sheet, dice: Dice, *, joker: bool, lower_free: bool
) -> _Said | None:
    """Why a five of a kind is a joker, or why not although Generał is taken. A joker's note
    says where it goes: "It must be written in a free lower field; only when the lower section
    is full may it be written, as 0, in a free upper field" (in Kości potrójne: Generał and the
    upper field filled in all three columns, the lower fields of every column full)."""
    face = dice[0]
    upper = variant.table.upper_fields[face - 1].label_text
    if joker:
        many = variant.columns > 1
        if lower_free:
            template = (
                N_(
                    "Joker (%(dice)s): pola Generał i %(field)s są zajęte we wszystkich trzech "
                    "kolumnach, więc rzut pasuje do każdego pola dolnej części w dowolnej kolumnie "
                    "(ful 25, mały strit 30, duży strit 40)."
                )
                if many
                else N_(
                    "Joker (%(dice)s): pole Generał i pole %(field)s są zajęte, więc rzut "
                    "pasuje do każdego pola dolnej części (ful 25, mały strit 30, duży strit 40)."
                )
            )
        else:
            template = (
                N_(
                    "Joker (%(dice)s): pola Generał i %(field)s są zajęte we wszystkich trzech "
                    "kolumnach, a dolne części wszystkich kolumn są pełne, więc rzut trafia za 0 "
                    "do wolnego pola górnej części."
                )
                if many
                else N_(
                    "Joker (%(dice)s): pole Generał i pole %(field)s są zajęte, a dolna część "
                    "jest pełna, więc rzut trafia za 0 do wolnego pola górnej części."
                )
            )
        return Code.JOKER, Text(template, dice=format_dice(dice), field=upper)
    if all(col.is_filled(GENERAL) for col in sheet):
        return (
            Code.NOT_JOKER_UPPER_FREE,
            Text(
                N_(
                    "To nie joker: pole %(field)s jest wolne w którejś kolumnie, "
                    "więc pięć %(faces)s to zwykły rzut (ful i strity 0)."
                )
                if variant.columns > 1
                else N_(
                    "To nie joker: pole %(field)s jest wolne, "
                    "więc pięć %(faces)s to zwykły rzut (ful i strity 0)."
                ),
                field=upper,
                faces=Text(FACE_GENITIVE[face]),
            ),
        )
    return None
