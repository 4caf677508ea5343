"""The Polish table (`standard`): what each roll scores, the upper bonus, totals and maxima."""

import pytest

from tracker.rules import (
    STANDARD,
    empty_sheet,
    evaluate,
    find_variant,
    is_full,
    parse_sheet,
    sheet_totals,
    upper_status,
)

from .builders import roll, sheet_after

STANDARD_VARIANT = find_variant("standard")


def score_on_empty_sheet(dice: str, field: str) -> int:
    placement = evaluate(STANDARD_VARIANT, empty_sheet(STANDARD_VARIANT), roll(dice)).find(field)
    assert placement is not None
    assert placement.allowed
    return placement.points


@pytest.mark.parametrize(
    ("dice", "field", "points"),
    [
        # Upper section: the sum of the dice showing the field's face.
        ("4-4-4-2-6", "fours", 12),
        ("4-4-4-2-6", "twos", 2),
        ("4-4-4-2-6", "sixes", 6),
        ("4-4-4-2-6", "ones", 0),
        ("1-1-1-1-1", "ones", 5),
        ("6-6-6-6-6", "sixes", 30),
        # Three / four of a kind: at least that many equal dice, the sum of all five.
        ("3-3-3-5-6", "three_of_a_kind", 20),
        ("3-3-3-5-6", "four_of_a_kind", 0),
        ("2-2-2-2-5", "three_of_a_kind", 13),
        ("2-2-2-2-5", "four_of_a_kind", 13),
        ("1-2-4-4-4", "three_of_a_kind", 15),
        ("6-6-6-6-6", "three_of_a_kind", 30),
        ("6-6-6-6-6", "four_of_a_kind", 30),
        ("1-2-3-4-6", "three_of_a_kind", 0),
        # Full house: exactly 3 + 2 of two different values, 25.
        ("2-2-3-3-3", "full_house", 25),
        ("1-5-5-1-5", "full_house", 25),
        ("6-6-6-1-1", "full_house", 25),
        ("2-2-3-3-4", "full_house", 0),
        ("2-2-2-2-3", "full_house", 0),
        ("6-6-6-6-6", "full_house", 0),
        # Small straight: four consecutive numbers, 30; large: 1-2-3-4-5 or 2-3-4-5-6, 40.
        ("1-2-3-4-6", "small_straight", 30),
        ("2-3-4-5-2", "small_straight", 30),
        ("3-4-5-6-6", "small_straight", 30),
        ("6-4-2-1-3", "small_straight", 30),
        ("1-2-3-5-6", "small_straight", 0),
        ("1-2-3-4-5", "small_straight", 30),
        ("1-2-3-4-5", "large_straight", 40),
        ("2-3-4-5-6", "small_straight", 30),
        ("2-3-4-5-6", "large_straight", 40),
        ("6-5-4-3-2", "large_straight", 40),
        ("1-2-3-4-6", "large_straight", 0),
        ("3-4-5-6-6", "large_straight", 0),
        ("6-6-6-6-6", "small_straight", 0),
        ("6-6-6-6-6", "large_straight", 0),
        # Generał: five equal dice, 50; Szansa: any roll, the sum.
        ("3-3-3-3-3", "five_of_a_kind", 50),
        ("3-3-3-3-4", "five_of_a_kind", 0),
        ("1-2-3-4-6", "chance", 16),
        ("6-6-6-6-6", "chance", 30),
        ("1-1-1-1-1", "chance", 5),
    ],
    ids=[
        "rulebook: 4-4-4-2-6 in Czworki scores 12",
        "rulebook: the same roll in Dwojki scores only 2",
        "upper field: one six counts 6",
        "upper field without its face scores 0",
        "upper field: five 1s in Jedynki score 5",
        "rulebook: five 6s score 30 in Szostki",
        "rulebook: 3-3-3-5-6 three of a kind scores 20, all five dice",
        "four of a kind needs four equal dice",
        "at least four equal dice: four of a kind counts as three of a kind",
        "four of a kind scores the sum of all five dice",
        "onlygames example: 1-2-4-4-4 three of a kind 15",
        "rulebook: five 6s score 30 in Trzy jednakowe",
        "rulebook: five 6s score 30 in Cztery jednakowe",
        "three of a kind needs three equal dice",
        "full house 3 + 2 scores 25",
        "full house in any order scores 25",
        "full house scores 25 whatever the faces",
        "two pairs are not a full house",
        "four of a kind is not a full house",
        "rulebook: five of a kind is not a full house unless joker",
        "small straight 1-2-3-4 scores 30",
        "small straight 2-3-4-5 scores 30",
        "small straight 3-4-5-6 scores 30",
        "onlygames example: 6-4-2-1-3 small straight",
        "no four consecutive numbers: no small straight",
        "rulebook: 1-2-3-4-5 fits the small straight",
        "rulebook: 1-2-3-4-5 fits the large straight",
        "rulebook: 2-3-4-5-6 fits the small straight",
        "large straight 2-3-4-5-6 scores 40",
        "large straight in any order",
        "a small straight is not a large straight",
        "a small straight with a double is not a large straight",
        "rulebook: five of a kind is not a small straight unless joker",
        "rulebook: five of a kind is not a large straight unless joker",
        "General: five equal dice score 50",
        "General needs all five equal",
        "Szansa: the sum of any roll",
        "rulebook: five 6s score 30 in Szansa",
        "Szansa: the smallest sum is 5",
    ],
)
def test_standard_scores(dice, field, points):
    assert score_on_empty_sheet(dice, field) == points


