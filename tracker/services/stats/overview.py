"""What the statistics page and the JSON API ask for: everything about the filtered games, in
a handful of passes over them whatever their number."""

from __future__ import annotations

from typing import Any

from ..filters import GameFilter
from .counts import games_by_variant, games_by_variant_and_month
from .dice import in_order, nemeses, seat_advantage
from .figures import figures_of, histograms, overall_figures, players_of, seat_groups
from .query import is_table, names, sort_key
from .records import feats
from .results import Figures, Overview
from .skill import api_skill, skill_by_player, skill_by_variant
from .streaks import game_results, pairs_of, streaks_of


def overview(account_id: int, f: GameFilter) -> Overview:
    """Five passes over the filtered games, whatever their number: games per variant and
    local month, the seats grouped by player, variant and total, the games' players, winners
    and places in order (streaks, head-to-head, seats, nemeses), the seats that set the
    records, and the seat reviews grouped by player and variant; then a few lookups by id
    (the players' names once)."""
    by_variant, by_month = games_by_variant_and_month(account_id, f)
    games = sum(by_variant.values())
    if not games:
        return Overview(f, 0, {}, [], [], [], None, None, [], [])
    groups = seat_groups(account_id, f)
    figures = figures_of(groups)
    who = names(figures)  # everyone at the filtered tables, looked up once
    results = game_results(account_id, f)
    streaks = streaks_of(results, who=who)
    players = players_of(figures, streaks, who)
    who = {p.player_id: p.name for p in players}
    best, generals = feats(account_id, f, groups, who=who)
    return Overview(
        filters=f,
        games=games,
        by_variant=by_variant,
        by_month=by_month,
        players=players,
        best_totals=best,
        most_generals=generals,
        longest_streak=min(streaks.values(), key=lambda s: (-s.length, s.last_at), default=None),
        pairs=pairs_of(results, who=who),
        distributions=histograms(groups),
        skill=skill_by_variant(skill_by_player(account_id, f), who),
        seat_advantage=seat_advantage(results),
        nemeses=in_order(nemeses(results, who=who), who),
    )


def api_summary(account_id: int, f: GameFilter) -> dict[str, Any]:
    """`GET /api/v1/stats`: games, games per variant, and per player games, wins, win rate and
    average, best and worst total of the table games (null without one), per variant their
    figures (`by_variant`: games and wins; for a table variant also the average, the upper
    bonus per column, Generały per 100 turns), and per table variant how they played against
    optimal play (`skill`: games and turns reviewed, expected points given away per turn, luck
    per game, whether exact). Players by name."""
    by_variant = games_by_variant(account_id, f)
    players = sorted(overall_figures(account_id, f), key=lambda p: sort_key(p[0]))
    reviewed = skill_by_player(account_id, f)
    who = names(reviewed)
    skill = {who[pid]: by_variant for pid, by_variant in reviewed.items()}
    result = []
    for name, variants in players:
        fig = sum(variants.values(), Figures())
        result.append(
            {
                "name": name,
                "games": fig.games,
                "wins": fig.wins,
                "win_rate": round(fig.win_rate, 4),
                "average": _rounded(fig.average, 2),
                "best": fig.best,
                "worst": fig.worst,
                "by_variant": {v: api_figures(v, vf) for v, vf in variants.items()},
                "skill": api_skill(skill.get(name, {})),
            }
        )
    return {"games": sum(by_variant.values()), "by_variant": by_variant, "players": result}


def api_figures(variant: str, fig: Figures) -> dict[str, Any]:
    """One player's figures in one variant as the API gives them."""
    result: dict[str, Any] = {"games": fig.games, "wins": fig.wins}
    if not is_table(variant):
        return result
    return {
        **result,
        "average": _rounded(fig.average, 2),
        "best": fig.best,
        "worst": fig.worst,
        "columns": fig.columns,
        "upper_bonuses": fig.upper_bonuses,
        "upper_bonus_rate": _rounded(fig.upper_bonus_rate, 4),
        "turns": fig.turns,
        "generals": fig.generals,
        "generals_per_100_turns": _rounded(fig.generals_per_100_turns, 2),
        "extra_bonuses": fig.extra_bonuses,
    }


def api_rivals(account_id: int, f: GameFilter) -> dict[str, Any]:
    """`GET /api/v1/stats/rivals`: the first seat's advantage per table size (`seat_advantage`:
    games, and per seat, 0 who started, its wins and win rate; a shared win counts for each
    winner) and each player's nemesis (`nemeses`, players by name: the rival, the games they
    both played and the rival's `wins`, `losses` and `draws` against them by places)."""
    results = game_results(account_id, f)
    found = nemeses(results)
    ordered = sorted(found.values(), key=lambda n: sort_key(n.name))
    return {
        "seat_advantage": [
            {
                "players": s.players,
                "games": s.games,
                "seats": [
                    {"seat": seat, "wins": wins, "win_rate": round(s.win_rate(seat), 4)}
                    for seat, wins in enumerate(s.wins)
                ],
            }
            for s in seat_advantage(results)
        ],
        "nemeses": {
            n.name: {
                "name": n.rival_name,
                "games": n.games,
                "wins": n.wins,
                "losses": n.losses,
                "draws": n.draws,
            }
            for n in ordered
        },
    }


def _rounded(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def empty_api_summary() -> dict[str, Any]:
    return {"games": 0, "by_variant": {}, "players": []}


def empty_api_rivals() -> dict[str, Any]:
    return {"seat_advantage": [], "nemeses": {}}
