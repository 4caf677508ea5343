"""A game as loaded for one request: its stored rows and the rules' state built from its turns.

Loading reads through the store; the turn path reuses this process's state of the game when the
store's cache proves it current.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from .. import rules
from ..i18n import N_, gettext
from ..store import cache
from ..store import games as store
from ..store.rows import GameLock, GameRow, SeatRow, TurnRow
from .errors import NotFound
from .names import short_names

NO_GAME = N_("Nie ma takiej gry.")  # shown through gettext


@dataclass
class GameView:
    """A game as loaded for one request: the stored rows, and the rules' state of the game."""

    game: GameRow
    seats: list[SeatRow]
    turns: list[TurnRow]  # in force, in order
    log: list[TurnRow]  # every turn ever written, corrected ones included, in order of writing
    variant: rules.AnyVariant
    state: rules.GameState

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def is_poker(self) -> bool:
        return self.variant.kind == "poker"

    @property
    def table(self) -> rules.TableGame:
        """The table game's state, for the screens that show a sheet."""
        assert isinstance(self.state, rules.TableGame)
        return self.state

    @property
    def match(self) -> rules.PokerMatch:
        """The poker match's state, for the screens that show rounds."""
        assert isinstance(self.state, rules.PokerMatch)
        return self.state

    @property
    def options(self) -> Any:
        return self.state.options

    @property
    def names(self) -> list[str]:
        return [s.player.name for s in self.seats]

    @property
    def short_names(self) -> list[str]:
        """Each seat's name as a narrow place shows it: „Dziadek Z.”, unlike every other seat's."""
        return short_names(self.names)

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def current_seat(self) -> int | None:
        return self.state.current_seat

    @property
    def current_name(self) -> str | None:
        seat = self.current_seat
        return None if seat is None else self.seats[seat].player.name

    @property
    def next_seq(self) -> int:
        return len(self.turns) + 1

    @property
    def winners(self) -> list[str]:
        return [self.seats[i].player.name for i in self.state.winners]


def is_game_id(game_id: object) -> TypeGuard[int]:
    """Whether a game id from a request is one (an int, not a bool): anything else is no
    game, a 404."""
    return isinstance(game_id, int) and not isinstance(game_id, bool)


def read(account_id: int, game_id: object) -> tuple[GameRow, list[SeatRow]]:
    if not is_game_id(game_id):
        raise NotFound(gettext(NO_GAME))
    found = store.read_game(account_id, game_id)
    if found is None:
        raise NotFound(gettext(NO_GAME))
    return found


def stamp(account_id: int, game_id: object) -> str:
    """What a polling phone compares (`store.game_stamp`): one indexed read, no turns."""
    if not is_game_id(game_id):
        raise NotFound(gettext(NO_GAME))
    found = store.game_stamp(account_id, game_id)
    if found is None:
        raise NotFound(gettext(NO_GAME))
    return found


def load(account_id: int, game_id: int, *, log: bool = True) -> GameView:
    """The account's game with its turns; NotFound for another account's or a missing game.
    `log=False` skips the corrected turns (the turn path does not need them)."""
    return build(*read(account_id, game_id), log=log)


def build(game: GameRow, seats: list[SeatRow], *, log: bool = True) -> GameView:
    """The view of a game from its stored turns (trusting the points stored with them)."""
    if log:
        written = store.turn_log(game.id)
        turns = sorted((t for t in written if t.undone_at is None), key=lambda t: t.seq)
    else:
        turns = store.turns_in_force(game.id)
        written = list(turns)
    variant = rules.find_variant(game.variant)
    state = rules.restore_game(
        variant,
        len(seats),
        (
            rules.TurnRecord(
                t.seat, t.dice_tuple, t.field, t.column or 0, t.points or 0, t.extra_bonus
            )
            for t in turns
        ),
        variant.parse_options(game.options or None),
    )
    return GameView(game, seats, turns, written, variant, state)


def load_for_turn(lock: GameLock) -> GameView:
    """The view a turn is decided on, for a game `store.lock_game` has just locked: this
    process's state of the game when it is provably the game's state just before the lock
    (`store.cache`), else read and rebuilt from the turns in force."""
    cached = cache.take_before(lock)
    if cached is None:
        return build(*store.read_game_by_id(lock.id), log=False)
    return _written_from(cached, lock.version)


def cached_for_turn(account_id: int, game_id: int) -> GameView | None:
    """The view a turn may be decided on before any lock: this process's state of the
    account's game (`store.cache`), at the version the turn's write will raise it to. The
    write only goes through if the game is still that state (`results.store_turn_at_version`).
    None when the process holds no state of the game."""
    cached = cache.take(game_id, account_id)
    return None if cached is None else _written_from(cached, cached.game.version + 1)


def _written_from(cached: cache.CachedTable[object], version: int) -> GameView:
    state = cached.state
    assert isinstance(state, rules.TableGame | rules.PokerMatch)
    turns = list(cached.turns)
    variant = rules.find_variant(cached.game.variant)
    game = cached.game.at_version(version)
    # The entry is this write's alone (taken out of the cache): no copies.
    return GameView(game, list(cached.seats), turns, list(turns), variant, state)


def remember(view: GameView) -> None:
    """Keep the state of a game this process has just written (or started) for its next turn."""
    cache.put(view.game, view.seats, view.turns, view.state.copy())
