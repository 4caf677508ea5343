"""Finished games with known answers for the statistics tests, played through the services.

Every game is played turn by turn through `tracker.services.games.record_turn`, so the cached
figures the statistics read are the ones real play writes; only the moment each game finished
is then set by hand, to test the date filters.

The family (Kowalscy), in the order the games finished (UTC):

| game | when (UTC)        | variant      | seats and totals                   | winners          |
|------|-------------------|--------------|------------------------------------|------------------|
| G1   | 2025-03-01 18:00  | standard     | Ala 308, Ola 294                   | Ala              |
| G2   | 2025-03-15 18:00  | standard     | Ala 294, Ola 294                   | Ala, Ola (tie)   |
| G3   | 2025-03-31 22:30  | standard     | Ala 258, Ola 418, Jan 267          | Ola              |
| G4   | 2025-04-20 18:00  | standard     | Jan 317 (alone)                    | Jan              |
| G5   | 2025-05-05 18:00  | poker        | Ala 0, Jan 1 (round wins)          | Jan              |
| G6   | 2025-05-10 18:00  | scandinavian | Ola 247, Jan 297                   | Jan              |
| G7   | 2025-05-20 18:00  | poker        | Ola 0, Jan 1                       | Jan              |
| G8   | unfinished        | standard     | Ala, Ola, one round played         | –                |

G3 ended at 00:30 on 1 April in Warsaw (summer time began on 30 March): it is an April game.
Ola's 418 in G3 has two Generały and an extra +100; Jan's winning streak is G5–G7 (3), his solo
G4 does not extend it.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from tracker import rules
from tracker.extensions import db
from tracker.models import Account, Game, name_key
from tracker.services import games

Turns = list[tuple[str, str]]

NEVER_GENERAL = "12256"  # fits no field of the lower section: writes 0 there


def standard_sheet(
    chance: str = "65432", *, general: bool = True, bonus: bool = True, joker: bool = False
) -> Turns:
    """Thirteen turns on the Polish table. The default scores 308: upper 63 + 35, lower 210.

    `chance`: the dice written in Szansa (their sum). `general=False` crosses the Generał out
    (−50), `bonus=False` writes 12 instead of 18 in Szóstki (−6 and no upper bonus, −35),
    `joker=True` writes a second 66666 in Szansa (a joker for 30, plus the extra +100)."""
    return [
        ("11123", "ones"),
        ("22245", "twos"),
        ("33316", "threes"),
        ("44425", "fours"),
        ("55531", "fives"),
        ("66612" if bonus else "66123", "sixes"),
        ("44456", "three_of_a_kind"),
        ("55552", "four_of_a_kind"),
        ("33322", "full_house"),
        ("12346", "small_straight"),
        ("23456", "large_straight"),
        ("66666" if general else NEVER_GENERAL, "five_of_a_kind"),
        ("66666" if joker else chance, "chance"),
    ]


def scandinavian_sheet(*, general: bool = True) -> Turns:
    """Fifteen turns on the Scandinavian table: 297, or 247 with the Generał crossed out."""
    return [
        ("11123", "ones"),
        ("22245", "twos"),
        ("33316", "threes"),
        ("44425", "fours"),
        ("55531", "fives"),
        ("66612", "sixes"),
        ("66123", "pair"),
        ("66553", "two_pairs"),
        ("44412", "three_of_a_kind"),
        ("55552", "four_of_a_kind"),
        ("12345", "small_straight"),
        ("23456", "large_straight"),
        ("33322", "full_house"),
        ("65432", "chance"),
        ("66666" if general else NEVER_GENERAL, "five_of_a_kind"),
    ]


SHEETS: dict[str, Turns] = {
    "best": standard_sheet(),  # 308
    "low_chance": standard_sheet("11112"),  # 294
    "no_general": standard_sheet(general=False),  # 258
    "two_generals": standard_sheet(joker=True),  # 418
    "no_bonus": standard_sheet(bonus=False),  # 267
    "high_chance": standard_sheet("66665"),  # 317
}
EXPECTED_TOTALS = {
    "best": 308,
    "low_chance": 294,
    "no_general": 258,
    "two_generals": 418,
    "no_bonus": 267,
    "high_chance": 317,
}


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def new_account(name: str) -> int:
    db.session.add(Account(name=name, name_key=name_key(name), password_hash="!"))
    db.session.commit()
    return db.session.query(Account.id).filter(Account.name == name).scalar()


def play_table_game(
    account_id: int, variant: str, sheets: dict[str, Any], finished: str | None
) -> int:
    """Play every seat's turns round by round; then date the end (or stop early: None)."""
    game = games.create_game(account_id, variant, list(sheets))
    rounds = list(zip(*sheets.values(), strict=True))
    if finished is None:
        rounds = rounds[:1]
    for round_turns in rounds:
        for dice, field, *column in round_turns:
            games.record_turn(account_id, game.id, dice, field, column[0] if column else None)
    if finished is not None:
        _finish_at(game.id, finished)
    return game.id


