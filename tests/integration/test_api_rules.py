"""The rules JSON API: /api/v1/score and /api/v1/poker/rank over HTTP: the shape of the answers,
the keys of a request body, and bad input answered 400 (or 415) with a message, never 500.

The rules behind them (every refusal of bad dice, sheets and options, the decisions of
the settled rules, the totals, the poker ranking) are tested case by case without HTTP in
tests/unit/test_score_decisions.py; here one case of each kind goes through the endpoint."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

# These endpoints write nothing: one app for the module.
pytestmark = [pytest.mark.shared_app, pytest.mark.one_backend("the rules endpoints: stateless")]

SCORE = "/api/v1/score"
RANK = "/api/v1/poker/rank"
ADVICE = "/api/v1/advice"

SIXES = [6, 6, 6, 6, 6]
EXAMPLE_REQUEST = {
    "variant": "triple",
    "dice": [6, 6, 6, 6, 6],
    "sheet": [{"five_of_a_kind": 50, "sixes": 24}, {}, {}],
    "options": {"bonus_threshold": 42},
}


def post_score(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post(SCORE, json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def moves_by_field(data: dict[str, Any], column: int = 0) -> dict[str, dict[str, Any]]:
    return {m["field"]: m for m in data["moves"] if m["column"] == column}


def refused_by_field(data: dict[str, Any], column: int = 0) -> dict[str, dict[str, Any]]:
    return {r["field"]: r for r in data["refused"] if r["column"] == column}


def post_json(client: FlaskClient, url: str, body: Any):
    """POST `body` as JSON, even `None` (the test client's `json=None` sends no body at all)."""
    return client.post(url, data=json.dumps(body), content_type="application/json")


def assert_json_error(response) -> str:
    assert response.status_code == 400
    assert response.is_json
    message = response.get_json()["error"]
    assert isinstance(message, str)
    assert message.strip()
    return message


# --- /score: bad input ---------------------------------------------------------------------

DICE = [1, 2, 3, 4, 5]

# What the endpoint itself reads (the body, its keys, dice as a JSON list), and one case of each
# kind of refusal by the rules: their other cases are in tests/unit/test_score_decisions.py.
BAD_SCORE_BODIES = [
    pytest.param([1, 2, 3], id="body is a JSON array, not an object"),
    pytest.param("standard", id="body is a JSON string"),
    pytest.param(None, id="body is JSON null"),
    pytest.param({"dice": DICE}, id="variant missing"),
    pytest.param({"variant": "standard"}, id="dice missing"),
    pytest.param({"variant": "standard", "dice": None}, id="dice null"),
    pytest.param({"variant": "standard", "dice": "66666"}, id="dice as a string of digits"),
    pytest.param({"variant": "standard", "dice": 66666}, id="dice as a number"),
    pytest.param({"variant": "standard", "dice": {"0": 6}}, id="dice as an object"),
    pytest.param(
        {"variant": "standard", "dice": DICE, "option": {"bonus_threshold": 42}},
        id="unknown key in the body (a typo)",
    ),
    pytest.param({"variant": "standard", "dice": [1, 2, 3, 4]}, id="four dice"),
    pytest.param({"variant": "yahtzee", "dice": DICE}, id="unknown variant"),
    pytest.param({"variant": "poker", "dice": DICE}, id="poker has no table"),
    pytest.param({"variant": "standard", "dice": DICE, "sheet": {"bogus": 3}}, id="unknown field"),
    pytest.param(
        {"variant": "ordered", "dice": DICE, "sheet": {"ones": 3, "threes": 9}},
        id="ordered sheet with a gap",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"five_of_a_kind": 0, "extra_bonus": 100}},
        id="extra bonus with Generał 0",
    ),
    pytest.param(
        {"variant": "ordered", "dice": DICE, "options": {"bonus_threshold": 50}},
        id="bonus threshold 50",
    ),
]


