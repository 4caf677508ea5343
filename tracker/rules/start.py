"""Any game from its variant: a new one, one restored from stored turns, one replayed from dice.

The kind is decided here, once: a `PokerVariant` gives a `PokerMatch`, a table `Variant` a
`TableGame`; both are a `GameState`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .dice import Dice
from .game import TableGame
from .match import PokerMatch
from .state import GameState, TurnRecord
from .variants import AnyVariant, Options, PokerOptions, PokerVariant

AnyOptions = Options | PokerOptions
Game = TableGame | PokerMatch

if TYPE_CHECKING:  # mypy checks here that both kinds implement the protocol

    def _is_a_game_state(game: Game) -> GameState:
        return game


def start_game(variant: AnyVariant, players: int, options: AnyOptions | None = None) -> Game:
    """A new game of this variant; RulesError when that many players cannot play it."""
    if isinstance(variant, PokerVariant):
        return PokerMatch(players, _poker_options(options))
    return TableGame(variant, players, _table_options(options))


def restore_game(
    variant: AnyVariant,
    players: int,
    records: Iterable[TurnRecord],
    options: AnyOptions | None = None,
) -> Game:
    """The game after its stored turns. A table trusts the points stored (`TableGame.restore`);
    poker ranks the hands again, which is all a hand is."""
    if isinstance(variant, PokerVariant):
        return PokerMatch.restore(players, records, _poker_options(options))
    return TableGame.restore(variant, players, records, _table_options(options))


def replay_game(
    variant: AnyVariant,
    players: int,
    turns: Iterable[tuple[Dice, str | None, int]],
    options: AnyOptions | None = None,
) -> Game:
    """The game after these turns (dice, field, column), each judged again as when played."""
    game = start_game(variant, players, options)
    for dice, field, column in turns:
        game.play_turn(dice, field, column)
    return game


def _table_options(options: AnyOptions | None) -> Options | None:
    if isinstance(options, PokerOptions):
        raise TypeError("a table game takes Options, not PokerOptions")
    return options


def _poker_options(options: AnyOptions | None) -> PokerOptions | None:
    if isinstance(options, Options):
        raise TypeError("a poker match takes PokerOptions, not Options")
    return options
