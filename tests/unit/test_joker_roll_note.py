"""The note on a joker says what the settled rules say, for the sheet it is asked about.

DECISIONS.md, standard table: "It must be written in a free lower field; only when the lower
section is full may it be written, as 0, in a free upper field." `triple`: "Joker: only when all
three Generał fields are filled AND the matching upper field is filled in all three columns. A
joker goes to a free lower field of any column; only when all lower fields are full, as 0 to a
free upper field."

So in Kości potrójne the note names all three columns (Szóstki filled in one column is not
enough), and once the lower section is full it does not promise the lower fields (ful 25, strits
30 and 40) but says the joker goes to the upper section for 0, as the moves do.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.rules import Code, Section, evaluate, find_variant, parse_sheet

from .builders import LOWER_STANDARD, roll

GENERAL_SIXES = {"five_of_a_kind": 50, "sixes": 30}
LOWER_FULL = {field: 0 for field in LOWER_STANDARD if field != "five_of_a_kind"}


def joker_note(variant: str, columns: list[dict[str, int]], dice: str) -> str:
    found = find_variant(variant)
    evaluation = evaluate(found, parse_sheet(found, columns), roll(dice))
    assert evaluation.joker
    notes = dict(zip(evaluation.note_codes, evaluation.notes, strict=True))
    return notes[Code.JOKER]


@pytest.mark.parametrize(
    ("variant", "columns", "says", "never"),
    [
        (
            "standard",
            [GENERAL_SIXES],
            "pasuje do każdego pola dolnej części (ful 25, mały strit 30, duży strit 40)",
            "górnej",
        ),
        (
            "standard",
            [{**GENERAL_SIXES, **LOWER_FULL}],
            "dolna część jest pełna, więc rzut trafia za 0 do wolnego pola górnej części",
            "ful 25",
        ),
        (
            "triple",
            [GENERAL_SIXES] * 3,
            "zajęte we wszystkich trzech kolumnach, więc rzut pasuje do każdego pola dolnej "
            "części w dowolnej kolumnie (ful 25, mały strit 30, duży strit 40)",
            "górnej",
        ),
        (
            "triple",
            [{**GENERAL_SIXES, **LOWER_FULL}] * 2 + [GENERAL_SIXES],
            "zajęte we wszystkich trzech kolumnach, więc rzut pasuje do każdego pola dolnej "
            "części w dowolnej kolumnie",
            "górnej",
        ),
        (
            "triple",
            [{**GENERAL_SIXES, **LOWER_FULL}] * 3,
            "dolne części wszystkich kolumn są pełne, więc rzut trafia za 0 do wolnego pola "
            "górnej części",
            "ful 25",
        ),
    ],
    ids=[
        "standard joker, a lower field free: fits every lower field",
        "standard joker, lower section full: 0 in an upper field",
        "triple joker: Generał and Szóstki filled in all three columns",
        "triple joker, one column's lower section free: still the lower fields",
        "triple joker, every lower section full: 0 in an upper field",
    ],
)
def test_joker_note_says_where_the_joker_goes(variant, columns, says, never):
    note = joker_note(variant, columns, "6-6-6-6-6")
    assert says in note
    assert never not in note


UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


@given(
    face=st.integers(1, 6),
    lower_full=st.lists(st.booleans(), min_size=3, max_size=3),
    variant=st.sampled_from(["standard", "triple"]),
)
def test_joker_note_promises_the_lower_fields_exactly_when_a_joker_may_go_there(
    face, lower_full, variant
):
    columns = [
        {"five_of_a_kind": 50, UPPER[face - 1]: 0, **(LOWER_FULL if full else {})}
        for full in lower_full[: 3 if variant == "triple" else 1]
    ]
    found = find_variant(variant)
    evaluation = evaluate(found, parse_sheet(found, columns), roll("-".join([str(face)] * 5)))
    note = dict(zip(evaluation.note_codes, evaluation.notes, strict=True))[Code.JOKER]
    goes_lower = any(p.section is Section.LOWER for p in evaluation.moves)
    assert ("pasuje do każdego pola dolnej części" in note) == goes_lower
    assert ("za 0 do wolnego pola górnej części" in note) == (not goes_lower)
    assert ("we wszystkich trzech kolumnach" in note) == (variant == "triple")
