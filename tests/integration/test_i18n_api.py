"""The API's errors in the client's language (`Accept-Language`, Polish when it names neither),
the codes the same in every language; a service's refusal flashed on a page in the language the
browser chose (README "Języki")."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tracker.i18n import LANGUAGE_COOKIE

from .test_api_games import GAMES, Api, account_with_token, fill_standard_sheet
from .test_game_pages import Table, sign_up, text_of

pytestmark = pytest.mark.one_backend("the language of the API's errors, not the database")

ENGLISH = {"Accept-Language": "en"}
POLISH = {"Accept-Language": "pl"}


@pytest.fixture
def api(app: Flask, client: FlaskClient) -> Api:
    return Api(client, account_with_token(app, "Kowalscy"))


def post(api: Api, url: str, body: Any, headers: dict[str, str] | None = None):
    return api.client.post(
        url,
        data=json.dumps(body),
        content_type="application/json",
        headers={**api.headers, **(headers or {})},
    )


def error(response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert isinstance(body, dict)
    return body


# --- the language of the API's errors --------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        pytest.param(ENGLISH, "The dice field is missing.", id="en"),
        pytest.param(
            {"Accept-Language": "en-GB,en;q=0.9"}, "The dice field is missing.", id="en-GB"
        ),
        pytest.param(POLISH, "Brak pola dice.", id="pl"),
        pytest.param({}, "Brak pola dice.", id="none"),
        pytest.param({"Accept-Language": "de"}, "Brak pola dice.", id="de-falls-back-to-polish"),
        pytest.param({"Accept-Language": "de, en;q=0.5"}, "The dice field is missing.", id="de-en"),
    ],
)
def test_the_api_answers_in_the_language_the_client_asks_for(
    api: Api, headers: dict[str, str], message: str
):
    game = api.new_game()

    response = post(api, f"{GAMES}/{game['id']}/turns", {"field": "ones"}, headers)

    assert error(response, 400) == {"error": message}


def test_a_field_of_the_wrong_type_is_refused_in_english(api: Api):
    game = api.new_game()

    dice_as_text = post(
        api, f"{GAMES}/{game['id']}/turns", {"dice": "11111", "field": "ones"}, ENGLISH
    )
    players_as_text = post(api, GAMES, {"variant": "standard", "players": "Ala"}, ENGLISH)
    hints_as_text = post(
        api, GAMES, {"variant": "standard", "players": ["Ala"], "hints": "yes"}, ENGLISH
    )
    seq_too_big = post(
        api,
        f"{GAMES}/{game['id']}/turns",
        {"dice": [1, 1, 1, 1, 1], "field": "ones", "expected_seq": 0},
        ENGLISH,
    )

    assert error(dice_as_text, 400)["error"] == (
        "Enter the dice as a list of five numbers from 1 to 6."
    )
    assert error(players_as_text, 400)["error"] == "The players field must be a list of names."
    assert error(hints_as_text, 400)["error"] == "The hints field must be true or false."
    assert error(seq_too_big, 400)["error"] == (
        "The expected_seq field must be a number from 1 to 5001: the next_seq of the game the "
        "request is based on."
    )


def test_a_turn_for_a_finished_game_is_a_409_in_english_and_in_polish(api: Api):
    game = api.new_game(players=["Ala"])
    fill_standard_sheet(api, game["id"])
    url = f"{GAMES}/{game['id']}/turns"
    body = {"dice": [1, 1, 1, 1, 1], "field": "ones"}

    english = error(post(api, url, body, ENGLISH), 409)
    polish = error(post(api, url, body, POLISH), 409)

    assert english == {"error": "The game is over: every sheet is full.", "code": "game_finished"}
    assert polish == {
        "error": "Gra jest zakończona: wszystkie tabele są pełne.",
        "code": "game_finished",
    }


def test_another_accounts_game_is_a_404_in_english(app: Flask, api: Api):
    theirs = Api(api.client, account_with_token(app, "Nowakowie")).new_game()

    response = api.client.get(f"{GAMES}/{theirs['id']}", headers={**api.headers, **ENGLISH})
    undo = api.client.delete(
        f"{GAMES}/{theirs['id']}/turns/last", headers={**api.headers, **ENGLISH}
    )

    assert error(response, 404) == {"error": "There is no such game."}
    assert error(undo, 404) == {"error": "There is no such game."}


def test_a_refused_move_keeps_its_code_in_every_language(api: Api):
    game = api.new_game()
    api.turn(game["id"], [1, 1, 1, 2, 3], "ones")
    url = f"{GAMES}/{game['id']}/turns"
    stale = {"dice": [1, 1, 1, 2, 3], "field": "twos", "expected_seq": 1}

    english = error(post(api, url, stale, ENGLISH), 409)
    polish = error(post(api, url, stale, POLISH), 409)

    assert english["code"] == polish["code"] == "already_written"
    assert english["error"] == (
        "This move has already been written (perhaps on another phone). Check the sheet and "
        "play on."
    )
    assert polish["error"].startswith("Ten ruch został już zapisany")


def test_a_refusal_with_a_code_of_the_service_keeps_it_in_english(api: Api):
    body = {"variant": "poker", "players": ["Ala", "Ola"], "hints": True}

    english = error(post(api, GAMES, body, ENGLISH), 400)
    polish = error(post(api, GAMES, body, POLISH), 400)

    assert english == {
        "error": "Hints are only for games with a sheet: in dice poker no field is chosen.",
        "code": "no_hints_in_poker",
    }
    assert polish["code"] == "no_hints_in_poker"
    assert polish["error"].startswith("Podpowiedzi są tylko w grach z tabelą")


def test_an_http_error_of_the_api_is_in_english_too(api: Api):
    response = api.client.get("/api/v1/nothing-here", headers={**api.headers, **ENGLISH})

    assert error(response, 404) == {"error": "No such address or resource."}


def test_the_language_of_one_request_does_not_stick_to_the_next(api: Api):
    game = api.new_game()
    url = f"{GAMES}/{game['id']}/turns"

    first = error(post(api, url, {"field": "ones"}, ENGLISH), 400)
    second = error(post(api, url, {"field": "ones"}), 400)

    assert (first["error"], second["error"]) == ("The dice field is missing.", "Brak pola dice.")


# --- a service's refusal on a page ------------------------------------------------------------


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


def test_a_refusal_flashed_on_a_page_is_in_the_browsers_language(table: Table):
    game_id = table.new_game(["Ala", "Ola"])

    polish = table.post(f"/gry/{game_id}/cofnij", {"seq": "1"}, follow_redirects=True)
    table.client.set_cookie(LANGUAGE_COOKIE, "en")
    english = table.post(f"/gry/{game_id}/cofnij", {"seq": "1"}, follow_redirects=True)
    stale = table.post(f"/gry/{game_id}/cofnij", {"seq": "7"}, follow_redirects=True)

    assert "Nie ma czego cofać: to początek gry." in text_of(polish.get_data(as_text=True))
    assert "There is nothing to undo: this is the start of the game." in text_of(
        english.get_data(as_text=True)
    )
    assert "This turn was already taken back on another phone." in text_of(
        stale.get_data(as_text=True)
    )


def test_a_refused_name_says_why_in_english(table: Table):
    table.client.set_cookie(LANGUAGE_COOKIE, "en")

    new_game = table.post("/gry/nowa", {"variant": "standard", "players-0": "Ala\ue000"})
    table.new_game(["Ala", "Ola"])
    ola = int(re.findall(r'action="/gracze/(\d+)#p\d+"', text_of_page(table, "/gracze"))[-1])
    rename = table.post(f"/gracze/{ola}", {f"p{ola}-name": "ala"})

    assert new_game.status_code == 400
    assert (
        '<p class="error" id="players-0-error">The character U+E000 (private-use character) '
        "cannot be in a name.</p>"
    ) in new_game.get_data(as_text=True)
    assert rename.status_code == 400
    assert f'<p class="error" id="p{ola}-name-error">Another player already has this name.</p>' in (
        rename.get_data(as_text=True)
    )


def text_of_page(table: Table, url: str) -> str:
    response = table.client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_status_without_a_text_of_ours_is_named_in_the_language_of_the_page(
    client: FlaskClient,
):
    range_past_the_end = {"Range": "bytes=999999999-"}

    polish = client.get("/static/css/app.css", headers=range_past_the_end)
    client.set_cookie(LANGUAGE_COOKIE, "en")
    english = client.get("/static/css/app.css", headers=range_past_the_end)

    assert (polish.status_code, english.status_code) == (416, 416)
    assert "<h1>Błąd 416</h1>" in polish.get_data(as_text=True)
    assert "<h1>Error 416</h1>" in english.get_data(as_text=True)
