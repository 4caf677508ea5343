"""What every statistic's queries share: the filtered games and seats, the one-integer grouping
keys, rows without the ORM, names by id, and the orders variants and names are shown in."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, select

from ... import rules
from ...collation import polish_key
from ...extensions import db
from ...models import Game, GameSeat, Player, name_key
from ...rules.tables import ALL_FIELD_IDS
from ..filters import GameFilter, game_conditions

# Table variants have totals (points); in dice poker a seat's `total` is its round wins. The one
# place the statistics decide which is which, from the rules' registry.
TABLE_VARIANT_IDS = frozenset(v.id for v in rules.VARIANTS.values() if v.kind == "table")
# SQL: a game played on a table. `!=` rather than NOT IN, which SQLite evaluates more slowly
# per seat (measured: 7% of the statistics page).
IS_TABLE = and_(*(Game.variant != v for v in sorted(set(rules.VARIANTS) - TABLE_VARIANT_IDS)))


def is_table(variant: str) -> bool:
    return variant in TABLE_VARIANT_IDS


def games_in(
    account_id: int, f: GameFilter, *, seat_of: int | None = None
) -> list[ColumnElement[bool]]:
    """Conditions on `Game`: the account's finished games `f` keeps, by the day they finished.
    `seat_of`: the query reads only that player's seats (see `game_conditions`)."""
    return game_conditions(account_id, f, dated_by="finished", seat_of=seat_of)


def seats_in(
    account_id: int, f: GameFilter, player_id: int | None = None
) -> list[ColumnElement[bool]]:
    """Conditions on `GameSeat` joined to `Game`: the filtered games, one player's seats."""
    conditions = games_in(account_id, f, seat_of=player_id)
    if player_id is not None:
        conditions.append(GameSeat.player_id == player_id)
    return conditions


def rows(query: Any) -> Sequence[Any]:
    """The rows of a Core query, without the ORM's row processing (a tenth of a large
    statistics query's time)."""
    return db.session.connection().execute(query).all()


def finished_at(at: datetime | None) -> datetime:
    """When a game read by the statistics finished: they read finished games only (`games_in`)."""
    assert at is not None, "a finished game has its finished_at"
    return at


def names(ids: Iterable[int], known: dict[int, str] | None = None) -> dict[int, str]:
    """Players' names by id; those in `known` (names the caller already has) are not looked up."""
    if known:
        missing = sorted(set(ids) - known.keys())
        return {**names(missing), **known} if missing else known
    ids = sorted(set(ids))
    if not ids:
        return {}
    return dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())


def find_player_id(account_id: int, name: str) -> int | None:
    """The id of the account's player with this name (case and spacing ignored), if any."""
    return db.session.scalar(
        select(Player.id).where(Player.account_id == account_id, Player.name_key == name_key(name))
    )


# --- grouping keys -------------------------------------------------------------------------

# Rows are grouped by one integer packing a player, a variant, a total or a field: SQLite sorts
# the rows of a GROUP BY, and sorting one integer is a third faster than sorting a player, a
# variant name and a total (measured: 42 ms against 59 ms at 60,000 seats).
VARIANT_CODES = {variant: code for code, variant in enumerate(rules.VARIANT_NAMES)}
VARIANT_OF_CODE = dict(enumerate(rules.VARIANT_NAMES))
KEY_VARIANTS = 8  # more than there are variants
KEY_TOTALS = 1_000_000  # more than any total (Kości potrójne stays under 20,000)
FIELD_CODES = {field_id: code for code, field_id in enumerate(sorted(ALL_FIELD_IDS))}
FIELD_OF_CODE = {code: field_id for field_id, code in FIELD_CODES.items()}
KEY_FIELDS = 32  # more than there are fields in both tables
KEY_PLACES = 16  # more than there are places at a table (players)
assert len(VARIANT_CODES) < KEY_VARIANTS
assert len(FIELD_CODES) < KEY_FIELDS
assert max(v.max_players for v in rules.VARIANTS.values()) < KEY_PLACES


# --- orders --------------------------------------------------------------------------------


def variant_order() -> Callable[[str], int]:
    """A sort key: variants in `VARIANT_NAMES` order, unknown ones last."""
    order = {v: i for i, v in enumerate(rules.VARIANT_NAMES)}
    return lambda variant: order.get(variant, len(order))


# Names in Polish alphabetical order: Łucja after Lena, Żaneta last (`tracker.collation`).
sort_key = polish_key
