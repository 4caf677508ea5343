"""The statistics pages: parse the GET filter, ask `tracker.services.stats`, render.

Both pages belong to the signed-in account; another account's player is a 404. A filter the
service refuses (a malformed day, an unknown variant, an end before the start) re-renders the
form with the message next to its field and status 400.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue

from ..i18n import _
from ..rules import TABLE_VARIANTS, VARIANT_NAMES
from ..services import NotFound, players, stats
from ..services.filters import VARIANT, GameFilter, InvalidFilter, read_filter
from ..services.inputs import whole_number
from ..web import (
    UNKNOWN_VARIANT_CHOICE,
    account_id,
    describe_filter,
    local_zone,
    signed_in_only,
)
from .charts import decimal, percent, signed
from .forms import FilterForm
from .pages import local_day, overview_charts, period, player_charts, variant_name

bp = Blueprint("stats", __name__)

PLAYER_PARAM = "gracz"  # /statystyki?gracz=3&gracz=5: games these players played together
# Form fields by the name the service gives its errors.
ERROR_FIELDS = {"variant": "variant", "from": "since", "to": "until"}


signed_in_only(bp)


def _filter(form: FilterForm, player_ids: list[int]) -> GameFilter | None:
    """The filter of a valid form; None (with every error on its field) otherwise."""
    try:
        return read_filter(
            variant=form.variant.data,
            since=form.since.data,
            until=form.until.data,
            player_ids=player_ids,
            zone=local_zone(),
            typed=True,  # a browser without a date picker sends what was typed: 3.05.2025
        )
    except InvalidFilter as exc:
        for field, message in exc.errors.items():
            if field == VARIANT:  # the service names the variants by id, for the API
                message = _(UNKNOWN_VARIANT_CHOICE)
            name = ERROR_FIELDS.get(field, "variant")
            form[name].errors = [*form[name].errors, message]
        return None


@bp.get("/statystyki")
def overview() -> ResponseReturnValue:
    form = FilterForm(request.args)
    everyone = players.list_players(account_id())
    known = {p.id for p in everyone}
    # Players of another account, or not a number: left out, as if never asked for.
    chosen = sorted(
        {n for v in request.args.getlist(PLAYER_PARAM) if (n := whole_number(v)) in known}
    )
    f = _filter(form, chosen)
    context: dict[str, Any] = {
        "form": form,
        "everyone": everyone,
        "chosen": chosen,
        "filtered": bool(f and f.active),
    }
    if f is None:
        return render_template("stats/overview.html", data=None, **context), 400
    data = stats.overview(account_id(), f)
    return render_template(
        "stats/overview.html",
        data=data,
        charts=overview_charts(data),
        filter_text=describe_filter(f, {p.id: p.name for p in everyone}),
        **context,
    )


@bp.get("/gracze/<int:player_id>/statystyki")
def player(player_id: int) -> ResponseReturnValue:
    try:
        someone = players.get_player(account_id(), player_id)
    except NotFound as exc:
        abort(404, exc.message)
    form = FilterForm(request.args)
    f = _filter(form, [])
    context: dict[str, Any] = {
        "form": form,
        "player": someone,
        "filtered": bool(f and f.active),
    }
    if f is None:
        return render_template("stats/player.html", report=None, **context), 400
    report = stats.player_report(account_id(), someone, f)
    return render_template(
        "stats/player.html",
        report=report,
        charts=player_charts(report),
        filter_text=describe_filter(f, {}),
        **context,
    )


@bp.context_processor
def helpers() -> dict[str, Any]:
    """Formatting for the statistics templates only (not app-wide filters). The variants' names
    are translated once per page, not once per row."""
    return {
        "variant_names": {v: variant_name(v) for v in VARIANT_NAMES},
        "table_variants": TABLE_VARIANTS,
        "decimal": decimal,
        "percent": percent,
        "signed": signed,
        "day": local_day,
        "period": period,
    }
