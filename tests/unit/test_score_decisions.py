"""What /api/v1/score and /api/v1/poker/rank answer, asked of the rules directly: the refusals of
bad dice, variants, sheets and options, the settled rules' decisions about a roll, the totals
of a sheet as sent, and the ranking of poker hands. tests/integration/test_api_rules.py keeps
what only HTTP shows (status codes, the shape of the JSON, the keys of a request body)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tracker.rules import (
    Evaluation,
    Options,
    Placement,
    RulesError,
    SheetTotals,
    evaluate,
    find_variant,
    parse_dice,
    parse_sheet,
    rank,
    sheet_totals,
)

SIXES = [6, 6, 6, 6, 6]
DICE = [1, 2, 3, 4, 5]
UPPER_63 = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
UPPER_62 = {**UPPER_63, "ones": 2}
UPPER_42 = {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 12}
LOWER_ZEROS = {
    "three_of_a_kind": 0,
    "four_of_a_kind": 0,
    "full_house": 0,
    "small_straight": 0,
    "large_straight": 0,
    "chance": 0,
}


@dataclass(frozen=True)
class Score:
    """What /score computes for a request: the options in force, the roll, the totals."""

    options: Options
    evaluation: Evaluation
    totals: SheetTotals

    @property
    def moves(self) -> tuple[Placement, ...]:
        return self.evaluation.moves

    def moves_by_field(self, column: int = 0) -> dict[str, Placement]:
        return {m.field: m for m in self.evaluation.moves if m.column == column}

    def refused_by_field(self, column: int = 0) -> dict[str, Placement]:
        return {r.field: r for r in self.evaluation.refused if r.column == column}


def score(variant_id: str, dice: list[int], sheet: Any = None, options: Any = None) -> Score:
    """The rules' calls behind POST /api/v1/score, in the same order."""
    variant = find_variant(variant_id)
    parsed_dice = parse_dice(dice)
    parsed_options = variant.parse_options(options)
    parsed_sheet = parse_sheet(variant, sheet)
    return Score(
        parsed_options,
        evaluate(variant, parsed_sheet, parsed_dice, parsed_options),
        sheet_totals(variant, parsed_sheet, parsed_options),
    )


def assert_refused(call: Any, *args: Any) -> str:
    with pytest.raises(RulesError) as refused:
        call(*args)
    message = str(refused.value)
    assert message.strip()
    return message


# --- refusals: dice, variants, sheets, options --------------------------------------------


@pytest.mark.parametrize(
    "dice",
    [
        pytest.param([1, 2, 3, 4], id="four dice"),
        pytest.param([1, 2, 3, 4, 5, 6], id="six dice"),
        pytest.param([], id="no dice"),
        pytest.param([0, 2, 3, 4, 5], id="a die showing 0"),
        pytest.param([1, 2, 3, 4, 7], id="a die showing 7"),
        pytest.param([1, 2, 3, 4, 4.5], id="a die 4.5"),
        pytest.param([1, 2, 3, 4, 5.0], id="a die 5.0"),
        pytest.param([1, 2, 3, 4, "5"], id="a die as text"),
        pytest.param([True, 2, 3, 4, 5], id="a die true"),
        pytest.param([None, 2, 3, 4, 5], id="a die null"),
        pytest.param([1, 2, 3, 4, 5.5], id="a die 5.5"),
    ],
)
def test_bad_dice_are_refused_with_a_message(dice: list[Any]):
    assert_refused(parse_dice, dice)


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ("1237", "Potrzeba dokładnie pięciu kości, podano 4."),
        ("12375", "Kość ma oczka od 1 do 6, a nie 7."),
        ("abcde", "Podaj pięć kości: cyfry od 1 do 6."),
        ("²²²²²", "Podaj pięć kości: cyfry od 1 do 6."),
    ],
    ids=["four_dice", "a_seven", "letters", "superscripts"],
)
def test_bad_dice_typed_in_a_form_say_what_is_wrong(dice: str, message: str):
    assert assert_refused(parse_dice, dice) == message


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param("yahtzee", id="unknown variant"),
        pytest.param(1, id="variant not a string"),
        pytest.param(["standard"], id="variant a list"),
    ],
)
def test_unknown_variants_are_refused_with_a_message(variant: Any):
    assert_refused(find_variant, variant)


