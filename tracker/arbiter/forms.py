"""Reading the arbiter's GET forms: query arguments in; variant, dice, sheet and errors out.

Nothing here judges a roll. The rules core parses and validates (`find_table_variant`, `parse_dice`,
`parse_sheet`); this module only decides which control each error belongs next to (in the
request's language: `rules_text`), and keeps every raw value so the page shows back exactly what
was entered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tracker.i18n import gettext
from tracker.rules import (
    TABLE_VARIANTS,
    Dice,
    Options,
    RulesError,
    Sheet,
    Variant,
    find_table_variant,
    parse_dice,
    parse_sheet,
)
from tracker.rules_text import rules_text
from tracker.services.inputs import whole_number

DEFAULT_VARIANT = "standard"
BONUS_THRESHOLDS = tuple(str(t) for t in TABLE_VARIANTS["ordered"].bonus_thresholds)
EXTRA_BONUS = "extra_bonus"
MIN_HANDS = 2
MAX_HANDS = 8
MAX_NAME_LENGTH = 30

Args = Mapping[str, str]


def column_param(column: int, key: str) -> str:
    """The query parameter of one sheet control: `c0_sixes`, `c2_extra_bonus`."""
    return f"c{column}_{key}"


def column_legend(variant: Variant, column: int) -> str:
    if variant.columns == 1:
        return gettext("Kolumna gracza")
    return gettext("Kolumna ×%(multiplier)d", multiplier=variant.multipliers[column])


@dataclass(frozen=True)
class Choice:
    value: str
    text: str


@dataclass(frozen=True)
class SheetControl:
    """One `<select>` of the "fields already filled" part: a field, or a column's extra bonus."""

    name: str
    label: str
    field: str
    choices: tuple[Choice, ...]
    value: str  # as submitted; kept even when it is not one of the choices
    error: str | None = None

    @property
    def known_value(self) -> bool:
        return any(c.value == self.value for c in self.choices)


@dataclass
class ColumnControls:
    index: int
    multiplier: int
    legend: str
    fields: list[SheetControl]
    extra_bonus: SheetControl | None
    error: str | None = None  # a sheet error that belongs to no single control

    @property
    def filled(self) -> int:
        return sum(1 for c in self.fields if c.value)

    @property
    def errors(self) -> bool:
        return bool(
            self.error
            or any(c.error for c in self.fields)
            or (self.extra_bonus is not None and self.extra_bonus.error)
        )


@dataclass
class TableForm:
    variant: Variant  # the standard table when the one asked for does not exist
    threshold_value: str
    options: Options
    dice_text: str
    dice: Dice | None
    columns: list[ColumnControls]
    sheet: Sheet | None  # None when any sheet control is wrong
    errors: dict[str, str] = field(default_factory=dict)  # variant, bonus_threshold, dice

    @property
    def sheet_errors(self) -> bool:
        return any(col.errors for col in self.columns)

    @property
    def filled(self) -> int:
        return sum(col.filled for col in self.columns)

    @property
    def roll(self) -> tuple[Dice, Sheet] | None:
        """Five valid dice on a valid sheet, for the rules core to judge; else None."""
        if self.dice is None or self.sheet is None or self.errors:
            return None
        return self.dice, self.sheet


