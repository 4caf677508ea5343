"""Who plays best: every seat of a finished table game judged against optimal solitaire play
(`tracker.advisor.review_game`), stored once per game for the statistics.

A seat's review is derived from its turns like every cached figure: the turn that ends a game
judges all its seats once its own transaction is committed and stores them in a short one of
their own (`review_finished`: only that turn pays, a few milliseconds for six players on the
Polish table, and no other table's turn waits for it); the undo that reopens the game drops
them; a correction of a finished game rewrites them; an import reviews the games it brings
once they are written (`review_games`: for a couple of seconds, then a background thread,
`services.reviewer`);
`flask --app tracker advisor recompute` rewrites them all.

Where the advisor has no table for the variant (or no advice at all: dice poker), the game is
written as always and its reviews stay missing, with a warning in the log; the recomputation
fills them in once the table is there, and so does `serve` when it starts (every finished
table game without reviews: also those of a server stopped while it reviewed an import).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy.exc import NoResultFound, SQLAlchemyError

from .. import advisor, rules
from ..extensions import db
from ..models import utcnow
from ..store import games as game_store
from ..store import skill as store
from ..store.rows import SeatRow, TurnRow
from .game_view import GameView

logger = logging.getLogger(__name__)


def review_turns(
    variant: rules.Variant, options: rules.Options | None, seats: int, turns: Iterable[TurnRow]
) -> tuple[advisor.SeatReview, ...]:
    """Every seat's review from the game's turns in force, in order (the whole record: what
    is stored comes from `summarise_turns`, the same figures at a fraction of the cost)."""
    return advisor.review_game(
        variant,
        options,
        seats,
        ((t.seat, t.dice_tuple, t.field or "", t.column or 0) for t in turns),
    )


def summarise_turns(
    variant: rules.Variant, options: rules.Options | None, seats: int, turns: Iterable[TurnRow]
) -> tuple[advisor.SeatSummary, ...]:
    """What is stored of every seat's review (`review_turns`' sums, without the turn by turn
    record), from the game's turns in force."""
    return advisor.summarise_game(
        variant,
        options,
        seats,
        ((t.seat, t.dice_tuple, t.field or "", t.column or 0) for t in turns),
    )


def review_rows(
    seats: list[SeatRow], summaries: tuple[advisor.SeatSummary, ...]
) -> list[store.ReviewRow]:
    """What is stored of each seat's review."""
    now = utcnow()
    return [
        store.ReviewRow(
            seat=seat.seat,
            player_id=seat.player.id,
            turns=summary.turns,
            loss=summary.loss,
            luck=summary.luck,
            expected_start=summary.expected_start,
            total=summary.total,
            exact=summary.exact,
            computed_at=now,
        )
        for seat, summary in zip(seats, summaries, strict=True)
    ]


def _reviewed(
    game_id: int,
    variant: rules.AnyVariant,
    options: object,
    seats: list[SeatRow],
    turns: list[TurnRow],
) -> list[store.ReviewRow] | None:
    """The rows to store for a finished game (`options`: the rules' `Options`, or as stored);
    None when the advisor cannot review it: dice poker, or no table for the variant (logged)."""
    if not isinstance(variant, rules.Variant) or not advisor.supports(variant):
        return None
    try:
        parsed = options if isinstance(options, rules.Options) else variant.parse_options(options)
        return review_rows(seats, summarise_turns(variant, parsed, len(seats), turns))
    except (advisor.AdvisorUnavailable, rules.RulesError) as exc:
        logger.warning("No review of game %s (%s): %s", game_id, variant.id, exc)
        return None


def _store(game_id: int, rows: list[store.ReviewRow] | None) -> bool:
    if rows is None:
        store.delete_reviews(game_id)
        return False
    store.replace_reviews(game_id, rows)
    return True


def review_finished(view: GameView) -> bool | None:
    """Store the reviews of a game a turn has just ended (`view`: the game as that turn's
    committed transaction left it), after that transaction: the seats are judged outside any
    lock (a few milliseconds for a big table), then stored under the game's lock in a short
    transaction of their own, so the other tables' turns never wait for a review. Should the
    game have changed in between (an undo from another phone), it is judged again under the
    lock, as `review_games` does. Whether reviews were stored; None when storing failed: the
    turn stands, and `serve` completes the game's reviews when it next starts (logged)."""
    rows = _reviewed(view.game.id, view.variant, view.options, view.seats, view.turns)
    try:
        return _store_as_judged(view.game.id, view.game.account_id, view.game.stamp, rows)
    except SQLAlchemyError:
        logger.exception("The reviews of game %s were not stored", view.game.id)
        return None


