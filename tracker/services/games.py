"""Games, as use cases: start one, load it, write a turn, take one back, delete, rematch.

Each reads as one descent: lock and load the game through the store, ask the rules, store what
they decided, return the game. The turns are the source of truth; the rules (`rules.GameState`,
a table game or a poker match alike) turn them into sheets, totals and winners; the results
cached on the seats for lists and statistics are derived from them and recomputable
(`recompute_all`).

Every write to a game decides inside the transaction that stores it (`locked_game`): the store
locks the game's row first, and only then is the game read, checked and written. Two phones (or
worker processes, or servers) writing to one game are served one after the other, and the
second decides on what the first wrote: a turn racing an undo can never leave a gap in the
turns. The partial unique index on (game, seq) of turns in force stays as a last guard.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from .. import advisor, rules
from ..extensions import db
from ..i18n import N_, _, gettext
from ..models import Game, utcnow
from ..rules_text import rules_text
from ..store import cache
from ..store import games as store
from ..store.rows import GameLock, TurnRow
from . import game_view, results, skill
from .errors import (
    GAME_CHANGED,
    GAME_FINISHED,
    GAME_NOT_FINISHED,
    NOT_THEIR_TURN,
    NOTHING_TO_UNDO,
    SAME_DATA_CHANGED,
    TURN_LIMIT,
    Conflict,
    InvalidInput,
    NotFound,
    ServiceError,
)
from .game_view import NO_GAME, GameView, is_game_id, load, stamp
from .players import player_ids_by_names

# The most turns a game may hold, when played and when imported alike (a poker match of many
# drawn rounds could otherwise grow without end, and then no export of it could be imported).
MAX_TURNS_PER_GAME = 5000
# The most players any variant seats (each variant says its own limits: `check_players`).
MAX_PLAYERS = max(variant.max_players for variant in rules.VARIANTS.values())
# Shown through `gettext` (in the language of the request).
ALREADY_WRITTEN = N_(
    "Ten ruch został już zapisany (może na innym telefonie). Sprawdź tabelę i graj dalej."
)
GAME_OVER = N_("Gra jest zakończona: wszystkie tabele są pełne.")
MATCH_OVER = N_("Mecz jest zakończony.")
HINTS_NOT_BOOL = N_("Pole hints musi mieć wartość true albo false.")
HINTS_NOT_FOR_POKER = N_(
    "Podpowiedzi są tylko w grach z tabelą: w pokerze kościanym nie wybiera się pola."
)

T = TypeVar("T")


class Overtaken(Conflict):
    """The phone's screen is behind the game: turns were written (on another phone, or by an
    earlier try of this very request whose answer was lost) since the turn it meant to write.
    `written` are those turns; `view` is the game as it is now."""

    code = "already_written"

    def __init__(self, view: GameView, expected_seq: int) -> None:
        self.taken_back = taken_back_since(view, expected_seq)
        if self.taken_back:
            # The screen is ahead of the game: another phone took a turn back, nothing was
            # written meanwhile, so "already written" would be false.
            super().__init__(
                _(
                    "Na innym telefonie cofnięto ruch. Teraz kolej: %(name)s.",
                    name=view.current_name,
                ),
                code=GAME_CHANGED,
            )
        else:
            super().__init__(gettext(ALREADY_WRITTEN))
        self.view = view
        self.seq = expected_seq
        self.written = view.turns[expected_seq - 1 :]


class NoHintsInPoker(InvalidInput):
    """„Podpowiedzi” asked for a dice-poker match: it has no field to choose."""

    code = "no_hints_in_poker"


class NeedsConfirmation(Exception):  # noqa: N818 (an answer, not an error)
    """The move would write a 0 where another field scores more: the player confirms first.
    Nothing was written; `view` is the game as it was read."""

    def __init__(self, view: GameView, chosen: rules.Placement, best: rules.Placement) -> None:
        super().__init__("confirm the 0")
        self.view = view
        self.chosen = chosen
        self.best = best


# --- starting a game ---------------------------------------------------------------------


def find_variant(variant_id: object) -> rules.AnyVariant:
    try:
        return rules.find_variant(variant_id)
    except rules.RulesError as exc:
        raise InvalidInput(rules_text(exc), "variant") from exc


def create_game(
    account_id: int,
    variant_id: object,
    names: list[str],
    options: Any = None,
    *,
    shuffle: bool = False,
    rematch_of: int | None = None,
    hints: object = False,
) -> GameView:
    """A new game of the account, its players seated as listed (or shuffled); with `hints`,
    the table agreed to the hint („Podpowiedzi”): its turn screen marks the best field."""
    variant = find_variant(variant_id)
    check_hints(variant, hints)
    try:
        parsed = variant.parse_options(options or None).as_dict()
    except rules.RulesError as exc:
        raise InvalidInput(rules_text(exc), "options") from exc
    if not isinstance(names, list):
        raise InvalidInput(_("Podaj listę graczy."), "players")
    try:
        variant.check_players(len(names))
    except rules.RulesError as exc:
        raise InvalidInput(rules_text(exc), "players") from exc
    if not all(isinstance(n, str) for n in names):
        raise InvalidInput(_("Imiona graczy podaj jako tekst."), "players")
    order = list(range(len(names)))
    if shuffle:
        random.SystemRandom().shuffle(order)

    def attempt() -> GameView:
        with store.own_write():
            player_ids = player_ids_by_names(account_id, names)
            view = _start(
                account_id, variant, parsed, [player_ids[i] for i in order], rematch_of, hints
            )
        game_view.remember(view)  # the first turn finds it here
        return view

    return _retry_on_integrity_error(attempt)


def _start(
    account_id: int,
    variant: rules.AnyVariant,
    options: dict[str, Any],
    player_ids: list[int],
    rematch_of: int | None,
    hints: object,
) -> GameView:
    """Insert a game with these players in this order, in the caller's write; its view."""
    game, seats = store.insert_game(
        account_id, variant.id, options, player_ids, rematch_of, hints=bool(hints)
    )
    state = rules.start_game(variant, len(seats), variant.parse_options(options or None))
    return GameView(game, seats, [], [], variant, state)


