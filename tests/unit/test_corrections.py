"""Correcting an earlier turn (`rules.correct_turn`): allowed while it changes no later decision.

Each case is a game played turn by turn, one turn corrected, and what the rules answer: the
corrected turn, the later turns whose points change, or the refusal's code. The properties: a turn
corrected to itself changes nothing, and an accepted correction is exactly the game replayed
with the corrected turn in place (refused exactly when that replay would be refused).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.rules import (
    POKER_VARIANT,
    Code,
    Correction,
    CorrectionRefused,
    MoveRefused,
    PokerMatch,
    PokerOptions,
    RulesError,
    TableGame,
    TurnRecord,
    correct_turn,
    correction_choices,
    find_table_variant,
    find_variant,
    replay_game,
    restore_game,
    start_game,
)

from .builders import roll
from .test_game_protocol import PROPERTY, any_game, as_turns, rolls, snapshot

# A turn as the table says it: ("2-2-3-3-3", "full_house"), or with a column of `triple`.
Played = tuple[str, str] | tuple[str, str, int]


def played(variant_id: str, players: int, turns: Sequence[Played]) -> list[TurnRecord]:
    """The turns in force after playing these, seat after seat, as the app stores them."""
    game = start_game(find_variant(variant_id), players)
    for turn in turns:
        game.play_turn(roll(turn[0]), turn[1], turn[2] if len(turn) == 3 else 0)
    return list(game.turns)


def correct(
    variant_id: str, players: int, turns: Sequence[Played], seq: int, dice: str, field: str,
    column: int = 0,
) -> Correction:  # fmt: skip
    records = played(variant_id, players, turns)
    variant = find_variant(variant_id)
    return correct_turn(variant, players, None, records, seq - 1, roll(dice), field, column)


# Two players, standard table: Ala's Generał of 50, then her second five 6s earns +100.
GENERALS = [
    ("6-6-6-6-6", "five_of_a_kind"),  # 1 Ala: 50
    ("1-2-3-4-5", "large_straight"),  # 2 Ola
    ("2-2-3-3-4", "full_house"),  # 3 Ala: 0, a typo for 2-2-3-3-3
    ("1-1-1-1-2", "ones"),  # 4 Ola
    ("6-6-6-6-6", "sixes"),  # 5 Ala: 30, +100
    ("2-3-4-5-6", "small_straight"),  # 6 Ola
]
# One player: Generał and Szóstki filled, so five 6s is a joker: ful for 25.
JOKER = [
    ("6-6-6-6-6", "five_of_a_kind"),  # 1: 50
    ("6-6-6-1-2", "sixes"),  # 2: 18
    ("6-6-6-6-6", "full_house"),  # 3: joker, 25 (+100)
]
# One player: Generał filled, Piątki free, so five 5s is no joker and may go to Dwójki for 0.
NOT_YET_JOKER = [
    ("3-3-3-3-3", "five_of_a_kind"),  # 1: 50
    ("4-4-4-5-5", "fours"),  # 2: 12 (Piątki stay free)
    ("5-5-5-5-5", "twos"),  # 3: 0 (+100): not a joker, any free field
]

ALLOWED = [
    pytest.param(
        "standard", 2, GENERALS, 3, "2-2-3-3-3", "full_house", 0, 25, {},
        id="dice typo: the same field scores what it should",
    ),
    pytest.param(
        "standard", 2, GENERALS, 3, "2-2-3-3-4", "chance", 0, 14, {},
        id="wrong field tapped: a field still free takes it",
    ),
    pytest.param(
        "standard", 2, GENERALS, 1, "6-6-6-6-5", "five_of_a_kind", 0, 0, {5: (30, 0)},
        id="Generał corrected to 0: the later +100 goes",
    ),
    pytest.param(
        "standard", 2, GENERALS, 1, "6-6-6-6-5", "chance", 0, 29, {5: (30, 0)},
        id="Generał moved to Szansa: Generał free, the later +100 goes",
    ),
    pytest.param(
        "standard", 1, JOKER, 2, "6-6-6-1-2", "chance", 0, 21, {3: (0, 100)},
        id="Szóstki freed: the later five 6s is no joker, its ful scores 0",
    ),
    pytest.param(
        "standard", 1, JOKER, 3, "6-6-6-6-6", "chance", 0, 30, {},
        id="the last turn: nothing later to keep",
    ),
    pytest.param(
        "ordered", 1, [("1-1-1-2-3", "ones"), ("2-2-3-4-5", "twos"), ("3-3-3-3-1", "threes")],
        1, "1-1-1-1-3", "ones", 0, 4, {},
        id="Gra po kolei: the dice of a turn, in its field",
    ),
    pytest.param(
        "triple", 1, [("6-6-6-6-6", "five_of_a_kind", 0), ("1-2-3-4-5", "large_straight", 2)],
        1, "6-6-6-6-6", "five_of_a_kind", 1, 50, {},
        id="triple: the turn moved to another column",
    ),
    pytest.param(
        "scandinavian", 2, [("1-1-2-2-3", "two_pairs"), ("5-5-6-6-1", "two_pairs")],
        1, "1-1-3-3-2", "two_pairs", 0, 8, {},
        id="scandinavian: another seat's same field is no obstacle",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("variant_id", "players", "turns", "seq", "dice", "field", "column", "points", "rescored"),
    ALLOWED,
)
def test_a_correction_that_changes_no_later_decision_is_accepted(
    variant_id, players, turns, seq, dice, field, column, points, rescored
):
    correction = correct(variant_id, players, turns, seq, dice, field, column)

    assert correction.index == seq - 1
    assert correction.after == TurnRecord(
        (seq - 1) % players, roll(dice), field, column, points, correction.after.extra_bonus
    )
    assert correction.before == played(variant_id, players, turns)[seq - 1]
    # Later turns keep their dice and fields; only the points the rules tie to earlier fields
    # change, each listed with what it was and what it is now.
    assert {r.index + 1: (r.after.points, r.after.extra_bonus) for r in correction.rescored} == (
        rescored
    )
    for r in correction.rescored:
        assert (r.before.dice, r.before.field, r.before.column) == (
            r.after.dice,
            r.after.field,
            r.after.column,
        )
        assert correction.turns[r.index] == r.after
    assert len(correction.turns) == len(turns)
    assert not correction.changes_nothing


def test_the_totals_follow_the_correction():
    """Ala's Generał corrected to 0 takes her later +100 with it: 50 + 100 points fewer."""
    records = played("standard", 2, GENERALS)
    before = restore_game(find_variant("standard"), 2, records)
    correction = correct("standard", 2, GENERALS, 1, "6-6-6-6-5", "five_of_a_kind")
    assert correction.state.scores == (before.scores[0] - 150, before.scores[1])
    assert correction.state.seat_figures(0).extra_bonuses == 0


