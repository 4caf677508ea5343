"""The Alembic migrations: they build the schema the models describe, and upgrading a database
that already holds games changes nothing."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import postgres
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from postgres import POSTGRESQL
from sqlalchemy import inspect, select, text

from tracker import create_app
from tracker.extensions import MIGRATIONS_DIR, db
from tracker.models import Account, Game, Turn, name_key
from tracker.services import accounts
from tracker.services import games as game_service
from tracker.settings import MIGRATIONS_LOCK

from .apps import release_app

# `app` is built by the migrations here (tests/integration/conftest.py).
pytestmark = pytest.mark.migrations

TABLES = {
    "accounts",
    "players",
    "games",
    "game_seats",
    "turns",
    "api_tokens",
    "login_failures",
    "sessions",
    "audit_events",
    "invites",
    "signup_attempts",
    "game_invitations",
    "seat_reviews",
    "deleted_games",
    "player_merges",
    "alembic_version",
}


@pytest.fixture
def empty_app(tmp_path: Path, backend: str) -> Iterator[Flask]:
    """An app on a database file (or PostgreSQL schema) that no migration has touched yet."""
    uri = f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    if backend == POSTGRESQL:
        uri = postgres.url_for(postgres.empty_schema())
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test secret key", "SQLALCHEMY_DATABASE_URI": uri},
        instance_path=tmp_path / "instance",
    )
    yield app
    release_app(app)


def head_revision() -> str:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def current_revision(app: Flask) -> str | None:
    with app.app_context(), db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def table_names(app: Flask) -> set[str]:
    with app.app_context():
        return set(inspect(db.engine).get_table_names())


def test_db_upgrade_on_an_empty_file_creates_the_whole_schema(empty_app: Flask):
    assert table_names(empty_app) == set()

    result = empty_app.test_cli_runner().invoke(args=["db", "upgrade"])

    assert result.exit_code == 0, result.output
    assert table_names(empty_app) == TABLES
    assert current_revision(empty_app) == head_revision()


def test_on_postgresql_db_upgrade_waits_for_a_migration_already_running_there(
    empty_app: Flask, backend: str
):
    """Several servers on one database (README) restarted together after an upgrade, or two
    `serve` started at once on a new one, migrate one after the other. Without a lock both
    created alembic_version and ran the same revisions, and one stopped with a traceback
    (measured: two `serve` on a new database, `duplicate key value violates unique constraint
    "pg_type_typname_nsp_index"`). While another migration holds the lock, `db upgrade` waits,
    then does the work."""
    if backend != POSTGRESQL:
        pytest.skip("PostgreSQL only: SQLite is one server's file")
    with empty_app.app_context():
        engine = db.engine
    results: list[Any] = []
    upgrade = threading.Thread(
        target=lambda: results.append(empty_app.test_cli_runner().invoke(args=["db", "upgrade"]))
    )
    with engine.connect() as other:
        other.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATIONS_LOCK})
        other.commit()
        upgrade.start()
        try:
            upgrade.join(timeout=1.5)
            assert upgrade.is_alive(), results and results[0].output
            assert current_revision(empty_app) is None
        finally:
            other.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATIONS_LOCK})
            other.commit()
            upgrade.join(timeout=60)

    assert results[0].exit_code == 0, results[0].output
    assert current_revision(empty_app) == head_revision()
    assert table_names(empty_app) == TABLES


def test_the_models_and_the_migrations_describe_the_same_schema(empty_app: Flask):
    runner = empty_app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0

    check = runner.invoke(args=["db", "check"])

    assert check.exit_code == 0, check.output
    with empty_app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def test_the_migrated_turns_table_has_the_partial_unique_index_on_turns_in_force(app: Flask):
    """`db check` does not compare an index's WHERE clause; two phones writing the same turn
    rely on exactly this index, so read it from the migrated database itself."""
    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            sql = db.session.scalar(
                text(
                    "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()"
                    " AND indexname = 'uq_turns_game_seq_in_force'"
                )
            )
        else:
            sql = db.session.scalar(
                text("SELECT sql FROM sqlite_master WHERE name = 'uq_turns_game_seq_in_force'")
            )
    assert sql is not None
    # PostgreSQL: CREATE UNIQUE INDEX uq_... ON <schema>.turns USING btree (game_id, seq)
    # WHERE (undone_at IS NULL)
    normalized = " ".join(sql.replace("USING btree ", "").split()).lower()
    assert normalized.startswith("create unique index uq_turns_game_seq_in_force on ")
    assert normalized.split(" on ", 1)[1].split(".")[-1].startswith("turns (game_id, seq)")
    assert normalized.replace("(undone_at is null)", "undone_at is null").endswith(
        "where undone_at is null"
    )


def test_every_constraint_and_index_has_its_own_name(app: Flask):
    with app.app_context():
        inspector = inspect(db.engine)
        names: Counter[str] = Counter()
        for table in inspector.get_table_names():
            for item in (
                *inspector.get_unique_constraints(table),
                *inspector.get_indexes(table),
                *inspector.get_foreign_keys(table),
            ):
                # PostgreSQL lists the index behind each unique constraint too, by its name.
                if item.get("name") and not item.get("duplicates_constraint"):
                    names[item["name"]] += 1
    assert [name for name, count in names.items() if count > 1] == []


def fill_with_data(app: Flask) -> dict[str, Any]:
    """An account, a token, a finished game and one in progress with an undone turn."""
    with app.app_context():
        account = Account(name="Kowalscy", name_key=name_key("Kowalscy"), password_hash="!")
        db.session.add(account)
        db.session.commit()
        _, token = accounts.create_token(account.id, "skrypt")
        finished = game_service.create_game(account.id, "standard", ["Ala"])
        for dice, field in [
            ((1, 1, 1, 2, 3), "ones"),
            ((2, 2, 2, 3, 4), "twos"),
            ((3, 3, 3, 4, 5), "threes"),
            ((4, 4, 4, 5, 6), "fours"),
            ((5, 5, 5, 6, 1), "fives"),
            ((6, 6, 6, 1, 2), "sixes"),
            ((4, 4, 4, 1, 2), "three_of_a_kind"),
            ((5, 5, 5, 5, 1), "four_of_a_kind"),
            ((2, 2, 3, 3, 3), "full_house"),
            ((1, 2, 3, 4, 6), "small_straight"),
            ((2, 3, 4, 5, 6), "large_straight"),
            ((1, 1, 1, 1, 1), "five_of_a_kind"),
            ((6, 5, 4, 3, 3), "chance"),
        ]:
            game_service.record_turn(account.id, finished.id, list(dice), field)
        open_game = game_service.create_game(
            account.id, "triple", ["Ala", "Ola"], {"bonus_threshold": 63}
        )
        game_service.record_turn(account.id, open_game.id, [6] * 5, "five_of_a_kind", 2)
        game_service.record_turn(account.id, open_game.id, [1, 2, 3, 4, 5], "chance", 0)
        game_service.undo_last_turn(account.id, open_game.id)
        return snapshot(app) | {"token": token}


def snapshot(app: Flask) -> dict[str, Any]:
    """Every row of every table of the app (those its revision has), as plain values."""
    present = table_names(app)
    with app.app_context():
        return {
            table: [tuple(row) for row in db.session.execute(text(f"SELECT * FROM {table}"))]
            for table in sorted(TABLES - {"alembic_version"})
            if table in present
        }


def test_upgrading_a_database_with_games_keeps_every_row(app: Flask):
    before = fill_with_data(app)
    token = before.pop("token")
    runner = app.test_cli_runner()

    for _ in range(2):
        result = runner.invoke(args=["db", "upgrade"])
        assert result.exit_code == 0, result.output

    assert snapshot(app) == before
    assert current_revision(app) == head_revision()
    with app.app_context():
        assert db.session.scalar(select(Game).where(Game.variant == "standard")).finished
        assert len(db.session.scalars(select(Turn)).all()) == 15
    response = app.test_client().get("/api/v1/games", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert [g["finished"] for g in response.get_json()["games"]] == [False, True]


def test_the_migrations_go_down_to_nothing_and_up_again(app: Flask):
    runner = app.test_cli_runner()

    down = runner.invoke(args=["db", "downgrade", "base"])

    assert down.exit_code == 0, down.output
    assert table_names(app) <= {"alembic_version"}
    up = runner.invoke(args=["db", "upgrade"])
    assert up.exit_code == 0, up.output
    assert table_names(app) == TABLES


@pytest.mark.sqlite_only("that migration rebuilds two tables on SQLite and does nothing else")
def test_the_upgrade_to_never_reused_ids_keeps_every_seat_and_turn(app: Flask):
    """That migration rebuilds `accounts` and `games` on SQLite; with foreign keys on, dropping
    the old tables would have taken every seat and turn with them (ON DELETE CASCADE)."""
    fill_with_data(app)
    runner = app.test_cli_runner()
    down = runner.invoke(args=["db", "downgrade", "626fa887f2c3"])
    assert down.exit_code == 0, down.output
    with app.app_context():  # as the database was before that migration
        conn = db.session.connection()
        conn.execute(text("DELETE FROM sqlite_sequence"))
        db.session.commit()
    before = snapshot(app)

    up = runner.invoke(args=["db", "upgrade"])

    assert up.exit_code == 0, up.output
    after = {table: rows for table, rows in snapshot(app).items() if table in before}
    # The columns added since (games: version, hints, ...; accounts: language) come last; the
    # rows keep every old value.
    for table in ("games", "accounts"):
        width = len(before[table][0])
        assert [row[:width] for row in after.pop(table)] == before.pop(table)
    assert after == before
    assert len(before["turns"]) == 15
    assert len(before["game_seats"]) == 3
    with app.app_context():
        for table in ("accounts", "games"):
            sql = db.session.scalar(
                text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = :t"),
                {"t": table},
            )
            assert "AUTOINCREMENT" in sql
        newest = db.session.scalar(text("SELECT max(id) FROM games"))
        db.session.execute(text("DELETE FROM games WHERE id = :id"), {"id": newest})
        db.session.commit()
        account_id = db.session.scalar(select(Account.id))
        assert game_service.create_game(account_id, "standard", ["Ala"]).id == newest + 1


@pytest.mark.sqlite_only("that migration rebuilds the players table on SQLite only")
def test_the_upgrade_to_never_reused_player_ids_keeps_every_player_and_seat(app: Flask):
    """`players` becomes AUTOINCREMENT on SQLite (a trash entry and a merge keep player ids):
    every player and seat stays, and the id of the newest player deleted is not given again."""
    fill_with_data(app)
    runner = app.test_cli_runner()
    down = runner.invoke(args=["db", "downgrade", "7e2b4d6f8a1c"])
    assert down.exit_code == 0, down.output
    before = snapshot(app)

    up = runner.invoke(args=["db", "upgrade"])

    assert up.exit_code == 0, up.output
    assert snapshot(app) == before
    with app.app_context():
        sql = db.session.scalar(
            text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'players'")
        )
        assert "AUTOINCREMENT" in sql
        account_id = db.session.scalar(select(Account.id))
        newest = game_service.create_game(account_id, "standard", ["Zosia"]).seats[0].player.id
        db.session.execute(text("DELETE FROM game_seats WHERE player_id = :id"), {"id": newest})
        db.session.execute(text("DELETE FROM players WHERE id = :id"), {"id": newest})
        db.session.commit()
        again = game_service.create_game(account_id, "standard", ["Kasia"]).seats[0].player.id
        assert again == newest + 1


def test_the_upgrade_to_composed_names_rekeys_old_spellings_and_leaves_a_taken_key_alone(
    app: Flask,
):
    """Names keyed before keys were composed (NFC): an account and a player typed with e +
    combining diaeresis are found by either spelling after the upgrade; an account whose
    composed key another account already holds keeps its own key (nothing merged)."""
    cli = app.test_cli_runner()
    down = cli.invoke(args=["db", "downgrade", "3f7b9d1e5a2c"])
    assert down.exit_code == 0, down.output
    decomposed = "Zoe\u0308"
    with app.app_context():
        conn = db.session.connection()
        insert = text(
            "INSERT INTO accounts (name, name_key, password_hash, created_at) "
            "VALUES (:name, :key, '!', CURRENT_TIMESTAMP)"
        )
        # As the old code keyed them: casefolded, not composed.
        conn.execute(insert, {"name": decomposed, "key": decomposed.casefold()})
        conn.execute(insert, {"name": "Ala\u0301", "key": "ala\u0301"})
        conn.execute(insert, {"name": "Al\u00e1", "key": "al\u00e1"})  # the composed key's owner
        zoe = db.session.scalar(text("SELECT id FROM accounts WHERE name = :n"), {"n": decomposed})
        conn.execute(
            text(
                "INSERT INTO players (account_id, name, name_key, created_at) "
                "VALUES (:a, :name, :key, CURRENT_TIMESTAMP)"
            ),
            {"a": zoe, "name": "Le\u0301a", "key": "le\u0301a"},
        )
        db.session.commit()

    up = cli.invoke(args=["db", "upgrade"])

    assert up.exit_code == 0, up.output
    with app.app_context():
        keys = dict(db.session.execute(text("SELECT name, name_key FROM accounts")).all())
        assert keys[decomposed] == "zo\u00eb"
        assert keys["Ala\u0301"] == "ala\u0301"  # „Alá” was taken: left as it was
        assert keys["Al\u00e1"] == "al\u00e1"
        assert db.session.scalar(text("SELECT name_key FROM players")) == "l\u00e9a"
        found = db.session.scalar(
            select(Account.id).where(Account.name_key == name_key("ZO\u00cb"))
        )
        assert found == zoe
