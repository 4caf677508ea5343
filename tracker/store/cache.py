"""Per server process (shared by its threads): the table state of recently played games.

It only saves rebuilding a sheet from its turns. Every hit is checked against the game's row read
in the same transaction (`CachedTable.serves`), so it never answers for another game, another
process's write or a stale version; entries go on undo and delete.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .rows import GameRow, SeatRow, TurnRow

State = TypeVar("State")

_SIZE = 256


@dataclass(frozen=True)
class CachedTable(Generic[State]):
    """A game's state as this process last built it, and what it was built from."""

    uid: str
    version: int
    variant: str
    player_ids: tuple[int, ...]
    turns: tuple[TurnRow, ...]
    state: State  # never handed out: the caller copies it

    def serves(self, game: GameRow, seats: list[SeatRow]) -> bool:
        """Whether this state is the game's as read now: the same game (its uid is never given
        to another), unchanged since (every write raises the version), and, as a check on
        both, the same variant and players."""
        return (
            self.uid == game.uid
            and self.version == game.version
            and self.variant == game.variant
            and self.player_ids == tuple(s.player.id for s in seats)
        )


_tables: dict[int, CachedTable[object]] = {}


def get(game: GameRow, seats: list[SeatRow]) -> CachedTable[object] | None:
    cached = _tables.get(game.id)
    return cached if cached is not None and cached.serves(game, seats) else None


def put(game: GameRow, seats: list[SeatRow], turns: list[TurnRow], state: object) -> None:
    if len(_tables) >= _SIZE:  # bounded: forget everything rather than grow
        _tables.clear()
    _tables[game.id] = CachedTable(
        uid=game.uid,
        version=game.version,
        variant=game.variant,
        player_ids=tuple(s.player.id for s in seats),
        turns=tuple(turns),
        state=state,
    )


def drop(game_id: int) -> None:
    _tables.pop(game_id, None)


def clear() -> None:
    """Forget every cached table state of this process (tests start each from nothing)."""
    _tables.clear()


def holds(game_id: int) -> bool:
    return game_id in _tables
