"""Apps for the integration tests: each on its own SQLite file, its schema made from the models
(`db.create_all()`), or by Alembic's migrations for the tests about them. With
`backend="postgresql"` (when `KOSCI_TEST_POSTGRES_URL` is set) on a schema of its own on that
server instead, kept in a pool and emptied between tests: tests/postgres.py.

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

import postgres
from flask import Flask
from flask_migrate import upgrade
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from postgres import POSTGRESQL, SQLITE
from sqlalchemy import text
from werkzeug.routing import Rule

from tracker import create_app
from tracker.extensions import db

DATABASE_FILE = "test.sqlite3"
# In an app's folder on PostgreSQL: the name of its schema (the SQLite file's counterpart).
POSTGRES_SCHEMA_FILE = "postgres-schema"

# One PBKDF2 round instead of scrypt (~0.1 s an account): the tests are about the flows, not
# the strength of the hash. The production default is in tracker/services/accounts.py.
CHEAP_PASSWORD_HASH = "pbkdf2:sha256:1"

_template: Path | None = None
_template_dir: tempfile.TemporaryDirectory[str] | None = None
_built: dict[str, tuple[Path, Any]] = {}
_built_postgres: dict[str, tuple[str, dict[str, int], Any]] = {}

T = TypeVar("T")


def _remember_url_builders() -> None:
    """Each test builds an app, and werkzeug compiles two URL-building functions for every
    rule of it (the AST of a function, `compile`, `exec`): about 40 of an app's 55 ms. A
    builder depends only on its rule's parts, the defaults folded into it and whether it
    appends unknown arguments, so the tests compile each one once per process and hand every
    later rule of the same kind the same code (the function is made per rule as werkzeug
    makes it, from the same code). The app's routing itself is werkzeug's, untouched."""
    compile_builder = Rule._compile_builder
    codes: dict[tuple[Any, ...], Any] = {}

    def remembered(self: Rule, append_unknown: bool = True) -> Any:
        defaults = self.defaults or {}
        key = (
            tuple(self._trace),
            tuple(
                sorted(
                    (str(k), repr(v), type(self._converters.get(k))) for k, v in defaults.items()
                )
            ),
            append_unknown,
        )
        built = codes.get(key)
        if built is None:
            built = codes[key] = compile_builder(self, append_unknown)
        return built

    Rule._compile_builder = remembered  # type: ignore[method-assign]


_remember_url_builders()


class _TemplateCode(BytecodeCache):
    """Each test's app has its own Jinja environment, which parses and compiles every template
    it renders anew: about a third of a page test's time. Jinja's own bytecode cache, kept in
    memory for the process, hands every later app the code compiled once (a bucket is keyed by
    the template's name and file and checked against its source, so an edited template is
    compiled again). Every test app's environment has the same options and extensions, which
    is what makes one cache right for all of them; the templates still render per app."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


_template_code = _TemplateCode()


def make_app(
    directory: Path, *, migrate: bool = False, backend: str = SQLITE, **config: Any
) -> Flask:
    """An app with its own instance folder and SQLite file in `directory`, cheap password
    hashes, and its schema made from the models, or by the migrations with `migrate=True`.
    A database file already in `directory` is kept as it is (a second app on the same file is
    another process of the same installation). With `backend="postgresql"`, the same on a
    schema of its own on the test server (its name kept in `directory`); `release_app` gives
    it back when the test is over."""
    postgres_uri = None
    if backend == POSTGRESQL:
        postgres_uri = _postgres_schema_url(directory, migrate=migrate)
        config = {"SQLALCHEMY_DATABASE_URI": postgres_uri, **config}
    elif backend != SQLITE:
        raise ValueError(f"unknown test database {backend!r}")
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
    app.jinja_env.bytecode_cache = _template_code
    if migrate:
        with app.app_context():
            upgrade()
    elif postgres_uri is not None and app.config["SQLALCHEMY_DATABASE_URI"] == postgres_uri:
        pass  # the schema came from the models, or is another process's
    elif app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{database}":
        if not database.exists():
            shutil.copyfile(models_schema(), database)
    else:
        with app.app_context():
            db.create_all()
    return app


def _postgres_schema_url(directory: Path, *, migrate: bool) -> str:
    """The URL of the schema of the app in `directory`: the one already named there, else a
    new one (empty for the migrations, else holding the models' tables)."""
    directory.mkdir(parents=True, exist_ok=True)
    named = directory / POSTGRES_SCHEMA_FILE
    if named.exists():
        return postgres.url_for(named.read_text(encoding="ascii").strip())
    schema = postgres.empty_schema() if migrate else postgres.models_schema()
    named.write_text(schema, encoding="ascii")
    return postgres.url_for(schema)


def release_app(app: Flask) -> None:
    """The test that used `app` is over: its connections closed and, on PostgreSQL, its
    schema emptied back into the pool (or dropped, if the migrations built it)."""
    dispose_engines(app)
    schema = postgres_schema(app)
    if schema is not None:
        postgres.release(schema)


def postgres_schema(app: Flask) -> str | None:
    """The test schema `app` works in, or None (SQLite, or another database)."""
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if not uri.startswith("postgresql"):
        return None
    schema = postgres.schema_of(uri)
    return schema if schema and schema.startswith(postgres.PREFIX) else None


def backend_of(app: Flask) -> str:
    """`sqlite` or `postgresql`: what the app's database is."""
    return POSTGRESQL if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql") else SQLITE


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
    On PostgreSQL the rows are kept in a schema of their own and copied back the same way.
    """
    schema = postgres_schema(app)
    if schema is not None:
        return _built_once_postgres(app, schema, key, build)
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


def _built_once_postgres(app: Flask, schema: str, key: str, build: Callable[[], T]) -> T:
    if key in _built_postgres:
        saved, sequences, value = _built_postgres[key]
        dispose_engines(app)
        with postgres.admin().connect() as conn:
            for table in _tables():
                conn.execute(text(f"INSERT INTO {schema}.{table} SELECT * FROM {saved}.{table}"))
            for sequence, last in sequences.items():
                conn.execute(text(f"SELECT setval('{schema}.{sequence}', {last})"))
        return copy.deepcopy(value)
    value = build()
    dispose_engines(app)
    saved = postgres.empty_schema()
    with postgres.admin().connect() as conn:
        for table in _tables():
            conn.execute(text(f"CREATE TABLE {saved}.{table} AS SELECT * FROM {schema}.{table}"))
        sequences = {
            name: last
            for name, last in conn.execute(
                text("SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = :s"),
                {"s": schema},
            )
            if last is not None
        }
    _built_postgres[key] = (saved, sequences, copy.deepcopy(value))
    return value


def _tables() -> list[str]:
    """The models' tables, those that others refer to first."""
    return [table.name for table in db.metadata.sorted_tables]


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