@pytest.mark.parametrize(
    ("variant", "sheet"),
    [
        pytest.param("standard", {"bogus": 3}, id="unknown field"),
        pytest.param("standard", {"sixes": 7}, id="sixes 7: no roll scores it"),
        pytest.param("standard", {"full_house": 20}, id="full house 20 on the standard table"),
        pytest.param("standard", {"chance": 31}, id="chance 31: more than five sixes"),
        pytest.param(
            "scandinavian",
            {"small_straight": 30},
            id="small straight 30 on the scandinavian table",
        ),
        pytest.param(
            "standard",
            {"pair": 12},
            id="pair: a field of the scandinavian table on the standard one",
        ),
        pytest.param("standard", {"sixes": "24"}, id="points as text"),
        pytest.param("standard", {"ones": True}, id="points true"),
        pytest.param("standard", {"sixes": 24.0}, id="points 24.0"),
        pytest.param("standard", {"sixes": -6}, id="negative points"),
        pytest.param("triple", [{}], id="one column for triple, which has three"),
        pytest.param("triple", {"sixes": 24}, id="a bare object for triple"),
        pytest.param("standard", [{}, {}], id="two columns for standard, which has one"),
        pytest.param("standard", [], id="no columns"),
        pytest.param("standard", "ones", id="sheet as text"),
        pytest.param("triple", [{}, [], {}], id="a column not an object"),
        pytest.param("ordered", {"ones": 3, "threes": 9}, id="ordered sheet with a gap"),
        pytest.param(
            "standard", {"five_of_a_kind": 0, "extra_bonus": 100}, id="extra bonus with Generał 0"
        ),
        pytest.param(
            "standard", {"ones": 5, "extra_bonus": 100}, id="extra bonus with Generał free"
        ),
        pytest.param(
            "standard",
            {"five_of_a_kind": 50, "ones": 5, "extra_bonus": 50},
            id="extra bonus not a multiple of 100",
        ),
        pytest.param(
            "standard",
            {"five_of_a_kind": 50, "ones": 5, "extra_bonus": -100},
            id="negative extra bonus",
        ),
        pytest.param(
            "standard",
            {"five_of_a_kind": 50, "ones": 5, "extra_bonus": 300},
            id="three extra bonuses with one other field filled",
        ),
        pytest.param(
            "standard",
            {"five_of_a_kind": 50, "ones": 5, "extra_bonus": "100"},
            id="extra bonus as text",
        ),
        pytest.param(
            "scandinavian",
            {"five_of_a_kind": 50, "ones": 5, "extra_bonus": 100},
            id="extra bonus on the scandinavian table",
        ),
        pytest.param(
            "triple",
            [{"five_of_a_kind": 50, "ones": 5, "extra_bonus": 100}, {}, {}],
            id="triple extra bonus before all three Generał are 50",
        ),
    ],
)
def test_bad_sheets_are_refused_with_a_message(variant: str, sheet: Any):
    assert_refused(parse_sheet, find_variant(variant), sheet)


def test_a_wrong_field_value_names_the_field():
    message = assert_refused(parse_sheet, find_variant("standard"), {"sixes": 7})

    assert "Szóstki" in message


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        pytest.param("ordered", {"bonus_threshold": 50}, id="bonus threshold 50"),
        pytest.param("ordered", {"bonus_threshold": "42"}, id="bonus threshold as text"),
        pytest.param("ordered", {"bonus_threshold": 42.0}, id="bonus threshold 42.0"),
        pytest.param("ordered", {"bonus_threshold": True}, id="bonus threshold true"),
        pytest.param("standard", {"target_wins": 3}, id="unknown option key"),
        pytest.param("standard", [42], id="options a list"),
        pytest.param("standard", "42", id="options as text"),
    ],
)
def test_bad_options_are_refused_with_a_message(variant: str, options: Any):
    assert_refused(find_variant(variant).parse_options, options)


