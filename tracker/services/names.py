"""What a player's name may hold, character by character.

A name is what people see on the sheet, so every character in it must be visible and mean the
same on every phone. Accepted: letters, digits, punctuation and symbols of any script, and any
emoji: family and profession sequences (joined by ZERO WIDTH JOINER), skin tones, flags (pairs
of regional indicators, and the tag sequences of England, Scotland and Wales), keycaps and
variation selectors. Refused, each by its code point and name: control characters, private-use
and unassigned code points, lone surrogates, and invisible characters (zero-width space,
direction overrides, soft hyphen, fillers…) except the joiners and selectors inside an emoji.

Unicode properties come from the `regex` module, whose Unicode data is newer than the
interpreter's `unicodedata`: an emoji added to Unicode last year is an emoji, not "unassigned".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import regex

from ..i18n import _

# A name's length as people count it: grapheme clusters, so "👨‍👩‍👧" (five code points) is one.
GRAPHEME = regex.compile(r"\X")

ZWJ = "\u200d"  # ZERO WIDTH JOINER: joins emoji into one ("👨‍👩‍👧")
TEXT_STYLE, EMOJI_STYLE = "\ufe0e", "\ufe0f"  # VARIATION SELECTOR-15 and -16
KEYCAP = "\u20e3"  # COMBINING ENCLOSING KEYCAP: "1️⃣", "#️⃣"
BLACK_FLAG = "\U0001f3f4"  # 🏴, followed by tag characters in the flags of England and others
TAGS = range(0xE0020, 0xE0080)  # TAG SPACE … CANCEL TAG

_EMOJI_START = regex.compile(r"[\p{Extended_Pictographic}\p{Regional_Indicator}]")
_KEYCAP = regex.compile(r"[0-9#*]\ufe0f?\u20e3")
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]")
_LETTER_OR_DIGIT = regex.compile(r"[\p{L}\p{N}]")
_LETTER = regex.compile(r"\p{L}")
_CATEGORY = {
    "Cc": regex.compile(r"\p{Cc}"),
    "Cs": regex.compile(r"\p{Cs}"),
    "Co": regex.compile(r"\p{Co}"),
    "Cn": regex.compile(r"\p{Cn}"),
}

# The names of the control characters (ISO 6429, as in Unicode 1.0): the Unicode Character
# Database gives them none, and "U+0007 (BELL)" says more than "U+0007".
_C0 = [
    "NULL",
    "START OF HEADING",
    "START OF TEXT",
    "END OF TEXT",
    "END OF TRANSMISSION",
    "ENQUIRY",
    "ACKNOWLEDGE",
    "BELL",
    "BACKSPACE",
    "CHARACTER TABULATION",
    "LINE FEED",
    "LINE TABULATION",
    "FORM FEED",
    "CARRIAGE RETURN",
    "SHIFT OUT",
    "SHIFT IN",
    "DATA LINK ESCAPE",
    "DEVICE CONTROL ONE",
    "DEVICE CONTROL TWO",
    "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR",
    "NEGATIVE ACKNOWLEDGE",
    "SYNCHRONOUS IDLE",
    "END OF TRANSMISSION BLOCK",
    "CANCEL",
    "END OF MEDIUM",
    "SUBSTITUTE",
    "ESCAPE",
    "INFORMATION SEPARATOR FOUR",
    "INFORMATION SEPARATOR THREE",
    "INFORMATION SEPARATOR TWO",
    "INFORMATION SEPARATOR ONE",
]
_C1 = [
    "PADDING CHARACTER",
    "HIGH OCTET PRESET",
    "BREAK PERMITTED HERE",
    "NO BREAK HERE",
    "INDEX",
    "NEXT LINE",
    "START OF SELECTED AREA",
    "END OF SELECTED AREA",
    "CHARACTER TABULATION SET",
    "CHARACTER TABULATION WITH JUSTIFICATION",
    "LINE TABULATION SET",
    "PARTIAL LINE FORWARD",
    "PARTIAL LINE BACKWARD",
    "REVERSE LINE FEED",
    "SINGLE SHIFT TWO",
    "SINGLE SHIFT THREE",
    "DEVICE CONTROL STRING",
    "PRIVATE USE ONE",
    "PRIVATE USE TWO",
    "SET TRANSMIT STATE",
    "CANCEL CHARACTER",
    "MESSAGE WAITING",
    "START OF GUARDED AREA",
    "END OF GUARDED AREA",
    "START OF STRING",
    "SINGLE GRAPHIC CHARACTER INTRODUCER",
    "SINGLE CHARACTER INTRODUCER",
    "CONTROL SEQUENCE INTRODUCER",
    "STRING TERMINATOR",
    "OPERATING SYSTEM COMMAND",
    "PRIVACY MESSAGE",
    "APPLICATION PROGRAM COMMAND",
]
CONTROL_NAMES = {
    **dict(enumerate(_C0)),
    0x7F: "DELETE",
    **{0x80 + i: name for i, name in enumerate(_C1)},
}
assert len(CONTROL_NAMES) == 65  # C0, DEL and C1: every character of category Cc


def graphemes(text: str) -> list[str]:
    """The characters of `text` as a reader counts them (extended grapheme clusters)."""
    return GRAPHEME.findall(text)


def char_label(ch: str) -> str:
    """ "U+0007 (BELL)": a character that may be invisible, named so that it can be found."""
    return f"U+{ord(ch):04X} ({char_name(ch)})"


def char_name(ch: str) -> str:
    """The character's Unicode name, or what it is when it has none."""
    code = ord(ch)
    if code in CONTROL_NAMES:
        return CONTROL_NAMES[code]
    if _CATEGORY["Cs"].match(ch):
        return _("połówka pary surogatów")
    if _CATEGORY["Co"].match(ch):
        return _("znak do użytku prywatnego")
    if _CATEGORY["Cn"].match(ch):
        return _("kod bez znaku w Unicode")
    # The interpreter's Unicode may be older than regex's: a new character has no name there.
    return unicodedata.name(ch, "") or _("znak z nowszej wersji Unicode")


