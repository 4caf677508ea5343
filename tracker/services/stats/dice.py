"""Who the dice favour: the first seat's advantage and each player's nemesis, from the rows of
`streaks.game_results` (the Generał rate and the upper-bonus rate are `Figures`' own, from the
seats).

- First-seat advantage: the games of each table size (two players or more) and the wins of each
  seat, seat 0 being who started. A shared win counts as a win for each winner, as everywhere.
- Nemesis: of the rivals a player shared at least `NEMESIS_GAMES` games with, the one who
  finished ahead of them in the largest share of those games (places, so a shared win or an
  equal total is a draw: neither beat the other); on equal shares, the one ahead more often,
  then the one behind less often, then by name in Polish order. Only a rival with the better
  record is a nemesis: ahead of the player more often than behind (a rival the player beat 3
  times of 5, ahead once, is none).

Both start from the games added up by how they ended (`GameResults.kinds`), so the work grows
with the different outcomes, not with the games.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations
from operator import itemgetter

from .query import KEY_PLACES, names, sort_key
from .results import Nemesis, SeatAdvantage
from .streaks import KEY_SEATS, GameResults

NEMESIS_GAMES = 3  # shared games at least, to name a nemesis

# Two players' games together: (games, the first ahead, the second ahead), ids in order.
Rivalry = tuple[int, int, int]


def seat_advantage(results: GameResults) -> list[SeatAdvantage]:
    """Per table size from two players up, its games and each seat's wins."""
    size = {seats: len(o.players) for seats, o in results.outcomes.items()}
    rows = results.rows
    sizes = map(size.__getitem__, map(itemgetter(1), rows))
    kinds = Counter(zip(sizes, map(itemgetter(2), rows), strict=True))
    games: dict[int, int] = defaultdict(int)
    wins: dict[int, list[int]] = {}
    for (players, won), n in kinds.items():
        if players < 2:  # alone: the one seat always wins
            continue
        games[players] += n
        per_seat = wins.setdefault(players, [0] * players)
        for seat in range(players):
            if (won or 0) >> seat & 1:
                per_seat[seat] += n
    return [SeatAdvantage(p, games[p], tuple(wins[p])) for p in sorted(games)]


def rivalries(results: GameResults, player_id: int | None = None) -> dict[tuple[int, int], Rivalry]:
    """Every two players' games together and who finished ahead how often (only the pairs of
    `player_id`, when given)."""
    # First the games per two seats as packed (player, won, place): far fewer than the ways
    # the games ended times the pairs in each, and one dict update each.
    seat_pairs: dict[tuple[int, int], int] = defaultdict(int)
    for seats, n in results.kinds.items():
        packed = results.outcomes[seats].seats
        if player_id is not None:
            mine = next(s for s in packed if s // KEY_SEATS == player_id)
            pairs: Iterable[tuple[int, int]] = (
                (mine, s) if mine < s else (s, mine) for s in packed if s != mine
            )
        else:
            pairs = combinations(packed, 2)  # in the order of the players' ids
        for pair in pairs:
            seat_pairs[pair] += n
    counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for (a, b), n in seat_pairs.items():
        c = counts[(a // KEY_SEATS, b // KEY_SEATS)]
        c[0] += n
        a_place, b_place = a % KEY_PLACES, b % KEY_PLACES
        if a_place < b_place:
            c[1] += n
        elif b_place < a_place:
            c[2] += n
    return {pair: (c[0], c[1], c[2]) for pair, c in counts.items()}


def nemeses(
    results: GameResults,
    player_id: int | None = None,
    who: dict[int, str] | None = None,
) -> dict[int, Nemesis]:
    """Each player's nemesis (only `player_id`'s, when given); players without one are left
    out. `who`: names by id, when the caller has them."""
    return nemeses_of(rivalries(results, player_id), player_id, who)


def nemeses_of(
    pairs: dict[tuple[int, int], Rivalry],
    player_id: int | None = None,
    who: dict[int, str] | None = None,
) -> dict[int, Nemesis]:
    """The nemeses in `rivalries`' pairs: see the module docstring. `who`: names by id, when
    the caller has them."""
    # Each player's rivals as (rival, games, rival ahead, player ahead).
    rivals: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for (a, b), (games, a_ahead, b_ahead) in pairs.items():
        if games < NEMESIS_GAMES:
            continue
        if b_ahead > a_ahead:
            rivals[a].append((b, games, b_ahead, a_ahead))
        if a_ahead > b_ahead:
            rivals[b].append((a, games, a_ahead, b_ahead))
    if player_id is not None:
        rivals = {player_id: rivals[player_id]} if rivals.get(player_id) else {}
    who = names({p for p in rivals} | {r[0] for rs in rivals.values() for r in rs}, who)
    result = {}
    for pid, candidates in rivals.items():
        rival, games, ahead, behind = min(
            candidates,
            key=lambda c: (-Fraction(c[2], c[1]), -c[2], c[3], sort_key(who[c[0]])),
        )
        result[pid] = Nemesis(
            pid, who[pid], rival, who[rival], games, ahead, behind, games - ahead - behind
        )
    return result


def in_order(found: dict[int, Nemesis], player_ids: Iterable[int]) -> list[Nemesis]:
    """The nemeses of these players, in their order."""
    return [found[pid] for pid in player_ids if pid in found]
