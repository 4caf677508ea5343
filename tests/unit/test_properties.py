"""Properties of the rules core over random *reachable* sheets.

Sheets are built the way players build them: from an empty sheet, turn after turn, a random roll
written in a random field the rules allow. Five of a kind is rolled far more often than the
dice would, so that Generał bonuses and jokers come up in most games.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType

import pytest
from conftest import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tracker.rules import (
    Column,
    Dice,
    MoveRefused,
    Options,
    Section,
    Sheet,
    Variant,
    allowed_moves,
    classify,
    compare,
    empty_sheet,
    evaluate,
    find_variant,
    is_full,
    is_joker,
    parse_sheet,
    play,
    rank,
    replay,
    sheet_totals,
)

from .builders import as_raw

# Deterministic and quick on CI: the same examples on every run (the "ci" profile in
# tests/conftest.py); new and ten times more examples with HYPOTHESIS_PROFILE=nightly.
PROPERTY = settings(
    max_examples=examples(30),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

VARIANTS = [find_variant(v) for v in ("standard", "ordered", "scandinavian", "triple")]
JOKER_VARIANTS = [v for v in VARIANTS if v.joker]
# The highest total without extra Generał bonuses (the settled rules).
MAXIMUM = {"standard": 375, "ordered": 375, "scandinavian": 374, "triple": 2250}

variants = pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
joker_variants = pytest.mark.parametrize("variant", JOKER_VARIANTS, ids=lambda v: v.id)

any_roll = st.tuples(*[st.integers(1, 6)] * 5)
five_of_a_kind = st.integers(1, 6).map(lambda face: (face,) * 5)
rolls = st.one_of(any_roll, five_of_a_kind)


@dataclass(frozen=True)
class Game:
    variant: Variant
    options: Options
    sheet: Sheet
    turns: tuple[tuple[Dice, str, int], ...]
    # What `evaluate` announced for each move, written into plain dicts: the sheet built
    # without `play`, `replay` or `Column.write`.
    announced: tuple[tuple[dict[str, int], int], ...]

    def announced_sheet(self) -> Sheet:
        return tuple(Column(MappingProxyType(dict(c)), e) for c, e in self.announced)


@st.composite
def games(draw, variant: Variant, *, full: bool = False) -> Game:
    """A sheet reached by random legal moves, with the turns that reached it.

    Half of the players fill the fields in an order of their own (a random permutation of the
    table): Generał and an upper field early bring on jokers while lower fields are still free,
    the lower section first brings on the late joker written as 0 in the upper section.
    """
    options = Options(bonus_threshold=draw(st.sampled_from(variant.bonus_thresholds)))
    count = variant.turns if full else draw(st.integers(0, variant.turns - 1))
    priority = draw(st.none() | st.permutations(variant.table.field_ids))
    sheet = empty_sheet(variant)
    turns = []
    announced = [({}, 0) for _ in variant.multipliers]
    for _ in range(count):
        dice = draw(rolls)
        moves = evaluate(variant, sheet, dice, options).moves
        if priority is not None:
            first = min(priority.index(m.field) for m in moves)
            moves = tuple(m for m in moves if priority.index(m.field) == first)
        move = draw(st.sampled_from(moves))
        sheet, _ = play(variant, sheet, dice, move.field, move.column, options)
        turns.append((dice, move.field, move.column))
        cells, extra = announced[move.column]
        announced[move.column] = ({**cells, move.field: move.points}, extra + move.extra_bonus)
    return Game(variant, options, sheet, tuple(turns), tuple(announced))


# An independent scorer for ordinary rolls (not five of a kind), from the rulebook's sentences.
def _runs(dice: Dice) -> set[int]:
    return {a for a in (1, 2, 3) if {a, a + 1, a + 2, a + 3} <= set(dice)}


def _oracle(table: str, field: str, dice: Dice) -> int:
    c = Counter(dice)
    faces = ("ones", "twos", "threes", "fours", "fives", "sixes")
    if field in faces:
        face = faces.index(field) + 1
        return face * c[face]
    pairs = sorted((f for f, n in c.items() if n >= 2), reverse=True)
    full = sorted(c.values()) == [2, 3]
    standard = {
        "three_of_a_kind": sum(dice) if max(c.values()) >= 3 else 0,
        "four_of_a_kind": sum(dice) if max(c.values()) >= 4 else 0,
        "full_house": 25 if full else 0,
        "small_straight": 30 if _runs(dice) else 0,
        "large_straight": 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0,
        "five_of_a_kind": 0,
        "chance": sum(dice),
    }
    scandinavian = {
        "pair": 2 * pairs[0] if pairs else 0,
        "two_pairs": 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0,
        "three_of_a_kind": 3 * max((f for f, n in c.items() if n >= 3), default=0),
        "four_of_a_kind": 4 * max((f for f, n in c.items() if n >= 4), default=0),
        "small_straight": 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0,
        "large_straight": 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0,
        "full_house": sum(dice) if full else 0,
        "chance": sum(dice),
        "five_of_a_kind": 0,
    }
    return (standard if table == "standard" else scandinavian)[field]


def lower_free(variant: Variant, sheet: Sheet) -> bool:
    return any(not col.is_filled(f.id) for col in sheet for f in variant.table.lower_fields)


# --- one roll on one sheet ----------------------------------------------------------------------


@variants
@PROPERTY
@given(data=st.data())
def test_points_are_within_the_field_and_bonuses_are_0_or_100(variant, data):
    game = data.draw(games(variant))
    dice = data.draw(rolls)
    evaluation = evaluate(variant, game.sheet, dice, game.options)
    table = variant.table
    assert evaluation.placements  # the sheet is not full
    for p in evaluation.placements:
        assert 0 <= p.points <= table.max_points[p.field]
        assert p.points in table.achievable[p.field]
        assert p.extra_bonus in (0, 100)
        assert p.multiplier == variant.multipliers[p.column]
        assert p.allowed is (p.reason is None) is (p.reason_code is None)
        assert (p.note is None) is (p.note_code is None)  # every note carries its code
        if not p.allowed:
            assert p.reason.strip()
            assert p.extra_bonus == 0
    # The extra bonus is judged on the sheet as it stands: Generał 50 in every column.
    generals_at_50 = all(col.cells.get("five_of_a_kind") == 50 for col in game.sheet)
    earned = len(set(dice)) == 1 and generals_at_50 and variant.id != "scandinavian"
    assert evaluation.extra_bonus == (100 if earned else 0)
    assert {p.extra_bonus for p in evaluation.moves} == {evaluation.extra_bonus}
    assert len(evaluation.note_codes) == len(evaluation.notes)
    if variant.id == "scandinavian":
        assert not evaluation.joker


@joker_variants
@PROPERTY
@given(data=st.data())
def test_a_joker_never_goes_upper_while_a_lower_field_is_free(variant, data):
    game = data.draw(games(variant))
    sheet = game.sheet
    # Roll five of a kind, preferably of a face whose upper field is filled everywhere.
    faces = [
        f.face for f in variant.table.upper_fields if all(col.is_filled(f.id) for col in sheet)
    ]
    face = data.draw(st.sampled_from(faces or [1, 2, 3, 4, 5, 6]))
    dice = (face,) * 5
    evaluation = evaluate(variant, sheet, dice, game.options)
    upper_id = variant.table.upper_fields[face - 1].id
    expected_joker = all(
        col.is_filled("five_of_a_kind") and col.is_filled(upper_id) for col in sheet
    )
    assert evaluation.joker is expected_joker is is_joker(variant, sheet, dice)
    if not evaluation.joker:
        event("not a joker")
        return
    if lower_free(variant, sheet):
        event("joker, lower section free")
        assert evaluation.moves
        assert all(p.section is Section.LOWER for p in evaluation.moves)
        if not variant.fixed_order:
            for p in evaluation.placements:
                assert p.allowed is (p.section is Section.LOWER)
    else:
        event("joker, lower section full")
        assert evaluation.moves
        for p in evaluation.moves:
            assert p.section is Section.UPPER
            assert p.points == 0


@PROPERTY
@given(data=st.data())
def test_ordered_allows_exactly_the_first_free_field_in_table_order(data):
    variant = find_variant("ordered")
    game = data.draw(games(variant))
    evaluation = evaluate(variant, game.sheet, data.draw(rolls), game.options)
    first_free = next(f for f in variant.table.field_ids if not game.sheet[0].is_filled(f))
    assert [p.field for p in evaluation.moves] == [first_free]
    assert all(p.reason for p in evaluation.refused)


@variants
@PROPERTY
@given(data=st.data())
def test_a_sheet_that_is_not_full_always_has_a_move(variant, data):
    game = data.draw(games(variant))
    assert not is_full(variant, game.sheet)
    evaluation = evaluate(variant, game.sheet, data.draw(rolls), game.options)
    assert evaluation.moves
    assert evaluation.best_gain == max(p.gain for p in evaluation.moves)


@variants
@PROPERTY
@given(data=st.data())
def test_play_does_what_evaluate_announces(variant, data):
    game = data.draw(games(variant))
    dice = data.draw(rolls)
    evaluation = evaluate(variant, game.sheet, dice, game.options)
    for announced in evaluation.placements:
        if announced.allowed:
            _, placement = play(
                variant, game.sheet, dice, announced.field, announced.column, game.options
            )
            assert placement == announced
        else:
            with pytest.raises(MoveRefused) as refused:
                play(variant, game.sheet, dice, announced.field, announced.column, game.options)
            assert str(refused.value) == announced.reason


@variants
@PROPERTY
@given(data=st.data())
def test_allowed_moves_are_the_moves_evaluate_allows(variant, data):
    """The review's lean answer and `evaluate` agree move for move, in the same order: the same
    fields, points, bonus, multiplier and gain (jokers and Gra po kolei's order included)."""
    game = data.draw(games(variant))
    # Half the rolls five of a kind of a face whose upper field is filled everywhere: a joker
    # once Generał is too.
    faces = [
        f.face for f in variant.table.upper_fields if all(col.is_filled(f.id) for col in game.sheet)
    ]
    dice = data.draw(rolls | st.sampled_from(faces or [6]).map(lambda face: (face,) * 5))
    moves = evaluate(variant, game.sheet, dice, game.options).moves
    lean = allowed_moves(variant, game.sheet, dice, game.options)
    assert [
        (m.column, m.field, m.label, m.points, m.extra_bonus, m.multiplier, m.gain) for m in moves
    ] == [tuple(m) for m in lean]
    if is_joker(variant, game.sheet, dice):
        event("joker")


# --- whole sheets ---------------------------------------------------------------------------------


@variants
@PROPERTY
@given(data=st.data())
def test_the_total_is_the_sum_of_its_parts(variant, data):
    game = data.draw(games(variant, full=data.draw(st.booleans())))
    totals = sheet_totals(variant, game.sheet, game.options)
    table = variant.table
    for column, col_totals, multiplier in zip(
        game.sheet, totals.columns, variant.multipliers, strict=True
    ):
        upper = sum(column.cells.get(f.id, 0) for f in table.upper_fields)
        lower = sum(column.cells.get(f.id, 0) for f in table.lower_fields)
        bonus = table.upper_bonus if upper >= game.options.bonus_threshold else 0
        assert (col_totals.upper, col_totals.lower, col_totals.upper_bonus) == (upper, lower, bonus)
        assert col_totals.extra_bonus == column.extra_bonus
        assert col_totals.multiplier == multiplier
        assert col_totals.total == (upper + bonus + lower + column.extra_bonus) * multiplier
    assert totals.total == sum(c.total for c in totals.columns)


@variants
@PROPERTY
@given(data=st.data())
def test_replay_gives_the_same_sheet_and_gain_is_the_rise_of_the_total(variant, data):
    game = data.draw(games(variant, full=data.draw(st.booleans())))
    # Against a sheet built without the code under test: what `evaluate` announced, written
    # into plain dicts, and for ordinary rolls the points of an independent scorer.
    assert replay(variant, game.turns, game.options) == game.announced_sheet()
    for dice, field, column in game.turns:
        if len(set(dice)) > 1:
            expected = _oracle(variant.table.id, field, dice)
            assert game.announced[column][0][field] == expected, (dice, field)
    sheet = empty_sheet(variant)
    for dice, field, column in game.turns:
        before = sheet_totals(variant, sheet, game.options).total
        sheet, placement = play(variant, sheet, dice, field, column, game.options)
        after = sheet_totals(variant, sheet, game.options).total
        assert placement.gain == after - before
    assert sheet == game.sheet


@variants
@PROPERTY
@given(data=st.data())
def test_every_reachable_sheet_is_accepted_by_parse_sheet(variant, data):
    game = data.draw(games(variant, full=data.draw(st.booleans())))
    assert parse_sheet(variant, as_raw(game.sheet)) == game.sheet


@variants
@PROPERTY
@given(data=st.data())
def test_a_full_game_never_exceeds_the_maximum(variant, data):
    game = data.draw(games(variant, full=True))
    assert is_full(variant, game.sheet)
    totals = sheet_totals(variant, game.sheet, game.options)
    extra = sum(c.extra_bonus * c.multiplier for c in totals.columns)
    assert totals.total - extra <= MAXIMUM[variant.id]
    if variant.id == "scandinavian":
        assert extra == 0
    if variant.fixed_order:
        # Only Szansa follows Generał: at most one extra bonus.
        assert extra in (0, 100)


# --- poker --------------------------------------------------------------------------------------

# Hands that tie and hands that differ only in a kicker, in any order, besides random ones.
close_hands = (
    st.sampled_from(
        [
            (2, 3, 4, 5, 6),
            (1, 2, 3, 4, 5),
            (5, 5, 3, 3, 1),
            (5, 5, 2, 2, 6),
            (5, 5, 5, 2, 2),
            (4, 4, 4, 6, 6),
        ]
    )
    .flatmap(st.permutations)
    .map(tuple)
)
poker_hands = st.one_of(any_roll, five_of_a_kind, close_hands)


@PROPERTY
@given(hands=st.lists(poker_hands, min_size=1, max_size=6))
def test_poker_ranking_agrees_with_pairwise_compare(hands):
    ranking = rank(hands)
    for ranked in ranking.hands:
        beaten_by = [other for other in hands if compare(other, hands[ranked.index]) == 1]
        assert ranked.place == 1 + len(beaten_by)
    unbeaten = tuple(i for i, h in enumerate(hands) if all(compare(o, h) < 1 for o in hands))
    assert ranking.winners == unbeaten
    assert ranking.draw is (len(unbeaten) > 1)


@PROPERTY
@given(a=poker_hands, b=poker_hands, c=poker_hands)
def test_poker_compare_is_antisymmetric_and_transitive_as_the_key(a, b, c):
    key = {hand: classify(hand).key for hand in (a, b, c)}
    for x, y in ((a, b), (b, c), (a, c)):
        assert compare(x, y) == (key[x] > key[y]) - (key[x] < key[y])
        assert compare(x, y) == -compare(y, x)
    assert compare(a, a) == 0
    if compare(a, b) >= 0 and compare(b, c) >= 0:
        assert compare(a, c) >= 0
    if compare(a, b) == 0:
        assert compare(a, c) == compare(b, c)
    # The order the dice were entered in does not matter.
    assert compare(a, tuple(reversed(a))) == 0
