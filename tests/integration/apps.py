"""Apps for the integration tests: each on its own SQLite file, its schema made from the models
(`db.create_all()`), or by Alembic's migrations for the tests about them.

The models' schema is built once per process into a template file and copied for each app: a
copy costs a millisecond, `create_all` tens of them (every DDL statement commits), and the
whole migration chain hundreds. tests/integration/test_migrations.py checks that the models
and the migrations describe the same schema.
"""

from __future__ import annotations

import copy
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask
from flask_migrate import upgrade

from tracker import create_app
from tracker.extensions import db

DATABASE_FILE = "test.sqlite3"

# One PBKDF2 round instead of scrypt (~0.1 s an account): the tests are about the flows, not
# the strength of the hash. The production default is in tracker/services/accounts.py.
CHEAP_PASSWORD_HASH = "pbkdf2:sha256:1"

_template: Path | None = None
_template_dir: tempfile.TemporaryDirectory[str] | None = None
_built: dict[str, tuple[Path, Any]] = {}

T = TypeVar("T")


def make_app(directory: Path, *, migrate: bool = False, **config: Any) -> Flask:
    """An app with its own instance folder and SQLite file in `directory`, cheap password
    hashes, and its schema made from the models, or by the migrations with `migrate=True`.
    A database file already in `directory` is kept as it is (a second app on the same file is
    another process of the same installation)."""
    database = directory / DATABASE_FILE
    app = create_app(
        {
            "SECRET_KEY": "test secret key",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
            **config,
        },
        instance_path=directory / "instance",
    )
    if migrate:
        with app.app_context():
            upgrade()
    elif app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{database}":
        if not database.exists():
            shutil.copyfile(models_schema(), database)
    else:
        with app.app_context():
            db.create_all()
    return app


def models_schema() -> Path:
    """A SQLite file holding the schema the models describe and no rows, made on first use."""
    global _template, _template_dir
    if _template is None:
        _template_dir = tempfile.TemporaryDirectory(prefix="kosci-schema-")
        directory = Path(_template_dir.name)
        app = create_app(
            {
                "SECRET_KEY": "schema template",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{directory / DATABASE_FILE}",
            },
            instance_path=directory / "instance",
        )
        with app.app_context():
            db.create_all()
        dispose_engines(app)  # the WAL checkpointed into the file: it is whole on its own
        _template = directory / DATABASE_FILE
    return _template


def built_once(app: Flask, key: str, build: Callable[[], T]) -> T:
    """The rows `build()` writes into `app`'s fresh database, written once per process.

    The first call runs `build` and keeps a copy of the database file it leaves; every later
    call with the same `key` copies that file over `app`'s (equally fresh) database instead and
    returns a copy of what `build` returned: the same rows, the same ids. For fixtures that
    build the same data for many tests (a family with its games costs ~0.2 s each time).
    """
    database = _database_file(app)
    if key in _built:
        saved, value = _built[key]
        dispose_engines(app)
        for journal in (Path(f"{database}-wal"), Path(f"{database}-shm")):
            journal.unlink(missing_ok=True)
        shutil.copyfile(saved, database)
        return copy.deepcopy(value)
    value = build()
    dispose_engines(app)  # the WAL checkpointed into the file: it is whole on its own
    saved = Path(models_schema()).with_name(f"built-{len(_built)}.sqlite3")
    shutil.copyfile(database, saved)
    _built[key] = (saved, copy.deepcopy(value))
    return value


def _database_file(app: Flask) -> Path:
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    prefix = "sqlite:///"
    if not uri.startswith(prefix) or uri == prefix:
        raise ValueError(f"built_once needs an SQLite file, not {uri!r}")
    return Path(uri.removeprefix(prefix))


def dispose_engines(app: Flask) -> None:
    """Close the pooled SQLite connections, so none is left for the garbage collector."""
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()
