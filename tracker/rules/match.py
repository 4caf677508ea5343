"""A dice-poker match: rounds of hands compared, to the agreed number of round wins.

Every player enters the five dice of their last roll, in seating order; when all have entered,
the round goes to the single best hand, and several equal best hands draw it ("Gdy i one są
równe, runda kończy się remisem"). The first player to reach `target_wins` wins the match.
Implements `GameState`: a hand is a turn with no field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .codes import Code
from .dice import Dice
from .errors import MoveRefused, RulesError
from .poker import HandValue, Ranking, classify, rank
from .state import SeatFigures, TurnRecord, places_of
from .text import N_, Text
from .variants import POKER_VARIANT, PokerOptions, PokerVariant

MIN_PLAYERS = POKER_VARIANT.min_players
MAX_PLAYERS = POKER_VARIANT.max_players
NOTHING_TO_UNDO = N_("Nie ma czego cofać: to początek gry.")
NO_FIELD_IN_POKER = N_("W pokerze kościanym podaje się tylko kości, bez pola tabeli.")
TURNS_OUT_OF_ORDER = N_("Zapisane ruchy nie idą po kolei przy stole.")


@dataclass
class PokerRound:
    number: int
    hands: list[tuple[int, HandValue]] = field(default_factory=list)  # (seat, hand) in order
    ranking: Ranking | None = None  # set once every player has entered

    @property
    def complete(self) -> bool:
        return self.ranking is not None

    @property
    def winners(self) -> tuple[int, ...] | None:
        """Seats of the round's winner; empty for a draw; None while the round is open."""
        if self.ranking is None:
            return None
        if self.ranking.draw:
            return ()
        return tuple(self.hands[i][0] for i in self.ranking.winners)

    @property
    def explanation(self) -> str:
        return self.ranking.explanation if self.ranking else ""

    @property
    def explanation_text(self) -> Text | None:
        """The explanation, translatable; None while the round is open (or a lone hand)."""
        return self.ranking.explanation_text if self.ranking else None


class PokerMatch:
    def __init__(self, players: int, options: PokerOptions | None = None) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(
                Text(
                    N_("W pokera gra od %(least)d do %(most)d graczy."),
                    least=MIN_PLAYERS,
                    most=MAX_PLAYERS,
                ),
                Code.PLAYER_COUNT,
            )
        self.variant: PokerVariant = POKER_VARIANT
        self.players = players
        self.options = options or PokerOptions()
        self.rounds: list[PokerRound] = []
        self.round_wins = [0] * players
        self.turns: list[TurnRecord] = []

    @classmethod
    def replay(
        cls, players: int, hands: Iterable[Dice], options: PokerOptions | None = None
    ) -> PokerMatch:
        match = cls(players, options)
        for dice in hands:
            match.play(dice)
        return match

    @classmethod
    def restore(
        cls, players: int, records: Iterable[TurnRecord], options: PokerOptions | None = None
    ) -> PokerMatch:
        """Rebuild from stored turns: the hands are ranked again, round by round."""
        match = cls(players, options)
        for record in records:
            if record.seat != match.current_seat:
                raise RulesError(TURNS_OUT_OF_ORDER, Code.TURNS_OUT_OF_ORDER)
            match.play_turn(record.dice, record.field)
        return match

    def copy(self) -> PokerMatch:
        """An independent copy: rounds are mutable, so each is copied."""
        other = PokerMatch(self.players, self.options)
        other.rounds = [PokerRound(r.number, list(r.hands), r.ranking) for r in self.rounds]
        other.round_wins = list(self.round_wins)
        other.turns = list(self.turns)
        return other

    @property
    def next_seq(self) -> int:
        return len(self.turns) + 1

    @property
    def winner(self) -> int | None:
        """The seat that reached the target number of round wins, if any."""
        for seat, wins in enumerate(self.round_wins):
            if wins >= self.options.target_wins:
                return seat
        return None

    @property
    def winners(self) -> tuple[int, ...]:
        """The match winner's seat once the match is over, else empty (like `TableGame`)."""
        winner = self.winner
        return () if winner is None else (winner,)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """Rounds won per seat."""
        return tuple(self.round_wins)

    @property
    def places(self) -> tuple[int, ...]:
        return places_of(self.scores)

    @property
    def current_round(self) -> PokerRound | None:
        """The round being entered, or None between rounds / after the match."""
        if self.rounds and not self.rounds[-1].complete:
            return self.rounds[-1]
        return None

    @property
    def round_number(self) -> int:
        open_round = self.current_round
        if open_round is not None:
            return open_round.number
        return len(self.rounds) + (0 if self.finished else 1)

    @property
    def round(self) -> int:
        """1-based round being entered; the last round once the match is over."""
        return self.round_number

    @property
    def current_seat(self) -> int | None:
        if self.finished:
            return None
        open_round = self.current_round
        return len(open_round.hands) if open_round is not None else 0

    def play(self, dice: Dice) -> PokerRound:
        """Enter the current player's hand; returns the round (decided when it is complete)."""
        seat = self.current_seat
        if seat is None:
            raise MoveRefused(N_("Mecz jest zakończony."), Code.GAME_OVER)
        round_ = self.current_round
        if round_ is None:
            round_ = PokerRound(number=len(self.rounds) + 1)
            self.rounds.append(round_)
        round_.hands.append((seat, classify(dice)))
        self.turns.append(TurnRecord(seat, dice, None, 0, 0, 0))
        if len(round_.hands) == self.players:
            round_.ranking = rank([hand.dice for _, hand in round_.hands])
            for winner in round_.winners or ():
                self.round_wins[winner] += 1
        return round_

    def play_turn(self, dice: Dice, field: str | None = None, column: int = 0) -> TurnRecord:
        """Enter the current player's hand; poker takes dice only, no field of a table."""
        if field is not None:
            raise RulesError(NO_FIELD_IN_POKER, Code.FIELD_IN_POKER)
        self.play(dice)
        return self.turns[-1]

    def undo(self) -> TurnRecord:
        """Take back the last hand: a decided round is open again, its win taken back, and a
        round left without hands is gone."""
        if not self.turns:
            raise RulesError(NOTHING_TO_UNDO, Code.NOTHING_TO_UNDO)
        record = self.turns.pop()
        round_ = self.rounds[-1]
        for winner in round_.winners or ():
            self.round_wins[winner] -= 1
        round_.ranking = None
        round_.hands.pop()
        if not round_.hands:
            self.rounds.pop()
        return record

    def seat_figures(self, seat: int) -> SeatFigures:
        """Poker keeps only the rounds won; no sheet, so no bonuses."""
        return SeatFigures(
            total=self.round_wins[seat], upper_bonuses=0, generals=0, extra_bonuses=0
        )
