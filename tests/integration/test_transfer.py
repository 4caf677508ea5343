"""Export and import of an account's whole history: the service, the JSON API and the
`/konto/dane` page (CSRF on).

Games are compared through the services (`games.load`: the rules' view built from the turns),
never through figures typed in by hand; "nothing changed" is checked on every row of the
database.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import json
import re
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from history_builders import PASSWORD, STANDARD_SHEET, build_family, new_account, play
from sqlalchemy import event, func, select, text

from tracker import create_app
from tracker.extensions import db
from tracker.models import Game, Turn
from tracker.services import (
    Conflict,
    InvalidInput,
    accounts,
    games,
    players,
    results,
    reviewer,
    transfer,
)
from tracker.services.filters import GameFilter
from tracker.services.transfer import write as write_module

from .apps import built_once, dispose_engines

EXPORT = "/api/v1/export"
IMPORT = "/api/v1/import"
TABLES = ("accounts", "players", "games", "game_seats", "turns")


# --- helpers -------------------------------------------------------------------------------


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the data tables, as plain values."""
    with app.app_context():
        return {
            table: sorted(tuple(row) for row in db.session.execute(text(f"SELECT * FROM {table}")))
            for table in TABLES
        }


def game_record(account_id: int, game_id: int) -> dict[str, Any]:
    """A game as the services load it, without database ids: what must survive a round trip."""
    view = games.load(account_id, game_id)
    game = view.game
    uid = db.session.scalar(select(Game.uid).where(Game.id == game_id))
    rematch_uid = None
    if game.rematch_of_id is not None:
        rematch_uid = db.session.scalar(select(Game.uid).where(Game.id == game.rematch_of_id))
    if view.is_poker:
        scores: tuple[int, ...] = tuple(view.match.round_wins)
        rounds: Any = [
            (r.number, [(seat, "".join(map(str, h.dice))) for seat, h in r.hands], r.winners)
            for r in view.match.rounds
        ]
    else:
        scores = view.table.scores
        rounds = [s for s in view.table.sheets]
    return {
        "uid": uid,
        "variant": game.variant,
        "options": view.options.as_dict(),
        "hints": game.hints,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "rematch_of": rematch_uid,
        "finished": view.finished,
        "scores": scores,
        "winners": view.winners,
        "state": rounds,
        "seats": [
            (
                s.seat,
                s.player.name,
                s.total,
                s.place,
                s.is_winner,
                s.upper_bonuses,
                s.generals,
                s.extra_bonuses,
            )
            for s in view.seats
        ],
        "log": [
            (
                t.seq,
                t.seat,
                t.dice,
                t.field,
                t.column,
                t.points,
                t.extra_bonus,
                t.created_at,
                t.undone_at,
            )
            for t in view.log
        ],
    }


def account_records(app: Flask, account_id: int) -> dict[str, dict[str, Any]]:
    with app.app_context():
        ids = db.session.scalars(select(Game.id).where(Game.account_id == account_id)).all()
        records = [game_record(account_id, game_id) for game_id in ids]
        return {r["uid"]: r for r in records}


def without_moment(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k not in ("exported_at", "account")}


def bearer(app: Flask, account_id: int) -> dict[str, str]:
    with app.app_context():
        _, token = accounts.create_token(account_id, "kopia")
    return {"Authorization": f"Bearer {token}"}


def page_csrf(client: FlaskClient, url: str) -> str:
    html = client.get(url).get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def sign_in(client: FlaskClient, name: str) -> None:
    token = page_csrf(client, "/logowanie")
    response = client.post(
        "/logowanie", data={"csrf_token": token, "name": name, "password": PASSWORD}
    )
    assert response.status_code == 302


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def family(app: Flask) -> dict[str, Any]:
    """The Kowalscy with the games of `history_builders`, and an empty account, Nowakowie."""

    def build() -> dict[str, Any]:
        with app.app_context():
            kowalscy = new_account("Kowalscy")
            ids = build_family(kowalscy)
            nowakowie = new_account("Nowakowie")
            document = transfer.export_account(kowalscy)
        return {"source": kowalscy, "target": nowakowie, "ids": ids, "document": document}

    return built_once(app, "test_transfer.family", build)


# --- export then import ----------------------------------------------------------------------


def test_export_then_import_into_a_fresh_account_gives_identical_games(
    app: Flask, family: dict[str, Any]
):
    with app.app_context():
        result = transfer.import_account(family["target"], family["document"])

    # The three finished table games are reviewed; poker has no field to judge.
    assert result == transfer.ImportResult(games=6, players=4, reviewed=3)
    source = account_records(app, family["source"])
    copied = account_records(app, family["target"])
    assert copied == source
    # The family's corrections came along: struck through, in the order they were written.
    assert sum(1 for r in copied.values() for t in r["log"] if t[-1] is not None) == 4
    assert {r["variant"] for r in copied.values()} == {
        "standard",
        "ordered",
        "scandinavian",
        "poker",
        "triple",
    }


