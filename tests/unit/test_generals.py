"""Kolejne generały on the Polish table: the extra +100 bonus and the joker.

the settled rules: the extra bonus is earned by a five of a kind while the Generał field holds 50,
wherever it is written, also as 0, judged on the sheet as it stands; a five of a kind is a joker
only when Generał and the matching upper field are both filled, and a joker must go to a free
lower field while there is one.
"""

import pytest

from tracker.rules import (
    MoveRefused,
    Section,
    evaluate,
    extra_bonus_for,
    find_variant,
    is_joker,
    parse_sheet,
    play,
    sheet_totals,
)

from .builders import LOWER_STANDARD, filled_except, roll, sheet_after

STANDARD_VARIANT = find_variant("standard")
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


def sheet_of(**cells: int):
    return parse_sheet(STANDARD_VARIANT, cells)


# --- extra Generał bonus ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "points"),
    [
        ("sixes", 30),
        ("ones", 0),
        ("three_of_a_kind", 30),
        ("four_of_a_kind", 30),
        ("chance", 30),
        ("full_house", 0),
        ("small_straight", 0),
        ("large_straight", 0),
    ],
    ids=[
        "extra bonus: +100 written in the matching upper field",
        "extra bonus: +100 also when written as 0 (Jedynki crossed out)",
        "extra bonus: +100 in three of a kind",
        "extra bonus: +100 in four of a kind",
        "extra bonus: +100 in Szansa",
        "extra bonus: +100 also in full house written as 0 (not a joker)",
        "extra bonus: +100 also in small straight written as 0",
        "extra bonus: +100 also in large straight written as 0",
    ],
)
def test_extra_bonus_wherever_the_roll_is_written(field, points):
    sheet = sheet_of(five_of_a_kind=50)
    sheet, placement = play(STANDARD_VARIANT, sheet, roll("6-6-6-6-6"), field)
    assert (placement.points, placement.extra_bonus) == (points, 100)
    assert placement.gain == points + 100
    assert sheet[0].extra_bonus == 100
    assert sheet_totals(STANDARD_VARIANT, sheet).total == 50 + points + 100


@pytest.mark.parametrize(
    ("cells", "dice", "extra"),
    [
        ({"five_of_a_kind": 50}, "6-6-6-6-6", 100),
        ({"five_of_a_kind": 50}, "1-1-1-1-1", 100),
        ({"five_of_a_kind": 0}, "6-6-6-6-6", 0),
        ({}, "6-6-6-6-6", 0),
        ({"five_of_a_kind": 50}, "6-6-6-6-5", 0),
        ({"five_of_a_kind": 50, "sixes": 30}, "6-6-6-6-6", 100),
    ],
    ids=[
        "extra bonus: General holds 50, five 6s earn +100",
        "extra bonus: any face, five 1s earn +100",
        "extra bonus: none when General holds 0",
        "extra bonus: none for the first General (field still free)",
        "extra bonus: four of a kind is not a General",
        "extra bonus: a joker earns it too when General holds 50",
    ],
)
def test_extra_bonus_condition(cells, dice, extra):
    sheet = sheet_of(**cells)
    evaluation = evaluate(STANDARD_VARIANT, sheet, roll(dice))
    assert extra_bonus_for(STANDARD_VARIANT, sheet, roll(dice)) == extra
    assert evaluation.extra_bonus == extra
    assert {p.extra_bonus for p in evaluation.moves} == {extra}


def test_extra_bonus_none_when_general_is_0_and_the_note_says_why():
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(five_of_a_kind=0), roll("6-6-6-6-6"))
    assert evaluation.extra_bonus == 0
    assert any("Bez premii" in note and "0" in note for note in evaluation.notes)


def test_extra_bonus_note_when_earned():
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(five_of_a_kind=50), roll("2-2-2-2-2"))
    assert any(note.startswith("+100") for note in evaluation.notes)


def test_extra_bonus_test_is_the_sheet_state_not_history():
    # The first Generał went to Szansa, the second one to Generał for 50: the rulebook's
    # "jeśli pierwszego generała wpisano w pole Generał" is read as the state of the sheet, so the
    # third one earns +100 although the first Generał was not written in Generał.
    sheet = sheet_after(
        STANDARD_VARIANT,
        [("3-3-3-3-3", "chance"), ("4-4-4-4-4", "five_of_a_kind")],
    )
    assert sheet[0].extra_bonus == 0  # neither earlier move earned a bonus: Generał was free
    _, placement = play(STANDARD_VARIANT, sheet, roll("5-5-5-5-5"), "fives")
    assert placement.extra_bonus == 100


