"""Lists of an account's games: newest first, with how far each got and who won."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from .. import rules
from ..extensions import db
from ..models import Game
from ..store import games as store
from .filters import played_at
from .inputs import local_midnight


@dataclass(frozen=True)
class GameSummary:
    """A game as a list shows it: the variant, who sits at the table, how far the game got."""

    game: Game
    variant_name: str
    names: list[str]
    turns_played: int  # turns in force
    round: int  # 1-based round (kolejka), as the rules count it
    rounds: int | None  # turns per player; None for a poker match, which has no fixed length
    winners: list[str]  # from the cached results; empty until the game is over


def _games(
    account_id: int,
    finished: bool | None,
    limit: int | None = None,
    started_since: datetime | None = None,
) -> list[Game]:
    query = (
        select(Game)
        .where(Game.account_id == account_id)
        .options(selectinload(Game.seats))
        # Newest first by the moment the game's day is (`filters.played_at`): a finished game
        # by its end, an unfinished one by its start.
        .order_by(played_at().desc(), Game.id.desc())
    )
    if finished is not None:
        query = query.where(
            Game.finished_at.is_not(None) if finished else Game.finished_at.is_(None)
        )
    if started_since is not None:
        query = query.where(Game.started_at >= started_since)
    if limit is not None:
        query = query.limit(limit)
    return list(db.session.scalars(query))


def list_games(account_id: int, *, finished: bool | None = None) -> list[Game]:
    return _games(account_id, finished)


# Unfinished games the home page lists: those started today or on the days before, this many
# days in all. Older ones, most often abandoned, would push tonight's game down the page; the
# page links to them in the history, where they open and can be played on or deleted as before.
RECENT_UNFINISHED_DAYS = 7


@dataclass(frozen=True)
class RecentUnfinished:
    """The unfinished games of the last days, and how many older ones there are."""

    games: list[GameSummary]  # started on `first_day` or later, newest first
    older: int  # unfinished games started before `first_day`
    first_day: date  # local


def recent_unfinished(
    account_id: int, zone: tzinfo, today: date, days: int = RECENT_UNFINISHED_DAYS
) -> RecentUnfinished:
    """The account's unfinished games started on the last `days` local days (`today` the
    last), and the count of those started before."""
    first_day = today - timedelta(days=days - 1)
    since = local_midnight(first_day, zone)
    older = select(func.count(Game.id)).where(
        Game.account_id == account_id, Game.finished_at.is_(None), Game.started_at < since
    )
    return RecentUnfinished(
        summaries(account_id, finished=False, started_since=since),
        db.session.scalar(older) or 0,
        first_day,
    )


def summaries(
    account_id: int,
    *,
    finished: bool | None = None,
    limit: int | None = None,
    started_since: datetime | None = None,
) -> list[GameSummary]:
    """The account's games, newest first, with their progress; two queries, not one per game.
    `started_since` (stored UTC): only the games started at or after it."""
    games = _games(account_id, finished, limit, started_since)
    played = store.turns_played([g.id for g in games])
    result = []
    for game in games:
        variant = rules.find_variant(game.variant)
        turns = played.get(game.id, 0)
        current = turns // max(len(game.seats), 1) + 1
        result.append(
            GameSummary(
                game=game,
                variant_name=variant.name,
                names=[s.player.name for s in game.seats],
                turns_played=turns,
                round=current if variant.turns is None else min(current, variant.turns),
                rounds=variant.turns,
                winners=[s.player.name for s in game.seats if s.is_winner and game.finished],
            )
        )
    return result