def refused_character(name: str) -> str | None:
    """The first character `name` may not hold, or None when every one is fine."""
    for cluster in graphemes(name):
        for index, ch in enumerate(cluster):
            if any(pattern.match(ch) for pattern in _CATEGORY.values()):
                return ch
            if _INVISIBLE.match(ch) and not _joins_an_emoji(cluster, index):
                return ch
    return None


def _joins_an_emoji(cluster: str, index: int) -> bool:
    """Whether the invisible character at `index` is part of the emoji `cluster`: a joiner
    between two of its parts, a variation selector after its first code point (or a part
    after a joiner), or a tag of a flag that starts with 🏴."""
    ch = cluster[index]
    if index == 0 or not is_emoji(cluster):
        return False
    if ch == ZWJ:
        return index < len(cluster) - 1 and cluster[index - 1] != ZWJ
    if ch in (TEXT_STYLE, EMOJI_STYLE):
        return cluster[index - 1] not in (ZWJ, TEXT_STYLE, EMOJI_STYLE)
    if ord(ch) in TAGS:
        return cluster[0] == BLACK_FLAG
    return False


def is_emoji(cluster: str) -> bool:
    """Whether a grapheme cluster is an emoji: it starts with a pictograph or a regional
    indicator (flags), or it is a keycap."""
    return bool(_EMOJI_START.match(cluster)) or bool(_KEYCAP.fullmatch(cluster))


def has_visible_core(name: str) -> bool:
    """Whether the name has a letter, a digit or an emoji (not only punctuation and symbols)."""
    return _LETTER_OR_DIGIT.search(name) is not None or any(map(is_emoji, graphemes(name)))


def short_names(names: Sequence[str]) -> list[str]:
    """The shortest form of each seat's name that no other seat of the game shares, for a
    column too narrow for the whole name: the first word and the initial of the next
    („Dziadek Z.”), as many letters of that word as it takes to differ from another seat
    („Dziadek Zby.” beside „Dziadek Zbi.”), then the next words the same way, up to the whole
    name. A one-word name stays whole. Two seats whose names are the same once normalized
    (NFC) and case-folded, „Ola” and „ola”, are told apart by their seat's number („Ola (1)”).

    Invariant: no two results are alike (NFC, case-folded), and each is as short as the
    others let it be; a result is never longer than its name, but for that number."""
    keys = [_same(name) for name in names]
    forms = [_shorter_forms(name) for name in names]
    for seat, name in enumerate(names):
        if keys.count(keys[seat]) > 1:
            forms[seat].append(f"{name} ({seat + 1})")
    chosen = [0] * len(names)
    labels = [f[0] for f in forms]
    for _round in range(sum(map(len, forms)) + len(names)):
        groups: dict[str, list[int]] = {}
        for seat, label in enumerate(labels):
            groups.setdefault(_same(label), []).append(seat)
        clashes = [seats for seats in groups.values() if len(seats) > 1]
        if not clashes:
            break
        for seats in clashes:
            longer = [seat for seat in seats if chosen[seat] + 1 < len(forms[seat])]
            for seat in longer:
                chosen[seat] += 1
                labels[seat] = forms[seat][chosen[seat]]
            if not longer:  # only where a name is another's with its number: „Ola (2)”
                for seat in seats:
                    labels[seat] = f"{labels[seat]} ({seat + 1})"
    return labels


def _same(name: str) -> str:
    """A name as compared with another: „Ola” and „ola”, composed or not, are the same."""
    return unicodedata.normalize("NFC", name).casefold()


def _shorter_forms(name: str) -> list[str]:
    """A name's forms from the shortest to the whole name: the first word, then each next word
    cut to 1, 2, … letters and a full stop, then whole. A word that starts with no letter (an
    emoji, „(tata)”) is never cut."""
    words = name.split()
    forms: list[str] = []
    for index in range(1, len(words)):
        head = " ".join(words[:index])
        clusters = graphemes(words[index])
        if _LETTER.match(clusters[0]):
            for size in range(1, len(clusters)):
                cut = "".join(clusters[:size]).rstrip(".")
                forms.append(f"{head} {cut}.")
    forms.append(name)
    # "K." cut to one letter is "K." again: keep each form once, in order.
    return [form for i, form in enumerate(forms) if form not in forms[:i]]
