"""Sheets sent by clients, and the moves `play` refuses: every refusal says why, in Polish."""

import pytest

from tracker.rules import (
    MoveRefused,
    RulesError,
    empty_sheet,
    evaluate,
    find_variant,
    parse_sheet,
    play,
    replay,
    sheet_totals,
    upper_status,
)

from .builders import as_raw, filled_except, roll, sheet_after, turns_of

STANDARD_VARIANT = find_variant("standard")


@pytest.mark.parametrize(
    ("variant_id", "raw", "match"),
    [
        ("standard", {"sixes": 7}, "żaden rzut nie daje 7"),
        ("standard", {"sixes": 36}, "żaden rzut"),
        ("standard", {"ones": -1}, "żaden rzut"),
        ("standard", {"full_house": 20}, "żaden rzut nie daje 20"),
        ("standard", {"large_straight": 30}, "żaden rzut"),
        ("standard", {"chance": 4}, "żaden rzut"),
        ("standard", {"five_of_a_kind": 25}, "żaden rzut"),
        ("scandinavian", {"full_house": 25}, "żaden rzut"),
        ("scandinavian", {"small_straight": 30}, "żaden rzut"),
        ("standard", {"pair": 12}, "nie ma w tabeli"),
        ("standard", {"yahtzee": 50}, "nieznane pole"),
        ("standard", {"sixes": "18"}, "liczbą całkowitą"),
        ("standard", {"sixes": 18.0}, "liczbą całkowitą"),
        ("standard", {"sixes": True}, "liczbą całkowitą"),
        ("standard", {"sixes": None}, "liczbą całkowitą"),
        ("standard", [{}, {}], "1 kolumnę, podano 2"),
        ("standard", [], "podano 0"),
        ("triple", [{}, {}], "3 kolumny, podano 2"),
        ("triple", {"chance": 20}, "listę kolumn"),
        ("standard", "sixes=18", "listę kolumn"),
        ("standard", [["sixes", 18]], "obiekt"),
        ("ordered", {"ones": 1, "threes": 3}, "kolejności tabeli"),
        ("ordered", {"twos": 2}, "Jedynki"),
        ("standard", {"five_of_a_kind": 0, "chance": 30, "extra_bonus": 100}, "50 w polu Generał"),
        ("standard", {"chance": 30, "extra_bonus": 100}, "50 w polu Generał"),
        ("standard", {"five_of_a_kind": 50, "chance": 30, "extra_bonus": 150}, "wielokrotność"),
        ("standard", {"five_of_a_kind": 50, "chance": 30, "extra_bonus": -100}, "wielokrotność"),
        ("standard", {"five_of_a_kind": 50, "extra_bonus": 100}, "za dużo premii"),
        ("standard", {"five_of_a_kind": 50, "chance": 30, "extra_bonus": 200}, "za dużo premii"),
        ("standard", {"five_of_a_kind": 50, "chance": 30, "extra_bonus": True}, "całkowitą"),
        ("scandinavian", {"five_of_a_kind": 50, "chance": 30, "extra_bonus": 100}, "nie ma premii"),
    ],
    ids=[
        "Szostki 7: no roll scores 7 in Szostki",
        "Szostki 36: more than five 6s",
        "negative points",
        "full house 20 on the Polish table: it is 25 or 0",
        "large straight 30: it is 40 or 0",
        "Szansa 4: five dice add up to at least 5",
        "General 25: it is 50 or 0",
        "scandinavian full house is a sum, never 25",
        "scandinavian small straight is 15, never 30",
        "pair is a scandinavian field, not on the Polish table",
        "an unknown field",
        "points as text",
        "points as a float",
        "points as true",
        "points as null",
        "standard has one column, two given",
        "no column at all",
        "triple has three columns, two given",
        "a bare object is accepted only for a single-column variant",
        "a sheet is not a string",
        "a column is an object, not a list",
        "ordered: a gap before filled fields",
        "ordered: Jedynki must come first",
        "extra bonus without General 50 (General 0)",
        "extra bonus without General 50 (General free)",
        "extra bonus is a multiple of 100",
        "extra bonus is never negative",
        "extra bonus needs a turn after the General: none written yet",
        "too many extra bonuses for the fields filled",
        "extra bonus as true",
        "scandinavian has no extra bonus",
    ],
)
def test_parse_sheet_refuses_impossible_sheets(variant_id, raw, match):
    with pytest.raises(RulesError, match=match) as refused:
        parse_sheet(find_variant(variant_id), raw)
    assert str(refused.value).strip()


