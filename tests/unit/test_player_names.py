"""What a player's name may hold (`tracker.services.names`): any emoji, and every other visible
character; a refused one is named by its code point and Unicode name."""

from __future__ import annotations

import pytest

from tracker.services.names import char_label, graphemes, has_visible_core, refused_character

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # 👨‍👩‍👧, five code points


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(f"{FAMILY} Kowalscy", id="family-zwj-sequence"),
        pytest.param(
            "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466", id="family-of-4"
        ),
        pytest.param("\U0001f469\U0001f3fd\u200d\U0001f4bb Ola", id="profession-with-skin-tone"),
        pytest.param("\U0001f44d\U0001f3ff Jan", id="skin-tone-modifier"),
        pytest.param("\U0001f1f5\U0001f1f1 Polska", id="flag-regional-indicators"),
        pytest.param(
            "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Szkot",
            id="flag-tag-sequence",
        ),
        pytest.param("1\ufe0f\u20e3 Ala", id="keycap-with-selector"),
        pytest.param("#\u20e3", id="keycap-without-selector"),
        pytest.param("\u2764\ufe0f Babcia", id="emoji-style-selector"),
        pytest.param("\u2764\ufe0e Dziadek", id="text-style-selector"),
        pytest.param("\U0001f3f3\ufe0f\u200d\U0001f308", id="rainbow-flag-selector-and-zwj"),
        pytest.param("\U0001fae8 Staś", id="emoji-newer-than-the-interpreter"),
        pytest.param("Zoe\u0308", id="combining-accent"),
        pytest.param("Łucja Żółć", id="polish-letters"),
        pytest.param("Ольга", id="cyrillic"),
        pytest.param("Jan-Paweł (tata)", id="punctuation"),
        pytest.param("\U0001f98a", id="emoji-alone"),
    ],
)
def test_accepted(name: str):
    assert refused_character(name) is None
    assert has_visible_core(name)


@pytest.mark.parametrize(
    ("name", "label"),
    [
        pytest.param("Ala\x07", "U+0007 (BELL)", id="bell"),
        pytest.param("\x00Ala", "U+0000 (NULL)", id="null"),
        pytest.param("Ala\x7f", "U+007F (DELETE)", id="delete"),
        pytest.param("Ala\x9b", "U+009B (CONTROL SEQUENCE INTRODUCER)", id="c1-control"),
        pytest.param("A\u200bla", "U+200B (ZERO WIDTH SPACE)", id="zero-width-space"),
        pytest.param("\u202eAla", "U+202E (RIGHT-TO-LEFT OVERRIDE)", id="bidi-override"),
        pytest.param("A\u00adla", "U+00AD (SOFT HYPHEN)", id="soft-hyphen"),
        pytest.param("Ala\ufeff", "U+FEFF (ZERO WIDTH NO-BREAK SPACE)", id="bom"),
        pytest.param("\u3164", "U+3164 (HANGUL FILLER)", id="invisible-letter"),
        pytest.param("A\u200dla", "U+200D (ZERO WIDTH JOINER)", id="zwj-between-letters"),
        pytest.param(f"{FAMILY}\u200d", "U+200D (ZERO WIDTH JOINER)", id="zwj-dangling"),
        pytest.param("Ala\ufe0f", "U+FE0F (VARIATION SELECTOR-16)", id="selector-after-a-letter"),
        pytest.param("A\U000e0067", "U+E0067 (TAG LATIN SMALL LETTER G)", id="tag-outside-a-flag"),
        pytest.param("Ala\ue000", "U+E000 (znak do użytku prywatnego)", id="private-use"),
        pytest.param(
            "Ala\U000f0000", "U+F0000 (znak do użytku prywatnego)", id="private-use-plane"
        ),
        pytest.param("Ala\u0378", "U+0378 (kod bez znaku w Unicode)", id="unassigned"),
        pytest.param("Ala\ufdd0", "U+FDD0 (kod bez znaku w Unicode)", id="noncharacter"),
        pytest.param("Ala\ud800", "U+D800 (połówka pary surogatów)", id="lone-surrogate"),
    ],
)
def test_refused_and_named(name: str, label: str):
    refused = refused_character(name)

    assert refused is not None
    assert char_label(refused) == label


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param(f"{FAMILY} Kowalscy", 10, id="family-is-one"),
        pytest.param("\U0001f1f5\U0001f1f1\U0001f1e9\U0001f1ea", 2, id="two-flags"),
        pytest.param("\U0001f44d\U0001f3fd", 1, id="skin-tone-is-one"),
        pytest.param("1\ufe0f\u20e3", 1, id="keycap-is-one"),
        pytest.param("Zoe\u0308", 3, id="accent-is-part-of-its-letter"),
        pytest.param("Łucja", 5, id="letters"),
    ],
)
def test_length_counts_what_a_reader_sees(text: str, count: int):
    assert len(graphemes(text)) == count


@pytest.mark.parametrize("name", ["---", "...", "+", "(*)"])
def test_punctuation_alone_is_no_name(name: str):
    assert refused_character(name) is None
    assert not has_visible_core(name)
