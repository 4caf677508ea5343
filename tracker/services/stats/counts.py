"""Finished games counted per variant and per local calendar month.

The database knows no time zones: `by_local_month` groups by UTC month and converts only the
hours near a month's edge, so a month's count stays one pass over the filtered games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from sqlalchemy import and_, case, func, literal, or_, select

from ... import rules
from ...extensions import db
from ...models import Game
from ..filters import GameFilter
from .query import games_in
from .results import MonthCount


def games_by_variant(account_id: int, f: GameFilter) -> dict[str, int]:
    """Finished games per variant, most played first (then in `VARIANT_NAMES` order)."""
    counts = db.session.execute(
        select(Game.variant, func.count()).where(*games_in(account_id, f)).group_by(Game.variant)
    ).all()
    return _most_played(dict(counts))


def _most_played(counts: dict[str, int]) -> dict[str, int]:
    order = list(rules.VARIANT_NAMES)
    rows = sorted(
        counts.items(), key=lambda r: (-r[1], order.index(r[0]) if r[0] in order else len(order))
    )
    return {variant: count for variant, count in rows}


def games_by_month(account_id: int, f: GameFilter) -> list[MonthCount]:
    counts = by_local_month(
        select(func.count()).select_from(Game).where(*games_in(account_id, f)), f.zone
    )
    return [MonthCount(month, row[0]) for month, row in fill_months(counts, (0,))]


def games_by_variant_and_month(
    account_id: int, f: GameFilter
) -> tuple[dict[str, int], list[MonthCount]]:
    """`games_by_variant` and `games_by_month` in one pass over the filtered games."""
    month, edge = _month_parts(Game.finished_at, f.zone)
    rows = db.session.execute(
        select(Game.variant, func.count(), month, edge)
        .where(*games_in(account_id, f))
        .group_by(Game.variant, month, edge)
    ).all()
    by_variant: dict[str, int] = {}
    by_month: dict[date, list[int]] = {}
    for variant, count, utc_month, edge_value in rows:
        by_variant[variant] = by_variant.get(variant, 0) + count
        by_month.setdefault(_local_month(utc_month, edge_value, f.zone), [0])[0] += count
    months = [MonthCount(m, row[0]) for m, row in fill_months(by_month, (0,))]
    return _most_played(by_variant), months


def by_local_month(
    query: Any, zone: tzinfo, column: Any = Game.finished_at
) -> dict[date, list[int]]:
    """Run an aggregate `query` (its columns summed per local month) grouped by the local
    calendar month of `column`, a naive UTC time.

    The database knows no time zones, so the query groups by UTC month, except in the hours
    around a month's end that may belong to the next local month (or, west of Greenwich, the
    hours after its start that belong to the previous one): those rows are grouped by the UTC
    day and hour, and each such hour is converted here.
    """
    month, edge = _month_parts(column, zone)
    rows = db.session.execute(
        query.add_columns(month.label("month"), edge.label("edge")).group_by(month, edge)
    ).all()
    result: dict[date, list[int]] = {}
    for *figures, utc_month, edge_value in rows:
        sums = result.setdefault(_local_month(utc_month, edge_value, zone), [0] * len(figures))
        for i, value in enumerate(figures):
            sums[i] += value or 0
    return result


def _local_month(utc_month: str, edge_value: str | None, zone: tzinfo) -> date:
    """The local month of a row grouped by `_month_parts`: its UTC month ("YYYY-MM"), or for
    the hours near a month's edge, that of its UTC day and hour ("DD HH")."""
    year, mon = int(utc_month[:4]), int(utc_month[5:7])
    if edge_value is None:
        return date(year, mon, 1)
    day, hour = (int(part) for part in edge_value.split())
    moment = datetime(year, mon, day, hour, tzinfo=UTC).astimezone(zone)
    return date(moment.year, moment.month, 1)


def _month_parts(column: Any, zone: tzinfo) -> tuple[Any, Any]:
    """SQL for "YYYY-MM" of a UTC time, and "DD HH" for the hours near a month's edge."""
    if db.engine.dialect.name == "postgresql":
        month, day, hour = (func.to_char(column, p) for p in ("YYYY-MM", "DD", "HH24"))
        day_hour = func.to_char(column, "DD HH24")
    else:
        # SQLite stores a time as text, "2025-05-03 18:42:07.123456": cutting it is twice as
        # fast as strftime().
        month, day, hour = (
            func.substr(column, 1, 7),
            func.substr(column, 9, 2),
            func.substr(column, 12, 2),
        )
        day_hour = func.substr(column, 9, 5)
    # The zone's offsets in winter and in summer, in whole hours away from UTC.
    year = datetime.now(UTC).year
    offsets = [
        (datetime(year, m, 1, tzinfo=UTC).astimezone(zone).utcoffset() or timedelta())
        / timedelta(hours=1)
        for m in (1, 7)
    ]
    ahead = math.ceil(max(0, *offsets))  # east: the last hours of a month are the next one's
    behind = math.ceil(max(0, *(-o for o in offsets)))  # west: the first hours, the last one's
    near_edge = []
    if ahead:
        # The last day of a month is 28 to 31; an hour on day 28-30 that is not the last day of
        # its month just lands in the same local month as the rest of it.
        near_edge.append(and_(day.in_(["28", "29", "30", "31"]), hour >= f"{24 - ahead:02d}"))
    if behind:
        near_edge.append(and_(day == "01", hour < f"{behind:02d}"))
    edge = case((or_(*near_edge), day_hour), else_=None) if near_edge else literal(None)
    return month, edge


def fill_months(
    counts: dict[date, list[int]], empty: Sequence[int]
) -> list[tuple[date, list[int]]]:
    """Every month from the first to the last, those without games as `empty`."""
    if not counts:
        return []
    first, last = min(counts), max(counts)
    months = []
    month = first
    while month <= last:
        months.append((month, counts.get(month, list(empty))))
        month = date(month.year + month.month // 12, month.month % 12 + 1, 1)
    return months