def play_poker_match(
    account_id: int, hands: dict[str, list[str]], finished: str, target_wins: int = 1
) -> int:
    game = games.create_game(account_id, rules.POKER, list(hands), {"target_wins": target_wins})
    for round_hands in zip(*hands.values(), strict=True):
        for dice in round_hands:
            games.record_turn(account_id, game.id, dice)
    _finish_at(game.id, finished)
    return game.id


def _finish_at(game_id: int, moment: str) -> None:
    finished = db.session.scalar(select(Game.finished_at).where(Game.id == game_id))
    assert finished is not None, "the game should be over"
    db.session.execute(update(Game).where(Game.id == game_id).values(finished_at=at(moment)))
    db.session.commit()


def build_family(account_id: int) -> dict[str, int]:
    s = SHEETS
    ids = {
        "G1": play_table_game(
            account_id, "standard", {"Ala": s["best"], "Ola": s["low_chance"]}, "2025-03-01 18:00"
        ),
        "G2": play_table_game(
            account_id,
            "standard",
            {"Ala": s["low_chance"], "Ola": s["low_chance"]},
            "2025-03-15 18:00",
        ),
        "G3": play_table_game(
            account_id,
            "standard",
            {"Ala": s["no_general"], "Ola": s["two_generals"], "Jan": s["no_bonus"]},
            "2025-03-31 22:30",
        ),
        "G4": play_table_game(
            account_id, "standard", {"Jan": s["high_chance"]}, "2025-04-20 18:00"
        ),
        "G5": play_poker_match(
            account_id, {"Ala": ["11234"], "Jan": ["66666"]}, "2025-05-05 18:00"
        ),
        "G6": play_table_game(
            account_id,
            "scandinavian",
            {"Ola": scandinavian_sheet(general=False), "Jan": scandinavian_sheet()},
            "2025-05-10 18:00",
        ),
        "G7": play_poker_match(
            account_id, {"Ola": ["22345"], "Jan": ["55556"]}, "2025-05-20 18:00"
        ),
        "G8": play_table_game(
            account_id, "standard", {"Ala": s["best"], "Ola": s["best"]}, finished=None
        ),
    }
    return ids


def triple_sheet() -> list[tuple[str, str, int]]:
    """Kości potrójne alone: the same 308 sheet in each of the three columns (× 1, 2, 3)."""
    return [(dice, field, column) for column in range(3) for dice, field in standard_sheet()]


def random_games(
    account_id: int, names: list[str], count: int, first: datetime, seed: int = 7
) -> None:
    """`count` standard games of two to all of `names`, a few days apart, played the way people
    play: up to three rolls keeping the most common face, then the free field that scores most
    (crossing out the least valuable one when nothing fits)."""
    rng = random.Random(seed)
    variant = rules.TABLE_VARIANTS["standard"]
    for n in range(count):
        seated = rng.sample(names, rng.randint(2, len(names)))
        game = games.create_game(account_id, "standard", seated)
        table = rules.TableGame(variant, len(seated))
        while not table.finished:
            dice = _roll_keeping_the_most_common(rng)
            moves = table.evaluate(dice).moves
            scoring = [m for m in moves if m.points]
            if scoring:
                move = max(scoring, key=lambda m: m.gain)
            else:
                move = min(moves, key=lambda m: variant.table.max_points[m.field])
            table.play(dice, move.field)
            games.record_turn(account_id, game.id, "".join(map(str, dice)), move.field)
        _finish_at(game.id, (first + timedelta(days=3 * n, hours=rng.randint(0, 5))).isoformat(" "))


def _roll_keeping_the_most_common(rng: random.Random) -> tuple[int, int, int, int, int]:
    dice = [rng.randint(1, 6) for _ in range(5)]
    for _ in range(2):
        face = max(range(1, 7), key=lambda f: (dice.count(f), f))
        kept = [d for d in dice if d == face]
        dice = kept + [rng.randint(1, 6) for _ in range(5 - len(kept))]
    return (dice[0], dice[1], dice[2], dice[3], dice[4])
