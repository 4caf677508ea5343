"""POST /api/v1/advice over HTTP: the expected final total of a sheet under optimal solitaire
play and every move of a roll priced the same way, best first; the body, the errors and the
sign-in of /api/v1/score (none, CSRF exempt).

The figures are the published ones where there are any (254.59 for an empty standard sheet,
Verhoeff/Glenn) and otherwise the shipped tables' (tests of the tables themselves are the
advisor's, in tests/unit)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tracker import advisor
from tracker.advisor import AdvisorUnavailable

from .test_api_rules import BAD_SCORE_BODIES

# These endpoints write nothing: one app for the module.
pytestmark = pytest.mark.shared_app

ADVICE = "/api/v1/advice"
SCORE = "/api/v1/score"
STRAIGHT = [1, 2, 3, 4, 5]
EMPTY_STANDARD = 254.59  # Verhoeff 1999, Glenn 2006: optimal solitaire Yahtzee, official rules
MOVE_KEYS = {"column", "field", "points", "extra_bonus", "expected", "loss"}


def post_json(client: FlaskClient, url: str, body: Any):
    """POST `body` as JSON, even `None` (the test client's `json=None` sends no body at all)."""
    return client.post(url, data=json.dumps(body), content_type="application/json")


def advice(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post(ADVICE, json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def by_field(data: dict[str, Any], column: int = 0) -> dict[str, dict[str, Any]]:
    return {m["field"]: m for m in data["moves"] if m["column"] == column}


def two_decimals(value: float) -> bool:
    return round(value, 2) == value


# --- the answer ----------------------------------------------------------------------------


def test_an_empty_standard_sheet_expects_the_published_254_59(client: FlaskClient):
    data = advice(client, variant="standard")

    assert data == {"variant": "standard", "exact": True, "expected": EMPTY_STANDARD, "moves": []}


def test_a_straight_on_an_empty_sheet_goes_to_the_large_straight(client: FlaskClient):
    data = advice(client, variant="standard", dice=STRAIGHT)

    assert data["expected"] == EMPTY_STANDARD  # before the roll, whatever the dice
    best = data["moves"][0]
    assert best == {
        "column": 0,
        "field": "large_straight",
        "points": 40,
        "extra_bonus": 0,
        "expected": pytest.approx(261.53, abs=0.01),
        "loss": 0.0,
    }
    small = by_field(data)["small_straight"]
    assert small["points"] == 30
    assert small["loss"] == pytest.approx(14.98, abs=0.01)
    assert small["expected"] == pytest.approx(best["expected"] - small["loss"], abs=0.011)


def test_every_move_is_priced_best_first_with_its_loss_from_the_best(client: FlaskClient):
    data = advice(client, variant="standard", dice=[3, 3, 3, 5, 5])

    moves = data["moves"]
    assert len(moves) == 13  # an empty sheet: every field is a move
    assert all(set(m) == MOVE_KEYS for m in moves)
    expected = [m["expected"] for m in moves]
    assert expected == sorted(expected, reverse=True)
    assert moves[0]["loss"] == 0.0
    for move in moves:
        assert move["loss"] == pytest.approx(moves[0]["expected"] - move["expected"], abs=0.011)
        assert two_decimals(move["expected"])
        assert two_decimals(move["loss"])
    assert by_field(data)["full_house"]["points"] == 25


def test_a_moves_expected_is_the_expected_of_the_sheet_it_leaves(client: FlaskClient):
    """The top-level `expected` of the sheet after a move equals that move's `expected`."""
    sheet = {"ones": 3, "full_house": 25}
    moves = by_field(advice(client, variant="standard", sheet=sheet, dice=STRAIGHT))

    for field_id in ("large_straight", "small_straight", "chance", "twos"):
        after = {**sheet, field_id: moves[field_id]["points"]}
        expected = advice(client, variant="standard", sheet=after)["expected"]
        assert expected == pytest.approx(moves[field_id]["expected"], abs=0.011), field_id


def test_the_expected_total_counts_the_points_already_written(client: FlaskClient):
    sheet = {"five_of_a_kind": 50, "sixes": 30}

    data = advice(client, variant="standard", sheet=sheet, dice=[6, 6, 6, 6, 6])

    assert data["expected"] > 80  # the 80 written plus what is still to come
    # A joker with the +100: every move carries the extra bonus, unmultiplied.
    assert {m["extra_bonus"] for m in data["moves"]} == {100}
    assert "ones" not in by_field(data)  # a joker must go to the lower section


def test_a_full_sheet_expects_its_total_and_has_no_move(client: FlaskClient):
    sheet = {
        "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,  # 63: +35
        "three_of_a_kind": 20, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
        "large_straight": 0, "five_of_a_kind": 0, "chance": 22,
    }  # fmt: skip
    total = 63 + 35 + 20 + 25 + 30 + 22

    data = advice(client, variant="standard", sheet=sheet, dice=STRAIGHT)

    assert data["expected"] == total
    assert data["moves"] == []


def test_ordered_with_threshold_42_uses_its_own_table(client: FlaskClient):
    at_42 = advice(client, variant="ordered", options={"bonus_threshold": 42})
    at_63 = advice(client, variant="ordered")

    assert at_42["expected"] == pytest.approx(149.65, abs=0.01)
    assert at_63["expected"] == pytest.approx(130.29, abs=0.01)
    assert at_42["exact"] is at_63["exact"] is True


def test_ordered_offers_only_the_next_field(client: FlaskClient):
    data = advice(client, variant="ordered", sheet={"ones": 2}, dice=STRAIGHT)

    assert [(m["field"], m["loss"]) for m in data["moves"]] == [("twos", 0.0)]


def test_a_threshold_other_variants_ignore_leaves_their_table(client: FlaskClient):
    """42 applies only to Gra po kolei (as /score reports): standard keeps 63 and its 254.59."""
    data = advice(client, variant="standard", options={"bonus_threshold": 42})

    assert data["expected"] == EMPTY_STANDARD


def test_dice_are_optional_and_null_is_no_dice(client: FlaskClient):
    assert advice(client, variant="standard", dice=None)["moves"] == []


def test_scandinavian_is_exact_and_prices_its_pair_fields(client: FlaskClient):
    data = advice(client, variant="scandinavian", dice=[2, 2, 5, 5, 6])

    assert data["variant"] == "scandinavian"
    assert data["exact"] is True
    assert {"pair", "two_pairs"} <= set(by_field(data))
    assert data["moves"][0]["loss"] == 0.0


def test_triple_is_marked_approximate_and_prices_every_column(client: FlaskClient):
    data = advice(client, variant="triple", dice=[6, 6, 6, 6, 6])

    assert data["exact"] is False
    assert data["expected"] > 0
    assert {m["column"] for m in data["moves"]} == {0, 1, 2}


def test_needs_no_sign_in_and_no_csrf_token(client: FlaskClient):
    """The test app has CSRF on and the client has no session: like /score, the endpoint is
    open and exempt."""
    response = client.post(ADVICE, json={"variant": "standard", "dice": STRAIGHT})

    assert response.status_code == 200


# --- bad input: as /score ------------------------------------------------------------------

# Dice are optional here: a body without them (or with null) is a question about the sheet.
BAD_ADVICE_BODIES = [p for p in BAD_SCORE_BODIES if p.id not in {"dice missing", "dice null"}]


@pytest.mark.parametrize("body", BAD_ADVICE_BODIES)
def test_bad_input_is_refused_exactly_as_score_refuses_it(client: FlaskClient, body: Any):
    advised = post_json(client, ADVICE, body)
    scored = post_json(client, SCORE, body)

    assert advised.status_code == scored.status_code == 400
    answer = advised.get_json()
    assert answer == scored.get_json()
    assert isinstance(answer["error"], str)
    assert answer["error"].strip()


def test_poker_is_refused_with_the_rules_code(client: FlaskClient):
    response = client.post(ADVICE, json={"variant": "poker", "dice": STRAIGHT})

    assert response.status_code == 400
    assert response.get_json()["code"] == "no_table_in_poker"
    assert "Poker" in response.get_json()["error"]


def test_a_refusal_by_the_rules_carries_its_code_on_score_too(client: FlaskClient):
    response = client.post(SCORE, json={"variant": "yahtzee", "dice": STRAIGHT})

    assert response.status_code == 400
    assert response.get_json()["code"] == "unknown_variant"


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param('{"variant": "standard"', id="malformed JSON"),
        pytest.param("", id="empty body"),
        pytest.param("[" * 100_000, id="nested too deeply"),
    ],
)
def test_malformed_json_is_a_400(client: FlaskClient, raw: str):
    response = client.post(ADVICE, data=raw, content_type="application/json")

    assert response.status_code == 400
    assert response.get_json()["error"]


def test_a_body_that_is_not_json_is_a_415(client: FlaskClient):
    assert client.post(ADVICE, data={"variant": "standard"}).status_code == 415


def test_get_is_not_allowed(client: FlaskClient):
    assert client.get(ADVICE).status_code == 405


def test_a_missing_table_is_a_503_with_a_code_not_a_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    def missing(*_args: Any, **_kwargs: Any) -> None:
        raise AdvisorUnavailable("The advisor table standard-63 is not built.")

    monkeypatch.setattr(advisor, "advise", missing)

    response = client.post(ADVICE, json={"variant": "standard"})

    assert response.status_code == 503
    assert response.get_json()["code"] == "advisor_unavailable"
