from __future__ import annotations

from datetime import datetime, timedelta

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

from tracker import advisor, guests
from tracker.i18n import LANGUAGES, _, decimal_separator, in_language
from tracker.rules import (
    SCANDINAVIAN,
    STANDARD,
    TABLE_VARIANTS,
    VARIANT_NAMES,
    VARIANTS,
    Hand,
    Options,
    PokerOptions,
    empty_sheet,
    explain_text,
    parse_dice,
)
from tracker.rules_text import rules_text
from tracker.services import accounts, game_lists, health
from tracker.web import HISTORY_UNFINISHED, and_list, local_zone, same_site_path

from . import app_shell
from .forms import ThemeForm

bp = Blueprint("main", __name__)
bp.record_once(app_shell.register_template_globals)


# Finished games listed on the home page, newest first; older ones stay in the database.
RECENT_FINISHED = 5


@bp.get("/")
def home() -> ResponseReturnValue:
    """Signed in: a new game and the games to go on with. A fresh installation starts at sign-up."""
    if not current_user.is_authenticated:
        if not accounts.has_accounts():
            return redirect(url_for("auth.sign_up"))
        return render_template("main/home.html", guest_game=guests.invited_game())
    zone = local_zone()
    recent = game_lists.recent_unfinished(current_user.id, zone, datetime.now(zone).date())
    return render_template(
        "main/home.html",
        unfinished=recent.games,
        older_unfinished=recent.older,
        # The history's own filter for them: unfinished, started until the day before.
        older_unfinished_url=url_for(
            "history.index",
            stan=HISTORY_UNFINISHED,
            do=(recent.first_day - timedelta(days=1)).isoformat(),
        ),
        finished=game_lists.summaries(current_user.id, finished=True, limit=RECENT_FINISHED),
    )


@bp.get("/zasady")
def rules() -> str:
    """The rules as this app applies them; labels, points and maxima come from `tracker.rules`."""
    standard_variant = TABLE_VARIANTS["standard"]
    return render_template(
        "main/rules.html",
        variant_names=VARIANT_NAMES,
        variants=TABLE_VARIANTS,
        standard=STANDARD,
        scandinavian=SCANDINAVIAN,
        joker_fields=[f for f in STANDARD.lower_fields if f.joker_points is not None],
        hands=sorted(Hand, reverse=True),
        poker_examples=[explain_text(parse_dice(a), parse_dice(b)) for a, b in POKER_EXAMPLES],
        poker_target_wins=PokerOptions().target_wins,
        player_limits=_player_limits(),
        maxima={v.id: v.max_total for v in TABLE_VARIANTS.values()},
        # 1575: the first Generał for 50, then twelve more five of a kind at +100 each.
        max_all_generals=standard_variant.max_total
        + (standard_variant.turns - 1) * standard_variant.extra_bonus,
        expected_rows=_expected_rows(),
        kosci_start=_figure(
            advisor.expected_total(standard_variant, empty_sheet(standard_variant)), 4
        ),
    )


def _figure(value: float, places: int) -> str:
    """An expected score with `places` decimals, in the page's language: two in the table, four
    in the check against official Yahtzee (254,5882 and 254,5877, which two round alike)."""
    return f"{value:.{places}f}".replace(".", decimal_separator())


def _player_limits() -> list[dict[str, str | int]]:
    """How many players each variant seats (its least and most), variants with the same limits
    named together, in the order players are offered them."""
    groups: dict[tuple[int, int], list[str]] = {}
    for variant in VARIANTS.values():
        limits = (variant.min_players, variant.max_players)
        groups.setdefault(limits, []).append(rules_text(variant.name))  # b1: rules text
    return [
        {"names": and_list(names), "least": least, "most": most}
        for (least, most), names in groups.items()
    ]


def _expected_rows() -> list[dict[str, str]]:
    """The expected final total of an empty sheet under optimal play, per variant and option."""
    rows = []
    for variant in TABLE_VARIANTS.values():
        for threshold in variant.bonus_thresholds:
            options = Options(bonus_threshold=threshold)
            value = advisor.expected_total(variant, empty_sheet(variant), options)
            label = rules_text(variant.name)  # b1: rules text
            if len(variant.bonus_thresholds) > 1:
                label = _(
                    "%(variant)s (premia od %(threshold)d)", variant=label, threshold=threshold
                )
            approx = "" if advisor.is_exact(variant) else "≈ "
            figure = _figure(value, 2)
            rows.append({"label": label, "value": approx + figure})
    return rows


# The tie-breaks the settled rules decide, explained by the rules core itself.
POKER_EXAMPLES = (("23456", "12345"), ("55331", "55226"), ("55522", "44466"))


@bp.get("/healthz")
def healthz() -> Response:
    """The plainest page: no template, no database, no session (used by benchmarks)."""
    return Response("ok", mimetype="text/plain")


@bp.get("/healthz/db")
def healthz_database() -> Response:
    """For a club's uptime monitor: "ok" once the database has answered a query. While it does
    not, the 503 every page then gives (`errors.database_unavailable`); `/healthz` above
    never asks it (a phone checks with it that the server itself answers)."""
    health.check_database()
    response = Response("ok", mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/favicon.ico")
def favicon() -> BaseResponse:
    # Pages name the SVG icon; this serves clients that ask for the legacy path anyway.
    return redirect(url_for("static", filename="favicon.svg"), code=301)


# The app on the phone (tracker/main/app_shell.py, README "The app on the phone").


@bp.get("/manifest.webmanifest")
def manifest() -> BaseResponse:
    return app_shell.manifest_response()


@bp.get("/sw.js")
def service_worker() -> BaseResponse:
    """The service worker, from the root so that its scope is the whole site."""
    return app_shell.service_worker_response()


@bp.get("/offline")
def offline() -> str:
    """The page the service worker shows when the server cannot be reached, kept at install in
    every language (`?lang=en`: the worker fetches it without cookies); without `lang`, in the
    request's language."""
    language = request.args.get("lang")
    if language not in LANGUAGES:
        return render_template("main/offline.html")
    with in_language(language):
        return render_template("main/offline.html")


@bp.post("/motyw")
def theme() -> BaseResponse:
    """The theme switch without JavaScript: remember the choice, back to the page it was on."""
    form = ThemeForm()
    if not form.validate_on_submit():
        abort(400)
    response = redirect(same_site_path(form.next.data))
    app_shell.remember_theme(response, form.theme.data)
    return response