def parse_table_form(args: Args) -> TableForm:
    errors: dict[str, str] = {}
    variant_id = args.get("variant", DEFAULT_VARIANT)
    try:
        variant = find_table_variant(variant_id)
    except RulesError as error:
        errors["variant"] = rules_text(error)
        variant = TABLE_VARIANTS[DEFAULT_VARIANT]

    threshold_value = args.get("bonus_threshold", BONUS_THRESHOLDS[0]).strip()
    options = Options()
    if variant.fixed_order:  # the only variant that offers a choice; the others keep 63
        try:
            threshold = _as_int(threshold_value)
            options = variant.parse_options(
                {"bonus_threshold": threshold if threshold is not None else threshold_value}
            )
        except RulesError as error:
            errors["bonus_threshold"] = rules_text(error)

    dice_text = args.get("dice", "").strip()
    dice = None
    if dice_text:
        try:
            dice = parse_dice(dice_text)
        except RulesError as error:
            errors["dice"] = rules_text(error)

    columns = [_column_controls(variant, index, args) for index in range(variant.columns)]
    sheet = _parse_sheet(variant, columns)
    return TableForm(
        variant=variant,
        threshold_value=threshold_value,
        options=options,
        dice_text=dice_text,
        dice=dice,
        columns=columns,
        sheet=sheet,
        errors=errors,
    )


def _column_controls(variant: Variant, index: int, args: Args) -> ColumnControls:
    table = variant.table
    fields = []
    for f in table.fields:
        choices = (
            Choice("", gettext("wolne")),
            *(Choice(str(v), str(v)) for v in sorted(table.achievable[f.id])),
        )
        name = column_param(index, f.id)
        value = args.get(name, "").strip()
        error = None
        if value and _as_int(value) not in table.achievable[f.id]:
            error = gettext(
                "Żaden rzut nie daje %(value)s pkt w polu %(field)s: wybierz wartość z listy.",
                value=value,
                field=rules_text(f.label),
            )
        fields.append(SheetControl(name, rules_text(f.label), f.id, choices, value, error))
    extra_bonus = None
    if variant.extra_bonus:
        # At most one bonus per other field of the column; parse_sheet checks the real limit.
        steps = range(0, len(table.fields) * variant.extra_bonus, variant.extra_bonus)
        name = column_param(index, EXTRA_BONUS)
        value = args.get(name, "0").strip() or "0"
        error = None
        if _as_int(value) not in steps:
            error = gettext(
                "Premia za kolejne generały to wielokrotność %(bonus)d: wybierz wartość z listy.",
                bonus=variant.extra_bonus,
            )
        extra_bonus = SheetControl(
            name,
            gettext("Premie za kolejne generały"),
            EXTRA_BONUS,
            tuple(Choice(str(v), gettext("brak") if v == 0 else f"+{v}") for v in steps),
            value,
            error,
        )
    return ColumnControls(
        index=index,
        multiplier=variant.multipliers[index],
        legend=column_legend(variant, index),
        fields=fields,
        extra_bonus=extra_bonus,
    )


def _parse_sheet(variant: Variant, columns: list[ColumnControls]) -> Sheet | None:
    """The sheet, or None after attaching the rules core's error to the control it concerns.

    Every value was checked against its select's choices above. What is left are the rules
    across fields (fixed order, extra bonuses): the columns are handed to `parse_sheet` one more
    at a time, cells before bonuses, so the first failure names its column and control.
    """
    if any(col.errors for col in columns):
        return None
    cells = [{c.field: int(c.value) for c in col.fields if c.value} for col in columns]
    bonuses = [
        {EXTRA_BONUS: int(col.extra_bonus.value)} if col.extra_bonus is not None else {}
        for col in columns
    ]
    for index, col in enumerate(columns):
        try:
            parse_sheet(variant, [*cells[: index + 1], *([{}] * (len(columns) - index - 1))])
        except RulesError as error:
            gap = _first_gap(variant, cells[index]) if variant.fixed_order else None
            target = next((c for c in col.fields if c.field == gap), None)
            if target is None:
                col.error = _sentence(rules_text(error))
            else:
                # Said at the free field itself, by its label only: the core's sentence adds
                # the field's API key for API clients („pole Jedynki (ones)”).
                message = gettext(
                    "W grze po kolei pola wypełnia się w kolejności tabeli: pole %(field)s jest "
                    "wolne, a dalsze są już wypełnione.",
                    field=target.label,
                )
                col.fields[col.fields.index(target)] = _with_error(target, message)
            return None
    for index, col in enumerate(columns):
        with_bonuses = [
            {**cells[i], **(bonuses[i] if i <= index else {})} for i in range(len(columns))
        ]
        try:
            parse_sheet(variant, with_bonuses)
        except RulesError as error:
            if col.extra_bonus is None:
                col.error = _sentence(rules_text(error))
            else:
                col.extra_bonus = _with_error(col.extra_bonus, _sentence(rules_text(error)))
            return None
    return parse_sheet(variant, [{**c, **b} for c, b in zip(cells, bonuses, strict=True)])