def test_a_player_a_phone_adds_while_the_file_is_imported_is_found_not_a_refusal(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """A game started on a phone with one of the file's new names, just as the import looks
    for the players it lacks: that player is the file's, once; the import does not refuse the
    file because of it."""
    real_keys = write_module._player_keys
    started: list[int] = []

    def keys_read_just_before_a_phone_starts_a_game(account_id: int) -> set[str]:
        stale = real_keys(account_id)
        if not started:

            def phone() -> None:
                with app.app_context():
                    started.append(games.create_game(account_id, "poker", ["Ala", "Zenek"]).id)

            thread = threading.Thread(target=phone)
            thread.start()
            thread.join(30)
        return stale

    monkeypatch.setattr(write_module, "_player_keys", keys_read_just_before_a_phone_starts_a_game)
    with app.app_context():
        result = transfer.import_account(family["target"], family["document"])

        assert result.games == 6
        assert result.players == 3  # Ala came from the phone's game
        names = sorted(p.name for p in players.list_players(family["target"]))
        assert names.count("Ala") == 1
        assert "Zenek" in names
    assert len(started) == 1


def test_the_imported_account_exports_the_same_document(app: Flask, family: dict[str, Any]):
    with app.app_context():
        transfer.import_account(family["target"], family["document"])
        again = transfer.export_account(family["target"])

    assert again["account"] == "Nowakowie"
    assert without_moment(again) == without_moment(family["document"])


def test_the_export_reads_the_turns_as_rows_not_as_objects(app: Flask, family: dict[str, Any]):
    # Three years of a family are ~95,000 turns: as ORM objects they made "Pobierz wszystko"
    # take 2.5 s on the server, 2 s of it building the objects.
    loaded: list[Turn] = []

    def count(turn: Turn, _context: Any) -> None:
        loaded.append(turn)

    event.listen(Turn, "load", count)
    try:
        with app.app_context():
            document = transfer.export_account(family["source"])
    finally:
        event.remove(Turn, "load", count)

    assert sum(len(g["turns"]) for g in document["games"]) > 20
    assert loaded == []


def test_the_export_describes_the_game_and_its_corrections(family: dict[str, Any]):
    document = family["document"]

    assert document["format"] == "kosci-export"
    assert document["version"] == 1
    assert document["account"] == "Kowalscy"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", document["exported_at"])
    assert [p["name"] for p in document["players"]] == ["Ala", "Ola", "Jan", "Łucja"]
    tie = document["games"][0]
    assert tie["variant"] == "standard"
    assert tie["options"] == {"bonus_threshold": 63}
    assert tie["started_at"] == "2025-03-01T18:00:00Z"
    assert [s["player"] for s in tie["seats"]] == ["Ala", "Ola"]
    assert tie["turns"][2] == {
        "seq": 3,
        "seat": 0,
        "dice": "66612",
        "field": "three_of_a_kind",
        "column": 0,
        "points": 21,
        "extra_bonus": 0,
        "created_at": "2025-03-01T18:03:00Z",
        "undone_at": "2025-03-01T18:03:30Z",
    }
    assert tie["turns"][3]["seq"] == 3  # written again after the undo
    assert tie["turns"][3]["undone_at"] is None
    rematch = document["games"][-1]
    assert rematch["rematch_of"] == tie["uid"]
    ordered = document["games"][1]
    assert ordered["options"] == {"bonus_threshold": 42}
    poker = document["games"][3]
    assert poker["turns"][0] == {
        "seq": 1,
        "seat": 0,
        "dice": "66666",
        "field": None,
        "column": None,
        "points": None,
        "extra_bonus": 0,
        "created_at": "2025-05-01T21:31:00Z",
        "undone_at": None,
    }


def test_a_second_import_changes_nothing(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    headers = bearer(app, family["target"])
    body = json.dumps(family["document"])

    first = client.post(IMPORT, data=body, headers=headers, content_type="application/json")
    before = snapshot(app)
    second = client.post(IMPORT, data=body, headers=headers, content_type="application/json")

    assert first.status_code == 200
    assert first.get_json() == {"imported": {"games": 6, "players": 4}}
    assert second.status_code == 200
    assert second.get_json() == {"imported": {"games": 0, "players": 0}}
    assert snapshot(app) == before


def test_importing_into_the_same_account_creates_nothing(app: Flask, family: dict[str, Any]):
    before = snapshot(app)

    with app.app_context():
        result = transfer.import_account(family["source"], family["document"])

    assert result == transfer.ImportResult(games=0, players=0, skipped=6)
    assert snapshot(app) == before


def test_players_are_matched_by_name_whatever_the_case(app: Flask, family: dict[str, Any]):
    tie_uid = family["document"]["games"][0]["uid"]
    with app.app_context():
        mine = games.create_game(family["target"], "standard", ["ALA", "Babcia Zosia"])
        result = transfer.import_account(family["target"], family["document"])
        tie = db.session.scalar(
            select(Game).where(Game.account_id == family["target"], Game.uid == tie_uid)
        )
        tie_names = [s.player.name for s in tie.seats]
        mine_names = [s.player.name for s in games.load(family["target"], mine.id).seats]
        names = sorted(p.name for p in players.list_players(family["target"]))

    assert result.players == 3  # Ola, Jan and Łucja: "Ala" is the account's ALA
    assert tie_names == ["ALA", "Ola"]
    assert mine_names == ["ALA", "Babcia Zosia"]
    assert names == sorted(["ALA", "Babcia Zosia", "Ola", "Jan", "Łucja"])


def test_an_old_backup_after_a_rename_adds_no_player_without_games(
    app: Flask, family: dict[str, Any]
):
    """Ala became Alicja after the backup: importing it again adds no game (all are there) and
    so no „Ala” without games; a player of the file who never played still comes in."""
    document = copy.deepcopy(family["document"])
    document["players"].append({"name": "Babcia Zosia", "created_at": "2025-01-01T10:00:00Z"})
    with app.app_context():
        ala = next(p for p in players.list_players(family["source"]) if p.name == "Ala")
        players.rename_player(family["source"], ala.id, "Alicja")

        result = transfer.import_account(family["source"], document)
        names = sorted(p.name for p in players.list_players(family["source"]))

    assert result == transfer.ImportResult(games=0, players=1, skipped=6)
    assert names == sorted(["Alicja", "Babcia Zosia", "Jan", "Łucja", "Ola"])


def test_cached_figures_are_recomputed_from_the_turns_not_read_from_the_file(
    app: Flask, family: dict[str, Any]
):
    document = copy.deepcopy(family["document"])
    for game in document["games"]:
        for seat in game["seats"]:
            seat.update(total=999, place=7, is_winner=True, generals=5, upper_bonuses=3)

    with app.app_context():
        transfer.import_account(family["target"], document)

    assert account_records(app, family["target"]) == account_records(app, family["source"])


def test_recomputing_after_an_import_changes_nothing(app: Flask, family: dict[str, Any]):
    with app.app_context():
        transfer.import_account(family["target"], family["document"])
    before = snapshot(app)

    with app.app_context():
        results.recompute_all()

    assert snapshot(app) == before


def test_a_file_without_finished_at_takes_the_last_turns_time(app: Flask, family: dict[str, Any]):
    document = copy.deepcopy(family["document"])
    for game in document["games"]:
        game["finished_at"] = None

    with app.app_context():
        transfer.import_account(family["target"], document)
        copied = {
            g.uid: g.finished_at
            for g in db.session.scalars(
                select(Game)
                .where(Game.account_id == family["target"])
                .execution_options(populate_existing=True)
            )
        }

    tie = document["games"][0]
    assert copied[tie["uid"]] == datetime(2025, 3, 1, 18, 27)  # its 27th turn, the last
    assert copied[document["games"][-1]["uid"]] is None  # the rematch is unfinished


def test_the_hint_chosen_for_a_game_travels_with_it(app: Flask):
    """„Podpowiedzi” is part of the game: exported, and imported as the file says."""
    with app.app_context():
        source = new_account("Kowalscy")
        hinted = games.create_game(source, "standard", ["Ala", "Ola"], hints=True).id
        plain = games.create_game(source, "triple", ["Ala"]).id
        poker = games.create_game(source, "poker", ["Ala", "Ola"]).id
        document = transfer.export_account(source)
        target = new_account("Nowakowie")
        transfer.import_account(target, document)
        copied = {
            uid: hints
            for uid, hints in db.session.execute(
                select(Game.uid, Game.hints).where(Game.account_id == target)
            )
        }
        uids = {
            game_id: db.session.scalar(select(Game.uid).where(Game.id == game_id))
            for game_id in (hinted, plain, poker)
        }

    assert {g["uid"]: g["hints"] for g in document["games"]} == {
        uids[hinted]: True,
        uids[plain]: False,
        uids[poker]: False,
    }
    assert copied == {uids[hinted]: True, uids[plain]: False, uids[poker]: False}
    assert account_records(app, target) == account_records(app, source)


def test_a_file_from_before_the_hint_imports_without_it(app: Flask, family: dict[str, Any]):
    document = copy.deepcopy(family["document"])
    for game in document["games"]:
        del game["hints"]

    with app.app_context():
        result = transfer.import_account(family["target"], document)
        hinted = db.session.scalar(
            select(func.count()).where(Game.account_id == family["target"], Game.hints)
        )

    assert result.games == 6
    assert hinted == 0
    assert account_records(app, family["target"]) == account_records(app, family["source"])


def test_an_export_is_json_in_utf8_with_polish_letters(app: Flask, family: dict[str, Any]):
    with app.app_context():
        raw = transfer.export_json(family["source"])

    assert "Łucja" in raw
    assert json.loads(raw) == {**family["document"], "exported_at": json.loads(raw)["exported_at"]}


# --- malformed and tampered files ---------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def set_in(path: str, value: Any) -> Mutation:
    """A mutation setting `document[a][b]...` = value; path like "games.0.turns.1.points"."""

    def mutate(document: dict[str, Any]) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target: Any = document
        for key in parents:
            target = target[key]
        target[last] = value

    return mutate


def game_of(key: str) -> int:
    return ["tie", "ordered", "scandinavian", "poker", "triple", "rematch"].index(key)


def extra_turn_after_the_end(document: dict[str, Any]) -> None:
    turns = document["games"][game_of("ordered")]["turns"]
    turns.append({**turns[-1], "seq": 14, "dice": "11111", "field": "ones", "points": 5})


def duplicate_seq(document: dict[str, Any]) -> None:
    turns = document["games"][game_of("rematch")]["turns"]
    turns.append({**turns[-1], "field": "fours", "dice": "44412", "points": 12})


def out_of_turn(document: dict[str, Any]) -> None:
    turns = document["games"][game_of("rematch")]["turns"]
    turns[1]["seat"] = 0


def seq_gap(document: dict[str, Any]) -> None:
    turns = document["games"][game_of("rematch")]["turns"]
    turns[2]["seq"] = 4


def undone_in_the_middle(document: dict[str, Any]) -> None:
    turns = document["games"][game_of("rematch")]["turns"]
    turns[0]["undone_at"] = "2025-06-01T18:30:00Z"


def nine_players(document: dict[str, Any]) -> None:
    names = [f"Gracz {n}" for n in range(1, 10)]
    document["players"].extend({"name": n} for n in names)
    document["games"][game_of("rematch")]["seats"] = [{"player": n} for n in names]
    document["games"][game_of("rematch")]["turns"] = []


def same_player_twice(document: dict[str, Any]) -> None:
    document["games"][game_of("rematch")]["seats"][1]["player"] = "ola"


def duplicate_uid(document: dict[str, Any]) -> None:
    document["games"][game_of("ordered")]["uid"] = document["games"][0]["uid"]


def poker_hand_with_a_field(document: dict[str, Any]) -> None:
    document["games"][game_of("poker")]["turns"][0]["field"] = "chance"


def unknown_top_field(document: dict[str, Any]) -> None:
    document["owner"] = "ktoś"


MALFORMED = [
    pytest.param(lambda d: [d], "To nie jest plik eksportu Kości", id="a-list"),
    pytest.param(
        set_in("format", "inna-aplikacja"), "To nie jest plik eksportu Kości", id="format"
    ),
    pytest.param(set_in("version", 2), "Nieobsługiwana wersja pliku eksportu: 2", id="version-2"),
    pytest.param(set_in("version", "1"), "Nieobsługiwana wersja", id="version-as-text"),
    pytest.param(set_in("version", True), "Nieobsługiwana wersja", id="version-true"),
    pytest.param(unknown_top_field, "nieznane pola: owner", id="unknown-top-field"),
    pytest.param(set_in("players", {}), "Pole players musi być listą", id="players-not-a-list"),
    pytest.param(set_in("players.0.name", "  "), "Podaj imię gracza", id="empty-name"),
    pytest.param(
        set_in("games.0.turns.3.points", 22),
        "ruch nr 3 (kolejka 2, pozycja 4 w pliku): w polu Dwójki zapisano 22 pkt, a zasady "
        "dają za 2-2-2-4-5 6 pkt. Plik zmieniono albo jest uszkodzony.",
        id="tampered-points",
    ),
    pytest.param(
        set_in("games.0.turns.2.points", 18),
        "w polu Trzy jednakowe zapisano 18 pkt, a zasady dają za 6-6-6-1-2 21 pkt",
        id="tampered-points-of-a-corrected-turn",
    ),
    pytest.param(
        set_in("games.1.turns.0.dice", "71123"), "Kość ma oczka od 1 do 6, a nie 7", id="die-7"
    ),
    pytest.param(set_in("games.1.turns.0.dice", "1112"), "dokładnie pięciu kości", id="four-dice"),
    pytest.param(
        set_in("games.1.turns.0.field", "sevens"),
        "Pola 'sevens' nie ma w tabeli",
        id="unknown-field",
    ),
    pytest.param(set_in("games.1.turns.0.joker", True), "nieznane pola: joker", id="unknown-key"),
    pytest.param(set_in("games.4.turns.0.column", 3), "Kolumna 3 nie istnieje", id="bad-column"),
    pytest.param(
        set_in("games.1.variant", "yahtzee"), "nieznany wariant 'yahtzee'", id="unknown-variant"
    ),
    pytest.param(
        set_in("games.0.options", {"bonus_threshold": 42}),
        "bonus_threshold=42 nie obowiązuje",
        id="options-of-another-variant",
    ),
    pytest.param(set_in("games.3.options", {"target_wins": 12}), "od 1 do 9", id="bad-target-wins"),
    pytest.param(duplicate_seq, "ruch nr 3 występuje dwa razy", id="duplicate-seq"),
    pytest.param(seq_gap, "brakuje ruchów pomiędzy", id="seq-gap"),
    pytest.param(
        out_of_turn,
        "ruch zapisano graczowi Ola, a według kolejności przy stole była kolej gracza Ala",
        id="out-of-turn",
    ),
    pytest.param(extra_turn_after_the_end, "gra była już zakończona", id="turn-after-the-end"),
    pytest.param(
        undone_in_the_middle, "cofnąć można tylko ostatni ruch", id="undone-in-the-middle"
    ),
    pytest.param(nine_players, "od 1 do 8 graczy, a w pliku 9", id="nine-players"),
    pytest.param(
        set_in("games.3.seats", [{"player": "Ala"}]), "od 2 do 8 graczy", id="poker-alone"
    ),
    pytest.param(same_player_twice, "siedzi przy stole dwa razy", id="same-player-twice"),
    pytest.param(
        set_in("games.0.seats.0.player", "Zenek"),
        "gracza 'Zenek' nie ma na liście",
        id="unknown-player",
    ),
    pytest.param(set_in("games.0.uid", "x" * 32), "32 znaki szesnastkowe", id="bad-uid"),
    pytest.param(duplicate_uid, "ma już inna gra w tym pliku", id="duplicate-uid"),
    pytest.param(
        set_in("games.0.started_at", "wczoraj"),
        "nie jest czasem w formacie ISO 8601",
        id="bad-time",
    ),
    pytest.param(
        set_in("games.0.finished_at", "9999-12-31T23:59:59-01:00"),
        "nie jest czasem w formacie ISO 8601",
        id="time-out-of-range",
    ),
    pytest.param(set_in("games.0.turns.0.seq", 0), "musi być dodatni", id="seq-zero"),
    pytest.param(
        set_in("games.0.turns.0.points", "3"),
        "pole points musi być liczbą całkowitą",
        id="points-as-text",
    ),
    pytest.param(
        poker_hand_with_a_field, "w pokerze kościanym ruch to tylko kości", id="poker-field"
    ),
    pytest.param(set_in("games.5.rematch_of", "f" * 32), "to rewanż gry", id="rematch-of-nothing"),
    pytest.param(
        set_in("games.0.hints", "tak"),
        "Pole hints musi mieć wartość true albo false.",
        id="hints-not-a-boolean",
    ),
    pytest.param(set_in("games.0.hints", 1), "Pole hints musi mieć", id="hints-as-a-number"),
    pytest.param(
        set_in("games.3.hints", True),
        "Gra nr 4 z 1.05.2025, Poker kościany bez tabeli – Podpowiedzi są tylko w grach z",
        id="hints-in-poker",
    ),
]


@pytest.mark.parametrize(("mutate", "message"), MALFORMED)
def test_a_malformed_or_tampered_file_changes_nothing_and_says_what_is_wrong(
    app: Flask, family: dict[str, Any], mutate: Mutation, message: str
):
    document = copy.deepcopy(family["document"])
    document = mutate(document) or document
    headers = bearer(app, family["target"])
    before = snapshot(app)

    response = app.test_client().post(IMPORT, json=document, headers=headers)

    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error.startswith("Nic nie zaimportowano. ")
    assert message in error
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(b"", "Plik jest pusty", id="empty"),
        pytest.param(
            b'{"format": "kosci-export",\n  "version": 1,\n  "players": [{"na',
            "Plik się urywa (wiersz 3, kolumna 16): to niepełna kopia. "
            "Pobierz eksport jeszcze raz.",
            id="cut",
        ),
        pytest.param(
            "Data;Wariant;Gracz\n2025-04-01;Kości;Ala\n".encode(),
            "Plik nie jest poprawnym JSON-em (wiersz 1, kolumna 1), więc nie jest eksportem "
            "Kości albo ktoś go zmienił.",
            id="csv",
        ),
        pytest.param(b"\xff\xfe{}", "nie jest tekstem UTF-8", id="not-utf8"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, "zbyt głęboko zagnieżdżony", id="deep"),
        pytest.param(
            b'{"format": "kosci-export", "version": 1, "\\ud800": 1, "players": [], "games": []}',
            "połowę pary znaków UTF-16",
            id="half-a-utf16-pair",
        ),
    ],
)
def test_a_file_that_is_not_json_changes_nothing(
    app: Flask, family: dict[str, Any], body: bytes, message: str
):
    before = snapshot(app)

    response = app.test_client().post(
        IMPORT, data=body, headers=bearer(app, family["target"]), content_type="application/json"
    )

    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert snapshot(app) == before


