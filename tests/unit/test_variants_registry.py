"""One registry for every variant, poker included: ids, names, kinds, player limits, maxima."""

import pytest

from tracker.rules import (
    POKER,
    POKER_VARIANT,
    TABLE_VARIANTS,
    VARIANT_NAMES,
    VARIANTS,
    Code,
    PokerOptions,
    PokerVariant,
    RulesError,
    Variant,
    find_table_variant,
    find_variant,
    parse_poker_options,
)


def test_the_registry_lists_every_variant_in_display_order():
    assert list(VARIANTS) == ["standard", "ordered", "scandinavian", "triple", "poker"]
    assert all(v.id == key for key, v in VARIANTS.items())
    assert VARIANTS[POKER] is POKER_VARIANT


def test_the_old_names_are_derived_from_the_registry():
    assert {k: v for k, v in VARIANTS.items() if v.kind == "table"} == TABLE_VARIANTS
    assert {k: v.name for k, v in VARIANTS.items()} == VARIANT_NAMES
    assert VARIANT_NAMES[POKER] == "Poker kościany bez tabeli"


@pytest.mark.parametrize(
    ("variant_id", "kind", "least", "most", "turns"),
    [
        ("standard", "table", 1, 8, 13),
        ("ordered", "table", 1, 8, 13),
        ("scandinavian", "table", 1, 8, 15),
        ("triple", "table", 1, 8, 39),
        ("poker", "poker", 2, 8, None),
    ],
    ids=["standard", "ordered", "scandinavian", "triple", "poker"],
)
def test_find_variant_knows_kind_limits_and_turns(variant_id, kind, least, most, turns):
    variant = find_variant(variant_id)
    assert (variant.kind, variant.min_players, variant.max_players) == (kind, least, most)
    assert variant.turns == turns
    assert isinstance(variant, Variant if kind == "table" else PokerVariant)


@pytest.mark.parametrize(
    ("variant_id", "message", "code"),
    [
        ("poker", "Poker kościany nie ma tabeli", Code.NO_TABLE_IN_POKER),
        ("yahtzee", "Nieznany wariant 'yahtzee'. Znane warianty: standard, ", Code.UNKNOWN_VARIANT),
        (None, "Nieznany wariant None", Code.UNKNOWN_VARIANT),
    ],
    ids=["poker has no table", "unknown id", "not a string"],
)
def test_find_table_variant_refuses_with_a_code(variant_id, message, code):
    with pytest.raises(RulesError, match=message) as refused:
        find_table_variant(variant_id)
    assert refused.value.code is code


def test_find_table_variant_gives_table_variants():
    assert [find_table_variant(v) for v in TABLE_VARIANTS] == list(TABLE_VARIANTS.values())


@pytest.mark.parametrize(
    ("variant_id", "count", "allowed"),
    [
        ("standard", 1, True),
        ("standard", 8, True),
        ("standard", 0, False),
        ("standard", 9, False),
        ("triple", 1, True),
        ("poker", 1, False),
        ("poker", 2, True),
        ("poker", 8, True),
        ("poker", 9, False),
    ],
    ids=[
        "table: one player plays alone",
        "table: eight players",
        "table: nobody",
        "table: nine is too many",
        "triple: one player",
        "poker: one player has nobody to beat",
        "poker: two players",
        "poker: eight players",
        "poker: nine is too many",
    ],
)
def test_check_players(variant_id, count, allowed):
    variant = find_variant(variant_id)
    if allowed:
        variant.check_players(count)
        return
    least, most = variant.min_players, variant.max_players
    with pytest.raises(RulesError) as refused:
        variant.check_players(count)
    assert str(refused.value) == f"Przy stole siedzi od {least} do {most} graczy."
    assert refused.value.code is Code.PLAYER_COUNT


@pytest.mark.parametrize(
    ("variant_id", "maximum"),
    [("standard", 375), ("ordered", 375), ("scandinavian", 374), ("triple", 2250)],
    ids=["standard", "ordered", "scandinavian", "triple"],
)
def test_max_total_without_extra_general_bonuses(variant_id, maximum):
    # the settled rules: every field at its maximum, the upper bonus in, extra bonuses not.
    assert find_table_variant(variant_id).max_total == maximum


@pytest.mark.parametrize(
    ("variant_id", "thresholds"),
    [("standard", (63,)), ("ordered", (63, 42)), ("scandinavian", (63,)), ("triple", (63,))],
    ids=["standard", "ordered offers 42", "scandinavian", "triple"],
)
def test_bonus_thresholds_a_variant_offers(variant_id, thresholds):
    assert find_table_variant(variant_id).bonus_thresholds == thresholds


def test_poker_variant_parses_its_options_like_parse_poker_options():
    assert POKER_VARIANT.parse_options(None) == PokerOptions()
    assert POKER_VARIANT.parse_options({"target_wins": 5}) == parse_poker_options(
        {"target_wins": 5}
    )
    with pytest.raises(RulesError, match="target_wins"):
        POKER_VARIANT.parse_options({"target_wins": 0})