# --- a roll on a sheet: the settled rules' decisions ---------------------------------------


def test_empty_sheet_may_be_left_out():
    data = score("standard", [4, 4, 4, 2, 6])

    moves = data.moves_by_field()
    assert len(moves) == 13
    assert moves["fours"].points == 12
    assert moves["twos"].points == 2
    assert moves["three_of_a_kind"].points == 20
    assert [t.as_dict() for t in data.totals.columns] == [
        {"upper": 0, "upper_bonus": 0, "lower": 0, "extra_bonus": 0, "multiplier": 1, "total": 0}
    ]
    assert data.totals.total == 0
    assert data.evaluation.notes == ()


def test_a_single_column_sheet_may_be_a_list_of_one():
    standard = find_variant("standard")

    assert parse_sheet(standard, {"ones": 3}) == parse_sheet(standard, [{"ones": 3}])
    assert "ones" not in score("standard", DICE, [{"ones": 3}]).moves_by_field()


def test_joker_scores_straights_and_full_house_and_earns_the_extra_bonus():
    data = score("standard", SIXES, {"five_of_a_kind": 50, "sixes": 30})

    assert data.evaluation.joker is True
    assert data.evaluation.extra_bonus == 100
    moves = data.moves_by_field()
    assert {f: (m.points, m.extra_bonus) for f, m in moves.items()} == {
        "three_of_a_kind": (30, 100),
        "four_of_a_kind": (30, 100),
        "full_house": (25, 100),
        "small_straight": (30, 100),
        "large_straight": (40, 100),
        "chance": (30, 100),
    }
    assert moves["full_house"].gain == 125
    refused = data.refused_by_field()
    assert set(refused) == {"ones", "twos", "threes", "fours", "fives"}
    assert all(r.reason for r in refused.values())
    assert any("Joker" in note for note in data.evaluation.notes)


@pytest.mark.parametrize(
    ("sheet", "joker", "extra_bonus", "full_house"),
    [
        pytest.param(
            {"five_of_a_kind": 0, "sixes": 30}, True, 0, 25, id="joker with Generał 0: no bonus"
        ),
        pytest.param(
            {"five_of_a_kind": 50}, False, 100, 0, id="Szóstki free: not a joker, still +100"
        ),
        pytest.param({"sixes": 30}, False, 0, 0, id="Generał free: not a joker, no bonus"),
        pytest.param({}, False, 0, 0, id="empty sheet: an ordinary roll"),
    ],
)
def test_joker_needs_generał_and_the_matching_upper_field_filled(
    sheet: dict[str, int], joker: bool, extra_bonus: int, full_house: int
):
    data = score("standard", SIXES, sheet)

    assert data.evaluation.joker is joker
    assert data.evaluation.extra_bonus == extra_bonus
    assert data.moves_by_field()["full_house"].points == full_house
    assert all(m.extra_bonus == extra_bonus for m in data.moves)


def test_five_of_a_kind_that_is_not_a_joker_is_an_ordinary_roll():
    data = score("standard", SIXES, {"five_of_a_kind": 50})

    moves = data.moves_by_field()
    assert data.evaluation.refused == ()  # any free field, upper ones included
    assert moves["sixes"].points == 30
    for field in ("full_house", "small_straight", "large_straight"):
        assert moves[field].points == 0
        assert "nie" in moves[field].note
    assert any("To nie joker" in note for note in data.evaluation.notes)


