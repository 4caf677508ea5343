"""Correcting an earlier turn in the browser: `/gry/<id>/ruchy/<seq>/popraw`.

GET shows the turn as written, the dice widget filled with its dice and (at a table) the fields it
could have been written in; POST asks the service (`services.corrections`), then goes back to the
game with „Poprawiono ruch N: …”, or shows the form again with the rules' reason next to the dice
or the field and the dice as typed. The full sheet's turn log links every turn in force here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from wtforms import HiddenField, StringField

from .. import rules
from ..forms import PageForm
from ..i18n import _
from ..rules_text import points_text, rules_text
from ..services import Conflict, NotFound, ServiceError, corrections, games
from ..services.games import GameView, NeedsConfirmation
from ..services.inputs import whole_number
from ..store.rows import TurnRow
from ..web import account_id
from .turn import cell_name, zero_question_text
from .views import bp


class CorrectionForm(PageForm):
    """The turn as it should have been. Read as text and checked by the service: the dice next
    to the dice, the field next to the field."""

    dice = StringField()
    where = StringField()  # "column:field", e.g. "0:full_house"; none in dice poker
    seq = HiddenField()  # the next turn's number as the page saw it
    version = HiddenField()  # the game's version as the page saw it (a correction keeps `seq`)
    # „Tak, wpisz 0”: the 0 the page asked about (`asked`: its dice and field) is meant.
    confirm = HiddenField()
    asked = HiddenField()


@dataclass(frozen=True)
class FieldOption:
    value: str  # "column:field"
    text: str  # "Ful", "Ful ×2"; "Szóstki – zajęte w ruchu 9"
    disabled: bool
    current: bool  # the field the turn wrote


@dataclass(frozen=True)
class FieldGroup:
    label: str | None  # "Kolumna ×2" when the sheet has several columns
    options: tuple[FieldOption, ...]


def where_value(column: int | None, field: str | None) -> str:
    return f"{column or 0}:{field or ''}"


def _load(game_id: int) -> GameView:
    try:
        return games.load(account_id(), game_id)
    except NotFound as exc:
        abort(404, exc.message)


def _turn(view: GameView, seq: int) -> TurnRow:
    try:
        return corrections.turn_to_correct(view, seq)
    except NotFound as exc:
        abort(404, exc.message)


def field_groups(view: GameView, turn: TurnRow) -> list[FieldGroup]:
    """The fields the turn could be written in instead, per column: every field free before it
    (the rules' `correction_choices`), a field a later turn wrote shown but not offered."""
    variant = view.table.variant
    choices = rules.correction_choices(
        variant, len(view.seats), view.options, view.state.turns, turn.seq - 1
    )
    groups = []
    for column, multiplier in enumerate(variant.multipliers):
        options = []
        for choice in choices:
            if choice.column != column or choice.reason_code is rules.Code.NOT_NEXT_IN_ORDER:
                continue  # Gra po kolei: a turn keeps its place in the order
            text = cell_name(variant, choice.field, column)
            if choice.later is not None:
                text = _("%(field)s – zajęte w ruchu %(seq)d", field=text, seq=choice.later + 1)
            elif choice.current:
                text = _("%(field)s (teraz)", field=text)
            value = where_value(column, choice.field)
            options.append(FieldOption(value, text, not choice.allowed, choice.current))
        label = _("Kolumna ×%(multiplier)d", multiplier=multiplier) if variant.columns > 1 else None
        groups.append(FieldGroup(label, tuple(options)))
    return groups


def move_text(view: GameView, turn: TurnRow) -> str:
    """A turn without its player's name: "Ful 25 (2-2-3-3-3)", "Ful 5-5-5-2-2" in poker."""
    if view.is_poker:
        hand = rules.classify(turn.dice_tuple)
        return f"{rules_text(hand.hand.label)} {hand.shown}"
    where = cell_name(view.table.variant, turn.field or "", turn.column or 0)
    points = points_text(turn.points, turn.extra_bonus)
    return f"{where} {points} ({rules.format_dice(turn.dice_tuple)})"


def heading(view: GameView, seq: int) -> str:
    """The page's title: a turn is "ruch" at a table, "układ" in dice poker (as its screens
    say)."""
    if view.is_poker:
        return _("Popraw układ %(seq)d", seq=seq)
    return _("Popraw ruch %(seq)d", seq=seq)


def corrected_message(done: corrections.Corrected) -> str:
    view, before, after = done.view, done.before, done.after
    values = {
        "seq": after.seq,
        "name": view.seats[after.seat].player.name,
        "was": move_text(view, before),
        "now": move_text(view, after),
    }
    if view.is_poker:
        text = _("Poprawiono układ %(seq)d: %(name)s – %(was)s → %(now)s.", **values)
    else:
        text = _("Poprawiono ruch %(seq)d: %(name)s – %(was)s → %(now)s.", **values)
    if done.rescored:
        changes = []
        for change in done.rescored:
            turn = change.turn
            who = view.seats[turn.seat].player.name
            was = points_text(change.before_points, change.before_extra_bonus)
            now = points_text(turn.points, turn.extra_bonus)
            where = cell_name(view.table.variant, turn.field or "", turn.column or 0)
            changes.append(
                _(
                    "ruch %(seq)d (%(name)s – %(field)s): %(was)s → %(now)s",
                    seq=turn.seq,
                    name=who,
                    field=where,
                    was=was,
                    now=now,
                )
            )
        text += " " + _("Zmieniły się też punkty: %(changes)s.", changes="; ".join(changes))
    return text


def _render(
    view: GameView,
    turn: TurnRow,
    *,
    dice_text: str | None = None,
    where: str | None = None,
    errors: dict[str, str] | None = None,
    question: str | None = None,
) -> str:
    errors = errors or {}
    context: dict[str, Any] = {
        "question": question,
        "view": view,
        "turn": turn,
        "heading": heading(view, turn.seq),
        "name": view.seats[turn.seat].player.name,
        "was": move_text(view, turn),
        "round": (turn.seq - 1) // len(view.seats) + 1,
        "dice_text": turn.dice if dice_text is None else dice_text,
        "where": where_value(turn.column, turn.field) if where is None else where,
        "groups": [] if view.is_poker else field_groups(view, turn),
        "dice_error": errors.get("dice"),
        "field_error": errors.get("field"),
        "form_error": errors.get("form"),
    }
    # What „Tak, wpisz 0” confirms: the dice and the field the question is about.
    context["asked"] = asked_about(context["dice_text"], context["where"]) if question else None
    return render_template("games/correct.html", **context)


def correction_marks(log: list[tuple[TurnRow, object]]) -> tuple[set[int], set[int]]:
    """For the turn log (`turn_log` in games/_partials.html): the ids of the turns corrected,
    and of the corrections."""
    return corrections.corrected_turn_ids([turn for turn, _ in log])


bp.add_app_template_global(correction_marks, "correction_marks")


@bp.get("/gry/<int:game_id>/ruchy/<int:seq>/popraw")
def correct(game_id: int, seq: int) -> ResponseReturnValue:
    view = _load(game_id)
    return _render(view, _turn(view, seq))


@bp.post("/gry/<int:game_id>/ruchy/<int:seq>/popraw")
def write_correction(game_id: int, seq: int) -> ResponseReturnValue:
    form = CorrectionForm()
    form.validate_on_submit()  # CSRF is checked for every POST before any view runs
    dice_text = (form.dice.data or "").strip()
    where = (form.where.data or "").strip()
    expected = whole_number(form.seq.data)
    # A page from before the form carried the version sends none: it is not refused for that.
    version = whole_number(form.version.data) if form.version.data else None
    if expected is None or (form.version.data and version is None):
        abort(400, _("Formularz poprawki jest niepełny. Odśwież stronę i spróbuj jeszcze raz."))
    column_text, _sep, field = where.partition(":")
    column = whole_number(column_text)
    # Confirmed only for the dice and field the question was about: changed since, asked again.
    confirmed = form.confirm.data == "1" and form.asked.data == asked_about(dice_text, where)
    try:
        done = corrections.correct_turn(
            account_id(),
            game_id,
            seq,
            dice_text,
            field or None,
            column,
            expected_seq=expected,
            expected_version=version,
            confirm_zero=confirmed,
        )
    except NotFound as exc:
        abort(404, exc.message)
    except NeedsConfirmation as asked:
        # The game as stored, read again: the question's view was read under the write lock,
        # which raised the version that the rollback took back (the page sends it again).
        view = _load(game_id)
        question = zero_question_text(view.table.variant, asked.chosen, asked.best)
        turn = _turn(view, seq)
        return _render(view, turn, dice_text=dice_text, where=where, question=question), 200
    except ServiceError as exc:
        return _refused(game_id, seq, exc, dice_text, where)
    flash(corrected_message(done), "success")
    return redirect(url_for("games.play", game_id=game_id), code=303)


def asked_about(dice_text: str, where: str) -> str:
    """What a „Tak, wpisz 0” confirms: the dice and the field, as the form sent them."""
    return f"{dice_text}|{where}"


def _refused(
    game_id: int, seq: int, exc: ServiceError, dice_text: str, where: str
) -> ResponseReturnValue:
    """The form again, as typed, with the reason next to the dice or the field; a game changed
    on another phone is shown as it is now, the reason above the form."""
    view = _load(game_id)
    try:
        turn = corrections.turn_to_correct(view, seq)
    except NotFound:
        flash(exc.message, "error")
        return redirect(url_for("games.sheet", game_id=game_id), code=303)
    if exc.field == "dice":
        errors = {"dice": exc.message}
    elif exc.field in ("field", "column") and not view.is_poker:
        errors = {"field": exc.message}
    else:
        errors = {"form": exc.message}
    status = exc.status if isinstance(exc, Conflict) else 400
    return _render(view, turn, dice_text=dice_text, where=where, errors=errors), status
