"""Gra po kolei: each turn writes the next free field in table order, even when that is 0."""

import pytest

from tracker.rules import (
    STANDARD,
    MoveRefused,
    Options,
    RulesError,
    empty_sheet,
    evaluate,
    find_variant,
    next_in_order,
    parse_sheet,
    play,
    sheet_totals,
    upper_status,
)

from .builders import filled_except, roll, sheet_after

ORDERED = find_variant("ordered")


def test_ordered_only_the_next_free_field_is_allowed():
    evaluation = evaluate(ORDERED, empty_sheet(ORDERED), roll("6-6-6-6-6"))
    assert [p.field for p in evaluation.moves] == ["ones"]
    assert len(evaluation.placements) == 13


@pytest.mark.parametrize(
    ("variant_id", "filled", "expected"),
    [
        ("ordered", {}, "ones"),
        ("ordered", {"ones": 3}, "twos"),
        ("ordered", filled_except("chance"), "chance"),
        ("ordered", filled_except(), None),  # a full column: nothing next
        ("standard", {}, None),  # the player chooses: no field is next
        ("scandinavian", {}, None),
    ],
)
def test_next_in_order_is_the_first_free_field_of_gra_po_kolei(variant_id, filled, expected):
    variant = find_variant(variant_id)
    column = parse_sheet(variant, [filled])[0]

    field = next_in_order(variant, column)

    assert (field.id if field else None) == expected


def test_ordered_the_next_field_is_written_even_when_it_scores_0():
    sheet, placement = play(ORDERED, empty_sheet(ORDERED), roll("6-6-6-6-6"), "ones")
    assert placement.points == 0
    assert sheet[0].cells == {"ones": 0}


@pytest.mark.parametrize(
    "field",
    [f for f in STANDARD.field_ids if f != "ones"],
    ids=lambda field: f"ordered: {field} refused while Jedynki is the next field",
)
def test_ordered_other_fields_refused_with_a_reason(field):
    evaluation = evaluate(ORDERED, empty_sheet(ORDERED), roll("6-6-6-6-6"))
    placement = evaluation.find(field)
    assert placement is not None
    assert not placement.allowed
    assert placement.reason
    assert "Jedynki" in placement.reason  # names the field to write instead
    assert placement.extra_bonus == 0
    with pytest.raises(MoveRefused, match="Gra po kolei"):
        play(ORDERED, empty_sheet(ORDERED), roll("6-6-6-6-6"), field)


def test_ordered_follows_table_order_through_the_game():
    sheet = empty_sheet(ORDERED)
    for expected in STANDARD.field_ids:
        (move,) = evaluate(ORDERED, sheet, roll("1-2-3-4-5")).moves
        assert move.field == expected
        sheet, _ = play(ORDERED, sheet, roll("1-2-3-4-5"), move.field)
    assert (
        sheet_totals(ORDERED, sheet).total == 1 + 2 + 3 + 4 + 5 + 0 + 0 + 0 + 0 + 30 + 40 + 0 + 15
    )


@pytest.mark.parametrize(
    ("threshold", "upper", "bonus"),
    [(42, 42, 35), (42, 41, 0), (63, 42, 0), (63, 63, 35)],
    ids=[
        "ordered option 42: upper 42 earns the bonus, still 35",
        "ordered option 42: upper 41 earns nothing",
        "ordered default 63: upper 42 earns nothing",
        "ordered default 63: upper 63 earns 35",
    ],
)
def test_ordered_bonus_threshold(threshold, upper, bonus):
    cells = {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 12}  # 42
    cells = {
        41: {**cells, "ones": 1},
        42: cells,
        63: {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18},
    }[upper]
    options = ORDERED.parse_options({"bonus_threshold": threshold})
    sheet = parse_sheet(ORDERED, cells)
    (column,) = sheet_totals(ORDERED, sheet, options).columns
    assert (column.upper, column.upper_bonus, column.total) == (upper, bonus, upper + bonus)


def test_ordered_threshold_42_counts_two_dice_per_field_as_par():
    options = Options(bonus_threshold=42)
    status = upper_status(ORDERED, parse_sheet(ORDERED, {"ones": 2, "twos": 6})[0], options)
    assert (status.threshold, status.par_delta, status.missing) == (42, 2, 34)


def test_ordered_threshold_42_gain_includes_the_bonus():
    options = Options(bonus_threshold=42)
    cells = {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10}
    sheet = parse_sheet(ORDERED, cells)
    (move,) = evaluate(ORDERED, sheet, roll("6-6-1-2-3"), options).moves
    assert (move.field, move.points, move.gain) == ("sixes", 12, 12 + 35)


def test_ordered_extra_bonus_in_practice_only_in_szansa():
    sheet = parse_sheet(ORDERED, filled_except("chance", five_of_a_kind=50, sixes=30))
    evaluation = evaluate(ORDERED, sheet, roll("6-6-6-6-6"))
    (move,) = evaluation.moves
    assert (move.field, move.points, move.extra_bonus) == ("chance", 30, 100)
    assert evaluation.joker  # Generał and Szóstki filled: it also is a joker


def test_ordered_general_written_in_turn_twelve():
    turns = [("1-2-3-4-6", field) for field in STANDARD.field_ids[:11]]
    sheet = sheet_after(ORDERED, turns)
    (move,) = evaluate(ORDERED, sheet, roll("2-2-2-2-2")).moves
    assert (move.field, move.points, move.extra_bonus) == ("five_of_a_kind", 50, 0)


def test_ordered_sheet_with_a_gap_is_refused():
    with pytest.raises(RulesError, match="kolejności") as refused:
        parse_sheet(ORDERED, {"ones": 1, "threes": 3})
    assert "Dwójki" in str(refused.value)


def test_ordered_sheet_cannot_hold_more_than_one_extra_bonus():
    # Only Szansa follows Generał in table order, so one extra bonus at most.
    cells = filled_except(five_of_a_kind=50, chance=30)
    assert parse_sheet(ORDERED, {**cells, "extra_bonus": 100})[0].extra_bonus == 100
    with pytest.raises(RulesError, match="za dużo premii"):
        parse_sheet(ORDERED, {**cells, "extra_bonus": 200})


def test_ordered_sheet_with_generał_50_and_szansa_free_has_no_extra_bonus():
    with pytest.raises(RulesError, match="za dużo premii"):
        parse_sheet(ORDERED, {**filled_except("chance", five_of_a_kind=50), "extra_bonus": 100})
