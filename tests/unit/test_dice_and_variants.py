"""Reading dice and choosing a variant: what the rules accept before any scoring happens."""

import pytest

from tracker.rules import (
    POKER,
    POKER_VARIANT,
    SCANDINAVIAN,
    STANDARD,
    TABLE_VARIANTS,
    VARIANT_NAMES,
    Code,
    Options,
    RulesError,
    find_table_variant,
    find_variant,
    format_dice,
    is_five_of_a_kind,
    parse_dice,
    parse_poker_options,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ([4, 4, 4, 2, 6], (4, 4, 4, 2, 6)),
        ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5)),
        ("44426", (4, 4, 4, 2, 6)),
        ("4-4-4-2-6", (4, 4, 4, 2, 6)),
        ("4, 4, 4, 2, 6", (4, 4, 4, 2, 6)),
        ("6 6 6 6 6", (6, 6, 6, 6, 6)),
    ],
    ids=[
        "five dice as a list, order kept",
        "five dice as a tuple",
        "a string of five digits",
        "five digits written as players read them, with dashes",
        "five digits with commas and spaces",
        "five digits with spaces",
    ],
)
def test_parse_dice_accepts_five_dice_from_1_to_6(raw, expected):
    assert parse_dice(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        [1, 2, 3, 4],
        [1, 2, 3, 4, 5, 6],
        [],
        [0, 2, 3, 4, 5],
        [1, 2, 3, 4, 7],
        [1, 2, 2.5, 4, 5],
        ["3", 1, 2, 3, 4],
        [True, 1, 2, 3, 4],
        [None, 1, 2, 3, 4],
        "3",
        "1234",
        "123456",
        "12307",
        "12a45",
        "",
        "¹²³⁴⁵",
        None,
        12345,
        {"dice": [1, 2, 3, 4, 5]},
    ],
    ids=[
        "four dice: the game needs exactly five",
        "six dice: the game needs exactly five",
        "no dice",
        "a die never shows 0",
        "a die never shows 7",
        "a die shows whole numbers, not 2.5",
        "a die given as the text '3' inside a list",
        "a die is never True",
        "a die is never null",
        "the string '3' is one die, not five",
        "four digits",
        "six digits",
        "a 0 among five digits",
        "a letter among the digits",
        "an empty string",
        "superscript digits are not dice (RulesError, not a bare ValueError)",
        "null",
        "a number is not a list of dice",
        "an object is not a list of dice",
    ],
)
def test_parse_dice_refuses_anything_but_five_whole_numbers_from_1_to_6(raw):
    with pytest.raises(RulesError) as refused:
        parse_dice(raw)
    assert type(refused.value) is RulesError
    assert str(refused.value).strip()


@pytest.mark.parametrize(
    ("dice", "five"),
    [((6, 6, 6, 6, 6), True), ((1, 1, 1, 1, 1), True), ((6, 6, 6, 6, 5), False)],
    ids=["five 6s is a General", "five 1s is a General", "four of a kind is not"],
)
def test_five_of_a_kind_is_five_equal_dice(dice, five):
    assert is_five_of_a_kind(dice) is five


def test_dice_are_shown_as_players_read_them():
    assert format_dice((4, 4, 4, 2, 6)) == "4-4-4-2-6"


# --- variants ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "name", "table", "multipliers", "turns"),
    [
        ("standard", "Kości (tabela polska)", STANDARD, (1,), 13),
        ("ordered", "Gra po kolei", STANDARD, (1,), 13),
        ("scandinavian", "Tabela skandynawska", SCANDINAVIAN, (1,), 15),
        ("triple", "Kości potrójne", STANDARD, (1, 2, 3), 39),
    ],
    ids=[
        "standard: Polish table, 13 fields, 13 turns",
        "ordered: Gra po kolei, the standard table, 13 turns",
        "scandinavian: 15 fields, 15 turns",
        "triple: three standard columns x1 x2 x3, 39 turns",
    ],
)
def test_table_variants_as_decided(variant_id, name, table, multipliers, turns):
    variant = find_variant(variant_id)
    assert variant.id == variant_id
    assert variant.name == name == VARIANT_NAMES[variant_id]
    assert variant.table is table
    assert variant.multipliers == multipliers
    assert variant.columns == len(multipliers)
    assert variant.turns == turns


def test_every_variant_id_is_known_poker_included():
    assert set(VARIANT_NAMES) == {*TABLE_VARIANTS, POKER}
    assert set(TABLE_VARIANTS) == {"standard", "ordered", "scandinavian", "triple"}
    assert VARIANT_NAMES[POKER] == "Poker kościany bez tabeli"


@pytest.mark.parametrize(
    "variant_id",
    ["poker", "yahtzee", "Standard", "", None, 1, ["standard"]],
    ids=[
        "poker has no table",
        "an unknown variant",
        "ids are lower case",
        "an empty id",
        "null",
        "a number",
        "a list",
    ],
)
def test_find_table_variant_refuses_what_is_not_a_table_variant(variant_id):
    with pytest.raises(RulesError) as refused:
        find_table_variant(variant_id)
    assert str(refused.value).strip()


def test_find_table_variant_says_poker_has_no_table():
    with pytest.raises(RulesError, match="nie ma tabeli") as refused:
        find_table_variant("poker")
    assert refused.value.code is Code.NO_TABLE_IN_POKER


