"""A whole table game: seats taking turns in order, their sheets, the end and the winners.

Built from the turns players entered (the source of truth), so anything shown or cached is
derived here and can always be recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from .dice import Dice
from .errors import MoveRefused, RulesError
from .moves import Evaluation, Placement, evaluate, play
from .sheet import Column, Sheet, SheetTotals, empty_sheet, sheet_totals
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
        self._totals: dict[int, SheetTotals] = {}  # per seat, cleared when its sheet changes

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
        columns = variant.columns
        cells: list[list[dict[str, int]]] = [[{} for _ in range(columns)] for _ in range(players)]
        extras = [[0] * columns for _ in range(players)]
        for index, record in enumerate(records):
            # Seats take turns in order, and no sheet takes more turns than it has fields.
            if record.seat != index % players or index >= game.total_turns:
                raise RulesError("Zapisane ruchy nie idą po kolei przy stole.")
            column = cells[record.seat][record.column]
            if record.field in column:
                raise RulesError("Zapisane ruchy wpisują dwa razy to samo pole.")
            column[record.field] = record.points
            extras[record.seat][record.column] += record.extra_bonus
            game.turns.append(record)
        game.sheets = [
            tuple(
                Column(MappingProxyType(c), e)
                for c, e in zip(cells[seat], extras[seat], strict=True)
            )
            for seat in range(players)
        ]
        return game

    def copy(self) -> TableGame:
        """An independent copy: sheets and turns are immutable values, so copying the lists is
        enough."""
        other = TableGame(self.variant, self.players, self.options)
        other.sheets = list(self.sheets)
        other.turns = list(self.turns)
        return other

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
        self._totals.pop(seat, None)
        self.turns.append(
            TurnRecord(seat, dice, field_id, column, placement.points, placement.extra_bonus)
        )
        return placement

    def totals(self, seat: int) -> SheetTotals:
        totals = self._totals.get(seat)
        if totals is None:
            totals = sheet_totals(self.variant, self.sheets[seat], self.options)
            self._totals[seat] = totals
        return totals

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
