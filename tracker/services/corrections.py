"""Correcting an earlier turn, as a use case: lock the game, load it, ask the rules, store.

A turn entered wrongly (a die mistyped, the wrong field tapped) is corrected in place when the
rules say the correction changes no later decision (`rules.correct_turn`): the old turn stays in
the log, marked as taken back, the corrected one takes its number, and the later turns stay,
with their points rewritten where the rules tie them to earlier fields (the extra Generał bonus,
the joker). Otherwise nothing is written and the refusal says why, with its code.

Like every write to a game, it is decided under the game's lock (`store.lock_game` is its first
statement, and raises the game's version) on the state the lock protects, and written in the
same transaction; a refusal rolls back, the version with it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import rules
from ..extensions import db
from ..i18n import N_, _, gettext
from ..models import utcnow
from ..rules_text import rules_text
from ..store import cache
from ..store import games as store
from ..store.rows import TurnRow
from . import game_view, results, skill
from .errors import GAME_CHANGED, Conflict, InvalidInput, NotFound
from .game_view import GameView
from .games import NeedsConfirmation, better_than_zero, expire_orm_game, locked_game

# Shown through `gettext` (in the language of the request).
STALE = N_("Stan gry zmienił się na innym telefonie. Sprawdź tabelę i spróbuj ponownie.")
NOTHING_TO_CORRECT = N_("Nic się nie zmienia: to te same kości w tym samym polu.")
NOTHING_TO_CORRECT_POKER = N_("Nic się nie zmienia: to te same kości.")


def no_such_turn(seq: object) -> str:
    return _("W tej grze nie ma ruchu nr %(seq)s.", seq=seq)


class CorrectionRefused(Conflict):
    """The rules refuse the correction (409): `code` says why (`rules.Code`), `message` in
    Polish, `field` the form field it belongs next to ("dice" or "field")."""

    def __init__(self, message: str, code: rules.Code | None, field: str) -> None:
        super().__init__(message, field)
        self.code = code


class NothingToCorrect(InvalidInput):
    """The turn as corrected is the turn as it is: nothing was written."""


@dataclass(frozen=True)
class RescoredTurn:
    """A later turn whose points the correction changed: as it was, and as it is now."""

    before_points: int | None
    before_extra_bonus: int
    turn: TurnRow


@dataclass(frozen=True)
class Corrected:
    """The game after a correction, the turn as it was (now taken back) and as corrected."""

    view: GameView
    before: TurnRow
    after: TurnRow
    rescored: tuple[RescoredTurn, ...]


def turn_to_correct(view: GameView, seq: object) -> TurnRow:
    """The turn in force numbered `seq`; NotFound for any other number."""
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= len(view.turns):
        raise NotFound(no_such_turn(seq))
    return view.turns[seq - 1]


def correct_turn(
    account_id: int,
    game_id: int,
    seq: object,
    dice: object,
    field: object = None,
    column: object = None,
    *,
    expected_seq: int | None = None,
    expected_version: int | None = None,
    confirm_zero: bool = True,
) -> Corrected:
    """Replace turn `seq` with these dice in this field (a poker hand: dice only). NotFound for
    another account's game or a turn not in force; InvalidInput for malformed input
    (`NothingToCorrect` for the turn as it is); Conflict for a stale `expected_seq` (the next
    turn's number on the client's screen) or `expected_version` (the game's version it showed:
    a correction does not change the next turn's number, so two phones correcting the same
    turn are told apart only by it), `CorrectionRefused` when the rules refuse.

    The turn as it already is answers `NothingToCorrect` whatever the version: a correction
    sent again after its answer was lost stays harmless.

    Without `confirm_zero` (the correction page asks first, the API does not), a table turn
    moved or changed to a 0 where another field it may go to scores more raises
    `NeedsConfirmation`, as a turn does, and nothing is written."""
    try:
        parsed = rules.parse_dice(dice)
    except rules.RulesError as exc:
        raise InvalidInput(rules_text(exc), "dice") from exc
    with locked_game(account_id, game_id) as lock:
        view = game_view.load(account_id, game_id)
        if expected_seq is not None and expected_seq != view.next_seq:
            raise Conflict(gettext(STALE), code=GAME_CHANGED)
        old = turn_to_correct(view, seq)
        field, column = _where(view, field, column)
        correction = _ask_the_rules(view, old.seq - 1, parsed, field, column)
        if not confirm_zero and not view.is_poker:
            _ask_before_a_needless_zero(view, old.seq - 1, correction)
        if expected_version is not None and expected_version != lock.version - 1:
            raise Conflict(gettext(STALE), code=GAME_CHANGED)  # the lock raised the version
        corrected = _store(view, old, correction)
        cache.drop(game_id)
        results.store_results(view)
        skill.update_reviews(view)  # a finished game's reviews follow the corrected turns
        db.session.commit()  # the version, raised by the lock, goes with it
    cache.drop(game_id)
    expire_orm_game(game_id)
    return corrected


def _ask_before_a_needless_zero(view: GameView, index: int, correction: rules.Correction) -> None:
    """NeedsConfirmation when the corrected turn writes 0 where, with its dice, another field
    it may be corrected to scores more (`games.better_than_zero`, among those fields)."""
    after = correction.after
    if after.field is None or after.points != 0:
        return
    table = view.table
    variant = table.variant
    allowed = {
        (choice.field, choice.column)
        for choice in rules.correction_choices(
            variant, len(view.seats), view.options, table.turns, index
        )
        if choice.allowed
    }
    before = rules.TableGame.restore(variant, len(view.seats), table.turns[:index], view.options)
    evaluation = before.evaluate(after.dice)
    open_to_it = dataclasses.replace(
        evaluation,
        placements=tuple(p for p in evaluation.placements if (p.field, p.column) in allowed),
    )
    chosen = open_to_it.find(after.field, after.column)
    best = None if chosen is None else better_than_zero(open_to_it, chosen)
    if chosen is not None and best is not None:
        raise NeedsConfirmation(view, chosen, best)


def _where(view: GameView, field: object, column: object) -> tuple[str | None, int]:
    """The field and column as the rules take them; InvalidInput for malformed ones."""
    if view.is_poker:
        if field is not None or column is not None:
            raise InvalidInput(_("W pokerze kościanym podaje się tylko kości, bez pola tabeli."))
        return None, 0
    if not isinstance(field, str) or not field:
        raise InvalidInput(_("Podaj pole tabeli."), "field")
    if column is None:
        if view.table.variant.columns > 1:
            raise InvalidInput(_("W kościach potrójnych podaj kolumnę (0, 1 albo 2)."), "column")
        return field, 0
    if isinstance(column, bool) or not isinstance(column, int):
        raise InvalidInput(_("Kolumna musi być liczbą całkowitą."), "column")
    return field, column


def _ask_the_rules(
    view: GameView, index: int, dice: rules.Dice, field: str | None, column: int
) -> rules.Correction:
    refusal_field = "dice" if view.is_poker else "field"
    try:
        correction = rules.correct_turn(
            view.variant,
            len(view.seats),
            view.options,
            view.state.turns,
            index,
            dice,
            field,
            column,
        )
    except rules.MoveRefused as exc:  # the corrected move, or a later turn / a decided round
        raise CorrectionRefused(rules_text(exc), exc.code, refusal_field) from exc
    except rules.RulesError as exc:  # a field or column the table does not have
        where = "column" if exc.code is rules.Code.UNKNOWN_COLUMN else refusal_field
        raise InvalidInput(rules_text(exc), where) from exc
    if correction.changes_nothing:
        message = NOTHING_TO_CORRECT_POKER if view.is_poker else NOTHING_TO_CORRECT
        raise NothingToCorrect(gettext(message), "dice")
    return correction


def _store(view: GameView, old: TurnRow, correction: rules.Correction) -> Corrected:
    """Write the correction in the caller's transaction and bring the view up to date: the old
    turn taken back, the corrected one under its number, later points rewritten. The corrected
    turn is created at the moment the old one is taken back: that is how the log tells a
    correction from an undo."""
    now = utcnow()
    old.undone_at = now
    store.mark_undone(old.id, now)
    record = correction.after
    poker = view.is_poker
    new = TurnRow(
        id=0,
        seq=old.seq,
        seat=record.seat,
        dice="".join(map(str, record.dice)),
        field=record.field,
        column=None if poker else record.column,
        points=None if poker else record.points,
        extra_bonus=record.extra_bonus,
        created_at=now,
    )
    new.id = store.insert_turn(view.game.id, new)
    rescored = []
    for change in correction.rescored:
        turn = view.turns[change.index]
        rescored.append(RescoredTurn(turn.points, turn.extra_bonus, turn))
        turn.points, turn.extra_bonus = change.after.points, change.after.extra_bonus
        store.rewrite_points(turn)
    view.turns[correction.index] = new
    view.log.append(new)
    view.state = correction.state
    return Corrected(view, old, new, tuple(rescored))


def corrected_turn_ids(log: list[TurnRow]) -> tuple[set[int], set[int]]:
    """Which turns of a game's log were corrected, and which are corrections: a turn taken back
    at the very moment another turn with its number was written (`_store`). An undo takes back
    a turn on its own; a turn written after it comes later."""
    written = {(t.seq, t.created_at): t.id for t in log if t.created_at is not None}
    corrected: set[int] = set()
    corrections: set[int] = set()
    for turn in log:
        if turn.undone_at is None:
            continue
        replacement = written.get((turn.seq, turn.undone_at))
        if replacement is not None and replacement != turn.id:
            corrected.add(turn.id)
            corrections.add(replacement)
    return corrected, corrections


__all__ = [
    "CorrectionRefused",
    "Corrected",
    "NothingToCorrect",
    "RescoredTurn",
    "correct_turn",
    "corrected_turn_ids",
    "turn_to_correct",
]
