"""The shipped advisor tables against a brute force written apart from their builder.

For end-game sheets (one to four free fields) `bruteforce.Solver` enumerates every roll, every
keep after the first and the second roll, and every field the rules allow for the final roll,
recursing over the turns left: the expected points still to come under optimal solitaire play.
The table's value of the same sheet (`store.table(key).remaining(spec.index_of(column))`) must
agree to 1e-3 (the tables are float32).

The sheets are chosen where the rules bite: the upper sum a few points from the bonus, a
Generał of 50 (the +100) or 0, jokers that must go to the lower section or, with the lower
section full, to the upper one for 0, and Gra po kolei's last fields.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.advisor import AdvisorUnavailable, store
from tracker.advisor.specs import SPECS
from tracker.rules import TABLE_VARIANTS, Column, Variant, parse_sheet

from .bruteforce import Solver, solver

TOLERANCE = 1e-3

STANDARD = TABLE_VARIANTS["standard"]
ORDERED = TABLE_VARIANTS["ordered"]
SCANDINAVIAN = TABLE_VARIANTS["scandinavian"]
# One column of Kości potrójne as the approximation values it: the standard table without the
# joker and the extra bonus (built here from the rules' own variant, not taken from the advisor).
TRIPLE_COLUMN = replace(TABLE_VARIANTS["triple"], multipliers=(1,), joker=False, extra_bonus=0)

VARIANT_OF = {
    "standard-63": STANDARD,
    "ordered-63": ORDERED,
    "ordered-42": ORDERED,
    "scandinavian-63": SCANDINAVIAN,
    "triple-column-63": TRIPLE_COLUMN,
}

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
# The lower fields of a late sheet, as someone might have written them.
STANDARD_LOWER = {
    "three_of_a_kind": 21,
    "four_of_a_kind": 0,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 0,
    "five_of_a_kind": 50,
    "chance": 22,
}
SCANDINAVIAN_LOWER = {
    "pair": 10,
    "two_pairs": 14,
    "three_of_a_kind": 12,
    "four_of_a_kind": 0,
    "small_straight": 15,
    "large_straight": 0,
    "full_house": 18,
    "chance": 21,
    "five_of_a_kind": 0,
}


def upper(*values: int) -> dict[str, int]:
    """Ones to sixes, in table order."""
    return dict(zip(UPPER_IDS, values, strict=True))


# Upper sections filled but for the fields a case frees (sums before freeing).
UPPER_60 = upper(2, 8, 15, 20, 15, 0)  # 60: one six gets the bonus
UPPER_45 = upper(3, 6, 9, 12, 15, 0)  # 45: three sixes get it
UPPER_51 = upper(3, 6, 9, 12, 15, 6)  # 51; with Piątki free 36: the bonus out of reach
UPPER_30 = upper(3, 6, 9, 12, 0, 0)  # 30: fives and sixes free need 33
UPPER_BONUS_IN = upper(4, 8, 12, 16, 20, 24)  # 84: the bonus is already there


def column_of(key: str, free: tuple[str, ...], cells: dict[str, int]) -> Column:
    """A column of the table `key` with every field written as in `cells` (the variant's late
    lower section by default) except the free ones, validated by `parse_sheet`."""
    variant = VARIANT_OF[key]
    lower = SCANDINAVIAN_LOWER if variant is SCANDINAVIAN else STANDARD_LOWER
    written = {**lower, **cells}
    assert set(written) == set(variant.table.field_ids), "every field given a value"
    (column,) = parse_sheet(variant, {f: v for f, v in written.items() if f not in free})
    return column


def brute_solver(key: str) -> Solver:
    threshold = int(key.rsplit("-", 1)[1])
    return solver(VARIANT_OF[key], threshold)


def shipped(key: str, column: Column) -> float:
    """The table's value, or a skip when the table is not built in this checkout."""
    if key not in store.manifest().get("tables", {}):
        pytest.skip(f"the advisor table {key} is not built (flask --app tracker advisor build)")
    return store.table(key).remaining(SPECS[key].index_of(column))


def case(key: str, free: tuple[str, ...], cells: dict[str, int], id: str) -> Any:
    return pytest.param(key, free, cells, id=f"{key}: {id}")


