"""The history list: views parse the filter, call `services.history`, render.

Each game links to its full sheet and turn log (`games.sheet`, `/gry/<id>/tabela`): the one page
that shows a game's paper sheet (or a poker match's rounds) and every turn written, corrections
included. Another account's game there is a 404, as everywhere.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from ..i18n import _
from ..services import history, players
from ..services.filters import GameFilter
from ..web import account_id, describe_filter, local_zone, signed_in_only
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
    ), 200 if filters is not None else 400
