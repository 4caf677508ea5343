"""What may these dice score on this sheet: the one function every caller asks.

`evaluate` lists every free field of every column with the points the roll would write there,
whether the rules allow it, and why not or what is surprising about it. `play` writes a move
after checking it the same way, and `replay` rebuilds a sheet from the turns players entered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .dice import FACE_GENITIVE, Dice, format_dice, is_five_of_a_kind
from .errors import MoveRefused, RulesError
from .sheet import Column, Sheet, empty_sheet, generals_at_fifty, sheet_totals
from .tables import Field, Section
from .variants import Options, Variant

GENERAL = "five_of_a_kind"


@dataclass(frozen=True)
class Placement:
    """One free field of one column, for one roll."""

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


@dataclass(frozen=True)
class Evaluation:
    variant: Variant
    dice: Dice
    five_of_a_kind: bool
    joker: bool
    extra_bonus: int  # earned by any legal move of this roll, unmultiplied
    placements: tuple[Placement, ...]
    notes: tuple[str, ...]  # about the roll as a whole (joker, extra bonus, or why neither)

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


def _judge(
    variant: Variant, sheet: Sheet, dice: Dice, f: Field, column: int, ctx: _RollContext
) -> tuple[int, int, str | None, str | None]:
    """Points, extra bonus, refusal reason and note for writing the roll in one free field."""
    points, note = _points(variant, f, dice, joker=ctx.joker, lower_free=ctx.lower_free)
    reason = None
    if variant.fixed_order:
        next_free = _next_free(variant, sheet[column])
        if next_free is not None and f.id != next_free.id:
            reason = f"Gra po kolei: teraz wpisujesz do pola {next_free.label}."
    if reason is None and ctx.joker and f.section is Section.UPPER and ctx.lower_free:
        reason = (
            "Joker musi trafić do wolnego pola dolnej części; górną część "
            "można skreślić dopiero, gdy dolna jest pełna."
        )
    return points, (ctx.extra if reason is None else 0), reason, note


def evaluate(
    variant: Variant, sheet: Sheet, dice: Dice, options: Options | None = None
) -> Evaluation:
    """Every free field of every column: may this roll go there, for how many points, and why."""
    ctx = _context(variant, sheet, dice)
    base_total = sheet_totals(variant, sheet, options).total
    placements: list[Placement] = []
    for index, (col, mult) in enumerate(zip(sheet, variant.multipliers, strict=True)):
        for f in variant.table.fields:
            if col.is_filled(f.id):
                continue
            points, bonus, reason, note = _judge(variant, sheet, dice, f, index, ctx)
            after = sheet[:index] + (col.write(f.id, points, bonus),) + sheet[index + 1 :]
            placements.append(
                Placement(
                    column=index,
                    field=f.id,
                    label=f.label,
                    section=f.section,
                    allowed=reason is None,
                    points=points,
                    extra_bonus=bonus,
                    multiplier=mult,
                    gain=sheet_totals(variant, after, options).total - base_total,
                    reason=reason,
                    note=note,
                )
            )
    notes = _roll_notes(
        variant, sheet, dice, five=is_five_of_a_kind(dice), joker=ctx.joker, extra=ctx.extra
    )
    return Evaluation(
        variant, dice, is_five_of_a_kind(dice), ctx.joker, ctx.extra, tuple(placements), notes
    )


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
    if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < variant.columns:
        raise RulesError(
            f"Kolumna {column} nie istnieje: wariant {variant.id} ma kolumny "
            f"0–{variant.columns - 1}."
        )
    f = variant.table.by_id.get(field_id) if isinstance(field_id, str) else None
    if f is None:
        raise RulesError(f"Pola {field_id!r} nie ma w tabeli wariantu {variant.id}.")
    if sheet[column].is_filled(field_id):
        raise MoveRefused(f"Pole {f.label} jest już wypełnione.")
    ctx = _context(variant, sheet, dice)
    points, bonus, reason, note = _judge(variant, sheet, dice, f, column, ctx)
    if reason is not None:
        raise MoveRefused(reason)
    before = sheet_totals(variant, sheet, options).total
    col = sheet[column].write(field_id, points, bonus)
    after = sheet[:column] + (col,) + sheet[column + 1 :]
    placement = Placement(
        column=column,
        field=field_id,
        label=f.label,
        section=f.section,
        allowed=True,
        points=points,
        extra_bonus=bonus,
        multiplier=variant.multipliers[column],
        gain=sheet_totals(variant, after, options).total - before,
        note=note,
    )
    return after, placement


def replay(
    variant: Variant,
    turns: Iterable[tuple[Dice, str, int]],
    options: Options | None = None,
) -> Sheet:
    """Rebuild a sheet from its turns (dice, field, column): the turns are the source of truth."""
    sheet = empty_sheet(variant)
    for dice, field_id, column in turns:
        sheet, _ = play(variant, sheet, dice, field_id, column, options)
    return sheet


def _next_free(variant: Variant, column: Column) -> Field | None:
    return next((f for f in variant.table.fields if not column.is_filled(f.id)), None)


def _points(
    variant: Variant, f: Field, dice: Dice, *, joker: bool, lower_free: bool
) -> tuple[int, str | None]:
    """Points the roll writes in the field, and a note when the number would surprise."""
    ordinary = f.score(dice)
    face = dice[0]
    if joker:
        if f.section is Section.UPPER:
            if lower_free:
                return 0, None
            return 0, "Dolna część jest pełna: joker trafia do górnej części za 0."
        if f.joker_points is not None:
            return f.joker_points, f"Joker: {f.label.lower()} liczy się za {f.joker_points}."
        return ordinary, f"Joker: suma oczek, {ordinary}."
    if is_five_of_a_kind(dice) and ordinary == 0 and f.section is Section.LOWER:
        if f.joker_points is not None:
            why = _why_not_joker(variant, face)
            return 0, (
                f"Pięć jednakowych to nie {f.label.lower()}: jako zwykły rzut daje tu 0. {why}"
            )
        if f.id == "two_pairs":
            return 0, "Pięć jednakowych to nie dwie pary: pary muszą mieć różne oczka."
        if f.id in ("small_straight", "large_straight", "full_house"):
            return 0, (
                f"Pięć jednakowych to nie {f.label.lower()}; w tabeli skandynawskiej "
                "generał nie jest jokerem."
            )
    if ordinary == 0:
        return 0, _crossing_out_note(variant, f, dice)
    return ordinary, None


def _why_not_joker(variant: Variant, face: int) -> str:
    upper = variant.table.upper_fields[face - 1].label
    if variant.columns > 1:
        return (
            f"Jokerem byłby dopiero, gdy pola Generał i {upper} są zajęte "
            "we wszystkich trzech kolumnach."
        )
    return f"Jokerem byłby dopiero, gdy pola Generał i {upper} są zajęte."


def _crossing_out_note(variant: Variant, f: Field, dice: Dice) -> str | None:
    """Notes for zeros a player might not expect."""
    ordered = sorted(dice)
    if variant.table.id == "scandinavian":
        if f.id == "small_straight" and ordered == [2, 3, 4, 5, 6]:
            return "Mały strit w tabeli skandynawskiej to dokładnie 1-2-3-4-5."
        if f.id == "large_straight" and ordered == [1, 2, 3, 4, 5]:
            return "Duży strit w tabeli skandynawskiej to dokładnie 2-3-4-5-6."
        if f.id == "two_pairs" and max(dice.count(d) for d in dice) == 4:
            return "Cztery jednakowe to nie dwie pary: pary muszą mieć różne oczka."
    return "Rzut tu nie pasuje: skreślasz pole (0)."


def _roll_notes(
    variant: Variant, sheet: Sheet, dice: Dice, *, five: bool, joker: bool, extra: int
) -> tuple[str, ...]:
    if not five:
        return ()
    notes: list[str] = []
    face = dice[0]
    many = variant.columns > 1
    if not variant.joker and not variant.extra_bonus:
        notes.append("W tabeli skandynawskiej kolejne generały nie dają premii i nie są jokerami.")
        return tuple(notes)
    if extra:
        if many:
            notes.append(
                f"+{extra}: kolejny generał, bo we wszystkich polach Generał jest 50. "
                "Premię mnoży się tak jak kolumnę, do której wpiszesz rzut."
            )
        elif variant.fixed_order:
            notes.append(f"+{extra}: kolejny generał, bo w polu Generał jest 50.")
        else:
            notes.append(
                f"+{extra}: kolejny generał, bo w polu Generał jest 50 – premia należy się "
                "wszędzie, gdzie wpiszesz rzut, także za 0."
            )
    elif all(col.is_filled(GENERAL) for col in sheet):
        notes.append(
            "Bez premii +100: premię daje tylko 50 w polu Generał"
            + (" we wszystkich kolumnach." if many else ", a tu jest 0.")
        )
    elif many and any(col.is_filled(GENERAL) for col in sheet):
        notes.append(
            "Bez premii +100: w kościach potrójnych premia należy się dopiero, gdy we "
            "wszystkich trzech polach Generał jest 50."
        )
    if joker:
        notes.append(
            f"Joker ({format_dice(dice)}): pole Generał i pole "
            f"{variant.table.upper_fields[face - 1].label} są zajęte, więc rzut pasuje do "
            "każdego pola dolnej części (ful 25, mały strit 30, duży strit 40)."
        )
    elif all(col.is_filled(GENERAL) for col in sheet):
        notes.append(
            f"To nie joker: pole {variant.table.upper_fields[face - 1].label} jest wolne"
            + (" w którejś kolumnie" if many else "")
            + f", więc pięć {FACE_GENITIVE[face]} to zwykły rzut (ful i strity 0)."
        )
    return tuple(notes)