CASES = [
    # --- standard: the upper bonus within reach --------------------------------------------
    case("standard-63", ("sixes",), UPPER_60, "upper 60, Szóstki free, Generał 50"),
    case(
        "standard-63",
        ("sixes",),
        {**UPPER_60, "five_of_a_kind": 0},
        "upper 60, Szóstki free, Generał crossed out",
    ),
    case("standard-63", ("sixes",), UPPER_45, "upper 45, Szóstki free: three sixes for the bonus"),
    case(
        "standard-63",
        ("fives",),
        UPPER_51,
        "upper 36, Piątki free: the bonus out of reach",
    ),
    case("standard-63", ("sixes", "chance"), UPPER_45, "upper 45, Szóstki and Szansa free"),
    case(
        "standard-63",
        ("sixes", "five_of_a_kind"),
        UPPER_45,
        "upper 45, Szóstki and Generał free",
    ),
    case(
        "standard-63",
        ("sixes", "five_of_a_kind", "chance"),
        UPPER_45,
        "upper 45, Szóstki, Generał and Szansa free",
    ),
    case(
        "standard-63",
        ("fives", "sixes", "five_of_a_kind", "chance"),
        UPPER_30,
        "upper 30, Piątki, Szóstki, Generał and Szansa free",
    ),
    # --- standard: Generał, the joker and the +100 -----------------------------------------
    case("standard-63", ("five_of_a_kind",), UPPER_60, "only Generał free"),
    case("standard-63", ("five_of_a_kind", "chance"), UPPER_BONUS_IN, "Generał and Szansa free"),
    case(
        "standard-63",
        ("full_house", "large_straight"),
        UPPER_BONUS_IN,
        "Generał 50: a joker scores Ful 25 / Duży strit 40 and +100",
    ),
    case(
        "standard-63",
        ("full_house", "large_straight"),
        {**UPPER_BONUS_IN, "five_of_a_kind": 0},
        "Generał crossed out: a joker without the +100",
    ),
    case(
        "standard-63",
        ("small_straight",),
        UPPER_BONUS_IN,
        "Generał 50, only Mały strit free",
    ),
    case(
        "standard-63",
        ("three_of_a_kind", "full_house", "large_straight"),
        UPPER_BONUS_IN,
        "Generał 50, three lower fields free",
    ),
    case(
        "standard-63",
        ("ones",),
        UPPER_BONUS_IN,
        "lower full, Generał 50: a joker goes to Jedynki for 0 and +100",
    ),
    case(
        "standard-63",
        ("ones", "twos"),
        upper(0, 0, 12, 16, 20, 12),
        "lower full, Generał 50, upper 60 with Jedynki and Dwójki free",
    ),
    case(
        "standard-63",
        ("fives",),
        {**UPPER_51, "five_of_a_kind": 0},
        "lower full, Generał crossed out: a joker goes to Piątki for 0",
    ),
    case(
        "standard-63",
        ("sixes", "small_straight"),
        UPPER_45,
        "Generał 50, Szóstki and Mały strit free: five sixes are no joker",
    ),
    # --- Gra po kolei: the last fields ------------------------------------------------------
    case("ordered-63", ("chance",), UPPER_BONUS_IN, "Szansa last, Generał 50"),
    case(
        "ordered-63",
        ("chance",),
        {**UPPER_BONUS_IN, "five_of_a_kind": 0},
        "Szansa last, Generał crossed out",
    ),
    case("ordered-63", ("five_of_a_kind", "chance"), UPPER_45, "Generał and Szansa left"),
    case(
        "ordered-63",
        ("large_straight", "five_of_a_kind", "chance"),
        UPPER_BONUS_IN,
        "Duży strit, Generał and Szansa left",
    ),
    case(
        "ordered-63",
        ("sixes", *STANDARD_LOWER),
        UPPER_45,
        "from Szóstki on, upper 45",
    ),
    case("ordered-42", ("chance",), UPPER_BONUS_IN, "Szansa last, Generał 50"),
    case("ordered-42", ("five_of_a_kind", "chance"), UPPER_30, "Generał and Szansa left"),
    case(
        "ordered-42",
        ("sixes", *STANDARD_LOWER),
        {**UPPER_30, "fives": 0},
        "from Szóstki on, upper 30: two sixes for the bonus",
    ),
    # --- scandinavian: no joker, no +100, bonus 50 ------------------------------------------
    case("scandinavian-63", ("sixes",), UPPER_60, "upper 60, Szóstki free"),
    case("scandinavian-63", ("sixes",), UPPER_45, "upper 45, Szóstki free"),
    case("scandinavian-63", ("pair", "two_pairs"), UPPER_BONUS_IN, "Para and Dwie pary free"),
    case(
        "scandinavian-63",
        ("full_house", "five_of_a_kind"),
        UPPER_BONUS_IN,
        "Ful and Generał free: five of a kind is no full house",
    ),
    case(
        "scandinavian-63",
        ("small_straight", "large_straight", "chance"),
        UPPER_BONUS_IN,
        "both straights (exact runs) and Szansa free",
    ),
    case(
        "scandinavian-63",
        ("sixes", "five_of_a_kind", "chance"),
        UPPER_45,
        "upper 45, Szóstki, Szansa and Generał free",
    ),
    # --- one column of Kości potrójne: no joker, no +100 ------------------------------------
    case("triple-column-63", ("sixes",), UPPER_60, "upper 60, Szóstki free, Generał 50"),
    case(
        "triple-column-63",
        ("ones",),
        UPPER_BONUS_IN,
        "lower full, Generał 50: five of a kind is just a roll",
    ),
    case(
        "triple-column-63",
        ("full_house", "large_straight"),
        UPPER_BONUS_IN,
        "Generał 50: five of a kind scores 0 in Ful and Duży strit",
    ),
    case(
        "triple-column-63",
        ("sixes", "five_of_a_kind", "chance"),
        UPPER_45,
        "upper 45, Szóstki, Generał and Szansa free",
    ),
]


