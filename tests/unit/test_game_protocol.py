"""One protocol for every game: play a turn, undo it, whose turn, who won, seat figures.

The properties: undo gives back exactly the state of the game one turn shorter, restoring from
stored turns gives the state replaying the dice gives, and the seat figures statistics keep are
those a player would count on the paper sheet. For tables and for poker alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.rules import (
    POKER_VARIANT,
    TABLE_VARIANTS,
    Code,
    GameState,
    MoveRefused,
    Options,
    PokerMatch,
    PokerOptions,
    RulesError,
    SeatFigures,
    TableGame,
    TurnRecord,
    find_variant,
    rank,
    replay_game,
    restore_game,
    start_game,
)

from .builders import roll

PROPERTY = settings(
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

any_roll = st.tuples(*[st.integers(1, 6)] * 5)
five_of_a_kind = st.integers(1, 6).map(lambda face: (face,) * 5)
rolls = st.one_of(any_roll, five_of_a_kind)
few_faces = st.tuples(*[st.integers(4, 6)] * 5)  # poker: draws and close hands are common


@st.composite
def table_games(draw, *, max_players: int = 3) -> TableGame:
    """A table game after random legal turns, every seat choosing among the allowed moves."""
    variant = draw(st.sampled_from(list(TABLE_VARIANTS.values())))
    players = draw(st.integers(1, max_players))
    options = Options(bonus_threshold=draw(st.sampled_from(variant.bonus_thresholds)))
    game = TableGame(variant, players, options)
    for _ in range(draw(st.integers(0, game.total_turns))):
        dice = draw(rolls)
        move = draw(st.sampled_from(game.evaluate(dice).moves))
        game.play(dice, move.field, move.column)
    return game


@st.composite
def poker_matches(draw) -> PokerMatch:
    match = PokerMatch(draw(st.integers(2, 4)), PokerOptions(draw(st.integers(1, 3))))
    for _ in range(draw(st.integers(0, 24))):
        if match.finished:
            break
        match.play_turn(draw(st.one_of(few_faces, rolls)))
    return match


any_game = st.one_of(table_games(), poker_matches())


def snapshot(game: TableGame | PokerMatch) -> tuple[object, ...]:
    """Everything a caller can see of a game, protocol and kind-specific state alike."""
    seen: tuple[object, ...] = (
        game.variant,
        game.players,
        game.options,
        list(game.turns),
        game.current_seat,
        game.finished,
        game.winners,
        game.places,
        game.scores,
        game.round,
        game.next_seq,
        [game.seat_figures(seat) for seat in range(game.players)],
    )
    if isinstance(game, TableGame):
        return (*seen, list(game.sheets), [game.totals(s) for s in range(game.players)])
    return (*seen, list(game.rounds), list(game.round_wins), game.current_round)


def as_turns(records: Sequence[TurnRecord]) -> list[tuple[object, str | None, int]]:
    return [(r.dice, r.field, r.column) for r in records]


# --- the protocol ---------------------------------------------------------------------------


PROTOCOL = sorted(name for name in vars(GameState) if not name.startswith("_"))


@pytest.mark.parametrize("kind", [TableGame, PokerMatch], ids=["table", "poker"])
def test_both_kinds_implement_every_member_of_the_protocol(kind):
    game = start_game(find_variant("standard" if kind is TableGame else "poker"), 2)
    assert isinstance(game, kind)
    assert PROTOCOL  # variant, players, ..., play_turn, undo, seat_figures, copy
    for name in PROTOCOL:
        assert hasattr(game, name), name


@pytest.mark.parametrize(
    ("variant_id", "players", "options", "kind"),
    [
        ("standard", 1, None, TableGame),
        ("ordered", 3, Options(bonus_threshold=42), TableGame),
        ("triple", 2, None, TableGame),
        ("poker", 2, None, PokerMatch),
        ("poker", 8, PokerOptions(target_wins=5), PokerMatch),
    ],
    ids=["standard alone", "ordered at 42", "triple", "poker", "poker to five wins"],
)
def test_start_game_decides_the_kind_once(variant_id, players, options, kind):
    game = start_game(find_variant(variant_id), players, options)
    assert type(game) is kind
    assert (game.players, game.current_seat, game.round, game.next_seq) == (players, 0, 1, 1)
    assert game.variant is find_variant(variant_id)
    assert not game.finished
    assert game.winners == ()
    assert game.turns == []
    if options is not None:
        assert game.options == options


@pytest.mark.parametrize(
    ("variant_id", "options"),
    [("standard", PokerOptions()), ("poker", Options())],
    ids=["table with poker options", "poker with table options"],
)
def test_start_game_refuses_options_of_the_other_kind(variant_id, options):
    with pytest.raises(TypeError):
        start_game(find_variant(variant_id), 2, options)


@pytest.mark.parametrize(
    ("variant_id", "players", "message"),
    [
        ("standard", 0, "W grze bierze udział od 1 do 8 graczy."),
        ("standard", 9, "W grze bierze udział od 1 do 8 graczy."),
        ("poker", 1, "W pokera gra od 2 do 8 graczy."),
    ],
    ids=["table: nobody", "table: nine", "poker: alone"],
)
def test_start_game_refuses_a_player_count_the_variant_does_not_allow(variant_id, players, message):
    with pytest.raises(RulesError, match=message) as refused:
        start_game(find_variant(variant_id), players)
    assert refused.value.code is Code.PLAYER_COUNT


@pytest.mark.parametrize("variant_id", ["standard", "poker"], ids=["table", "poker"])
def test_nothing_to_undo_at_the_start(variant_id):
    game = start_game(find_variant(variant_id), 2)
    with pytest.raises(RulesError, match="Nie ma czego cofać: to początek gry.") as refused:
        game.undo()
    assert refused.value.code is Code.NOTHING_TO_UNDO


def test_poker_takes_dice_only():
    match = start_game(POKER_VARIANT, 2)
    with pytest.raises(RulesError) as refused:
        match.play_turn(roll("6-6-6-6-6"), "chance")
    assert str(refused.value) == "W pokerze kościanym podaje się tylko kości, bez pola tabeli."
    assert refused.value.code is Code.FIELD_IN_POKER
    assert match.turns == []


def test_a_table_turn_needs_a_field():
    game = start_game(find_variant("standard"), 1)
    with pytest.raises(RulesError, match="Pola None nie ma w tabeli") as refused:
        game.play_turn(roll("6-6-6-6-6"))
    assert refused.value.code is Code.UNKNOWN_FIELD


def test_a_poker_turn_is_a_record_without_field_or_points():
    match = start_game(POKER_VARIANT, 2)
    first = match.play_turn(roll("6-6-6-6-1"))
    second = match.play_turn(roll("2-2-3-3-4"))
    assert first == TurnRecord(0, roll("6-6-6-6-1"), None, 0, 0, 0)
    assert second.seat == 1
    assert match.scores == (1, 0)
    assert match.round == 2
    assert match.next_seq == 3
    assert match.seat_figures(0) == SeatFigures(
        total=1, upper_bonuses=0, generals=0, extra_bonuses=0
    )


def test_seat_figures_of_a_table_seat():
    game = start_game(find_variant("standard"), 1)
    for dice, field in [
        ("6-6-6-6-6", "five_of_a_kind"),
        ("6-6-6-6-6", "sixes"),  # +100: another Generał with 50 in the Generał field
        ("5-5-5-5-1", "fives"),
        ("4-4-4-4-1", "fours"),
        ("1-1-1-1-1", "chance"),  # +100 again, and a joker
    ]:
        game.play_turn(roll(dice), field)
    assert game.seat_figures(0) == SeatFigures(
        total=50 + 30 + 20 + 16 + 35 + 5 + 200, upper_bonuses=1, generals=3, extra_bonuses=2
    )


def test_undo_a_decided_poker_round_takes_its_win_back():
    match = start_game(POKER_VARIANT, 2, PokerOptions(target_wins=1))
    match.play_turn(roll("6-6-6-6-6"))
    match.play_turn(roll("1-2-3-4-6"))
    assert match.finished
    assert match.winners == (0,)
    assert match.current_seat is None
    assert match.undo() == TurnRecord(1, roll("1-2-3-4-6"), None, 0, 0, 0)
    assert not match.finished
    assert match.scores == (0, 0)
    assert match.current_seat == 1
    assert match.rounds[-1].ranking is None


def test_restore_refuses_poker_turns_out_of_seating_order():
    record = TurnRecord(1, roll("6-6-6-6-6"), None, 0, 0, 0)
    with pytest.raises(RulesError, match="nie idą po kolei") as refused:
        restore_game(POKER_VARIANT, 2, [record])
    assert refused.value.code is Code.TURNS_OUT_OF_ORDER


# --- properties -----------------------------------------------------------------------------


@PROPERTY
@given(game=any_game, data=st.data())
def test_undo_gives_exactly_the_state_of_the_shorter_game(game, data):
    played = list(game.turns)
    back = data.draw(st.integers(0, len(played)))
    undone = [game.undo() for _ in range(back)]
    assert undone == played[len(played) - back :][::-1]
    shorter = replay_game(
        game.variant, game.players, as_turns(played[: len(played) - back]), game.options
    )
    assert snapshot(game) == snapshot(shorter)


@PROPERTY
@given(game=any_game, data=st.data())
def test_undo_then_the_same_turn_again_is_the_same_game(game, data):
    if not game.turns:
        return
    before = snapshot(game)
    record = game.undo()
    game.play_turn(record.dice, record.field, record.column)
    assert snapshot(game) == before


@PROPERTY
@given(game=any_game)
def test_restore_from_stored_turns_is_replay_of_the_dice(game):
    restored = restore_game(game.variant, game.players, game.turns, game.options)
    replayed = replay_game(game.variant, game.players, as_turns(game.turns), game.options)
    assert snapshot(restored) == snapshot(replayed) == snapshot(game)


@PROPERTY
@given(game=any_game, dice=rolls)
def test_a_copy_is_independent(game, dice):
    before = snapshot(game)
    other = game.copy()
    assert snapshot(other) == before
    if other.turns:
        other.undo()
    elif isinstance(other, PokerMatch):
        other.play_turn(dice)
    assert snapshot(game) == before


@PROPERTY
@given(game=table_games())
def test_play_turn_writes_what_play_announces(game):
    """The fast path (no pricing) and the priced one write the same points and bonus."""
    fast = TableGame(game.variant, game.players, game.options)
    priced = TableGame(game.variant, game.players, game.options)
    for record in game.turns:
        placement = priced.play(record.dice, record.field, record.column)
        written = fast.play_turn(record.dice, record.field, record.column)
        assert written == record
        assert (placement.points, placement.extra_bonus) == (written.points, written.extra_bonus)
    assert fast.sheets == priced.sheets == game.sheets


@PROPERTY
@given(game=table_games())
def test_each_turns_rise_is_the_gain_it_was_priced_at_and_they_add_up_to_the_totals(game):
    """`rise(i)`: what the i-th turn added to its player's total when written, as `play`
    priced it before the choice; a seat's rises add up to its total."""
    replayed = TableGame(game.variant, game.players, game.options)
    for index, record in enumerate(game.turns):
        placement = replayed.play(record.dice, record.field, record.column)
        assert game.rise(index) == placement.gain
        assert replayed.rise() == placement.gain  # the last turn, as the flash asks
    for seat in range(game.players):
        rises = sum(game.rise(i) for i, t in enumerate(game.turns) if t.seat == seat)
        assert rises == game.scores[seat]


