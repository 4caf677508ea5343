"""One pass over the games: winning streaks and head-to-head.

A winning streak is of games won against someone: one-player games neither extend nor break one
(they could only ever extend one). A shared win counts as a win for each winner.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from sqlalchemy import String, case, cast, func, select

from ...extensions import db
from ...models import Game, GameSeat
from ..filters import GameFilter
from .query import finished_at, games_in, names, rows, sort_key
from .results import Pair, Streak

# A row of `game_results`: a game's id, the ids of its players and of its winners, each list
# joined with commas ("3,5,8" and "5"; the winners empty or NULL for none).
GameResult = tuple[int, str, str | None]


def _id_list(column: Any) -> Any:
    """SQL: the ids of a group joined with commas."""
    if db.engine.dialect.name == "postgresql":
        return func.string_agg(cast(column, String), ",")
    return func.group_concat(column)


def game_results(account_id: int, f: GameFilter) -> Sequence[GameResult]:
    """One row per filtered game, in the order the games finished.

    A winning streak is a sequence: counting one needs every game of a player in order, which
    SQL does with window functions sorting all the seats (measured: about three times slower
    than this at 10,000 games, see docs/benchmarks.md). The database sends the players and the
    winners of each game as two short lists instead, and the streaks and the head-to-head
    counts are added up here in one pass.
    """
    query = (
        select(
            Game.id,
            _id_list(GameSeat.player_id),
            _id_list(case((GameSeat.is_winner, GameSeat.player_id), else_=None)),
        )
        .select_from(Game)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .where(*games_in(account_id, f))
        # In the order of the index on (account, finished_at): grouped without a sort.
        .group_by(Game.finished_at, Game.id)
        .order_by(Game.finished_at, Game.id)
    )
    return rows(query)


def longest_streaks(
    account_id: int, f: GameFilter, player_id: int | None = None
) -> dict[int, Streak]:
    """Each player's longest run of games won in a row (the earliest of equal runs), over the
    filtered games against someone, in the order they finished; only `player_id`'s if given."""
    return streaks_of(game_results(account_id, f), player_id)


def streaks_of(results: Sequence[GameResult], player_id: int | None = None) -> dict[int, Streak]:
    """Each player's longest winning streak in the rows of `game_results` (see
    `longest_streaks`)."""
    only = None if player_id is None else str(player_id)
    length: dict[str, int] = defaultdict(int)  # the run going on, per player
    start: dict[str, int] = {}  # where it began
    best: dict[str, tuple[int, int, int]] = {}  # player -> (length, first game, last game)
    for index, (_, players, winners) in enumerate(results):
        if "," not in players:  # a game alone neither extends nor breaks a streak
            continue
        won = winners.split(",") if winners else ()
        for player in players.split(",") if only is None else (only,):
            if player in won:
                n = length[player] = length[player] + 1
                if n == 1:
                    start[player] = index
                if n > best.get(player, (0,))[0]:
                    best[player] = (n, start[player], index)
            else:
                length[player] = 0
    return _dated(best, results)


def _dated(
    best: dict[str, tuple[int, int, int]], results: Sequence[GameResult]
) -> dict[int, Streak]:
    """The streaks found, with their players' names and the moments they began and ended."""
    if not best:
        return {}
    # Only the games that begin or end a streak are looked up, to date it.
    ids = {results[i][0] for _, first, last in best.values() for i in (first, last)}
    moments = dict(
        db.session.execute(select(Game.id, Game.finished_at).where(Game.id.in_(ids))).all()
    )
    who = names(int(p) for p in best)
    return {
        int(p): Streak(
            int(p),
            who[int(p)],
            n,
            finished_at(moments[results[first][0]]),
            finished_at(moments[results[last][0]]),
        )
        for p, (n, first, last) in best.items()
    }


def head_to_head(account_id: int, f: GameFilter, player_id: int | None = None) -> list[Pair]:
    """Every pair of players who played together (with `player_id` only, when given): their
    games together and the wins of each, most games together first."""
    return pairs_of(game_results(account_id, f), player_id)


def pairs_of(results: Sequence[GameResult], player_id: int | None = None) -> list[Pair]:
    """Head-to-head from the rows of `game_results`, each pair facing `player_id` if given,
    else in Polish alphabetical order."""
    # Games with the same players and winners count the same: add those up first.
    kinds = Counter((players, winners) for _, players, winners in results)
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    only = None if player_id is None else str(player_id)
    for (players, winners), n in kinds.items():
        won = winners.split(",") if winners else ()
        for a, b in combinations(sorted(players.split(","), key=int), 2):
            if only is not None and only not in (a, b):
                continue
            c = counts[(a, b)]
            c[0] += n
            c[1] += n if a in won else 0
            c[2] += n if b in won else 0
    who = names(int(p) for pair in counts for p in pair)
    pairs = []
    for (a, b), (games, a_wins, b_wins) in counts.items():
        pair = Pair(int(a), who[int(a)], int(b), who[int(b)], games, a_wins, b_wins)
        if player_id is not None:
            pair = pair.facing(player_id)
        elif sort_key(pair.b_name) < sort_key(pair.a_name):
            pair = pair.facing(pair.b_id)
        pairs.append(pair)
    pairs.sort(key=lambda p: (-p.games, sort_key(p.a_name), sort_key(p.b_name)))
    return pairs
