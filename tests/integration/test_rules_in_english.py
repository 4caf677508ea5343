"""The rules' texts in English (tracker/rules_text.py): the rules API answers in the language of
`Accept-Language`, the referee and the rules page in the browser's language; codes and ids stay."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tracker.i18n import LANGUAGE_COOKIE

pytestmark = [
    pytest.mark.shared_app,
    pytest.mark.one_backend("the rules' texts in English: stateless"),
]

SCORE = "/api/v1/score"
ENGLISH = {"Accept-Language": "en"}


def score(client: FlaskClient, headers: dict[str, str] | None = None, **body):
    response = client.post(SCORE, json=body, headers=headers or {})
    return response.status_code, response.get_json()


def test_the_rules_api_gives_labels_reasons_and_notes_in_english(client: FlaskClient):
    status, data = score(
        client,
        ENGLISH,
        variant="standard",
        dice=[6, 6, 6, 6, 6],
        sheet={"five_of_a_kind": 50, "sixes": 30, "full_house": 25},
    )

    assert status == 200
    moves = {m["field"]: m for m in data["moves"]}
    refused = {r["field"]: r for r in data["refused"]}
    assert moves["large_straight"]["label"] == "Large straight"
    assert moves["large_straight"]["note"] == "Joker: large straight counts 40."
    assert refused["ones"]["label"] == "Ones"
    assert refused["ones"]["reason"].startswith("A joker must go to a free lower field")
    assert data["notes"][0].startswith("+100: another Generał")


def test_the_rules_api_speaks_polish_without_accept_language(client: FlaskClient):
    _, data = score(client, variant="standard", dice=[1, 2, 3, 4, 6])
    moves = {m["field"]: m for m in data["moves"]}

    assert moves["full_house"]["label"] == "Ful"
    assert moves["full_house"]["note"] == "Rzut tu nie pasuje: skreślasz pole (0)."


def test_a_rules_error_is_english_and_keeps_its_code(client: FlaskClient):
    response = client.post(
        SCORE, json={"variant": "nope", "dice": [1, 2, 3, 4, 5]}, headers=ENGLISH
    )

    assert response.status_code == 400
    assert response.get_json()["code"] == "unknown_variant"
    assert response.get_json()["error"].startswith("Unknown variant 'nope'. Known variants:")


def test_a_bad_poker_hand_is_named_in_english(client: FlaskClient):
    response = client.post(
        "/api/v1/poker/rank", json={"hands": [[1, 2, 3, 4, 5], [1, 2, 3]]}, headers=ENGLISH
    )

    assert response.get_json()["error"] == "Hand 2: Exactly five dice are needed (given: 3)."


def test_the_poker_ranking_explains_in_english(client: FlaskClient):
    response = client.post(
        "/api/v1/poker/rank", json={"hands": [[5, 5, 5, 2, 2], [4, 4, 4, 6, 6]]}, headers=ENGLISH
    )
    data = response.get_json()

    assert [h["label"] for h in data["hands"]] == ["Full house", "Full house"]
    assert [h["hand"] for h in data["hands"]] == ["full_house", "full_house"]
    assert data["explanation"] == (
        "5-5-5-2-2 beats 4-4-4-6-6: full house on both sides, so the three of a kind "
        "decides: fives are higher than fours."
    )


def in_english(client: FlaskClient) -> FlaskClient:
    client.set_cookie(LANGUAGE_COOKIE, "en")
    return client


def test_the_referee_page_shows_reasons_notes_and_labels_in_english(client: FlaskClient):
    page = (
        in_english(client)
        .get("/sedzia?variant=standard&dice=22333&c0_full_house=25&c0_ones=3")
        .get_data(as_text=True)
    )

    assert '<h1 class="arbiter-title">Referee</h1>' in page
    assert '<label for="c0_full_house">Full house</label>' in page
    assert '<span class="move-label">Three of a kind</span>' in page
    assert "Kości (Polish sheet)" in page
    assert "Rzut tu nie pasuje" not in page
    assert "Pola już wypełnione" not in page


def test_the_referee_page_refusal_is_english(client: FlaskClient):
    page = in_english(client).get("/sedzia?variant=ordered&dice=66666").get_data(as_text=True)

    assert "In order: now you write in Ones." in page
    assert 'data-field="twos"' in page  # the fields' ids stay


def test_the_rules_page_in_english_explains_the_general_once(client: FlaskClient):
    page = in_english(client).get("/zasady").get_data(as_text=True)

    assert "<h1>Rules</h1>" in page
    assert page.count("the game’s own word for five of a kind") == 1
    assert '<th scope="row">Full house</th>' in page
    assert '<th scope="row">Generał</th>' in page
    assert "5\u20115\u20115\u20112\u20112 beats 4\u20114\u20114\u20116\u20116" in page
    assert "Dice poker (no sheet)" in page
    assert "Ful</th>" not in page


@pytest.mark.parametrize("url", ["/zasady", "/sedzia?variant=ordered"])
def test_the_variant_in_order_is_never_in_in_order(client: FlaskClient, url: str):
    """The English name of Gra po kolei is "In order": no sentence says "In In order"."""
    page = in_english(client).get(url).get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))

    assert "In order" in text
    assert not re.search(r"\b[Ii]n In order", text), re.findall(r".{60}\b[Ii]n In order.{40}", text)


def test_the_rules_page_in_english_gives_each_variants_players(client: FlaskClient):
    page = in_english(client).get("/zasady").get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))

    assert (
        "Kości (Polish sheet), In order, Scandinavian sheet, and Triple Kości – 1 to 8 players"
    ) in text
    assert "Dice poker (no sheet) – 2 to 8 players" in text
