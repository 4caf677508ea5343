"""The review page of a table game („Przegląd gry”): each player's choices against optimal
solitaire play, in expected points, with a small chart drawn on the server (inline SVG, no
script).

`services.reviews` judges the turns (through `tracker.advisor`); this module only arranges the
figures for the page: Polish numbers with one decimal („254,6”), „≈” before every expected
figure of an approximate variant (`triple`), the chart's geometry. Wording: „oczekiwane
punkty”, never a „błąd”: a choice that costs expected points may still have been lucky.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from flask import abort, g, render_template, url_for
from flask.typing import ResponseReturnValue

from ..advisor import MoveAdvice
from ..i18n import _, decimal_separator
from ..rules import Variant
from ..rules_text import points_text
from ..services import NotFound, ServiceError, reviews
from ..web import account_id
from .turn import cell_name
from .views import bp

# The chart's view box, in CSS pixels at its natural width (it fits a 360 px phone and scales).
WIDTH = 328
HEIGHT = 200
LEFT = 40  # room for the values of the vertical axis
RIGHT = 10
TOP = 12
BOTTOM = 28  # room for the turn numbers under the horizontal axis
STEPS = (10, 25, 50, 100, 200, 250, 500, 1000)  # grid spacing: the first giving <= 6 lines
MAX_GRID_LINES = 6


# --- numbers as the page says them ---------------------------------------------------------


def decimal(value: float, *, exact: bool = True) -> str:
    """One decimal, with a comma in Polish: 254.588 → „254,6” („254.6” in English); „≈254,6”
    when approximate."""
    rounded = round(value, 1)
    text = f"{abs(rounded):.1f}".replace(".", decimal_separator())
    if rounded < 0:
        text = "−" + text
    return text if exact else "≈" + text


def signed(value: float, *, exact: bool = True) -> str:
    """Luck: „+12,3”, „−4,0”, „0,0”."""
    rounded = round(value, 1)
    sign = "+" if rounded > 0 else "−" if rounded < 0 else ""
    text = sign + f"{abs(rounded):.1f}".replace(".", decimal_separator())
    return text if exact else "≈" + text


# --- the page's pieces -------------------------------------------------------------------


@dataclass(frozen=True)
class TurnLine:
    """One row of a player's table of turns."""

    number: int  # the player's own turn number
    seq: int
    dice: str  # „1-2-3-4-5”
    chosen: str  # „Duży strit 40” („Ful ×2: 50 (25 × 2)” in triple)
    best: str  # the best field(s) for these dice, with their points
    chose_best: bool
    best_note: str | None  # „najlepsze:” / „równie dobre:” before `best_shown`; None: nothing
    best_shown: str  # the best fields the row names (the others, beside a best choice)
    loss: str  # expected points given away, „” when none
    expected_after: str


@dataclass(frozen=True)
class Chart:
    """A player's expected final total turn by turn, beside the points on the sheet."""

    id: str
    title: str
    summary: str
    width: int
    height: int
    grid: list[tuple[float, str]]  # (y, label) of each horizontal line
    x_ticks: list[tuple[float, str]]  # (x, label) under the horizontal axis
    expected: str  # polyline points
    totals: str  # polyline points
    last: tuple[float, float]  # where the expected line ends (a dot)
    plot_left: int
    plot_right: int
    plot_bottom: float


@dataclass(frozen=True)
class PlayerCard:
    anchor: str
    name: str
    total: int
    turns: int
    best_choices: int
    expected_start: str
    expected_now: str
    loss: str
    loss_per_turn: str
    luck: str
    lines: list[TurnLine]
    chart: Chart | None


def _where(variant: Variant, move: MoveAdvice) -> str:
    return cell_points(variant, move.field, move.column, move.points, move.extra_bonus)


def cell_points(variant: Variant, field_id: str, column: int, points: int, extra: int = 0) -> str:
    """A field and what the roll writes there: „Ful 25”, with a further Generał's bonus as the
    turn log says it: „Szansa 30 (+100)”. With several columns, what it counts in its column's
    total and why: „Ful ×2: 50 (25 × 2)”, „Duży strit ×3: 420 ((40 + 100) × 3)” (a column is
    totalled, then multiplied; the bare „Ful ×2 25” would read as the points that count,
    beside a best field elsewhere)."""
    name = cell_name(variant, field_id, column)
    if variant.columns == 1:
        return f"{name} {points_text(points, extra)}"
    multiplier = variant.multipliers[column]
    counted = (points + extra) * multiplier
    # One figure, unbroken on a narrow screen: „81 (27 × 3)”.
    written = f"({points}\u00a0+\u00a0{extra})" if extra else str(points)
    if multiplier == 1:
        return f"{name}: {counted}" + (f"\u00a0{written}" if extra else "")
    if counted == 0:
        return f"{name}: 0"
    return f"{name}: {counted}\u00a0({written}\u00a0×\u00a0{multiplier})"


