"""The rules JSON API: /api/v1/score and /api/v1/poker/rank, the decisions of DECISIONS.md
through HTTP, and every bad input answered 400 with a message (never 500)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

SCORE = "/api/v1/score"
RANK = "/api/v1/poker/rank"

SIXES = [6, 6, 6, 6, 6]
UPPER_63 = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
UPPER_62 = {**UPPER_63, "ones": 2}
UPPER_42 = {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 12}
LOWER_ZEROS = {
    "three_of_a_kind": 0,
    "four_of_a_kind": 0,
    "full_house": 0,
    "small_straight": 0,
    "large_straight": 0,
    "chance": 0,
}
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

BAD_SCORE_BODIES = [
    pytest.param([1, 2, 3], id="body is a JSON array, not an object"),
    pytest.param("standard", id="body is a JSON string"),
    pytest.param(None, id="body is JSON null"),
    pytest.param({"dice": DICE}, id="variant missing"),
    pytest.param({"variant": "standard"}, id="dice missing"),
    pytest.param({"variant": "standard", "dice": None}, id="dice null"),
    pytest.param({"variant": "standard", "dice": [1, 2, 3, 4]}, id="four dice"),
    pytest.param({"variant": "standard", "dice": [1, 2, 3, 4, 5, 6]}, id="six dice"),
    pytest.param({"variant": "standard", "dice": []}, id="no dice"),
    pytest.param({"variant": "standard", "dice": [0, 2, 3, 4, 5]}, id="a die showing 0"),
    pytest.param({"variant": "standard", "dice": [1, 2, 3, 4, 7]}, id="a die showing 7"),
    pytest.param({"variant": "standard", "dice": [1, 2, 3, 4, 4.5]}, id="a die 4.5"),
    pytest.param({"variant": "standard", "dice": [1, 2, 3, 4, 5.0]}, id="a die 5.0"),
    pytest.param({"variant": "standard", "dice": [1, 2, 3, 4, "5"]}, id="a die as text"),
    pytest.param({"variant": "standard", "dice": [True, 2, 3, 4, 5]}, id="a die true"),
    pytest.param({"variant": "standard", "dice": [None, 2, 3, 4, 5]}, id="a die null"),
    pytest.param({"variant": "standard", "dice": "66666"}, id="dice as a string of digits"),
    pytest.param({"variant": "standard", "dice": 66666}, id="dice as a number"),
    pytest.param({"variant": "standard", "dice": {"0": 6}}, id="dice as an object"),
    pytest.param({"variant": "yahtzee", "dice": DICE}, id="unknown variant"),
    pytest.param({"variant": "poker", "dice": DICE}, id="poker has no table"),
    pytest.param({"variant": 1, "dice": DICE}, id="variant not a string"),
    pytest.param({"variant": ["standard"], "dice": DICE}, id="variant a list"),
    pytest.param({"variant": "standard", "dice": DICE, "sheet": {"bogus": 3}}, id="unknown field"),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"sixes": 7}},
        id="sixes 7: no roll scores it",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"full_house": 20}},
        id="full house 20 on the standard table",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"chance": 31}},
        id="chance 31: more than five sixes",
    ),
    pytest.param(
        {"variant": "scandinavian", "dice": DICE, "sheet": {"small_straight": 30}},
        id="small straight 30 on the scandinavian table",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"pair": 12}},
        id="pair: a field of the scandinavian table on the standard one",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"sixes": "24"}}, id="points as text"
    ),
    pytest.param({"variant": "standard", "dice": DICE, "sheet": {"ones": True}}, id="points true"),
    pytest.param({"variant": "standard", "dice": DICE, "sheet": {"sixes": 24.0}}, id="points 24.0"),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"sixes": -6}}, id="negative points"
    ),
    pytest.param(
        {"variant": "triple", "dice": DICE, "sheet": [{}]},
        id="one column for triple, which has three",
    ),
    pytest.param(
        {"variant": "triple", "dice": DICE, "sheet": {"sixes": 24}},
        id="a bare object for triple",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": [{}, {}]},
        id="two columns for standard, which has one",
    ),
    pytest.param({"variant": "standard", "dice": DICE, "sheet": []}, id="no columns"),
    pytest.param({"variant": "standard", "dice": DICE, "sheet": "ones"}, id="sheet as text"),
    pytest.param(
        {"variant": "triple", "dice": DICE, "sheet": [{}, [], {}]}, id="a column not an object"
    ),
    pytest.param(
        {"variant": "ordered", "dice": DICE, "sheet": {"ones": 3, "threes": 9}},
        id="ordered sheet with a gap",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"five_of_a_kind": 0, "extra_bonus": 100}},
        id="extra bonus with Generał 0",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "sheet": {"ones": 5, "extra_bonus": 100}},
        id="extra bonus with Generał free",
    ),
    pytest.param(
        {
            "variant": "standard",
            "dice": DICE,
            "sheet": {"five_of_a_kind": 50, "ones": 5, "extra_bonus": 50},
        },
        id="extra bonus not a multiple of 100",
    ),
    pytest.param(
        {
            "variant": "standard",
            "dice": DICE,
            "sheet": {"five_of_a_kind": 50, "ones": 5, "extra_bonus": -100},
        },
        id="negative extra bonus",
    ),
    pytest.param(
        {
            "variant": "standard",
            "dice": DICE,
            "sheet": {"five_of_a_kind": 50, "ones": 5, "extra_bonus": 300},
        },
        id="three extra bonuses with one other field filled",
    ),
    pytest.param(
        {
            "variant": "standard",
            "dice": DICE,
            "sheet": {"five_of_a_kind": 50, "ones": 5, "extra_bonus": "100"},
        },
        id="extra bonus as text",
    ),
    pytest.param(
        {
            "variant": "scandinavian",
            "dice": DICE,
            "sheet": {"five_of_a_kind": 50, "ones": 5, "extra_bonus": 100},
        },
        id="extra bonus on the scandinavian table",
    ),
    pytest.param(
        {
            "variant": "triple",
            "dice": DICE,
            "sheet": [{"five_of_a_kind": 50, "ones": 5, "extra_bonus": 100}, {}, {}],
        },
        id="triple extra bonus before all three Generał are 50",
    ),
    pytest.param(
        {"variant": "ordered", "dice": DICE, "options": {"bonus_threshold": 50}},
        id="bonus threshold 50",
    ),
    pytest.param(
        {"variant": "ordered", "dice": DICE, "options": {"bonus_threshold": "42"}},
        id="bonus threshold as text",
    ),
    pytest.param(
        {"variant": "ordered", "dice": DICE, "options": {"bonus_threshold": 42.0}},
        id="bonus threshold 42.0",
    ),
    pytest.param(
        {"variant": "ordered", "dice": DICE, "options": {"bonus_threshold": True}},
        id="bonus threshold true",
    ),
    pytest.param(
        {"variant": "standard", "dice": DICE, "options": {"target_wins": 3}},
        id="unknown option key",
    ),
    pytest.param({"variant": "standard", "dice": DICE, "options": [42]}, id="options a list"),
    pytest.param({"variant": "standard", "dice": DICE, "options": "42"}, id="options as text"),
    pytest.param(
        {"variant": "standard", "dice": DICE, "option": {"bonus_threshold": 42}},
        id="unknown key in the body (a typo)",
    ),
]


@pytest.mark.parametrize("body", BAD_SCORE_BODIES)
def test_score_refuses_bad_input_with_a_message(client: FlaskClient, body: Any):
    assert_json_error(post_json(client, SCORE, body))


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


def test_empty_sheet_may_be_left_out(client: FlaskClient):
    data = post_score(client, variant="standard", dice=[4, 4, 4, 2, 6])

    moves = moves_by_field(data)
    assert len(moves) == 13
    assert moves["fours"]["points"] == 12
    assert moves["twos"]["points"] == 2
    assert moves["three_of_a_kind"]["points"] == 20
    assert data["totals"] == [
        {"upper": 0, "upper_bonus": 0, "lower": 0, "extra_bonus": 0, "multiplier": 1, "total": 0}
    ]
    assert data["total"] == 0
    assert data["notes"] == []


def test_a_single_column_sheet_may_be_a_list_of_one(client: FlaskClient):
    as_object = post_score(client, variant="standard", dice=DICE, sheet={"ones": 3})
    as_list = post_score(client, variant="standard", dice=DICE, sheet=[{"ones": 3}])

    assert as_object == as_list
    assert "ones" not in moves_by_field(as_list)


# --- /score: the decisions of DECISIONS.md -------------------------------------------------


def test_joker_scores_straights_and_full_house_and_earns_the_extra_bonus(client: FlaskClient):
    data = post_score(
        client, variant="standard", dice=SIXES, sheet={"five_of_a_kind": 50, "sixes": 30}
    )

    assert data["joker"] is True
    assert data["extra_bonus"] == 100
    moves = moves_by_field(data)
    assert {f: (m["points"], m["extra_bonus"]) for f, m in moves.items()} == {
        "three_of_a_kind": (30, 100),
        "four_of_a_kind": (30, 100),
        "full_house": (25, 100),
        "small_straight": (30, 100),
        "large_straight": (40, 100),
        "chance": (30, 100),
    }
    assert moves["full_house"]["gain"] == 125
    refused = refused_by_field(data)
    assert set(refused) == {"ones", "twos", "threes", "fours", "fives"}
    assert all(r["reason"] for r in refused.values())
    assert any("Joker" in note for note in data["notes"])


@pytest.mark.parametrize(
    ("sheet", "joker", "extra_bonus", "full_house"),
    [
        pytest.param(
            {"five_of_a_kind": 0, "sixes": 30}, True, 0, 25, id="joker with Generał 0: no bonus"
        ),
        pytest.param(
            {"five_of_a_kind": 50}, False, 100, 0, id="Szóstki free: not a joker, still +100"
        ),
        pytest.param({"sixes": 30}, False, 0, 0, id="Generał free: not a joker, no bonus"),
        pytest.param({}, False, 0, 0, id="empty sheet: an ordinary roll"),
    ],
)
def test_joker_needs_generał_and_the_matching_upper_field_filled(
    client: FlaskClient, sheet: dict[str, int], joker: bool, extra_bonus: int, full_house: int
):
    data = post_score(client, variant="standard", dice=SIXES, sheet=sheet)

    assert data["joker"] is joker
    assert data["extra_bonus"] == extra_bonus
    assert moves_by_field(data)["full_house"]["points"] == full_house
    assert all(m["extra_bonus"] == extra_bonus for m in data["moves"])


def test_five_of_a_kind_that_is_not_a_joker_is_an_ordinary_roll(client: FlaskClient):
    data = post_score(client, variant="standard", dice=SIXES, sheet={"five_of_a_kind": 50})

    moves = moves_by_field(data)
    assert data["refused"] == []  # any free field, upper ones included
    assert moves["sixes"]["points"] == 30
    for field in ("full_house", "small_straight", "large_straight"):
        assert moves[field]["points"] == 0
        assert "nie" in moves[field]["note"]
    assert any("To nie joker" in note for note in data["notes"])


def test_extra_bonus_is_earned_also_when_the_roll_is_written_as_0(client: FlaskClient):
    data = post_score(client, variant="standard", dice=SIXES, sheet={"five_of_a_kind": 50})

    ones = moves_by_field(data)["ones"]
    assert (ones["points"], ones["extra_bonus"], ones["gain"]) == (0, 100, 100)


def test_joker_goes_to_the_upper_section_as_0_only_when_the_lower_one_is_full(
    client: FlaskClient,
):
    sheet = {**LOWER_ZEROS, "five_of_a_kind": 50, "sixes": 30}

    data = post_score(client, variant="standard", dice=SIXES, sheet=sheet)

    assert data["joker"] is True
    assert data["refused"] == []
    moves = moves_by_field(data)
    assert set(moves) == {"ones", "twos", "threes", "fours", "fives"}
    assert all((m["points"], m["extra_bonus"]) == (0, 100) for m in moves.values())
    assert "Dolna część jest pełna" in moves["ones"]["note"]


def test_extra_bonuses_already_marked_count_in_the_totals(client: FlaskClient):
    sheet = {"five_of_a_kind": 50, "sixes": 30, "chance": 30, "extra_bonus": 200}

    data = post_score(client, variant="standard", dice=DICE, sheet=sheet)

    assert data["totals"][0]["extra_bonus"] == 200
    assert data["total"] == 50 + 30 + 30 + 200


def test_ordered_takes_only_the_next_field_even_for_0(client: FlaskClient):
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
    refused = refused_by_field(data)
    assert len(refused) == 11
    assert refused["fives"]["points"] == 15
    assert all("Dwójki" in r["reason"] for r in refused.values())


@pytest.mark.parametrize(
    ("dice", "field", "points"),
    [
        pytest.param([3, 3, 3, 5, 5], "two_pairs", 16, id="two pairs in a full house: 16"),
        pytest.param([3, 3, 3, 5, 5], "full_house", 19, id="full house: sum of all dice"),
        pytest.param([3, 3, 3, 5, 5], "three_of_a_kind", 9, id="three of a kind: those 3 only"),
        pytest.param([3, 3, 3, 5, 5], "pair", 10, id="pair: the highest pair"),
        pytest.param([4, 4, 4, 4, 2], "four_of_a_kind", 16, id="four of a kind: those 4 only"),
        pytest.param([4, 4, 4, 4, 2], "two_pairs", 0, id="four of a kind is not two pairs"),
        pytest.param([1, 2, 3, 4, 5], "small_straight", 15, id="small straight 1-2-3-4-5: 15"),
        pytest.param([1, 2, 3, 4, 5], "large_straight", 0, id="1-2-3-4-5 is not large"),
        pytest.param([2, 3, 4, 5, 6], "large_straight", 20, id="large straight 2-3-4-5-6: 20"),
        pytest.param([2, 3, 4, 5, 6], "small_straight", 0, id="2-3-4-5-6 is not small"),
        pytest.param([6, 6, 6, 6, 6], "full_house", 0, id="five of a kind is not a full house"),
        pytest.param([6, 6, 6, 6, 6], "five_of_a_kind", 50, id="Generał 50"),
    ],
)
def test_scandinavian_scoring(client: FlaskClient, dice: list[int], field: str, points: int):
    data = post_score(client, variant="scandinavian", dice=dice)

    assert moves_by_field(data)[field]["points"] == points


def test_scandinavian_has_no_joker_and_no_extra_bonus(client: FlaskClient):
    data = post_score(
        client, variant="scandinavian", dice=SIXES, sheet={"five_of_a_kind": 50, "sixes": 30}
    )

    assert data["joker"] is False
    assert data["extra_bonus"] == 0
    assert data["refused"] == []
    moves = moves_by_field(data)
    assert moves["full_house"]["points"] == 0
    assert moves["large_straight"]["points"] == 0
    assert all(m["extra_bonus"] == 0 for m in data["moves"])
    assert any("skandynawskiej" in note for note in data["notes"])


def test_triple_joker_with_all_three_generals_50_scores_420(client: FlaskClient):
    sheet = [{"five_of_a_kind": 50, "sixes": 30}] * 3

    data = post_score(client, variant="triple", dice=SIXES, sheet=sheet)

    assert data["joker"] is True
    assert data["extra_bonus"] == 100
    large = moves_by_field(data, 2)["large_straight"]
    assert (large["points"], large["extra_bonus"], large["multiplier"], large["gain"]) == (
        40,
        100,
        3,
        420,
    )
    assert moves_by_field(data, 0)["large_straight"]["gain"] == 140
    assert moves_by_field(data, 1)["large_straight"]["gain"] == 280


@pytest.mark.parametrize(
    ("sheet", "joker"),
    [
        pytest.param(
            [{"five_of_a_kind": 50, "sixes": 30}] * 2 + [{"five_of_a_kind": 0, "sixes": 30}],
            True,
            id="one Generał is 0: a joker without the bonus",
        ),
        pytest.param(
            [{"five_of_a_kind": 50, "sixes": 30}] * 2 + [{"sixes": 30}],
            False,
            id="one Generał free: neither joker nor bonus",
        ),
        pytest.param(
            [{"five_of_a_kind": 50, "sixes": 30}] * 2 + [{"five_of_a_kind": 50}],
            False,
            id="all Generał 50 but Szóstki free in one column: the bonus, not a joker",
        ),
    ],
)
def test_triple_extra_bonus_only_when_all_three_generals_are_50(
    client: FlaskClient, sheet: list[dict[str, int]], joker: bool
):
    data = post_score(client, variant="triple", dice=SIXES, sheet=sheet)

    all_fifty = all(column.get("five_of_a_kind") == 50 for column in sheet)
    assert data["joker"] is joker
    assert data["extra_bonus"] == (100 if all_fifty else 0)
    assert all(m["extra_bonus"] == data["extra_bonus"] for m in data["moves"])
    if not all_fifty:
        assert any("Bez premii +100" in note for note in data["notes"])


# --- /score: totals of the sheet as sent ----------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "sheet", "options", "threshold", "upper_bonus"),
    [
        pytest.param("standard", UPPER_63, None, 63, 35, id="standard 63: bonus 35"),
        pytest.param("standard", UPPER_62, None, 63, 0, id="standard 62: no bonus"),
        pytest.param("standard", UPPER_42, {"bonus_threshold": 42}, 63, 0, id="standard keeps 63"),
        pytest.param("ordered", UPPER_42, {"bonus_threshold": 42}, 42, 35, id="ordered 42"),
        pytest.param("ordered", UPPER_42, None, 63, 0, id="ordered defaults to 63"),
        pytest.param("ordered", UPPER_63, {"bonus_threshold": 63}, 63, 35, id="ordered 63"),
        pytest.param(
            "scandinavian", UPPER_63, {"bonus_threshold": 42}, 63, 50, id="scandinavian 63: 50"
        ),
    ],
)
def test_totals_of_a_sent_sheet_with_the_upper_bonus(
    client: FlaskClient,
    variant: str,
    sheet: dict[str, int],
    options: dict[str, int] | None,
    threshold: int,
    upper_bonus: int,
):
    data = post_score(client, variant=variant, dice=DICE, sheet=sheet, options=options)

    upper = sum(sheet.values())
    assert data["options"] == {"bonus_threshold": threshold}
    assert data["totals"] == [
        {
            "upper": upper,
            "upper_bonus": upper_bonus,
            "lower": 0,
            "extra_bonus": 0,
            "multiplier": 1,
            "total": upper + upper_bonus,
        }
    ]
    assert data["total"] == upper + upper_bonus


def test_triple_totals_are_multiplied_per_column(client: FlaskClient):
    sheet = [UPPER_63, {"chance": 20}, {"five_of_a_kind": 50}]

    data = post_score(client, variant="triple", dice=DICE, sheet=sheet)

    assert [t["total"] for t in data["totals"]] == [98, 40, 150]
    assert data["total"] == 288


def test_full_sheet_has_no_moves_but_its_totals(client: FlaskClient):
    sheet = {**UPPER_63, **LOWER_ZEROS, "five_of_a_kind": 50}

    data = post_score(client, variant="standard", dice=DICE, sheet=sheet)

    assert data["moves"] == []
    assert data["refused"] == []
    assert data["total"] == 63 + 35 + 50


# --- /poker/rank ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "ids", "places", "winners", "named"),
    [
        pytest.param(
            [[2, 3, 4, 5, 6], [1, 2, 3, 4, 5]],
            ["straight", "straight"],
            [1, 2],
            [0],
            ["2-3-4-5-6", "1-2-3-4-5", "strit"],
            id="2-3-4-5-6 beats 1-2-3-4-5",
        ),
        pytest.param(
            [[5, 5, 3, 3, 1], [5, 5, 2, 2, 6]],
            ["two_pairs", "two_pairs"],
            [1, 2],
            [0],
            ["5-5-3-3-1", "5-5-2-2-6", "dwie pary"],
            id="5-5-3-3-1 beats 5-5-2-2-6: the lower pair decides",
        ),
        pytest.param(
            [[4, 4, 4, 6, 6], [5, 5, 5, 2, 2]],
            ["full_house", "full_house"],
            [2, 1],
            [1],
            ["5-5-5-2-2", "4-4-4-6-6", "ful"],
            id="5-5-5-2-2 beats 4-4-4-6-6: the three decide",
        ),
        pytest.param(
            [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]],
            ["straight", "straight"],
            [1, 1],
            [0, 1],
            ["Remis", "1-2-3-4-5", "strit"],
            id="equal hands draw: two winners",
        ),
        pytest.param(
            [[6, 6, 1, 2, 3], [3, 2, 1, 6, 6], [5, 5, 1, 2, 3]],
            ["pair", "pair", "pair"],
            [1, 1, 3],
            [0, 1],
            ["Remis", "6-6-3-2-1", "para"],
            id="three hands, two tied for best: places 1 1 3",
        ),
        pytest.param(
            [[6, 6, 6, 6, 6], [2, 2, 3, 3, 4], [4, 3, 3, 2, 2], [1, 1, 2, 3, 5]],
            ["five_of_a_kind", "two_pairs", "two_pairs", "pair"],
            [1, 2, 2, 4],
            [0],
            ["6-6-6-6-6", "3-3-2-2-4", "pięć jednakowych", "dwie pary"],
            id="equal hands below the winner share a place: 1 2 2 4",
        ),
        pytest.param(
            [[1, 2, 3, 4, 6], [6, 6, 6, 6, 1]],
            ["nothing", "four_of_a_kind"],
            [2, 1],
            [1],
            ["6-6-6-6-1", "cztery jednakowe", "nic"],
            id="four of a kind beats nothing",
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
        pytest.param({"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 7]]}, id="a die showing 7"),
        pytest.param({"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4, True]]}, id="a die true"),
        pytest.param({"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5.5]]}, id="a die 5.5"),
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
