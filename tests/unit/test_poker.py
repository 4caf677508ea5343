"""Poker kościany bez tabeli: naming hands, comparing two, ranking a round, saying why."""

import pytest

from tracker.rules import Hand, classify, compare, explain, rank

from .builders import roll


@pytest.mark.parametrize(
    ("dice", "hand", "label"),
    [
        ("6-6-6-6-6", Hand.FIVE_OF_A_KIND, "Pięć jednakowych"),
        ("6-6-6-6-1", Hand.FOUR_OF_A_KIND, "Cztery jednakowe"),
        ("5-5-5-2-2", Hand.FULL_HOUSE, "Ful"),
        ("1-2-3-4-5", Hand.STRAIGHT, "Strit"),
        ("6-5-4-3-2", Hand.STRAIGHT, "Strit"),
        ("3-3-3-1-2", Hand.THREE_OF_A_KIND, "Trzy jednakowe"),
        ("5-5-3-3-1", Hand.TWO_PAIRS, "Dwie pary"),
        ("5-5-1-2-3", Hand.PAIR, "Para"),
        ("1-2-3-4-6", Hand.NOTHING, "Nic (żaden układ)"),
        ("1-3-4-5-6", Hand.NOTHING, "Nic (żaden układ)"),
    ],
    ids=[
        "poker: five of a kind",
        "poker: four of a kind",
        "poker: full house",
        "poker: straight 1-2-3-4-5",
        "poker: straight 2-3-4-5-6 in any order",
        "poker: three of a kind",
        "poker: two pairs",
        "poker: pair",
        "poker: nothing (four in a row is no straight)",
        "poker: nothing (a gap breaks the straight)",
    ],
)
def test_poker_hand_names(dice, hand, label):
    value = classify(roll(dice))
    assert value.hand is hand
    assert hand.label == label
    assert hand.id == hand.name.lower()


ORDER_FROM_BEST = [
    "2-2-2-2-2",
    "6-6-6-6-5",
    "6-6-6-5-5",
    "2-3-4-5-6",
    "6-6-6-5-4",
    "6-6-5-5-4",
    "6-6-5-4-3",
    "6-5-4-3-1",
]


@pytest.mark.parametrize(
    ("better", "worse"),
    list(zip(ORDER_FROM_BEST, ORDER_FROM_BEST[1:], strict=False)),
    ids=[
        "poker: five of a kind beats four of a kind",
        "poker: four of a kind beats full house",
        "poker: full house beats straight",
        "poker: straight beats three of a kind",
        "poker: three of a kind beats two pairs",
        "poker: two pairs beat a pair",
        "poker: a pair beats nothing",
    ],
)
def test_poker_hand_order(better, worse):
    assert compare(roll(better), roll(worse)) == 1
    assert compare(roll(worse), roll(better)) == -1
    assert classify(roll(better)).hand > classify(roll(worse)).hand


