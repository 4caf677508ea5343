"""The players page: rename a player, delete one without games, merge two into one.

On the games blueprint (`bp`), imported by the package so that its routes exist. Another
account's player is a 404, as the players service raises it.
"""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from ..forms import EmptyForm, add_error
from ..i18n import _
from ..models import Player
from ..services import NotFound, ServiceError, players
from ..web import UNDO_MERGE, account_id
from .forms import MergeForm, RenameForm
from .views import bp

CHOOSE = ""  # the merge form's "choose a player" option


def _player(player_id: int) -> Player:
    try:
        return players.get_player(account_id(), player_id)
    except NotFound as exc:
        abort(404, exc.message)


def _to_players(anchor: int | None = None) -> Response:
    return redirect(
        url_for("games.players_page", _anchor=f"p{anchor}" if anchor else None), code=303
    )


@bp.get("/gracze")
def players_page() -> ResponseReturnValue:
    return _render_players()


@bp.post("/gracze/<int:player_id>")
def rename_player(player_id: int) -> ResponseReturnValue:
    player = _player(player_id)
    form = RenameForm(prefix=f"p{player.id}")
    old_name = player.name
    if form.validate_on_submit():
        try:
            players.rename_player(account_id(), player.id, form.name.data or "")
        except NotFound as exc:
            abort(404, exc.message)
        except ServiceError as exc:
            add_error(form.name, exc.message)
        else:
            if player.name != old_name:
                flash(
                    _(
                        "Zmieniono imię: %(old)s → %(new)s. Wyniki zostają.",
                        old=old_name,
                        new=player.name,
                    ),
                    "success",
                )
            return _to_players(player.id)
    return _render_players(player_id, form), 400


def _render_players(failed_id: int | None = None, failed: RenameForm | None = None) -> str:
    rows = []
    for row in players.list_players_with_games(account_id()):
        player = row.player
        if player.id == failed_id and failed is not None:
            form = failed
        else:
            form = RenameForm(prefix=f"p{player.id}", formdata=None, data={"name": player.name})
        rows.append((row, form))
    return render_template(
        "games/players.html",
        rows=rows,
        merges=players.recent_merges(account_id()),
        undo_days=players.MERGE_UNDO_DAYS,
        form=EmptyForm(),
    )


@bp.post("/gracze/polaczenia/<int:merge_id>/cofnij")
def undo_merge(merge_id: int) -> ResponseReturnValue:
    """Take a merge apart again („Cofnij połączenie”): beside the merge's message, and in the
    players page's list of recent merges."""
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        back, remains = players.undo_merge(account_id(), merge_id)
    except NotFound as exc:
        abort(404, exc.message)
    except ServiceError as exc:
        # Undone already (another phone was quicker): what was asked for is done, not an error.
        flash(exc.message, "info" if exc.code == players.MERGE_UNDONE else "error")
        return _to_players()
    flash(
        _(
            "Cofnięto połączenie: %(name)s znów jest osobnym graczem, a %(other)s ma swoje gry "
            "jak przedtem.",
            name=back.name,
            other=remains.name,
        ),
        "success",
    )
    # The top of the page, where the message is: the „Cofnij” tapped may be far below it.
    return _to_players()


@bp.route("/gracze/<int:player_id>/usun", methods=["GET", "POST"])
def delete_player(player_id: int) -> ResponseReturnValue:
    """Asks first (GET), deletes on the form's POST; a player with games is refused."""
    player = _player(player_id)
    form = EmptyForm()
    error = None
    status = 400 if form.is_submitted() else 200
    if form.validate_on_submit():
        try:
            name = players.delete_player(account_id(), player.id)
        except NotFound as exc:
            abort(404, exc.message)
        except ServiceError as exc:
            error, status = exc.message, exc.status
        else:
            flash(_("Usunięto gracza %(name)s.", name=name), "info")
            return _to_players()
    games = players.games_of(player.id)
    return render_template(
        "games/player_delete.html", player=player, games=games, form=form, error=error
    ), status


@bp.route("/gracze/<int:player_id>/polacz", methods=["GET", "POST"])
def merge_player(player_id: int) -> ResponseReturnValue:
    """Merge this player into another one chosen from the list (GET: the choice and what
    merging does; POST: merge)."""
    player = _player(player_id)
    others = [p for p in players.list_players(account_id()) if p.id != player.id]
    form = MergeForm()
    form.target.choices = [
        (CHOOSE, _("– wybierz gracza –")),
        *((str(p.id), p.name) for p in others),
    ]
    status = 400 if form.is_submitted() else 200
    if form.validate_on_submit():
        target_id = next((p.id for p in others if str(p.id) == form.target.data), None)
        if target_id is None:
            add_error(form.target, _("Wybierz z listy gracza, z którym łączysz."))
        else:
            name = player.name  # the player is gone after the merge
            try:
                merged = players.merge_players(account_id(), player.id, target_id)
            except NotFound as exc:
                abort(404, exc.message)
            except ServiceError as exc:
                add_error(form.target, exc.message)
                status = exc.status
            else:
                flash(
                    _(
                        "Połączono: %(name)s i %(target)s to teraz jeden gracz, %(target)s. "
                        "Przeniesione gry: %(moved)d.",
                        name=name,
                        target=merged.target.name,
                        moved=merged.moved,
                    ),
                    "success",
                )
                flash(str(merged.merge_id), UNDO_MERGE)  # base.html offers „Cofnij” for it
                return _to_players(merged.target.id)
    games = players.games_of(player.id)
    return render_template(
        "games/player_merge.html",
        player=player,
        games=games,
        others=others,
        form=form,
        undo_days=players.MERGE_UNDO_DAYS,
    ), status