def test_find_variant_finds_poker_too():
    assert find_variant("poker") is POKER_VARIANT


def test_find_variant_error_is_a_value_error():
    with pytest.raises(ValueError, match="Nieznany wariant"):
        find_variant("yahtzee")


@pytest.mark.parametrize(
    ("field_ids", "expected"),
    [
        (
            STANDARD.field_ids,
            (
                "ones",
                "twos",
                "threes",
                "fours",
                "fives",
                "sixes",
                "three_of_a_kind",
                "four_of_a_kind",
                "full_house",
                "small_straight",
                "large_straight",
                "five_of_a_kind",
                "chance",
            ),
        ),
        (
            SCANDINAVIAN.field_ids,
            (
                "ones",
                "twos",
                "threes",
                "fours",
                "fives",
                "sixes",
                "pair",
                "two_pairs",
                "three_of_a_kind",
                "four_of_a_kind",
                "small_straight",
                "large_straight",
                "full_house",
                "chance",
                "five_of_a_kind",
            ),
        ),
    ],
    ids=["standard table order", "scandinavian table order"],
)
def test_table_order_as_decided(field_ids, expected):
    assert field_ids == expected


@pytest.mark.parametrize(
    ("table", "upper", "lower"),
    [
        (STANDARD, 6, 7),
        (SCANDINAVIAN, 6, 9),
    ],
    ids=["standard: 6 upper + 7 lower fields", "scandinavian: 6 upper + 9 lower fields"],
)
def test_sections(table, upper, lower):
    assert len(table.upper_fields) == upper
    assert len(table.lower_fields) == lower
    assert table.fields[:upper] == table.upper_fields


# --- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "raw", "threshold"),
    [
        ("ordered", None, 63),
        ("ordered", {}, 63),
        ("ordered", {"bonus_threshold": 63}, 63),
        ("ordered", {"bonus_threshold": 42}, 42),
        ("standard", {"bonus_threshold": 42}, 63),
        ("scandinavian", {"bonus_threshold": 42}, 63),
        ("triple", {"bonus_threshold": 42}, 63),
        ("standard", None, 63),
    ],
    ids=[
        "ordered: threshold 63 by default",
        "ordered: empty options keep 63",
        "ordered: 63 may be asked for",
        "ordered: players may lower the threshold to 42",
        "standard: 42 is not offered, 63 is reported in force",
        "scandinavian: 42 is not offered, 63 is reported in force",
        "triple: 42 is not offered, 63 is reported in force",
        "standard: threshold 63 by default",
    ],
)
def test_bonus_threshold_option(variant_id, raw, threshold):
    options = find_variant(variant_id).parse_options(raw)
    assert options == Options(bonus_threshold=threshold)
    assert options.as_dict() == {"bonus_threshold": threshold}


@pytest.mark.parametrize(
    "raw",
    [
        {"bonus_threshold": 50},
        {"bonus_threshold": 0},
        {"bonus_threshold": "42"},
        {"bonus_threshold": 42.0},
        {"bonus_threshold": True},
        {"bonus_threshold": None},
        {"threshold": 42},
        [("bonus_threshold", 42)],
        "42",
    ],
    ids=[
        "ordered: a threshold other than 63 or 42 is rejected",
        "ordered: threshold 0 is rejected",
        "ordered: the text '42' is rejected",
        "ordered: 42.0 is not a whole number of points",
        "ordered: true is not a threshold",
        "ordered: null is not a threshold",
        "ordered: an unknown option is rejected",
        "options are an object, not a list",
        "options are an object, not a string",
    ],
)
def test_bonus_threshold_option_refused(raw):
    with pytest.raises(RulesError) as refused:
        find_variant("ordered").parse_options(raw)
    assert str(refused.value).strip()


def test_bonus_threshold_other_than_63_or_42_rejected_on_every_variant():
    for variant in TABLE_VARIANTS.values():
        with pytest.raises(RulesError, match="63 albo 42"):
            variant.parse_options({"bonus_threshold": 50})


@pytest.mark.parametrize(
    ("raw", "target"),
    [(None, 3), ({}, 3), ({"target_wins": 1}, 1), ({"target_wins": 5}, 5), ({"target_wins": 9}, 9)],
    ids=[
        "poker: 3 round wins take the match by default",
        "poker: empty options keep 3",
        "poker: players may agree on 1",
        "poker: players may agree on 5",
        "poker: players may agree on 9",
    ],
)
def test_poker_target_wins(raw, target):
    assert parse_poker_options(raw).as_dict() == {"target_wins": target}


@pytest.mark.parametrize(
    "raw",
    [
        {"target_wins": 0},
        {"target_wins": 10},
        {"target_wins": -1},
        {"target_wins": "3"},
        {"target_wins": 3.0},
        {"target_wins": True},
        {"wins": 3},
        [3],
    ],
    ids=[
        "poker: at least one round win",
        "poker: at most nine round wins",
        "poker: negative round wins",
        "poker: the text '3'",
        "poker: 3.0 is not a whole number",
        "poker: true is not a number of wins",
        "poker: an unknown option",
        "poker: options are an object",
    ],
)
def test_poker_target_wins_refused(raw):
    with pytest.raises(RulesError) as refused:
        parse_poker_options(raw)
    assert str(refused.value).strip()
