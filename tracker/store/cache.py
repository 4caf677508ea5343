"""Per server process (shared by its threads): the table state of recently played games.

It only saves reading a game's seats and turns and rebuilding its sheets. A write reads the
game's row as its lock raises the version (`store.games.lock_game`); the entry serves it only
when it is that very game (uid) as it was just before (the version before the raise), so it
never answers for another game, another process's write or a stale version. A turn may also be
decided on the entry before any statement (`take`): its write then takes the lock only on the
condition that the game is still the entry's uid, account and version
(`store.games.insert_turn_at_version`), and writes nothing otherwise. Every change to a game's
turns, seats or players' names raises its version. Entries also go on undo and delete.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .rows import GameLock, GameRow, SeatRow, TurnRow

State = TypeVar("State")

_SIZE = 256


@dataclass(frozen=True)
class CachedTable(Generic[State]):
    """A game's state as this process last wrote it, and what it was built from."""

    game: GameRow  # a copy of the row: its uid, version and variant are what the entry serves
    seats: tuple[SeatRow, ...]  # copies: the writer that takes the entry may change them
    turns: tuple[TurnRow, ...]
    state: State  # a copy: `take_before` hands it to one writer, who may change it

    def precedes(self, game: GameLock) -> bool:
        """Whether this state is the game's just before the write that raised its version to
        `game.version`: the same game (its uid is never given to another), no write since
        (every write raises the version by one), and, as a check, the same variant."""
        mine = self.game
        return (
            mine.uid == game.uid
            and mine.version == game.version - 1
            and mine.variant == game.variant
        )


_tables: dict[int, CachedTable[object]] = {}


def take_before(game: GameLock) -> CachedTable[object] | None:
    """The entry of the game as it was before the write that has just locked it, if held,
    taken out of the cache: the write that holds the game's lock owns it (no copy) and puts
    the state back when it commits (`put`). A write that fails leaves nothing, and the next
    one reads the game again."""
    cached = _tables.pop(game.id, None)
    return cached if cached is not None and cached.precedes(game) else None


def take(game_id: int, account_id: int) -> CachedTable[object] | None:
    """The entry of the game, whatever its version, taken out of the cache, for a write that
    decides on it before any lock: it only writes if the game is still that very state
    (`store.games.insert_turn_at_version`), and otherwise takes the lock and reads the game
    again. None when this process holds no state of the game, or holds another account's."""
    cached = _tables.pop(game_id, None)
    return cached if cached is not None and cached.game.account_id == account_id else None


def put(game: GameRow, seats: list[SeatRow], turns: list[TurnRow], state: object) -> None:
    if len(_tables) >= _SIZE:  # bounded: forget everything rather than grow
        _tables.clear()
    _tables[game.id] = CachedTable(
        game=game.at_version(game.version),
        seats=tuple(seat.copy() for seat in seats),
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
