"""The history list: views parse the filter, call `services.history`, render.

Each game links to its full sheet and turn log (`games.sheet`, `/gry/<id>/tabela`): the one page
that shows a game's paper sheet (or a poker match's rounds) and every turn written, corrections
included. Another account's game there is a 404, as everywhere.

The trash („Kosz”, `services.trash`) lists the games deleted in the last days, each with
„Przywróć”; deleting a game offers the same as „Cofnij” on the page it leads to.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ..forms import EmptyForm
from ..i18n import _
from ..rules import VARIANT_NAMES
from ..rules_text import rules_text
from ..services import history, players, trash
from ..services.errors import Conflict, NotFound
from ..services.filters import GameFilter
from ..web import account_id, and_list, describe_filter, local_zone, signed_in_only
from .forms import HistoryFilterForm

bp = Blueprint("history", __name__)
signed_in_only(bp)


def _page_number(text: str | None) -> int:
    """The page asked for; past the last one is the last (the search clamps it), however many
    digits it has; anything else is the first."""
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit()):
        return 1
    return int(text) if len(text) < 7 else 10**6


def _filter_text(form: HistoryFilterForm, f: GameFilter | None, names: dict[int, str]) -> str:
    """The filter in words, as the statistics say theirs, with whether the games are over."""
    if f is None:
        return ""
    finished = form.finished()
    state = "" if finished is None else _("zakończone") if finished else _("w toku")
    return " · ".join(part for part in (describe_filter(f, names), state) if part)


@bp.get("/historia")
def index() -> ResponseReturnValue:
    account = account_id()
    known = [(p.id, p.name) for p in players.list_players(account)]
    form = HistoryFilterForm(request.args, known)
    filters = form.to_filter(local_zone())
    found = None
    query = form.query()
    place = dict(query)  # each game's link carries it, so the game leads back here
    if filters is not None:
        found = history.search(
            account, filters, _page_number(request.args.get("strona")), finished=form.finished()
        )
        if found.page > 1:
            place = {"strona": str(found.page), **query}
    return render_template(
        "history/index.html",
        form=form,
        filter_text=_filter_text(form, filters, dict(known)),
        found=found,
        query=query,
        place=place,
        in_trash=trash.count(account),
    ), 200 if filters is not None else 400


@bp.get("/historia/kosz")
def trash_page() -> ResponseReturnValue:
    return render_template(
        "history/trash.html",
        entries=trash.entries(account_id()),
        days=trash.KEEP_DAYS,
        form=EmptyForm(),
        variant_names=VARIANT_NAMES,
    )


@bp.post("/historia/kosz/<int:entry_id>/przywroc")
def restore(entry_id: int) -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        done = trash.restore(account_id(), entry_id)
    except NotFound as exc:
        abort(404, exc.message)
    except trash.AlreadyRestored as exc:
        flash(exc.message, "info")
        if exc.game_id is None:
            return redirect(url_for("history.trash_page"), code=303)
        return redirect(url_for("games.play", game_id=exc.game_id), code=303)
    except Conflict as exc:
        flash(exc.message, "error")
        return redirect(url_for("history.trash_page"), code=303)
    game = _(
        "%(variant)s (%(names)s)",
        variant=rules_text(VARIANT_NAMES[done.variant]),
        names=and_list(done.names),
    )
    if done.was_there:
        flash(_("Ta gra już jest na koncie: %(game)s.", game=game), "info")
    else:
        flash(_("Przywrócono grę: %(game)s.", game=game), "success")
    return redirect(url_for("games.play", game_id=done.game_id), code=303)
