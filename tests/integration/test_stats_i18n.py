"""The statistics and data pages in English (a browser that chose it) and in Polish: headings,
numbers and plural forms in the page's language ("1 game", "3 games"; "1 gra", "2 gry",
"5 gier")."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stats_builders import play_table_game, standard_sheet

from tracker.extensions import db
from tracker.i18n import LANGUAGE_COOKIE
from tracker.models import Account
from tracker.services import stats

from .test_game_pages import sign_up, text_of

pytestmark = pytest.mark.one_backend(
    "the statistics' language; their queries run on PostgreSQL in test_stats"
)


def _account(app: Flask, client: FlaskClient) -> int:
    assert sign_up(client, "Kowalscy").status_code == 302
    with app.app_context():
        return db.session.query(Account.id).filter(Account.name == "Kowalscy").scalar()


def _play(app: Flask, account_id: int, games: int, first_day: int = 1) -> None:
    with app.app_context():
        for day in range(first_day, first_day + games):
            play_table_game(
                account_id,
                "standard",
                {"Ala": standard_sheet(), "Ola": standard_sheet(general=False)},
                f"2025-05-{day:02d} 20:00",
            )


def _headings(html: str, level: str = "h2") -> list[str]:
    return re.findall(rf"<{level}[^>]*>([^<]+)</{level}>", html)


def test_the_pages_in_english_say_one_game_and_three_games(app: Flask, client: FlaskClient):
    account_id = _account(app, client)
    client.set_cookie(LANGUAGE_COOKIE, "en")
    _play(app, account_id, 1)

    data = text_of(client.get("/konto/dane").get_data(as_text=True))
    assert "Account data" in data
    assert "Account Kowalscy: 1 game, 2 players." in data
    overview = client.get("/statystyki").get_data(as_text=True)
    assert "1 finished game" in text_of(overview)
    assert "All games in May 2025: 1." in overview  # the months chart's summary, English month

    _play(app, account_id, 2, first_day=2)
    overview = client.get("/statystyki").get_data(as_text=True)
    text = text_of(overview)
    assert '<html lang="en"' in overview
    assert "<h1>Statistics</h1>" in overview
    assert {"What we play", "Players", "Sheet scores", "Records"} <= set(_headings(overview))
    assert "3 finished games" in text
    assert "3 games" in text
    assert "3 gry" not in text
    assert "Wins" in text
    assert "Wygrane" not in text
    assert "Kości (Polish sheet)" in text
    assert "How we count" in text
    data = text_of(client.get("/konto/dane").get_data(as_text=True))
    assert "Account Kowalscy: 3 games, 2 players." in data
    assert "Download everything (JSON)" in data

    with app.app_context():
        ala = stats.find_player_id(account_id, "Ala")
    player = client.get(f"/gracze/{ala}/statystyki").get_data(as_text=True)
    assert "Personal records" in _headings(player)
    assert "Recent games" in _headings(player)
    assert "Sheet fields" in _headings(player, "h3")
    assert "2 players at the table" in text_of(player)
    assert "Rekordy osobiste" not in player


def test_the_polish_pages_say_1_gra_2_gry_5_gier(app: Flask, client: FlaskClient):
    account_id = _account(app, client)
    seen = {}
    played = 0
    for total in (1, 2, 5):
        _play(app, account_id, total - played, first_day=played + 1)
        played = total
        data = text_of(client.get("/konto/dane").get_data(as_text=True))
        overview = text_of(client.get("/statystyki").get_data(as_text=True))
        seen[total] = (data, overview)

    assert "Konto Kowalscy: 1 gra, 2 gracze." in seen[1][0]
    assert "Konto Kowalscy: 2 gry, 2 gracze." in seen[2][0]
    assert "Konto Kowalscy: 5 gier, 2 gracze." in seen[5][0]
    assert "1 zakończona gra" in seen[1][1]
    assert "2 zakończone gry" in seen[2][1]
    assert "5 zakończonych gier" in seen[5][1]
    assert "Wszystkie gry w miesiącu maj 2025: 5." in client.get("/statystyki").get_data(
        as_text=True
    )


def test_the_english_who_starts_table_is_by_seat_not_by_place(app: Flask, client: FlaskClient):
    """„Miejsce” is both a seat at the table and a place in the results; the table of wins by
    seat needs the first in English (a „Place 1” there would read as the winner's row)."""
    account_id = _account(app, client)
    client.set_cookie(LANGUAGE_COOKIE, "en")
    _play(app, account_id, 1)

    html = client.get("/statystyki").get_data(as_text=True)
    table = html[html.index('<table class="seat-advantage">') :]
    table = table[: table.index("</table>")]

    assert re.findall(r'<th scope="col">([^<]+)</th>', table) == ["Seat", "Wins", "%"]


def test_the_months_chart_names_its_span_in_good_polish(app: Flask, client: FlaskClient):
    """„Od maj 2025 do czerwiec 2025” is not Polish („od” takes „maja”): the span is written
    with a dash, the months as the chart's own labels name them."""
    account_id = _account(app, client)
    with app.app_context():
        for finished in ("2025-05-10 20:00", "2025-06-10 20:00", "2025-06-11 20:00"):
            sheets = {"Ala": standard_sheet(), "Ola": standard_sheet(general=False)}
            play_table_game(account_id, "standard", sheets, finished)

    html = client.get("/statystyki").get_data(as_text=True)

    assert "maj 2025 – czerwiec 2025; najwięcej gier w miesiącu czerwiec 2025: 2." in html
    assert "Od maj" not in html
    client.set_cookie(LANGUAGE_COOKIE, "en")
    html = client.get("/statystyki").get_data(as_text=True)
    assert "From May 2025 to June 2025; most games in June 2025: 2." in html
