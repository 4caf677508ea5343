"""Five dice: parsing and the counting helpers every scorer uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations_with_replacement

from .errors import RulesError

DICE_COUNT = 5
FACES = (1, 2, 3, 4, 5, 6)

Dice = tuple[int, int, int, int, int]

# Polish names of the faces, as used in explanations ("trzy piątki").
FACE_SINGULAR = {1: "jedynka", 2: "dwójka", 3: "trójka", 4: "czwórka", 5: "piątka", 6: "szóstka"}
FACE_PLURAL = {1: "jedynki", 2: "dwójki", 3: "trójki", 4: "czwórki", 5: "piątki", 6: "szóstki"}
FACE_GENITIVE = {1: "jedynek", 2: "dwójek", 3: "trójek", 4: "czwórek", 5: "piątek", 6: "szóstek"}


def parse_dice(raw: object) -> Dice:
    """Validate five dice given as a list (or a string of five digits) and return them as a tuple.

    Raises RulesError with a message for the player when there are not exactly five whole
    numbers from 1 to 6.
    """
    if isinstance(raw, str):
        text = raw.replace(" ", "").replace(",", "").replace("-", "")
        # isascii: "²".isdigit() is true, but int("²") fails with a bare ValueError.
        if not (text.isascii() and text.isdigit()):
            raise RulesError("Podaj pięć kości: cyfry od 1 do 6.")
        raw = [int(ch) for ch in text]
    if not isinstance(raw, list | tuple):
        raise RulesError("Kości podaj jako listę pięciu liczb od 1 do 6.")
    if len(raw) != DICE_COUNT:
        raise RulesError(f"Potrzeba dokładnie pięciu kości, podano {len(raw)}.")
    for value in raw:
        # bool is an int in Python; a die is never true or false.
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"Kość musi być liczbą całkowitą od 1 do 6, a nie {value!r}.")
        if not 1 <= value <= 6:
            raise RulesError(f"Kość ma oczka od 1 do 6, a nie {value}.")
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
