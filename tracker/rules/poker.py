"""Dice poker without a table: naming a hand, comparing two, ranking a round.

"Przy takim samym układzie porównujecie najpierw kości, które go tworzą. W fulu zaczynacie od
trzech jednakowych, a w dwóch parach od wyższej pary. Gdy te kości są równe, decydują
pozostałe. Gdy i one są równe, runda kończy się remisem."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from .dice import FACE_PLURAL, FACE_SINGULAR, Dice, counts, format_dice


class Hand(IntEnum):
    """Poker hands, the higher value the better."""

    NOTHING = 0
    PAIR = 1
    TWO_PAIRS = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FOUR_OF_A_KIND = 6
    FIVE_OF_A_KIND = 7

    @property
    def id(self) -> str:
        return self.name.lower()

    @property
    def label(self) -> str:
        return HAND_LABELS[self]


HAND_LABELS = {
    Hand.FIVE_OF_A_KIND: "Pięć jednakowych",
    Hand.FOUR_OF_A_KIND: "Cztery jednakowe",
    Hand.FULL_HOUSE: "Ful",
    Hand.STRAIGHT: "Strit",
    Hand.THREE_OF_A_KIND: "Trzy jednakowe",
    Hand.TWO_PAIRS: "Dwie pary",
    Hand.PAIR: "Para",
    Hand.NOTHING: "Nic (żaden układ)",
}

# What each compared position is called, per hand: (name, takes a plural verb, faces in plural).
_ROLES: dict[Hand, tuple[tuple[str, bool, bool], ...]] = {
    Hand.FIVE_OF_A_KIND: (("pięć jednakowych", False, True),),
    Hand.FOUR_OF_A_KIND: (("cztery jednakowe", True, True), ("piąta kość", False, False)),
    Hand.FULL_HOUSE: (("trzy jednakowe", True, True), ("para", False, True)),
    Hand.STRAIGHT: (("najwyższa kość", False, False),),
    Hand.THREE_OF_A_KIND: (
        ("trzy jednakowe", True, True),
        ("wyższa z pozostałych kości", False, False),
        ("niższa z pozostałych kości", False, False),
    ),
    Hand.TWO_PAIRS: (
        ("wyższa para", False, True),
        ("niższa para", False, True),
        ("pozostała kość", False, False),
    ),
    Hand.PAIR: (
        ("para", False, True),
        ("najwyższa z pozostałych kości", False, False),
        ("środkowa z pozostałych kości", False, False),
        ("najniższa z pozostałych kości", False, False),
    ),
    Hand.NOTHING: (
        ("najwyższa kość", False, False),
        ("druga kość", False, False),
        ("trzecia kość", False, False),
        ("czwarta kość", False, False),
        ("najniższa kość", False, False),
    ),
}


@dataclass(frozen=True)
class HandValue:
    dice: Dice
    hand: Hand
    # The faces compared in order: the dice forming the hand first, then the rest, high to low.
    tiebreak: tuple[int, ...]

    @property
    def key(self) -> tuple[int, ...]:
        return (int(self.hand), *self.tiebreak)

    @property
    def shown(self) -> str:
        """The dice grouped as players read the hand: 5-5-5-2-2, 5-5-3-3-1."""
        if self.hand is Hand.STRAIGHT:
            return format_dice(sorted(self.dice))
        c = counts(self.dice)
        return format_dice(sorted(self.dice, key=lambda d: (-c[d], -d)))


def classify(dice: Dice) -> HandValue:
    c = counts(dice)
    # Faces ordered by how many there are, then by value: the comparison order of the rulebook.
    groups = sorted(c, key=lambda face: (-c[face], -face))
    shape = sorted(c.values(), reverse=True)
    if shape == [5]:
        hand = Hand.FIVE_OF_A_KIND
    elif shape == [4, 1]:
        hand = Hand.FOUR_OF_A_KIND
    elif shape == [3, 2]:
        hand = Hand.FULL_HOUSE
    elif set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        return HandValue(dice, Hand.STRAIGHT, (max(dice),))
    elif shape == [3, 1, 1]:
        hand = Hand.THREE_OF_A_KIND
    elif shape == [2, 2, 1]:
        hand = Hand.TWO_PAIRS
    elif shape == [2, 1, 1, 1]:
        hand = Hand.PAIR
    else:
        hand = Hand.NOTHING
    return HandValue(dice, hand, tuple(groups))


def compare(a: Dice, b: Dice) -> int:
    """1 when hand a beats hand b, -1 when it loses, 0 for a draw."""
    ka, kb = classify(a).key, classify(b).key
    return (ka > kb) - (ka < kb)


@dataclass(frozen=True)
class RankedHand:
    index: int
    value: HandValue
    place: int  # 1 = best; equal hands share a place (1, 1, 3)


@dataclass(frozen=True)
class Ranking:
    hands: tuple[RankedHand, ...]  # in the order given
    winners: tuple[int, ...]  # indexes of the best hand, or of every hand tied for best
    explanation: str

    @property
    def draw(self) -> bool:
        return len(self.winners) != 1


def rank(hands: Sequence[Dice]) -> Ranking:
    """Rank several hands; the round goes to the single best hand, equal best hands draw it."""
    values = [classify(d) for d in hands]
    ranked = tuple(
        RankedHand(i, v, 1 + sum(1 for other in values if other.key > v.key))
        for i, v in enumerate(values)
    )
    winners = tuple(r.index for r in ranked if r.place == 1)
    return Ranking(ranked, winners, _explain_ranking(values, winners))


def explain(winner: Dice, loser: Dice) -> str:
    """One Polish sentence: why the first hand beats the second (or why they draw)."""
    a, b = classify(winner), classify(loser)
    if a.key == b.key:
        return _explain_draw([a, b])
    if a.key < b.key:
        a, b = b, a
    if a.hand != b.hand:
        return (
            f"{a.shown} wygrywa z {b.shown}: {a.hand.label.lower()} to wyższy układ "
            f"niż {b.hand.label.lower()}."
        )
    roles = _ROLES[a.hand]
    position = next(
        i for i, (x, y) in enumerate(zip(a.tiebreak, b.tiebreak, strict=True)) if x != y
    )
    same = [
        f"{role} {'są takie same' if verb_plural else 'jest taka sama'} "
        f"({(FACE_PLURAL if faces_plural else FACE_SINGULAR)[face]})"
        for (role, verb_plural, faces_plural), face in zip(
            roles[:position], a.tiebreak[:position], strict=False
        )
    ]
    role, verb_plural, faces_plural = roles[position]
    nouns = FACE_PLURAL if faces_plural else FACE_SINGULAR
    decisive = (
        f"decyduj{'ą' if verb_plural else 'e'} {role}: {nouns[a.tiebreak[position]]} "
        f"{'są wyższe' if faces_plural else 'jest wyższa'} niż {nouns[b.tiebreak[position]]}"
    )
    middle = f"; {', '.join(same)}, więc " if same else ", a "
    return f"{a.shown} wygrywa z {b.shown}: oba układy to {a.hand.label.lower()}{middle}{decisive}."


def _explain_draw(tied: Sequence[HandValue]) -> str:
    shown = " i ".join(v.shown for v in tied)
    return (
        f"Remis: {shown} to {tied[0].hand.label.lower()} z tymi samymi kośćmi, "
        "więc nikt nie wygrywa rundy."
    )


def _explain_ranking(values: Sequence[HandValue], winners: Sequence[int]) -> str:
    if len(values) < 2:
        return ""
    if len(winners) > 1:
        return _explain_draw([values[i] for i in winners])
    best = values[winners[0]]
    runner_up = max((v for i, v in enumerate(values) if i != winners[0]), key=lambda v: v.key)
    return explain(best.dice, runner_up.dice)
