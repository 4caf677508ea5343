"""The trash („Kosz”): a deleted game is kept `trash.KEEP_DAYS` days and can be restored, from
the „Cofnij” beside „Usunięto grę” or from the trash page; on SQLite and PostgreSQL.

A restored game is compared with the game before it was deleted through the export (every turn
ever written, undos included, times, options, rematch links, seats' figures), so anything the
restore loses or adds fails here.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from history_builders import STANDARD_SHEET, build_family, new_account
from sqlalchemy import func, select, update

from tracker.extensions import db
from tracker.models import DeletedGame, Game, SeatReview, utcnow
from tracker.services import audit, games, players, transfer, trash
from tracker.services.errors import Conflict, NotFound

from .test_game_pages import Table, page_csrf, sign_up, text_of

RESTORE = re.compile(r'action="/historia/kosz/(\d+)/przywroc"')


def entries_by_uid(account_id: int) -> dict[str, dict[str, Any]]:
    """The account's games as the export writes them, by uid."""
    return {g["uid"]: g for g in transfer.export_account(account_id)["games"]}


def game_id_of(account_id: int, uid: str) -> int | None:
    return db.session.scalar(select(Game.id).where(Game.account_id == account_id, Game.uid == uid))


def game_count(account_id: int) -> int:
    return db.session.scalar(select(func.count(Game.id)).where(Game.account_id == account_id)) or 0


@pytest.fixture
def family(app: Flask) -> dict[str, Any]:
    with app.app_context():
        account_id = new_account("Kowalscy")
        ids = build_family(account_id)
        before = entries_by_uid(account_id)
    return {"account": account_id, "ids": ids, "before": before}


# --- the service ---------------------------------------------------------------------------


def test_every_kind_of_game_comes_back_as_it_was(app: Flask, family: dict[str, Any]):
    """Finished, unfinished, tied, dice poker with undos across a round's end, Kości potrójne,
    Gra po kolei with its option, a game and its rematch: all deleted, then all restored
    (the rematch first, so that its link to the game is made when the game comes back)."""
    account = family["account"]
    ids = family["ids"]
    with app.app_context():
        entry_ids = {key: trash.delete_game(account, game_id) for key, game_id in ids.items()}
        assert game_count(account) == 0
        for key in ["rematch", "poker", "triple", "tie", "ordered", "scandinavian"]:
            done = trash.restore(account, entry_ids[key])
            assert not done.was_there
            assert done.game_id > max(ids.values())  # a new id: ids are never used twice

        after = entries_by_uid(account)

    assert after == family["before"]


def test_a_restored_game_has_its_seat_reviews_again(app: Flask, family: dict[str, Any]):
    account = family["account"]
    with app.app_context():
        before = db.session.scalar(
            select(func.count())
            .select_from(SeatReview)
            .where(SeatReview.game_id == family["ids"]["tie"])
        )
        assert before == 2
        done = trash.restore(account, trash.delete_game(account, family["ids"]["tie"]))
        restored = db.session.scalars(
            select(SeatReview.seat).where(SeatReview.game_id == done.game_id)
        ).all()

    assert sorted(restored) == [0, 1]


def test_a_game_deleted_before_its_rematch_was_restored_gets_the_link_back(
    app: Flask, family: dict[str, Any]
):
    account = family["account"]
    ids = family["ids"]
    with app.app_context():
        done = trash.restore(account, trash.delete_game(account, ids["tie"]))
        linked = db.session.scalar(select(Game.rematch_of_id).where(Game.id == ids["rematch"]))

    assert linked == done.game_id


def test_a_rematch_whose_game_is_gone_comes_back_as_a_game_of_its_own(
    app: Flask, family: dict[str, Any]
):
    account = family["account"]
    ids = family["ids"]
    with app.app_context():
        entry = trash.delete_game(account, ids["rematch"])
        trash.delete_game(account, ids["tie"])
        done = trash.restore(account, entry)
        linked = db.session.scalar(select(Game.rematch_of_id).where(Game.id == done.game_id))

    assert linked is None


