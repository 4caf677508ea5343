"""One protocol for every game, table or poker: play a turn, undo it, whose turn, who won.

The turns players entered are the source of truth; a `GameState` is what they add up to. Both
kinds keep their own stack of turns and their own caches, so `undo` gives back exactly the state
of the game one turn shorter (as python-chess's `Board.pop()` does), and a caller never reaches
into sheets or rounds to take a turn back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .dice import Dice
from .variants import AnyVariant, Options, PokerOptions


@dataclass(frozen=True)
class TurnRecord:
    """One turn as entered and written. Poker: no field, column 0, no points."""

    seat: int
    dice: Dice
    field: str | None
    column: int
    points: int
    extra_bonus: int


@dataclass(frozen=True)
class SeatFigures:
    """What statistics keep about one seat, derived from the turns in force."""

    total: int  # the sheet's total; in poker, the rounds won
    upper_bonuses: int  # columns whose upper section earned the bonus
    generals: int  # five of a kind rolled by this seat, wherever written
    extra_bonuses: int  # extra Generał bonuses marked on the sheet


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    """Highest total wins; equal highest totals share the win. One player: that player wins."""
    if not totals:
        return ()
    best = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


def places_of(totals: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking: equal totals share a place and the next place is skipped (1, 1, 3)."""
    return tuple(1 + sum(1 for other in totals if other > t) for t in totals)


class GameState(Protocol):
    """A game after some turns, whatever its kind (`TableGame`, `PokerMatch`)."""

    @property
    def variant(self) -> AnyVariant: ...

    @property
    def players(self) -> int: ...

    @property
    def options(self) -> Options | PokerOptions: ...

    @property
    def turns(self) -> list[TurnRecord]:
        """The turns in force, in the order they were played."""
        ...

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is; None once the game is over."""
        ...

    @property
    def finished(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats of the winners once the game is over, else empty."""
        ...

    @property
    def places(self) -> tuple[int, ...]: ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat: the total of the sheet, or in poker the rounds won."""
        ...

    @property
    def round(self) -> int:
        """The 1-based round (kolejka) being played, or the last one once the game is over."""
        ...

    @property
    def next_seq(self) -> int:
        """The 1-based number the next turn will have: len(turns) + 1."""
        ...

    def play_turn(self, dice: Dice, field: str | None = None, column: int = 0) -> TurnRecord:
        """Play the current seat's turn; RulesError (MoveRefused for a forbidden move)."""
        ...

    def undo(self) -> TurnRecord:
        """Take back the last turn and return it; RulesError when there is none."""
        ...

    def seat_figures(self, seat: int) -> SeatFigures: ...

    def copy(self) -> GameState: ...
