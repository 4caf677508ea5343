"""Writes to a game decide inside the transaction that stores them: racing phones, caches that
must never answer for another game or a stale state, retries, rematches, and the turn limit.

Several threads through the Flask test client stand in for phones here, each with its own app
context and database connection on one SQLite file; tests/e2e repeats the races against the
real server with several worker processes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select, text

from tracker.extensions import db
from tracker.models import Account, Game, Player, Turn
from tracker.services import InvalidInput, accounts, players, trash
from tracker.services import games as game_service
from tracker.store import cache

from .test_api_games import FILLER, GAMES, SIXES, STANDARD_ORDER, Api, account_with_token
from .test_api_games import api as api  # noqa: F401  (the fixture)

Request = Callable[[], Any]


def at_once(requests: list[Request]) -> list[Any]:
    """Send `requests` from as many threads, released together by a barrier; the answers (or
    the exception a request raised), in the order given."""
    barrier = threading.Barrier(len(requests), timeout=20)
    answers: list[Any] = [None] * len(requests)

    def phone(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = requests[index]()
        except Exception as exc:  # a 500 propagates in TESTING: record it, don't hang
            answers[index] = exc

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def turns_in_force(app: Flask, game_id: int) -> list[int]:
    with app.app_context():
        return list(
            db.session.scalars(
                select(Turn.seq)
                .where(Turn.game_id == game_id, Turn.undone_at.is_(None))
                .order_by(Turn.seq)
            )
        )


# --- a turn racing an undo ----------------------------------------------------------------


def test_a_turn_racing_an_undo_never_leaves_a_gap_in_the_turns(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala"])
    game_id = game["id"]

    def turn() -> Any:
        free = next(f for f in STANDARD_ORDER if f not in written_now())
        return api.client.post(
            f"{GAMES}/{game_id}/turns",
            json={"dice": FILLER[free], "field": free},
            headers=api.headers,
        )

    def undo() -> Any:
        return api.client.delete(f"{GAMES}/{game_id}/turns/last", headers=api.headers)

    def written_now() -> set[str]:
        with app.app_context():
            return set(
                db.session.scalars(
                    select(Turn.field).where(Turn.game_id == game_id, Turn.undone_at.is_(None))
                )
            )

    api.turn(game_id, FILLER["ones"], "ones")
    api.turn(game_id, FILLER["twos"], "twos")
    for _ in range(12):
        answers = at_once([turn, undo])
        statuses = [getattr(a, "status_code", a) for a in answers]
        assert all(s in (200, 201, 409) for s in statuses), statuses
        seqs = turns_in_force(app, game_id)
        assert seqs == list(range(1, len(seqs) + 1)), seqs
        if len(seqs) < 2:  # keep something to undo
            free = next(f for f in STANDARD_ORDER if f not in written_now())
            api.turn(game_id, FILLER[free], free)

    final = api.game(game_id)
    assert final["next_seq"] == len(final["turns"]) + 1
    filled = final["players"][0]["columns"][0]["cells"]
    assert sorted(filled) == sorted(t["field"] for t in final["turns"])


@pytest.mark.parametrize("held", [True, False], ids=["state held", "state read"])
def test_an_undo_sent_while_a_turn_is_being_written_never_breaks_the_game(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch, held: bool
):
    """Deterministically: the undo arrives after the turn has been decided and before it is
    written. Decided outside the write's transaction, the undo took back turn 2 and the turn
    was stored as seq 3: turns in force [1, 3], and the game broken for good. Now either the
    undo waits for the turn and takes it back, or (a turn decided on the state this process
    holds, before the lock, on PostgreSQL) the undo comes first and the turn, finding the game
    changed, is decided again on it and written as turn 2."""
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], FILLER["ones"], "ones")
    api.turn(game["id"], FILLER["twos"], "twos")
    if not held:
        cache.clear()
    original = game_service._decide
    undone: list[Any] = []
    thread = threading.Thread(
        target=lambda: undone.append(
            api.client.delete(f"{GAMES}/{game['id']}/turns/last", headers=api.headers)
        )
    )

    def undo_arrives_after_this_decision(*args: Any, **kwargs: Any) -> Any:
        turn = original(*args, **kwargs)
        if not thread.is_alive() and not undone:
            thread.start()
            thread.join(timeout=0.5)  # it finishes here only if nothing holds it back
        return turn

    monkeypatch.setattr(game_service, "_decide", undo_arrives_after_this_decision)

    response = api.post(f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "sixes"})
    thread.join(timeout=10)

    assert response.status_code == 201
    assert [r.status_code for r in undone] == [200]
    monkeypatch.undo()
    assert turns_in_force(app, game["id"]) == [1, 2]
    final = [t["field"] for t in api.game(game["id"])["turns"]]
    undo_came_first = held and app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    # The undo took "sixes" back, or it took "twos" and "sixes" was written after it.
    assert final == (["ones", "sixes"] if undo_came_first else ["ones", "twos"])


# --- safe retries ----------------------------------------------------------------------------


def test_a_retried_turn_with_expected_seq_is_written_once(api: Api):
    game = api.new_game("standard", ["Ala"])
    body = {"dice": SIXES, "field": "sixes", "expected_seq": game["next_seq"]}
    url = f"{GAMES}/{game['id']}/turns"

    first = api.post(url, body)
    retry = api.post(url, body)  # the first answer was lost: the phone sends it again

    assert first.status_code == 201
    assert first.get_json()["next_seq"] == 2
    assert retry.status_code == 201  # written, once
    assert retry.get_json()["next_seq"] == 2
    assert retry.get_json()["version"] == first.get_json()["version"]
    assert len(api.game(game["id"])["turns"]) == 1


def test_another_move_sent_for_a_turn_already_written_is_refused_with_a_code(api: Api):
    game = api.new_game("standard", ["Ala", "Ola"])
    url = f"{GAMES}/{game['id']}/turns"
    api.post(url, {"dice": SIXES, "field": "sixes", "expected_seq": 1})

    other = api.post(url, {"dice": SIXES, "field": "chance", "expected_seq": 1})
    later = api.post(url, {"dice": SIXES, "field": "sixes", "expected_seq": 0 + 1, "player": "Ola"})

    assert other.status_code == 409
    assert other.get_json()["code"] == "already_written"
    assert "już zapisany" in other.get_json()["error"]
    assert later.status_code == 409  # the same move, but for another player: not a retry
    assert len(api.game(game["id"])["turns"]) == 1


def test_a_retried_undo_with_expected_seq_takes_back_one_turn(api: Api):
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], FILLER["ones"], "ones")
    after = api.turn(game["id"], FILLER["twos"], "twos")
    url = f"{GAMES}/{game['id']}/turns/last?expected_seq={after['next_seq']}"

    first = api.delete(url)
    retry = api.delete(url)

    assert first.status_code == 200
    assert retry.status_code == 409
    assert retry.get_json()["code"] == "game_changed"
    assert [t["field"] for t in api.game(game["id"])["turns"]] == ["ones"]


@pytest.mark.parametrize("value", [0, -1, 5002, "2", 2.0, True, [], "9" * 5000], ids=repr)
def test_expected_seq_must_be_a_plausible_seq(api: Api, value: Any):
    game = api.new_game("standard", ["Ala"])

    response = api.post(
        f"{GAMES}/{game['id']}/turns", {"dice": SIXES, "field": "sixes", "expected_seq": value}
    )

    assert response.status_code == 400
    assert "expected_seq" in response.get_json()["error"]


@pytest.mark.parametrize("value", ["0", "x", "9" * 5000, "-1"])
def test_undo_expected_seq_in_the_query_must_be_a_plausible_seq(api: Api, value: str):
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], SIXES, "sixes")

    response = api.delete(f"{GAMES}/{game['id']}/turns/last?expected_seq={value}")

    assert response.status_code == 400
    assert len(api.game(game["id"])["turns"]) == 1


# --- creation races ------------------------------------------------------------------------


def test_games_created_at_once_with_the_same_new_players_share_the_players(app: Flask, api: Api):
    def create() -> Any:
        return api.client.post(
            GAMES, json={"variant": "standard", "players": ["Zenek", "Ziuta"]}, headers=api.headers
        )

    for _ in range(3):
        answers = at_once([create] * 4)
        assert [getattr(a, "status_code", a) for a in answers] == [201] * 4

    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 2
        assert db.session.scalar(select(func.count()).select_from(Game)) == 12


def test_a_lost_race_on_a_new_player_is_retried_not_a_500(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
):
    """The other phone tries to create the player between this request's look-up and its
    insert. On SQLite it waits for this write (the writers' queue); on PostgreSQL it gets
    there first, and this request loses the race on the unique name and tries again."""
    original = game_service.player_ids_by_names
    calls: list[Any] = []
    threads: list[threading.Thread] = []

    def other_phone_creates_the_player_first(account_id: int, names: list[str]) -> Any:
        found = original(account_id, names)
        if not calls:
            calls.append(1)
            thread = threading.Thread(
                target=lambda: calls.append(
                    api.client.post(
                        GAMES, json={"variant": "standard", "players": names}, headers=api.headers
                    )
                )
            )
            threads.append(thread)
            thread.start()
            thread.join(timeout=1)  # it finishes here only if nothing holds it back
        return found

    monkeypatch.setattr(game_service, "player_ids_by_names", other_phone_creates_the_player_first)

    response = api.post(GAMES, {"variant": "standard", "players": ["Nowy"]})
    threads[0].join(timeout=20)

    assert response.status_code == 201
    assert calls[1].status_code == 201
    with app.app_context():
        assert db.session.scalars(select(Player.name)).all() == ["Nowy"]
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2


# --- rematch --------------------------------------------------------------------------------


def test_a_second_rematch_opens_the_rematch_already_started(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala"])
    for field_id in STANDARD_ORDER:
        api.turn(game["id"], FILLER[field_id], field_id)
    with app.app_context():
        account_id = db.session.get(Game, game["id"]).account_id

    def rematch() -> Any:
        with app.app_context():
            return game_service.rematch(account_id, game["id"]).id

    answers = at_once([rematch] * 3)
    again = rematch()

    assert len({*answers, again}) == 1, answers
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2


# --- caches never answer for another game or a stale state ----------------------------------


def test_a_game_written_by_another_process_is_not_judged_from_the_cache(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], FILLER["ones"], "ones")  # this process now caches the sheet
    with app.app_context():  # another worker writes Szóstki (and raises the version)
        cache.clear()
        game_service.record_turn(
            db.session.get(Game, game["id"]).account_id, game["id"], SIXES, "sixes"
        )
    api.turn(game["id"], FILLER["twos"], "twos")  # refill this process's cache...
    with app.app_context():  # ...and the other worker takes "twos" back
        cache.clear()
        game_service.undo_last_turn(db.session.get(Game, game["id"]).account_id, game["id"])

    # The sheet this process cached has Dwójki filled; the game does not.
    after = api.turn(game["id"], FILLER["twos"], "twos")

    assert sorted(after["players"][0]["columns"][0]["cells"]) == ["ones", "sixes", "twos"]


def test_a_turn_decided_on_a_state_another_process_has_moved_past_is_decided_again(
    app: Flask, api: Api
):
    """The turn is decided on the state this process holds before any lock, and written only
    if the game is still at that state's version: here the state would take the turn (its
    seq is free there), but another worker has written since, so it is decided again on the
    game as it is."""
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], FILLER["ones"], "ones")
    with app.app_context():
        account_id = db.session.get(Game, game["id"]).account_id
    stale = cache.take(game["id"], account_id)  # this process's state: Jedynki only
    assert stale is not None
    with app.app_context():  # another worker writes Szóstki as turn 2
        game_service.record_turn(account_id, game["id"], SIXES, "sixes")
    cache.clear()
    cache.put(stale.game, list(stale.seats), list(stale.turns), stale.state)

    after = api.turn(game["id"], FILLER["twos"], "twos")

    assert sorted(after["players"][0]["columns"][0]["cells"]) == ["ones", "sixes", "twos"]
    assert [turn["field"] for turn in after["turns"]] == ["ones", "sixes", "twos"]
    again = api.turn(game["id"], FILLER["threes"], "threes")  # the state is the game's again
    assert len(again["players"][0]["columns"][0]["cells"]) == 4


def test_a_game_recreated_under_the_same_id_is_never_judged_from_the_old_one(app: Flask, api: Api):
    """Ids are no longer reused, but the cache must not rely on it: force a new game (another
    account, another variant) into the id of a cached one, with the same version."""
    old = api.new_game("standard", ["Ala"])
    api.turn(old["id"], SIXES, "sixes")  # cached: standard, Szóstki filled
    other = Api(api.client, account_with_token(app, "Nowakowie"))
    new = other.new_game("scandinavian", ["Ela"])
    with app.app_context():
        conn = db.session.connection()
        if conn.dialect.name == "postgresql":  # the foreign keys' triggers off (a superuser)
            conn.execute(text("SET LOCAL session_replication_role = replica"))
        else:
            conn.execute(text("PRAGMA foreign_keys=OFF"))
        conn.execute(text("DELETE FROM turns WHERE game_id = :old"), {"old": old["id"]})
        conn.execute(text("DELETE FROM game_seats WHERE game_id = :old"), {"old": old["id"]})
        conn.execute(text("DELETE FROM games WHERE id = :old"), {"old": old["id"]})
        for table in ("turns", "game_seats"):
            conn.execute(
                text(f"UPDATE {table} SET game_id = :old WHERE game_id = :new"),
                {"old": old["id"], "new": new["id"]},
            )
        conn.execute(
            text("UPDATE games SET id = :old, version = 1 WHERE id = :new"),
            {"old": old["id"], "new": new["id"]},
        )
        db.session.commit()

    assert api.get(f"{GAMES}/{old['id']}").status_code == 404  # another account's game now
    after = other.turn(old["id"], SIXES, "sixes")

    assert after["variant"] == "scandinavian"
    assert after["players"][0]["columns"][0]["cells"] == {"sixes": 30}


def test_ids_of_deleted_games_and_accounts_are_never_given_again(app: Flask, api: Api):
    first = api.new_game("standard", ["Ala"])
    game_service_delete(app, first["id"])

    second = api.new_game("standard", ["Ala"])

    assert second["id"] > first["id"]
    with app.app_context():
        conn = db.session.connection()
        newest = conn.execute(text("SELECT max(id) FROM accounts")).scalar_one()
        # Its games first: a seat's player is RESTRICT, which PostgreSQL checks at once, before
        # the cascade from the account has reached the seats.
        conn.execute(text("DELETE FROM games WHERE account_id = :id"), {"id": newest})
        conn.execute(text("DELETE FROM accounts WHERE id = :id"), {"id": newest})
        db.session.commit()
    account_with_token(app, "Następni")
    with app.app_context():
        assert (
            db.session.connection().execute(text("SELECT max(id) FROM accounts")).scalar_one()
            == newest + 1
        )


def game_service_delete(app: Flask, game_id: int) -> None:
    with app.app_context():
        trash.delete_game(db.session.get(Game, game_id).account_id, game_id)


def test_undo_and_delete_drop_the_cached_state(app: Flask, api: Api):
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], SIXES, "sixes")
    assert cache.holds(game["id"])

    api.undo(game["id"])
    assert not cache.holds(game["id"])

    api.turn(game["id"], SIXES, "sixes")
    game_service_delete(app, game["id"])
    assert not cache.holds(game["id"])


def test_a_write_owns_the_cached_state_and_a_failed_one_leaves_nothing_half_changed(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
):
    """The turn takes the cached state out (no copy) and puts it back when it commits: a
    turn that fails after the rules changed the state must not leave that state behind."""
    game = api.new_game("standard", ["Ala"])
    api.turn(game["id"], SIXES, "sixes")
    assert cache.holds(game["id"])

    def fails(*_args: Any, **_kwargs: Any) -> int:
        raise RuntimeError("the disk is full")

    # After the rules played it (the turn is written by one or the other).
    monkeypatch.setattr(game_service.store, "insert_turn", fails)
    monkeypatch.setattr(game_service.store, "insert_turn_at_version", fails)
    with pytest.raises(RuntimeError):
        api.post(f"{GAMES}/{game['id']}/turns", {"dice": FILLER["ones"], "field": "ones"})
    monkeypatch.undo()
    assert not cache.holds(game["id"])  # taken, and not put back

    after = api.turn(game["id"], FILLER["ones"], "ones")  # read again from the turns
    assert sorted(after["players"][0]["columns"][0]["cells"]) == ["ones", "sixes"]
    assert cache.holds(game["id"])
    again = api.turn(game["id"], FILLER["twos"], "twos")  # from the cache: the same sheet
    assert sorted(again["players"][0]["columns"][0]["cells"]) == ["ones", "sixes", "twos"]


def test_the_turn_that_ends_a_game_is_one_write_with_its_end(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
):
    """The last turn writes the turn, the seat's figures and when the game ended: if storing
    the end fails, the turn is not written either (a turn that does not end the game may
    commit by itself on PostgreSQL; this one must not)."""
    game = api.new_game("standard", ["Ala"])
    for field in STANDARD_ORDER[:-1]:
        api.turn(game["id"], FILLER[field], field)
    assert cache.holds(game["id"])  # decided on this process's state

    def fails(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(game_service.results.store, "set_finished", fails)
    last = STANDARD_ORDER[-1]
    with pytest.raises(RuntimeError):
        api.post(f"{GAMES}/{game['id']}/turns", {"dice": FILLER[last], "field": last})
    monkeypatch.undo()

    after = api.game(game["id"])
    assert len(after["turns"]) == len(STANDARD_ORDER) - 1
    assert after["finished"] is False
    ended = api.turn(game["id"], FILLER[last], last)
    assert ended["finished"] is True


# --- the limit on turns is the same when playing and when importing --------------------------


def test_a_game_takes_no_more_turns_than_an_import_accepts(
    api: Api, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(game_service, "MAX_TURNS_PER_GAME", 2)
    match = api.new_game("poker", ["Ala", "Ola"])
    url = f"{GAMES}/{match['id']}/turns"
    assert api.post(url, {"dice": [1, 1, 2, 2, 3]}).status_code == 201
    assert api.post(url, {"dice": [1, 1, 2, 2, 3]}).status_code == 201  # a drawn round

    refused = api.post(url, {"dice": [1, 1, 2, 2, 3]})

    assert refused.status_code == 409
    assert "2 ruchów" in refused.get_json()["error"]


# --- other unique keys: sign-up and renaming ------------------------------------------------


def test_the_same_name_signed_up_in_two_browsers_at_once_is_a_clear_error(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    """The other browser's sign-up commits while this one hashes its password (after the
    check that the name is free)."""
    original = accounts.generate_password_hash

    def other_browser_signs_up_meanwhile(password: str, **options: str) -> str:
        monkeypatch.setattr(accounts, "generate_password_hash", original)
        thread = threading.Thread(target=sign_up, args=(app,))
        thread.start()
        thread.join(timeout=20)
        return original(password, **options)

    def sign_up(app: Flask) -> None:
        with app.app_context():
            accounts.create_account("Kowalscy", "tajne-haslo-123")

    monkeypatch.setattr(accounts, "generate_password_hash", other_browser_signs_up_meanwhile)

    with app.app_context(), pytest.raises(InvalidInput, match="już istnieje"):
        accounts.create_account("kowalscy", "inne-haslo-123")
    with app.app_context():
        assert db.session.scalars(select(Account.name)).all() == ["Kowalscy"]


def test_renaming_to_a_name_another_player_took_meanwhile_is_a_clear_error(app: Flask, api: Api):
    api.new_game("standard", ["Ala", "Ola"])
    with app.app_context():
        account_id = db.session.scalar(select(Account.id))
        ala, ola = db.session.scalars(select(Player).order_by(Player.id)).all()
        players.rename_player(account_id, ala.id, "Ela")

        with pytest.raises(InvalidInput, match="już takie imię"):
            players.rename_player(account_id, ola.id, "ELA")

        assert sorted(db.session.scalars(select(Player.name))) == ["Ela", "Ola"]
        players.rename_player(account_id, ola.id, "OLA")  # its own name, other letters
