"""A player's name in a column too narrow for it (`tracker.services.names.short_names`): the
shortest form no other seat of the game shares, computed from the game's own names."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.services.names import short_names


@pytest.mark.parametrize(
    ("names", "short"),
    [
        pytest.param(
            ["Dziadek Zbyszek", "Dziadek Marian"],
            ["Dziadek Z.", "Dziadek M."],
            id="first-word-shared",
        ),
        pytest.param(
            ["Babcia Ela", "Babcia Halina", "Dziadek Zbyszek"],
            ["Babcia E.", "Babcia H.", "Dziadek Z."],
            id="two-families-of-first-words",
        ),
        pytest.param(
            ["Dziadek Zbyszek", "Dziadek Zbigniew"],
            ["Dziadek Zby.", "Dziadek Zbi."],
            id="second-words-sharing-a-prefix",
        ),
        pytest.param(
            ["Łukasz", "Łucja", "Ola"], ["Łukasz", "Łucja", "Ola"], id="one-word-names-stay-whole"
        ),
        pytest.param(["Ola", "Ola K."], ["Ola", "Ola K."], id="a-name-and-it-with-an-initial"),
        pytest.param(
            ["Ola Kowalska", "Ola K."], ["Ola Ko.", "Ola K."], id="an-initial-that-is-another-name"
        ),
        pytest.param(
            ["Jan Maria Rokita", "Jan Maria Nowak"],
            ["Jan Maria R.", "Jan Maria N."],
            id="three-words-sharing-two",
        ),
        pytest.param(
            ["Dziadek Marian", "Dziadek Marian Kowalski"],
            ["Dziadek Marian", "Dziadek Marian K."],
            id="a-name-inside-another",
        ),
        pytest.param(["Ola", "ola", "OLA"], ["Ola (1)", "ola (2)", "OLA (3)"], id="case-folded"),
        pytest.param(
            ["Zoe\u0308 Nowak", unicodedata.normalize("NFC", "Zoe\u0308 Nowak")],
            ["Zoe\u0308 Nowak (1)", "Zo\u00eb Nowak (2)"],
            id="same-after-nfc",
        ),
        pytest.param(["Ola 🦊", "Ola 🐻"], ["Ola 🦊", "Ola 🐻"], id="emoji-word-never-cut"),
        pytest.param(
            ["👨\u200d👩\u200d👧 Kowalscy", "👨\u200d👩\u200d👧 Nowakowie"],
            ["👨\u200d👩\u200d👧 K.", "👨\u200d👩\u200d👧 N."],
            id="emoji-first-word",
        ),
        pytest.param(
            ["Ela Żółć", "Ela Żaba"], ["Ela Żó.", "Ela Ża."], id="polish-letters-by-grapheme"
        ),
        pytest.param(["Jan-Paweł (tata)"], ["Jan-Paweł (tata)"], id="punctuation-word-never-cut"),
        pytest.param(["  Babcia   Ela "], ["Babcia E."], id="spaces-around-words"),
        pytest.param([], [], id="no-seats"),
    ],
)
def test_short_names(names: list[str], short: list[str]):
    assert short_names(names) == short


@pytest.mark.parametrize(
    "names",
    [
        pytest.param(["Ola", "ola", "Ola (2)"], id="a-name-that-looks-numbered"),
        pytest.param(["A B", "A Bc", "A B.", "A b"], id="initials-and-cuts-alike"),
        pytest.param(["Dziadek", "Dziadek Z.", "Dziadek Zbyszek", "dziadek z."], id="prefixes"),
    ],
)
def test_no_two_seats_are_alike(names: list[str]):
    labels = short_names(names)
    assert len({unicodedata.normalize("NFC", label).casefold() for label in labels}) == len(names)


WORD = st.text(alphabet="AaĄąBbŁłZzŻż.🦊", min_size=1, max_size=4)
NAME = st.lists(WORD, min_size=1, max_size=3).map(" ".join)


@given(st.lists(NAME, max_size=6))
def test_any_seats_are_told_apart(names: list[str]):
    labels = short_names(names)
    assert len({unicodedata.normalize("NFC", label).casefold() for label in labels}) == len(names)