@PROPERTY
@given(game=table_games())
def test_table_seat_figures_are_what_the_paper_shows(game):
    variant, threshold = game.variant, game.options.bonus_threshold
    for seat in range(game.players):
        sheet = game.sheets[seat]
        uppers = [sum(col.cells.get(f.id, 0) for f in variant.table.upper_fields) for col in sheet]
        figures = game.seat_figures(seat)
        assert figures.total == game.scores[seat]
        assert figures.upper_bonuses == sum(1 for upper in uppers if upper >= threshold)
        assert figures.generals == sum(
            1 for t in game.turns if t.seat == seat and len(set(t.dice)) == 1
        )
        assert figures.extra_bonuses * 100 == sum(col.extra_bonus for col in sheet)
    if game.finished:
        best = max(game.scores)
        assert game.winners == tuple(s for s, total in enumerate(game.scores) if total == best)
        assert all(game.places[s] == 1 for s in game.winners)
    else:
        assert game.winners == ()
        assert game.current_seat == len(game.turns) % game.players


@PROPERTY
@given(match=poker_matches())
def test_poker_round_wins_count_the_rounds_each_seat_won_alone(match):
    hands = [t.dice for t in match.turns]
    wins = [0] * match.players
    for start in range(0, len(hands) - match.players + 1, match.players):
        ranking = rank(hands[start : start + match.players])
        if not ranking.draw:
            wins[ranking.winners[0]] += 1
    assert match.scores == tuple(wins)
    assert [match.seat_figures(s).total for s in range(match.players)] == wins
    assert match.finished is (max(wins) >= match.options.target_wins)
    assert match.winners == ((wins.index(max(wins)),) if match.finished else ())
    assert match.next_seq == len(hands) + 1
    assert match.current_seat == (None if match.finished else len(hands) % match.players)
    full_rounds, open_hands = divmod(len(hands), match.players)
    assert match.round == full_rounds + (1 if open_hands or not match.finished else 0)


def test_replay_refuses_an_illegal_turn_as_play_does():
    with pytest.raises(MoveRefused) as refused:
        replay_game(find_variant("ordered"), 1, [(roll("1-1-1-1-1"), "chance", 0)])
    assert refused.value.code is Code.NOT_NEXT_IN_ORDER
