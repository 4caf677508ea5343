from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, url_for
from werkzeug.wrappers import Response as BaseResponse

from tracker.rules import (
    SCANDINAVIAN,
    STANDARD,
    TABLE_VARIANTS,
    VARIANT_NAMES,
    Hand,
    PokerOptions,
    Variant,
    explain,
    parse_dice,
)

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> str:
    return render_template("main/home.html")


@bp.get("/zasady")
def rules() -> str:
    """The rules as this app applies them; labels, points and maxima come from `tracker.rules`."""
    standard = TABLE_VARIANTS["standard"]
    return render_template(
        "main/rules.html",
        variant_names=VARIANT_NAMES,
        variants=TABLE_VARIANTS,
        standard=STANDARD,
        scandinavian=SCANDINAVIAN,
        joker_fields=[f for f in STANDARD.lower_fields if f.joker_points is not None],
        hands=sorted(Hand, reverse=True),
        poker_examples=[explain(parse_dice(a), parse_dice(b)) for a, b in POKER_EXAMPLES],
        poker_target_wins=PokerOptions().target_wins,
        maxima={v.id: max_total(v) for v in TABLE_VARIANTS.values()},
        max_all_generals=max_total(standard) + (standard.turns - 1) * standard.extra_bonus,
    )


# The tie-breaks DECISIONS.md settles, explained by the rules core itself.
POKER_EXAMPLES = (("23456", "12345"), ("55331", "55226"), ("55522", "44466"))


def max_total(variant: Variant) -> int:
    """The best total without extra Generał bonuses: every field at its maximum, upper bonus in."""
    column = sum(variant.table.max_points.values()) + variant.table.upper_bonus
    return column * sum(variant.multipliers)


@bp.get("/healthz")
def healthz() -> Response:
    """The plainest page: no template, no database, no session (used by benchmarks)."""
    return Response("ok", mimetype="text/plain")


@bp.get("/favicon.ico")
def favicon() -> BaseResponse:
    # Pages name the SVG icon; this serves clients that ask for the legacy path anyway.
    return redirect(url_for("static", filename="favicon.svg"), code=301)