def test_extra_bonus_is_earned_also_when_the_roll_is_written_as_0():
    data = score("standard", SIXES, {"five_of_a_kind": 50})

    ones = data.moves_by_field()["ones"]
    assert (ones.points, ones.extra_bonus, ones.gain) == (0, 100, 100)


def test_joker_goes_to_the_upper_section_as_0_only_when_the_lower_one_is_full():
    data = score("standard", SIXES, {**LOWER_ZEROS, "five_of_a_kind": 50, "sixes": 30})

    assert data.evaluation.joker is True
    assert data.evaluation.refused == ()
    moves = data.moves_by_field()
    assert set(moves) == {"ones", "twos", "threes", "fours", "fives"}
    assert all((m.points, m.extra_bonus) == (0, 100) for m in moves.values())
    assert "Dolna część jest pełna" in moves["ones"].note


def test_extra_bonuses_already_marked_count_in_the_totals():
    sheet = {"five_of_a_kind": 50, "sixes": 30, "chance": 30, "extra_bonus": 200}

    data = score("standard", DICE, sheet)

    assert data.totals.columns[0].extra_bonus == 200
    assert data.totals.total == 50 + 30 + 30 + 200


def test_ordered_takes_only_the_next_field_even_for_0():
    data = score("ordered", [5, 5, 5, 1, 1], {"ones": 2})

    assert [
        (m.column, m.field, m.label, m.points, m.extra_bonus, m.multiplier, m.gain, m.note)
        for m in data.moves
    ] == [(0, "twos", "Dwójki", 0, 0, 1, 0, "Rzut tu nie pasuje: skreślasz pole (0).")]
    refused = data.refused_by_field()
    assert len(refused) == 11
    assert refused["fives"].points == 15
    assert all("Dwójki" in r.reason for r in refused.values())


@pytest.mark.parametrize(
    ("dice", "field", "points"),
    [
        pytest.param([3, 3, 3, 5, 5], "two_pairs", 16, id="two pairs in a full house: 16"),
        pytest.param([3, 3, 3, 5, 5], "full_house", 19, id="full house: sum of all dice"),
        pytest.param([3, 3, 3, 5, 5], "three_of_a_kind", 9, id="three of a kind: those 3 only"),
        pytest.param([3, 3, 3, 5, 5], "pair", 10, id="pair: the highest pair"),
        pytest.param([4, 4, 4, 4, 2], "four_of_a_kind", 16, id="four of a kind: those 4 only"),
        pytest.param([4, 4, 4, 4, 2], "two_pairs", 0, id="four of a kind is not two pairs"),
        pytest.param([1, 2, 3, 4, 5], "small_straight", 15, id="small straight 1-2-3-4-5: 15"),
        pytest.param([1, 2, 3, 4, 5], "large_straight", 0, id="1-2-3-4-5 is not large"),
        pytest.param([2, 3, 4, 5, 6], "large_straight", 20, id="large straight 2-3-4-5-6: 20"),
        pytest.param([2, 3, 4, 5, 6], "small_straight", 0, id="2-3-4-5-6 is not small"),
        pytest.param([6, 6, 6, 6, 6], "full_house", 0, id="five of a kind is not a full house"),
        pytest.param([6, 6, 6, 6, 6], "five_of_a_kind", 50, id="Generał 50"),
    ],
)
def test_scandinavian_scoring(dice: list[int], field: str, points: int):
    data = score("scandinavian", dice)

    assert data.moves_by_field()[field].points == points


def test_scandinavian_has_no_joker_and_no_extra_bonus():
    data = score("scandinavian", SIXES, {"five_of_a_kind": 50, "sixes": 30})

    assert data.evaluation.joker is False
    assert data.evaluation.extra_bonus == 0
    assert data.evaluation.refused == ()
    moves = data.moves_by_field()
    assert moves["full_house"].points == 0
    assert moves["large_straight"].points == 0
    assert all(m.extra_bonus == 0 for m in data.moves)
    assert any("skandynawskiej" in note for note in data.evaluation.notes)


