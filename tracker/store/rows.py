"""A game as stored: its row, its seats and its turns, read with Core queries (plain values, no
ORM loading costs on the turn path)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..rules import Dice


@dataclass(frozen=True)
class PlayerRef:
    id: int
    name: str


def stamp_of(uid: str, version: int) -> str:
    return f"{uid}.{version}"


@dataclass
class GameRow:
    id: int
    account_id: int
    variant: str
    options: dict[str, Any]
    started_at: datetime
    finished_at: datetime | None
    rematch_of_id: int | None
    uid: str  # never given to another game
    version: int  # raised by every write to the game
    hints: bool = False  # the table agreed to the hint („Podpowiedzi”) when the game started

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def stamp(self) -> str:
        """The game's state in one word, `<uid>.<version>` (as `store.games.game_stamp` reads
        it): every write changes it, and no other game ever has it."""
        return stamp_of(self.uid, self.version)

    def at_version(self, version: int) -> GameRow:
        return GameRow(
            self.id,
            self.account_id,
            self.variant,
            self.options,
            self.started_at,
            self.finished_at,
            self.rematch_of_id,
            self.uid,
            version,
            self.hints,
        )


@dataclass(frozen=True)
class GameLock:
    """What a write's lock statement returns: the game's identity and its version, already
    raised by this write (`store.games.lock_game`)."""

    id: int
    uid: str
    variant: str
    version: int


@dataclass
class SeatRow:
    """A player at the table, with the results cached for lists and statistics."""

    id: int
    seat: int
    player: PlayerRef
    total: int
    place: int | None
    is_winner: bool
    upper_bonuses: int
    generals: int
    extra_bonuses: int

    def copy(self) -> SeatRow:
        """A copy to change (the turn path copies the seats of its cache on every request:
        this is several times cheaper than `copy.copy`)."""
        return SeatRow(
            self.id,
            self.seat,
            self.player,
            self.total,
            self.place,
            self.is_winner,
            self.upper_bonuses,
            self.generals,
            self.extra_bonuses,
        )


@dataclass
class TurnRow:
    id: int
    seq: int
    seat: int
    dice: str  # five digits, as entered
    field: str | None  # None in poker
    column: int | None
    points: int | None
    extra_bonus: int
    created_at: datetime | None = None  # None when read by the turn path, which skips it
    undone_at: datetime | None = None

    @property
    def dice_tuple(self) -> Dice:
        return dice_of(self.dice)


@functools.lru_cache(maxsize=8192)
def dice_of(text: str) -> Dice:
    """The dice stored as five digits, as a tuple (every request turns dozens of them back). A
    pure function of its text: the cache can never be stale."""
    d = [int(ch) for ch in text]
    return (d[0], d[1], d[2], d[3], d[4])
