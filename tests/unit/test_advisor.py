"""The advisor at run time: expected totals and moves from the shipped optimal-play tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker import advisor, rules
from tracker.advisor import store
from tracker.advisor.specs import SPECS, spec_for
from tracker.rules import Options, empty_sheet, find_table_variant

STANDARD = find_table_variant("standard")
ORDERED = find_table_variant("ordered")
SCANDINAVIAN = find_table_variant("scandinavian")
TRIPLE = find_table_variant("triple")


def sheet_of(variant, cells, extra_bonus=0):
    return rules.parse_sheet(variant, [dict(cells, extra_bonus=extra_bonus)])


@pytest.mark.parametrize(
    ("variant", "threshold", "expected"),
    [
        pytest.param(STANDARD, 63, 254.5882, id="standard"),
        pytest.param(ORDERED, 63, 130.2860, id="ordered-63"),
        pytest.param(ORDERED, 42, 149.6468, id="ordered-42"),
        pytest.param(SCANDINAVIAN, 63, 248.4400, id="scandinavian"),
        pytest.param(TRIPLE, 63, 6 * 245.8708 + 221.7, id="triple-approximation"),
    ],
)
def test_the_expected_total_of_an_empty_sheet(variant, threshold, expected):
    options = Options(bonus_threshold=threshold)
    value = advisor.expected_total(variant, empty_sheet(variant), options)
    assert value == pytest.approx(expected, abs=2e-3)


@pytest.mark.parametrize(
    ("variant", "cells", "dice", "best", "loss_of"),
    [
        # The published opening: 1-2-3-4-5 on an empty sheet is a large straight (261.53).
        pytest.param(
            STANDARD,
            {},
            (1, 2, 3, 4, 5),
            "large_straight",
            {"small_straight": 14.98},
            id="opening-large-straight",
        ),
        pytest.param(
            STANDARD, {}, (6, 6, 6, 2, 2), "full_house", {"sixes": 3.38}, id="opening-full-house"
        ),
        # Upper sum 47 with Szóstki free: three sixes give 18 and the bonus.
        pytest.param(
            STANDARD,
            {"ones": 2, "twos": 4, "threes": 9, "fours": 12, "fives": 20},
            (6, 6, 6, 1, 2),
            "sixes",
            {},
            id="upper-bonus-reached",
        ),
        pytest.param(
            SCANDINAVIAN,
            {},
            (2, 3, 4, 5, 6),
            "large_straight",
            {},
            id="scandinavian-large-straight",
        ),
    ],
)
def test_the_best_move_for_known_rolls(variant, cells, dice, best, loss_of):
    advice = advisor.advise(variant, sheet_of(variant, cells), dice)
    assert advice.moves[0].field == best
    assert advice.moves[0].loss == 0
    for field, loss in loss_of.items():
        assert advice.find(field).loss == pytest.approx(loss, abs=0.01)


def test_the_opening_large_straight_is_worth_the_published_261_53():
    advice = advisor.advise(STANDARD, empty_sheet(STANDARD), (1, 2, 3, 4, 5))
    assert advice.expected == pytest.approx(254.5882, abs=1e-3)
    assert advice.best.expected == pytest.approx(261.5338, abs=2e-3)


def test_without_dice_the_advice_has_no_moves():
    advice = advisor.advise(STANDARD, empty_sheet(STANDARD))
    assert advice.moves == ()
    assert advice.best is None
    assert advice.exact


def test_the_extra_bonus_and_the_joker_are_priced_in():
    """Generał 50 and Szóstki filled: 6-6-6-6-6 is a joker (Duży strit 40) with +100."""
    cells = {"five_of_a_kind": 50, "sixes": 24}
    advice = advisor.advise(STANDARD, sheet_of(STANDARD, cells), (6, 6, 6, 6, 6))
    large = advice.find("large_straight")
    assert large.points == 40
    assert large.extra_bonus == 100
    before = rules.sheet_totals(STANDARD, sheet_of(STANDARD, cells)).total
    after_sheet = sheet_of(STANDARD, dict(cells, large_straight=40), extra_bonus=100)
    assert large.expected == pytest.approx(advisor.expected_total(STANDARD, after_sheet))
    assert large.expected > before + 140
    assert all(m.field not in {"ones", "twos"} for m in advice.moves)  # the joker goes lower


def test_gra_po_kolei_has_one_move_and_loses_nothing():
    advice = advisor.advise(ORDERED, empty_sheet(ORDERED), (1, 1, 2, 3, 4), Options(42))
    assert [(m.field, m.loss) for m in advice.moves] == [("ones", 0.0)]


def test_triple_is_marked_approximate_and_adds_its_columns():
    sheet = empty_sheet(TRIPLE)
    advice = advisor.advise(TRIPLE, sheet, (5, 5, 5, 5, 2))
    assert not advice.exact
    columns = {m.column for m in advice.moves}
    assert columns == {0, 1, 2}
    # Each column's fives are worth the same points, times its multiplier: the ×3 column first.
    fives = sorted((m for m in advice.moves if m.field == "fives"), key=lambda m: m.column)
    assert fives[2].expected > fives[1].expected > fives[0].expected


def test_dice_poker_gets_no_advice():
    assert not advisor.supports(rules.POKER_VARIANT)
    assert all(advisor.supports(v) for v in rules.TABLE_VARIANTS.values())


def test_a_table_is_mapped_once_per_process():
    assert store.table("ordered-63") is store.table("ordered-63")


def test_every_variant_and_threshold_has_its_table():
    for variant in rules.TABLE_VARIANTS.values():
        for threshold in variant.bonus_thresholds:
            assert spec_for(variant, threshold) in SPECS.values()


def _random_game(variant, data, options=None):
    """Play a whole sheet with random dice and random allowed fields."""
    sheet = empty_sheet(variant)
    turns = []
    while not rules.is_full(variant, sheet):
        dice = tuple(sorted(data.draw(st.lists(st.integers(1, 6), min_size=5, max_size=5))))
        moves = rules.evaluate(variant, sheet, dice, options).moves
        move = data.draw(st.sampled_from(moves))
        sheet, _ = rules.play(variant, sheet, dice, move.field, move.column, options)
        turns.append((dice, move.field, move.column))
    return sheet, turns


@settings(max_examples=25, deadline=None)
@given(data=st.data(), variant=st.sampled_from([STANDARD, SCANDINAVIAN, ORDERED]))
def test_a_review_accounts_for_every_point(data, variant):
    """A whole random game: the final total is the expectation at the start plus luck minus the
    expected points given away; a move equal to the best gives nothing away."""
    sheet, turns = _random_game(variant, data)
    review = advisor.review_seat(variant, None, turns)
    total = rules.sheet_totals(variant, sheet).total
    assert review.total == total
    assert review.expected_now == pytest.approx(total, abs=1e-3)
    assert total == pytest.approx(review.expected_start + review.luck - review.loss, abs=1e-3)
    for turn in review.turns:
        assert turn.loss == 0.0 or turn.loss >= advisor.EQUAL_WITHIN
        assert (turn.loss == 0.0) == any(
            (b.field, b.column) == (turn.field, turn.column) for b in turn.best
        )
        assert turn.expected_after <= turn.best[0].expected + 1e-9


@settings(max_examples=30, deadline=None)
@given(
    data=st.data(),
    case=st.sampled_from(
        [(STANDARD, None), (SCANDINAVIAN, None), (ORDERED, None), (TRIPLE, None)]
        + [(ORDERED, Options(bonus_threshold=42))]
    ),
)
def test_the_stored_summary_is_the_review_to_the_last_bit(data, case):
    """`summarise_seat`, which the game's last turn stores, gives exactly the floats of the
    whole review, for a whole game or a part of one, in every variant."""
    variant, options = case
    _, turns = _random_game(variant, data, options)
    turns = turns[: data.draw(st.integers(0, len(turns)))]
    review = advisor.review_seat(variant, options, turns)
    summary = advisor.summarise_seat(variant, options, turns)
    assert summary == advisor.SeatSummary(
        review.variant,
        review.exact,
        review.expected_start,
        len(review.turns),
        review.loss,
        review.luck,
        review.total,
    )


# Best play, then a three-of-a-kind that gives away 0.024 expected points: as good as the best.
NEARLY_BEST = [
    ((3, 3, 5, 6, 6), "chance", 0),
    ((1, 4, 5, 6, 6), "ones", 0),
    ((1, 1, 2, 2, 6), "twos", 0),
    ((2, 3, 4, 4, 5), "small_straight", 0),
    ((1, 1, 2, 5, 6), "four_of_a_kind", 0),
    ((2, 2, 3, 4, 4), "fours", 0),
    ((1, 2, 2, 5, 5), "fives", 0),
    ((1, 1, 2, 2, 4), "five_of_a_kind", 0),
    ((2, 2, 2, 2, 3), "three_of_a_kind", 0),
]


def test_a_move_within_equal_within_of_the_best_gives_nothing_away():
    last = advisor.review_seat(STANDARD, None, NEARLY_BEST).turns[-1]
    assert not any(b.field == "three_of_a_kind" for b in last.best[:1])  # not the very best
    assert last.loss == 0.0
    summary = advisor.summarise_seat(STANDARD, None, NEARLY_BEST)
    assert summary.loss == 0.0
    assert summary.luck == pytest.approx(last.expected_after - summary.expected_start)


def test_a_summary_refuses_a_move_the_rules_refuse():
    turns = [((6, 6, 6, 6, 6), "sixes", 0), ((1, 2, 3, 4, 6), "sixes", 0)]
    with pytest.raises(rules.MoveRefused):
        advisor.review_seat(STANDARD, None, turns)
    with pytest.raises(rules.MoveRefused):
        advisor.summarise_seat(STANDARD, None, turns)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_move_the_rules_allow_is_priced_and_none_other(data):
    sheet, turns = _random_game(STANDARD, data)
    cut = data.draw(st.integers(0, len(turns) - 1))
    partial = rules.replay(STANDARD, turns[:cut])
    dice = turns[cut][0]
    advice = advisor.advise(STANDARD, partial, dice)
    allowed = {(p.column, p.field) for p in rules.evaluate(STANDARD, partial, dice).moves}
    assert {(m.column, m.field) for m in advice.moves} == allowed
    assert [m.expected for m in advice.moves] == sorted(
        (m.expected for m in advice.moves), reverse=True
    )
    # The value before the roll is at most what the best answer to a good roll is worth and
    # never below what the sheet already holds.
    assert advice.expected >= rules.sheet_totals(STANDARD, partial).total


def test_the_triple_calibration_changes_no_advice_only_the_expectation():
    """Every move of a turn leaves as many free fields: the term shifts all moves alike."""
    sheet = empty_sheet(TRIPLE)
    advice = advisor.advise(TRIPLE, sheet, (3, 3, 4, 5, 6))
    plain = sum(m * store.table("triple-column-63").empty_expected for m in (1, 2, 3))
    assert advice.expected == pytest.approx(plain + advisor.TRIPLE_FLEX_POINTS, abs=1e-3)
    flex_after = advisor.TRIPLE_FLEX_POINTS * (38 / 39) ** advisor.TRIPLE_FLEX_POWER
    for move in advice.moves:
        col = sheet[move.column].write(move.field, move.points, move.extra_bonus)
        after = sheet[: move.column] + (col,) + sheet[move.column + 1 :]
        assert move.expected == pytest.approx(advisor.expected_total(TRIPLE, after), abs=1e-6)
        lone = rules.sheet_totals(TRIPLE, after).total + sum(
            mult * store.table("triple-column-63").remaining(SPECS["triple-column-63"].index_of(c))
            for c, mult in zip(after, (1, 2, 3), strict=True)
        )
        assert move.expected - lone == pytest.approx(flex_after, abs=1e-6)
