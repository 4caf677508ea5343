"""Dice poker without a table, as a stored match: the JSON API and the web pages (CSRF on).

Round winners, round wins and explanations are checked against a replay with the rules core
(`tracker.rules.PokerMatch`), never typed in by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tracker.extensions import db
from tracker.models import Account, Game, GameSeat, name_key
from tracker.rules import PokerMatch, PokerOptions, classify, parse_dice
from tracker.services import accounts
from tracker.services import games as game_service

GAMES = "/api/v1/games"
PASSWORD = "tajne hasło 123"


def replay(players: int, hands: Sequence[str], target_wins: int = 3) -> PokerMatch:
    return PokerMatch.replay(
        players, (parse_dice(h) for h in hands), PokerOptions(target_wins=target_wins)
    )


def dice(text: str) -> list[int]:
    return [int(ch) for ch in text]


# --- the API -------------------------------------------------------------------------------


@dataclass
class Api:
    client: FlaskClient
    token: str

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, url: str, body: Any):
        return self.client.post(
            url, data=json.dumps(body), content_type="application/json", headers=self._headers()
        )

    def get(self, url: str):
        return self.client.get(url, headers=self._headers())

    def delete(self, url: str):
        return self.client.delete(url, headers=self._headers())

    def new_match(self, players: Sequence[str], target_wins: int | None = None) -> dict:
        body: dict[str, Any] = {"variant": "poker", "players": list(players)}
        if target_wins is not None:
            body["options"] = {"target_wins": target_wins}
        response = self.post(GAMES, body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def hand(self, game_id: int, hand: str, status: int = 201, **extra: Any) -> dict:
        response = self.post(f"{GAMES}/{game_id}/turns", {"dice": dice(hand), **extra})
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def hands(self, game_id: int, hands: Sequence[str]) -> dict:
        data: dict = {}
        for hand in hands:
            data = self.hand(game_id, hand)
        return data

    def undo(self, game_id: int) -> dict:
        response = self.delete(f"{GAMES}/{game_id}/turns/last")
        assert response.status_code == 200, response.get_json()
        return response.get_json()


def account_with_token(app: Flask, name: str) -> str:
    with app.app_context():
        account = Account(name=name, name_key=name_key(name), password_hash="!")
        db.session.add(account)
        db.session.commit()
        _, plain = accounts.create_token(account.id, "tests")
    return plain


@pytest.fixture
def api(app: Flask, client: FlaskClient) -> Api:
    return Api(client, account_with_token(app, "Kowalscy"))


def round_wins(data: dict) -> dict[str, int]:
    return {p["name"]: p["round_wins"] for p in data["players"]}


def test_a_new_match_is_played_to_three_round_wins_by_default(api: Api):
    data = api.new_match(["Ala", "Ola"])

    assert data["variant"] == "poker"
    assert data["options"] == {"target_wins": 3}
    assert data["finished"] is False
    assert data["current_player"] == "Ala"
    assert data["winners"] == []
    assert data["players"] == [{"name": "Ala", "round_wins": 0}, {"name": "Ola", "round_wins": 0}]
    assert data["rounds"] == []
    listed = api.get(GAMES).get_json()["games"]
    assert [(g["id"], g["variant"]) for g in listed] == [(data["id"], "poker")]


def test_two_equal_hands_draw_the_round_and_nobody_scores(api: Api):
    game_id = api.new_match(["Ala", "Ola"])["id"]

    data = api.hands(game_id, ["22446", "44226"])

    (round_,) = data["rounds"]
    assert round_["winners"] == []
    assert round_["hands"] == [
        {"player": "Ala", "dice": [2, 2, 4, 4, 6], "hand": "two_pairs"},
        {"player": "Ola", "dice": [4, 4, 2, 2, 6], "hand": "two_pairs"},
    ]
    assert round_wins(data) == {"Ala": 0, "Ola": 0}
    assert data["current_player"] == "Ala"
    assert data["finished"] is False


def test_the_round_wins_kept_for_lists_follow_every_round_whoever_writes_its_last_hand(
    app: Flask, api: Api
):
    """A round won by a player who did not write its last hand: the round wins cached on the
    seats (the history list, statistics) must follow it at once, not when the match ends."""
    game_id = api.new_match(["Dziadek", "Wnuczek"])["id"]
    rounds = [("66655", "66655"), ("12345", "23456"), ("11111", "11112")]

    for number, hands in enumerate(rounds, start=1):
        data = api.hands(game_id, hands)
        with app.app_context():
            cached = (
                db.session.execute(
                    select(GameSeat.total)
                    .where(GameSeat.game_id == game_id)
                    .order_by(GameSeat.seat)
                )
                .scalars()
                .all()
            )
        assert cached == [p["round_wins"] for p in data["players"]], f"after round {number}"

    assert round_wins(data) == {"Dziadek": 1, "Wnuczek": 1}


def test_a_three_player_round_goes_to_the_single_best_hand(api: Api):
    game_id = api.new_match(["Ala", "Ola", "Ela"])["id"]
    hands = ["33345", "12345", "66225"]
    match = replay(3, hands)
    (decided,) = match.rounds
    assert decided.winners is not None
    assert len(decided.winners) == 1

    after_two = api.hands(game_id, hands[:2])
    assert after_two["rounds"][0]["winners"] is None  # open until everyone has entered
    assert after_two["current_player"] == "Ela"
    data = api.hand(game_id, hands[2])

    names = ["Ala", "Ola", "Ela"]
    (round_,) = data["rounds"]
    assert round_["winners"] == [names[s] for s in decided.winners]
    assert [h["hand"] for h in round_["hands"]] == [classify(parse_dice(h)).hand.id for h in hands]
    assert round_wins(data) == dict(zip(names, match.round_wins, strict=True))
    assert data["current_player"] == "Ala"


def test_two_equal_best_hands_of_three_draw_the_round(api: Api):
    game_id = api.new_match(["Ala", "Ola", "Ela"])["id"]
    hands = ["55522", "12345", "25255"]  # two equal full houses beat the straight: a draw
    assert replay(3, hands).rounds[0].winners == ()

    data = api.hands(game_id, hands)

    assert data["rounds"][0]["winners"] == []
    assert round_wins(data) == {"Ala": 0, "Ola": 0, "Ela": 0}


def test_undo_across_the_end_of_a_round_undoes_its_result(api: Api):
    game_id = api.new_match(["Ala", "Ola"])["id"]
    decided = api.hands(game_id, ["66666", "12346"])
    assert decided["rounds"][0]["winners"] == ["Ala"]
    assert round_wins(decided) == {"Ala": 1, "Ola": 0}

    data = api.undo(game_id)

    (round_,) = data["rounds"]
    assert round_["winners"] is None
    assert [h["player"] for h in round_["hands"]] == ["Ala"]
    assert round_wins(data) == {"Ala": 0, "Ola": 0}
    assert data["current_player"] == "Ola"
    # Ola's real hand: the round is decided again, the other way.
    again = api.hand(game_id, "66666")
    assert again["rounds"][0]["winners"] == []
    assert round_wins(again) == {"Ala": 0, "Ola": 0}


def test_the_match_ends_at_the_target_and_refuses_more_hands(api: Api):
    game_id = api.new_match(["Ala", "Ola"], target_wins=2)["id"]
    hands = ["66666", "12346", "11223", "44441", "55552", "33332"]
    match = replay(2, hands, target_wins=2)
    assert match.finished

    data = api.hands(game_id, hands)

    assert data["finished"] is True
    assert data["winners"] == [["Ala", "Ola"][match.winner or 0]]
    assert data["current_player"] is None
    assert round_wins(data) == dict(zip(["Ala", "Ola"], match.round_wins, strict=True))
    assert [r["winners"] for r in data["rounds"]] == [
        [["Ala", "Ola"][s] for s in r.winners or ()] for r in match.rounds
    ]
    assert "zakończony" in api.hand(game_id, "12345", status=409)["error"]
    api.hand(game_id, "12345", status=409, player="Ala")
    assert len(api.get(f"{GAMES}/{game_id}").get_json()["rounds"]) == 3
    # Undo reopens the match.
    reopened = api.undo(game_id)
    assert reopened["finished"] is False
    assert reopened["winners"] == []
    assert reopened["current_player"] == "Ola"


def test_a_hand_for_a_player_who_is_not_up_is_refused(api: Api):
    game_id = api.new_match(["Ala", "Ola"])["id"]

    error = api.hand(game_id, "12345", status=409, player="Ola")["error"]

    assert "Ala" in error
    assert api.hand(game_id, "12345", player="ala")["current_player"] == "Ola"


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"variant": "poker", "players": ["Ala"]}, id="one player"),
        pytest.param({"variant": "poker", "players": [f"G{i}" for i in range(9)]}, id="nine"),
        pytest.param(
            {"variant": "poker", "players": ["Ala", "Ola"], "options": {"target_wins": 0}},
            id="target 0",
        ),
        pytest.param(
            {"variant": "poker", "players": ["Ala", "Ola"], "options": {"target_wins": 10}},
            id="target 10",
        ),
        pytest.param(
            {"variant": "poker", "players": ["Ala", "Ola"], "options": {"target_wins": "3"}},
            id="target a string",
        ),
        pytest.param(
            {"variant": "poker", "players": ["Ala", "Ola"], "options": {"bonus_threshold": 42}},
            id="a table option",
        ),
    ],
)
def test_a_bad_new_match_is_400_with_a_polish_message(api: Api, app: Flask, body: dict):
    response = api.post(GAMES, body)

    assert response.status_code == 400
    assert response.get_json()["error"].strip()
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_a_poker_hand_with_a_table_field_is_400_and_nothing_is_written(api: Api):
    game_id = api.new_match(["Ala", "Ola"])["id"]

    response = api.post(f"{GAMES}/{game_id}/turns", {"dice": [6, 6, 6, 6, 6], "field": "chance"})

    assert response.status_code == 400
    assert "tylko kości" in response.get_json()["error"]
    assert api.get(f"{GAMES}/{game_id}").get_json()["rounds"] == []


@pytest.mark.parametrize("bad", [[1, 2, 3, 4], [1, 2, 3, 4, 7], "12345"], ids=str)
def test_bad_dice_are_400(api: Api, bad: Any):
    game_id = api.new_match(["Ala", "Ola"])["id"]

    response = api.post(f"{GAMES}/{game_id}/turns", {"dice": bad})

    assert response.status_code == 400
    assert api.get(f"{GAMES}/{game_id}").get_json()["rounds"] == []


# --- the web pages -------------------------------------------------------------------------


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def csrf(client: FlaskClient, url: str = "/zasady") -> str:
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', client.get(url).text)
    assert found
    return found.group(1)


def sign_up(client: FlaskClient, name: str) -> None:
    token = csrf(client, "/rejestracja")
    response = client.post(
        "/rejestracja",
        data={"csrf_token": token, "name": name, "password": PASSWORD, "confirm": PASSWORD},
    )
    assert response.status_code == 302


@dataclass
class Table:
    app: Flask
    client: FlaskClient
    name: str

    def post(self, url: str, data: dict | None = None):
        return self.client.post(url, data={"csrf_token": csrf(self.client), **(data or {})})

    def page(self, url: str) -> str:
        response = self.client.get(url)
        assert response.status_code == 200
        return response.text

    def new_match(self, names: Sequence[str], target_wins: str = "3", **extra: str) -> int:
        data = {
            "variant": "poker",
            "target_wins": target_wins,
            **{f"players-{i}": n for i, n in enumerate(names)},
            **extra,
        }
        response = self.post("/gry/nowa", data)
        assert response.status_code == 303, text_of(response.text)
        return int(response.headers["Location"].rsplit("/", 1)[1])

    def view(self, game_id: int) -> game_service.GameView:
        with self.app.app_context():
            account_id = db.session.query(Account.id).filter(Account.name == self.name).scalar()
            view = game_service.load(account_id, game_id)
            assert view.is_poker
            _ = view.names  # loaded before the session closes
            return view

    def hand(self, game_id: int, hand: str, **extra: Any):
        seq = extra.pop("seq", None) or self.view(game_id).next_seq
        return self.post(f"/gry/{game_id}/ruch", {"dice": hand, "seq": seq, **extra})

    def hands(self, game_id: int, hands: Sequence[str]) -> None:
        for hand in hands:
            assert self.hand(game_id, hand).status_code == 303


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    sign_up(client, "Kowalscy")
    return Table(app, client, "Kowalscy")


def test_the_new_game_form_offers_poker_with_the_round_wins_to_play_to(table: Table):
    html = table.page("/gry/nowa")

    assert "Do ilu wygranych rund" in html
    assert 'name="target_wins" value="3" checked' in html
    assert html.count('name="target_wins"') == 9

    game_id = table.new_match(["Ala", "Ola", "Ela"], target_wins="2")

    view = table.view(game_id)
    assert view.names == ["Ala", "Ola", "Ela"]
    assert view.options.target_wins == 2
    page = text_of(table.page(f"/gry/{game_id}"))
    assert "Runda 1 · gracie do 2 wygranych" in page


@pytest.mark.parametrize(
    ("data", "error_id", "message"),
    [
        pytest.param(
            {"players-0": "Ala", "players-1": ""},
            "players-error",
            "W pokera gra się co najmniej we dwoje: wpisz imiona dwóch graczy.",
            id="one-player",
        ),
        pytest.param(
            {"players-0": "Ala", "players-1": "Ola", "target_wins": "10"},
            "target-wins-error",
            "Wybierz, do ilu wygranych rund gracie: od 1 do 9.",
            id="target-10",
        ),
        pytest.param(
            {"players-0": "Ala", "players-1": "Ola", "target_wins": ""},
            "target-wins-error",
            "Wybierz, do ilu wygranych rund gracie: od 1 do 9.",
            id="no-target",
        ),
    ],
)
def test_new_match_errors_are_shown_next_to_the_field_and_nothing_is_lost(
    table: Table, data: dict, error_id: str, message: str
):
    response = table.post("/gry/nowa", {"variant": "poker", "target_wins": "3", **data})

    assert response.status_code == 400
    html = response.text
    assert f'<p class="error" id="{error_id}">{message}</p>' in html
    assert re.search(rf'aria-describedby="[^"]*\b{error_id}\b', html)
    assert 'value="poker" id="variant-poker" checked' in html
    assert 'value="Ala"' in html
    with table.app.app_context():
        assert db.session.query(Game).count() == 0


def test_a_round_through_the_form_names_every_hand_and_the_winner(table: Table):
    game_id = table.new_match(["Ala", "Ola", "Ela"])
    hands = ["55522", "12346", "44461"]
    match = replay(3, hands)
    decided = match.rounds[0]

    first = table.page(f"/gry/{game_id}")
    assert '<h1 class="turn-name">Ala</h1>' in first
    assert "Runda 1 · gracie do 3 wygranych" in text_of(first)
    assert "data-write" not in first  # no dice, nothing to write yet
    preview = table.page(f"/gry/{game_id}?dice=55522&seq=1")
    assert "data-hand-label>Ful</strong>" in preview
    assert 'name="dice" value="55522"' in preview
    assert "Zapisz układ" in preview

    response = table.hand(game_id, "55522")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/gry/{game_id}"
    page = text_of(table.page(f"/gry/{game_id}"))
    assert "Zapisano: Ala – Ful 5-5-5-2-2 Cofnij" in page  # the message carries its undo
    assert "Runda 1: wpisane układy" in page
    assert "Ala Ful 5 5 5 2 2" in page

    table.hands(game_id, hands[1:])
    html = table.page(f"/gry/{game_id}")
    page = text_of(html)
    names = ["Ala", "Ola", "Ela"]
    assert decided.winners is not None
    assert f"Rundę wygrywa {names[decided.winners[0]]}" in page
    assert decided.explanation in page
    assert "Runda 2 · gracie do 3 wygranych" in page
    assert '<h1 class="turn-name">Ala</h1>' in html
    assert "Zapisano" not in page  # the round's result says it all
    # A reload (or another phone) shows the same result: it comes from the stored hands.
    assert decided.explanation in text_of(table.page(f"/gry/{game_id}"))
    view = table.view(game_id)
    assert view.match.round_wins == match.round_wins


def test_a_drawn_round_says_so(table: Table):
    game_id = table.new_match(["Ala", "Ola"])

    table.hands(game_id, ["22446", "44226"])

    page = text_of(table.page(f"/gry/{game_id}"))
    assert "Remis – nikt nie wygrywa rundy" in page
    assert replay(2, ["22446", "44226"]).rounds[0].explanation in page


def test_the_fragment_is_the_hand_alone(table: Table):
    game_id = table.new_match(["Ala", "Ola"])

    response = table.client.get(f"/gry/{game_id}?dice=12345&fragment=fields&seq=1")

    assert response.status_code == 200
    assert "<html" not in response.text
    assert "data-hand-label>Strit</strong>" in response.text


def test_bad_dice_are_explained_next_to_the_input_and_kept(table: Table):
    game_id = table.new_match(["Ala", "Ola"])

    response = table.hand(game_id, "1237")

    assert response.status_code == 400
    assert '<p class="error" id="dice-error">' in response.text
    assert 'value="1237"' in response.text
    assert table.view(game_id).turns == []
    shown = table.page(f"/gry/{game_id}?dice=1234&seq=1")
    assert "Potrzeba dokładnie pięciu kości, podano 4." in shown


def test_a_broken_or_table_form_is_a_bad_request(table: Table):
    game_id = table.new_match(["Ala", "Ola"])

    assert table.post(f"/gry/{game_id}/ruch", {"dice": "12345"}).status_code == 400
    with_field = table.hand(game_id, "12345", field="chance")

    assert with_field.status_code == 400
    assert table.view(game_id).turns == []


def test_a_stale_phone_cannot_write_a_hand_twice(table: Table):
    game_id = table.new_match(["Ala", "Ola"])
    table.hand(game_id, "12345")

    retried = table.hand(game_id, "12345", seq=1)  # the same hand again: written once
    other = table.hand(game_id, "66666", seq=1)  # another hand for that turn: refused

    assert retried.status_code == 303
    assert other.status_code == 303
    assert "Na innym telefonie zapisano już: Ala" in text_of(table.page(f"/gry/{game_id}"))
    assert len(table.view(game_id).turns) == 1


def test_a_stale_phone_is_told_to_check_its_hand_not_a_field(table: Table):
    """A match has no fields: the phone another phone overtook is asked to check its dice
    before it writes the hand, never before it „chooses a field”."""
    game_id = table.new_match(["Ala", "Ola"])
    table.hand(game_id, "12345")

    table.hand(game_id, "66666", seq=1)  # a second phone, still on Ala's turn
    overtaken = text_of(table.page(f"/gry/{game_id}"))

    assert "Teraz kolej: Ola. Twoje kości zostały" in overtaken
    assert "zanim zapiszesz układ." in overtaken
    assert "wybierzesz pole" not in overtaken


def test_the_hand_in_a_stale_phones_message_is_not_broken_across_lines(table: Table):
    """At 360 px the sentence wraps; the roll in it must not (a line ending „5-5-” reads as
    another roll). Its text stays as it is."""
    game_id = table.new_match(["Ala", "Ola"])
    table.hand(game_id, "55533")

    table.hand(game_id, "66666", seq=1)
    flash = re.search(r'<p class="flash flash-error">(.*?)</p>', table.page(f"/gry/{game_id}"))

    assert flash is not None
    assert '<span class="nowrap">5-5-5-3-3</span>' in flash[1]
    assert re.sub(r"<[^>]+>", "", flash[1]).startswith(
        "Na innym telefonie zapisano już: Ala – Ful 5-5-5-3-3. Teraz kolej: Ola."
    )


def test_a_stale_phone_after_an_undo_is_told_to_check_its_hand_not_a_field(table: Table):
    game_id = table.new_match(["Ala", "Ola"])
    table.hand(game_id, "12345")
    assert table.post(f"/gry/{game_id}/cofnij", {"seq": "2"}).status_code == 303
    table.page(f"/gry/{game_id}")  # the undo's own message, shown

    response = table.client.get(f"/gry/{game_id}?dice=66666&fragment=fields&seq=2")

    assert response.status_code == 409
    taken_back = text_of(table.page(response.headers["Content-Location"]))
    assert "Na innym telefonie cofnięto ruch. Teraz kolej: Ala." in taken_back
    assert "zanim zapiszesz układ." in taken_back
    assert "wybierzesz pole" not in taken_back


def test_a_hand_whose_answer_was_lost_stands_written_when_the_screen_catches_up(table: Table):
    """The phone typed 12345 for hand 1 and its write's answer was lost; its screen, redrawn,
    asks for hand 1 with those dice: the hand stands written, nothing is carried to Ola."""
    game_id = table.new_match(["Ala", "Ola"])
    table.hand(game_id, "12345")

    response = table.client.get(f"/gry/{game_id}?dice=54321&fragment=fields&seq=1")

    assert response.status_code == 409
    assert response.headers["Content-Location"] == f"/gry/{game_id}"
    html = text_of(table.page(f"/gry/{game_id}"))
    assert html.count("Zapisano: Ala – Strit 1-2-3-4-5") == 1
    assert "Na innym telefonie zapisano" not in html


def test_a_hand_sent_again_before_the_page_is_shown_says_zapisano_once(table: Table):
    """The first answer was lost after its cookie had arrived: the phone sends the same hand
    again, which finds it written. One „Zapisano”, with one undo."""
    game_id = table.new_match(["Ala", "Ola"])
    hand = {"csrf_token": csrf(table.client), "seq": 1, "dice": "12345"}  # no page between

    assert table.client.post(f"/gry/{game_id}/ruch", data=hand).status_code == 303
    assert table.client.post(f"/gry/{game_id}/ruch", data=hand).status_code == 303

    html = table.page(f"/gry/{game_id}")
    assert text_of(html).count("Zapisano: Ala – Strit 1-2-3-4-5") == 1
    assert html.count("data-undo-written") == 1
    assert len(table.view(game_id).turns) == 1


def test_undo_across_a_round_takes_back_the_hand_and_the_result(table: Table):
    game_id = table.new_match(["Ala", "Ola"])
    table.hands(game_id, ["66666", "12346"])
    html = table.page(f"/gry/{game_id}")
    assert "Cofnij ostatni układ" in html
    assert "Ola – Nic (żaden układ) 6-4-3-2-1 · i wynik rundy 1" in text_of(html)

    response = table.post(f"/gry/{game_id}/cofnij", {"seq": "3"})

    assert response.status_code == 303
    assert response.headers["Location"] == f"/gry/{game_id}?dice=12346&seq=2"
    page = text_of(table.page(response.headers["Location"]))
    assert "Cofnięto: Ola – Nic (żaden układ) 6-4-3-2-1 i wynik rundy 1." in page
    assert "Rundę wygrywa" not in page
    assert "Zapisz układ" in page  # the dice stay: one tap to write them again
    view = table.view(game_id)
    assert view.current_name == "Ola"
    assert view.match.round_wins == [0, 0]
    assert view.match.rounds[0].winners is None


def test_the_history_lists_rounds_and_strikes_through_undone_hands(table: Table):
    game_id = table.new_match(["Ala", "Ola"])
    table.hands(game_id, ["66666", "12346"])
    table.post(f"/gry/{game_id}/cofnij", {"seq": "3"})
    table.hands(game_id, ["66665", "11111"])

    html = table.page(f"/gry/{game_id}/tabela")

    page = text_of(html)
    assert "Przebieg meczu" in page
    assert "Runda 2 – w toku" in page
    assert "Jeszcze nie wpisali: Ola." in page
    assert replay(2, ["66666", "66665"]).rounds[0].explanation in page
    struck = re.findall(r"<s>(.*?)</s>", html)
    assert [text_of(s).strip() for s in struck] == ["Ola – Nic (żaden układ) 6-4-3-2-1"]
    assert page.count("cofnięty") == 1


def test_the_history_says_when_the_match_started_and_when_it_ended(table: Table):
    """As a table game's sheet does: a match reviewed months later says when it was played."""
    game_id = table.new_match(["Ala", "Ola"], target_wins="1")

    playing = text_of(table.page(f"/gry/{game_id}/tabela"))
    table.hands(game_id, ["66666", "12346"])
    over = text_of(table.page(f"/gry/{game_id}/tabela"))

    assert re.search(r"zaczęty dziś \d\d:\d\d · runda 1, teraz Ala", playing)
    assert "zakończony" not in playing
    assert re.search(r"zaczęty dziś \d\d:\d\d · zakończony dziś \d\d:\d\d · mecz wygrywa Ala", over)


