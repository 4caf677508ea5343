"""Five dice: parsing and the counting helpers every scorer uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations_with_replacement

from .codes import Code
from .errors import RulesError
from .text import N_, Text

DICE_COUNT = 5
FACES = (1, 2, 3, 4, 5, 6)

Dice = tuple[int, int, int, int, int]

# Polish names of the faces, as used in explanations ("trzy piątki"); translated where shown.
FACE_SINGULAR = {
    1: N_("jedynka"),
    2: N_("dwójka"),
    3: N_("trójka"),
    4: N_("czwórka"),
    5: N_("piątka"),
    6: N_("szóstka"),
}
FACE_PLURAL = {
    1: N_("jedynki"),
    2: N_("dwójki"),
    3: N_("trójki"),
    4: N_("czwórki"),
    5: N_("piątki"),
    6: N_("szóstki"),
}
# "pięć piątek": the genitive plural after a numeral.
FACE_GENITIVE = {
    1: N_("jedynek"),
    2: N_("dwójek"),
    3: N_("trójek"),
    4: N_("czwórek"),
    5: N_("piątek"),
    6: N_("szóstek"),
}


def _bad_dice(text: Text) -> RulesError:
    return RulesError(text, Code.BAD_DICE)


def parse_dice(raw: object) -> Dice:
    """Validate five dice given as a list (or a string of five digits) and return them as a tuple.

    Raises RulesError with a message for the player when there are not exactly five whole
    numbers from 1 to 6.
    """
    if isinstance(raw, str):
        text = raw.replace(" ", "").replace(",", "").replace("-", "")
        # isascii: "²".isdigit() is true, but int("²") fails with a bare ValueError.
        if not (text.isascii() and text.isdigit()):
            raise _bad_dice(Text(N_("Podaj pięć kości: cyfry od 1 do 6.")))
        raw = [int(ch) for ch in text]
    if not isinstance(raw, list | tuple):
        raise _bad_dice(Text(N_("Kości podaj jako listę pięciu liczb od 1 do 6.")))
    if len(raw) != DICE_COUNT:
        raise _bad_dice(
            Text(N_("Potrzeba dokładnie pięciu kości, podano %(count)d."), count=len(raw))
        )
    for value in raw:
        # bool is an int in Python; a die is never true or false.
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad_dice(
                Text(
                    N_("Kość musi być liczbą całkowitą od 1 do 6, a nie %(value)s."),
                    value=repr(value),
                )
            )
        if not 1 <= value <= 6:
            raise _bad_dice(Text(N_("Kość ma oczka od 1 do 6, a nie %(value)d."), value=value))
    return (raw[0], raw[1], raw[2], raw[3], raw[4])


def counts(dice: Iterable[int]) -> Counter[int]:
    return Counter(dice)


def is_five_of_a_kind(dice: Dice) -> bool:
    return len(set(dice)) == 1


def format_dice(dice: Iterable[int]) -> str:
    return "-".join(str(d) for d in dice)


def all_rolls() -> tuple[Dice, ...]:
    """Every distinct roll as a sorted tuple: the 252 multisets of five dice."""
    return tuple(combinations_with_replacement(FACES, DICE_COUNT))  # type: ignore[arg-type]
