"""The statistics pages: parse the GET filter, ask `tracker.services.stats`, draw the charts.

Both pages belong to the signed-in account; another account's player is a 404. A filter the
service refuses (a malformed day, an unknown variant, an end before the start) re-renders the
form with the message next to its field and status 400.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue

from ..rules import POKER, TABLE_VARIANTS, VARIANT_NAMES
from ..services import InvalidInput, NotFound, players, stats
from ..services.inputs import whole_number
from ..web import account_id, local_zone, signed_in_only
from . import charts
from .charts import Chart, count, decimal, month_name, percent
from .forms import FilterForm

bp = Blueprint("stats", __name__)

PLAYER_PARAM = "gracz"  # /statystyki?gracz=3&gracz=5: games these players played together
# Form fields by the name the service gives its errors.
ERROR_FIELDS = {"variant": "variant", "from": "since", "to": "until"}


signed_in_only(bp)


def _filters(form: FilterForm, player_ids: list[int]) -> stats.Filters | None:
    """The filters of a valid form; None (with the errors on the form's fields) otherwise."""
    try:
        return stats.make_filters(
            variant=form.variant.data,
            since=form.since.data,
            until=form.until.data,
            player_ids=player_ids,
            zone=local_zone(),
        )
    except InvalidInput as exc:
        name = ERROR_FIELDS.get(exc.field or "", "variant")
        form[name].errors = [*form[name].errors, exc.message]
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
    filters = _filters(form, chosen)
    context: dict[str, Any] = {
        "form": form,
        "everyone": everyone,
        "chosen": chosen,
        "filtered": bool(filters and _is_filtered(filters)),
    }
    if filters is None:
        return render_template("stats/overview.html", data=None, **context), 400
    data = stats.overview(account_id(), filters)
    return render_template(
        "stats/overview.html",
        data=data,
        charts=_overview_charts(data),
        filter_text=_describe(filters, {p.id: p.name for p in everyone}),
        **context,
    )


@bp.get("/gracze/<int:player_id>/statystyki")
def player(player_id: int) -> ResponseReturnValue:
    try:
        someone = players.get_player(account_id(), player_id)
    except NotFound as exc:
        abort(404, exc.message)
    form = FilterForm(request.args)
    filters = _filters(form, [])
    context: dict[str, Any] = {
        "form": form,
        "player": someone,
        "filtered": bool(filters and _is_filtered(filters)),
    }
    if filters is None:
        return render_template("stats/player.html", report=None, **context), 400
    report = stats.player_report(account_id(), someone, filters)
    return render_template(
        "stats/player.html",
        report=report,
        charts=_player_charts(report),
        filter_text=_describe(filters, {}),
        **context,
    )


@bp.context_processor
def helpers() -> dict[str, Any]:
    """Formatting for the statistics templates only (not app-wide filters)."""
    return {
        "variant_names": VARIANT_NAMES,
        "table_variants": TABLE_VARIANTS,
        "poker": POKER,
        "count": count,
        "plural": charts.plural,
        "decimal": decimal,
        "percent": percent,
        "day": local_day,
        "period": period,
    }


def local_day(moment: datetime) -> str:
    """A stored UTC time as the local day it fell on: "3.05.2025"."""
    local = moment.replace(tzinfo=UTC).astimezone(local_zone())
    return _day(local.date())


def _day(day: date) -> str:
    return f"{day.day}.{day:%m.%Y}"


def period(first: datetime, last: datetime) -> str:
    a, b = local_day(first), local_day(last)
    return a if a == b else f"{a} – {b}"


def _is_filtered(f: stats.Filters) -> bool:
    return bool(f.variant or f.player_ids or f.since or f.until)


def _describe(f: stats.Filters, names: dict[int, str]) -> str:
    """The filter in words, for the summary of the folded form."""
    parts = []
    if f.variant:
        parts.append(VARIANT_NAMES[f.variant])
    if f.since and f.until:
        parts.append(f"{_day(f.since)} – {_day(f.until)}")
    elif f.since:
        parts.append(f"od {_day(f.since)}")
    elif f.until:
        parts.append(f"do {_day(f.until)}")
    if f.player_ids:
        chosen = sorted((names[i] for i in f.player_ids if i in names), key=stats.sort_key)
        parts.append(("razem: " if len(chosen) > 1 else "z udziałem: ") + ", ".join(chosen))
    return " · ".join(parts)


# --- charts ------------------------------------------------------------------------------


def _games(n: int) -> str:
    return count(n, "gra", "gry", "gier")


def _overview_charts(data: stats.Overview) -> dict[str, Any]:
    if not data.games:
        return {}
    result: dict[str, Any] = {}
    top_variant, top_games = next(iter(data.by_variant.items()))
    result["variants"] = charts.bar_chart(
        "chart-variants",
        "Gry według wariantu",
        f"Najczęściej gracie w: {VARIANT_NAMES[top_variant]} – {_games(top_games)} z {data.games}.",
        ("Wariant", "Gry"),
        [(VARIANT_NAMES[v], n, str(n)) for v, n in data.by_variant.items()],
    )
    result["months"] = _month_chart(data.by_month)
    ranked = sorted(data.players, key=lambda p: (-p.overall.wins, stats.sort_key(p.name)))
    leader = ranked[0]
    result["wins"] = charts.bar_chart(
        "chart-wins",
        "Wygrane",
        f"Najwięcej wygranych: {leader.name} – {leader.overall.wins}.",
        ("Gracz", "Wygrane"),
        [(p.name, p.overall.wins, str(p.overall.wins)) for p in ranked],
    )
    result["distributions"] = [
        _histogram_chart(h, f"chart-totals-{h.variant}") for h in data.distributions
    ]
    return result


def _month_chart(months: list[stats.MonthCount]) -> Chart:
    busiest = max(months, key=lambda m: m.games)
    if len(months) == 1:
        summary = f"Wszystkie gry w miesiącu {month_name(months[0].month)}: {months[0].games}."
    else:
        summary = (
            f"Od {month_name(months[0].month)} do {month_name(months[-1].month)}; najwięcej "
            f"gier w miesiącu {month_name(busiest.month)}: {busiest.games}."
        )
    return charts.column_chart(
        "chart-months",
        "Gry w kolejnych miesiącach",
        summary,
        ("Miesiąc", "Gry"),
        [(month_name(m.month), m.games, str(m.games)) for m in months],
        [(charts.MONTHS_SHORT[m.month.month - 1], str(m.month.year)) for m in months],
    )


def _histogram_chart(h: stats.Histogram, chart_id: str) -> Chart:
    def span(low: int) -> str:
        return str(low) if h.width == 1 else f"{low}–{low + h.width - 1}"

    commonest = max(h.bins, key=lambda b: b[1])
    lowest = next(low for low, n in h.bins if n)
    highest = next(low for low, n in reversed(h.bins) if n)
    times = count(commonest[1], "raz", "razy", "razy")
    return charts.column_chart(
        chart_id,
        f"Rozkład wyników – {VARIANT_NAMES[h.variant]}",
        f"{count(h.count, 'wynik', 'wyniki', 'wyników')} od {span(lowest)} do {span(highest)} "
        f"pkt; najczęściej {span(commonest[0])} pkt ({times}).",
        ("Punkty", "Ile razy"),
        [(f"{span(low)} pkt", n, str(n)) for low, n in h.bins],
        [(str(low), "") for low, _ in h.bins],
    )


def _player_charts(report: stats.PlayerReport) -> dict[str, Any]:
    result: dict[str, Any] = {}
    tl = report.timeline
    if tl is not None and tl.points:
        name = VARIANT_NAMES[tl.variant]
        values = [p.value for p in tl.points]
        if tl.per_game:
            games = len(tl.points)
            mean = sum(values) / games
            data = [(local_day(p.at), p.value, f"{decimal(p.value)} pkt") for p in tl.points]  # type: ignore[arg-type]
            ends = (data[0][0], data[-1][0])
            summary = (
                f"{_games(games)}: od {decimal(min(values))} do {decimal(max(values))} pkt, "
                f"średnio {decimal(mean)}."
            )
            title = f"Wyniki w kolejnych grach – {name}"
            headers = ("Gra z dnia", "Wynik")
        else:
            games = sum(p.games for p in tl.points)
            mean = sum(p.value * p.games for p in tl.points) / games
            data = [
                (month_name(p.at), p.value, f"{decimal(p.value)} pkt ({_games(p.games)})")  # type: ignore[arg-type]
                for p in tl.points
            ]
            ends = (data[0][0], data[-1][0])
            summary = (
                f"Średni wynik w miesiącu, {_games(games)}: od {decimal(min(values))} do "
                f"{decimal(max(values))} pkt, średnio {decimal(mean)}."
            )
            title = f"Średni wynik w kolejnych miesiącach – {name}"
            headers = ("Miesiąc", "Średni wynik")
        result["timeline"] = charts.line_chart(
            "chart-timeline", title, summary, headers, data, ends, mean
        )
    if report.distribution is not None:
        result["distribution"] = _histogram_chart(report.distribution, "chart-totals")
    return result