def test_triple_joker_with_all_three_generals_50_scores_420():
    data = score("triple", SIXES, [{"five_of_a_kind": 50, "sixes": 30}] * 3)

    assert data.evaluation.joker is True
    assert data.evaluation.extra_bonus == 100
    large = data.moves_by_field(2)["large_straight"]
    assert (large.points, large.extra_bonus, large.multiplier, large.gain) == (40, 100, 3, 420)
    assert data.moves_by_field(0)["large_straight"].gain == 140
    assert data.moves_by_field(1)["large_straight"].gain == 280


@pytest.mark.parametrize(
    ("sheet", "joker"),
    [
        pytest.param(
            [{"five_of_a_kind": 50, "sixes": 30}] * 2 + [{"five_of_a_kind": 0, "sixes": 30}],
            True,
            id="one Generał is 0: a joker without the bonus",
        ),
        pytest.param(
            [{"five_of_a_kind": 50, "sixes": 30}] * 2 + [{"sixes": 30}],
            False,
            id="one Generał free: neither joker nor bonus",
        ),
        pytest.param(
            [{"five_of_a_kind": 50, "sixes": 30}] * 2 + [{"five_of_a_kind": 50}],
            False,
            id="all Generał 50 but Szóstki free in one column: the bonus, not a joker",
        ),
    ],
)
def test_triple_extra_bonus_only_when_all_three_generals_are_50(
    sheet: list[dict[str, int]], joker: bool
):
    data = score("triple", SIXES, sheet)

    all_fifty = all(column.get("five_of_a_kind") == 50 for column in sheet)
    assert data.evaluation.joker is joker
    assert data.evaluation.extra_bonus == (100 if all_fifty else 0)
    assert all(m.extra_bonus == data.evaluation.extra_bonus for m in data.moves)
    if not all_fifty:
        assert any("Bez premii +100" in note for note in data.evaluation.notes)


# --- totals of a sheet as sent --------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "sheet", "options", "threshold", "upper_bonus"),
    [
        pytest.param("standard", UPPER_63, None, 63, 35, id="standard 63: bonus 35"),
        pytest.param("standard", UPPER_62, None, 63, 0, id="standard 62: no bonus"),
        pytest.param("standard", UPPER_42, {"bonus_threshold": 42}, 63, 0, id="standard keeps 63"),
        pytest.param("ordered", UPPER_42, {"bonus_threshold": 42}, 42, 35, id="ordered 42"),
        pytest.param("ordered", UPPER_42, None, 63, 0, id="ordered defaults to 63"),
        pytest.param("ordered", UPPER_63, {"bonus_threshold": 63}, 63, 35, id="ordered 63"),
        pytest.param(
            "scandinavian", UPPER_63, {"bonus_threshold": 42}, 63, 50, id="scandinavian 63: 50"
        ),
    ],
)
def test_totals_of_a_sent_sheet_with_the_upper_bonus(
    variant: str,
    sheet: dict[str, int],
    options: dict[str, int] | None,
    threshold: int,
    upper_bonus: int,
):
    data = score(variant, DICE, sheet, options)

    upper = sum(sheet.values())
    assert data.options.as_dict() == {"bonus_threshold": threshold}
    assert [t.as_dict() for t in data.totals.columns] == [
        {
            "upper": upper,
            "upper_bonus": upper_bonus,
            "lower": 0,
            "extra_bonus": 0,
            "multiplier": 1,
            "total": upper + upper_bonus,
        }
    ]
    assert data.totals.total == upper + upper_bonus


def test_triple_totals_are_multiplied_per_column():
    data = score("triple", DICE, [UPPER_63, {"chance": 20}, {"five_of_a_kind": 50}])

    assert [t.total for t in data.totals.columns] == [98, 40, 150]
    assert data.totals.total == 288