@pytest.mark.parametrize("body", BAD_SCORE_BODIES)
def test_score_refuses_bad_input_with_a_message(client: FlaskClient, body: Any):
    assert_json_error(post_json(client, SCORE, body))


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "standard", "dice": [1, 2, 3, 4]}, "bad_dice"),
        ({"variant": "standard", "dice": 66666}, "bad_dice"),
        ({"variant": "standard", "dice": [0, 1, 2, 3, 4]}, "bad_dice"),
        ({"variant": "yahtzee", "dice": DICE}, "unknown_variant"),
        ({"variant": "poker", "dice": DICE}, "no_table_in_poker"),
        ({"variant": "standard", "dice": DICE, "sheet": {"bogus": 3}}, "bad_sheet"),
        ({"variant": "ordered", "dice": DICE, "sheet": {"ones": 3, "threes": 9}}, "bad_sheet"),
        ({"variant": "triple", "dice": DICE, "sheet": [{}, {}]}, "bad_sheet"),
        ({"variant": "ordered", "dice": DICE, "options": {"bonus_threshold": 50}}, "bad_options"),
        ({"variant": "standard", "dice": DICE, "options": [63]}, "bad_options"),
    ],
)
def test_score_says_what_is_wrong_with_a_code_too(client: FlaskClient, body: Any, code: str):
    """A client decides on the code, never on the Polish sentence (which may be reworded)."""
    response = post_json(client, SCORE, body)
    assert_json_error(response)
    assert response.get_json()["code"] == code


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param('{"variant": "standard", "dice": [1,2,3,4,5]', id="malformed JSON"),
        pytest.param("", id="empty body"),
        pytest.param("{'variant': 'standard'}", id="single quotes are not JSON"),
        pytest.param(b"\xff\xfe{}", id="not UTF-8"),
        pytest.param("[" * 100_000, id="nested too deeply"),
    ],
)
@pytest.mark.parametrize("url", [SCORE, RANK])
def test_malformed_json_is_a_400_with_a_message(client: FlaskClient, url: str, raw: str):
    assert_json_error(client.post(url, data=raw, content_type="application/json"))


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param('{"\\ud800": 1}', id="an unknown key"),
        pytest.param('{"variant": "standard\\udfff", "dice": [1, 2, 3, 4, 5]}', id="a value"),
        pytest.param('{"variant": "standard", "options": {"a\\udc00": 1}}', id="an option"),
        pytest.param('{"hands": [[1, 2, 3, 4, 5]], "x": ["\\ud83d"]}', id="in a list"),
    ],
)
@pytest.mark.parametrize("url", [SCORE, ADVICE, RANK])
def test_half_of_a_utf16_pair_is_a_400_not_a_crash(client: FlaskClient, url: str, raw: str):
    """JSON may spell half of a UTF-16 pair alone (\\ud800); Python reads it, but no answer
    quoting it back can be encoded. The body is refused as not JSON text, and says where."""
    message = assert_json_error(client.post(url, data=raw, content_type="application/json"))
    assert message.startswith("Treść żądania nie jest poprawnym JSON-em (")
    assert "połowę pary znaków UTF-16" in message


def test_a_whole_utf16_pair_is_text(client: FlaskClient):
    """An emoji spelled as its pair (\\ud83c\\udfb2) is one character, and quoted back."""
    raw = '{"variant": "\\ud83c\\udfb2", "dice": [1, 2, 3, 4, 5]}'
    message = assert_json_error(client.post(SCORE, data=raw, content_type="application/json"))
    assert "🎲" in message


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "Application/JSON"],
)
def test_a_json_body_is_read_whatever_the_spelling_of_its_content_type(
    client: FlaskClient, content_type: str
):
    body = json.dumps({"variant": "standard", "dice": [6, 6, 6, 6, 6]}, ensure_ascii=False)
    response = client.post(SCORE, data=body.encode(), content_type=content_type)

    assert response.status_code == 200
    assert moves_by_field(response.get_json())["five_of_a_kind"]["points"] == 50


@pytest.mark.parametrize("url", [SCORE, RANK])
def test_a_body_that_is_not_json_is_refused_as_unsupported(client: FlaskClient, url: str):
    response = client.post(url, data={"variant": "standard"})

    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]


@pytest.mark.parametrize("url", [SCORE, RANK])
def test_get_is_not_allowed(client: FlaskClient, url: str):
    response = client.get(url)

    assert response.status_code == 405
    assert response.get_json()["error"]


