"""One pass over the seats: each player's figures per variant, the distributions of totals,
and the maxima the records start from.

A row of `seat_groups` is the seats of one player in one variant that ended with the same total:
(player, variant, total, seats, wins, upper bonuses, Generały, most Generały in one game, +100
bonuses). Grouping by the total too costs little more than by player and variant, and the same
rows then give the averages, the best and worst totals, the distributions of totals in any bin
width and the highest totals of the records.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import BigInteger, Integer, case, cast, func, literal, select

from ... import rules
from ...models import Game, GameSeat
from ..filters import GameFilter
from .query import (
    KEY_TOTALS,
    KEY_VARIANTS,
    VARIANT_CODES,
    VARIANT_OF_CODE,
    games_in,
    is_table,
    names,
    rows,
    seats_in,
    sort_key,
    variant_order,
)
from .results import Figures, Histogram, PlayerStats, Streak
from .streaks import longest_streaks

# At most this many bars in a distribution of totals.
HISTOGRAM_BINS = 12
_NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)

# The columns of a row of `seat_groups` that other modules read.
VARIANT, TOTAL, SEATS, MOST_GENERALS = 1, 2, 3, 7


def seat_groups(account_id: int, f: GameFilter, player_id: int | None = None) -> list[Any]:
    """The filtered seats (only `player_id`'s, if given) grouped as the module docstring says."""
    code = case(VARIANT_CODES, value=Game.variant, else_=KEY_VARIANTS - 1)
    key = (
        GameSeat.player_id * literal(KEY_VARIANTS * KEY_TOTALS, BigInteger)
        + code * KEY_TOTALS
        + GameSeat.total
    ).label("key")
    query = (
        select(
            key,
            func.count(),
            # A cast, not a CASE: each CASE per seat costs about as much as the grouping.
            func.sum(cast(GameSeat.is_winner, Integer)),
            func.sum(GameSeat.upper_bonuses),
            func.sum(GameSeat.generals),
            func.max(GameSeat.generals),
            func.sum(GameSeat.extra_bonuses),
        )
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*seats_in(account_id, f, player_id))
        .group_by(key)
    )
    groups = []
    for packed, *figures in rows(query):
        rest, total = divmod(packed, KEY_TOTALS)
        pid, variant_code = divmod(rest, KEY_VARIANTS)
        variant = VARIANT_OF_CODE.get(variant_code)
        if variant is not None:  # a variant this version does not know is left out
            groups.append((pid, variant, total, *figures))
    return groups


def figures_of(groups: Iterable[Any]) -> dict[int, dict[str, Figures]]:
    """Each player's figures per variant, variants in `VARIANT_NAMES` order."""
    sums: dict[tuple[int, str], list[Any]] = {}
    for pid, variant, total, seats, wins, bonuses, generals, _, extra in groups:
        s = sums.get((pid, variant))
        if s is None:
            sums[(pid, variant)] = [seats, wins, total * seats, total, total, bonuses, generals,
                                    extra]  # fmt: skip
            continue
        s[0] += seats
        s[1] += wins
        s[2] += total * seats
        if total > s[3]:  # comparisons, not max() and min(): a call each is a tenth of this
            s[3] = total
        elif total < s[4]:
            s[4] = total
        s[5] += bonuses
        s[6] += generals
        s[7] += extra
    order = variant_order()
    result: dict[int, dict[str, Figures]] = defaultdict(dict)
    for (pid, variant), s in sorted(sums.items(), key=lambda kv: order(kv[0][1])):
        table = rules.TABLE_VARIANTS.get(variant)
        if table is None:  # poker: a seat's total is its round wins, no score
            result[pid][variant] = Figures(games=s[0], wins=s[1])
        else:
            games, wins, total_sum, best, worst, bonuses, generals, extra = s
            result[pid][variant] = Figures(
                games,
                wins,
                games,
                total_sum,
                best,
                worst,
                games * table.columns,
                bonuses,
                generals,
                extra,
                # A finished game fills every field of every column, one turn in force each.
                games * table.turns,
            )
    return result