@pytest.mark.parametrize(
    ("variant_id", "raw", "total"),
    [
        ("standard", None, 0),
        ("standard", {}, 0),
        ("standard", [{}], 0),
        ("standard", {"sixes": 18, "full_house": 25}, 43),
        ("standard", {"full_house": 0, "ones": 0}, 0),
        ("standard", {"five_of_a_kind": 50, "chance": 30, "extra_bonus": 100}, 180),
        ("standard", {"five_of_a_kind": 50, "chance": 30, "extra_bonus": 0}, 80),
        ("standard", {**filled_except(five_of_a_kind=50), "extra_bonus": 1200}, 1250),
        ("ordered", {"ones": 3, "twos": 0}, 3),
        ("scandinavian", {"pair": 12, "two_pairs": 16, "full_house": 19}, 47),
        ("triple", [{"chance": 10}, {"chance": 10}, {"chance": 10}], 60),
        ("triple", None, 0),
    ],
    ids=[
        "null is an empty sheet",
        "an empty object is an empty single column",
        "a list with one empty column",
        "a bare object for a single-column variant",
        "crossed-out fields hold 0",
        "one extra bonus after a General of 50",
        "extra bonus 0 needs no General",
        "no cap: twelve extra bonuses on a full sheet",
        "ordered: fields filled in table order",
        "scandinavian fields",
        "triple: three columns, x1 x2 x3",
        "triple: null is three empty columns",
    ],
)
def test_parse_sheet_accepts_possible_sheets(variant_id, raw, total):
    variant = find_variant(variant_id)
    sheet = parse_sheet(variant, raw)
    assert len(sheet) == variant.columns
    assert sheet_totals(variant, sheet).total == total


def test_parse_sheet_round_trips_a_played_sheet():
    sheet = sheet_after(
        STANDARD_VARIANT,
        [("6-6-6-6-6", "five_of_a_kind"), ("6-6-6-6-6", "sixes"), ("1-1-1-1-1", "chance")],
    )
    assert parse_sheet(STANDARD_VARIANT, as_raw(sheet)) == sheet


# --- play and replay ------------------------------------------------------------------------------


def test_play_writes_the_points_and_returns_a_new_sheet():
    sheet = empty_sheet(STANDARD_VARIANT)
    after, placement = play(STANDARD_VARIANT, sheet, roll("4-4-4-2-6"), "fours")
    assert sheet[0].cells == {}  # sheets are values: play does not change its argument
    assert after[0].cells == {"fours": 12}
    assert (placement.field, placement.points, placement.gain) == ("fours", 12, 12)


def test_play_on_a_filled_field_is_refused():
    sheet = sheet_after(STANDARD_VARIANT, [("4-4-4-2-6", "fours")])
    with pytest.raises(MoveRefused, match="już wypełnione"):
        play(STANDARD_VARIANT, sheet, roll("4-4-4-4-6"), "fours")


def test_each_field_is_filled_only_once_in_replay():
    with pytest.raises(MoveRefused):
        replay(STANDARD_VARIANT, turns_of([("1-2-3-4-5", "chance"), ("6-6-6-6-6", "chance")]))


@pytest.mark.parametrize(
    ("variant_id", "column"),
    [("standard", 1), ("standard", -1), ("scandinavian", 1), ("ordered", 2), ("triple", 3)],
    ids=[
        "standard has only column 0",
        "a negative column",
        "scandinavian has only column 0",
        "ordered has only column 0",
        "triple has columns 0-2",
    ],
)
def test_play_in_a_column_out_of_range_is_refused(variant_id, column):
    variant = find_variant(variant_id)
    with pytest.raises(RulesError, match="nie istnieje"):
        play(variant, empty_sheet(variant), roll("1-2-3-4-5"), "chance", column)


@pytest.mark.parametrize(
    ("variant_id", "field"),
    [("standard", "pair"), ("standard", "yahtzee"), ("scandinavian", "bonus"), ("triple", "")],
    ids=[
        "pair is not on the Polish table",
        "an unknown field",
        "the bonus is not a field",
        "an empty field id",
    ],
)
def test_play_in_a_field_the_table_does_not_have(variant_id, field):
    variant = find_variant(variant_id)
    with pytest.raises(RulesError, match="nie ma w tabeli"):
        play(variant, empty_sheet(variant), roll("1-2-3-4-5"), field)


