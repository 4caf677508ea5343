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
from .text import N_, Text, joined, listed


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

    @property
    def label_text(self) -> Text:
        return Text(HAND_LABELS[self])


HAND_LABELS = {
    Hand.FIVE_OF_A_KIND: N_("Pięć jednakowych"),
    Hand.FOUR_OF_A_KIND: N_("Cztery jednakowe"),
    Hand.FULL_HOUSE: N_("Ful"),
    Hand.STRAIGHT: N_("Strit"),
    Hand.THREE_OF_A_KIND: N_("Trzy jednakowe"),
    Hand.TWO_PAIRS: N_("Dwie pary"),
    Hand.PAIR: N_("Para"),
    Hand.NOTHING: N_("Nic (żaden układ)"),
}

# What each compared position is called, per hand: (name, takes a plural verb, faces in plural).
_ROLES: dict[Hand, tuple[tuple[str, bool, bool], ...]] = {
    # Two fives of a kind differ only in their faces: „decyduje liczba oczek”, not the hand again.
    Hand.FIVE_OF_A_KIND: ((N_("liczba oczek"), False, True),),
    Hand.FOUR_OF_A_KIND: ((N_("cztery jednakowe"), True, True), (N_("piąta kość"), False, False)),
    Hand.FULL_HOUSE: ((N_("trzy jednakowe"), True, True), (N_("para"), False, True)),
    Hand.STRAIGHT: ((N_("najwyższa kość"), False, False),),
    Hand.THREE_OF_A_KIND: (
        (N_("trzy jednakowe"), True, True),
        (N_("wyższa z pozostałych kości"), False, False),
        (N_("niższa z pozostałych kości"), False, False),
    ),
    Hand.TWO_PAIRS: (
        (N_("wyższa para"), False, True),
        (N_("niższa para"), False, True),
        (N_("pozostała kość"), False, False),
    ),
    Hand.PAIR: (
        (N_("para"), False, True),
        (N_("najwyższa z pozostałych kości"), False, False),
        (N_("środkowa z pozostałych kości"), False, False),
        (N_("najniższa z pozostałych kości"), False, False),
    ),
    Hand.NOTHING: (
        (N_("najwyższa kość"), False, False),
        (N_("druga kość"), False, False),
        (N_("trzecia kość"), False, False),
        (N_("czwarta kość"), False, False),
        (N_("najniższa kość"), False, False),
    ),
}

# "trzy jednakowe są takie same (piątki)": by whether the role takes a plural verb.
_SAME = {
    True: N_("%(role)s są takie same (%(faces)s)"),
    False: N_("%(role)s jest taka sama (%(faces)s)"),
}
# "decyduje para: piątki są wyższe niż trójki": by (plural verb, faces in plural).
_DECISIVE = {
    (True, True): N_("decydują %(role)s: %(high)s są wyższe niż %(low)s"),
    (True, False): N_("decydują %(role)s: %(high)s jest wyższa niż %(low)s"),
    (False, True): N_("decyduje %(role)s: %(high)s są wyższe niż %(low)s"),
    (False, False): N_("decyduje %(role)s: %(high)s jest wyższa niż %(low)s"),
}
_LIST = N_("%(first)s, %(second)s")
_AND = N_("%(first)s i %(second)s")
_AND_LAST = N_("%(items)s i %(last)s")  # the last of three or more: "a, b i c"


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
    explanation_text: Text | None = None  # the explanation, translatable (None: a lone hand)

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
    text = _explain_ranking(values, winners)
    return Ranking(ranked, winners, "" if text is None else str(text), text)


def explain(winner: Dice, loser: Dice) -> str:
    """One Polish sentence: why the first hand beats the second (or why they draw)."""
    return str(explain_text(winner, loser))


def explain_text(winner: Dice, loser: Dice) -> Text:
    """Why the first hand beats the second (or why they draw), translatable."""
    a, b = classify(winner), classify(loser)
    if a.key == b.key:
        return _explain_draw([a, b])
    if a.key < b.key:
        a, b = b, a
    if a.hand != b.hand:
        return Text(
            N_("%(winner)s wygrywa z %(loser)s: %(high)s to wyższy układ niż %(low)s."),
            winner=a.shown,
            loser=b.shown,
            high=a.hand.label_text.lowered(),
            low=b.hand.label_text.lowered(),
        )
    roles = _ROLES[a.hand]
    position = next(
        i for i, (x, y) in enumerate(zip(a.tiebreak, b.tiebreak, strict=True)) if x != y
    )
    same: list[str | int | Text] = [
        Text(
            _SAME[verb_plural],
            role=Text(role),
            faces=Text((FACE_PLURAL if faces_plural else FACE_SINGULAR)[face]),
        )
        for (role, verb_plural, faces_plural), face in zip(
            roles[:position], a.tiebreak[:position], strict=False
        )
    ]
    role, verb_plural, faces_plural = roles[position]
    nouns = FACE_PLURAL if faces_plural else FACE_SINGULAR
    decisive = Text(
        _DECISIVE[verb_plural, faces_plural],
        role=Text(role),
        high=Text(nouns[a.tiebreak[position]]),
        low=Text(nouns[b.tiebreak[position]]),
    )
    hand = a.hand.label_text.lowered()
    if same:
        return Text(
            N_(
                "%(winner)s wygrywa z %(loser)s: oba układy to %(hand)s; "
                "%(same)s, więc %(decisive)s."
            ),
            winner=a.shown,
            loser=b.shown,
            hand=hand,
            same=joined(same, _LIST),
            decisive=decisive,
        )
    return Text(
        N_("%(winner)s wygrywa z %(loser)s: oba układy to %(hand)s, a %(decisive)s."),
        winner=a.shown,
        loser=b.shown,
        hand=hand,
        decisive=decisive,
    )


def _explain_draw(tied: Sequence[HandValue]) -> Text:
    return Text(
        N_("Remis: %(hands)s to %(hand)s z tymi samymi kośćmi, więc nikt nie wygrywa rundy."),
        hands=listed([v.shown for v in tied], _LIST, _AND, _AND_LAST),
        hand=tied[0].hand.label_text.lowered(),
    )


def _explain_ranking(values: Sequence[HandValue], winners: Sequence[int]) -> Text | None:
    if len(values) < 2:
        return None
    if len(winners) > 1:
        return _explain_draw([values[i] for i in winners])
    best = values[winners[0]]
    runner_up = max((v for i, v in enumerate(values) if i != winners[0]), key=lambda v: v.key)
    return explain_text(best.dice, runner_up.dice)
