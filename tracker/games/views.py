"""Playing a table game: views parse input, call a service, then redirect or re-render.

Every page belongs to the signed-in account; another account's game or player is a 404, as the
services raise it. Every action is a plain form (POST/Redirect/GET); turn.js only saves reloads.
A dice-poker match has the same URLs; its screens are built in `poker.py`.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.exceptions import HTTPException
from werkzeug.exceptions import NotFound as HTTPNotFound
from werkzeug.wrappers import Response

from .. import rules
from ..errors import render_error
from ..forms import EmptyForm, add_error
from ..guests import rematch_to_follow
from ..guests import watching as guest_watching
from ..i18n import _
from ..rules import VARIANT_NAMES, next_in_order
from ..rules_text import rules_text
from ..services import Conflict, NotFound, ServiceError, games, players, trash
from ..services.games import GameView, NeedsConfirmation, Overtaken
from ..services.inputs import whole_number
from ..services.transfer import bgstats
from ..store.rows import TurnRow
from ..web import (
    UNDO_DELETE,
    account_id,
    and_list,
    is_page_request,
    local_zone,
    prefers_minimal,
    signed_in_only,
    to_restored_game,
)
from ..web import when as format_when
from . import poker, watch
from .forms import (
    BONUS_THRESHOLDS,
    MAX_PLAYERS,
    TARGET_WINS,
    NewGameForm,
    SeqForm,
    TurnForm,
)
from .turn import (
    column_statuses,
    extra_generals,
    full_sheet,
    last_turn_text,
    pencil_marks,
    sheet_grid,
    turn_hint,
    turn_text,
    zero_question_text,
)

bp = Blueprint("games", __name__)

FIELDS_FRAGMENT = "fields"  # ?fragment=fields: only the pencil marks, for turn.js
signed_in_only(bp)


def _load(game_id: int) -> GameView:
    try:
        view = games.load(account_id(), game_id)
    except NotFound as exc:
        abort(404, exc.message)
    # Every game screen follows the game (static/js/live.js polls `state`; base.html).
    g.live_game = {
        "url": url_for("games.state", game_id=game_id),
        "etag": _etag(view),
    }
    return view


@bp.errorhandler(404)
def _not_found(error: HTTPException) -> ResponseReturnValue:
    """A 404 of a game's page or form: for a game this account deleted, said so, or for one
    restored meanwhile, the page of the game it is now (`_deleted_or_restored`); any other
    404 as everywhere."""
    game_id = (request.view_args or {}).get("game_id")
    if isinstance(game_id, int) and current_user.is_authenticated:
        said = _deleted_or_restored(game_id)
        if isinstance(said, Response):
            return said
        if said is not None:
            return render_error(HTTPNotFound(said), title=_("Tej gry tu już nie ma"))
    return render_error(error)


def _deleted_or_restored(game_id: int) -> Response | str | None:
    """The old address of a game this account deleted (`trash.gone`), on a phone that still
    shows it: restored meanwhile, a page (not a background redraw, not a write) opens the game
    it is now; else what the 404 says happened. None for a game the account never deleted."""
    gone = trash.gone(account_id(), game_id)
    if gone is None:
        return None
    if gone.restored_as is not None:
        if is_page_request():
            return to_restored_game(gone.restored_as)
        return _("Tę grę przywrócono z kosza jako nową grę: otwórz ją ze strony głównej.")
    when = format_when(gone.deleted_at)
    if gone.in_trash:
        return _(
            "Tę grę usunięto (%(when)s). Leży w koszu: Historia → Kosz, skąd można ją przywrócić.",
            when=when,
        )
    return _("Tę grę usunięto (%(when)s).", when=when)


def _etag(view: GameView) -> str:
    return view.game.stamp


@bp.get("/gry/<int:game_id>/stan")
def state(game_id: int) -> ResponseReturnValue:
    """What a phone on a game's screen polls (static/js/live.js): 304 while nothing was written
    (one indexed read, `If-None-Match`), else the version, whose turn it is and the last turn
    as the table says it."""
    try:
        etag = games.stamp(account_id(), game_id)
    except NotFound as exc:
        abort(404, exc.message)
    if request.if_none_match.contains_weak(etag):  # weak comparison (RFC 9110, 13.1.2)
        response = Response(status=304)
    else:
        view = _load(game_id)
        etag = _etag(view)
        response = jsonify(
            version=view.game.version,
            next_seq=view.next_seq,
            finished=view.finished,
            current_player=view.current_name,
            last=_last_text(view),
        )
    response.set_etag(etag)
    return response


def _last_text(view: GameView) -> str | None:
    if not view.turns:
        return None
    if view.is_poker:
        return str(poker.hand_text(view, view.turns[-1]))
    return last_turn_text(view)


def _as_int(text: str | None) -> int | None:
    """A number from a form or the query; None when it is none the database could hold."""
    return whole_number(text)


def _to_game(game_id: int, dice: str | None = None, seq: int | None = None) -> Response:
    """Back to the turn screen (303 after a POST); with dice, pencilled in for turn `seq`."""
    return redirect(
        url_for("games.play", game_id=game_id, dice=dice or None, seq=seq if dice else None),
        code=303,
    )


# --- a new game --------------------------------------------------------------------------


@bp.route("/gry/nowa", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    form = NewGameForm()
    status = 200
    if request.method == "GET":
        rows = _as_int(request.args.get("gracze"))
        while rows and len(form.players.entries) < min(rows, MAX_PLAYERS):
            form.add_row()
    elif "add" in request.form:  # "Dodaj gracza" without JavaScript: one more row, nothing lost
        form.add_row()
    elif form.validate_on_submit():
        try:
            started = games.create_game(
                account_id(),
                form.variant.data,
                form.names,
                form.options,
                shuffle=bool(form.shuffle.data),
                hints=form.hints_chosen,
            )
        except ServiceError as exc:
            if exc.field == "variant":
                add_error(form.variant, exc.message)
            elif exc.field == "options":
                options_field = form.target_wins if form.is_poker else form.bonus_threshold
                add_error(options_field, exc.message)
            else:
                form.players_error = exc.message
        else:
            if form.shuffle.data and len(started.seats) > 1:
                order = and_list([s.player.name for s in started.seats])
                flash(_("Wylosowana kolejność: %(order)s.", order=order), "info")
            return _to_game(started.id)
        status = 400
    else:
        status = 400
    return render_template(
        "games/new.html",
        form=form,
        variant_names=VARIANT_NAMES,
        known_players=[p.name for p in players.list_players(account_id())],
        max_players=MAX_PLAYERS,
        bonus_thresholds=BONUS_THRESHOLDS,
        target_wins=TARGET_WINS,
    ), status


# --- the turn screen ---------------------------------------------------------------------


@bp.get("/gry/<int:game_id>")
def play(game_id: int) -> ResponseReturnValue:
    view = _load(game_id)
    if guest_watching() and not view.finished:  # a „watch” invitation: no dice pad (guests.py)
        return watch.render(view)
    fragment = request.args.get("fragment") == FIELDS_FRAGMENT
    dice_text = request.args.get("dice", "").strip()
    # Dice travel with the turn number they were rolled for: dice from an older page (the back
    # button, a phone that slept while another wrote) never pencil in the next player's turn.
    seq = _as_int(request.args.get("seq"))
    stale = seq is not None and seq != view.next_seq
    if fragment and (stale or view.finished):
        # Another phone wrote meanwhile: say what, and keep the dice (turn.js goes to the
        # game as the answer's Content-Location says, with them). Dice that are the very roll
        # written at their turn (this phone's write, its answer lost) stand written instead.
        assert seq is not None or view.finished
        kept = None
        # `sent`: the dice of a write this phone sent for that turn and never heard back from
        # (turn.js); its dice on screen may have been changed since.
        sent = request.args.get("sent", "")
        if seq is not None and any(games.written_with(view, seq, d) for d in (dice_text, sent)):
            _say_stands_written(view, seq)
        else:
            written = view.turns[seq - 1 :] if seq is not None else []
            taken_back = seq is not None and games.taken_back_since(view, seq)
            flash(overtaken_text(view, written, taken_back=taken_back), "error")
            kept = None if view.finished else dice_text
        location = url_for(
            "games.play", game_id=game_id, dice=kept or None, seq=view.next_seq if kept else None
        )
        return "", 409, {"Content-Location": location}
    if view.is_poker:
        return poker.render_match(view, "" if stale else dice_text, fragment=fragment)
    if view.finished:
        return _render_finished(view)
    return _render_turn(view, "" if stale else dice_text, fragment=fragment)


def _render_turn(
    view: GameView,
    dice_text: str,
    *,
    fragment: bool = False,
    dice_error: str | None = None,
    field_error: str | None = None,
    field_error_code: str | None = None,
    confirm: dict[str, Any] | None = None,
) -> str:
    dice = None
    if dice_text and dice_error is None:
        try:
            dice = rules.parse_dice(dice_text)
        except rules.RulesError as exc:
            dice_error = rules_text(exc)
    marks = pencil_marks(view.table.evaluate(dice)) if dice else None
    seat = view.current_seat
    assert seat is not None
    seat_sheet = view.table.sheets[seat]
    variant = view.table.variant
    many = variant.columns > 1
    context = {
        "view": view,
        "seat": seat,
        "dice_text": dice_text,
        "dice": "".join(map(str, dice)) if dice else "",
        "dice_error": dice_error,
        "marks": marks,
        "grid": sheet_grid(variant, seat_sheet, marks) if marks and many else None,
        "field_error": field_error,
        # The refusal is the reason every other field is closed too: said once, as the error.
        "shared_reason_said": bool(
            marks and marks.shared_code and str(marks.shared_code) == field_error_code
        ),
        "confirm": confirm,
        "hint": turn_hint(view, seat, dice) if marks else None,  # None without the option
    }
    if fragment:
        return render_template("games/_fields.html", **context)
    return render_template(
        "games/play.html",
        **context,
        statuses=column_statuses(view, seat),
        generals=extra_generals(view, seat),
        last_turn=last_turn_text(view),
        free_fields=[f for f in variant.table.fields if not seat_sheet[0].is_filled(f.id)],
        next_field=next_in_order(variant, seat_sheet[0]),  # Gra po kolei: no choice
        plain_grid=sheet_grid(variant, seat_sheet) if many else None,
    )


def _render_finished(view: GameView) -> str:
    scores = view.table.scores
    places = view.table.places
    ranking = sorted(range(len(view.seats)), key=lambda seat: (places[seat], seat))
    return render_template(
        "games/finished.html",
        view=view,
        paper=full_sheet(view),
        ranking=[(places[s], view.seats[s].player.name, scores[s]) for s in ranking],
        winners=and_list(view.winners),
        last_turn=last_turn_text(view),
        bgstats_link=bgstats.view_link(view, timezone=local_zone().key),
        rematch_id=rematch_to_follow(view.id),  # a guest phone follows the family's „Rewanż”
    )


@bp.post("/gry/<int:game_id>/ruch")
def write(game_id: int) -> ResponseReturnValue:
    """Write a turn: one load and one parse, in the service; the game is read again only to
    answer an error."""
    form = TurnForm()
    form.validate_on_submit()  # CSRF is checked for every POST before any view runs
    seq = _as_int(form.seq.data)
    column = _as_int(form.column.data or "0")
    field = (form.field.data or "").strip() or None
    dice_text = (form.dice.data or "").strip()
    if seq is None or column is None:
        _check_turn_form(game_id, (form.seq.data or "").strip(), field, seq, column)
    assert seq is not None
    try:
        after = games.record_turn(
            account_id(),
            game_id,
            dice_text,
            field,
            None if field is None else column,
            expected_seq=seq,
            confirm_zero=form.confirm.data == "1",
        )
    except NeedsConfirmation as ask:
        confirm = {
            "question": zero_question_text(ask.view.table.variant, ask.chosen, ask.best),
            "field": ask.chosen.field,
            "column": ask.chosen.column,
        }
        return _render_turn(ask.view, dice_text, confirm=confirm)
    except NotFound as exc:
        abort(404, exc.message)
    except ServiceError as exc:
        return _turn_refused(game_id, exc, dice_text, field)
    if after.is_poker:
        answer = poker.written(after)
    else:
        _say_written(after)
        answer = _to_game(game_id)
    if prefers_minimal():
        # turn.js: what changed, and where the screen is now (the message waits there).
        return jsonify(
            version=after.game.version, next_seq=after.next_seq, url=answer.location
        ), 201
    return answer


def _say_written(after: GameView) -> None:
    """The flash for the turn just written, the last of `after`."""
    if after.is_poker:
        poker.say_written(after)
    else:
        # "written": the game's screen puts the undo of this turn next to the message.
        flash(_("Zapisano: %(turn)s", turn=last_turn_text(after)), "written")


def _say_stands_written(view: GameView, seq: int) -> None:
    """A phone's dice for turn `seq` are the roll that turn holds (`games.written_with`): said
    as a write is; with the turns written after it on other phones, when there are any."""
    later = view.turns[seq:]
    if not later:
        _say_written(view)
        return
    turn = _turn_words(view, view.turns[seq - 1])
    done = "; ".join(_turn_words(view, t) for t in later)
    if view.finished:
        flash(
            _(
                "Te kości są już zapisane: %(turn)s. Potem na innym telefonie zapisano: "
                "%(turns)s. Gra jest zakończona.",
                turn=turn,
                turns=done,
            ),
            "info",
        )
        return
    flash(
        _(
            "Te kości są już zapisane: %(turn)s. Potem na innym telefonie zapisano: %(turns)s. "
            "Teraz kolej: %(name)s.",
            turn=turn,
            turns=done,
            name=view.current_name,
        ),
        "info",
    )


def _turn_words(view: GameView, turn: TurnRow) -> str:
    """A turn or a poker hand as the flashes say it: "Ala – Ful 25"."""
    return str(poker.hand_text(view, turn)) if view.is_poker else turn_text(view, turn)


def overtaken_text(
    view: GameView, written: list[TurnRow], *, taken_back: bool = False, dice_kept: bool = True
) -> str:
    """What another phone wrote meanwhile, said so that the table can check it: "Na innym
    telefonie zapisano już: Ola – Ful 25. Teraz kolej: Ala. Twoje kości zostały…"; or, with
    `taken_back`, that it took back the turn these dice were for."""
    if taken_back:  # `games.taken_back_since`
        said = _("Na innym telefonie cofnięto ruch. Teraz kolej: %(name)s.", name=view.current_name)
        return f"{said} {_check_kept_dice(view)}"
    if not written:
        return _(games.ALREADY_WRITTEN)
    done = "; ".join(_turn_words(view, turn) for turn in written)
    if view.finished:
        return _("Na innym telefonie zapisano już: %(turns)s. Gra jest zakończona.", turns=done)
    said = _(
        "Na innym telefonie zapisano już: %(turns)s. Teraz kolej: %(name)s.",
        turns=done,
        name=view.current_name,
    )
    return f"{said} {_check_kept_dice(view)}" if dice_kept else said


def _check_kept_dice(view: GameView) -> str:
    """The end of a message that leaves the typed dice on a screen whose player changed."""
    if view.is_poker:  # a hand is written as it is, to no field
        return _("Twoje kości zostały – sprawdź, czy są tego gracza, zanim zapiszesz układ.")
    return _("Twoje kości zostały – sprawdź, czy są tego gracza, zanim wybierzesz pole.")


def _check_turn_form(
    game_id: int, seq_text: str, field: str | None, seq: int | None, column: int | None
) -> None:
    """Hidden fields a phone fills itself: a missing or malformed one is a bad request, said in
    the words of the game's own form. (A poker hand has no field and ignores the column.)"""
    if _load(game_id).is_poker:
        if seq is None:
            abort(
                400, _("Formularz układu jest niepełny. Odśwież stronę i wpisz kości jeszcze raz.")
            )
        return
    if not seq_text or field is None:
        abort(400, _("Formularz ruchu jest niepełny. Odśwież stronę i wybierz pole jeszcze raz."))
    if seq is None:
        abort(
            400, _("Numer ruchu w formularzu jest nieprawidłowy. Odśwież stronę i spróbuj znowu.")
        )
    if column is None:
        abort(400, _("Nie ma takiej kolumny w tabeli. Odśwież stronę i wybierz pole jeszcze raz."))


