"""What the statistics pages show beside the service's figures: their charts (titles and
one-sentence summaries over `charts`' geometry) and local days. The filter in words is
`web.describe_filter`, which the history's folded filter says too.

Every text is translated once per chart (a row's text is a translated template formatted in
the loop), so a page costs a handful of catalog look-ups whatever the number of games.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..i18n import _, ngettext
from ..rules import VARIANT_NAMES
from ..rules_text import rules_text
from ..services import stats
from ..web import local_date, local_zone
from . import charts
from .charts import Chart, decimal, games, month_name, signed


def local_day(moment: datetime) -> str:
    """A stored UTC time as the local day it fell on: "3.05.2025" ("3 May 2025")."""
    local = moment.replace(tzinfo=UTC).astimezone(local_zone())
    return local_date(local.date())


def period(first: datetime, last: datetime) -> str:
    a, b = local_day(first), local_day(last)
    return a if a == b else f"{a} – {b}"


def variant_name(variant: str) -> str:
    """A variant's name in the request's language."""
    return rules_text(VARIANT_NAMES[variant])


def _counted(n: int, memo: dict[int, str]) -> str:
    """`games(n)`, looked up once per number on a chart."""
    text = memo.get(n)
    if text is None:
        text = memo[n] = games(n)
    return text


def overview_charts(data: stats.Overview) -> dict[str, Any]:
    """The statistics page's charts: games per variant and per month, wins, distributions."""
    if not data.games:
        return {}
    result: dict[str, Any] = {}
    top_variant, top_games = next(iter(data.by_variant.items()))
    result["variants"] = charts.bar_chart(
        "chart-variants",
        _("Gry według wariantu"),
        _(
            "Najczęściej gracie w: %(variant)s – %(games)s z %(total)d.",
            variant=variant_name(top_variant),
            games=games(top_games),
            total=data.games,
        ),
        (_("Wariant"), _("Gry")),
        [(variant_name(v), n, str(n)) for v, n in data.by_variant.items()],
    )
    result["months"] = _month_chart(data.by_month)
    ranked = sorted(data.players, key=lambda p: (-p.overall.wins, stats.sort_key(p.name)))
    leader = ranked[0]
    result["wins"] = charts.bar_chart(
        "chart-wins",
        _("Wygrane"),
        _("Najwięcej wygranych: %(name)s – %(wins)d.", name=leader.name, wins=leader.overall.wins),
        (_("Gracz"), _("Wygrane")),
        [(p.name, p.overall.wins, str(p.overall.wins)) for p in ranked],
    )
    result["distributions"] = [
        _histogram_chart(h, f"chart-totals-{h.variant}") for h in data.distributions
    ]
    return result


def _month_chart(months: list[stats.MonthCount]) -> Chart:
    busiest = max(months, key=lambda m: m.games)
    if len(months) == 1:
        summary = _(
            "Wszystkie gry w miesiącu %(month)s: %(games)d.",
            month=month_name(months[0].month),
            games=months[0].games,
        )
    else:
        summary = _(
            # A dash, not „od … do …”, which would need the months' genitive („od maja”).
            "%(first)s – %(last)s; najwięcej gier w miesiącu %(busiest)s: %(games)d.",
            first=month_name(months[0].month),
            last=month_name(months[-1].month),
            busiest=month_name(busiest.month),
            games=busiest.games,
        )
    return charts.column_chart(
        "chart-months",
        _("Gry w kolejnych miesiącach"),
        summary,
        (_("Miesiąc"), _("Gry")),
        [(month_name(m.month), m.games, str(m.games)) for m in months],
        [(charts.short_month(m.month), str(m.month.year)) for m in months],
    )


