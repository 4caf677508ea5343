"""The rules as JSON, no sign-in: what a roll may score on a sheet, what each choice is worth
under optimal play (`/advice`, from `tracker.advisor`), and a round of dice poker.

The views only read the request, call `tracker.rules` and shape the answer. Anything the rules
refuse (a `RulesError`, whose message is meant for players) is a 400 `{"error": message}`;
nothing a client sends can make these endpoints answer 500. Labels, notes, reasons and errors
are in the language of the request's `Accept-Language` (`rules_text`); ids and codes never change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.advisor import Advice
from tracker.api import api_errors, bp, read_json_object
from tracker.rules import (
    Code,
    Dice,
    Evaluation,
    Placement,
    RulesError,
    SheetTotals,
    Text,
    evaluate,
    find_table_variant,
    parse_dice,
    parse_sheet,
    rank,
    sheet_totals,
)
from tracker.rules.text import N_
from tracker.rules_text import rules_text
from tracker.services import reviews

SCORE_KEYS = frozenset({"variant", "dice", "sheet", "options"})
RANK_KEYS = frozenset({"hands"})
MIN_HANDS = 2
MAX_HANDS = 8

JsonObject = dict[str, Any]


@bp.post("/score")
@api_errors
def score() -> JsonObject:
    """Every legal move of a roll on a sheet, the refused fields with the reason, the totals."""
    body = read_json_object(SCORE_KEYS)
    variant = find_table_variant(require(body, "variant"))
    dice = read_dice(require(body, "dice"))
    options = variant.parse_options(body.get("options"))
    sheet = parse_sheet(variant, body.get("sheet"))
    evaluation = evaluate(variant, sheet, dice, options)
    totals = sheet_totals(variant, sheet, options)
    return {
        "variant": variant.id,
        "dice": list(dice),
        "options": options.as_dict(),
        **roll_as_json(evaluation),
        **totals_as_json(totals),
    }


@bp.post("/advice")
@api_errors
def advice() -> JsonObject:
    """The sheet's expected final total under optimal solitaire play, and with `dice` every
    move they allow priced the same way, best first. The body and its errors are `/score`'s."""
    body = read_json_object(SCORE_KEYS)
    variant = find_table_variant(require(body, "variant"))
    raw_dice = body.get("dice")
    dice = None if raw_dice is None else read_dice(raw_dice)
    options = variant.parse_options(body.get("options"))
    sheet = parse_sheet(variant, body.get("sheet"))
    return advice_as_json(reviews.advise(variant, sheet, dice, options))


@bp.post("/poker/rank")
@api_errors
def poker_rank() -> JsonObject:
    """Rank 2 to 8 poker hands: places (equal hands share one), winners and why."""
    body = read_json_object(RANK_KEYS)
    hands = require(body, "hands")
    if not isinstance(hands, list):
        raise RulesError(
            N_("Układy (hands) podaj jako listę, np. [[2,3,4,5,6], [1,2,3,4,5]]."), Code.BAD_DICE
        )
    if not MIN_HANDS <= len(hands) <= MAX_HANDS:
        raise RulesError(
            Text(
                N_("Porównać można od %(least)d do %(most)d układów, podano %(count)d."),
                least=MIN_HANDS,
                most=MAX_HANDS,
                count=len(hands),
            ),
            Code.PLAYER_COUNT,
        )
    dice = [read_dice(hand, number) for number, hand in enumerate(hands, 1)]
    ranking = rank(dice)
    return {
        "hands": [
            {
                "dice": list(ranked.value.dice),
                "hand": ranked.value.hand.id,
                "label": rules_text(ranked.value.hand.label),
                "place": ranked.place,
            }
            for ranked in ranking.hands
        ],
        "winners": list(ranking.winners),
        "draw": ranking.draw,
        "explanation": rules_text(ranking.explanation_text),
    }


# --- reading the request -------------------------------------------------------------------


def require(body: Mapping[str, Any], key: str) -> Any:
    if body.get(key) is None:
        raise RulesError(Text(N_('Brak klucza "%(key)s" w treści żądania.'), key=key))
    return body[key]


def read_dice(raw: object, hand: int | None = None) -> Dice:
    """Five dice sent as a JSON array. `parse_dice` also reads "66666", which forms accept and
    JSON clients must not rely on. `hand`: the number of a poker hand, named in the error."""
    try:
        if not isinstance(raw, list):
            raise RulesError(
                N_("Kości podaj jako listę pięciu liczb od 1 do 6, np. [6,6,6,6,6]."), Code.BAD_DICE
            )
        return parse_dice(raw)
    except RulesError as error:
        if hand is None:
            raise
        raise RulesError(
            Text(N_("Układ %(number)d: %(message)s"), number=hand, message=error.text), error.code
        ) from None


# --- shaping the answer --------------------------------------------------------------------


def roll_as_json(evaluation: Evaluation) -> JsonObject:
    return {
        "joker": evaluation.joker,
        "extra_bonus": evaluation.extra_bonus,
        "notes": [rules_text(note) for note in evaluation.note_texts],
        "moves": [move_as_json(p) for p in evaluation.moves],
        "refused": [refusal_as_json(p) for p in evaluation.refused],
    }


def move_as_json(placement: Placement) -> JsonObject:
    return {
        "column": placement.column,
        "field": placement.field,
        "label": rules_text(placement.label),
        "points": placement.points,
        "extra_bonus": placement.extra_bonus,
        "multiplier": placement.multiplier,
        "gain": placement.gain,
        "note": None if placement.note_text is None else rules_text(placement.note_text),
    }


def refusal_as_json(placement: Placement) -> JsonObject:
    return {
        "column": placement.column,
        "field": placement.field,
        "label": rules_text(placement.label),
        "points": placement.points,
        "reason": rules_text(placement.reason_text),
    }


def advice_as_json(found: Advice) -> JsonObject:
    """Expected points rounded to 2 decimals (the tables hold float32: more would be noise)."""
    return {
        "variant": found.variant,
        "exact": found.exact,
        "expected": round(found.expected, 2),
        "moves": [
            {
                "column": m.column,
                "field": m.field,
                "points": m.points,
                "extra_bonus": m.extra_bonus,
                "expected": round(m.expected, 2),
                "loss": round(m.loss, 2),
            }
            for m in found.moves
        ],
    }


def totals_as_json(totals: SheetTotals) -> JsonObject:
    return {"totals": [column.as_dict() for column in totals.columns], "total": totals.total}