def _turn_refused(
    game_id: int, exc: ServiceError, dice_text: str, field: str | None
) -> ResponseReturnValue:
    """The service refused the turn: show it next to the dice or the field, or show the game
    as it is now (a stale phone: what was written meanwhile, with the typed dice kept)."""
    if isinstance(exc, Overtaken):
        # Dice that are the roll already written at their turn, in another field, are not
        # carried to the next player's turn (`games.written_with`).
        kept = not exc.view.finished and not games.written_with(exc.view, exc.seq, dice_text)
        flash(
            overtaken_text(exc.view, exc.written, taken_back=exc.taken_back, dice_kept=kept),
            "error",
        )
        return _to_game(game_id, dice=dice_text if kept else None, seq=exc.view.next_seq)
    view = _load(game_id)
    if view.is_poker:
        if field is not None:
            abort(400, _("W pokerze kościanym zapisuje się tylko kości, bez pola tabeli."))
        if exc.field == "dice":
            return poker.render_match(view, dice_text, dice_error=exc.message), exc.status
    elif field is None:
        abort(400, _("Formularz ruchu jest niepełny. Odśwież stronę i wybierz pole jeszcze raz."))
    elif exc.field in ("dice", "field", "column") and not view.finished:
        if exc.field == "dice":
            return _render_turn(view, dice_text, dice_error=exc.message), exc.status
        return _render_turn(
            view, dice_text, field_error=exc.message, field_error_code=exc.code
        ), exc.status
    flash(exc.message, "error")  # a stale phone or a finished game: show it as it is now
    return _to_game(game_id)


