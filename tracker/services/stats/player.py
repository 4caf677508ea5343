"""The player page: one player's figures, records, per-field figures, totals over time,
distribution, head-to-head and latest games, in the filtered games they took part in.

The charts and the per-field figures show one table variant: the totals of different variants
do not compare, and in "Gra po kolei" a zero is the order's, not the player's choice.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from sqlalchemy import Integer, and_, case, cast, func, select

from ... import rules
from ...extensions import db
from ...models import Game, GameSeat, Player, Turn
from ..filters import GameFilter
from .counts import by_local_month
from .dice import nemeses
from .figures import VARIANT, figures_of, histograms, players_of, seat_groups
from .query import (
    FIELD_CODES,
    FIELD_OF_CODE,
    IS_TABLE,
    KEY_FIELDS,
    KEY_VARIANTS,
    VARIANT_CODES,
    VARIANT_OF_CODE,
    finished_at,
    names,
    rows,
    seats_in,
)
from .records import feats
from .results import (
    FieldFigures,
    PlayerReport,
    PlayerStats,
    RecentGame,
    TableFields,
    Timeline,
    TimelinePoint,
)
from .skill import skill_by_player, skill_timeline
from .streaks import game_results, pairs_of, streaks_of

# The chart shows every game up to this many, monthly averages beyond.
TIMELINE_GAMES = 60
RECENT_GAMES = 10


def field_figures(account_id: int, f: GameFilter, player_id: int) -> list[TableFields]:
    """How one player fills each field: times written, average points, times crossed out.

    From the turns in force of the filtered table games. Points are as written in the field
    (a column's multiplier in Kości potrójne is not applied); the three variants on the Polish
    table share its fields.
    """
    # Grouped by one integer, variant × 32 + field, as the seats are (see `figures.seat_groups`).
    key = (
        case(VARIANT_CODES, value=Game.variant, else_=KEY_VARIANTS - 1) * KEY_FIELDS
        + case(FIELD_CODES, value=Turn.field, else_=KEY_FIELDS - 1)
    ).label("key")
    query = (
        select(key, func.count(), func.sum(Turn.points), func.sum(cast(Turn.points == 0, Integer)))
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .join(Turn, and_(Turn.game_id == GameSeat.game_id, Turn.seat == GameSeat.seat))
        .where(*seats_in(account_id, f, player_id), IS_TABLE, Turn.undone_at.is_(None))
        .group_by(key)
    )
    per_table: dict[str, dict[str, list[int]]] = defaultdict(dict)
    variants: dict[str, list[str]] = defaultdict(list)
    for packed, written, points, zeros in rows(query):
        variant_code, field_code = divmod(packed, KEY_FIELDS)
        variant = rules.TABLE_VARIANTS.get(VARIANT_OF_CODE.get(variant_code, ""))
        field_id = FIELD_OF_CODE.get(field_code)
        if variant is None or field_id is None:
            continue
        table = variant.table.id
        if variant.id not in variants[table]:
            variants[table].append(variant.id)
        sums = per_table[table].setdefault(field_id, [0, 0, 0])
        sums[0] += written
        sums[1] += points or 0
        sums[2] += zeros or 0
    tables = {v.table.id: v.table for v in rules.TABLE_VARIANTS.values()}  # in order
    order = list(rules.VARIANT_NAMES)
    result = []
    for table_id in sorted(per_table, key=lambda t: list(tables).index(t)):
        by_field = per_table[table_id]
        fields = [
            FieldFigures(fd.id, fd.label, *by_field[fd.id])
            for fd in tables[table_id].fields
            if fd.id in by_field
        ]
        result.append(TableFields(table_id, sorted(variants[table_id], key=order.index), fields))
    return result


def timeline(
    account_id: int, f: GameFilter, player_id: int, variant: str, games: int | None = None
) -> Timeline:
    """One player's totals in one table variant, oldest first. `games`: how many games that
    is, when the caller already knows."""
    conditions = [*seats_in(account_id, f, player_id), Game.variant == variant]
    if games is None:
        games = db.session.execute(
            select(func.count())
            .select_from(GameSeat)
            .join(Game, Game.id == GameSeat.game_id)
            .where(*conditions)
        ).scalar_one()
    if games <= TIMELINE_GAMES:
        played = db.session.execute(
            select(Game.finished_at, GameSeat.total, Game.id)
            .join(Game, Game.id == GameSeat.game_id)
            .where(*conditions)
            .order_by(Game.finished_at, Game.id)
        ).all()
        points = [TimelinePoint(finished_at(at), total, game_id) for at, total, game_id in played]
        return Timeline(variant, True, points)
    months = by_local_month(
        select(func.count(), func.sum(GameSeat.total))
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*conditions),
        f.zone,
    )
    points = [
        TimelinePoint(month, total / count, None, count)
        for month, (count, total) in sorted(months.items())
    ]
    return Timeline(variant, False, points)


def recent_games(
    account_id: int, f: GameFilter, player_id: int, limit: int = RECENT_GAMES
) -> list[RecentGame]:
    latest = db.session.execute(
        select(
            Game.id,
            Game.variant,
            Game.finished_at,
            GameSeat.total,
            GameSeat.place,
            GameSeat.is_winner,
        )
        .join(Game, Game.id == GameSeat.game_id)
        .where(*seats_in(account_id, f, player_id))
        .order_by(Game.finished_at.desc(), Game.id.desc())
        .limit(limit)
    ).all()
    if not latest:
        return []
    seats: dict[int, list[tuple[str, bool]]] = defaultdict(list)
    for game_id, name, won in db.session.execute(
        select(GameSeat.game_id, Player.name, GameSeat.is_winner)
        .join(Player, Player.id == GameSeat.player_id)
        .where(GameSeat.game_id.in_([r[0] for r in latest]))
        .order_by(GameSeat.game_id, GameSeat.seat)
    ):
        seats[game_id].append((name, won))
    return [
        RecentGame(
            game_id,
            variant,
            finished_at(finished),
            total,
            place,
            is_winner,
            len(seats[game_id]),
            [name for name, won in seats[game_id] if won],
        )
        for game_id, variant, finished, total, place, is_winner in latest
    ]


def player_report(account_id: int, player: Player, f: GameFilter) -> PlayerReport:
    """`f` should not name players: the report covers the games `player` took part in."""
    pid = player.id
    own = replace(f, player_ids=frozenset({pid}))
    groups = seat_groups(account_id, own, pid)
    figures = figures_of(groups)
    if not figures:
        return PlayerReport(pid, player.name, f, None, [], None, [], None, [], None, [], [])
    results = game_results(account_id, own, seats=False)
    # Everyone they played with, looked up once for the streak, head-to-head and nemesis.
    who = names({q for o in results.outcomes.values() for q in o.players}, {pid: player.name})
    (stats,) = players_of(figures, streaks_of(results, pid, who), who)
    chart_variant = _chart_variant(stats, f.variant)
    best, generals = feats(account_id, own, groups, pid, who)
    shown = histograms(g for g in groups if g[VARIANT] == chart_variant)
    skill = skill_by_player(account_id, own, pid).get(pid, {})
    skill_shown = chart_variant if chart_variant in skill else next(iter(skill), None)
    return PlayerReport(
        player_id=pid,
        name=player.name,
        filters=f,
        stats=stats,
        best_totals=best,
        most_generals=generals,
        fields=(
            field_figures(account_id, replace(own, variant=chart_variant), pid)
            if chart_variant
            else []
        ),
        timeline=(
            timeline(account_id, own, pid, chart_variant, stats.by_variant[chart_variant].games)
            if chart_variant
            else None
        ),
        timeline_variants=list(stats.table_variants),
        distribution=shown[0] if shown else None,
        pairs=pairs_of(results, pid, who),
        recent=recent_games(account_id, own, pid),
        skill=skill,
        skill_timeline=(
            skill_timeline(account_id, own, pid, skill_shown, skill[skill_shown].games)
            if skill_shown
            else None
        ),
        nemesis=nemeses(results, pid, who).get(pid),
    )


def _chart_variant(stats: PlayerStats, asked: str | None) -> str | None:
    """The table variant the charts show: the one asked for, else the one played most (the
    first of those, in the usual order); None without a table game."""
    table_variants = list(stats.table_variants)
    if asked in table_variants:
        return asked
    if not table_variants:
        return None
    return max(table_variants, key=lambda v: (stats.by_variant[v].games, -table_variants.index(v)))
