"""A whole table game: seats taking turns in order, their sheets, the end and the winners.

Built from the turns players entered (the source of truth), so anything shown or cached is
derived here and can always be recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .dice import Dice
from .errors import MoveRefused, RulesError
from .moves import Evaluation, Placement, evaluate, play
from .sheet import Sheet, SheetTotals, empty_sheet, sheet_totals
from .variants import Options, Variant


@dataclass(frozen=True)
class TurnRecord:
    seat: int
    dice: Dice
    field: str
    column: int
    points: int
    extra_bonus: int


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    """Highest total wins; equal highest totals share the win. One player: that player wins."""
    if not totals:
        return ()
    best = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


def places_of(totals: Sequence[int]) -> tuple[int, ...]:
    """Competition ranking: equal totals share a place and the next place is skipped (1, 1, 3)."""
    return tuple(1 + sum(1 for other in totals if other > t) for t in totals)


class TableGame:
    """The state of a table game after some turns. Seats play in seating order, one field a turn."""

    def __init__(self, variant: Variant, players: int, options: Options | None = None) -> None:
        if not 1 <= players <= 8:
            raise RulesError("W grze bierze udział od 1 do 8 graczy.")
        self.variant = variant
        self.options = options or Options()
        self.players = players
        self.sheets: list[Sheet] = [empty_sheet(variant) for _ in range(players)]
        self.turns: list[TurnRecord] = []

    @classmethod
    def replay(
        cls,
        variant: Variant,
        players: int,
        turns: Iterable[tuple[Dice, str, int]],
        options: Options | None = None,
    ) -> TableGame:
        game = cls(variant, players, options)
        for dice, field_id, column in turns:
            game.play(dice, field_id, column)
        return game

    @classmethod
    def restore(
        cls,
        variant: Variant,
        players: int,
        records: Iterable[TurnRecord],
        options: Options | None = None,
    ) -> TableGame:
        """Rebuild from stored turns trusting the points written then (the fast path for every
        request); `replay` recomputes them from the dice."""
        game = cls(variant, players, options)
        for record in records:
            if record.seat != game.current_seat:
                raise RulesError("Zapisane ruchy nie idą po kolei przy stole.")
            sheet = game.sheets[record.seat]
            col = sheet[record.column].write(record.field, record.points, record.extra_bonus)
            game.sheets[record.seat] = sheet[: record.column] + (col,) + sheet[record.column + 1 :]
            game.turns.append(record)
        return game

    @property
    def total_turns(self) -> int:
        return self.variant.turns * self.players

    @property
    def finished(self) -> bool:
        return len(self.turns) >= self.total_turns

    @property
    def current_seat(self) -> int | None:
        return None if self.finished else len(self.turns) % self.players

    @property
    def round(self) -> int:
        """1-based round (kolejka); the last round once the game is over."""
        return min(len(self.turns) // self.players + 1, self.variant.turns)

    def evaluate(self, dice: Dice) -> Evaluation:
        """What the current player's roll may score on their sheet."""
        seat = self._require_current_seat()
        return evaluate(self.variant, self.sheets[seat], dice, self.options)

    def play(self, dice: Dice, field_id: str, column: int = 0) -> Placement:
        seat = self._require_current_seat()
        sheet, placement = play(
            self.variant, self.sheets[seat], dice, field_id, column, self.options
        )
        self.sheets[seat] = sheet
        self.turns.append(
            TurnRecord(seat, dice, field_id, column, placement.points, placement.extra_bonus)
        )
        return placement

    def totals(self, seat: int) -> SheetTotals:
        return sheet_totals(self.variant, self.sheets[seat], self.options)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.totals(seat).total for seat in range(self.players))

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats of the winners once the game is over, else empty."""
        return winners_of(self.scores) if self.finished else ()

    @property
    def places(self) -> tuple[int, ...]:
        return places_of(self.scores)

    def _require_current_seat(self) -> int:
        seat = self.current_seat
        if seat is None:
            raise MoveRefused("Gra jest zakończona: wszystkie tabele są pełne.")
        return seat
