"""A family's game history for the history and export/import tests, played through the services.

Every turn goes through `tracker.services.games.record_turn` (undos through `undo_last_turn`),
so the rows are exactly what real play writes; only the moments a game started and finished are
set by hand afterwards, to give the history a known order and the date filters known answers.

The Kowalscy, oldest game first:

| key          | started (UTC)    | variant            | seats           | state                   |
|--------------|------------------|--------------------|-----------------|-------------------------|
| tie          | 2025-03-01 18:00 | standard           | Ala, Ola        | finished, tie; 1 undo   |
| ordered      | 2025-03-15 18:00 | ordered, bonus 42  | Ola             | finished                |
| scandinavian | 2025-04-01 18:00 | scandinavian       | Jan, Ala        | finished                |
| poker        | 2025-05-01 21:30 | poker, to 2 wins   | Ala, Łucja, Jan | finished; draw; 2 undos |
| triple       | 2025-05-01 22:30 | triple             | Ala             | unfinished; 1 undo      |
| rematch      | 2025-06-01 18:00 | standard (rematch) | Ola, Ala        | unfinished, 3 turns     |

21:30 UTC on 1 May is 23:30 in Warsaw (1 May), 22:30 UTC is 00:30 on 2 May.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from sqlalchemy import select, update

from tracker.extensions import db
from tracker.models import Game, Turn
from tracker.services import accounts, games

PASSWORD = "tajne hasło 123"

# Thirteen turns that fill the Polish table in table order (so Gra po kolei accepts them).
STANDARD_SHEET = [
    ("11123", "ones"),
    ("22245", "twos"),
    ("33316", "threes"),
    ("44425", "fours"),
    ("55531", "fives"),
    ("66612", "sixes"),
    ("44456", "three_of_a_kind"),
    ("55552", "four_of_a_kind"),
    ("33322", "full_house"),
    ("12346", "small_straight"),
    ("23456", "large_straight"),
    ("66666", "five_of_a_kind"),
    ("65432", "chance"),
]

# Poker to 2 round wins, Ala, Łucja, Jan: round 1 Ala (Generał), round 2 a draw (three equal
# large straights), round 3 Jan, round 4 Ala: she has 2 wins and the match.
POKER_HANDS = [
    "66666", "22345", "11234",
    "23456", "65432", "34562",
    "12346", "22335", "55511",
    "44441", "33312", "22215",
]  # fmt: skip


def new_account(name: str) -> int:
    return accounts.create_account(name, PASSWORD).id


def play(account_id: int, game_id: int, turns: list[tuple[str, str]], column: int = 0) -> None:
    for dice, field in turns:
        games.record_turn(account_id, game_id, dice, field, column)


def play_hands(account_id: int, game_id: int, hands: list[str]) -> None:
    for dice in hands:
        games.record_turn(account_id, game_id, dice)


def play_out(account_id: int, game_id: int, *, seed: int, turns: int | None = None) -> None:
    """Random rolls, each written in the first field the rules allow, until the game is over
    (or `turns` turns are written)."""
    rng = random.Random(seed)
    written = 0
    while turns is None or written < turns:
        view = games.load(account_id, game_id)
        if view.finished:
            return
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        move = view.table.evaluate(dice).moves[0]
        games.record_turn(account_id, game_id, list(dice), move.field, move.column)
        written += 1


def set_times(game_id: int, started: datetime) -> None:
    """Move a game to `started` (UTC): its turns follow a minute apart, an undo 30 s after the
    turn it took back, and a finished game ends with its last turn in force."""
    db.session.expire_all()  # as a new request would: read what the services wrote
    db.session.execute(update(Game).where(Game.id == game_id).values(started_at=started))
    log = db.session.scalars(select(Turn).where(Turn.game_id == game_id).order_by(Turn.id)).all()
    for number, turn in enumerate(log, 1):
        turn.created_at = started + timedelta(minutes=number)
        if turn.undone_at is not None:
            turn.undone_at = turn.created_at + timedelta(seconds=30)
    game = db.session.get(Game, game_id)
    assert game is not None
    if game.finished_at is not None:
        game.finished_at = started + timedelta(minutes=len(log), seconds=5)
    db.session.commit()


def build_family(account_id: int) -> dict[str, int]:
    """The games of the module docstring; returns their ids by key."""
    ids: dict[str, int] = {}

    tie = games.create_game(account_id, "standard", ["Ala", "Ola"])
    play(account_id, tie.id, [STANDARD_SHEET[0], STANDARD_SHEET[0]])
    games.record_turn(account_id, tie.id, "66612", "three_of_a_kind")  # Ala's slip...
    games.undo_last_turn(account_id, tie.id)  # ...taken back
    for turn in STANDARD_SHEET[1:]:
        play(account_id, tie.id, [turn, turn])
    ids["tie"] = tie.id

    ordered = games.create_game(account_id, "ordered", ["Ola"], {"bonus_threshold": 42})
    play(account_id, ordered.id, STANDARD_SHEET)
    ids["ordered"] = ordered.id

    scandinavian = games.create_game(account_id, "scandinavian", ["Jan", "Ala"])
    play_out(account_id, scandinavian.id, seed=7)
    ids["scandinavian"] = scandinavian.id

    poker = games.create_game(account_id, "poker", ["Ala", "Łucja", "Jan"], {"target_wins": 2})
    play_hands(account_id, poker.id, POKER_HANDS[:3])
    games.undo_last_turn(account_id, poker.id)  # back across the end of round 1
    play_hands(account_id, poker.id, POKER_HANDS[2:])
    games.undo_last_turn(account_id, poker.id)  # back from the end of the match
    play_hands(account_id, poker.id, POKER_HANDS[-1:])
    ids["poker"] = poker.id

    triple = games.create_game(account_id, "triple", ["Ala"])
    play(account_id, triple.id, [("66666", "five_of_a_kind")], column=2)
    play_out(account_id, triple.id, seed=3, turns=4)
    games.undo_last_turn(account_id, triple.id)
    ids["triple"] = triple.id

    db.session.expire_all()  # the rematch comes in a new request, which sees the game over
    rematch = games.rematch(account_id, tie.id)
    play(account_id, rematch.id, [("11123", "ones"), ("22245", "twos"), ("33316", "threes")])
    ids["rematch"] = rematch.id

    set_times(ids["tie"], datetime(2025, 3, 1, 18))
    set_times(ids["ordered"], datetime(2025, 3, 15, 18))
    set_times(ids["scandinavian"], datetime(2025, 4, 1, 18))
    set_times(ids["poker"], datetime(2025, 5, 1, 21, 30))
    set_times(ids["triple"], datetime(2025, 5, 1, 22, 30))
    set_times(ids["rematch"], datetime(2025, 6, 1, 18))
    return ids
