"""What the statistics page and the JSON API ask for: everything about the filtered games, in
a handful of passes over them whatever their number."""

from __future__ import annotations

from typing import Any

from ..filters import GameFilter
from .counts import games_by_month, games_by_variant
from .figures import figures_of, histograms, overall_figures, players_of, seat_groups
from .query import names, sort_key
from .records import feats
from .results import Overview
from .skill import api_skill, skill_by_player, skill_by_variant
from .streaks import game_results, pairs_of, streaks_of


def overview(account_id: int, f: GameFilter) -> Overview:
    """Six passes over the filtered games, whatever their number: games per variant, games
    per month, the seats grouped by player, variant and total, the games' players and winners
    in order, the seats that set the records, and the seat reviews grouped by player and
    variant; then a few lookups by id (names, dates)."""
    by_variant = games_by_variant(account_id, f)
    games = sum(by_variant.values())
    if not games:
        return Overview(f, 0, {}, [], [], [], None, None, [], [])
    groups = seat_groups(account_id, f)
    results = game_results(account_id, f)
    streaks = streaks_of(results)
    players = players_of(figures_of(groups), streaks)
    best, generals = feats(account_id, f, groups)
    return Overview(
        filters=f,
        games=games,
        by_variant=by_variant,
        by_month=games_by_month(account_id, f),
        players=players,
        best_totals=best,
        most_generals=generals,
        longest_streak=min(streaks.values(), key=lambda s: (-s.length, s.last_at), default=None),
        pairs=pairs_of(results),
        distributions=histograms(groups),
        skill=skill_by_variant(
            skill_by_player(account_id, f), {p.player_id: p.name for p in players}
        ),
    )


def api_summary(account_id: int, f: GameFilter) -> dict[str, Any]:
    """`GET /api/v1/stats`: games, games per variant, and per player games, wins, win rate and
    average, best and worst total of the table games (null without one), and per table variant
    how they played against optimal play (`skill`: games and turns reviewed, expected points
    given away per turn, luck per game, whether exact). Players by name."""
    by_variant = games_by_variant(account_id, f)
    players = sorted(overall_figures(account_id, f), key=lambda p: sort_key(p[0]))
    reviewed = skill_by_player(account_id, f)
    who = names(reviewed)
    skill = {who[pid]: by_variant for pid, by_variant in reviewed.items()}
    return {
        "games": sum(by_variant.values()),
        "by_variant": by_variant,
        "players": [
            {
                "name": name,
                "games": fig.games,
                "wins": fig.wins,
                "win_rate": round(fig.win_rate, 4),
                "average": None if fig.average is None else round(fig.average, 2),
                "best": fig.best,
                "worst": fig.worst,
                "skill": api_skill(skill.get(name, {})),
            }
            for name, fig in players
        ],
    }


def empty_api_summary() -> dict[str, Any]:
    return {"games": 0, "by_variant": {}, "players": []}