def check_hints(variant: rules.AnyVariant, hints: object) -> None:
    """The hint is a yes or no, and only for a game with a table: dice poker has no field to
    choose, so the advisor has nothing to say (`advisor.supports`)."""
    if not isinstance(hints, bool):
        raise InvalidInput(gettext(HINTS_NOT_BOOL), "hints")
    if hints and not advisor.supports(variant):
        raise NoHintsInPoker(gettext(HINTS_NOT_FOR_POKER), "hints")


def _retry_on_integrity_error(attempt: Callable[[], T], attempts: int = 3) -> T:
    """Run a write that may lose a race on a unique key (two phones creating the same new
    player at once): the loser rolls back and tries again, and then finds the winner's row."""
    for _attempt in range(attempts - 1):
        try:
            return attempt()
        except IntegrityError:
            db.session.rollback()
    try:
        return attempt()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(
            _("Ktoś właśnie zmienił te same dane na innym telefonie. Spróbuj ponownie."),
            code=SAME_DATA_CHANGED,
        ) from None


# --- loading -------------------------------------------------------------------------------


def get_game(account_id: int, game_id: int) -> Game:
    """The account's game as an ORM object; another account's game is NotFound, like a missing
    one."""
    game = db.session.get(Game, game_id)
    if game is None or game.account_id != account_id:
        raise NotFound(gettext(NO_GAME))
    return game


# --- writing ---------------------------------------------------------------------------------


@contextmanager
def locked_game(account_id: int, game_id: object) -> Iterator[GameLock]:
    """A write to one game: lock it first and raise its version (NotFound if the account has no
    such game), then let the caller read, check and write; commit when the caller commits,
    roll back on any error (the version too)."""
    with store.writing():
        yield _lock(account_id, game_id)


def _lock(account_id: int, game_id: object) -> GameLock:
    """The game's lock for this write (`store.lock_game`); NotFound if the account has no such
    game."""
    if not is_game_id(game_id):
        raise NotFound(gettext(NO_GAME))
    game = store.lock_game(account_id, game_id)
    if game is None:
        raise NotFound(gettext(NO_GAME))
    return game


