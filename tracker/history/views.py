"""The history list: views parse the filter, call `services.history`, render.

Each game links to its full sheet and turn log (`games.sheet`, `/gry/<id>/tabela`): the one page
that shows a game's paper sheet (or a poker match's rounds) and every turn written, corrections
included. Another account's game there is a 404, as everywhere.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from flask import Blueprint, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required

from ..games.views import DEFAULT_TIMEZONE
from ..services import history, players
from .forms import HistoryFilterForm

bp = Blueprint("history", __name__)


def plural(count: int, one: str, few: str, many: str) -> str:
    """The Polish form of a noun after a number: 1 gra, 2 gry, 5 gier, 22 gry, 12 gier."""
    if count == 1:
        return one
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return few
    return many


def _page_number(text: str | None) -> int:
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 7 else 1


@bp.get("/historia")
@login_required
def index() -> ResponseReturnValue:
    account_id = int(current_user.id)
    known = [(p.id, p.name) for p in players.list_players(account_id)]
    form = HistoryFilterForm(request.args, known)
    zone = ZoneInfo(current_app.config.get("KOSCI_TIMEZONE", DEFAULT_TIMEZONE))
    filters = form.to_filters(zone)
    found = None
    if filters is not None:
        found = history.search(account_id, filters, _page_number(request.args.get("strona")))
    return render_template(
        "history/index.html",
        form=form,
        found=found,
        query=form.query(),
        plural=plural,
    ), 200 if filters is not None else 400