def test_evaluate_refuses_a_sheet_with_the_wrong_number_of_columns():
    with pytest.raises(RulesError, match="kolumn"):
        evaluate(find_variant("triple"), empty_sheet(STANDARD_VARIANT), roll("1-2-3-4-5"))


def test_every_refusal_gives_a_reason():
    variants_and_sheets = [
        (find_variant("ordered"), empty_sheet(find_variant("ordered"))),
        (STANDARD_VARIANT, parse_sheet(STANDARD_VARIANT, {"five_of_a_kind": 50, "sixes": 30})),
    ]
    for variant, sheet in variants_and_sheets:
        evaluation = evaluate(variant, sheet, roll("6-6-6-6-6"))
        assert evaluation.refused
        for placement in evaluation.refused:
            assert placement.reason
            assert placement.reason.strip()
            with pytest.raises(MoveRefused) as refused:
                play(variant, sheet, roll("6-6-6-6-6"), placement.field, placement.column)
            assert str(refused.value) == placement.reason


def test_replay_rebuilds_the_sheet_from_its_turns():
    turns = [("6-6-6-6-6", "five_of_a_kind"), ("6-6-6-6-6", "sixes"), ("2-2-3-3-3", "full_house")]
    sheet = replay(STANDARD_VARIANT, turns_of(turns))
    assert dict(sheet[0].cells) == {"five_of_a_kind": 50, "sixes": 30, "full_house": 25}
    assert sheet[0].extra_bonus == 100
    assert sheet_totals(STANDARD_VARIANT, sheet).total == 205


def test_replay_with_options_applies_the_lower_threshold():
    ordered = find_variant("ordered")
    turns = [
        ("1-1-1-1-1", "ones"),
        ("2-2-2-2-2", "twos"),
        ("3-3-3-3-3", "threes"),
        ("4-4-4-1-1", "fours"),
        ("1-1-1-1-1", "fives"),
        ("1-1-1-1-1", "sixes"),
    ]  # 5 + 10 + 15 + 12 + 0 + 0 = 42
    options = ordered.parse_options({"bonus_threshold": 42})
    sheet = replay(ordered, turns_of(turns), options)
    assert sheet_totals(ordered, sheet, options).total == 42 + 35
    assert sheet_totals(ordered, sheet).total == 42


# --- the upper-bonus status line, in every table variant ------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "threshold", "raw", "label"),
    [
        ("standard", 63, {"sixes": 12}, "6 pod normą, do premii brakuje 51"),
        (
            "standard",
            63,
            {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 12},
            "bez premii, zabrakło 6",
        ),
        ("ordered", 63, {"ones": 1, "twos": 4}, "4 pod normą, do premii brakuje 58"),
        (
            "ordered",
            63,
            {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18},
            "bez premii, zabrakło 1",
        ),
        ("ordered", 42, {"ones": 1, "twos": 2}, "3 pod normą, do premii brakuje 39"),
        (
            "ordered",
            42,
            {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 6},
            "bez premii, zabrakło 6",
        ),
        (
            "ordered",
            42,
            {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 12},
            "premia +35",
        ),
        ("scandinavian", 63, {"fours": 8}, "4 pod normą, do premii brakuje 55"),
        (
            "scandinavian",
            63,
            {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 0},
            "bez premii, zabrakło 18",
        ),
        ("scandinavian", 63, {"fives": 0, "sixes": 0}, "premia już nieosiągalna"),
        (
            "scandinavian",
            63,
            {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18},
            "premia +50",
        ),
    ],
)
def test_upper_status_says_a_missed_bonus_and_a_distance_under_par(
    variant_id, threshold, raw, label
):
    variant = find_variant(variant_id)
    options = variant.parse_options(
        {"bonus_threshold": threshold} if variant_id == "ordered" else {}
    )
    (column,) = parse_sheet(variant, raw)
    assert upper_status(variant, column, options).label == label


def test_upper_status_of_triple_is_each_columns_own():
    triple = find_variant("triple")
    full_short = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 12}
    sheet = parse_sheet(triple, [full_short, {"sixes": 12}, {"fives": 0, "sixes": 0}])
    assert [upper_status(triple, column).label for column in sheet] == [
        "bez premii, zabrakło 6",
        "6 pod normą, do premii brakuje 51",
        "premia już nieosiągalna",
    ]
