"""A whole table game: seats taking turns in order, their sheets, the end and the winners.

Built from the turns players entered (the source of truth), so anything shown or cached is
derived here and can always be recomputed. Implements `GameState`.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from .codes import Code
from .dice import Dice, is_five_of_a_kind
from .errors import MoveRefused, RulesError
from .moves import Evaluation, Placement, evaluate, play, unknown_field, write_move
from .sheet import (
    Column,
    Sheet,
    SheetTotals,
    column_rise,
    column_totals,
    empty_sheet,
    extra_bonus_count,
    sheet_totals,
)
from .state import SeatFigures, TurnRecord, places_of, winners_of
from .text import N_, Text
from .variants import Options, Variant

__all__ = ["TableGame", "TurnRecord", "places_of", "winners_of"]

NOTHING_TO_UNDO = N_("Nie ma czego cofać: to początek gry.")
TURNS_OUT_OF_ORDER = N_("Zapisane ruchy nie idą po kolei przy stole.")


class TableGame:
    """The state of a table game after some turns. Seats play in seating order, one field a turn."""

    def __init__(self, variant: Variant, players: int, options: Options | None = None) -> None:
        least, most = variant.min_players, variant.max_players
        if not least <= players <= most:
            raise RulesError(
                Text(
                    N_("W grze bierze udział od %(least)d do %(most)d graczy."),
                    least=least,
                    most=most,
                ),
                Code.PLAYER_COUNT,
            )
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
        """Rebuild from the dice, judging every turn again (points recomputed)."""
        game = cls(variant, players, options)
        for dice, field_id, column in turns:
            game.play_turn(dice, field_id, column)
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
                raise RulesError(TURNS_OUT_OF_ORDER, Code.TURNS_OUT_OF_ORDER)
            if record.field is None:
                raise RulesError(unknown_field(record.field, variant.id), Code.UNKNOWN_FIELD)
            column = cells[record.seat][record.column]
            if record.field in column:
                raise RulesError(
                    N_("Zapisane ruchy wpisują dwa razy to samo pole."), Code.FIELD_WRITTEN_TWICE
                )
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
        other = TableGame.__new__(TableGame)  # not __init__: it would build empty sheets
        other.variant, other.options, other.players = self.variant, self.options, self.players
        other.sheets = list(self.sheets)
        other.turns = list(self.turns)
        other._totals = dict(self._totals)
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

    @property
    def next_seq(self) -> int:
        return len(self.turns) + 1

    def evaluate(self, dice: Dice) -> Evaluation:
        """What the current player's roll may score on their sheet."""
        seat = self._require_current_seat()
        return evaluate(self.variant, self.sheets[seat], dice, self.options)

    def play(self, dice: Dice, field_id: str, column: int = 0) -> Placement:
        """Play the current seat's turn and price it for the player (`Placement.gain`)."""
        seat = self._require_current_seat()
        sheet, placement = play(
            self.variant, self.sheets[seat], dice, field_id, column, self.options
        )
        self._write(
            sheet,
            TurnRecord(seat, dice, field_id, column, placement.points, placement.extra_bonus),
        )
        return placement

    def play_turn(self, dice: Dice, field: str | None = None, column: int = 0) -> TurnRecord:
        """Play the current seat's turn without pricing it (the fast path of a replay or an
        import); refuses exactly what `play` refuses, with the same messages and codes."""
        seat = self._require_current_seat()
        if field is None:
            raise RulesError(unknown_field(field, self.variant.id), Code.UNKNOWN_FIELD)
        sheet, verdict = write_move(self.variant, self.sheets[seat], dice, field, column)
        record = TurnRecord(seat, dice, field, column, verdict.points, verdict.extra_bonus)
        self._write(sheet, record)
        return record

    def undo(self) -> TurnRecord:
        """Take back the last turn: its field is free again, its extra bonus gone."""
        if not self.turns:
            raise RulesError(NOTHING_TO_UNDO, Code.NOTHING_TO_UNDO)
        record = self.turns.pop()
        assert record.field is not None  # a table turn always names its field
        sheet = self.sheets[record.seat]
        column = sheet[record.column].erase(record.field, record.extra_bonus)
        self.sheets[record.seat] = sheet[: record.column] + (column,) + sheet[record.column + 1 :]
        self._totals.pop(record.seat, None)
        return record

    def totals(self, seat: int) -> SheetTotals:
        totals = self._totals.get(seat)
        if totals is None:
            totals = sheet_totals(self.variant, self.sheets[seat], self.options)
            self._totals[seat] = totals
        return totals

    def rise(self, index: int = -1) -> int:
        """How much the turn at `index` of the turns in force raised its player's grand total
        when it was written: its points and extra bonus, the upper bonus it completed, all
        times its column's multiplier („Generał ×3: 50” raised it by 150)."""
        record = self.turns[index]
        assert record.field is not None  # a table turn always names its field
        column = Column()
        for earlier in self.turns[: index % len(self.turns)]:
            if earlier.seat == record.seat and earlier.column == record.column and earlier.field:
                column = column.write(earlier.field, earlier.points, earlier.extra_bonus)
        multiplier = self.variant.multipliers[record.column]
        before = column_totals(self.variant, column, multiplier, self.options)
        return column_rise(
            self.variant, before, record.field, record.points, record.extra_bonus, self.options
        )

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

    def seat_figures(self, seat: int) -> SeatFigures:
        """The seat's total, the columns that earned the upper bonus, the five of a kind it
        rolled (wherever written, zeros and jokers included) and its extra Generał bonuses."""
        totals = self.totals(seat)
        return SeatFigures(
            total=totals.total,
            upper_bonuses=sum(1 for c in totals.columns if c.upper_bonus),
            # Turns go round the table in seating order: every `players`-th is this seat's.
            generals=sum(1 for t in self.turns[seat :: self.players] if is_five_of_a_kind(t.dice)),
            extra_bonuses=extra_bonus_count(self.variant, self.sheets[seat]),
        )

    def _write(self, sheet: Sheet, record: TurnRecord) -> None:
        self.sheets[record.seat] = sheet
        self._totals.pop(record.seat, None)
        self.turns.append(record)

    def _require_current_seat(self) -> int:
        seat = self.current_seat
        if seat is None:
            raise MoveRefused(N_("Gra jest zakończona: wszystkie tabele są pełne."), Code.GAME_OVER)
        return seat