def test_poker_the_lowest_hand_of_a_category_beats_the_best_of_the_one_below():
    assert compare(roll("1-1-1-1-1"), roll("6-6-6-6-5")) == 1
    assert compare(roll("2-2-2-1-1"), roll("2-3-4-5-6")) == 1
    assert compare(roll("1-1-2-2-3"), roll("6-6-5-4-3")) == 1


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        ("2-3-4-5-6", "1-2-3-4-5"),
        ("5-5-3-3-1", "5-5-2-2-6"),
        ("5-5-5-2-2", "4-4-4-6-6"),
        ("4-4-4-3-3", "4-4-4-2-2"),
        ("6-6-6-6-6", "5-5-5-5-5"),
        ("3-3-3-3-6", "3-3-3-3-5"),
        ("4-4-4-6-1", "4-4-4-5-3"),
        ("4-4-4-6-3", "4-4-4-6-2"),
        ("6-6-1-1-2", "5-5-4-4-6"),
        ("5-5-3-3-2", "5-5-3-3-1"),
        ("2-2-6-4-3", "2-2-6-4-1"),
        ("3-3-1-2-4", "2-2-6-5-4"),
        ("6-5-3-2-1", "6-4-3-2-1"),
        ("6-5-4-2-1", "6-5-3-2-1"),
    ],
    ids=[
        "rules: 2-3-4-5-6 beats 1-2-3-4-5",
        "rules: 5-5-3-3-1 beats 5-5-2-2-6 (lower pair decides before the fifth die)",
        "rules: 5-5-5-2-2 beats 4-4-4-6-6 (full house: the three first)",
        "full house: equal three, the pair decides",
        "five of a kind: the higher face",
        "four of a kind: the fifth die decides",
        "three of a kind: the higher kicker decides",
        "three of a kind: then the lower kicker",
        "two pairs: the higher pair first",
        "two pairs: the remaining die decides last",
        "pair: the kickers decide from the highest down",
        "pair: the pair before the kickers",
        "nothing: the second highest die decides",
        "nothing: the third highest die decides",
    ],
)
def test_poker_equal_hands_compare_the_hand_first_then_the_rest(winner, loser):
    assert classify(roll(winner)).hand is classify(roll(loser)).hand
    assert compare(roll(winner), roll(loser)) == 1
    assert compare(roll(loser), roll(winner)) == -1


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1-2-3-4-5", "5-4-3-2-1"),
        ("5-5-3-3-1", "3-5-1-3-5"),
        ("6-6-6-6-6", "6-6-6-6-6"),
        ("6-5-4-2-1", "1-2-4-5-6"),
    ],
    ids=[
        "draw: the same straight",
        "draw: the same two pairs and the same fifth die",
        "draw: the same five of a kind",
        "draw: nothing, equal on all five dice",
    ],
)
def test_poker_equal_on_all_is_a_draw(a, b):
    assert compare(roll(a), roll(b)) == 0
    assert compare(roll(b), roll(a)) == 0
    assert explain(roll(a), roll(b)).startswith("Remis")


@pytest.mark.parametrize(
    ("hands", "places", "winners"),
    [
        (["1-2-3-4-5", "2-3-4-5-6", "6-6-1-2-3"], [2, 1, 3], (1,)),
        (["2-3-4-5-6", "6-5-4-3-2", "1-1-1-2-3"], [1, 1, 3], (0, 1)),
        (["1-1-1-2-3", "6-5-4-3-2", "2-3-4-5-6"], [3, 1, 1], (1, 2)),
        (["4-4-1-2-3", "6-6-6-6-1", "5-5-2-2-1", "5-5-2-2-1"], [4, 1, 2, 2], (1,)),
        (["3-3-3-3-3", "3-3-3-3-3", "3-3-3-3-3"], [1, 1, 1], (0, 1, 2)),
        (["1-2-3-4-6", "6-6-6-6-6"], [2, 1], (1,)),
    ],
    ids=[
        "three players: the single best hand wins",
        "three players: two equal best hands draw, places 1, 1, 3",
        "equal best hands draw wherever they sit",
        "four players: shared second place, places 1, 2, 2, 4",
        "everyone equal: all draw",
        "two players: the better hand wins",
    ],
)
def test_poker_ranking(hands, places, winners):
    ranking = rank([roll(h) for h in hands])
    assert [r.place for r in ranking.hands] == places
    assert [r.index for r in ranking.hands] == list(range(len(hands)))
    assert ranking.winners == winners
    assert ranking.draw is (len(winners) > 1)
    assert ranking.explanation


