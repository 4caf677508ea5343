"""The BG Stats export and the "Wyślij do BG Stats" deep link (`services.transfer.bgstats`).

The file is checked against tests/data/bgstats/export.schema.json, a schema built from real
files BG Stats wrote (its `$comment` says which); the schema must also accept a trimmed real
export, so it is BG Stats' shape and not merely ours. Games are the Kowalscy's of
`history_builders`, played through the services.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jsonschema
import pytest
from flask import Flask
from history_builders import PASSWORD, STANDARD_SHEET, build_family, new_account, play

from tracker.extensions import db
from tracker.models import Game
from tracker.services import accounts, games
from tracker.services.transfer import bgstats

from .apps import built_once

pytestmark = pytest.mark.one_backend(
    "a file built from the games read by the history queries, which test_history runs on both"
)

DATA = Path(__file__).parent.parent / "data" / "bgstats"
SCHEMA = json.loads((DATA / "export.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


@pytest.fixture
def family(app: Flask) -> dict[str, Any]:
    """The Kowalscy's games, and another account with a finished game of its own."""

    def build() -> dict[str, Any]:
        with app.app_context():
            kowalscy = new_account("Kowalscy")
            ids = build_family(kowalscy)
            nowakowie = new_account("Nowakowie")
            other = games.create_game(nowakowie, "ordered", ["Obcy"])
            play(nowakowie, other.id, STANDARD_SHEET)
            uids = {key: db.session.get(Game, i).uid for key, i in ids.items()}
            uids["other"] = db.session.get(Game, other.id).uid
        return {"account": kowalscy, "other": nowakowie, "ids": ids, "uids": uids}

    return built_once(app, "test_bgstats.family", build)


def export(app: Flask, account_id: int) -> dict[str, Any]:
    with app.app_context():
        return bgstats.export_bgstats(account_id, timezone="Europe/Warsaw")


def sign_in(client: Any, name: str) -> None:
    html = client.get("/logowanie").get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert token
    response = client.post(
        "/logowanie", data={"csrf_token": token.group(1), "name": name, "password": PASSWORD}
    )
    assert response.status_code == 302


def link_data(href: str) -> dict[str, Any]:
    """The JSON a createPlay link carries, decoded as BG Stats does."""
    parts = urlsplit(href)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"]
    return json.loads(query["data"][0])


# --- the schema ----------------------------------------------------------------------------


