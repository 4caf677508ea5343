"""What the statistics pages show beside the service's figures: their charts (titles and
one-sentence summaries over `charts`' geometry), the filter in words, and local days."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from ..rules import VARIANT_NAMES
from ..services import stats
from ..web import local_zone
from . import charts
from .charts import Chart, count, decimal, month_name, signed


def local_day(moment: datetime) -> str:
    """A stored UTC time as the local day it fell on: "3.05.2025"."""
    local = moment.replace(tzinfo=UTC).astimezone(local_zone())
    return _day(local.date())


def _day(day: date) -> str:
    return f"{day.day}.{day:%m.%Y}"


def period(first: datetime, last: datetime) -> str:
    a, b = local_day(first), local_day(last)
    return a if a == b else f"{a} – {b}"


def describe(f: stats.GameFilter, names: dict[int, str]) -> str:
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


def _games(n: int) -> str:
    return count(n, "gra", "gry", "gier")


def overview_charts(data: stats.Overview) -> dict[str, Any]:
    """The statistics page's charts: games per variant and per month, wins, distributions."""
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


def player_charts(report: stats.PlayerReport) -> dict[str, Any]:
    """The player page's charts: totals over time, their distribution, and the expected points
    given away per turn over time."""
    result: dict[str, Any] = {}
    if report.timeline is not None and report.timeline.points:
        result["timeline"] = _timeline_chart(report.timeline)
    if report.distribution is not None:
        result["distribution"] = _histogram_chart(report.distribution, "chart-totals")
    if report.skill_timeline is not None and report.skill_timeline.points:
        result["skill"] = _skill_chart(report.skill_timeline)
    return result


def _skill_chart(tl: stats.SkillTimeline) -> Chart:
    """Expected points given away per turn, game by game (or month by month), with the mean
    over them all (per turn, not per point) as the dashed line; luck in the data table."""
    approx = "" if all(p.skill.exact for p in tl.points) else "≈"
    name = VARIANT_NAMES[tl.variant]
    total = sum((p.skill for p in tl.points), stats.Skill())
    mean = total.loss_per_turn or 0.0
    values = [p.skill.loss_per_turn or 0.0 for p in tl.points]

    def text(p: stats.SkillPoint) -> str:
        per_turn = f"{approx}{decimal(p.skill.loss_per_turn)}"
        luck = f"{approx}{signed(p.skill.luck_per_game)}"
        if tl.per_game:
            return f"{per_turn} (szczęście {luck})"
        return f"{per_turn} (szczęście {luck}; {_games(p.skill.games)})"

    if tl.per_game:
        labels = [_played_on_day(p.at) for p in tl.points]
        title = f"Oddane oczekiwane punkty na ruch w kolejnych grach – {name}"
        headers = ("Gra z dnia", "Oddane na ruch")
    else:
        labels = [month_name(p.at) for p in tl.points]
        title = f"Oddane oczekiwane punkty na ruch w kolejnych miesiącach – {name}"
        headers = ("Miesiąc", "Oddane na ruch")
    summary = (
        f"{_games(total.games)}, {count(total.turns, 'ruch', 'ruchy', 'ruchów')}: "
        f"od {approx}{decimal(min(values))} do {approx}{decimal(max(values))} "
        f"oczekiwanego punktu na ruch, średnio {approx}{decimal(mean)}. Mniej znaczy lepiej."
    )
    data = [(lb, v, text(p)) for lb, v, p in zip(labels, values, tl.points, strict=True)]
    ends = (labels[0], labels[-1])
    return charts.line_chart("chart-skill", title, summary, headers, data, ends, mean)


def _played_on_day(at: datetime | date) -> str:
    assert isinstance(at, datetime), "a per-game point is at a moment, not a month"
    return local_day(at)


def _played_on(point: stats.TimelinePoint) -> str:
    """The local day of a per-game point, which is at the moment its game finished."""
    assert isinstance(point.at, datetime), "a per-game point is at a moment, not a month"
    return local_day(point.at)


def _timeline_chart(tl: stats.Timeline) -> Chart:
    name = VARIANT_NAMES[tl.variant]
    values = [p.value for p in tl.points]
    if tl.per_game:
        games = len(tl.points)
        mean = sum(values) / games
        data = [(_played_on(p), p.value, f"{decimal(p.value)} pkt") for p in tl.points]
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
            (month_name(p.at), p.value, f"{decimal(p.value)} pkt ({_games(p.games)})")
            for p in tl.points
        ]
        summary = (
            f"Średni wynik w miesiącu, {_games(games)}: od {decimal(min(values))} do "
            f"{decimal(max(values))} pkt, średnio {decimal(mean)}."
        )
        title = f"Średni wynik w kolejnych miesiącach – {name}"
        headers = ("Miesiąc", "Średni wynik")
    ends = (data[0][0], data[-1][0])
    return charts.line_chart("chart-timeline", title, summary, headers, data, ends, mean)