STANDARD_MAXIMA = {
    "ones": 5,
    "twos": 10,
    "threes": 15,
    "fours": 20,
    "fives": 25,
    "sixes": 30,
    "three_of_a_kind": 30,
    "four_of_a_kind": 30,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "five_of_a_kind": 50,
    "chance": 30,
}


@pytest.mark.parametrize(
    ("field", "maximum"),
    STANDARD_MAXIMA.items(),
    ids=[f"{field} scores at most {top}" for field, top in STANDARD_MAXIMA.items()],
)
def test_standard_field_maximum(field, maximum):
    assert STANDARD.max_points[field] == maximum


@pytest.mark.parametrize(
    "field",
    STANDARD.field_ids,
    ids=lambda field: f"crossing out: any free field takes any roll, {field} included",
)
def test_any_free_field_may_take_any_roll(field):
    evaluation = evaluate(STANDARD_VARIANT, empty_sheet(STANDARD_VARIANT), roll("1-2-4-5-5"))
    placement = evaluation.find(field)
    assert placement is not None
    assert placement.allowed
    assert placement.reason is None


def test_a_field_the_roll_does_not_fit_is_crossed_out_with_0_and_a_note():
    placement = evaluate(STANDARD_VARIANT, empty_sheet(STANDARD_VARIANT), roll("1-2-4-5-5")).find(
        "five_of_a_kind"
    )
    assert placement is not None
    assert placement.allowed
    assert placement.points == 0
    assert placement.note


def test_every_free_field_is_listed_and_filled_fields_are_not():
    sheet = sheet_after(STANDARD_VARIANT, [("1-2-3-4-6", "chance")])
    evaluation = evaluate(STANDARD_VARIANT, sheet, roll("1-2-3-4-6"))
    assert [p.field for p in evaluation.placements] == [
        fid for fid in STANDARD.field_ids if fid != "chance"
    ]


# --- upper bonus and totals -------------------------------------------------------------------

PAR_63 = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}


@pytest.mark.parametrize(
    ("cells", "upper", "bonus", "total"),
    [
        (PAR_63, 63, 35, 98),
        ({**PAR_63, "ones": 2}, 62, 0, 62),
        ({**PAR_63, "ones": 5}, 65, 35, 100),
        ({**PAR_63, "ones": 0, "sixes": 24}, 66, 35, 101),
        (
            {
                "ones": 5,
                "twos": 6,
                "threes": 9,
                "fours": 12,
                "fives": 15,
                "sixes": 18,
                "three_of_a_kind": 20,
                "four_of_a_kind": 0,
                "full_house": 25,
                "small_straight": 30,
                "large_straight": 40,
                "five_of_a_kind": 50,
                "chance": 15,
            },
            65,
            35,
            280,
        ),
    ],
    ids=[
        "upper bonus: 63 (three of each face) earns +35",
        "upper bonus: 62 earns nothing",
        "rulebook: upper 65 earns +35",
        "rulebook: a shortfall in one field is made up in another (four 6s)",
        "rulebook: upper 65 + 35 and lower 180 make 280",
    ],
)
def test_upper_bonus_and_total(cells, upper, bonus, total):
    sheet = parse_sheet(STANDARD_VARIANT, cells)
    totals = sheet_totals(STANDARD_VARIANT, sheet)
    (column,) = totals.columns
    assert (column.upper, column.upper_bonus) == (upper, bonus)
    assert column.total == totals.total == total


def test_rulebook_total_280_is_upper_bonus_and_lower():
    sheet = parse_sheet(
        STANDARD_VARIANT,
        {
            **PAR_63,
            "ones": 5,
            "three_of_a_kind": 20,
            "four_of_a_kind": 0,
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "five_of_a_kind": 50,
            "chance": 15,
        },
    )
    (column,) = sheet_totals(STANDARD_VARIANT, sheet).columns
    assert column.as_dict() == {
        "upper": 65,
        "upper_bonus": 35,
        "lower": 180,
        "extra_bonus": 0,
        "multiplier": 1,
        "total": 280,
    }


