"""Polish alphabetical order for names, without ICU: `polish_key` and `polish_sorted`.

The order, level by level (the way a collation compares: a later level only breaks ties):

1. letters of the Polish alphabet, a ą b c ć d e ę f g h i j k l ł m n ń o ó p q r s ś t u v w
   x y z ź ż; ą, ć, ę, ł, ń, ó, ś, ź and ż are letters of their own (so "Łukasz" sorts after
   "Lucyna" and before "Marek", not after "Zoë"); other accented Latin letters sort with their
   base letter (é with e, ü with u); letters of other scripts after z, by code point. Before
   the letters, in this order: spaces, punctuation, symbols (emoji among them), numbers. A run
   of digits is one number compared by value ("Gracz 2" before "Gracz 10"). Marks that join
   a character (accents, emoji skin tones' joiners, variation selectors) count only at level 2;
2. accents: "Zoe" before "Zoë";
3. case: lower case first, "ala" before "Ala";
4. the text itself, so that different names never compare equal.

Standard library only: used by the services (statistics, players) and the web filters alike.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

ALPHABET = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"  # i18n: not shown
_RANK = {letter: index for index, letter in enumerate(ALPHABET)}
_OTHER_SCRIPTS = len(ALPHABET)  # letters outside the Latin alphabet rank after ż

# The classes of the first level, in the order they sort.
SPACE, PUNCTUATION, SYMBOL, NUMBER, LETTER = range(5)

Element = tuple[int, int]
CollationKey = tuple[tuple[Element, ...], tuple[tuple[int, ...], ...], tuple[int, ...], str]


def polish_key(text: str) -> CollationKey:
    """The sort key of `text` in Polish alphabetical order (see the module docstring)."""
    primary: list[Element] = []
    accents: list[tuple[int, ...]] = []
    cases: list[int] = []
    chars = unicodedata.normalize("NFC", text)
    i, end = 0, len(chars)
    while i < end:
        ch = chars[i]
        if ch.isdecimal():  # a whole number, compared by value; leading zeros at level 2
            j = i
            while j < end and chars[j].isdecimal():
                j += 1
            digits = chars[i:j]
            primary.append((NUMBER, int(digits)))
            accents.append((len(digits),))
            i = j
            continue
        i += 1
        category = unicodedata.category(ch)
        if ch.isspace():
            if not primary or primary[-1] != (SPACE, 0):  # a run of spaces is one space
                primary.append((SPACE, 0))
        elif category[0] == "L":
            for rank, marks in _letter(ch):
                primary.append((LETTER, rank))
                accents.append(marks)
            cases.append(1 if ch.isupper() or ch.istitle() else 0)
        elif category[0] in "MC" or ch == "\u200d":  # accents, joiners, selectors, formats
            accents.append((ord(ch),))
        elif category[0] == "P":
            primary.append((PUNCTUATION, ord(ch)))
        else:  # symbols (emoji, skin tones, flags' letters), and whatever else is left
            primary.append((SYMBOL, ord(ch)))
    return tuple(primary), tuple(accents), tuple(cases), text


def _letter(ch: str) -> list[tuple[int, tuple[int, ...]]]:
    """A letter's ranks at level 1 with their accents (level 2): one for most letters, more
    for those that fold to several ("ß" sorts as "ss")."""
    result: list[tuple[int, tuple[int, ...]]] = []
    for folded in ch.casefold():
        if folded in _RANK:
            result.append((_RANK[folded], ()))
            continue
        decomposed = unicodedata.normalize("NFD", folded)
        base, marks = decomposed[0], tuple(ord(m) for m in decomposed[1:])
        if base in _RANK:  # é, ü, ñ, å: their base letter, the accents at level 2
            result.append((_RANK[base], marks))
        elif unicodedata.category(base)[0] == "M" and result:  # İ folds to i and a dot above
            rank, before = result[-1]
            result[-1] = (rank, (*before, ord(base), *marks))
        else:
            result.append((_OTHER_SCRIPTS + ord(base), marks))
    return result


def polish_sorted(items: Iterable[T], key: Callable[[T], str] = str) -> list[T]:
    """`items` in Polish alphabetical order of `key(item)` (the item itself, by default)."""
    return sorted(items, key=lambda item: polish_key(key(item)))
