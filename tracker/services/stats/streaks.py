"""One pass over the games: winning streaks and head-to-head (the same rows also give `dice`'s
first-seat advantage and nemeses).

A winning streak is of games won against someone: one-player games neither extend nor break one
(they could only ever extend one). A shared win counts as a win for each winner.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import cached_property
from itertools import combinations
from operator import itemgetter
from typing import Any, NamedTuple

from sqlalchemy import BigInteger, Integer, String, cast, func, literal, null, select

from ...extensions import db
from ...models import Game, GameSeat
from ..filters import GameFilter
from .query import KEY_PLACES, finished_at, games_in, names, rows, sort_key
from .results import Pair, Streak

# A row of `game_results`: a game's id, its seats in one list joined with commas, each seat one
# integer, player × KEY_SEATS + WINNER if they won + place ("49,66,99": players 1 and 2 shared
# the win, player 3 came third), and the seats of its winners as bits (seat 0, who started, the
# lowest: 0b10 is seat 1).
GameResult = tuple[int, str, int | None]
WINNER = KEY_PLACES  # the bit of a seat that won, above its place
KEY_SEATS = 2 * KEY_PLACES


class Outcome(NamedTuple):
    """How one game ended, read from its list of seats."""

    players: tuple[int, ...]  # by id, in order
    winners: frozenset[int]
    seats: list[int]  # packed as in `GameResult`, in the order of the players

    @classmethod
    def read(cls, seats: str) -> Outcome:
        values = sorted(map(int, seats.split(",")))
        return cls(
            tuple([v // KEY_SEATS for v in values]),
            frozenset([v // KEY_SEATS for v in values if v & WINNER]),
            values,
        )


class GameResults:
    """The rows of `game_results`, in the order the games finished, and what every statistic
    reads from them worked out once: how many games ended each way (`kinds`, by their list of
    seats) and each of those ways read (`outcomes`). A family's thousands of games end in a
    few thousand ways, so the work after the query grows with those, not with the games."""

    def __init__(self, rows: Sequence[GameResult]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    @cached_property
    def kinds(self) -> Counter[str]:
        return Counter(map(itemgetter(1), self.rows))

    @cached_property
    def outcomes(self) -> dict[str, Outcome]:
        return {seats: Outcome.read(seats) for seats in self.kinds}


def _id_list(column: Any) -> Any:
    """SQL: the values of a group joined with commas."""
    if db.engine.dialect.name == "postgresql":
        return func.string_agg(cast(column, String), ",")
    return func.group_concat(column)


def game_results(account_id: int, f: GameFilter, *, seats: bool = True) -> GameResults:
    """One row per filtered game, in the order the games finished (see `GameResult`).
    `seats=False`: without the seats of its winners (None), which only the first seat's
    advantage reads (a sixth of the query).

    A winning streak is a sequence: counting one needs every game of a player in order, which
    SQL does with window functions sorting all the seats (measured: about three times slower
    than this at 10,000 games, see docs/benchmarks.md). The database sends each game's seats as
    one short list instead (one list of packed integers costs about what a list of players did:
    each more list or CASE per seat adds a third), and the streaks, the head-to-head counts, the
    seats' wins and the nemeses are added up here.
    """
    won = cast(GameSeat.is_winner, Integer)
    winners_seats = func.sum(won * literal(1).op("<<")(GameSeat.seat)) if seats else null()
    query = (
        select(
            Game.id,
            _id_list(
                GameSeat.player_id * literal(KEY_SEATS, BigInteger) + won * WINNER + GameSeat.place
            ),
            winners_seats,
        )
        .select_from(Game)
        .join(GameSeat, GameSeat.game_id == Game.id)
        .where(*games_in(account_id, f))
        # In the order of the index on (account, finished_at): grouped without a sort.
        .group_by(Game.finished_at, Game.id)
        .order_by(Game.finished_at, Game.id)
    )
    return GameResults(rows(query))


def longest_streaks(
    account_id: int, f: GameFilter, player_id: int | None = None
) -> dict[int, Streak]:
    """Each player's longest run of games won in a row (the earliest of equal runs), over the
    filtered games against someone, in the order they finished; only `player_id`'s if given."""
    return streaks_of(game_results(account_id, f), player_id)


def streaks_of(
    results: GameResults, player_id: int | None = None, who: dict[int, str] | None = None
) -> dict[int, Streak]:
    """Each player's longest winning streak in the rows of `game_results` (see
    `longest_streaks`). `who`: names by id, when the caller has them."""
    best = _runs_by_bytes(results, player_id)
    if best is None:
        best = _runs_by_loop(results, player_id)
    return _dated(best, results.rows, who)


# A game in a player's sequence of games (`_runs_by_bytes`).
_WON, _LOST, _AWAY = b"W", b"L", b"-"


