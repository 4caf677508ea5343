"""A dice-poker match: rounds of hands compared, to the agreed number of round wins.

Every player enters the five dice of their last roll, in seating order; when all have entered,
the round goes to the single best hand, and several equal best hands draw it ("Gdy i one są
równe, runda kończy się remisem"). The first player to reach `target_wins` wins the match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .dice import Dice
from .errors import MoveRefused, RulesError
from .poker import HandValue, Ranking, classify, rank
from .variants import PokerOptions

MIN_PLAYERS = 2
MAX_PLAYERS = 8


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


class PokerMatch:
    def __init__(self, players: int, options: PokerOptions | None = None) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(f"W pokera gra od {MIN_PLAYERS} do {MAX_PLAYERS} graczy.")
        self.players = players
        self.options = options or PokerOptions()
        self.rounds: list[PokerRound] = []
        self.round_wins = [0] * players

    @classmethod
    def replay(
        cls, players: int, hands: Iterable[Dice], options: PokerOptions | None = None
    ) -> PokerMatch:
        match = cls(players, options)
        for dice in hands:
            match.play(dice)
        return match

    @property
    def hands_played(self) -> int:
        return sum(len(r.hands) for r in self.rounds)

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
    def current_seat(self) -> int | None:
        if self.finished:
            return None
        open_round = self.current_round
        return len(open_round.hands) if open_round is not None else 0

    def play(self, dice: Dice) -> PokerRound:
        """Enter the current player's hand; returns the round (decided when it is complete)."""
        seat = self.current_seat
        if seat is None:
            raise MoveRefused("Mecz jest zakończony.")
        round_ = self.current_round
        if round_ is None:
            round_ = PokerRound(number=len(self.rounds) + 1)
            self.rounds.append(round_)
        round_.hands.append((seat, classify(dice)))
        if len(round_.hands) == self.players:
            round_.ranking = rank([hand.dice for _, hand in round_.hands])
            for winner in round_.winners or ():
                self.round_wins[winner] += 1
        return round_