def test_missing_key_is_named_in_the_message(client: FlaskClient):
    message = assert_json_error(client.post(SCORE, json={"variant": "standard"}))

    assert "dice" in message


def test_wrong_field_value_names_the_field(client: FlaskClient):
    body = {"variant": "standard", "dice": DICE, "sheet": {"sixes": 7}}

    message = assert_json_error(post_json(client, SCORE, body))

    assert "Szóstki" in message


# --- /score: the example and the shape of the answer ---------------------------------------


def test_example_request_answers_every_move_of_every_column(client: FlaskClient):
    data = post_score(client, **EXAMPLE_REQUEST)

    assert data["variant"] == "triple"
    assert data["dice"] == SIXES
    # 42 applies only to Gra po kolei: the answer reports the options in force.
    assert data["options"] == {"bonus_threshold": 63}
    assert data["joker"] is False  # Generał and Szóstki are free in columns 2 and 3
    assert data["extra_bonus"] == 0  # Generał is not 50 in all three columns
    assert data["notes"]
    assert {m["column"] for m in data["moves"]} == {0, 1, 2}
    assert moves_by_field(data, 2)["five_of_a_kind"] == {
        "column": 2,
        "field": "five_of_a_kind",
        "label": "Generał",
        "points": 50,
        "extra_bonus": 0,
        "multiplier": 3,
        "gain": 150,
        "note": None,
    }
    full_house = moves_by_field(data, 0)["full_house"]
    assert full_house["points"] == 0
    assert full_house["note"]
    assert data["refused"] == []
    assert [t["multiplier"] for t in data["totals"]] == [1, 2, 3]
    assert data["totals"][0] == {
        "upper": 24,
        "upper_bonus": 0,
        "lower": 50,
        "extra_bonus": 0,
        "multiplier": 1,
        "total": 74,
    }
    assert data["total"] == 74


def test_the_sheet_may_be_left_out_or_sent_as_a_list_of_one(client: FlaskClient):
    """Both are ordinary requests; what the rules make of them: tests/unit/test_score_decisions."""
    left_out = post_score(client, variant="standard", dice=[4, 4, 4, 2, 6])
    as_object = post_score(client, variant="standard", dice=DICE, sheet={"ones": 3})
    as_list = post_score(client, variant="standard", dice=DICE, sheet=[{"ones": 3}])

    assert len(moves_by_field(left_out)) == 13
    assert left_out["total"] == 0
    assert as_object == as_list
    assert "ones" not in moves_by_field(as_list)


def test_a_joker_and_its_refused_fields_in_the_answer(client: FlaskClient):
    data = post_score(
        client, variant="standard", dice=SIXES, sheet={"five_of_a_kind": 50, "sixes": 30}
    )

    assert data["joker"] is True
    assert data["extra_bonus"] == 100
    assert moves_by_field(data)["full_house"]["gain"] == 125
    refused = refused_by_field(data)
    assert set(refused) == {"ones", "twos", "threes", "fours", "fives"}
    assert set(refused["ones"]) == {"column", "field", "label", "points", "reason"}
    assert all(r["reason"] for r in refused.values())


def test_ordered_answers_its_one_move_in_full(client: FlaskClient):
    data = post_score(client, variant="ordered", dice=[5, 5, 5, 1, 1], sheet={"ones": 2})

    assert data["moves"] == [
        {
            "column": 0,
            "field": "twos",
            "label": "Dwójki",
            "points": 0,
            "extra_bonus": 0,
            "multiplier": 1,
            "gain": 0,
            "note": "Rzut tu nie pasuje: skreślasz pole (0).",
        }
    ]
    assert len(data["refused"]) == 11


def test_totals_answer_the_options_in_force(client: FlaskClient):
    upper_42 = {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 12}

    data = post_score(
        client, variant="ordered", dice=DICE, sheet=upper_42, options={"bonus_threshold": 42}
    )

    assert data["options"] == {"bonus_threshold": 42}
    assert data["totals"] == [
        {"upper": 42, "upper_bonus": 35, "lower": 0, "extra_bonus": 0, "multiplier": 1, "total": 77}
    ]
    assert data["total"] == 77


