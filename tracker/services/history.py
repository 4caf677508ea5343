"""The history of an account's games: every game, newest first, filtered and a page at a time.

The filter is the statistics' one (`filters.GameFilter`), and a game's day is theirs too: a
finished game belongs to the day it finished. Unfinished games are listed as well, by the day
they started (`filters.played_at`).

Results come from the figures cached on the seats (derived from the turns, see
`tracker.models`); how far an unfinished game got is counted from its turns in force. A page
costs four queries however many games the account has.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from .. import rules
from ..extensions import db
from ..models import Game
from ..store.games import turns_played
from .filters import GameFilter, game_conditions, played_at

PAGE_SIZE = 30


@dataclass(frozen=True)
class SeatResult:
    name: str
    total: int  # points; round wins in dice poker
    place: int | None  # once the game is over
    winner: bool


@dataclass(frozen=True)
class HistoryEntry:
    game: Game
    variant_name: str
    seats: tuple[SeatResult, ...]  # in seating order
    turns_played: int  # turns in force
    round: int  # the round (kolejka) being played, or the last one once the game is over
    rounds: int | None  # rounds in the whole game; None for dice poker (no fixed number)
    poker: bool  # a seat's total is its round wins, not points

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.winner] if self.finished else []


@dataclass(frozen=True)
class HistoryPage:
    entries: list[HistoryEntry]
    page: int  # 1-based
    pages: int  # at least 1, also when nothing matches
    total: int  # games matching the filters, on every page

    @property
    def newer(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def older(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None


def search(
    account_id: int,
    f: GameFilter,
    page: int = 1,
    per_page: int = PAGE_SIZE,
    *,
    finished: bool | None = None,
) -> HistoryPage:
    """The account's games that `f` keeps (by the day they were played: `filters.played_at`),
    newest first; a page past
    the last shows the last one. `finished`: only the games over (True), only those still
    going on (False), or both (None)."""
    conditions = game_conditions(account_id, f, dated_by="played")
    if finished is not None:
        conditions.append(Game.finished_at.is_not(None) if finished else Game.finished_at.is_(None))
    total = db.session.scalar(select(func.count(Game.id)).where(*conditions)) or 0
    pages = max(1, -(-total // per_page))
    page = min(max(page, 1), pages)
    games = list(
        db.session.scalars(
            select(Game)
            .where(*conditions)
            .options(selectinload(Game.seats))
            .order_by(played_at().desc(), Game.id.desc())
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
    )
    played = turns_played([g.id for g in games])
    return HistoryPage([_entry(g, played.get(g.id, 0)) for g in games], page, pages, total)


def _entry(game: Game, turns_played: int) -> HistoryEntry:
    players = max(len(game.seats), 1)
    variant = rules.find_variant(game.variant)
    # Dice poker has no fixed number of rounds; a table game has one turn per field and column.
    rounds = variant.turns
    current = turns_played // players + 1
    if game.finished:
        current = -(-turns_played // players)  # the round the last turn was written in
    return HistoryEntry(
        game=game,
        variant_name=variant.name,
        seats=tuple(SeatResult(s.player.name, s.total, s.place, s.is_winner) for s in game.seats),
        turns_played=turns_played,
        round=current if rounds is None else min(current, rounds),
        rounds=rounds,
        poker=variant.kind == "poker",
    )
