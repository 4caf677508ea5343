"""Polish alphabetical order (`tracker.collation`): every list of names the app shows is sorted
by this key."""

from __future__ import annotations

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.collation import ALPHABET, polish_key, polish_sorted


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # Letters of their own, each right after its base letter.
        pytest.param("Ada", "Ąkowski", id="ą-after-a"),
        pytest.param("Azor", "Ąkowski", id="ą-after-all-of-a"),
        pytest.param("Ąkowski", "Basia", id="ą-before-b"),
        pytest.param("Czesław", "Ćma", id="ć-after-c"),
        pytest.param("Ezop", "Ęta", id="ę-after-e"),
        pytest.param("Lucyna", "Łukasz", id="ł-after-l"),
        pytest.param("Łukasz", "Marek", id="ł-before-m"),
        pytest.param("Nowak", "Ńa", id="ń-after-n"),
        pytest.param("Oskar", "Ósemka", id="ó-after-o"),
        pytest.param("Ósemka", "Paweł", id="ó-before-p"),
        pytest.param("Szymon", "Śliwa", id="ś-after-s"),
        pytest.param("Zygmunt", "Źdźisław", id="ź-after-z"),
        pytest.param("Źdźisław", "Żaneta", id="ż-after-ź"),
        pytest.param("Łukasz", "Zoë", id="ł-before-z (the bug: Łukasz after Zoë)"),
        pytest.param("Paweł", "Quentin", id="q-after-p"),
        pytest.param("Quentin", "Rafał", id="q-before-r"),
        # Inside a word, not only at its start.
        pytest.param("Wala", "Wała", id="ł-inside-a-word"),
        pytest.param("Kasia", "Kaśka", id="ś-inside-a-word"),
        # Case is ignored, except to break a tie (lower case first).
        pytest.param("ala", "Ala", id="tie-lower-first"),
        pytest.param("Ala", "bogdan", id="case-ignored"),
        pytest.param("ŁUCJA", "łukasz", id="upper-polish-case-ignored"),
        # Other accented letters sort with their base letter; the accent breaks a tie.
        pytest.param("Zoe", "Zoë", id="accent-breaks-a-tie"),
        pytest.param("Zoë", "Zofia", id="ë-sorts-as-e"),
        pytest.param("Renée", "Renia", id="é-sorts-as-e"),
        pytest.param("Müller", "Muzyk", id="ü-sorts-as-u"),
        pytest.param("Straßa", "Strasu", id="ß-sorts-as-ss"),
        # Spaces, then punctuation, then symbols and emoji, then numbers, then letters.
        pytest.param("Ala Kot", "Alan", id="space-before-letters"),
        pytest.param("Jan-Paweł", "Janek", id="hyphen-before-letters"),
        pytest.param("👨‍👩‍👧 Kowalscy", "2 Babcie", id="emoji-before-digits"),
        pytest.param("2 Babcie", "Adam", id="digits-before-letters"),
        pytest.param("🎲", "👑", id="emoji-by-code-point"),
        pytest.param("👍 Ola", "👍🏽 Ala", id="skin-tone-after-the-plain-emoji"),
        # A run of digits is a number.
        pytest.param("Gracz 2", "Gracz 10", id="numbers-by-value"),
        pytest.param("Gracz 7", "Gracz 007", id="leading-zeros-break-a-tie"),
        # Other scripts after the Latin alphabet.
        pytest.param("Żaneta", "Ольга", id="cyrillic-after-ż"),
        # A shorter name first.
        pytest.param("Ola", "Olaf", id="prefix-first"),
    ],
)
def test_order(before: str, after: str):
    assert polish_key(before) < polish_key(after)
    assert polish_sorted([after, before]) == [before, after]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        pytest.param(
            ["Zoë", "Łukasz", "Lucyna", "Marek", "Adam", "Żaneta", "Źdźisław", "Zenon"],
            ["Adam", "Lucyna", "Łukasz", "Marek", "Zenon", "Zoë", "Źdźisław", "Żaneta"],
            id="family",
        ),
        pytest.param(
            ["Ćma", "Cezary", "Czesław", "ćwierć", "cebula"],
            ["cebula", "Cezary", "Czesław", "Ćma", "ćwierć"],
            id="c-and-ć",
        ),
    ],
)
def test_sorting_a_list(names: list[str], expected: list[str]):
    assert polish_sorted(names) == expected


def test_the_alphabet_is_the_polish_one():
    assert ALPHABET == "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"


def test_composed_and_decomposed_accents_sort_the_same():
    assert polish_key("Zoë")[:3] == polish_key("Zoe\u0308")[:3]
    assert polish_key("Łucja")[:3] == polish_key("Łucja")[:3]
    assert polish_key("Ósemka")[:3] == polish_key("O\u0301semka")[:3]


def test_sorting_by_a_key_of_the_items():
    people = [{"name": "Łukasz"}, {"name": "Lucyna"}]

    assert polish_sorted(people, key=lambda p: p["name"]) == [
        {"name": "Lucyna"},
        {"name": "Łukasz"},
    ]


@settings(max_examples=examples(300))
@given(st.text(max_size=12), st.text(max_size=12))
def test_different_names_never_compare_equal(a: str, b: str):
    """A total order: two names sort the same way whatever order they come in."""
    assert (polish_key(a) == polish_key(b)) == (a == b)
    assert polish_sorted([a, b]) == polish_sorted([b, a])
