"""Correcting an earlier turn without taking back the later ones.

At the table a turn is sometimes entered wrongly: a die mistyped, the wrong field tapped. Undo
only takes back the last turn, so a mistake found three rounds later used to cost every turn
since. A correction replaces one turn and keeps the rest, but only when it changes no later
decision (the rules page says the same, under "Poprawka ruchu"):

- the corrected turn must be a move the rules allowed when it was played: a field free on the
  sheet as it was then, in table order in Gra po kolei, a joker below while a lower field is free;
- every later turn keeps its field and column and stays a move the rules allow on the corrected
  sheet. A field a later turn wrote cannot take the correction (`FIELD_TAKEN_LATER`), and a later
  turn the joker rule or Gra po kolei would now refuse blocks it (`LATER_TURN_REFUSED`);
- the later turns' points are judged again from their dice. They change only where the rules make
  a turn depend on the fields written before it: the extra Generał bonus ("kolejny generał daje
  100 punktów premii, jeśli pierwszego generała wpisano w pole Generał za 50 punktów") and the
  joker (the Generał field and the matching upper field filled). `Correction.rescored` lists them;
- dice poker has no fields: a hand may be corrected while no decided round changes its result
  (winner or draw); a correction that would give a round to someone else would change every round
  after it (the match may have ended earlier), so it is refused (`ROUND_RESULT_CHANGES`).

The rulebook's "Wpisanego wyniku nie można potem zmienić" is about the game, not the record of it:
a correction fixes what was entered, not what was decided, and the corrected turn stays in the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .codes import Code
from .dice import Dice
from .errors import MoveRefused, RulesError
from .game import TableGame
from .match import PokerMatch
from .moves import next_in_order
from .start import AnyOptions, Game, restore_game
from .state import TurnRecord
from .text import N_, Text
from .variants import AnyVariant, Variant


class CorrectionRefused(MoveRefused):
    """A correction the rules refuse because of a later turn (or, in poker, a decided round).

    `later` is the 0-based index of the later turn that blocks it, `cause` the code that turn
    itself meets (e.g. `JOKER_MUST_GO_LOWER` under `LATER_TURN_REFUSED`), `round_number` the
    poker round whose result would change (`ROUND_RESULT_CHANGES`).
    """

    def __init__(
        self,
        message: str | Text,
        code: Code,
        *,
        later: int | None = None,
        cause: Code | None = None,
        round_number: int | None = None,
    ) -> None:
        super().__init__(message, code)
        self.later = later
        self.cause = cause
        self.round_number = round_number


@dataclass(frozen=True)
class Rescored:
    """A later turn whose points or extra bonus the correction changes (same dice and field)."""

    index: int  # 0-based among the turns in force
    before: TurnRecord
    after: TurnRecord


@dataclass(frozen=True)
class Correction:
    """What a correction comes to: the turn before and after, and the game after every turn."""

    index: int  # 0-based among the turns in force; the turn's seq is index + 1
    before: TurnRecord
    after: TurnRecord
    rescored: tuple[Rescored, ...]  # later turns whose points or extra bonus change
    state: Game  # the game after all its turns, the corrected one in place

    @property
    def turns(self) -> list[TurnRecord]:
        return self.state.turns

    @property
    def changes_nothing(self) -> bool:
        """The same dice (in the same order) in the same field: there is nothing to correct."""
        before, after = self.before, self.after
        return (before.dice, before.field, before.column) == (after.dice, after.field, after.column)


@dataclass(frozen=True)
class CorrectionChoice:
    """A field the turn could be moved to, whatever the dice: every field free on the seat's
    sheet before the turn, with the refusal any roll meets there (None: the dice decide)."""

    column: int
    field: str
    label: str
    current: bool  # the field the turn wrote
    reason_code: Code | None = None  # FIELD_TAKEN_LATER or NOT_NEXT_IN_ORDER
    reason: str | None = None
    later: int | None = None  # the later turn that wrote the field (FIELD_TAKEN_LATER)
    reason_text: Text | None = None  # the reason, translatable (`str()` is `reason`)

    @property
    def allowed(self) -> bool:
        return self.reason_code is None


def correct_turn(
    variant: AnyVariant,
    players: int,
    options: AnyOptions | None,
    turns: Sequence[TurnRecord],
    index: int,
    dice: Dice,
    field: str | None = None,
    column: int = 0,
) -> Correction:
    """The game with turn `index` (0-based) of `turns` replaced by these dice in this field.

    The turns before it are trusted as stored (`restore_game`); the corrected turn and every
    later one are judged again, as when they were played. RulesError (`NO_SUCH_TURN`, or what
    `play_turn` says of malformed input), MoveRefused for a corrected move the rules forbid,
    CorrectionRefused when the correction would change a later decision.
    """
    _check_index(turns, index)
    game = restore_game(variant, players, turns[:index], options)
    before = turns[index]
    original = _original_rounds(variant, players, options, turns)
    after = game.play_turn(dice, field, column)
    _check_round(game, original)
    rescored: list[Rescored] = []
    for later in range(index + 1, len(turns)):
        turn = turns[later]
        record = _replay_later(game, turn, later)
        _check_round(game, original)
        if (record.points, record.extra_bonus) != (turn.points, turn.extra_bonus):
            rescored.append(Rescored(later, turn, record))
    return Correction(index, before, after, tuple(rescored), game)


def correction_choices(
    variant: Variant,
    players: int,
    options: AnyOptions | None,
    turns: Sequence[TurnRecord],
    index: int,
) -> tuple[CorrectionChoice, ...]:
    """Where turn `index` of a table game could be written instead, in table order per column:
    every field free on its seat's sheet before it. A field a later turn of the seat wrote is
    refused (`FIELD_TAKEN_LATER`), as is, in Gra po kolei, any field but the next in order; the
    rest depends on the dice (`correct_turn` judges them)."""
    _check_index(turns, index)
    game = restore_game(variant, players, turns[:index], options)
    assert isinstance(game, TableGame)
    turn = turns[index]
    sheet = game.sheets[turn.seat]
    taken_later = {
        (t.column, t.field): later
        for later, t in enumerate(turns[index + 1 :], start=index + 1)
        if t.seat == turn.seat
    }
    choices = []
    for column, col in enumerate(sheet):
        next_free = next_in_order(variant, col)
        for f in variant.table.fields:
            if col.is_filled(f.id):
                continue
            later = taken_later.get((column, f.id))
            reason: tuple[Code, Text] | None = None
            if later is not None:
                reason = (Code.FIELD_TAKEN_LATER, _taken_later(variant, f.id, later))
            elif next_free is not None and f.id != next_free.id:
                reason = (
                    Code.NOT_NEXT_IN_ORDER,
                    Text(
                        N_("Gra po kolei: w tym ruchu wpisywało się do pola %(field)s."),
                        field=next_free.label_text,
                    ),
                )
            choices.append(
                CorrectionChoice(
                    column=column,
                    field=f.id,
                    label=f.label,
                    current=(turn.column, turn.field) == (column, f.id),
                    reason_code=reason[0] if reason else None,
                    reason=str(reason[1]) if reason else None,
                    later=later,
                    reason_text=reason[1] if reason else None,
                )
            )
    return tuple(choices)


def _check_index(turns: Sequence[TurnRecord], index: int) -> None:
    if isinstance(index, bool) or not 0 <= index < len(turns):
        raise RulesError(
            Text(
                N_("Nie ma ruchu nr %(number)d: zapisano %(count)d."),
                number=index + 1,
                count=len(turns),
            ),
            Code.NO_SUCH_TURN,
        )


def _replay_later(game: Game, turn: TurnRecord, later: int) -> TurnRecord:
    """Play a later turn again on the corrected game, in the same field; refused when it no
    longer may be written there."""
    try:
        return game.play_turn(turn.dice, turn.field, turn.column)
    except MoveRefused as exc:
        if exc.code is Code.FIELD_FILLED and isinstance(game.variant, Variant):
            raise CorrectionRefused(
                _taken_later(game.variant, turn.field or "", later),
                Code.FIELD_TAKEN_LATER,
                later=later,
                cause=exc.code,
            ) from exc
        raise CorrectionRefused(
            Text(
                N_("Po tej poprawce ruch nr %(number)d byłby niedozwolony: %(reason)s"),
                number=later + 1,
                reason=exc.text,
            ),
            Code.LATER_TURN_REFUSED,
            later=later,
            cause=exc.code,
        ) from exc


def _taken_later(variant: Variant, field_id: str, later: int) -> Text:
    return Text(
        N_(
            "Pole %(field)s jest zajęte przez późniejszy ruch nr %(number)d: "
            "poprawka nie może go zabrać."
        ),
        field=variant.table.by_id[field_id].label_text,
        number=later + 1,
    )


_RoundResults = tuple[tuple[int, ...] | None, ...]  # per round: its winners, None while open


def _original_rounds(
    variant: AnyVariant, players: int, options: AnyOptions | None, turns: Sequence[TurnRecord]
) -> _RoundResults:
    """Poker: what each round decided before the correction (None for the open round); a table
    game has no rounds to keep."""
    if variant.kind != "poker":
        return ()
    match = restore_game(variant, players, turns, options)
    assert isinstance(match, PokerMatch)
    return tuple(r.winners for r in match.rounds)


def _check_round(game: Game, original: _RoundResults) -> None:
    """Poker: refuse as soon as a round the correction replays is decided otherwise."""
    if not isinstance(game, PokerMatch) or not game.rounds:
        return
    last = game.rounds[-1]
    if not last.complete:
        return
    if last.winners != original[last.number - 1]:
        raise CorrectionRefused(
            Text(
                N_(
                    "Poprawka zmieniłaby wynik rozstrzygniętej rundy %(round)d, a od niego "
                    "zależy dalsza gra. Taki układ wpiszesz, cofając ruchy do tej rundy."
                ),
                round=last.number,
            ),
            Code.ROUND_RESULT_CHANGES,
            round_number=last.number,
        )