@bp.post("/gry/<int:game_id>/cofnij")
def undo(game_id: int) -> ResponseReturnValue:
    form = SeqForm()
    form.validate_on_submit()
    seq = _as_int(form.seq.data)
    if not (form.seq.data or "").strip():
        abort(400, _("Formularz cofania jest niepełny. Odśwież stronę i spróbuj jeszcze raz."))
    if seq is None:
        abort(
            400, _("Numer ruchu w formularzu jest nieprawidłowy. Odśwież stronę i spróbuj znowu.")
        )
    before = _load(game_id)
    try:
        after = games.undo_last_turn(account_id(), game_id, expected_seq=seq)
    except NotFound as exc:
        abort(404, exc.message)
    except Conflict as exc:
        flash(exc.message, "error")
        return _to_game(game_id)
    undone = before.turns[-1]
    if before.is_poker:
        flash(poker.undo_message(before, after), "info")
    else:
        said = _(
            "Cofnięto: %(turn)s. Znów kolej: %(name)s.",
            turn=last_turn_text(before),
            name=after.current_name,
        )
        if before.table.variant.fixed_order:  # one field a turn: the roll goes back to it
            kept = _("Kości zostały – dotknij kości, aby je zmienić.")
        else:
            kept = _("Kości zostały – wybierz właściwe pole albo dotknij kości, aby je zmienić.")
        flash(f"{said} {kept}", "info")
    return _to_game(game_id, dice=undone.dice, seq=after.next_seq)