def _runs_by_bytes(
    results: GameResults, player_id: int | None
) -> dict[int, tuple[int, int, int]] | None:
    """The longest run of each player as (length, first game, last game), the earliest of
    equal runs: each game one byte naming its players and winners, so that each player's
    games become a string of won, lost and not played (`bytes.translate`), and the runs are
    found by `bytes` methods, not by a Python statement per seat (a few times faster). None when
    the games have more than 256 different sets of players and winners (`_runs_by_loop`)."""
    codes: dict[tuple[tuple[int, ...], frozenset[int]], int] = {}
    code_of: dict[str, int] = {}
    for seats, (players, won, _) in results.outcomes.items():
        code_of[seats] = codes.setdefault((players, won), len(codes))
    if len(codes) > 256:
        return None
    games = bytes(map(code_of.__getitem__, map(itemgetter(1), results.rows)))
    everyone = {p for players, _ in codes for p in players}
    best: dict[int, tuple[int, int, int]] = {}
    for player in sorted(everyone) if player_id is None else [player_id]:
        table = bytearray(_AWAY * 256)
        for (players, won), code in codes.items():
            # A game alone neither extends nor breaks a streak.
            if len(players) > 1 and player in players:
                table[code] = ord(_WON if player in won else _LOST)
        mine = games.translate(table)
        played = mine.replace(_AWAY, b"")
        longest = max(map(len, played.split(_LOST)))
        if not longest:
            continue
        first = played.find(_WON * longest)
        best[player] = (longest, _index_of(mine, first), _index_of(mine, first + longest - 1))
    return best


def _index_of(mine: bytes, played: int) -> int:
    """Where in all the games (`mine`) the player's game number `played` (from 0) is."""
    low, high = played, len(mine) - 1  # the answer is at least `played`
    while low < high:  # the first index with `played` + 1 games played up to it
        mid = (low + high) // 2
        if mid + 1 - mine.count(_AWAY, 0, mid + 1) > played:
            high = mid
        else:
            low = mid + 1
    return low


def _runs_by_loop(results: GameResults, player_id: int | None) -> dict[int, tuple[int, int, int]]:
    """`_runs_by_bytes`, game by game."""
    outcomes = results.outcomes
    only = None if player_id is None else (player_id,)
    length: dict[int, int] = defaultdict(int)  # the run going on, per player
    start: dict[int, int] = {}  # where it began
    best: dict[int, tuple[int, int, int]] = {}  # player -> (length, first game, last game)
    for index, (_, seats, _) in enumerate(results.rows):
        players, won, _ = outcomes[seats]
        if len(players) < 2:  # a game alone neither extends nor breaks a streak
            continue
        for player in only or players:
            if player not in players:  # a game without them neither
                continue
            if player in won:
                n = length[player] = length[player] + 1
                if n == 1:
                    start[player] = index
                if n > best.get(player, (0,))[0]:
                    best[player] = (n, start[player], index)
            else:
                length[player] = 0
    return best


def _dated(
    best: dict[int, tuple[int, int, int]],
    results: Sequence[GameResult],
    known: dict[int, str] | None = None,
) -> dict[int, Streak]:
    """The streaks found, with their players' names and the moments they began and ended."""
    if not best:
        return {}
    # Only the games that begin or end a streak are looked up, to date it.
    ids = {results[i][0] for _, first, last in best.values() for i in (first, last)}
    moments = dict(
        db.session.execute(select(Game.id, Game.finished_at).where(Game.id.in_(ids))).all()
    )
    who = names(best, known)
    return {
        p: Streak(
            p,
            who[p],
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


def pairs_of(
    results: GameResults, player_id: int | None = None, who: dict[int, str] | None = None
) -> list[Pair]:
    """Head-to-head from the rows of `game_results`, each pair facing `player_id` if given,
    else in Polish alphabetical order. `who`: names by id, when the caller has them."""
    # Games with the same players and winners count the same: add those up first.
    kinds: Counter[tuple[tuple[int, ...], frozenset[int]]] = Counter()
    for seats, n in results.kinds.items():
        players, winners, _ = results.outcomes[seats]
        kinds[(players, winners)] += n
    counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for (players, won), n in kinds.items():
        for a, b in combinations(players, 2):  # players in the order of their ids
            if player_id is not None and player_id not in (a, b):
                continue
            c = counts[(a, b)]
            c[0] += n
            c[1] += n if a in won else 0
            c[2] += n if b in won else 0
    who = names((p for pair in counts for p in pair), who)
    pairs = []
    for (a, b), (games, a_wins, b_wins) in counts.items():
        pair = Pair(a, who[a], b, who[b], games, a_wins, b_wins)
        if player_id is not None:
            pair = pair.facing(player_id)
        elif sort_key(pair.b_name) < sort_key(pair.a_name):
            pair = pair.facing(pair.b_id)
        pairs.append(pair)
    pairs.sort(key=lambda p: (-p.games, sort_key(p.a_name), sort_key(p.b_name)))
    return pairs