def expire_orm_game(game_id: int) -> None:
    """Writes on the turn path go through Core: a `Game` this session already holds must read
    `finished_at` and `version` again rather than keep the old values."""
    if not db.session.registry.has():  # no session in this request (asking would make one)
        return
    identity_map = db.session.identity_map
    if not identity_map:  # the API's turn: no ORM object at all (building the key costs)
        return
    game = identity_map.get(db.session.identity_key(Game, game_id))
    if game is not None:
        db.session.expire(game, ["finished_at", "version"])


def record_turn(
    account_id: int,
    game_id: int,
    dice: object,
    field: object = None,
    column: object = None,
    *,
    expected_seq: int | None = None,
    player: str | None = None,
    confirm_zero: bool = True,
) -> GameView:
    """Write the current player's turn (a table field, or a poker hand). InvalidInput for
    malformed input; Conflict for a move the rules refuse or a turn already written (a stale
    phone or a retried request: `expected_seq` is the seq the client expects the turn to get);
    NeedsConfirmation, unless `confirm_zero`, for a needless 0."""
    try:
        parsed = rules.parse_dice(dice)
    except rules.RulesError as exc:
        raise InvalidInput(rules_text(exc), "dice") from exc
    # On a connection of its own: the ORM session would cost a sixth of the turn.
    with store.own_write() as write:
        view = _on_cached_state(
            account_id, game_id, parsed, field, column, expected_seq, player, confirm_zero
        )
        if view is None:  # decided under the lock, on the game as it is
            view = game_view.load_for_turn(_lock(account_id, game_id))
            if expected_seq is not None and expected_seq != view.next_seq:
                if _repeats_the_last_turn(view, expected_seq, parsed, field, column, player):
                    # A retry of a request whose answer was lost: the turn is written, once.
                    write.rollback()
                    view.game.version -= 1  # the lock's raise was rolled back
                    game_view.remember(view)  # the cache's entry, as it was taken
                    return view
                raise Overtaken(view, expected_seq)
            turn = _decide(view, parsed, field, column, player, confirm_zero)
            results.store_turn(view, turn)
    expire_orm_game(view.game.id)
    game_view.remember(view)
    if view.finished:  # only the turn that ends the game pays for its review, after its lock
        skill.review_finished(view)
    return view


def _on_cached_state(
    account_id: int,
    game_id: object,
    dice: rules.Dice,
    field: object,
    column: object,
    expected_seq: int | None,
    player: str | None,
    confirm_zero: bool,
) -> GameView | None:
    """The turn decided on this process's state of the game (`store.cache`) and written with
    the game's lock taken in the same statement, only while the game is still that state: one
    statement fewer than `_lock` first (on PostgreSQL the whole turn is one statement, a
    round trip to the server). None, with nothing written, when the process holds no state of
    the game or the game has changed since, and also when that state would not write the turn
    as asked: the caller then decides under the lock, so that a refusal, a conflict or a
    question is only ever given on the game as it is."""
    if not is_game_id(game_id):
        return None
    view = game_view.cached_for_turn(account_id, game_id)
    if view is None or (expected_seq is not None and expected_seq != view.next_seq):
        return None
    try:
        turn = _decide(view, dice, field, column, player, confirm_zero)
    except (ServiceError, NeedsConfirmation):
        return None
    return view if results.store_turn_at_version(view, turn) else None


def _decide(
    view: GameView,
    dice: rules.Dice,
    field: object,
    column: object,
    player: str | None,
    confirm_zero: bool,
) -> TurnRow:
    """The turn the rules write for these dice in this field, played on `view` (its state,
    turns and log); Conflict, InvalidInput or NeedsConfirmation when they do not."""
    _check_turn(view, player)
    if not confirm_zero and not view.is_poker:
        _ask_before_a_needless_zero(view, dice, field, column)
    turn = _play(view, dice, field, column)
    view.turns.append(turn)
    view.log.append(turn)
    return turn


def _repeats_the_last_turn(
    view: GameView,
    expected_seq: int,
    dice: rules.Dice,
    field: object,
    column: object,
    player: str | None,
) -> bool:
    """Whether the request asks for exactly the last turn written, as its own next turn: the
    same seq, player, dice, field and column (a retry after a lost answer, or the same move
    sent from two phones: either way it stands written once)."""
    if expected_seq != view.next_seq - 1:
        return False
    last = view.turns[-1]
    if player is not None and player.casefold() != view.seats[last.seat].player.name.casefold():
        return False
    same_place = (
        field is None and column is None
        if view.is_poker
        else (field == last.field and (column or 0) == (last.column or 0))
    )
    return same_place and last.dice == "".join(map(str, dice))