REFUSED = [
    pytest.param(
        "standard", 2, GENERALS, 3, "2-2-3-3-3", "sixes", 0, CorrectionRefused,
        Code.FIELD_TAKEN_LATER, 5, None,
        id="the field a later turn of the seat wrote",
    ),
    pytest.param(
        "standard", 1, NOT_YET_JOKER, 2, "4-4-5-5-5", "fives", 0, CorrectionRefused,
        Code.LATER_TURN_REFUSED, 3, Code.JOKER_MUST_GO_LOWER,
        id="Piątki filled: the later five 5s becomes a joker, and a joker must go lower",
    ),
    pytest.param(
        "standard", 2, GENERALS, 3, "2-2-3-3-3", "five_of_a_kind", 0, MoveRefused,
        Code.FIELD_FILLED, None, None,
        id="the field an earlier turn wrote",
    ),
    pytest.param(
        "standard", 1, JOKER, 3, "6-6-6-6-6", "ones", 0, MoveRefused,
        Code.JOKER_MUST_GO_LOWER, None, None,
        id="the corrected turn itself: a joker in the upper section",
    ),
    pytest.param(
        "ordered", 1, [("1-1-1-2-3", "ones"), ("2-2-3-4-5", "twos")], 1, "1-1-1-2-3", "threes",
        0, MoveRefused, Code.NOT_NEXT_IN_ORDER, None, None,
        id="Gra po kolei: another field than the next in order",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    (
        "variant_id", "players", "turns", "seq", "dice", "field", "column", "error", "code",
        "later_seq", "cause",
    ),
    REFUSED,
)  # fmt: skip
def test_a_correction_that_would_change_a_later_decision_is_refused_with_a_code(
    variant_id, players, turns, seq, dice, field, column, error, code, later_seq, cause
):
    with pytest.raises(error) as refused:
        correct(variant_id, players, turns, seq, dice, field, column)

    assert type(refused.value) is error
    assert refused.value.code is code
    assert str(refused.value)  # a Polish sentence beside the code
    if error is CorrectionRefused:
        assert refused.value.later == later_seq - 1
        assert refused.value.cause is (cause or Code.FIELD_FILLED)
        assert f"ruch nr {later_seq}" in str(refused.value)


def test_a_later_turn_refused_says_why_in_its_own_words():
    with pytest.raises(CorrectionRefused) as refused:
        correct("standard", 1, NOT_YET_JOKER, 2, "4-4-5-5-5", "fives")
    assert str(refused.value).startswith("Po tej poprawce ruch nr 3 byłby niedozwolony: Joker")


@pytest.mark.parametrize(
    ("index", "dice", "field", "code"),
    [
        (6, "1-1-1-1-1", "chance", Code.NO_SUCH_TURN),
        (-1, "1-1-1-1-1", "chance", Code.NO_SUCH_TURN),
        (2, "1-1-1-1-1", "yahtzee", Code.UNKNOWN_FIELD),
        (2, "1-1-1-1-1", None, Code.UNKNOWN_FIELD),
    ],
    ids=["past the last turn", "before the first", "a field the table lacks", "no field"],
)
def test_input_the_rules_cannot_correct_with(index, dice, field, code):
    records = played("standard", 2, GENERALS)
    with pytest.raises(RulesError) as refused:
        correct_turn(find_variant("standard"), 2, None, records, index, roll(dice), field)
    assert refused.value.code is code
    assert not isinstance(refused.value, MoveRefused)


# --- dice poker --------------------------------------------------------------------------

# Ala, Ola, Ela; to two round wins. Round 1: Ala's full house wins; round 2 open.
POKER_HANDS = ["5-5-5-2-2", "6-6-2-2-1", "1-2-3-4-6", "3-3-3-1-2", "4-4-1-2-3"]


def poker_turns(hands: Sequence[str] = POKER_HANDS, target_wins: int = 2) -> list[TurnRecord]:
    match = PokerMatch(3, PokerOptions(target_wins))
    for hand in hands:
        match.play_turn(roll(hand))
    return list(match.turns)


@pytest.mark.parametrize(
    ("seq", "dice"),
    [(5, "6-6-6-6-1"), (1, "6-6-6-2-2"), (2, "6-6-3-3-1")],
    ids=[
        "a hand of the open round",
        "a decided round, the same winner",
        "a decided round, a losing hand for another losing hand",
    ],
)
def test_a_poker_hand_is_corrected_while_no_decided_round_changes(seq, dice):
    turns = poker_turns()
    correction = correct_turn(POKER_VARIANT, 3, PokerOptions(2), turns, seq - 1, roll(dice))
    assert correction.after == TurnRecord((seq - 1) % 3, roll(dice), None, 0, 0, 0)
    assert correction.rescored == ()
    state = correction.state
    assert isinstance(state, PokerMatch)
    assert state.scores == (1, 0, 0)
    assert [r.winners for r in state.rounds] == [(0,), None]


@pytest.mark.parametrize(
    ("seq", "dice", "round_number"),
    [(3, "6-6-6-6-6", 1), (2, "5-5-5-2-2", 1)],
    ids=["another winner", "a draw instead of a winner"],
)
def test_a_poker_hand_that_would_change_a_decided_round_is_refused(seq, dice, round_number):
    turns = poker_turns()
    with pytest.raises(CorrectionRefused) as refused:
        correct_turn(POKER_VARIANT, 3, PokerOptions(2), turns, seq - 1, roll(dice))
    assert refused.value.code is Code.ROUND_RESULT_CHANGES
    assert refused.value.round_number == round_number
    assert f"rundy {round_number}" in str(refused.value)


def test_a_poker_hand_takes_no_field():
    with pytest.raises(RulesError) as refused:
        correct_turn(POKER_VARIANT, 3, None, poker_turns(), 0, roll("6-6-6-6-6"), "chance")
    assert refused.value.code is Code.FIELD_IN_POKER


# --- where a turn could go instead ---------------------------------------------------------


def test_the_choices_are_the_fields_free_before_the_turn():
    turns = played("standard", 2, GENERALS)
    choices = correction_choices(find_table_variant("standard"), 2, None, turns, 2)
    by_field = {c.field: c for c in choices}
    # Ala had written only Generał before her turn 3.
    assert "five_of_a_kind" not in by_field
    assert len(choices) == 12
    assert by_field["full_house"].current
    assert sum(c.current for c in choices) == 1
    taken = by_field["sixes"]
    assert (taken.reason_code, taken.later) == (Code.FIELD_TAKEN_LATER, 4)
    assert not taken.allowed
    assert [c.field for c in choices if not c.allowed] == ["sixes"]


def test_in_gra_po_kolei_only_the_next_field_is_a_choice():
    turns = played("ordered", 1, [("1-1-1-2-3", "ones"), ("2-2-3-4-5", "twos")])
    choices = correction_choices(find_table_variant("ordered"), 1, None, turns, 1)
    assert [c.field for c in choices if c.allowed] == ["twos"]
    assert {c.reason_code for c in choices if not c.allowed} == {Code.NOT_NEXT_IN_ORDER}


def test_triple_choices_name_their_column():
    turns = played("triple", 1, [("6-6-6-6-6", "five_of_a_kind", 0), ("1-2-3-4-5", "chance", 2)])
    choices = correction_choices(find_table_variant("triple"), 1, None, turns, 0)
    assert len(choices) == 39
    taken = [(c.column, c.field) for c in choices if not c.allowed]
    assert taken == [(2, "chance")]


# --- properties -----------------------------------------------------------------------------


@PROPERTY
@given(game=any_game, data=st.data())
def test_a_turn_corrected_to_itself_changes_nothing(game, data):
    if not game.turns:
        return
    index = data.draw(st.integers(0, len(game.turns) - 1))
    turn = game.turns[index]
    correction = correct_turn(
        game.variant, game.players, game.options, game.turns, index, turn.dice, turn.field,
        turn.column,
    )  # fmt: skip
    assert correction.changes_nothing
    assert correction.after == turn
    assert correction.rescored == ()
    assert snapshot(correction.state) == snapshot(game)


def _replacement(game: TableGame | PokerMatch, index: int, data: st.DataObject) -> TurnRecord:
    """Another turn for the same seat: any roll, in any field free then (allowed or not)."""
    dice = data.draw(rolls)
    if isinstance(game, PokerMatch):
        return TurnRecord(game.turns[index].seat, dice, None, 0, 0, 0)
    before = restore_game(game.variant, game.players, game.turns[:index], game.options)
    assert isinstance(before, TableGame)
    move = data.draw(st.sampled_from(before.evaluate(dice).placements))
    return TurnRecord(game.turns[index].seat, dice, move.field, move.column, 0, 0)


def _round_results(game: TableGame | PokerMatch) -> list[object]:
    return [r.winners for r in game.rounds if r.complete] if isinstance(game, PokerMatch) else []


@settings(PROPERTY, max_examples=examples(150))
@given(game=any_game, data=st.data())
def test_a_correction_is_the_game_replayed_with_the_corrected_turn(game, data):
    """Accepted: the state is the corrected list replayed from the dice, and restored from the
    corrected records; `rescored` lists exactly the later turns whose points changed. Refused:
    exactly when that replay is refused (a table) or decides a round otherwise (poker)."""
    if not game.turns:
        return
    index = data.draw(st.integers(0, len(game.turns) - 1))
    new = _replacement(game, index, data)
    corrected = as_turns(game.turns)
    corrected[index] = (new.dice, new.field, new.column)
    try:
        replayed = replay_game(game.variant, game.players, corrected, game.options)
    except MoveRefused:
        replayed = None
    correction: Correction | MoveRefused
    try:
        correction = correct_turn(
            game.variant, game.players, game.options, game.turns, index, new.dice, new.field,
            new.column,
        )  # fmt: skip
    except MoveRefused as exc:
        correction = exc
    if isinstance(correction, CorrectionRefused):  # a later turn, or a decided round
        assert correction.later is None or correction.later > index
        assert replayed is None or _round_results(replayed) != _round_results(game)
        return
    if isinstance(correction, MoveRefused):  # the corrected turn itself, refused as then
        with pytest.raises(MoveRefused):
            replay_game(game.variant, game.players, corrected[: index + 1], game.options)
        return
    assert replayed is not None
    assert _round_results(replayed) == _round_results(game)
    restored = restore_game(game.variant, game.players, correction.turns, game.options)
    assert snapshot(correction.state) == snapshot(replayed) == snapshot(restored)
    changed = [
        i
        for i, (old, now) in enumerate(zip(game.turns, correction.turns, strict=True))
        if i > index and old != now
    ]
    assert [r.index for r in correction.rescored] == changed
    for old, now in zip(game.turns, correction.turns, strict=True):
        assert (old.seat, old.field, old.column) == (now.seat, now.field, now.column) or (
            now == correction.after
        )