def test_an_import_is_all_or_nothing(app: Flask, family: dict[str, Any]):
    """Five valid games and the sixth tampered: not one game, not one player is imported."""
    document = copy.deepcopy(family["document"])
    document["games"][-1]["turns"][-1]["points"] += 1
    before = snapshot(app)

    with app.app_context(), pytest.raises(InvalidInput) as refused:
        transfer.import_account(family["target"], document)

    assert "Gra nr 6 z 1.06.2025, Kości (tabela polska), gracze: Ola, Ala – ruch nr 3" in (
        refused.value.message
    )
    assert snapshot(app) == before


def test_a_refused_game_is_named_in_english_with_an_unambiguous_day(
    app: Flask, family: dict[str, Any]
):
    """„Game 6 of 1.06.2025” read as a count, with a day an English reader takes for 6 January:
    in English the game is from 2025-06-01."""
    document = copy.deepcopy(family["document"])
    document["games"][-1]["turns"][-1]["points"] += 1

    response = app.test_client().post(
        IMPORT, json=document, headers={**bearer(app, family["target"]), "Accept-Language": "en"}
    )

    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "Game 6 from 2025-06-01, Kości (Polish sheet), players: Ola, Ala – move 3" in error
    assert "1.06.2025" not in error


def test_a_database_error_midway_keeps_whole_games_and_importing_again_completes_it(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """Games are written in short transactions of whole games: a failure in the third batch
    keeps the two batches before it, never half a game, and the same file completes it."""
    monkeypatch.setattr(transfer.write, "BATCH_ROWS", 1)  # one game per transaction
    real_insert = transfer.write.insert
    turn_inserts = []

    def fail_on_the_third_games_turns(table: Any) -> Any:
        if table is transfer.write._turns_table:
            turn_inserts.append(table)
            if len(turn_inserts) == 3:  # the game and its seats are written by now
                raise RuntimeError("dysk pełny")
        return real_insert(table)

    monkeypatch.setattr(transfer.write, "insert", fail_on_the_third_games_turns)
    with app.app_context(), pytest.raises(RuntimeError):
        transfer.import_account(family["target"], family["document"])

    with app.app_context():
        written = db.session.scalars(
            select(Game.uid).where(Game.account_id == family["target"])
        ).all()
        orphans = db.session.execute(
            text(
                "SELECT count(*) FROM games WHERE account_id = :a AND (id NOT IN "
                "(SELECT game_id FROM game_seats) OR id NOT IN (SELECT game_id FROM turns))"
            ),
            {"a": family["target"]},
        ).scalar()
    uids = [g["uid"] for g in family["document"]["games"]]
    assert sorted(written) == sorted(uids[:2])
    assert orphans == 0
    partial = account_records(app, family["target"])
    source = account_records(app, family["source"])
    assert partial == {uid: source[uid] for uid in uids[:2]}

    monkeypatch.setattr(transfer.write, "insert", real_insert)
    with app.app_context():
        result = transfer.import_account(family["target"], family["document"])

    assert (result.games, result.skipped) == (4, 2)
    assert account_records(app, family["target"]) == source


def test_two_imports_of_the_same_games_at_once_store_them_once(
    app: Flask, family: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """Both imports read "not there yet"; the second to write meets the unique uid."""
    with app.app_context():
        transfer.import_account(family["target"], family["document"])
    before = snapshot(app)
    real_write = transfer.write.write_games

    def as_if_nothing_was_there(account_id, players, new, known):  # type: ignore[no-untyped-def]
        # All of the file as new, its players too (the import adds only the new games' ones).
        everyone = transfer.parse.parse_players(family["document"]["players"])
        games_in_file = [
            transfer.parse.parse_game(g, n, everyone)
            for n, g in enumerate(family["document"]["games"], 1)
        ]
        return real_write(account_id, everyone, games_in_file, {})

    monkeypatch.setattr(transfer.write, "write_games", as_if_nothing_was_there)
    with app.app_context(), pytest.raises(Conflict) as refused:
        transfer.import_account(family["target"], family["document"])

    assert "W tym samym czasie zapisano te same gry" in refused.value.message
    assert snapshot(app) == before


# --- numbers and types of any size, limits shared with play --------------------------------------

HUGE = "9" * 5000  # Python reads at most 4,300 digits: json.loads raises a bare ValueError


@pytest.mark.parametrize(
    "path",
    [
        "version",
        "players.0.created_at",
        "games.0.turns.3.points",
        "games.0.turns.0.seq",
        "games.0.seats.0.total",  # a figure the import ignores
        "games.3.options.target_wins",
    ],
)
def test_an_integer_of_any_length_is_a_400_in_polish_and_changes_nothing(
    app: Flask, family: dict[str, Any], path: str
):
    document = copy.deepcopy(family["document"])
    set_in(path, "@HUGE@")(document)
    body = json.dumps(document).replace('"@HUGE@"', HUGE).encode()
    before = snapshot(app)

    api = app.test_client().post(
        IMPORT, data=body, headers=bearer(app, family["target"]), content_type="application/json"
    )
    web = app.test_client()
    sign_in(web, "Nowakowie")
    page = upload(web, body, page_csrf(web, "/konto/dane"))

    assert api.status_code == 400, api.get_data(as_text=True)[:200]
    assert api.get_json()["error"].startswith("Nic nie zaimportowano. Plik zawiera liczbę")
    assert page.status_code == 400
    assert "Plik zawiera liczbę o tysiącach cyfr" in page.get_data(as_text=True)
    assert snapshot(app) == before


ODD_VALUES = [
    pytest.param(10**5000, id="5000-digits"),
    pytest.param(2**63, id="2**63"),
    pytest.param(-(2**63) - 1, id="below-int64"),
    pytest.param(10**400, id="400-digits"),
    pytest.param(1.5, id="float"),
    pytest.param(float("inf"), id="inf"),
    pytest.param(float("nan"), id="nan"),
    pytest.param([], id="list"),
    pytest.param({}, id="object"),
    pytest.param(None, id="null"),
    pytest.param(True, id="true"),
    pytest.param("x" * 10_000, id="long-text"),
]


def leaf_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every value in the document (only the first two turns of each game): where to put junk."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in leaf_paths(v, (*path, k))] or [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value[:2]) for p in leaf_paths(v, (*path, i))] or [path]
    return [path]


@pytest.mark.parametrize("value", ODD_VALUES)
def test_an_odd_value_anywhere_is_refused_in_polish_or_ignored_never_a_crash(
    app: Flask, family: dict[str, Any], value: Any
):
    """Each value of the file in turn replaced by `value`: the import either refuses the file
    with InvalidInput and changes nothing, or takes it (the value was one the import ignores,
    such as a seat's total, or one it accepts, such as `null` for `finished_at`)."""
    with app.app_context():
        target = new_account("Próba")
    for path in leaf_paths(family["document"]):
        document = copy.deepcopy(family["document"])
        container: Any = document
        for key in path[:-1]:
            container = container[key]
        container[path[-1]] = value
        refusal = None
        with app.app_context():
            try:
                transfer.import_account(target, document)
            except InvalidInput as exc:
                refusal = exc.message
        if refusal is not None:
            assert refusal.startswith("Nic nie zaimportowano. "), path
            assert len(refusal) < 1000, path


def drawn_poker_match(hands: int, *, corrections: int = 0) -> dict[str, Any]:
    """An export of one poker match of `hands` hands in force, every round drawn (the same dice
    for both), so it never ends; its first `corrections` hands were first written and undone."""
    at = "2025-05-01T18:00:00Z"
    log = [
        {"seq": n + 1, "seat": n % 2, "dice": "12346", "created_at": at, "undone_at": at}
        for n in range(corrections)
    ]
    log += [{"seq": n + 1, "seat": n % 2, "dice": "12346", "created_at": at} for n in range(hands)]
    return {
        "format": "kosci-export",
        "version": 1,
        "players": [{"name": "Ala"}, {"name": "Ola"}],
        "games": [
            {
                "uid": "a" * 32,
                "variant": "poker",
                "options": {"target_wins": 9},
                "started_at": at,
                "seats": [{"player": "Ala"}, {"player": "Ola"}],
                "turns": log,
            }
        ],
    }


def test_a_game_played_to_the_turn_limit_with_corrections_imports(app: Flask):
    """Play allows `MAX_TURNS_PER_GAME` turns in force, undone ones besides: so does import (it
    once counted the corrections too, so such an export could not be imported)."""
    limit = games.MAX_TURNS_PER_GAME
    assert limit == transfer.replay.MAX_TURNS_PER_GAME
    with app.app_context():
        account = new_account("Pokerzyści")
        result = transfer.import_account(account, drawn_poker_match(limit, corrections=3))
        game_id = db.session.scalar(select(Game.id).where(Game.account_id == account))
        view = games.load(account, game_id)
        assert result.games == 1
        assert len(view.turns) == limit
        assert len(view.log) == limit + 3
        # ...and play refuses the next turn, as the import refuses a file with one more.
        with pytest.raises(Conflict):
            games.record_turn(account, game_id, "12346")


def test_a_game_past_the_turn_limit_is_refused_and_changes_nothing(app: Flask):
    limit = games.MAX_TURNS_PER_GAME
    with app.app_context():
        account = new_account("Pokerzyści")
    before = snapshot(app)

    with app.app_context(), pytest.raises(InvalidInput) as refused:
        transfer.import_account(account, drawn_poker_match(limit + 1))

    assert f"ruch nr {limit + 1} " in refused.value.message
    assert f"gra ma już {limit} ruchów w mocy" in refused.value.message
    assert snapshot(app) == before


def test_two_rematches_of_one_game_are_a_400_not_a_conflict(app: Flask, family: dict[str, Any]):
    """A game has at most one rematch (the database says so too): a file naming two is
    refused as a file, before anything is written."""
    document = copy.deepcopy(family["document"])
    rematch = document["games"][game_of("rematch")]
    document["games"][game_of("triple")]["rematch_of"] = rematch["rematch_of"]
    before = snapshot(app)

    response = app.test_client().post(IMPORT, json=document, headers=bearer(app, family["target"]))

    assert response.status_code == 400, response.get_json()
    assert "gra ma najwyżej jeden rewanż" in response.get_json()["error"]
    assert snapshot(app) == before


def test_a_rematch_listed_before_its_game_is_linked(app: Flask, family: dict[str, Any]):
    """Games are written in batches; a rematch that comes first in the file is written after
    the game it is a rematch of, with its link."""
    document = copy.deepcopy(family["document"])
    document["games"].insert(0, document["games"].pop(game_of("rematch")))

    with app.app_context():
        transfer.import_account(family["target"], document)

    assert account_records(app, family["target"]) == account_records(app, family["source"])


def test_a_second_import_while_one_runs_is_told_to_wait(app: Flask, family: dict[str, Any]):
    """One import at a time per server: two would keep both default workers busy, and no
    phone's turn would be served meanwhile."""
    headers = bearer(app, family["target"])
    web = app.test_client()
    sign_in(web, "Nowakowie")
    token = page_csrf(web, "/konto/dane")
    body = json.dumps(family["document"]).encode()
    before = snapshot(app)

    with transfer.one_import_at_a_time(app.instance_path):
        api = app.test_client().post(
            IMPORT, data=body, headers=headers, content_type="application/json"
        )
        page = upload(web, body, token)

    assert api.status_code == 429
    assert api.get_json()["error"].startswith("Na tym serwerze trwa już inny import.")
    assert api.headers["Retry-After"] == "5"
    assert page.status_code == 429
    assert page.headers["Retry-After"] == "5"
    assert "Na tym serwerze trwa już inny import." in page.get_data(as_text=True)
    assert snapshot(app) == before
    after = app.test_client().post(
        IMPORT, data=body, headers=headers, content_type="application/json"
    )
    assert after.status_code == 200


# --- CSV -------------------------------------------------------------------------------------


def test_csv_has_a_row_per_player_per_game_with_ties_and_poker_round_wins(
    app: Flask, family: dict[str, Any]
):
    with app.app_context():
        raw = transfer.export_csv(family["source"])
        uids = {k: db.session.get(Game, i).uid for k, i in family["ids"].items()}

    assert raw.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(raw[1:]), delimiter=";"))
    assert rows[0] == [
        "Data",
        "Wariant",
        "Gracz",
        "Punkty",
        "Wygrane rundy",
        "Miejsce",
        "Zwycięzca",
        "Zakończona",
        "Gra",
    ]
    by_game = {}
    for row in rows[1:]:
        by_game.setdefault(row[-1], []).append(row[:-1])
    # A tie: both share first place and both won. Times are Warsaw's (UTC+1 in March).
    assert by_game[uids["tie"]] == [
        ["2025-03-01 19:00", "Kości (tabela polska)", "Ala", "308", "", "1", "tak", "tak"],
        ["2025-03-01 19:00", "Kości (tabela polska)", "Ola", "308", "", "1", "tak", "tak"],
    ]
    # Poker: round wins, not points; one round was a draw, so the wins add up to 3 of 4.
    assert by_game[uids["poker"]] == [
        ["2025-05-01 23:30", "Poker kościany bez tabeli", "Ala", "", "2", "1", "tak", "tak"],
        ["2025-05-01 23:30", "Poker kościany bez tabeli", "Łucja", "", "0", "3", "nie", "tak"],
        ["2025-05-01 23:30", "Poker kościany bez tabeli", "Jan", "", "1", "2", "nie", "tak"],
    ]
    # Unfinished: no place and no winner yet.
    assert by_game[uids["rematch"]] == [
        ["2025-06-01 20:00", "Kości (tabela polska)", "Ola", "12", "", "", "", "nie"],
        ["2025-06-01 20:00", "Kości (tabela polska)", "Ala", "6", "", "", "", "nie"],
    ]
    assert len(rows) == 1 + 2 + 1 + 2 + 3 + 1 + 2