def written_with(view: GameView, seq: int, dice: str) -> bool:
    """Whether turn `seq` of the game stands written with these dice (the same roll, typed in
    any order). Dice typed for that turn are then the very roll it holds: written by this phone,
    its answer lost, or by another phone that typed the same roll. They are never carried to the
    next player's turn, where one more tap would write them again for the wrong player."""
    if not 1 <= seq <= len(view.turns):
        return False
    try:
        typed = rules.parse_dice(dice)
    except rules.RulesError:
        return False
    return sorted(view.turns[seq - 1].dice_tuple) == sorted(typed)


def _check_turn(view: GameView, player: str | None) -> None:
    if view.finished:
        raise Conflict(_over(view), code=GAME_FINISHED)
    if player is not None:
        current = view.current_name or ""
        if player.casefold() != current.casefold():
            raise Conflict(
                _(
                    "Teraz jest kolej gracza %(current)s, nie %(player)s.",
                    current=current,
                    player=player,
                ),
                "player",
                NOT_THEIR_TURN,
            )
    if len(view.turns) >= MAX_TURNS_PER_GAME:
        raise Conflict(
            _(
                "Gra ma już %(num)d ruchów: więcej nie można zapisać.",
                num=MAX_TURNS_PER_GAME,
            ),
            code=TURN_LIMIT,
        )


def _over(view: GameView) -> str:
    return gettext(MATCH_OVER if view.is_poker else GAME_OVER)


def _column(view: GameView, column: object) -> int:
    if column is None:
        if view.table.variant.columns > 1:
            raise InvalidInput(_("W kościach potrójnych podaj kolumnę (0, 1 albo 2)."), "column")
        return 0
    if isinstance(column, bool) or not isinstance(column, int):
        raise InvalidInput(_("Kolumna musi być liczbą całkowitą."), "column")
    return column


def _play(view: GameView, dice: rules.Dice, field: object, column: object) -> TurnRow:
    """Ask the rules to play the move on the view's state; the turn to store."""
    if view.is_poker:
        if field is not None or column is not None:
            raise InvalidInput(_("W pokerze kościanym podaje się tylko kości, bez pola tabeli."))
        record = view.state.play_turn(dice)
    else:
        column = _column(view, column)
        if not isinstance(field, str):
            raise InvalidInput(_("Podaj pole tabeli."), "field")
        try:
            record = view.state.play_turn(dice, field, column)
        except rules.MoveRefused as exc:  # with the rules' own code (`rules.Code`)
            code = None if exc.code is None else str(exc.code)
            raise Conflict(rules_text(exc), "field", code) from exc
        except rules.RulesError as exc:
            raise InvalidInput(rules_text(exc), "field") from exc
    return TurnRow(
        id=0,
        seq=view.next_seq,
        seat=record.seat,
        dice="".join(map(str, dice)),
        field=record.field,
        column=None if view.is_poker else record.column,
        points=None if view.is_poker else record.points,
        extra_bonus=record.extra_bonus,
        created_at=utcnow(),
    )


def _ask_before_a_needless_zero(
    view: GameView, dice: rules.Dice, field: object, column: object
) -> None:
    """NeedsConfirmation when the chosen field writes 0 while another move scores more."""
    if not isinstance(field, str) or not (column is None or isinstance(column, int)):
        return  # malformed: `_play` says what is wrong
    evaluation = view.table.evaluate(dice)
    chosen = evaluation.find(field, column or 0)
    best = better_than_zero(evaluation, chosen) if chosen else None
    if chosen is not None and best is not None:
        raise NeedsConfirmation(view, chosen, best)