# --- /poker/rank ----------------------------------------------------------------------------


# The ranking of every case: tests/unit/test_score_decisions.py.
@pytest.mark.parametrize(
    ("hands", "ids", "places", "winners", "named"),
    [
        pytest.param(
            [[6, 6, 1, 2, 3], [3, 2, 1, 6, 6], [5, 5, 1, 2, 3]],
            ["pair", "pair", "pair"],
            [1, 1, 3],
            [0, 1],
            ["Remis", "6-6-3-2-1", "para"],
            id="three hands, two tied for best: places 1 1 3",
        ),
        pytest.param(
            [[5, 5, 3, 3, 1], [5, 5, 2, 2, 6]],
            ["two_pairs", "two_pairs"],
            [1, 2],
            [0],
            ["wygrywa", "niższa para"],
            id="two pairs against two pairs: the lower pair decides",
        ),
    ],
)
def test_poker_rank(
    client: FlaskClient,
    hands: list[list[int]],
    ids: list[str],
    places: list[int],
    winners: list[int],
    named: list[str],
):
    response = client.post(RANK, json={"hands": hands})

    assert response.status_code == 200
    data = response.get_json()
    assert [h["dice"] for h in data["hands"]] == hands
    assert [h["hand"] for h in data["hands"]] == ids
    assert [h["place"] for h in data["hands"]] == places
    assert all(h["label"] for h in data["hands"])
    assert data["winners"] == winners
    assert data["draw"] is (len(winners) > 1)
    assert data["explanation"]
    for words in named:
        assert words in data["explanation"]


def test_poker_labels_are_polish(client: FlaskClient):
    response = client.post(RANK, json={"hands": [[5, 5, 5, 2, 2], [1, 1, 3, 4, 6]]})

    assert [h["label"] for h in response.get_json()["hands"]] == ["Ful", "Para"]


def test_poker_ranks_up_to_eight_hands(client: FlaskClient):
    hands = [[face, face, 1, 2, 3] for face in (4, 5, 6)] + [[2, 3, 4, 5, 6]] * 5

    response = client.post(RANK, json={"hands": hands})

    assert response.status_code == 200
    assert response.get_json()["winners"] == [3, 4, 5, 6, 7]
    assert response.get_json()["draw"] is True


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({}, id="hands missing"),
        pytest.param({"hands": None}, id="hands null"),
        pytest.param({"hands": {"0": [1, 2, 3, 4, 5]}}, id="hands an object"),
        pytest.param({"hands": "12345 23456"}, id="hands a string"),
        pytest.param({"hands": []}, id="no hands"),
        pytest.param({"hands": [[1, 2, 3, 4, 5]]}, id="one hand"),
        pytest.param({"hands": [[1, 2, 3, 4, 5]] * 9}, id="nine hands"),
        pytest.param({"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4]]}, id="a hand of four dice"),
        pytest.param({"hands": [[1, 2, 3, 4, 5], "23456"]}, id="a hand as a string"),
        pytest.param({"hands": [[1, 2, 3, 4, 5], None]}, id="a hand null"),
        pytest.param({"hands": [[1, 2, 3, 4, 5]] * 2, "target_wins": 3}, id="unknown key"),
        pytest.param([[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]], id="body a bare list of hands"),
        pytest.param(None, id="body null"),
    ],
)
def test_poker_rank_refuses_bad_input_with_a_message(client: FlaskClient, body: Any):
    assert_json_error(post_json(client, RANK, body))


@pytest.mark.parametrize(
    ("hands", "number"),
    [
        pytest.param([[1, 2, 3, 4]] + [[1, 2, 3, 4, 5]] * 2, 1, id="first hand"),
        pytest.param([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [0, 2, 3, 4, 5]], 3, id="third hand"),
        pytest.param([[1, 2, 3, 4, 5], "23456"], 2, id="second hand as a string"),
    ],
)
def test_poker_rank_error_says_which_hand_counting_from_1(
    client: FlaskClient, hands: list[Any], number: int
):
    message = assert_json_error(client.post(RANK, json={"hands": hands}))

    assert message.startswith(f"Układ {number}:")
