"""Kości potrójne: three standard columns, each totalled with its bonus, then ×1, ×2, ×3.

Joker and extra bonus look at all three columns: a joker needs every Generał and the matching
upper field filled in every column; the extra bonus needs 50 in all three Generał fields.
"""

import pytest

from tracker.rules import (
    MoveRefused,
    RulesError,
    Section,
    TableGame,
    empty_sheet,
    evaluate,
    find_variant,
    is_full,
    parse_sheet,
    play,
    sheet_totals,
)

from .builders import LOWER_STANDARD, filled_except, roll, sheet_after

TRIPLE = find_variant("triple")
MAX_COLUMN = [
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


def triple_sheet(*columns: dict[str, int]):
    return parse_sheet(TRIPLE, list(columns))


@pytest.mark.parametrize(
    ("column", "gain"),
    [(0, 16), (1, 32), (2, 48)],
    ids=["triple: column 1 counts x1", "triple: column 2 counts x2", "triple: column 3 counts x3"],
)
def test_triple_column_multipliers(column, gain):
    evaluation = evaluate(TRIPLE, empty_sheet(TRIPLE), roll("1-2-3-4-6"))
    placement = evaluation.find("chance", column)
    assert placement is not None
    assert (placement.points, placement.multiplier, placement.gain) == (16, column + 1, gain)


def test_triple_each_turn_may_write_any_free_field_in_any_column():
    evaluation = evaluate(TRIPLE, empty_sheet(TRIPLE), roll("1-2-3-4-6"))
    assert len(evaluation.moves) == 39
    assert {p.column for p in evaluation.moves} == {0, 1, 2}


def test_triple_upper_bonus_per_column_before_the_multiplier():
    par = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    totals = sheet_totals(TRIPLE, triple_sheet({}, {**par, "ones": 2}, par))
    assert [c.upper_bonus for c in totals.columns] == [0, 0, 35]
    assert [c.total for c in totals.columns] == [0, 62 * 2, (63 + 35) * 3]
    assert totals.total == 124 + 294


def test_triple_rules_example_420():
    # All three Generał fields 50, Szóstki filled in all three columns, five 6s written in
    # column 3's large straight: (40 + 100) × 3 = 420 points towards the total.
    sheet = sheet_after(
        TRIPLE,
        [
            ("1-1-1-1-1", "five_of_a_kind", 0),
            ("2-2-2-2-2", "five_of_a_kind", 1),
            ("3-3-3-3-3", "five_of_a_kind", 2),
            ("6-6-6-6-6", "sixes", 0),
            ("6-6-6-6-6", "sixes", 1),
            ("6-6-6-6-6", "sixes", 2),
        ],
    )
    evaluation = evaluate(TRIPLE, sheet, roll("6-6-6-6-6"))
    assert evaluation.joker
    placement = evaluation.find("large_straight", 2)
    assert placement is not None
    assert placement.allowed
    assert (placement.points, placement.extra_bonus, placement.multiplier) == (40, 100, 3)
    assert placement.gain == 420
    before = sheet_totals(TRIPLE, sheet).total
    after, _ = play(TRIPLE, sheet, roll("6-6-6-6-6"), "large_straight", 2)
    assert sheet_totals(TRIPLE, after).total - before == 420
    assert after[2].extra_bonus == 200  # the Szóstki turn in column 3 had already earned +100


@pytest.mark.parametrize(
    ("generals", "extra"),
    [((50, 50, 50), 100), ((50, 50, None), 0), ((50, None, None), 0), ((50, 50, 0), 0)],
    ids=[
        "triple extra bonus: all three General fields 50",
        "triple extra bonus: none before all three General fields are filled",
        "triple extra bonus: none with one General of 50",
        "triple extra bonus: none when one General holds 0",
    ],
)
def test_triple_extra_bonus_needs_all_three_generals_at_50(generals, extra):
    columns = [{} if g is None else {"five_of_a_kind": g} for g in generals]
    evaluation = evaluate(TRIPLE, triple_sheet(*columns), roll("4-4-4-4-4"))
    assert evaluation.extra_bonus == extra
    assert {p.extra_bonus for p in evaluation.moves} == {extra}


def test_triple_extra_bonus_note_before_all_three_generals():
    sheet = triple_sheet({"five_of_a_kind": 50}, {}, {})
    evaluation = evaluate(TRIPLE, sheet, roll("4-4-4-4-4"))
    assert any("wszystkich trzech polach Generał" in note for note in evaluation.notes)


@pytest.mark.parametrize(
    ("column", "gain"),
    [(0, 20 + 100), (1, (20 + 100) * 2), (2, (20 + 100) * 3)],
    ids=[
        "triple extra bonus credited to column 1, x1",
        "triple extra bonus credited to column 2, x2",
        "triple extra bonus credited to column 3, x3",
    ],
)
def test_triple_extra_bonus_is_multiplied_with_its_column(column, gain):
    sheet = triple_sheet(*[{"five_of_a_kind": 50}] * 3)
    sheet, placement = play(TRIPLE, sheet, roll("4-4-4-4-4"), "chance", column)
    assert placement.gain == gain
    assert [c.extra_bonus for c in sheet] == [100 if i == column else 0 for i in range(3)]


@pytest.mark.parametrize(
    ("generals", "sixes", "joker"),
    [
        ((50, 50, 50), (1, 1, 1), True),
        ((0, 50, 0), (1, 1, 1), True),
        ((50, 50, None), (1, 1, 1), False),
        ((50, 50, 50), (1, 1, 0), False),
        ((50, 50, 50), (0, 0, 0), False),
    ],
    ids=[
        "triple joker: all General and all Szostki filled",
        "triple joker: General filled with 0 counts",
        "triple no joker: one General free",
        "triple no joker: Szostki free in one column",
        "triple no joker: Szostki free everywhere",
    ],
)
def test_triple_joker_needs_general_and_upper_filled_in_all_three(generals, sixes, joker):
    columns = []
    for general, six in zip(generals, sixes, strict=True):
        column = {} if general is None else {"five_of_a_kind": general}
        if six:
            column["sixes"] = 24
        columns.append(column)
    evaluation = evaluate(TRIPLE, triple_sheet(*columns), roll("6-6-6-6-6"))
    assert evaluation.joker is joker
    if not joker:
        placement = evaluation.find("full_house", 0)
        assert placement is not None
        assert placement.points == 0
        assert "we wszystkich trzech kolumnach" in placement.note


def test_triple_joker_to_a_free_lower_field_of_any_column():
    columns = [{"five_of_a_kind": 50, "sixes": 30}] * 3
    evaluation = evaluate(TRIPLE, triple_sheet(*columns), roll("6-6-6-6-6"))
    assert evaluation.joker
    assert {(p.column, p.section) for p in evaluation.moves} == {
        (column, Section.LOWER) for column in range(3)
    }
    assert {p.field for p in evaluation.moves} == set(LOWER_STANDARD) - {"five_of_a_kind"}
    for placement in evaluation.refused:
        assert placement.section is Section.UPPER
        assert placement.reason


def test_triple_joker_goes_upper_only_when_all_lower_fields_of_all_columns_are_full():
    full_lower = filled_except("ones", "twos", five_of_a_kind=50, sixes=30)
    one_lower_free = filled_except("ones", "twos", "chance", five_of_a_kind=50, sixes=30)
    sheet = triple_sheet(full_lower, full_lower, one_lower_free)
    evaluation = evaluate(TRIPLE, sheet, roll("6-6-6-6-6"))
    assert [(p.column, p.field) for p in evaluation.moves] == [(2, "chance")]
    with pytest.raises(MoveRefused):
        play(TRIPLE, sheet, roll("6-6-6-6-6"), "ones", 0)

    sheet = triple_sheet(full_lower, full_lower, full_lower)
    evaluation = evaluate(TRIPLE, sheet, roll("6-6-6-6-6"))
    assert evaluation.joker
    assert {(p.column, p.field) for p in evaluation.moves} == {
        (column, field) for column in range(3) for field in ("ones", "twos")
    }
    assert {(p.points, p.extra_bonus) for p in evaluation.moves} == {(0, 100)}


def test_triple_maximum_2250():
    # Generał last in every column: all three hold 50 only after the last turn, so no extra bonus.
    turns = [(dice, field, column) for column in range(3) for dice, field in MAX_COLUMN]
    sheet = sheet_after(TRIPLE, turns)
    assert is_full(TRIPLE, sheet)
    totals = sheet_totals(TRIPLE, sheet)
    assert [c.total for c in totals.columns] == [375, 750, 1125]
    assert totals.total == 2250
    assert all(c.extra_bonus == 0 for c in totals.columns)


@pytest.mark.parametrize(
    "column",
    [3, -1, 10],
    ids=["triple: column 3 is out of range (0-2)", "a negative column", "column 10"],
)
def test_triple_column_out_of_range(column):
    with pytest.raises(RulesError, match="nie istnieje"):
        play(TRIPLE, empty_sheet(TRIPLE), roll("1-2-3-4-5"), "chance", column)


def test_triple_sheet_needs_three_columns():
    with pytest.raises(RulesError, match="3 kolumny"):
        parse_sheet(TRIPLE, [{}, {}])
    with pytest.raises(RulesError):
        parse_sheet(TRIPLE, {"chance": 20})  # a bare object is one column only


def test_triple_sheet_extra_bonus_needs_50_in_every_general():
    with pytest.raises(RulesError, match="we wszystkich kolumnach"):
        triple_sheet(
            {"five_of_a_kind": 50, "chance": 30, "extra_bonus": 100},
            {"five_of_a_kind": 50},
            {"five_of_a_kind": 0},
        )


@pytest.mark.parametrize(
    ("turns", "rise"),
    [
        pytest.param([("6-6-6-6-6", "five_of_a_kind", 2)], 150, id="Generał ×3: 50 raises 150"),
        pytest.param([("2-2-3-3-3", "chance", 1)], 26, id="Szansa ×2: 13 raises 26"),
        pytest.param(
            [
                ("6-6-6-6-1", "sixes", 0),
                ("5-5-5-5-1", "fives", 0),
                ("4-4-4-4-1", "fours", 0),
                ("3-3-3-3-1", "threes", 0),
            ],
            12 + 35,
            id="Trójki ×1 completes the upper bonus: 12 + 35",
        ),
        pytest.param(
            [
                ("6-6-6-6-1", "sixes", 2),
                ("5-5-5-5-1", "fives", 2),
                ("4-4-4-4-1", "fours", 2),
                ("3-3-3-3-1", "threes", 2),
            ],
            (12 + 35) * 3,
            id="the same in ×3: (12 + 35) × 3",
        ),
        pytest.param(
            [("6-6-6-6-1", "sixes", 2), ("5-5-5-5-1", "fives", 1), ("4-4-4-4-1", "fours", 0)],
            16,
            id="other columns' uppers do not complete this one's bonus",
        ),
    ],
)
def test_the_rise_of_the_last_turn_counts_the_multiplier_and_the_bonus_it_completed(turns, rise):
    game = TableGame(TRIPLE, 1)
    for dice, field, column in turns:
        game.play(roll(dice), field, column)

    assert game.rise() == rise


def test_an_extra_bonus_in_the_third_column_raises_the_total_by_three_hundred_more():
    """DECISIONS.md: the +100 is credited to its column, so ×3 makes it 300."""
    game = TableGame(TRIPLE, 1)
    for column in range(3):
        game.play(roll("5-5-5-5-5"), "five_of_a_kind", column)
    game.play(roll("1-1-1-1-1"), "ones", 2)

    assert (game.turns[-1].points, game.turns[-1].extra_bonus) == (5, 100)
    assert game.rise() == (5 + 100) * 3
    assert game.rise(0) == 50