def better_than_zero(
    evaluation: rules.Evaluation, chosen: rules.Placement
) -> rules.Placement | None:
    """The move to suggest instead, when `chosen` writes a 0 where another allowed move scores
    more; None when writing `chosen` needs no question (it scores, or it is as good as any).

    Asked when the field writes 0 while some allowed field writes points, or when the move adds
    nothing to the total while another move would; never when the move is the best there is.
    """
    if not chosen.allowed or chosen.points != 0:
        return None
    moves = evaluation.moves
    best_points = max((m.points for m in moves), default=0)
    if best_points == 0 and not (chosen.gain == 0 and evaluation.best_gain > 0):
        return None
    best = max(moves, key=lambda m: (m.gain, m.points))  # first in table order on a tie
    # A +100 bonus in a ×3 column can make a 0 the best move of all.
    return None if chosen.gain >= best.gain else best


def undo_last_turn(account_id: int, game_id: int, *, expected_seq: int | None = None) -> GameView:
    """Take back the last turn in force; it stays in the log, marked as corrected.
    `expected_seq` is the seq the next turn would get on the client's screen: a phone that has
    not seen the latest turn cannot take it back by mistake."""
    with locked_game(account_id, game_id):
        view = load(account_id, game_id)
        if expected_seq is not None and expected_seq != view.next_seq:
            raise Conflict(_undo_overtaken(view, expected_seq), code=GAME_CHANGED)
        if not view.turns:
            raise Conflict(_("Nie ma czego cofać: to początek gry."), code=NOTHING_TO_UNDO)
        view.state.undo()
        last = view.turns.pop()
        last.undone_at = utcnow()
        store.mark_undone(last.id, last.undone_at)
        cache.drop(view.game.id)
        results.store_results(view)
        skill.update_reviews(view)  # the game is open again: its reviews go
        db.session.commit()
    expire_orm_game(view.game.id)
    return view


def _undo_overtaken(view: GameView, expected_seq: int) -> str:
    """Why an undo from a phone that is behind takes nothing back, said so that nobody taps
    „Cofnij” again: that would take back a turn the phone never saw."""
    if expected_seq > view.next_seq and not view.finished:
        return _(
            "Ten ruch cofnięto już na innym telefonie. Nic więcej nie cofnięto – teraz kolej: "
            "%(name)s.",
            name=view.current_name,
        )
    if expected_seq < view.next_seq:
        return _(
            "Na innym telefonie zapisano już kolejny ruch. Nic nie cofnięto – sprawdź tabelę, "
            "zanim cofniesz."
        )
    return _("Stan gry zmienił się na innym telefonie. Sprawdź tabelę i spróbuj ponownie.")


def taken_back_since(view: GameView, expected_seq: int) -> bool:
    """Whether a screen that expected turn `expected_seq` is ahead of the game because another
    phone took a turn back since (nothing was written meanwhile; the game goes on)."""
    return expected_seq > view.next_seq and not view.finished


def rematch_started(account_id: int, game_id: int) -> int | None:
    """The rematch of the account's game, once someone tapped „Rewanż”; None before."""
    if store.game_stamp(account_id, game_id) is None:  # not the account's game
        return None
    return store.rematch_of(game_id)


def rematch(account_id: int, game_id: int) -> GameView:
    """Same players and variant; the next player in the seating starts. A game has one
    rematch: asked again (a second tap, another phone on the same end screen), the answer is
    the rematch already started."""
    with store.own_write() as write:
        _lock(account_id, game_id)
        existing = store.rematch_of(game_id)
        if existing is None:
            game, seats = store.read_game_by_id(game_id)
            if not game.finished:
                raise Conflict(_("Rewanż można zagrać po zakończeniu gry."), code=GAME_NOT_FINISHED)
            players = [s.player.id for s in seats]
            view = _start(
                account_id,
                rules.find_variant(game.variant),
                game.options,
                players[1:] + players[:1],
                game.id,
                game.hints,
            )
        else:
            write.rollback()  # nothing to write: the old game stays as it was
    if existing is not None:
        return load(account_id, existing, log=False)
    game_view.remember(view)
    return view


__all__ = [
    "ALREADY_WRITTEN",
    "MAX_PLAYERS",
    "MAX_TURNS_PER_GAME",
    "GameView",
    "NeedsConfirmation",
    "NoHintsInPoker",
    "Overtaken",
    "better_than_zero",
    "create_game",
    "get_game",
    "load",
    "rematch",
    "rematch_started",
    "taken_back_since",
    "record_turn",
    "stamp",
    "undo_last_turn",
    "written_with",
]