@pytest.mark.parametrize(("key", "free", "cells"), CASES)
def test_table_agrees_with_brute_force(key, free, cells):
    column = column_of(key, free, cells)
    expected = shipped(key, column)
    assert brute_solver(key).remaining(column) == pytest.approx(expected, abs=TOLERANCE)


# --- the brute force itself ----------------------------------------------------------------


def test_brute_force_finds_the_published_chance_of_a_yahtzee():
    """Only Generał left: 50 × the chance of five of a kind in three rolls, which is
    2,783,176 / 6^10 ≈ 4.603 % under the best keeping (Verhoeff)."""
    column = column_of("standard-63", ("five_of_a_kind",), UPPER_BONUS_IN)
    assert brute_solver("standard-63").remaining(column) == pytest.approx(
        50 * 2_783_176 / 6**10, abs=1e-9
    )


@pytest.mark.parametrize(
    ("free", "cells", "at_least"),
    [
        (("ones",), UPPER_BONUS_IN, 3.0),
        (("full_house", "large_straight"), UPPER_BONUS_IN, 4.0),
        (("sixes", "small_straight"), UPPER_45, 2.5),
    ],
    ids=["joker to the upper for 0", "joker in the lower", "sixes and a straight"],
)
def test_the_cases_depend_on_joker_and_extra_bonus(free, cells, at_least):
    """The same sheet (Generał 50) is worth points more with the joker and the +100 than
    without them (one column of `triple`), so the agreement above could not hold for a table
    that ignored either: the +100 alone is worth 100 × about 4 %."""
    column = column_of("standard-63", free, cells)
    with_joker = brute_solver("standard-63").remaining(column)
    without = brute_solver("triple-column-63").remaining(column)
    assert with_joker - without > at_least


def test_the_bonus_case_depends_on_the_threshold():
    """Upper 45 with Szóstki free is worth 35 × P(three sixes) more than upper 36 would be."""
    solve = brute_solver("standard-63")
    near = solve.remaining(column_of("standard-63", ("sixes",), UPPER_45))
    far = solve.remaining(column_of("standard-63", ("sixes",), {**UPPER_45, "fives": 0}))
    assert near - far > 5.0


# --- random late sheets ---------------------------------------------------------------------

PROPERTY = settings(
    max_examples=examples(10),
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# The tables of this checkout (all five once built; a missing one is skipped above, by name).
try:
    BUILT = sorted(set(VARIANT_OF) & set(store.manifest().get("tables", {})))
except AdvisorUnavailable:  # no manifest at all: every case above says so when it skips
    BUILT = []


@st.composite
def late_columns(draw: st.DrawFn) -> tuple[str, tuple[str, ...], dict[str, int]]:
    """A table, one or two free fields (the last ones in Gra po kolei) and random values,
    each one the rules accept in its field, in the others."""
    if not BUILT:
        pytest.skip("no advisor table is built (flask --app tracker advisor build)")
    key = draw(st.sampled_from(BUILT))
    variant: Variant = VARIANT_OF[key]
    fields = variant.table.field_ids
    count = draw(st.integers(1, 2))
    if variant.fixed_order:
        free = fields[-count:]
    else:
        free = tuple(
            draw(st.lists(st.sampled_from(fields), min_size=count, max_size=count, unique=True))
        )
    cells = {}
    for f in fields:
        values = sorted(variant.table.achievable[f])
        cells[f] = draw(st.sampled_from(values))
    return key, free, cells


@PROPERTY
@given(late_columns())
def test_random_late_sheets_agree_with_brute_force(late):
    key, free, cells = late
    column = column_of(key, free, cells)
    expected = shipped(key, column)
    assert brute_solver(key).remaining(column) == pytest.approx(expected, abs=TOLERANCE)