def test_the_end_shows_the_winner_the_rounds_and_a_rematch(table: Table):
    game_id = table.new_match(["Ala", "Ola", "Ela"], target_wins="2")
    hands = ["66666", "12346", "11223", "33345", "55552", "22213", "44441", "11111", "66543"]
    match = replay(3, hands, target_wins=2)
    assert match.finished
    names = ["Ala", "Ola", "Ela"]

    table.hands(game_id, hands)

    html = table.page(f"/gry/{game_id}")
    page = text_of(html)
    score = ":".join(str(w) for w in sorted(match.round_wins, reverse=True))
    assert f"Mecz wygrywa {names[match.winner or 0]} {score}" in page
    for round_ in match.rounds:
        assert f"Runda {round_.number}" in page
        assert round_.explanation in page
    assert "Cofnij ostatni układ" in page
    assert "Rewanż" in page

    response = table.post(f"/gry/{game_id}/rewanz")
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    rematch = table.view(new_id)
    assert rematch.names == ["Ola", "Ela", "Ala"]
    assert rematch.options.target_wins == 2
    assert "Rewanż! Zaczyna Ola." in table.page(f"/gry/{new_id}")


def test_undo_after_the_end_reopens_the_match(table: Table):
    game_id = table.new_match(["Ala", "Ola"], target_wins="1")
    table.hands(game_id, ["66666", "12346"])
    assert "Mecz wygrywa Ala 1:0" in text_of(table.page(f"/gry/{game_id}"))

    table.post(f"/gry/{game_id}/cofnij", {"seq": "3"})

    html = table.page(f"/gry/{game_id}")
    assert '<h1 class="turn-name">Ola</h1>' in html
    assert not table.view(game_id).finished


