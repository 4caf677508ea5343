"""Reading and writing the seat reviews (`seat_reviews`): each seat of a finished table game
judged against optimal play, derived from its turns (`tracker.services.skill`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, exists, insert, or_, select, update

from ..models import Game, SeatReview, utcnow
from ..rules import VARIANTS
from . import games

_reviews = SeatReview.__table__
_games = Game.__table__

# Variants without a table (dice poker): no field is chosen, so there is nothing to review.
_NO_TABLE = sorted(v.id for v in VARIANTS.values() if v.kind != "table")

_DELETE = delete(_reviews).where(_reviews.c.game_id == bindparam("game_id"))
_INSERT = insert(_reviews)
_READ = (
    select(
        _reviews.c.seat,
        _reviews.c.player_id,
        _reviews.c.turns,
        _reviews.c.loss,
        _reviews.c.luck,
        _reviews.c.expected_start,
        _reviews.c.total,
        _reviews.c.exact,
        _reviews.c.computed_at,
    )
    .where(_reviews.c.game_id == bindparam("game_id"))
    .order_by(_reviews.c.seat)
)
_MOVE = (
    update(_reviews)
    .where(_reviews.c.player_id == bindparam("from_player"))
    .values(player_id=bindparam("to_player"))
)
# Every finished table game, of every account: what `advisor recompute` reviews.
_REVIEWABLE = (
    select(_games.c.id)
    .where(_games.c.finished_at.is_not(None), _games.c.variant.not_in(_NO_TABLE))
    .order_by(_games.c.id)
)
# Finished table games without a single review: those an import left to its background
# reviewer when the server stopped, or that the advisor could not judge (no table). `serve`
# completes them when it starts; the index of (game_id, seat) answers the NOT EXISTS.
_UNREVIEWED = _REVIEWABLE.where(~exists().where(_reviews.c.game_id == _games.c.id))
_HAS_REVIEWS = select(exists().where(_reviews.c.game_id == bindparam("game_id")))
# Reviews no game should have (its end taken back, or a game without a table): what a
# recomputation removes.
_DELETE_STALE = delete(_reviews).where(
    _reviews.c.game_id.in_(
        select(_games.c.id).where(
            or_(_games.c.finished_at.is_(None), _games.c.variant.in_(_NO_TABLE))
        )
    )
)
_LOCK = select(_games.c.id).where(_games.c.id == bindparam("game_id")).with_for_update()


@dataclass(frozen=True)
class ReviewRow:
    """One seat's stored review (see `tracker.models.SeatReview`)."""

    seat: int
    player_id: int
    turns: int
    loss: float
    luck: float
    expected_start: float
    total: int
    exact: bool
    computed_at: datetime | None = None  # None: now


def replace_reviews(game_id: int, reviews: Sequence[ReviewRow]) -> None:
    """The game's reviews are these, in the caller's transaction."""
    conn = games.connection()
    conn.execute(_DELETE, {"game_id": game_id})
    now = utcnow()
    if reviews:
        conn.execute(
            _INSERT,
            [
                {
                    "game_id": game_id,
                    "seat": r.seat,
                    "player_id": r.player_id,
                    "turns": r.turns,
                    "loss": r.loss,
                    "luck": r.luck,
                    "expected_start": r.expected_start,
                    "total": r.total,
                    "exact": r.exact,
                    "computed_at": r.computed_at or now,
                }
                for r in reviews
            ],
        )


def delete_reviews(game_id: int) -> None:
    games.connection().execute(_DELETE, {"game_id": game_id})


def reviews_of(game_id: int) -> list[ReviewRow]:
    """The game's stored reviews, by seat (none for a game without them)."""
    return [ReviewRow(*r) for r in games.connection().execute(_READ, {"game_id": game_id})]


def move_reviews(from_player: int, to_player: int) -> None:
    """Give every review of one player to another (the players are merged)."""
    games.connection().execute(_MOVE, {"from_player": from_player, "to_player": to_player})


_MOVE_IN = (
    update(_reviews)
    .where(
        _reviews.c.player_id == bindparam("from_player"),
        _reviews.c.game_id.in_(bindparam("game_ids", expanding=True)),
    )
    .values(player_id=bindparam("to_player"))
)


def move_reviews_in(from_player: int, to_player: int, game_ids: list[int]) -> None:
    """`move_reviews` for these games only (a merge undone)."""
    if game_ids:
        games.connection().execute(
            _MOVE_IN, {"from_player": from_player, "to_player": to_player, "game_ids": game_ids}
        )


def reviewable_game_ids() -> list[int]:
    return list(games.connection().execute(_REVIEWABLE).scalars())


def unreviewed_game_ids() -> list[int]:
    """Every finished table game of every account that has no review, oldest first."""
    return list(games.connection().execute(_UNREVIEWED).scalars())


def has_reviews(game_id: int) -> bool:
    return bool(games.connection().execute(_HAS_REVIEWS, {"game_id": game_id}).scalar())


def delete_stale_reviews() -> int:
    """Remove the reviews of games that are not finished table games; how many."""
    return games.connection().execute(_DELETE_STALE).rowcount or 0


def lock_game(game_id: int) -> bool:
    """Hold the game's row until the transaction ends (PostgreSQL; SQLite has one writer), so
    that no turn, undo or correction changes it while its reviews are recomputed. The game's
    version is not raised: a recomputation changes nothing a phone shows. False when the game
    is gone."""
    return games.connection().execute(_LOCK, {"game_id": game_id}).first() is not None
