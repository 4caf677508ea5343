"""Tabela skandynawska: pair and two pairs, exact straights, only the matching dice count."""

import pytest

from tracker.rules import (
    SCANDINAVIAN,
    Code,
    RulesError,
    empty_sheet,
    evaluate,
    find_variant,
    is_full,
    parse_sheet,
    sheet_totals,
)

from .builders import roll, sheet_after

SCANDINAVIAN_VARIANT = find_variant("scandinavian")


def placement_on_empty_sheet(dice: str, field: str):
    placement = evaluate(SCANDINAVIAN_VARIANT, empty_sheet(SCANDINAVIAN_VARIANT), roll(dice)).find(
        field
    )
    assert placement is not None
    assert placement.allowed
    return placement


@pytest.mark.parametrize(
    ("dice", "field", "points"),
    [
        ("6-6-2-2-1", "pair", 12),
        ("3-3-3-5-5", "pair", 10),
        ("1-2-3-4-6", "pair", 0),
        ("6-6-6-6-6", "pair", 12),
        ("3-3-3-5-5", "two_pairs", 16),
        ("5-5-3-3-1", "two_pairs", 16),
        ("4-4-4-4-2", "two_pairs", 0),
        ("6-6-6-6-6", "two_pairs", 0),
        ("6-6-1-2-3", "two_pairs", 0),
        ("3-3-3-5-6", "three_of_a_kind", 9),
        ("2-2-2-2-6", "three_of_a_kind", 6),
        ("6-6-6-6-6", "three_of_a_kind", 18),
        ("4-4-4-4-2", "four_of_a_kind", 16),
        ("6-6-6-6-6", "four_of_a_kind", 24),
        ("3-3-3-5-5", "four_of_a_kind", 0),
        ("1-2-3-4-5", "small_straight", 15),
        ("5-4-3-2-1", "small_straight", 15),
        ("2-3-4-5-6", "small_straight", 0),
        ("1-2-3-4-6", "small_straight", 0),
        ("2-3-4-5-6", "large_straight", 20),
        ("1-2-3-4-5", "large_straight", 0),
        ("3-3-3-5-5", "full_house", 19),
        ("6-6-6-5-5", "full_house", 28),
        ("6-6-6-6-6", "full_house", 0),
        ("2-2-3-3-4", "full_house", 0),
        ("1-2-3-4-6", "chance", 16),
        ("6-6-6-6-6", "five_of_a_kind", 50),
        ("6-6-6-6-5", "five_of_a_kind", 0),
        ("6-6-6-1-2", "sixes", 18),
    ],
    ids=[
        "scandinavian pair: 2 x its value",
        "scandinavian pair: the highest pair of a full house (5-5 over 3-3-3)",
        "scandinavian pair: none, 0",
        "scandinavian pair: five 6s hold a pair of 6s",
        "scandinavian two pairs: full house 3-3-3-5-5 gives 16",
        "scandinavian two pairs: the sum of those four dice",
        "scandinavian two pairs: four of a kind gives 0",
        "scandinavian two pairs: five of a kind gives 0",
        "scandinavian two pairs: one pair gives 0",
        "scandinavian three of a kind: only those 3 dice",
        "scandinavian three of a kind: three of four equal dice",
        "scandinavian three of a kind: three of five 6s",
        "scandinavian four of a kind: only those 4 dice",
        "scandinavian four of a kind: four of five 6s",
        "scandinavian four of a kind: needs four equal dice",
        "scandinavian small straight: exactly 1-2-3-4-5 = 15",
        "scandinavian small straight: in any order",
        "scandinavian small straight: 2-3-4-5-6 is not small",
        "scandinavian small straight: four in a row is not enough",
        "scandinavian large straight: exactly 2-3-4-5-6 = 20",
        "scandinavian large straight: 1-2-3-4-5 is not large",
        "scandinavian full house: the sum of all dice",
        "scandinavian full house: 6-6-6-5-5 is the highest, 28",
        "scandinavian full house: five of a kind is not a full house",
        "scandinavian full house: two pairs are not a full house",
        "scandinavian chance: the sum",
        "scandinavian General: 50",
        "scandinavian General: needs five equal dice",
        "scandinavian upper section as on the Polish table",
    ],
)
def test_scandinavian_scores(dice, field, points):
    assert placement_on_empty_sheet(dice, field).points == points


@pytest.mark.parametrize(
    ("dice", "field", "fragment"),
    [
        ("2-3-4-5-6", "small_straight", "dokładnie 1-2-3-4-5"),
        ("1-2-3-4-5", "large_straight", "dokładnie 2-3-4-5-6"),
        ("4-4-4-4-2", "two_pairs", "różne oczka"),
        ("6-6-6-6-6", "two_pairs", "różne oczka"),
        ("6-6-6-6-6", "full_house", "nie jest jokerem"),
        ("6-6-6-6-6", "large_straight", "nie jest jokerem"),
    ],
    ids=[
        "note: the scandinavian small straight is exactly 1-2-3-4-5",
        "note: the scandinavian large straight is exactly 2-3-4-5-6",
        "note: four of a kind is not two pairs",
        "note: five of a kind is not two pairs",
        "note: five of a kind is not a full house, no joker here",
        "note: five of a kind is not a straight, no joker here",
    ],
)
def test_scandinavian_zero_notes_explain(dice, field, fragment):
    placement = placement_on_empty_sheet(dice, field)
    assert placement.points == 0
    assert placement.note
    assert fragment in placement.note


