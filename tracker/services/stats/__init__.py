"""Statistics of an account's finished games, computed by the database.

Figures are SQL aggregates: GROUP BY over `game_seats` joined to `games`, reading the results
cached on each seat (derived from the turns and recomputable: `flask --app tracker recompute`),
and per-field figures GROUP BY over `turns`. No game, sheet or turn is loaded into Python. The one
sequence, winning streaks, is counted from one short row per game (the ids of its players and of
its winners, in the order the games finished), which also gives head-to-head.

A page is a handful of queries, each one pass over the filtered games: at 10,000 games of six
players, SQLite's sort for each GROUP BY is most of the cost, so one pass serves several figures
(docs/benchmarks.md, "Statistics").

What counts, as the settled rules ("Winning a table game") decide:

- only finished games; a game's date is the moment it finished, in the table's local time
  (`GameFilter.zone`), so "from 1 May to 31 May" means local calendar days, both included;
- equal highest totals share the win, and a shared win counts as a win for each winner;
- a one-player game is valid and its player is the winner: it counts in games, wins, totals and
  records ("pobij własny rekord"). A winning streak, though, is of games won against someone:
  one-player games are left out of streaks (they could only ever extend one);
- dice poker has no table: a poker seat's `total` is its round wins, so poker games count in
  games, wins, head-to-head and streaks, never in totals, averages, records or distributions.

The modules, along the seams of the work:

- `query`: the filtered games and seats, grouping keys, names, orders (shared plumbing);
- `results`: the frozen figures and pages everything returns;
- `counts`: games per variant and per local month;
- `figures`: one pass over the seats (figures per player and variant, distributions);
- `streaks`: one pass over the games (winning streaks, head-to-head);
- `dice`: the first seat's advantage and each player's nemesis, from the same pass;
- `records`: the highest totals and the most Generały;
- `skill`: who plays best, from the seat reviews (expected points given away, luck);
- `player`: the player page; `overview`: the statistics page and the API's summary.
"""

from ..filters import DEFAULT_TIMEZONE, GameFilter
from .counts import games_by_month, games_by_variant
from .dice import NEMESIS_GAMES, nemeses, rivalries, seat_advantage
from .figures import HISTOGRAM_BINS, bin_width, distributions, player_stats
from .overview import api_rivals, api_summary, empty_api_rivals, empty_api_summary, overview
from .player import (
    RECENT_GAMES,
    TIMELINE_GAMES,
    field_figures,
    player_report,
    recent_games,
    timeline,
)
from .query import find_player_id, sort_key
from .records import best_totals, most_generals
from .results import (
    Feat,
    FieldFigures,
    Figures,
    Histogram,
    MonthCount,
    Nemesis,
    Overview,
    Pair,
    PlayerReport,
    PlayerSkill,
    PlayerStats,
    RecentGame,
    SeatAdvantage,
    Skill,
    SkillPoint,
    SkillTimeline,
    Streak,
    TableFields,
    Timeline,
    TimelinePoint,
    VariantSkill,
)
from .skill import SKILL_TIMELINE_GAMES, skill_by_player, skill_timeline, who_plays_best
from .streaks import head_to_head, longest_streaks

__all__ = [
    "DEFAULT_TIMEZONE",
    "HISTOGRAM_BINS",
    "RECENT_GAMES",
    "SKILL_TIMELINE_GAMES",
    "TIMELINE_GAMES",
    "Feat",
    "FieldFigures",
    "Figures",
    "GameFilter",
    "Histogram",
    "MonthCount",
    "NEMESIS_GAMES",
    "Nemesis",
    "Overview",
    "Pair",
    "PlayerReport",
    "PlayerSkill",
    "PlayerStats",
    "RecentGame",
    "SeatAdvantage",
    "Skill",
    "SkillPoint",
    "SkillTimeline",
    "Streak",
    "TableFields",
    "Timeline",
    "TimelinePoint",
    "VariantSkill",
    "api_rivals",
    "api_summary",
    "best_totals",
    "bin_width",
    "distributions",
    "empty_api_rivals",
    "empty_api_summary",
    "field_figures",
    "find_player_id",
    "games_by_month",
    "games_by_variant",
    "head_to_head",
    "longest_streaks",
    "most_generals",
    "nemeses",
    "overview",
    "player_report",
    "player_stats",
    "recent_games",
    "rivalries",
    "seat_advantage",
    "skill_by_player",
    "skill_timeline",
    "sort_key",
    "timeline",
    "who_plays_best",
]