@pytest.mark.parametrize(
    ("winner", "loser", "fragments"),
    [
        ("2-3-4-5-6", "1-2-3-4-5", ["strit", "najwyższa kość", "szóstka", "piątka"]),
        ("5-5-3-3-1", "5-5-2-2-6", ["wyższa para", "piątki", "niższa para", "trójki", "dwójki"]),
        ("5-5-5-2-2", "4-4-4-6-6", ["ful", "trzy jednakowe", "piątki", "czwórki"]),
        ("4-4-4-3-3", "4-4-4-2-2", ["trzy jednakowe są takie same", "para", "trójki"]),
        ("3-3-3-3-6", "3-3-3-3-5", ["piąta kość", "szóstka", "piątka"]),
        ("2-2-6-4-3", "2-2-6-4-1", ["najniższa z pozostałych kości", "trójka", "jedynka"]),
        ("6-6-6-6-1", "6-6-6-5-5", ["cztery jednakowe to wyższy układ niż ful"]),
        ("1-1-2-2-3", "6-6-5-4-3", ["dwie pary to wyższy układ niż para"]),
    ],
    ids=[
        "explain: the straight's highest die decides",
        "explain: higher pairs equal, the lower pair decides",
        "explain: full house, the three equal dice decide",
        "explain: full house, equal three, the pair decides",
        "explain: four of a kind, the fifth die decides",
        "explain: pair, the lowest kicker decides",
        "explain: a higher hand, named both",
        "explain: two pairs over a pair",
    ],
)
def test_poker_explanation_mentions_the_deciding_part(winner, loser, fragments):
    sentence = explain(roll(winner), roll(loser))
    assert sentence.startswith(classify(roll(winner)).shown + " wygrywa z ")
    for fragment in fragments:
        assert fragment in sentence
    # The order of the arguments does not change who is said to win.
    assert explain(roll(loser), roll(winner)) == sentence


def test_poker_explanation_of_the_rulebook_two_pairs_example():
    # The sentence is the point here: it is what the round screen shows.
    assert explain(roll("5-5-3-3-1"), roll("5-5-2-2-6")) == (
        "5-5-3-3-1 wygrywa z 5-5-2-2-6: oba układy to dwie pary; wyższa para jest taka sama "
        "(piątki), więc decyduje niższa para: trójki są wyższe niż dwójki."
    )


def test_poker_explanation_of_two_fives_of_a_kind_names_what_decides():
    """Not „oba układy to pięć jednakowych, a decyduje pięć jednakowych”: the hand names
    itself as what decides. Between two fives of a kind the faces decide."""
    assert explain(roll("3-3-3-3-3"), roll("2-2-2-2-2")) == (
        "3-3-3-3-3 wygrywa z 2-2-2-2-2: oba układy to pięć jednakowych, a decyduje liczba "
        "oczek: trójki są wyższe niż dwójki."
    )


def test_poker_hand_shown_grouped_as_players_read_it():
    assert classify(roll("2-5-2-5-5")).shown == "5-5-5-2-2"
    assert classify(roll("1-3-5-3-5")).shown == "5-5-3-3-1"
    assert classify(roll("6-2-4-3-5")).shown == "2-3-4-5-6"


def test_poker_ranking_explanation():
    ranking = rank([roll("1-2-3-4-5"), roll("2-3-4-5-6"), roll("6-6-1-2-3")])
    assert ranking.explanation == explain(roll("2-3-4-5-6"), roll("1-2-3-4-5"))
    draw = rank([roll("2-3-4-5-6"), roll("6-5-4-3-2"), roll("1-1-1-2-3")])
    assert draw.explanation.startswith("Remis")
    assert "nikt nie wygrywa" in draw.explanation


@pytest.mark.parametrize(
    ("hands", "listed"),
    [
        (["2-3-4-5-6", "6-5-4-3-2"], "2-3-4-5-6 i 2-3-4-5-6"),
        (["2-3-4-5-6", "6-5-4-3-2", "3-4-5-6-2"], "2-3-4-5-6, 2-3-4-5-6 i 2-3-4-5-6"),
        (["4-4-1-2-3"] * 4, "4-4-3-2-1, 4-4-3-2-1, 4-4-3-2-1 i 4-4-3-2-1"),
    ],
    ids=["two hands: a i b", "three hands: a, b i c", "four hands: a, b, c i d"],
)
def test_poker_draw_lists_the_tied_hands_as_a_sentence_does(hands, listed):
    """A draw names the tied hands as a list ("a, b i c"), not "a i b i c"."""
    ranking = rank([roll(h) for h in hands])
    assert ranking.explanation.startswith(f"Remis: {listed} to ")