def test_home_lists_the_match_and_it_can_be_deleted(table: Table):
    game_id = table.new_match(["Ala", "Ola"])
    table.hands(game_id, ["66666", "12346", "12345"])

    home = text_of(table.page("/"))
    assert "Poker kościany bez tabeli · runda 2" in home
    confirm = text_of(table.page(f"/gry/{game_id}/usun"))
    assert "Poker kościany bez tabeli · runda 2" in confirm

    assert table.post(f"/gry/{game_id}/usun").status_code == 303
    assert "Usunięto grę: Poker kościany bez tabeli (Ala i Ola)." in table.page("/")


def test_another_account_cannot_see_or_play_the_match(table: Table, app: Flask):
    game_id = table.new_match(["Ala", "Ola"])
    other = app.test_client()
    sign_up(other, "Nowakowie")
    token = csrf(other)

    for url in (f"/gry/{game_id}", f"/gry/{game_id}/tabela", f"/gry/{game_id}/usun"):
        assert other.get(url).status_code == 404
    for url, data in (
        (f"/gry/{game_id}/ruch", {"dice": "66666", "seq": "1"}),
        (f"/gry/{game_id}/cofnij", {"seq": "1"}),
        (f"/gry/{game_id}/rewanz", {}),
    ):
        assert other.post(url, data={"csrf_token": token, **data}).status_code == 404
    assert table.view(game_id).turns == []
