"""What the arbiter page /sedzia and /sedzia/poker decide, asked of the rules directly: every
case of `arbiter_cases.CASES` and the rulebook's poker tie-breaks. tests/integration/
test_arbiter.py keeps what only the page shows (the form, its errors, the hooks it renders)."""

from __future__ import annotations

import pytest

from tracker.rules import evaluate, find_variant, parse_dice, parse_sheet, rank

from .arbiter_cases import CASES, Case


def flags_of(joker: bool, extra_bonus: int) -> frozenset[str]:
    """The badges the page shows for a roll (`data-flag`)."""
    return frozenset({"joker"} if joker else set()) | ({"extra-bonus"} if extra_bonus else set())


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_arbiter_shows_what_the_roll_scores(case: Case):
    variant = find_variant(case.variant)
    options = variant.parse_options({k: int(v) for k, v in case.options.items()} or None)
    sheet = parse_sheet(variant, list(case.sheet))

    evaluation = evaluate(variant, sheet, parse_dice(case.dice), options)

    assert flags_of(evaluation.joker, evaluation.extra_bonus) == case.flags
    for (column, field_id), expect in case.rows.items():
        placement = evaluation.find(field_id, column)
        where = f"{case.id}: column {column}, {field_id}"
        assert placement is not None, where
        assert placement.points == expect.points, where
        assert placement.allowed is expect.allowed, where
        if expect.extra_bonus is not None:
            assert placement.extra_bonus == expect.extra_bonus, where
        if expect.gain is not None:
            assert placement.gain == expect.gain, where
        if expect.best is not None:
            best = (
                placement.allowed
                and evaluation.best_gain > 0
                and placement.gain == evaluation.best_gain
            )
            assert best is expect.best, where
        if expect.says is not None:
            assert expect.says in f"{placement.reason or ''} {placement.note or ''}", where
        if not expect.allowed:
            assert placement.reason, where
    notes = " ".join(evaluation.notes)
    for note in case.notes:
        assert note in notes, case.id


@pytest.mark.parametrize(
    ("winner", "loser", "says"),
    [
        ("23456", "12345", "2-3-4-5-6 wygrywa z 1-2-3-4-5"),
        ("55331", "55226", "5-5-3-3-1 wygrywa z 5-5-2-2-6"),
        ("33322", "22266", "3-3-3-2-2 wygrywa z 2-2-2-6-6"),
    ],
    ids=["higher_straight", "two_pairs_lower_pair_decides", "full_house_three_first"],
)
def test_poker_rulebook_tie_breaks(winner: str, loser: str, says: str):
    ranking = rank([parse_dice(loser), parse_dice(winner)])

    assert ranking.winners == (1,)
    assert says in ranking.explanation
    assert [(h.index, h.place) for h in ranking.hands] == [(0, 2), (1, 1)]