def test_full_sheet_has_no_moves_but_its_totals():
    data = score("standard", DICE, {**UPPER_63, **LOWER_ZEROS, "five_of_a_kind": 50})

    assert data.evaluation.moves == ()
    assert data.evaluation.refused == ()
    assert data.totals.total == 63 + 35 + 50


# --- ranking poker hands --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "ids", "places", "winners", "named"),
    [
        pytest.param(
            [[2, 3, 4, 5, 6], [1, 2, 3, 4, 5]],
            ["straight", "straight"],
            [1, 2],
            [0],
            ["2-3-4-5-6", "1-2-3-4-5", "strit"],
            id="2-3-4-5-6 beats 1-2-3-4-5",
        ),
        pytest.param(
            [[5, 5, 3, 3, 1], [5, 5, 2, 2, 6]],
            ["two_pairs", "two_pairs"],
            [1, 2],
            [0],
            ["5-5-3-3-1", "5-5-2-2-6", "dwie pary"],
            id="5-5-3-3-1 beats 5-5-2-2-6: the lower pair decides",
        ),
        pytest.param(
            [[4, 4, 4, 6, 6], [5, 5, 5, 2, 2]],
            ["full_house", "full_house"],
            [2, 1],
            [1],
            ["5-5-5-2-2", "4-4-4-6-6", "ful"],
            id="5-5-5-2-2 beats 4-4-4-6-6: the three decide",
        ),
        pytest.param(
            [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]],
            ["straight", "straight"],
            [1, 1],
            [0, 1],
            ["Remis", "1-2-3-4-5", "strit"],
            id="equal hands draw: two winners",
        ),
        pytest.param(
            [[6, 6, 1, 2, 3], [3, 2, 1, 6, 6], [5, 5, 1, 2, 3]],
            ["pair", "pair", "pair"],
            [1, 1, 3],
            [0, 1],
            ["Remis", "6-6-3-2-1", "para"],
            id="three hands, two tied for best: places 1 1 3",
        ),
        pytest.param(
            [[6, 6, 6, 6, 6], [2, 2, 3, 3, 4], [4, 3, 3, 2, 2], [1, 1, 2, 3, 5]],
            ["five_of_a_kind", "two_pairs", "two_pairs", "pair"],
            [1, 2, 2, 4],
            [0],
            ["6-6-6-6-6", "3-3-2-2-4", "pięć jednakowych", "dwie pary"],
            id="equal hands below the winner share a place: 1 2 2 4",
        ),
        pytest.param(
            [[1, 2, 3, 4, 6], [6, 6, 6, 6, 1]],
            ["nothing", "four_of_a_kind"],
            [2, 1],
            [1],
            ["6-6-6-6-1", "cztery jednakowe", "nic"],
            id="four of a kind beats nothing",
        ),
    ],
)
def test_poker_rank(
    hands: list[list[int]],
    ids: list[str],
    places: list[int],
    winners: list[int],
    named: list[str],
):
    ranking = rank([parse_dice(hand) for hand in hands])

    assert [list(h.value.dice) for h in ranking.hands] == hands
    assert [h.value.hand.id for h in ranking.hands] == ids
    assert [h.place for h in ranking.hands] == places
    assert all(h.value.hand.label for h in ranking.hands)
    assert list(ranking.winners) == winners
    assert ranking.explanation
    for words in named:
        assert words in ranking.explanation


def test_poker_labels_are_polish():
    ranking = rank([parse_dice([5, 5, 5, 2, 2]), parse_dice([1, 1, 3, 4, 6])])

    assert [h.value.hand.label for h in ranking.hands] == ["Ful", "Para"]


def test_poker_ranks_up_to_eight_hands():
    hands = [[face, face, 1, 2, 3] for face in (4, 5, 6)] + [[2, 3, 4, 5, 6]] * 5

    assert list(rank([parse_dice(hand) for hand in hands]).winners) == [3, 4, 5, 6, 7]