def histograms(groups: Iterable[Any]) -> list[Histogram]:
    """The totals of each table variant in at most `HISTOGRAM_BINS` bins of a round width."""
    totals: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for g in groups:
        if is_table(g[VARIANT]):
            totals[g[VARIANT]][g[TOTAL]] += g[SEATS]
    result = []
    for variant in sorted(totals, key=variant_order()):
        counts = totals[variant]
        width = bin_width(min(counts), max(counts))
        binned: dict[int, int] = defaultdict(int)
        for total, n in counts.items():
            binned[total // width] += n
        bins = [(b * width, binned.get(b, 0)) for b in range(min(binned), max(binned) + 1)]
        result.append(Histogram(variant, width, bins))
    return result


def players_of(
    figures: dict[int, dict[str, Figures]],
    streaks: dict[int, Streak],
    who: dict[int, str] | None = None,
) -> list[PlayerStats]:
    """`who`: names by id, when the caller has them."""
    who = names(figures, who)
    result = [
        PlayerStats(
            player_id=pid,
            name=who[pid],
            overall=sum(by_variant.values(), Figures()),
            by_variant=by_variant,
            streak=streaks.get(pid),
        )
        for pid, by_variant in figures.items()
    ]
    result.sort(key=lambda p: (-p.overall.wins, -p.overall.win_rate, sort_key(p.name)))
    return result


def player_stats(account_id: int, f: GameFilter, player_id: int | None = None) -> list[PlayerStats]:
    """Every player of the filtered games (or only `player_id`), most wins first."""
    figures = figures_of(seat_groups(account_id, f, player_id))
    if not figures:
        return []
    return players_of(figures, longest_streaks(account_id, f, player_id))


def distributions(account_id: int, f: GameFilter, player_id: int | None = None) -> list[Histogram]:
    return histograms(seat_groups(account_id, f, player_id))


def bin_width(low: int, high: int, bins: int = HISTOGRAM_BINS) -> int:
    """The smallest round width that covers `low`..`high` in at most `bins` bins."""
    for width in _NICE_WIDTHS:
        if high // width - low // width + 1 <= bins:
            return width
    return _NICE_WIDTHS[-1]


def overall_figures(account_id: int, f: GameFilter) -> list[tuple[str, dict[str, Figures]]]:
    """Each player's figures per variant in one query (the API has no use for streaks or
    totals' distributions), variants in `VARIANT_NAMES` order."""
    # One integer to group by, player × KEY_VARIANTS + variant (see `query`'s grouping keys).
    code = case(VARIANT_CODES, value=Game.variant, else_=KEY_VARIANTS - 1)
    key = (GameSeat.player_id * literal(KEY_VARIANTS, BigInteger) + code).label("key")
    query = (
        select(
            key,
            func.count(),
            func.sum(cast(GameSeat.is_winner, Integer)),
            func.sum(GameSeat.total),
            func.max(GameSeat.total),
            func.min(GameSeat.total),
            func.sum(GameSeat.upper_bonuses),
            func.sum(GameSeat.generals),
            func.sum(GameSeat.extra_bonuses),
        )
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*games_in(account_id, f))
        .group_by(key)
    )
    found = []
    for packed, games, wins, total, best, worst, bonuses, generals, extra in rows(query):
        pid, variant_code = divmod(packed, KEY_VARIANTS)
        variant = VARIANT_OF_CODE.get(variant_code)
        table = rules.TABLE_VARIANTS.get(variant or "")
        if variant is None:  # a variant this version does not know is left out
            continue
        if table is None:  # poker: a seat's total is its round wins, no score
            found.append((pid, variant, Figures(games=games, wins=wins)))
            continue
        figures = Figures(games, wins, games, total, best, worst, games * table.columns,
                          bonuses, generals, extra, games * table.turns)  # fmt: skip
        found.append((pid, variant, figures))
    order = variant_order()
    by_player: dict[int, dict[str, Figures]] = defaultdict(dict)
    for pid, variant, figures in sorted(found, key=lambda r: order(r[1])):
        by_player[pid][variant] = figures
    who = names(by_player)
    return [(who[pid], by_variant) for pid, by_variant in by_player.items()]
