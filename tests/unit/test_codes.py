"""Every refusal reason and note the rules produce carries a stable code beside its text."""

import ast
from pathlib import Path

import pytest

import tracker.rules
from tracker.rules import (
    Code,
    MoveRefused,
    PokerMatch,
    RulesError,
    TableGame,
    evaluate,
    find_table_variant,
    judge_move,
    parse_dice,
    parse_poker_options,
    parse_sheet,
    play,
)

from .builders import filled_except, roll

RULES_DIR = Path(tracker.rules.__file__).parent
STANDARD = find_table_variant("standard")


def STANDARD_OPTIONS(raw):  # noqa: N802 (read as a constant in the table below)
    return STANDARD.parse_options(raw)


def STANDARD_SHEET(raw):  # noqa: N802
    return parse_sheet(STANDARD, raw)


# (variant, sheet as on paper, dice, field, column, what carries the code, code)
FIELD_CASES = [
    pytest.param(
        "ordered", None, "1-1-1-2-3", "twos", 0, "reason", Code.NOT_NEXT_IN_ORDER,
        id="ordered: only the next field in table order",
    ),
    pytest.param(
        "standard", {"five_of_a_kind": 50, "sixes": 18}, "6-6-6-6-6", "ones", 0, "reason",
        Code.JOKER_MUST_GO_LOWER, id="joker: upper section while a lower field is free",
    ),
    pytest.param(
        "standard", None, "1-2-3-4-6", "full_house", 0, "note", Code.CROSSING_OUT,
        id="a roll that does not fit: crossing out",
    ),
    pytest.param(
        "standard", filled_except("ones", "twos", five_of_a_kind=50), "6-6-6-6-6", "ones", 0,
        "note", Code.JOKER_UPPER_ZERO, id="joker: lower section full, upper for 0",
    ),
    pytest.param(
        "standard", {"five_of_a_kind": 50, "sixes": 18}, "6-6-6-6-6", "full_house", 0, "note",
        Code.JOKER_FIXED_POINTS, id="joker: ful for 25",
    ),
    pytest.param(
        "standard", {"five_of_a_kind": 50, "sixes": 18}, "6-6-6-6-6", "chance", 0, "note",
        Code.JOKER_SUM, id="joker: chance for the sum",
    ),
    pytest.param(
        "standard", None, "6-6-6-6-6", "full_house", 0, "note", Code.FIVE_NOT_YET_JOKER,
        id="five of a kind before Generał: not a ful",
    ),
    pytest.param(
        "scandinavian", None, "6-6-6-6-6", "two_pairs", 0, "note", Code.FIVE_NOT_TWO_PAIRS,
        id="scandinavian: five of a kind is not two pairs",
    ),
    pytest.param(
        "scandinavian", None, "6-6-6-6-6", "small_straight", 0, "note", Code.FIVE_NEVER_JOKER,
        id="scandinavian: five of a kind is never a joker",
    ),
    pytest.param(
        "scandinavian", None, "6-6-6-6-1", "two_pairs", 0, "note", Code.FOUR_NOT_TWO_PAIRS,
        id="scandinavian: four of a kind is not two pairs",
    ),
    pytest.param(
        "scandinavian", None, "2-3-4-5-6", "small_straight", 0, "note",
        Code.SMALL_STRAIGHT_EXACT, id="scandinavian: small straight is exactly 1-2-3-4-5",
    ),
    pytest.param(
        "scandinavian", None, "1-2-3-4-5", "large_straight", 0, "note",
        Code.LARGE_STRAIGHT_EXACT, id="scandinavian: large straight is exactly 2-3-4-5-6",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("variant_id", "raw", "dice", "field", "column", "where", "code"), FIELD_CASES
)
def test_field_reasons_and_notes_carry_a_code(variant_id, raw, dice, field, column, where, code):
    variant = find_table_variant(variant_id)
    sheet = parse_sheet(variant, raw)
    placement = evaluate(variant, sheet, roll(dice)).find(field, column)
    assert getattr(placement, f"{where}_code") is code
    assert getattr(placement, where)  # the Polish text beside it
    verdict = judge_move(variant, sheet, roll(dice), field, column)
    assert (verdict.reason_code, verdict.note_code) == (placement.reason_code, placement.note_code)
    assert (verdict.reason, verdict.note) == (placement.reason, placement.note)
    if where == "reason":
        with pytest.raises(MoveRefused) as refused:
            play(variant, sheet, roll(dice), field, column)
        assert refused.value.code is code
        assert str(refused.value) == placement.reason


ROLL_CASES = [
    pytest.param("scandinavian", None, "6-6-6-6-6", [Code.NO_GENERAL_BONUSES],
                 id="scandinavian: no bonus, no joker"),
    pytest.param("standard", {"five_of_a_kind": 50}, "2-2-2-2-2",
                 [Code.EXTRA_BONUS, Code.NOT_JOKER_UPPER_FREE],
                 id="extra bonus, but Dwójki free: no joker"),
    pytest.param("standard", {"five_of_a_kind": 50, "twos": 10}, "2-2-2-2-2",
                 [Code.EXTRA_BONUS, Code.JOKER], id="extra bonus and joker"),
    pytest.param("standard", {"five_of_a_kind": 0}, "2-2-2-2-2",
                 [Code.NO_EXTRA_BONUS_GENERAL_ZERO, Code.NOT_JOKER_UPPER_FREE],
                 id="Generał crossed out: no bonus"),
    pytest.param("triple", [{"five_of_a_kind": 50}, {}, {}], "2-2-2-2-2",
                 [Code.NO_EXTRA_BONUS_YET], id="triple: bonus only with every Generał at 50"),
    pytest.param("standard", None, "1-2-3-4-5", [], id="no five of a kind: no roll notes"),
]  # fmt: skip


@pytest.mark.parametrize(("variant_id", "raw", "dice", "codes"), ROLL_CASES)
def test_roll_notes_carry_a_code_each(variant_id, raw, dice, codes):
    variant = find_table_variant(variant_id)
    evaluation = evaluate(variant, parse_sheet(variant, raw), roll(dice))
    assert list(evaluation.note_codes) == codes
    assert len(evaluation.notes) == len(codes)


def test_a_filled_field_is_refused_with_its_code():
    variant = find_table_variant("standard")
    sheet = parse_sheet(variant, {"full_house": 25})
    with pytest.raises(MoveRefused, match="Pole Ful jest już wypełnione.") as refused:
        judge_move(variant, sheet, roll("2-2-3-3-3"), "full_house")
    assert refused.value.code is Code.FIELD_FILLED


@pytest.mark.parametrize(
    ("field", "column", "code"),
    [("yahtzee", 0, Code.UNKNOWN_FIELD), ("ones", 1, Code.UNKNOWN_COLUMN)],
    ids=["unknown field", "column the variant lacks"],
)
def test_input_errors_carry_a_code(field, column, code):
    game = TableGame(find_table_variant("standard"), 1)
    with pytest.raises(RulesError) as refused:
        game.play_turn(roll("1-1-1-1-2"), field, column)
    assert refused.value.code is code
    assert not isinstance(refused.value, MoveRefused)


@pytest.mark.parametrize(
    ("parse", "raw", "code"),
    [
        pytest.param(parse_dice, "1234", Code.BAD_DICE, id="four dice"),
        pytest.param(parse_dice, "12a45", Code.BAD_DICE, id="a letter"),
        pytest.param(parse_dice, [1, 2, 3, 4, 7], Code.BAD_DICE, id="a seven"),
        pytest.param(parse_dice, [1, 2, 3, 4, True], Code.BAD_DICE, id="a boolean"),
        pytest.param(parse_dice, {"dice": 5}, Code.BAD_DICE, id="not a list"),
        pytest.param(STANDARD_OPTIONS, [42], Code.BAD_OPTIONS, id="options as a list"),
        pytest.param(STANDARD_OPTIONS, {"bonus": 42}, Code.BAD_OPTIONS, id="unknown option"),
        pytest.param(STANDARD_OPTIONS, {"bonus_threshold": 50}, Code.BAD_OPTIONS, id="threshold"),
        pytest.param(parse_poker_options, {"target_wins": 10}, Code.BAD_OPTIONS, id="target"),
        pytest.param(parse_poker_options, {"rounds": 3}, Code.BAD_OPTIONS, id="poker option"),
        pytest.param(STANDARD_SHEET, "ones", Code.BAD_SHEET, id="a sheet as text"),
        pytest.param(STANDARD_SHEET, [{}, {}], Code.BAD_SHEET, id="two columns"),
        pytest.param(STANDARD_SHEET, {"ones": 7}, Code.BAD_SHEET, id="points no roll writes"),
        pytest.param(STANDARD_SHEET, {"yahtzee": 50}, Code.BAD_SHEET, id="an unknown field"),
        pytest.param(
            STANDARD_SHEET,
            {"five_of_a_kind": 0, "extra_bonus": 100},
            Code.BAD_SHEET,
            id="a bonus without a Generał",
        ),
    ],
)
def test_malformed_input_carries_a_code(parse, raw, code):
    """Bad dice, options or sheets: a client tells them apart by the code, not the sentence."""
    with pytest.raises(RulesError) as refused:
        parse(raw)
    assert refused.value.code is code


def test_every_error_the_rules_core_raises_is_built_with_a_code():
    """Read the source: each RulesError (or MoveRefused) the core constructs passes a Code."""
    missing = []
    for path in sorted(RULES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id not in ("RulesError", "MoveRefused"):
                continue
            if len(node.args) < 2 and not any(k.arg == "code" for k in node.keywords):
                missing.append(f"{path.name}:{node.lineno}")
    assert missing == []


def test_game_over_has_one_code_for_both_kinds():
    table = TableGame(find_table_variant("standard"), 1)
    for field in table.variant.table.field_ids:
        table.play_turn(roll("1-2-3-4-6"), field)
    poker = PokerMatch(2)
    for _ in range(3):
        poker.play_turn(roll("6-6-6-6-6"))
        poker.play_turn(roll("1-2-3-4-6"))
    for game in (table, poker):
        assert game.finished
        with pytest.raises(MoveRefused) as refused:
            game.play_turn(roll("1-1-1-1-1"), None if game is poker else "ones")
        assert refused.value.code is Code.GAME_OVER


def test_codes_are_stable_strings():
    assert all(code.value == code.name.lower() for code in Code)
    assert Code.CROSSING_OUT == "crossing_out"