def _first_gap(variant: Variant, cells: Mapping[str, int]) -> str | None:
    """In Gra po kolei: the first free field that comes before a filled one."""
    order = variant.table.field_ids
    last_filled = max((order.index(fid) for fid in cells), default=-1)
    return next((fid for fid in order[:last_filled] if fid not in cells), None)


def _with_error(control: SheetControl, error: str) -> SheetControl:
    return SheetControl(
        control.name, control.label, control.field, control.choices, control.value, error
    )


def _sentence(message: str) -> str:
    """A rules-core message ("kolumna 2: premia ...") as a sentence shown on its own."""
    return message[:1].upper() + message[1:]


def _as_int(text: str) -> int | None:
    """A whole number written in ASCII digits, else None ("²".isdigit() is true), as is a
    number too long to be any choice of these forms (int() refuses 4,300 digits and more)."""
    return whole_number(text)


# --- poker -------------------------------------------------------------------------------


def hand_param(index: int, key: str) -> str:
    """The query parameter of one poker hand: `h0_name`, `h0_dice`."""
    return f"h{index}_{key}"


@dataclass(frozen=True)
class HandRow:
    index: int
    name: str  # as entered, possibly empty
    dice_text: str
    dice: Dice | None
    error: str | None = None

    @property
    def default_name(self) -> str:
        return gettext("Gracz %(number)d", number=self.index + 1)

    @property
    def display_name(self) -> str:
        return self.name or self.default_name


@dataclass
class PokerForm:
    rows: list[HandRow]
    submitted: bool  # the player asked for a ranking (not just for one more row)

    @property
    def count(self) -> int:
        return len(self.rows)

    @property
    def can_add(self) -> bool:
        return self.count < MAX_HANDS

    @property
    def hands(self) -> list[HandRow]:
        """The rows to rank: every row with valid dice."""
        return [row for row in self.rows if row.dice is not None]

    @property
    def ready(self) -> bool:
        return (
            self.submitted
            and len(self.hands) >= MIN_HANDS
            and not any(row.error for row in self.rows)
        )


def parse_poker_form(args: Args) -> PokerForm:
    count = _as_int(args.get("hands", "").strip()) or MIN_HANDS
    adding = "add" in args
    if adding:
        count += 1
    count = min(max(count, MIN_HANDS), MAX_HANDS)
    submitted = not adding and any(hand_param(i, "dice") in args for i in range(count))
    rows = []
    for index in range(count):
        name = " ".join(args.get(hand_param(index, "name"), "").split())[:MAX_NAME_LENGTH]
        dice_text = args.get(hand_param(index, "dice"), "").strip()
        dice, error = None, None
        if dice_text:
            try:
                dice = parse_dice(dice_text)
            except RulesError as exc:
                error = rules_text(exc)
        elif name and submitted:
            error = gettext("Podaj kości gracza %(name)s.", name=name)
        rows.append(HandRow(index, name, dice_text, dice, error))
    if submitted and not any(r.error for r in rows) and len([r for r in rows if r.dice]) < 2:
        # Point at the first row still missing its dice.
        index = next(r.index for r in rows if r.dice is None)
        rows[index] = HandRow(
            index, rows[index].name, "", None, gettext("Podaj kości co najmniej dwóch graczy.")
        )
    return PokerForm(rows, submitted)