def test_extra_bonus_from_a_sheet_given_on_paper_without_history():
    sheet = parse_sheet(STANDARD_VARIANT, [{"five_of_a_kind": 50}])
    assert evaluate(STANDARD_VARIANT, sheet, roll("1-1-1-1-1")).extra_bonus == 100


def test_extra_bonus_has_no_cap():
    turns = [("6-6-6-6-6", "five_of_a_kind")] + [
        ("6-6-6-6-6", field) for field in (*UPPER, *LOWER_STANDARD) if field != "five_of_a_kind"
    ]
    sheet = sheet_after(STANDARD_VARIANT, turns)
    assert sheet[0].extra_bonus == 12 * 100


def test_extra_bonus_not_earned_by_a_refused_placement():
    sheet = sheet_of(five_of_a_kind=50, sixes=30)
    evaluation = evaluate(STANDARD_VARIANT, sheet, roll("6-6-6-6-6"))
    refused = [p for p in evaluation.placements if not p.allowed]
    assert refused
    assert all(p.extra_bonus == 0 for p in refused)


# --- joker --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cells", "dice", "joker"),
    [
        ({"five_of_a_kind": 50, "sixes": 30}, "6-6-6-6-6", True),
        ({"five_of_a_kind": 0, "sixes": 18}, "6-6-6-6-6", True),
        ({"five_of_a_kind": 50, "sixes": 0}, "6-6-6-6-6", True),
        ({"five_of_a_kind": 50}, "6-6-6-6-6", False),
        ({"sixes": 30}, "6-6-6-6-6", False),
        ({"five_of_a_kind": 50, "fives": 25}, "6-6-6-6-6", False),
        ({"five_of_a_kind": 50, "sixes": 30}, "6-6-6-6-5", False),
    ],
    ids=[
        "joker: General 50 and Szostki filled",
        "joker: General 0 counts as filled",
        "joker: the upper field crossed out with 0 counts as filled",
        "not a joker: the matching upper field is free",
        "not a joker: General is free",
        "not a joker: another upper field is filled, not the matching one",
        "not a joker: not five of a kind",
    ],
)
def test_joker_condition(cells, dice, joker):
    sheet = sheet_of(**cells)
    assert is_joker(STANDARD_VARIANT, sheet, roll(dice)) is joker
    assert evaluate(STANDARD_VARIANT, sheet, roll(dice)).joker is joker


@pytest.mark.parametrize(
    ("field", "points"),
    [
        ("full_house", 25),
        ("small_straight", 30),
        ("large_straight", 40),
        ("three_of_a_kind", 30),
        ("four_of_a_kind", 30),
        ("chance", 30),
    ],
    ids=[
        "joker scores 25 in full house",
        "joker scores 30 in small straight",
        "joker scores 40 in large straight",
        "joker scores the sum in three of a kind",
        "joker scores the sum in four of a kind",
        "joker scores the sum in Szansa",
    ],
)
@pytest.mark.parametrize(
    ("general", "extra"),
    [(50, 100), (0, 0)],
    ids=["General 50 (+100)", "General 0 (no bonus)"],
)
def test_joker_scores(field, points, general, extra):
    sheet = sheet_of(five_of_a_kind=general, sixes=30)
    placement = evaluate(STANDARD_VARIANT, sheet, roll("6-6-6-6-6")).find(field)
    assert placement is not None
    assert placement.allowed
    assert (placement.points, placement.extra_bonus) == (points, extra)
    assert placement.note  # "Joker: ..." explains the unusual score


def test_joker_sum_is_the_sum_of_the_dice():
    sheet = sheet_of(five_of_a_kind=0, twos=10)
    evaluation = evaluate(STANDARD_VARIANT, sheet, roll("2-2-2-2-2"))
    points = {p.field: p.points for p in evaluation.moves}
    assert points == {
        "three_of_a_kind": 10,
        "four_of_a_kind": 10,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 10,
    }


@pytest.mark.parametrize(
    "field",
    ["ones", "twos", "threes", "fours", "fives"],
    ids=lambda field: f"joker may not go to {field} while a lower field is free",
)
def test_joker_must_go_lower_while_a_lower_field_is_free(field):
    sheet = sheet_of(five_of_a_kind=50, sixes=30)
    placement = evaluate(STANDARD_VARIANT, sheet, roll("6-6-6-6-6")).find(field)
    assert placement is not None
    assert not placement.allowed
    assert placement.reason
    assert "dolnej" in placement.reason  # names the lower section it must go to
    with pytest.raises(MoveRefused, match="dolnej"):
        play(STANDARD_VARIANT, sheet, roll("6-6-6-6-6"), field)