@pytest.mark.parametrize("dice", ["1-2-3-4-6", "6-1-2-3-4", "2-3-4-5-5", "3-4-5-6-6", "1-3-4-5-6"])
def test_scandinavian_four_in_a_row_in_the_small_straight_says_why_it_is_0(dice):
    # Four in a row is a small straight on the Polish table, not here (DECISIONS.md: "small_straight
    # exactly 1-2-3-4-5 = 15"): the player hears that, not the generic crossing-out note.
    placement = placement_on_empty_sheet(dice, "small_straight")
    assert placement.points == 0
    assert placement.note_code is Code.SMALL_STRAIGHT_EXACT
    assert placement.note is not None
    assert "dokładnie 1-2-3-4-5" in placement.note


def test_scandinavian_a_roll_with_no_four_in_a_row_is_crossed_out_plainly():
    placement = placement_on_empty_sheet("1-2-3-5-6", "small_straight")
    assert (placement.points, placement.note_code) == (0, Code.CROSSING_OUT)


SCANDINAVIAN_MAXIMA = {
    "pair": 12,
    "two_pairs": 22,
    "three_of_a_kind": 18,
    "four_of_a_kind": 24,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 28,
    "chance": 30,
    "five_of_a_kind": 50,
}


@pytest.mark.parametrize(
    ("field", "maximum"),
    SCANDINAVIAN_MAXIMA.items(),
    ids=[f"{field} scores at most {top}" for field, top in SCANDINAVIAN_MAXIMA.items()],
)
def test_scandinavian_field_maximum(field, maximum):
    assert SCANDINAVIAN.max_points[field] == maximum


@pytest.mark.parametrize(
    ("upper", "bonus"),
    [(63, 50), (62, 0)],
    ids=["scandinavian upper bonus: +50 at 63", "scandinavian upper bonus: none at 62"],
)
def test_scandinavian_upper_bonus_is_50(upper, bonus):
    cells = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    if upper == 62:
        cells["ones"] = 2
    (column,) = sheet_totals(SCANDINAVIAN_VARIANT, parse_sheet(SCANDINAVIAN_VARIANT, cells)).columns
    assert (column.upper, column.upper_bonus) == (upper, bonus)


@pytest.mark.parametrize(
    "cells",
    [
        {"five_of_a_kind": 50},
        {"five_of_a_kind": 50, "sixes": 30},
        {"five_of_a_kind": 0, "sixes": 30},
    ],
    ids=[
        "scandinavian: no extra bonus for a second General",
        "scandinavian: no joker, General 50 and Szostki filled",
        "scandinavian: no joker, General 0 and Szostki filled",
    ],
)
def test_scandinavian_no_extra_bonus_and_no_joker(cells):
    sheet = parse_sheet(SCANDINAVIAN_VARIANT, cells)
    evaluation = evaluate(SCANDINAVIAN_VARIANT, sheet, roll("6-6-6-6-6"))
    assert not evaluation.joker
    assert evaluation.extra_bonus == 0
    assert all(p.allowed and p.extra_bonus == 0 for p in evaluation.placements)
    assert evaluation.find("full_house").points == 0
    assert evaluation.find("ones").points == 0  # upper fields stay open: no joker rule
    assert any("nie dają premii i nie są jokerami" in note for note in evaluation.notes)


def test_scandinavian_sheet_refuses_an_extra_bonus():
    with pytest.raises(RulesError, match="nie ma premii"):
        parse_sheet(SCANDINAVIAN_VARIANT, {"five_of_a_kind": 50, "chance": 30, "extra_bonus": 100})


def test_scandinavian_maximum_374():
    sheet = sheet_after(
        SCANDINAVIAN_VARIANT,
        [
            ("1-1-1-1-1", "ones"),
            ("2-2-2-2-2", "twos"),
            ("3-3-3-3-3", "threes"),
            ("4-4-4-4-4", "fours"),
            ("5-5-5-5-5", "fives"),
            ("6-6-6-6-6", "sixes"),
            ("6-6-5-5-4", "pair"),
            ("6-6-5-5-4", "two_pairs"),
            ("6-6-6-5-4", "three_of_a_kind"),
            ("6-6-6-6-5", "four_of_a_kind"),
            ("1-2-3-4-5", "small_straight"),
            ("2-3-4-5-6", "large_straight"),
            ("6-6-6-5-5", "full_house"),
            ("6-6-6-6-6", "chance"),
            ("6-6-6-6-6", "five_of_a_kind"),
        ],
    )
    assert is_full(SCANDINAVIAN_VARIANT, sheet)
    assert sheet_totals(SCANDINAVIAN_VARIANT, sheet).total == 374


def test_two_pairs_is_on_the_scandinavian_table_only():
    with pytest.raises(RulesError, match="nie ma w tabeli"):
        parse_sheet(find_variant("standard"), {"two_pairs": 16})
