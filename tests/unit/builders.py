"""Builders shared by the rules tests: dice written as players read them, sheets from turns.

The sheet a test starts from is either played turn by turn (`sheet_after`, through `replay`, the
same path the app takes) or given as the state on paper (`parse_sheet`): several rules say "the
test is the state of the sheet", and a paper sheet is the shortest way to state it.
"""

from __future__ import annotations

from collections.abc import Iterable

from tracker.rules import Dice, Options, Sheet, Variant, parse_dice, replay

# ("6-6-6-6-6", "five_of_a_kind") or ("6-6-6-6-6", "sixes", 2) for a column of `triple`.
Turn = tuple[str, str] | tuple[str, str, int]


def roll(text: str) -> Dice:
    return parse_dice(text)


def turns_of(turns: Iterable[Turn]) -> list[tuple[Dice, str, int]]:
    return [(roll(t[0]), t[1], t[2] if len(t) == 3 else 0) for t in turns]


def sheet_after(variant: Variant, turns: Iterable[Turn], options: Options | None = None) -> Sheet:
    """The sheet after these turns, each checked and written by `play`."""
    return replay(variant, turns_of(turns), options)


def as_raw(sheet: Sheet) -> list[dict[str, int]]:
    """A sheet as a client sends it: one object per column, extra bonus beside the fields."""
    return [{**col.cells, "extra_bonus": col.extra_bonus} for col in sheet]


# Every standard field filled except the ones named: a start for late-game situations.
STANDARD_ZEROS = {
    "ones": 0,
    "twos": 0,
    "threes": 0,
    "fours": 0,
    "fives": 0,
    "sixes": 0,
    "three_of_a_kind": 0,
    "four_of_a_kind": 0,
    "full_house": 0,
    "small_straight": 0,
    "large_straight": 0,
    "five_of_a_kind": 0,
    "chance": 0,
}
LOWER_STANDARD = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "five_of_a_kind",
    "chance",
)


def filled_except(*free: str, **points: int) -> dict[str, int]:
    """A standard column with every field written (0 unless given) except the free ones."""
    cells = {**STANDARD_ZEROS, **points}
    return {fid: value for fid, value in cells.items() if fid not in free}
