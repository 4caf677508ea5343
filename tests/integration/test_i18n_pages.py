"""The game pages in the browser's language (issue 13): the new-game form, the end screen and
the history in English, and the counts of games with the plural form each language needs."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from history_builders import play_out

from tracker.i18n import LANGUAGE_COOKIE
from tracker.services import games

from .test_game_pages import FULL_SHEET, Table, sign_up, text_of

pytestmark = pytest.mark.one_backend("the pages' language, not the database")


@pytest.fixture
def english(app: Flask, client: FlaskClient) -> Table:
    """A signed-in family whose browser chose English (the switch's cookie)."""
    client.set_cookie(LANGUAGE_COOKIE, "en")
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


@pytest.fixture
def polish(app: Flask, client: FlaskClient) -> Table:
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


def new_games(table: Table, count: int) -> None:
    with table.app.app_context():
        for _ in range(count):
            games.create_game(table.account_id, "standard", ["Ala"])


def history_count(table: Table) -> str:
    html = table.client.get("/historia").get_data(as_text=True)
    start = html.index('class="muted history-count">') + len('class="muted history-count">')
    return text_of(html[start : html.index("</p>", start)]).strip()


def test_the_new_game_form_is_english(english: Table):
    html = english.client.get("/gry/nowa").get_data(as_text=True)
    text = text_of(html)

    assert '<html lang="en"' in html
    assert "<h1>New game</h1>" in html
    assert "Upper bonus threshold" in text
    assert "63 pts" in text
    assert "42 pts" in text
    assert "Players at the table" in text
    assert "1 to 8 players at the table." in text  # a variant card's limits
    assert "Draw who starts" in text
    assert ">Start the game</button>" in html
    assert '<label for="players-0">Player 1</label>' in html
    for polish_word in ("Gracze przy stole", "Zacznij grę", "graczy", "pkt"):
        assert polish_word not in text


def test_a_refused_new_game_says_why_in_english(english: Table):
    response = english.post("/gry/nowa", {"variant": "standard"})

    assert response.status_code == 400
    assert "Enter the name of at least one player." in response.get_data(as_text=True)


def test_the_end_screen_is_english(english: Table):
    game_id = english.new_game(["Ala"])
    english.play_through(game_id, [FULL_SHEET])

    html = english.client.get(f"/gry/{game_id}").get_data(as_text=True)
    text = text_of(html)

    assert "Ala wins!" in text
    assert "Game over ·" in text
    assert ">Rematch</button>" in html
    assert ">Move history</a>" in html
    assert ">Game review</a>" in html
    assert "Wygrywa" not in text


def test_a_tie_on_the_end_screen_and_in_the_history_is_said_in_english(english: Table):
    game_id = english.new_game(["Ala", "Ola", "Ela"])
    english.play_through(game_id, [FULL_SHEET, FULL_SHEET, FULL_SHEET])
    total = english.view(game_id).table.scores[0]

    text = text_of(english.client.get(f"/gry/{game_id}").get_data(as_text=True))
    history = text_of(english.client.get("/historia").get_data(as_text=True))

    assert f"A tie – everyone on {total} points!" in text
    assert "Same players and variant; Ola starts." in text
    assert "Tie: Ala, Ola, and Ela" in history  # English lists: the serial comma


def test_history_is_english_with_english_plurals(english: Table):
    new_games(english, 1)
    assert history_count(english) == "1 game in all"
    html = english.client.get("/historia").get_data(as_text=True)
    assert "<h1>Game history</h1>" in html
    assert '<span class="tag tag-open">in progress</span>' in html
    assert "round 1 of 13" in text_of(html)

    new_games(english, 1)
    assert history_count(english) == "2 games in all"
    filtered = english.client.get("/historia", query_string={"wariant": "standard"})
    assert "2 games match" in text_of(filtered.get_data(as_text=True))


def test_the_home_page_is_english(english: Table):
    new_games(english, 1)
    text = text_of(english.client.get("/").get_data(as_text=True))

    assert "Games in progress" in text
    assert "round 1 of 13 · started today" in text
    assert "Continue" in text


@pytest.mark.parametrize(
    ("games_played", "said"),
    [
        (1, "Razem 1 gra"),
        (2, "Razem 2 gry"),
        (5, "Razem 5 gier"),
        (12, "Razem 12 gier"),
        (22, "Razem 22 gry"),
    ],
)
def test_the_count_of_games_in_polish_takes_the_right_form(
    polish: Table, games_played: int, said: str
):
    new_games(polish, games_played)

    assert history_count(polish) == said


def test_the_players_page_counts_games_in_both_languages(polish: Table, client: FlaskClient):
    new_games(polish, 3)
    with polish.app.app_context():
        for game_id in (1, 2):
            play_out(polish.account_id, game_id, seed=game_id)
    html = client.get("/gracze").get_data(as_text=True)
    assert '<span class="muted">2 gry, 1 w toku</span>' in html

    client.set_cookie(LANGUAGE_COOKIE, "en")
    html = client.get("/gracze").get_data(as_text=True)
    assert '<span class="muted">2 games, 1 in progress</span>' in html
    assert "gry" not in text_of(html)


def test_the_manifest_follows_the_language_the_page_links_it_in(client: FlaskClient):
    """A browser fetches the manifest without cookies: base.html names the language in its URL."""
    client.set_cookie(LANGUAGE_COOKIE, "en")
    page = client.get("/offline").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=en">' in page

    client.delete_cookie(LANGUAGE_COOKIE)
    english = client.get("/manifest.webmanifest?lang=en").get_json(force=True)
    polish = client.get("/manifest.webmanifest").get_json(force=True)

    assert (english["lang"], english["name"]) == ("en", "Kości")
    assert english["description"].startswith("A score sheet for dice games")
    assert (polish["lang"], polish["name"]) == ("pl", "Kości")
    assert polish["description"].startswith("Tabela wyników do gry w kości")