def _store_as_judged(
    game_id: int, account_id: int, judged_at: str, rows: list[store.ReviewRow] | None
) -> bool | None:
    """Store rows judged outside any lock from the game as it stood at `judged_at` (its
    `<uid>.<version>` stamp), in a short transaction under the game's lock; judged again under
    the lock if the game changed meanwhile. Whether reviews were stored; None: the game is gone."""
    with game_store.own_write():
        if not store.lock_game(game_id):
            return None
        if game_store.game_stamp(account_id, game_id) == judged_at:
            return _store(game_id, rows)
        return recompute_game(game_id)


def update_reviews(view: GameView) -> bool:
    """Make the game's stored reviews follow its turns, in the caller's transaction: every
    seat's review when the game is finished, none otherwise. Whether reviews were stored."""
    rows = None
    if view.finished:
        rows = _reviewed(view.game.id, view.variant, view.options, view.seats, view.turns)
    return _store(view.game.id, rows)


@dataclass(frozen=True)
class Recomputed:
    """What `recompute_all` did: games reviewed, finished table games the advisor could not
    review (no table for their variant: logged), and reviews removed from games that are not
    finished table games (any more)."""

    reviewed: int
    unavailable: int
    removed: int


def recompute_game(game_id: int) -> bool | None:
    """Rewrite one game's reviews from its turns, under the game's lock, in the caller's
    transaction: whether it was reviewed (None: the game is gone)."""
    if not store.lock_game(game_id):
        return None
    game, seats = game_store.read_game_by_id(game_id)
    rows = None
    if game.finished:
        variant = rules.find_variant(game.variant)
        turns = game_store.turns_in_force(game_id)
        rows = _reviewed(game_id, variant, game.options or None, seats, turns)
    return _store(game_id, rows)


@dataclass(frozen=True)
class Reviewed:
    """What `review_games` did: games reviewed, and finished table games the advisor could
    not review (no table for their variant: logged)."""

    reviewed: int
    unavailable: int


def review_games(game_ids: Iterable[int], *, only_missing: bool = False) -> Reviewed:
    """Store the reviews of these games (of any account) from their turns, one short write
    transaction a game: for games just written in bulk (an import). With `only_missing`, a
    game that has reviews already is skipped: every write keeps a game's reviews in step with
    its turns, so they are current (another worker's reviewer, or an earlier import, stored
    them).

    Each game is read and judged outside any write transaction (a game of 2–4 players takes
    10–70 ms of CPU), then its rows are stored under the game's lock in a transaction of its
    own that lasts a millisecond or two: a turn written meanwhile at the table waits for one
    such store at most, never for a review. Should the game have changed in between (its
    version raised: a turn, an undo, a correction), it is judged again under the lock
    (`recompute_game`). A game that is gone is skipped; one that is not a finished table game
    gets no review."""
    reviewed = unavailable = 0
    for game_id in game_ids:
        try:
            if only_missing and store.has_reviews(game_id):
                continue
            game, seats = game_store.read_game_by_id(game_id)
            turns = game_store.turns_in_force(game_id) if game.finished else []
        except NoResultFound:
            continue
        finally:
            db.session.rollback()  # end the read: no snapshot is held while judging
        rows = None
        table_game = False  # a finished table game: one the advisor should review
        if game.finished:
            variant = rules.find_variant(game.variant)
            table_game = variant.kind == "table"
            rows = _reviewed(game_id, variant, game.options or None, seats, turns)
        done = _store_as_judged(game_id, game.account_id, game.stamp, rows)
        if done:
            reviewed += 1
        elif done is False and table_game:
            unavailable += 1
    return Reviewed(reviewed, unavailable)


def recompute_all() -> Recomputed:
    """Review every finished table game of every account again from its turns (idempotent),
    one short transaction a game, so that a server writing turns meanwhile waits for one game
    at most; then remove reviews no game should have."""
    reviewed = unavailable = 0
    for game_id in store.reviewable_game_ids():
        with game_store.writing():
            done = recompute_game(game_id)
            if done is True:
                reviewed += 1
            elif done is False:
                unavailable += 1
            db.session.commit()
    with game_store.writing():
        removed = store.delete_stale_reviews()
        db.session.commit()
    return Recomputed(reviewed, unavailable, removed)