def test_a_seat_keeps_its_player_renamed_meanwhile_and_a_deleted_one_comes_back(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala", "Ola"])
        games.record_turn(account, game.id, "66612", "sixes")
        ids = {p.name: p.id for p in players.list_players(account)}
        entry = trash.delete_game(account, game.id)
        players.rename_player(account, ids["Ala"], "Alicja")
        players.delete_player(account, ids["Ola"])  # she has no game left

        done = trash.restore(account, entry)

        view = games.load(account, done.game_id)
        names = sorted(p.name for p in players.list_players(account))
        assert [s.player.id for s in view.seats][0] == ids["Ala"]
        assert view.names == ["Alicja", "Ola"]
        assert names == ["Alicja", "Ola"]  # no second „Ala”
        assert view.table.scores[0] == 18


def test_a_seat_never_goes_to_a_player_added_after_its_own_was_deleted(app: Flask):
    """Zosia (the newest player) deleted with her game in the trash, then Kasia added: the
    stored id must not be Kasia's now (SQLite gave the largest id again, without AUTOINCREMENT),
    or Zosia's game would come back as Kasia's."""
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala", "Zosia"])
        zosia = next(p.id for p in players.list_players(account) if p.name == "Zosia")
        entry = trash.delete_game(account, game.id)
        players.delete_player(account, zosia)
        kasia = games.create_game(account, "standard", ["Kasia"]).seats[0].player.id

        done = trash.restore(account, entry)

        assert kasia != zosia
        assert games.load(account, done.game_id).names == ["Ala", "Zosia"]
        assert sorted(p.name for p in players.list_players(account)) == ["Ala", "Kasia", "Zosia"]


def test_two_seats_that_became_one_player_are_refused_and_the_entry_stays(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala", "Ola"])
        ids = {p.name: p.id for p in players.list_players(account)}
        entry = trash.delete_game(account, game.id)
        players.delete_player(account, ids["Ola"])
        players.rename_player(account, ids["Ala"], "Ola")  # Ala's id, Ola's name

        with pytest.raises(Conflict) as refused:
            trash.restore(account, entry)

        assert refused.value.code == trash.PLAYERS_JOINED
        assert game_count(account) == 0
        assert [e.id for e in trash.entries(account)] == [entry]
        assert len(players.list_players(account)) == 1  # nothing half-written


def test_a_seat_of_a_player_merged_since_comes_back_to_the_player_they_became(app: Flask):
    """Alicja's game deleted, then Alicja merged into Ala, then Ala into Ola: the game comes
    back as Ola's, not as a second „Alicja” the merges said was the same person."""
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Alicja", "Zosia"])
        games.record_turn(account, game.id, "66612", "sixes")
        for name in ("Ala", "Ola"):
            games.create_game(account, "standard", [name])
        ids = {p.name: p.id for p in players.list_players(account)}
        entry = trash.delete_game(account, game.id)
        players.merge_players(account, ids["Alicja"], ids["Ala"])
        players.merge_players(account, ids["Ala"], ids["Ola"])

        done = trash.restore(account, entry)

        view = games.load(account, done.game_id)
        assert [s.player.id for s in view.seats] == [ids["Ola"], ids["Zosia"]]
        assert sorted(p.name for p in players.list_players(account)) == ["Ola", "Zosia"]


def test_a_game_of_two_players_merged_since_into_one_is_refused(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala", "Alicja"])
        games.create_game(account, "standard", ["Ala"])
        games.create_game(account, "standard", ["Alicja"])
        ids = {p.name: p.id for p in players.list_players(account)}
        entry = trash.delete_game(account, game.id)
        merge = players.merge_players(account, ids["Alicja"], ids["Ala"]).merge_id

        with pytest.raises(Conflict) as refused:
            trash.restore(account, entry)

        assert refused.value.code == trash.PLAYERS_JOINED
        assert refused.value.message == (
            "Tej gry nie da się przywrócić: grali w niej Ala i Alicja, a to teraz jeden gracz, "
            "Ala. Jeśli połączono ich przez pomyłkę, cofnij to połączenie na stronie Gracze i "
            "przywróć grę jeszcze raz."
        )
        assert [p.name for p in players.list_players(account)] == ["Ala"]
        assert [e.id for e in trash.entries(account)] == [entry]
        # as the message says: the merge undone, the game comes back
        players.undo_merge(account, merge)
        assert games.load(account, trash.restore(account, entry).game_id).names == ["Ala", "Alicja"]


@pytest.mark.parametrize("restored", ["before-the-undo", "after-the-undo"])
def test_a_merge_undone_gives_back_the_seat_of_a_game_deleted_since(app: Flask, restored: str):
    """Alicja merged into Ala by mistake, then her game deleted: whether it is restored before
    or after the merge is undone, it ends up Alicja's again, with her statistics."""
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Alicja", "Zosia"])
        games.record_turn(account, game.id, "66612", "sixes")
        games.create_game(account, "standard", ["Ala"])
        ids = {p.name: p.id for p in players.list_players(account)}
        merge = players.merge_players(account, ids["Alicja"], ids["Ala"]).merge_id
        entry = trash.delete_game(account, game.id)
        if restored == "before-the-undo":
            game_id = trash.restore(account, entry).game_id
            players.undo_merge(account, merge)
        else:
            players.undo_merge(account, merge)
            game_id = trash.restore(account, entry).game_id

        view = games.load(account, game_id)
        back = {p.name: p.id for p in players.list_players(account)}
        assert view.names == ["Alicja", "Zosia"]
        assert [s.player.id for s in view.seats] == [back["Alicja"], ids["Zosia"]]
        assert players.games_of(back["Ala"]) == 1
        assert view.table.scores[0] == 18


def test_restoring_twice_gives_one_game_and_says_where_it_is(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala"])
        entry = trash.delete_game(account, game.id)
        done = trash.restore(account, entry)

        with pytest.raises(trash.AlreadyRestored) as again:
            trash.restore(account, entry)

        assert again.value.game_id == done.game_id
        assert again.value.code == trash.ALREADY_RESTORED
        assert game_count(account) == 1
        assert trash.entries(account) == []


def test_a_game_brought_back_by_an_import_meanwhile_is_not_written_twice(
    app: Flask, family: dict[str, Any]
):
    account = family["account"]
    with app.app_context():
        backup = transfer.export_account(account)
        entry = trash.delete_game(account, family["ids"]["ordered"])
        transfer.import_account(account, backup)
        count = game_count(account)

        done = trash.restore(account, entry)

        assert done.was_there
        assert game_count(account) == count
        uid = next(u for u, g in family["before"].items() if g["variant"] == "ordered")
        assert done.game_id == game_id_of(account, uid)
        assert trash.entries(account) == []


def test_another_accounts_entry_is_not_found_and_not_listed(app: Flask):
    with app.app_context():
        kowalscy = new_account("Kowalscy")
        nowakowie = new_account("Nowakowie")
        game = games.create_game(kowalscy, "standard", ["Ala"])
        entry = trash.delete_game(kowalscy, game.id)

        with pytest.raises(NotFound):
            trash.restore(nowakowie, entry)

        assert trash.entries(nowakowie) == []
        assert [e.id for e in trash.entries(kowalscy)] == [entry]


def test_an_entry_past_its_days_is_not_listed_not_restored_and_purged(app: Flask, runner):
    with app.app_context():
        account = new_account("Kowalscy")
        old = trash.delete_game(account, games.create_game(account, "standard", ["Ala"]).id)
        recent = trash.delete_game(account, games.create_game(account, "standard", ["Ola"]).id)
        db.session.execute(
            update(DeletedGame)
            .where(DeletedGame.id == old)
            .values(deleted_at=utcnow() - timedelta(days=trash.KEEP_DAYS, seconds=1))
        )
        db.session.commit()

        assert [e.id for e in trash.entries(account)] == [recent]
        with pytest.raises(NotFound):
            trash.restore(account, old)

    result = runner.invoke(args=["purge-trash"])
    assert result.exit_code == 0, result.output
    assert "Usunięto z koszy gry starsze niż 30 dni: 1." in result.output
    with app.app_context():
        left = db.session.scalars(select(DeletedGame.id)).all()
    assert left == [recent]


def test_deleting_and_restoring_are_in_the_audit_log(app: Flask):
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["Ala"])
        done = trash.restore(account, trash.delete_game(account, game.id))
        events = [e.event for e, _name in audit.events("Kowalscy")]
        details = [e.detail for e, _name in audit.events("Kowalscy")]

    assert events[-2:] == [audit.GAME_DELETED, audit.GAME_RESTORED]
    assert details[-1] == f"gra {done.game_id} (standard)"


# --- the pages -----------------------------------------------------------------------------


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


def delete(table: Table, game_id: int) -> str:
    """Delete the game through its page, as a phone does; the page it leads to."""
    deleted = table.post(f"/gry/{game_id}/usun")
    assert deleted.status_code == 303
    return table.client.get(deleted.headers["Location"]).get_data(as_text=True)


def test_cofnij_beside_the_deletion_brings_the_game_back(table: Table):
    client = table.client
    game_id = table.new_game(["Ala", "Ola"])
    for dice, field in STANDARD_SHEET[:3]:
        assert table.write(game_id, dice, field).status_code == 303

    confirm = client.get(f"/gry/{game_id}/usun").get_data(as_text=True)
    assert "trafi do kosza. Przez 30 dni można ją stamtąd przywrócić" in text_of(confirm)
    deleted = table.post(f"/gry/{game_id}/usun")
    assert deleted.status_code == 303
    home = client.get(deleted.headers["Location"]).get_data(as_text=True)
    assert "Usunięto grę: Kości (tabela polska) (Ala i Ola). Leży w koszu 30 dni." in text_of(home)
    (entry,) = RESTORE.findall(home)
    assert client.get(f"/gry/{game_id}").status_code == 404

    restored = table.post(f"/historia/kosz/{entry}/przywroc")

    assert restored.status_code == 303
    new_id = int(restored.headers["Location"].rsplit("/", 1)[1])
    assert new_id != game_id
    page = text_of(client.get(restored.headers["Location"]).get_data(as_text=True))
    assert "Przywrócono grę: Kości (tabela polska) (Ala i Ola)." in page
    view = table.view(new_id)
    assert view.names == ["Ala", "Ola"]
    assert [(t.dice, t.field) for t in view.turns] == [
        (dice, field) for dice, field in STANDARD_SHEET[:3]
    ]
    # the old id is not the game's again: it leads to the restored game
    assert client.get(f"/gry/{game_id}").headers["Location"] == f"/gry/{new_id}"
    # „Cofnij” is offered once: the next page has none
    assert not RESTORE.search(client.get("/").get_data(as_text=True))


def test_the_trash_page_lists_deleted_games_and_restores_them(table: Table):
    client = table.client
    assert "Kosz (" not in client.get("/historia").get_data(as_text=True)
    assert "Kosz jest pusty." in client.get("/historia/kosz").get_data(as_text=True)
    first = table.new_game(["Ala"])
    second = table.new_game(["Ola", "Jan"])
    delete(table, first)
    delete(table, second)

    history = client.get("/historia").get_data(as_text=True)
    assert 'href="/historia/kosz"' in history
    assert "Kosz (2)" in history
    page = client.get("/historia/kosz").get_data(as_text=True)
    entries = RESTORE.findall(page)
    assert len(entries) == 2
    assert page.index("<strong>Ola, Jan</strong>") < page.index("<strong>Ala</strong>")
    assert re.search(r"usunięta dziś \d\d:\d\d · zniknie \d+\.\d\d\.\d{4} ", text_of(page))

    restored = table.post(f"/historia/kosz/{entries[0]}/przywroc")

    assert restored.status_code == 303
    assert table.view(int(restored.headers["Location"].rsplit("/", 1)[1])).names == [
        "Ola",
        "Jan",
    ]
    assert "Kosz (1)" in client.get("/historia").get_data(as_text=True)
    assert RESTORE.findall(client.get("/historia/kosz").get_data(as_text=True)) == entries[1:]


def test_a_second_tap_on_przywroc_leads_to_the_game_restored_by_the_first(table: Table):
    client = table.client
    game_id = table.new_game(["Ala"])
    delete(table, game_id)
    (entry,) = RESTORE.findall(client.get("/historia/kosz").get_data(as_text=True))
    first = table.post(f"/historia/kosz/{entry}/przywroc")
    client.get(first.headers["Location"])  # its flash is read

    second = table.post(f"/historia/kosz/{entry}/przywroc")

    assert second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "Tę grę już przywrócono (może na innym telefonie)." in text_of(page)
    with table.app.app_context():
        assert game_count(table.account_id) == 1


def test_restoring_without_the_csrf_token_or_anothers_entry_is_refused(app: Flask, table: Table):
    client = table.client
    game_id = table.new_game(["Ala"])
    delete(table, game_id)
    (entry,) = RESTORE.findall(client.get("/historia/kosz").get_data(as_text=True))

    assert client.post(f"/historia/kosz/{entry}/przywroc").status_code == 400
    other = app.test_client()
    assert sign_up(other, "Nowakowie").status_code == 302
    refused = other.post(f"/historia/kosz/{entry}/przywroc", data={"csrf_token": page_csrf(other)})
    assert refused.status_code == 404
    assert "Tej gry nie ma w koszu." in text_of(refused.get_data(as_text=True))
    assert "Ala" not in other.get("/historia/kosz").get_data(as_text=True)
    assert RESTORE.findall(client.get("/historia/kosz").get_data(as_text=True)) == [entry]


def test_the_trash_is_for_signed_in_accounts_only(client: FlaskClient):
    response = client.get("/historia/kosz")

    assert response.status_code == 302
    assert "/logowanie" in response.headers["Location"]


# --- the deleted game's old address, on another phone ----------------------------------------


def test_the_old_address_says_the_game_was_deleted_then_leads_to_it_restored(
    app: Flask, table: Table
):
    client = table.client
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, *STANDARD_SHEET[0])
    home = delete(table, game_id)
    (entry,) = RESTORE.findall(home)

    for url in (f"/gry/{game_id}", f"/gry/{game_id}/tabela"):
        deleted = client.get(url)
        assert deleted.status_code == 404, url
        said = text_of(deleted.get_data(as_text=True))
        assert "Tę grę usunięto (dziś " in said
        assert "Leży w koszu: Historia → Kosz, skąd można ją przywrócić." in said
        assert "<h1>Tej gry tu już nie ma</h1>" in deleted.get_data(as_text=True)
    assert client.get(f"/gry/{game_id}/stan").status_code == 404  # what a phone polls

    restored = table.post(f"/historia/kosz/{entry}/przywroc")
    new_id = int(restored.headers["Location"].rsplit("/", 1)[1])
    client.get(restored.headers["Location"])  # this phone's message read

    for old, new in (
        (f"/gry/{game_id}", f"/gry/{new_id}"),
        (f"/gry/{game_id}/tabela", f"/gry/{new_id}/tabela"),
    ):
        moved = client.get(old)
        assert moved.status_code == 303, old
        assert moved.headers["Location"] == new
        page = text_of(client.get(new).get_data(as_text=True))
        assert "Tę grę przywrócono z kosza (może na innym telefonie). Oto ona." in page
    # a write to the old address, and a background redraw, are not sent on: the 404 says why
    write = table.post(
        f"/gry/{game_id}/ruch", {"dice": "66612", "field": "sixes", "column": "0", "seq": "2"}
    )
    assert write.status_code == 404
    assert "Tę grę przywrócono z kosza jako nową grę" in text_of(write.get_data(as_text=True))
    assert client.get(f"/gry/{game_id}?dice=66612&seq=2&fragment=fields").status_code == 404
    assert len(table.view(new_id).turns) == 1  # nothing written through the old address


def test_the_old_address_says_nothing_to_another_account_or_after_the_trash(
    app: Flask, table: Table
):
    game_id = table.new_game(["Ala"])
    delete(table, game_id)
    other = app.test_client()
    assert sign_up(other, "Nowakowie").status_code == 302

    theirs = text_of(other.get(f"/gry/{game_id}").get_data(as_text=True))

    assert "Nie ma takiej gry." in theirs
    assert "usunięto" not in theirs
    with app.app_context():
        db.session.execute(
            update(DeletedGame).values(
                deleted_at=utcnow() - timedelta(days=trash.KEEP_DAYS, seconds=1)
            )
        )
        db.session.commit()
    late = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    assert "Tę grę usunięto (" in late
    assert "Kosz" not in late.split("Tę grę usunięto", 1)[1][:80]


@pytest.mark.parametrize("restored", ["after-both-undos", "before-both-undos"])
def test_merges_chained_and_undone_give_a_deleted_game_back_to_its_first_player(
    app: Flask, restored: str
):
    """A into B, B into C, then A's game deleted; B→C and A→B undone (the last first): the game
    comes back A's, whether restored before the undos or after them."""
    with app.app_context():
        account = new_account("Kowalscy")
        game = games.create_game(account, "standard", ["A", "Z"]).id
        for name in "BC":
            games.create_game(account, "standard", [name])

        def ids() -> dict[str, int]:
            return {p.name: p.id for p in players.list_players(account)}

        first = players.merge_players(account, ids()["A"], ids()["B"]).merge_id
        second = players.merge_players(account, ids()["B"], ids()["C"]).merge_id
        entry = trash.delete_game(account, game)
        if restored == "before-both-undos":
            game = trash.restore(account, entry).game_id
        players.undo_merge(account, second)
        players.undo_merge(account, first)
        if restored == "after-both-undos":
            game = trash.restore(account, entry).game_id

        assert games.load(account, game).names == ["A", "Z"]
        assert [players.games_of(ids()[name]) for name in "ABC"] == [1, 1, 1]
