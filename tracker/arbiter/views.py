"""The arbiter's two tabs. Plain GET forms: parse the query, ask the rules core, render."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from tracker.arbiter.forms import MAX_HANDS, parse_poker_form, parse_table_form
from tracker.rules import TABLE_VARIANTS, Evaluation, Placement, evaluate, rank, sheet_totals

bp = Blueprint("arbiter", __name__)


@bp.get("/sedzia")
def table() -> str:
    form = parse_table_form(request.args)
    evaluation = None
    if form.roll is not None:
        dice, sheet = form.roll
        evaluation = evaluate(form.variant, sheet, dice, form.options)
    totals = None
    if form.sheet is not None and form.filled:
        totals = sheet_totals(form.variant, form.sheet, form.options)
    return render_template(
        "arbiter/table.html",
        form=form,
        variants=TABLE_VARIANTS.values(),
        evaluation=evaluation,
        moves_by_column=_by_column(evaluation) if evaluation else [],
        totals=totals,
    )


@bp.get("/sedzia/poker")
def poker() -> str:
    form = parse_poker_form(request.args)
    ranking = rank([row.dice for row in form.hands if row.dice]) if form.ready else None
    return render_template(
        "arbiter/poker.html",
        form=form,
        ranking=ranking,
        winners=[form.hands[i] for i in ranking.winners] if ranking else [],
        max_hands=MAX_HANDS,
    )


def _by_column(evaluation: Evaluation) -> list[tuple[int, int, list[Placement]]]:
    """The free fields per column (index, multiplier, placements), in table order."""
    variant = evaluation.variant
    return [
        (index, multiplier, [p for p in evaluation.placements if p.column == index])
        for index, multiplier in enumerate(variant.multipliers)
    ]