def test_joker_must_go_lower_even_when_only_one_lower_field_is_free():
    sheet = parse_sheet(STANDARD_VARIANT, filled_except("ones", "twos", "chance", sixes=30))
    evaluation = evaluate(STANDARD_VARIANT, sheet, roll("6-6-6-6-6"))
    assert evaluation.joker
    assert [p.field for p in evaluation.moves] == ["chance"]


def test_joker_goes_upper_as_0_only_when_the_lower_section_is_full():
    sheet = parse_sheet(
        STANDARD_VARIANT, filled_except("ones", "fives", sixes=30, five_of_a_kind=50)
    )
    evaluation = evaluate(STANDARD_VARIANT, sheet, roll("6-6-6-6-6"))
    assert evaluation.joker
    moves = {p.field: (p.points, p.extra_bonus) for p in evaluation.moves}
    assert moves == {"ones": (0, 100), "fives": (0, 100)}
    assert all(p.note for p in evaluation.moves)  # "Dolna część jest pełna: ... za 0."


def test_lower_section_full_but_matching_upper_free_is_no_joker():
    # Five 5s with Piątki free is not a joker: it scores 25 in Piątki as an ordinary roll.
    sheet = parse_sheet(STANDARD_VARIANT, filled_except("fives", five_of_a_kind=50))
    placement = evaluate(STANDARD_VARIANT, sheet, roll("5-5-5-5-5")).find("fives")
    assert placement is not None
    assert (placement.allowed, placement.points, placement.extra_bonus) == (True, 25, 100)


def test_joker_note_on_the_roll():
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(five_of_a_kind=0, sixes=24), roll("6-6-6-6-6"))
    assert any(note.startswith("Joker") for note in evaluation.notes)


# --- a five of a kind that is not a joker is an ordinary roll ----------------------------------


@pytest.mark.parametrize(
    ("field", "points"),
    [
        ("full_house", 0),
        ("small_straight", 0),
        ("large_straight", 0),
        ("sixes", 30),
        ("ones", 0),
        ("three_of_a_kind", 30),
        ("chance", 30),
    ],
    ids=[
        "ordinary five of a kind: full house 0",
        "ordinary five of a kind: small straight 0",
        "ordinary five of a kind: large straight 0",
        "ordinary five of a kind: its upper field 30",
        "ordinary five of a kind: any upper field, crossed out 0",
        "ordinary five of a kind: three of a kind, the sum",
        "ordinary five of a kind: Szansa, the sum",
    ],
)
@pytest.mark.parametrize(
    "cells",
    [{"five_of_a_kind": 50}, {"five_of_a_kind": 0}],
    ids=["General 50, Szostki free", "General 0, Szostki free"],
)
def test_five_of_a_kind_not_a_joker_is_an_ordinary_roll(cells, field, points):
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(**cells), roll("6-6-6-6-6"))
    assert not evaluation.joker
    placement = evaluation.find(field)
    assert placement is not None
    assert placement.allowed  # any free field, upper included
    assert placement.points == points


@pytest.mark.parametrize(
    "field",
    ["full_house", "small_straight", "large_straight"],
    ids=lambda field: f"five 6s in {field}: the note says why it is 0 (not a joker yet)",
)
def test_five_of_a_kind_not_a_joker_note_explains_the_0(field):
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(five_of_a_kind=50), roll("6-6-6-6-6"))
    placement = evaluation.find(field)
    assert placement is not None
    assert placement.note
    assert "Pięć jednakowych to nie" in placement.note
    assert "Jokerem byłby dopiero" in placement.note
    assert "Szóstki" in placement.note  # the upper field still free


def test_first_general_as_a_full_house_is_0_with_a_note():
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(), roll("6-6-6-6-6"))
    placement = evaluation.find("full_house")
    assert placement is not None
    assert placement.points == 0
    assert placement.note
    assert "Generał" in placement.note


def test_roll_note_when_general_filled_but_the_upper_field_free():
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(five_of_a_kind=50), roll("6-6-6-6-6"))
    assert any("To nie joker" in note and "Szóstki" in note for note in evaluation.notes)


def test_first_general_scores_50_in_general_without_bonus():
    evaluation = evaluate(STANDARD_VARIANT, sheet_of(), roll("4-4-4-4-4"))
    placement = evaluation.find("five_of_a_kind")
    assert placement is not None
    assert (placement.points, placement.extra_bonus, placement.gain) == (50, 0, 50)


def test_joker_placements_are_in_the_lower_section():
    evaluation = evaluate(
        STANDARD_VARIANT, sheet_of(five_of_a_kind=50, sixes=30), roll("6-6-6-6-6")
    )
    assert {p.section for p in evaluation.moves} == {Section.LOWER}