def test_the_schema_accepts_a_real_bg_stats_export():
    sample = json.loads((DATA / "sample-export.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert list(VALIDATOR.iter_errors(sample)) == []


@pytest.mark.parametrize(
    ("path", "value"),
    [
        pytest.param(("plays", 0, "playerScores", 0, "score"), 92, id="score-as-number"),
        pytest.param(("plays", 0, "playDate"), "2021-03-12T10:00:00Z", id="iso-date"),
        pytest.param(("plays", 0, "gameRefId"), "18", id="ref-as-string"),
        pytest.param(("players", 0, "uuid"), "not-a-uuid", id="bad-uuid"),
    ],
)
def test_the_schema_refuses_what_bg_stats_does_not_write(path: tuple[Any, ...], value: Any):
    sample = json.loads((DATA / "sample-export.json").read_text(encoding="utf-8"))
    target = sample
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert list(VALIDATOR.iter_errors(sample)) != []


# --- the file ------------------------------------------------------------------------------


def test_the_export_has_bg_stats_shape(app: Flask, family: dict[str, Any]):
    document = export(app, family["account"])

    assert [e.message for e in VALIDATOR.iter_errors(document)] == []
    # References point at ids of the same file, as BG Stats' own files do.
    game_ids = {g["id"] for g in document["games"]}
    location_ids = {loc["id"] for loc in document["locations"]}
    player_ids = {p["id"] for p in document["players"]}
    for p in document["plays"]:
        assert p["gameRefId"] in game_ids
        assert p["locationRefId"] in location_ids
        assert {s["playerRefId"] for s in p["playerScores"]} <= player_ids
    assert len({p["uuid"] for p in document["plays"]}) == len(document["plays"])
    assert len(player_ids) == len(document["players"])


def test_the_game_is_yahtzee_on_bgg_named_kosci(app: Flask, family: dict[str, Any]):
    document = export(app, family["account"])

    [game] = document["games"]
    assert (game["name"], game["bggId"], game["bggName"]) == ("Kości", 2243, "Yahtzee")
    assert (game["highestWins"], game["cooperative"], game["noPoints"]) == (True, False, False)
    assert [loc["name"] for loc in document["locations"]] == ["Kości"]


def test_only_finished_games_of_the_account_are_plays(app: Flask, family: dict[str, Any]):
    document = export(app, family["account"])
    uids = family["uids"]

    expected = [uids[k] for k in ("tie", "ordered", "scandinavian", "poker")]
    assert [p["uuid"] for p in document["plays"]] == [bgstats.play_uuid(u) for u in expected]
    # Not the unfinished triple game and rematch, nor the other account's finished game.
    assert "Obcy" not in {p["name"] for p in document["players"]}
    assert [p["uuid"] for p in export(app, family["other"])["plays"]] == [
        bgstats.play_uuid(uids["other"])
    ]


def _by_name(document: dict[str, Any], play: dict[str, Any]) -> dict[str, dict[str, Any]]:
    names = {p["id"]: p["name"] for p in document["players"]}
    return {names[s["playerRefId"]]: s for s in play["playerScores"]}


def test_a_tie_gives_both_players_rank_1_and_the_win(app: Flask, family: dict[str, Any]):
    document = export(app, family["account"])
    tie = document["plays"][0]

    assert tie["board"] == "Kości (tabela polska)"
    assert tie["playDate"] == "2025-03-01 19:00:00"  # Warsaw, UTC+1 in March
    assert tie["durationMin"] == 27  # 27 turns written a minute apart, the undone one too
    assert tie["manualWinner"] is False
    assert tie["playerScores"] == [
        {
            "score": "308",
            "winner": True,
            "newPlayer": True,
            "startPlayer": True,
            "playerRefId": 1,
            "rank": 1,
            "seatOrder": 1,
            "role": "",
        },
        {
            "score": "308",
            "winner": True,
            "newPlayer": True,
            "startPlayer": False,
            "playerRefId": 2,
            "rank": 1,
            "seatOrder": 2,
            "role": "",
        },
    ]


def test_seats_start_player_and_new_players(app: Flask, family: dict[str, Any]):
    document = export(app, family["account"])
    scandinavian = document["plays"][2]

    seats = _by_name(document, scandinavian)
    assert [(s["seatOrder"], s["startPlayer"]) for s in scandinavian["playerScores"]] == [
        (1, True),
        (2, False),
    ]
    assert list(seats) == ["Jan", "Ala"]  # seating order, Jan began
    # Jan plays for the first time here, Ala played the tie before.
    assert (seats["Jan"]["newPlayer"], seats["Ala"]["newPlayer"]) == (True, False)
    assert sum(s["winner"] for s in seats.values()) == 1
    winner = max(seats.values(), key=lambda s: int(s["score"]))
    assert (winner["winner"], winner["rank"]) == (True, 1)


def test_poker_scores_the_rounds_won(app: Flask, family: dict[str, Any]):
    document = export(app, family["account"])
    poker = document["plays"][3]

    assert poker["board"] == "Poker kościany bez tabeli"
    assert poker["playDate"] == "2025-05-01 23:30:00"
    assert poker["durationMin"] == 14
    seats = _by_name(document, poker)
    assert {n: (s["score"], s["rank"], s["winner"]) for n, s in seats.items()} == {
        "Ala": ("2", 1, True),
        "Łucja": ("0", 3, False),
        "Jan": ("1", 2, False),
    }
    assert seats["Łucja"]["newPlayer"] is True
    assert seats["Łucja"]["seatOrder"] == 2


def test_a_second_export_is_the_same_file(app: Flask, family: dict[str, Any]):
    first = export(app, family["account"])
    second = export(app, family["account"])

    assert first == second
    # Players are named by uuids derived from their names, the same in every export.
    assert {p["name"]: p["uuid"] for p in first["players"]} == {
        name: bgstats.player_uuid(name) for name in ("Ala", "Ola", "Jan", "Łucja")
    }
    assert bgstats.player_uuid("ala") == bgstats.player_uuid("Ala")
    assert bgstats.play_uuid("a" * 32) != bgstats.play_uuid("b" * 32)


def test_download_and_api(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Kowalscy")

    response = client.get("/konto/dane/bgstats.json")

    assert response.status_code == 200
    assert response.mimetype == "application/json"
    disposition = response.headers["Content-Disposition"]
    assert re.search(r"attachment; filename=kosci-bgstats-\d{4}-\d{2}-\d{2}\.json", disposition)
    assert json.loads(response.data) == export(app, family["account"])
    page = client.get("/konto/dane").get_data(as_text=True)
    assert 'href="/konto/dane/bgstats.json"' in page
    assert "Eksport do BG Stats" in page

    with app.app_context():
        _, token = accounts.create_token(family["account"], "bgstats")
    api = app.test_client().get(
        "/api/v1/export/bgstats", headers={"Authorization": f"Bearer {token}"}
    )
    assert api.status_code == 200
    assert api.mimetype == "application/json"
    assert api.get_json() == export(app, family["account"])
    assert app.test_client().get("/api/v1/export/bgstats").status_code == 401


# --- the deep link -------------------------------------------------------------------------


def test_the_link_carries_players_scores_and_every_winner(app: Flask, family: dict[str, Any]):
    with app.app_context():
        view = games.load(family["account"], family["ids"]["tie"])
        href = bgstats.view_link(view, timezone="Europe/Warsaw")

    data = link_data(href)
    assert data["sourceName"] == "Kości"
    assert data["sourcePlayId"] == bgstats.play_uuid(family["uids"]["tie"])
    assert data["game"] == {
        "name": "Kości",
        "bggId": 2243,
        "highestWins": True,
        "noPoints": False,
        "sourceGameId": "kosci",
    }
    assert data["board"] == "Kości (tabela polska)"
    assert data["playDate"] == "2025-03-01 19:00:00"
    assert data["durationMin"] == 27
    assert [
        (p["name"], p["score"], p["winner"], p["rank"], p["startPlayer"]) for p in data["players"]
    ] == [("Ala", 308, True, 1, True), ("Ola", 308, True, 1, False)]
    assert [p["sourcePlayerId"] for p in data["players"]] == [
        bgstats.player_uuid("Ala"),
        bgstats.player_uuid("Ola"),
    ]


def test_the_poker_link_and_the_file_agree(app: Flask, family: dict[str, Any]):
    with app.app_context():
        view = games.load(family["account"], family["ids"]["poker"])
        data = link_data(bgstats.view_link(view, timezone="Europe/Warsaw"))
    document = export(app, family["account"])
    poker = document["plays"][3]

    assert all("winner" in p for p in data["players"])
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Ala", 2, True, 1),
        ("Łucja", 0, False, 3),
        ("Jan", 1, False, 2),
    ]
    assert data["sourcePlayId"] == poker["uuid"]
    assert (data["playDate"], data["durationMin"], data["board"]) == (
        poker["playDate"],
        poker["durationMin"],
        poker["board"],
    )


def test_the_end_screens_link_to_bg_stats_and_unfinished_games_do_not(
    app: Flask, family: dict[str, Any]
):
    client = app.test_client()
    sign_in(client, "Kowalscy")

    for key, names in (("tie", ["Ala", "Ola"]), ("poker", ["Ala", "Łucja", "Jan"])):
        html = client.get(f"/gry/{family['ids'][key]}").get_data(as_text=True)
        found = re.search(r'<a class="btn[^"]*" href="([^"]+)" rel="noopener">Wyślij do BG', html)
        assert found, key
        href = found.group(1).replace("&amp;", "&")
        assert [p["name"] for p in link_data(href)["players"]] == names
    unfinished = client.get(f"/gry/{family['ids']['rematch']}").get_data(as_text=True)
    assert "Wyślij do BG Stats" not in unfinished
    assert "bgstatsapp" not in unfinished
