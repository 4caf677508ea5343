"""Records: the highest total of each table variant and the most Generały in one game.

A record belongs to whoever reached it first: the game that finished first, the earlier seat.
Only table games hold records (a poker seat's total is its round wins).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select

from ...extensions import db
from ...models import Game, GameSeat
from ..filters import GameFilter
from .figures import MOST_GENERALS, TOTAL, VARIANT, seat_groups
from .query import IS_TABLE, is_table, names, rows, seats_in, variant_order
from .results import Feat


def best_totals(account_id: int, f: GameFilter, player_id: int | None = None) -> list[Feat]:
    """The highest total of each table variant; a record belongs to whoever reached it first."""
    groups = seat_groups(account_id, f, player_id)
    return feats(account_id, f, groups, player_id)[0]


def most_generals(account_id: int, f: GameFilter, player_id: int | None = None) -> Feat | None:
    """Most five of a kind rolled by one player in one table game (None when nobody rolled
    one); the first to reach it holds the record."""
    groups = seat_groups(account_id, f, player_id)
    return feats(account_id, f, groups, player_id)[1]


def feats(
    account_id: int,
    f: GameFilter,
    groups: list[Any],
    player_id: int | None = None,
    who: dict[int, str] | None = None,
) -> tuple[list[Feat], Feat | None]:
    """The records of `best_totals` and `most_generals`, found with the maxima the seat groups
    already hold: one query for the few seats that reached them. `who`: names by id, when the
    caller has them."""
    best, generals = _maxima(groups)
    if not best:
        return [], None
    reached = [and_(Game.variant == v, GameSeat.total == total) for v, total in best.items()]
    # The same on the seat alone first: checked on every seat, it spares most of them the
    # test of their game's variant (a tenth of the query).
    near: list[ColumnElement[bool]] = [GameSeat.total.in_(sorted(set(best.values())))]
    if generals:
        reached.append(GameSeat.generals == generals)
        near.append(GameSeat.generals == generals)
    candidates = rows(
        select(
            Game.variant,
            GameSeat.total,
            GameSeat.generals,
            GameSeat.player_id,
            Game.id,
            Game.finished_at,
            GameSeat.seat,
        )
        .select_from(GameSeat)
        .join(Game, Game.id == GameSeat.game_id)
        .where(*seats_in(account_id, f, player_id), or_(*near), IS_TABLE, or_(*reached))
    )
    # The first to reach a record holds it: the game that finished first, the earlier seat.
    holders = sorted(candidates, key=lambda r: (r[5], r[4], r[6]))
    first_total: dict[str, Any] = {}
    first_generals = None
    for variant, total, most, *holder, _ in holders:
        if total == best[variant]:
            first_total.setdefault(variant, (variant, total, *holder))
        if generals and most == generals and first_generals is None:
            first_generals = (variant, most, *holder)
    chosen = [*first_total.values(), *([first_generals] if first_generals else [])]
    who = names((r[2] for r in chosen), who)
    sizes = _table_sizes(r[3] for r in chosen)
    found = [
        Feat(variant, value, pid, who[pid], game_id, finished_at, sizes[game_id])
        for variant, value, pid, game_id, finished_at in chosen
    ]
    totals = sorted(found[: len(first_total)], key=lambda feat: variant_order()(feat.variant))
    return totals, (found[-1] if first_generals else None)


def _maxima(groups: list[Any]) -> tuple[dict[str, int], int]:
    """The highest total of each table variant, and the most Generały in one table game."""
    best: dict[str, int] = {}
    generals = 0
    for g in groups:
        variant, total = g[VARIANT], g[TOTAL]
        if is_table(variant):
            highest = best.get(variant)
            if highest is None or total > highest:
                best[variant] = total
            if g[MOST_GENERALS] > generals:
                generals = g[MOST_GENERALS]
    return best, generals


def _table_sizes(game_ids: Iterable[int]) -> dict[int, int]:
    ids = sorted(set(game_ids))
    return dict(
        db.session.execute(
            select(GameSeat.game_id, func.count())
            .where(GameSeat.game_id.in_(ids))
            .group_by(GameSeat.game_id)
        ).all()
    )