def turn_line(variant: Variant, turn: reviews.ReviewedTurn, exact: bool) -> TurnLine:
    """A row: the chosen field, and under it the best one(s) when the choice was not among
    them, or the others as good when it was one of several."""
    best = [_where(variant, m) for m in turn.best]
    others = [
        _where(variant, m) for m in turn.best if (m.field, m.column) != (turn.field, turn.column)
    ]
    note, shown = None, ""
    if not turn.chose_best:
        note, shown = _("najlepsze:"), ", ".join(best)
    elif others:
        note, shown = _("równie dobre:"), ", ".join(others)
    return TurnLine(
        number=turn.number,
        seq=turn.seq,
        dice="-".join(map(str, turn.dice)),
        chosen=cell_points(variant, turn.field, turn.column, turn.points, turn.extra_bonus),
        best=", ".join(best),
        chose_best=turn.chose_best,
        best_note=note,
        best_shown=shown,
        loss="" if turn.chose_best else decimal(turn.loss, exact=exact),
        expected_after=decimal(turn.expected_after, exact=exact),
    )


def _step(top: float) -> int:
    return next((s for s in STEPS if math.ceil(top / s) <= MAX_GRID_LINES), STEPS[-1])


def chart(player: reviews.PlayerReview, variant: Variant, exact: bool) -> Chart | None:
    """The expected final total after each turn (starting from the empty sheet's) and the points
    on the sheet after it, on one scale; the x axis spans the whole game, so an unfinished game
    shows how far it got. None before the player's first turn."""
    turns = player.turns
    if not turns:
        return None
    expected = [player.expected_start, *(t.expected_after for t in turns)]
    totals = [0, *(t.total for t in turns)]
    top = max(*expected, *totals, 1.0)
    step = _step(top)
    y_max = math.ceil(top / step) * step
    length = max(variant.turns, len(turns))
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM
    bottom = TOP + plot_height

    def x(i: int) -> float:
        return round(LEFT + plot_width * i / length, 1)

    def y(value: float) -> float:
        return round(bottom - plot_height * value / y_max, 1)

    def points(values: Sequence[float]) -> str:
        return " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))

    # The turn numbers under the axis: the ends, the middle and the last turn played, without
    # two side by side (they would overlap).
    ticks = {0, length}
    for tick in (len(turns), length // 2):
        if all(abs(tick - other) >= length / 6 for other in ticks - {tick}):
            ticks.add(tick)
    name = _("Oczekiwany wynik końcowy gracza %(name)s", name=player.name)
    summary = _(
        "Oczekiwany wynik końcowy na starcie %(start)s, po ruchu %(turn)d: %(now)s; punkty w "
        "tabeli: %(total)d.",
        start=decimal(player.expected_start, exact=exact),
        turn=len(turns),
        now=decimal(player.expected_now, exact=exact),
        total=player.total,
    )
    return Chart(
        id=f"review-chart-{player.seat}",
        title=name,
        summary=summary,
        width=WIDTH,
        height=HEIGHT,
        grid=[(y(v), str(v)) for v in range(0, y_max + 1, step)],
        x_ticks=[(x(i), str(i)) for i in sorted(ticks)],
        expected=points(expected),
        totals=points(totals),
        last=(x(len(turns)), y(expected[-1])),
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        plot_bottom=bottom,
    )


def player_card(player: reviews.PlayerReview, variant: Variant, exact: bool) -> PlayerCard:
    return PlayerCard(
        anchor=f"gracz-{player.seat + 1}",
        name=player.name,
        total=player.total,
        turns=len(player.turns),
        best_choices=player.best_choices,
        expected_start=decimal(player.expected_start, exact=exact),
        expected_now=decimal(player.expected_now, exact=exact),
        loss=decimal(player.loss, exact=exact),
        loss_per_turn=decimal(player.loss_per_turn, exact=exact),
        luck=signed(player.luck, exact=exact),
        lines=[turn_line(variant, t, exact) for t in player.turns],
        chart=chart(player, variant, exact),
    )


@bp.get("/gry/<int:game_id>/przeglad")
def review(game_id: int) -> ResponseReturnValue:
    """Every player's turns against optimal solitaire play: what each choice cost in expected
    points, the luck of the dice, and the expected final total turn by turn."""
    try:
        found = reviews.review_of(account_id(), game_id)
    except NotFound as exc:
        abort(404, exc.message)
    except reviews.NoReviewInPoker as exc:
        abort(404, exc.message)  # a match has no review page (the API says 409 with its code)
    except ServiceError as exc:
        abort(exc.status, exc.message)
    exact = found.exact
    # The review follows the game like its other screens (static/js/live.js, base.html): a turn
    # written on another phone shows here without a reload.
    g.live_game = {"url": url_for("games.state", game_id=game_id), "etag": found.etag}
    return render_template(
        "games/review.html",
        review=found,
        exact=exact,
        cards=[player_card(p, found.variant, exact) for p in found.players],
    )