def test_a_player_named_like_a_formula_stays_text_in_csv(app: Flask):
    with app.app_context():
        account_id = new_account("Kowalscy")
        games.create_game(account_id, "standard", ["=1+1", "Ola"])
        raw = transfer.export_csv(account_id)

    assert ";'=1+1;" in raw


def test_csv_download_is_utf8_with_a_byte_order_mark(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Kowalscy")

    response = client.get("/konto/dane/wyniki.csv")

    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    # One charset parameter: a media type names each of its parameters once (RFC 6838).
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.data.startswith(b"\xef\xbb\xbfData;Wariant;")
    assert "Łucja".encode() in response.data
    assert response.headers["Content-Disposition"].startswith("attachment;")
    assert ".csv" in response.headers["Content-Disposition"]


def test_json_download_is_the_export(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Kowalscy")

    response = client.get("/konto/dane/kosci.json")

    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    assert "kosci-Kowalscy-" in response.headers["Content-Disposition"]
    assert without_moment(json.loads(response.data)) == without_moment(family["document"])


# --- the web page ------------------------------------------------------------------------------


def upload(client: FlaskClient, content: bytes, token: str | None = None, name: str = "k.json"):
    """Post the import form as a browser does (multipart, the file and the CSRF token)."""
    boundary = "----kosci-test-boundary"
    parts = []
    if token is not None:
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
            f"{token}\r\n".encode()
        )
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return client.post(
        "/konto/dane",
        data=b"".join(parts),
        content_type=f"multipart/form-data; boundary={boundary}",
    )


def test_a_file_with_half_of_a_utf16_pair_is_refused_on_the_page(
    app: Flask, family: dict[str, Any]
):
    client = app.test_client()
    sign_in(client, "Nowakowie")
    before = snapshot(app)
    content = b'{"format": "kosci-export", "version": 1, "games": [], "\\udc00": []}'

    response = upload(client, content, page_csrf(client, "/konto/dane"))

    assert response.status_code == 400
    assert "połowę pary znaków UTF-16" in text_of(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_the_account_page_links_to_the_data_page(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Kowalscy")

    account = client.get("/konto").get_data(as_text=True)
    page = client.get("/konto/dane").get_data(as_text=True)

    assert 'href="/konto/dane"' in account
    assert 'href="/konto/dane/kosci.json"' in page
    assert 'href="/konto/dane/wyniki.csv"' in page
    assert 'enctype="multipart/form-data"' in page
    assert 'name="csrf_token"' in page
    assert "6 gier, 4 gracze" in text_of(page)


def test_importing_through_the_page_with_csrf(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Nowakowie")
    content = json.dumps(family["document"]).encode()

    first = upload(client, content, page_csrf(client, "/konto/dane"))
    page = client.get("/konto/dane").get_data(as_text=True)
    second = upload(client, content, page_csrf(client, "/konto/dane"))
    again = client.get("/konto/dane").get_data(as_text=True)

    assert first.status_code == 303
    assert first.headers["Location"] == "/konto/dane"
    assert "Zaimportowano 6 gier i 4 graczy." in page
    assert "w tle" not in page  # every review was stored before the answer
    assert second.status_code == 303
    assert "nie wniósł nic nowego" in again
    assert account_records(app, family["target"]) == account_records(app, family["source"])


def test_the_page_says_which_games_were_already_there(app: Flask, family: dict[str, Any]):
    part = {**family["document"], "games": family["document"]["games"][:3]}
    with app.app_context():
        transfer.import_account(family["target"], part)
    client = app.test_client()
    sign_in(client, "Nowakowie")

    upload(client, json.dumps(family["document"]).encode(), page_csrf(client, "/konto/dane"))

    page = client.get("/konto/dane").get_data(as_text=True)
    assert "Zaimportowano 3 gry i 0 graczy. Pominięto 3 gry, które już były na koncie." in page


def test_the_page_says_a_file_without_games_holds_none(app: Flask, family: dict[str, Any]):
    empty = {**family["document"], "players": [], "games": []}  # an account that had not played
    client = app.test_client()
    sign_in(client, "Nowakowie")
    before = snapshot(app)

    upload(client, json.dumps(empty).encode(), page_csrf(client, "/konto/dane"))

    page = client.get("/konto/dane").get_data(as_text=True)
    assert "Plik jest poprawny, ale nie ma w nim żadnej gry." in page
    assert "nie wniósł nic nowego" not in page
    assert snapshot(app) == before


@pytest.mark.parametrize("app_config", [{"KOSCI_IMPORT_REVIEW_SECONDS": 0}])
def test_the_page_says_when_reviews_are_left_to_the_background(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Nowakowie")

    upload(client, json.dumps(family["document"]).encode(), page_csrf(client, "/konto/dane"))
    assert reviewer.wait(app, 60)

    page = client.get("/konto/dane").get_data(as_text=True)
    assert "Zaimportowano 6 gier i 4 graczy. Oceny części gier zostaną policzone w tle." in page


def test_importing_through_the_page_without_csrf_is_refused(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Nowakowie")
    before = snapshot(app)

    response = upload(client, json.dumps(family["document"]).encode())

    assert response.status_code == 400
    assert "Formularz wygasł" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_bad_file_on_the_page_is_explained_next_to_the_file_field(
    app: Flask, family: dict[str, Any]
):
    client = app.test_client()
    sign_in(client, "Nowakowie")
    document = copy.deepcopy(family["document"])
    document["games"][1]["turns"][0]["dice"] = "71123"
    before = snapshot(app)

    response = upload(client, json.dumps(document).encode(), page_csrf(client, "/konto/dane"))

    html = response.get_data(as_text=True)
    assert response.status_code == 400
    error = re.search(r'<p class="error" id="file-error">(.*?)</p>', html, re.S)
    assert error
    assert "Nic nie zaimportowano." in error.group(1)
    assert "Kość ma oczka od 1 do 6, a nie 7" in error.group(1)
    assert 'aria-invalid="true"' in html
    assert snapshot(app) == before


def test_the_page_asks_for_a_file_when_none_is_chosen(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Nowakowie")

    response = client.post(
        "/konto/dane",
        data={"csrf_token": page_csrf(client, "/konto/dane")},
        content_type="multipart/form-data",
    )

    assert response.status_code == 400
    assert "Wybierz plik pobrany jako" in response.get_data(as_text=True)


def test_the_data_pages_need_sign_in(client: FlaskClient):
    for url in ("/konto/dane", "/konto/dane/kosci.json", "/konto/dane/wyniki.csv", "/historia"):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.headers["Location"].startswith("/logowanie")


# --- large files -----------------------------------------------------------------------------


def padded(document: dict[str, Any], size: int) -> bytes:
    """The export made `size` bytes long with trailing white space: still the same JSON."""
    raw = json.dumps(document).encode()
    return raw + b" " * (size - len(raw))


def test_the_import_accepts_files_over_the_apps_1_mb_limit(app: Flask, family: dict[str, Any]):
    body = padded(family["document"], 3 * 1024 * 1024)
    client = app.test_client()

    api = client.post(
        IMPORT, data=body, headers=bearer(app, family["target"]), content_type="application/json"
    )

    assert app.config["MAX_CONTENT_LENGTH"] == 1024 * 1024
    assert api.status_code == 200, api.get_json()
    assert api.get_json() == {"imported": {"games": 6, "players": 4}}
    web = app.test_client()
    sign_in(web, "Kowalscy")
    page = upload(web, body, page_csrf(web, "/konto/dane"))
    assert page.status_code == 303
    # Everywhere else the 1 MB limit stands.
    other = client.post(
        "/api/v1/games",
        data=b" " * (2 * 1024 * 1024),
        headers=bearer(app, family["target"]),
        content_type="application/json",
    )
    assert other.status_code == 413


def test_a_file_over_32_mb_is_refused_in_polish(app: Flask, family: dict[str, Any]):
    body = padded(family["document"], transfer.MAX_FILE_BYTES + 1)
    client = app.test_client()
    before = snapshot(app)

    api = client.post(
        IMPORT, data=body, headers=bearer(app, family["target"]), content_type="application/json"
    )
    web = app.test_client()
    sign_in(web, "Nowakowie")
    page = upload(web, body, page_csrf(web, "/konto/dane"))

    assert api.status_code == 413
    assert api.get_json() == {"error": "Plik eksportu może mieć najwyżej 32 MB."}
    assert page.status_code == 413
    assert "Plik jest za duży: najwyżej 32 MB." in page.get_data(as_text=True)
    assert snapshot(app) == before


# --- the API ---------------------------------------------------------------------------------


def test_the_api_export_is_the_services_export(app: Flask, family: dict[str, Any]):
    response = app.test_client().get(EXPORT, headers=bearer(app, family["source"]))

    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert without_moment(response.get_json()) == without_moment(family["document"])


@pytest.mark.parametrize(("method", "url"), [("get", EXPORT), ("post", IMPORT)])
def test_the_api_needs_a_token(app: Flask, family: dict[str, Any], method: str, url: str):
    before = snapshot(app)

    response = getattr(app.test_client(), method)(url, json=family["document"])

    assert response.status_code == 401
    assert "Brak tokenu" in response.get_json()["error"]
    assert snapshot(app) == before


# --- isolation --------------------------------------------------------------------------------


def test_an_export_holds_only_the_accounts_own_data(app: Flask, family: dict[str, Any]):
    with app.app_context():
        other = new_account("Sąsiedzi")
        theirs = games.create_game(other, "standard", ["Zenek", "Ala"])
        play(other, theirs.id, [STANDARD_SHEET[0]])
        document = transfer.export_account(family["source"])
        empty = transfer.export_account(family["target"])

    raw = json.dumps(document, ensure_ascii=False)
    assert "Zenek" not in raw
    assert theirs.game.uid not in raw
    assert len(document["games"]) == 6
    assert empty["games"] == []
    assert empty["players"] == []


def test_importing_into_another_account_leaves_the_source_untouched(
    app: Flask, family: dict[str, Any]
):
    source = account_records(app, family["source"])

    with app.app_context():
        transfer.import_account(family["target"], family["document"])
        source_games = db.session.scalars(
            select(Game.id).where(Game.account_id == family["source"])
        ).all()
        target_games = db.session.scalars(
            select(Game.id).where(Game.account_id == family["target"])
        ).all()

    assert account_records(app, family["source"]) == source
    assert len(source_games) == len(target_games) == 6
    assert set(source_games).isdisjoint(target_games)


def test_another_accounts_history_game_page_is_404(app: Flask, family: dict[str, Any]):
    client = app.test_client()
    sign_in(client, "Nowakowie")

    for key in ("tie", "poker", "rematch"):
        game_id = family["ids"][key]
        assert client.get(f"/gry/{game_id}/tabela").status_code == 404
    history = client.get("/historia").get_data(as_text=True)
    assert "Nie ma jeszcze żadnej gry" in history


# --- the uid column ------------------------------------------------------------------------------


def test_every_game_gets_its_own_uid(app: Flask, family: dict[str, Any]):
    with app.app_context():
        uids = db.session.scalars(select(Game.uid)).all()

    assert len(uids) == len(set(uids)) == 6
    assert all(re.fullmatch(r"[0-9a-f]{32}", uid) for uid in uids)


def test_upgrading_fills_a_uid_for_existing_games_and_keeps_every_row(tmp_path: Path):
    """The migration rebuilds `games` (SQLite batch mode): seats and turns refer to it with
    ON DELETE CASCADE, so foreign keys must be off meanwhile or they would all be deleted."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite3'}",
        },
        instance_path=tmp_path / "instance",
    )
    try:
        with app.app_context():
            upgrade(revision="589dd0f99f21")  # before the uid
            db.session.execute(
                text(
                    "INSERT INTO accounts (id, name, name_key, password_hash, created_at) "
                    "VALUES (1, 'K', 'k', '!', '2025-01-01 10:00:00')"
                )
            )
            db.session.execute(
                text(
                    "INSERT INTO players (id, account_id, name, name_key, created_at) "
                    "VALUES (1, 1, 'Ala', 'ala', '2025-01-01 10:00:00')"
                )
            )
            for game_id, rematch in ((1, "NULL"), (2, "1")):
                db.session.execute(
                    text(
                        "INSERT INTO games (id, account_id, variant, options, started_at, "
                        f"rematch_of_id) VALUES ({game_id}, 1, 'standard', '{{}}', "
                        f"'2025-01-01 10:00:00', {rematch})"
                    )
                )
                db.session.execute(
                    text(
                        "INSERT INTO game_seats (game_id, player_id, seat, total, is_winner) "
                        f"VALUES ({game_id}, 1, 0, 3, 0)"
                    )
                )
                db.session.execute(
                    text(
                        "INSERT INTO turns (game_id, seq, seat, dice, field, column, points, "
                        f"extra_bonus, created_at) VALUES ({game_id}, 1, 0, '11123', 'ones', 0, "
                        "3, 0, '2025-01-01 10:01:00')"
                    )
                )
            db.session.commit()

            upgrade()

            rows = db.session.execute(text("SELECT id, uid, rematch_of_id FROM games")).all()
            seats = db.session.scalar(text("SELECT count(*) FROM game_seats"))
            turns = db.session.scalar(text("SELECT count(*) FROM turns"))
            foreign_keys = db.session.scalar(text("PRAGMA foreign_keys"))
            view = games.load(1, 2)
    finally:
        dispose_engines(app)

    assert [(r.id, r.rematch_of_id) for r in rows] == [(1, None), (2, 1)]
    assert len({r.uid for r in rows}) == 2
    assert all(re.fullmatch(r"[0-9a-f]{32}", r.uid) for r in rows)
    assert (seats, turns) == (2, 2)
    assert foreign_keys == 1  # on again for the app
    assert view.table.scores == (3,)


# --- statistics ------------------------------------------------------------------------------

ID_KEYS = re.compile(r"(^|_)ids?$")


def without_ids(value: Any) -> Any:
    """A statistics result as plain data, every database id left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: without_ids(v) for k, v in value.items() if not ID_KEYS.search(str(k))}
    if isinstance(value, list | tuple):
        return [without_ids(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(map(repr, (without_ids(v) for v in value)))
    return value


def test_export_then_import_gives_identical_statistics(app: Flask, family: dict[str, Any]):
    stats = pytest.importorskip("tracker.services.stats")
    with app.app_context():
        transfer.import_account(family["target"], family["document"])
        results = {}
        for key in ("source", "target"):
            account_id = family[key]
            f = GameFilter()
            people = {p.name: p for p in players.list_players(account_id)}
            results[key] = {
                "api": stats.api_summary(account_id, f),
                "overview": without_ids(stats.overview(account_id, f)),
                "players": {
                    name: without_ids(stats.player_report(account_id, player, f))
                    for name, player in people.items()
                },
            }

    assert results["source"]["api"]["games"] == 4  # the finished ones
    assert results["target"] == results["source"]