def test_gain_includes_the_upper_bonus_the_move_secures():
    sheet = parse_sheet(STANDARD_VARIANT, {k: v for k, v in PAR_63.items() if k != "sixes"})
    sixes = evaluate(STANDARD_VARIANT, sheet, roll("6-6-6-1-2")).find("sixes")
    assert sixes is not None
    assert (sixes.points, sixes.gain) == (18, 18 + 35)


@pytest.mark.parametrize(
    ("cells", "label", "missing", "par_delta"),
    [
        ({"sixes": 24}, "+6 ponad normę", 39, 6),
        # Under par is said as a distance, never "– -6" after the dash of the status line.
        ({"sixes": 12}, "6 pod normą, do premii brakuje 51", 51, -6),
        ({"threes": 9}, "do premii brakuje 54", 54, 0),
        (PAR_63, "premia +35", 0, 0),
        # All six upper fields filled short of 63: the bonus is missed, nothing is "still missing".
        ({**PAR_63, "ones": 2}, "bez premii, zabrakło 1", 1, -1),
        # Fives and sixes crossed out: four 1s … four 4s at most give 50, so 63 is out of reach.
        ({"fives": 0, "sixes": 0}, "premia już nieosiągalna", 63, -33),
    ],
    ids=[
        "rulebook: four 6s give 6 points more than needed",
        "two 6s: 6 under par, 51 still missing",
        "three of a face is par",
        "63 reached: the bonus is secured",
        "all six filled with 62: the bonus is missed",
        "the free fields cannot make up the rest: out of reach",
    ],
)
def test_upper_status_against_three_of_each(cells, label, missing, par_delta):
    status = upper_status(STANDARD_VARIANT, parse_sheet(STANDARD_VARIANT, cells)[0])
    assert (status.label, status.missing, status.par_delta) == (label, missing, par_delta)


# --- maxima -----------------------------------------------------------------------------------

# Five of a kind in every upper field while Generał is still free, so no extra bonus.
MAX_WITHOUT_EXTRA = [
    ("1-1-1-1-1", "ones"),
    ("2-2-2-2-2", "twos"),
    ("3-3-3-3-3", "threes"),
    ("4-4-4-4-4", "fours"),
    ("5-5-5-5-5", "fives"),
    ("6-6-6-6-6", "sixes"),
    ("6-6-6-6-6", "three_of_a_kind"),
    ("6-6-6-6-6", "four_of_a_kind"),
    ("6-6-6-6-6", "chance"),
    ("2-2-2-3-3", "full_house"),
    ("1-2-3-4-6", "small_straight"),
    ("1-2-3-4-5", "large_straight"),
    ("6-6-6-6-6", "five_of_a_kind"),
]

# 13 Generały: the first one in Generał, then each face in its upper field (ordinary rolls,
# +100 each), then five 6s are jokers: the sum in three/four of a kind and Szansa, 25/30/40.
MAX_WITH_13_GENERALS = [
    ("6-6-6-6-6", "five_of_a_kind"),
    ("1-1-1-1-1", "ones"),
    ("2-2-2-2-2", "twos"),
    ("3-3-3-3-3", "threes"),
    ("4-4-4-4-4", "fours"),
    ("5-5-5-5-5", "fives"),
    ("6-6-6-6-6", "sixes"),
    ("6-6-6-6-6", "three_of_a_kind"),
    ("6-6-6-6-6", "four_of_a_kind"),
    ("6-6-6-6-6", "chance"),
    ("6-6-6-6-6", "full_house"),
    ("6-6-6-6-6", "small_straight"),
    ("6-6-6-6-6", "large_straight"),
]


@pytest.mark.parametrize(
    ("turns", "total", "extra_bonus"),
    [(MAX_WITHOUT_EXTRA, 375, 0), (MAX_WITH_13_GENERALS, 1575, 1200)],
    ids=[
        "rulebook: maximum 375 without extra General bonuses",
        "rulebook: 1575 when all 13 turns are five of a kind",
    ],
)
def test_standard_maximum(turns, total, extra_bonus):
    sheet = sheet_after(STANDARD_VARIANT, turns)
    assert is_full(STANDARD_VARIANT, sheet)
    totals = sheet_totals(STANDARD_VARIANT, sheet)
    assert totals.total == total
    assert totals.columns[0].extra_bonus == extra_bonus
    assert totals.total - extra_bonus == 375