def _histogram_chart(h: stats.Histogram, chart_id: str) -> Chart:
    def span(low: int) -> str:
        return str(low) if h.width == 1 else f"{low}–{low + h.width - 1}"

    commonest = max(h.bins, key=lambda b: b[1])
    lowest = next(low for low, n in h.bins if n)
    highest = next(low for low, n in reversed(h.bins) if n)
    points = _("%(points)s pkt")  # formatted per bin below
    return charts.column_chart(
        chart_id,
        _("Rozkład wyników – %(variant)s", variant=variant_name(h.variant)),
        _(
            "%(results)s od %(low)s do %(high)s pkt; najczęściej %(common)s pkt (%(times)s).",
            results=ngettext("%(num)d wynik", "%(num)d wyników", h.count),
            low=span(lowest),
            high=span(highest),
            common=span(commonest[0]),
            times=ngettext("%(num)d raz", "%(num)d razy", commonest[1]),
        ),
        (_("Punkty"), _("Ile razy")),
        [(points % {"points": span(low)}, n, str(n)) for low, n in h.bins],
        [(str(low), "") for low, _n in h.bins],
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
    name = variant_name(tl.variant)
    total = sum((p.skill for p in tl.points), stats.Skill())
    mean = total.loss_per_turn or 0.0
    values = [p.skill.loss_per_turn or 0.0 for p in tl.points]
    # Translated once, formatted per point.
    per_game_text = _("%(per_turn)s (szczęście %(luck)s)")
    per_month_text = _("%(per_turn)s (szczęście %(luck)s; %(games)s)")
    memo: dict[int, str] = {}

    def text(p: stats.SkillPoint) -> str:
        figures = {
            "per_turn": f"{approx}{decimal(p.skill.loss_per_turn)}",
            "luck": f"{approx}{signed(p.skill.luck_per_game)}",
        }
        if tl.per_game:
            return per_game_text % figures
        return per_month_text % {**figures, "games": _counted(p.skill.games, memo)}

    if tl.per_game:
        labels = [_played_on(p) for p in tl.points]
        title = _("Oddane oczekiwane punkty na ruch w kolejnych grach – %(variant)s", variant=name)
        headers = (_("Gra z dnia"), _("Oddane na ruch"))
    else:
        labels = [month_name(p.at) for p in tl.points]
        title = _(
            "Oddane oczekiwane punkty na ruch w kolejnych miesiącach – %(variant)s", variant=name
        )
        headers = (_("Miesiąc"), _("Oddane na ruch"))
    summary = _(
        "%(games)s, %(moves)s: od %(low)s do %(high)s oczekiwanego punktu na ruch, "
        "średnio %(mean)s. Mniej znaczy lepiej.",
        games=games(total.games),
        moves=ngettext("%(num)d ruch", "%(num)d ruchów", total.turns),
        low=f"{approx}{decimal(min(values))}",
        high=f"{approx}{decimal(max(values))}",
        mean=f"{approx}{decimal(mean)}",
    )
    data = [(lb, v, text(p)) for lb, v, p in zip(labels, values, tl.points, strict=True)]
    ends = (labels[0], labels[-1])
    return charts.line_chart("chart-skill", title, summary, headers, data, ends, mean)


def _played_on(point: stats.TimelinePoint | stats.SkillPoint) -> str:
    """The local day of a per-game point, which is at the moment its game finished."""
    assert isinstance(point.at, datetime), "a per-game point is at a moment, not a month"
    return local_day(point.at)


def _timeline_chart(tl: stats.Timeline) -> Chart:
    name = variant_name(tl.variant)
    values = [p.value for p in tl.points]
    if tl.per_game:
        played = len(tl.points)
        mean = sum(values) / played
        points = _("%(points)s pkt")  # formatted per point below
        data = [(_played_on(p), p.value, points % {"points": decimal(p.value)}) for p in tl.points]
        summary = _(
            "%(games)s: od %(low)s do %(high)s pkt, średnio %(mean)s.",
            games=games(played),
            low=decimal(min(values)),
            high=decimal(max(values)),
            mean=decimal(mean),
        )
        title = _("Wyniki w kolejnych grach – %(variant)s", variant=name)
        headers = (_("Gra z dnia"), _("Wynik"))
    else:
        played = sum(p.games for p in tl.points)
        mean = sum(p.value * p.games for p in tl.points) / played
        month_text = _("%(points)s pkt (%(games)s)")  # formatted per month below
        memo: dict[int, str] = {}
        data = [
            (
                month_name(p.at),
                p.value,
                month_text % {"points": decimal(p.value), "games": _counted(p.games, memo)},
            )
            for p in tl.points
        ]
        summary = _(
            "Średni wynik w miesiącu, %(games)s: od %(low)s do %(high)s pkt, średnio %(mean)s.",
            games=games(played),
            low=decimal(min(values)),
            high=decimal(max(values)),
            mean=decimal(mean),
        )
        title = _("Średni wynik w kolejnych miesiącach – %(variant)s", variant=name)
        headers = (_("Miesiąc"), _("Średni wynik"))
    ends = (data[0][0], data[-1][0])
    # Totals are whole points, and so are the ticks of their axis (one game: 418 to 420, not
    # 418 to 419 by halves); a monthly average falls between them.
    return charts.line_chart(
        "chart-timeline", title, summary, headers, data, ends, mean, whole=True
    )