# --- the full sheet, the end, deleting, the rematch --------------------------------------


@bp.get("/gry/<int:game_id>/tabela")
def sheet(game_id: int) -> ResponseReturnValue:
    view = _load(game_id)
    if view.is_poker:
        return poker.render_history(view)
    return render_template(
        "games/sheet.html",
        view=view,
        paper=full_sheet(view),
        log=[(turn, turn_text(view, turn)) for turn in reversed(view.log)],
        last_turn=last_turn_text(view),
    )


@bp.route("/gry/<int:game_id>/usun", methods=["GET", "POST"])
def delete(game_id: int) -> ResponseReturnValue:
    view = _load(game_id)
    variant_name = rules_text(VARIANT_NAMES[view.game.variant])
    form = EmptyForm()
    if form.validate_on_submit():
        try:
            entry_id = trash.delete_game(account_id(), game_id)
        except NotFound as exc:
            abort(404, exc.message)
        flash(
            _(
                "Usunięto grę: %(variant)s (%(names)s). Leży w koszu %(days)d dni.",
                variant=variant_name,
                names=and_list(view.names),
                days=trash.KEEP_DAYS,
            ),
            "info",
        )
        flash(str(entry_id), UNDO_DELETE)  # base.html offers „Cofnij” for it
        return redirect(url_for("main.home"), code=303)
    return render_template(
        "games/delete.html",
        view=view,
        form=form,
        variant_name=variant_name,
        days=trash.KEEP_DAYS,
    )


@bp.post("/gry/<int:game_id>/rewanz")
def rematch(game_id: int) -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        rematch_view = games.rematch(account_id(), game_id)
    except NotFound as exc:
        abort(404, exc.message)
    except Conflict as exc:
        flash(exc.message, "error")
        return _to_game(game_id)
    flash(_("Rewanż! Zaczyna %(name)s.", name=rematch_view.seats[0].player.name), "success")
    return _to_game(rematch_view.id)
