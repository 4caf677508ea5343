"""PostgreSQL for the tests, when `KOSCI_TEST_POSTGRES_URL` names a server (e.g.
`postgresql+psycopg://ci:ci@127.0.0.1/kosci_test`, a role allowed to create schemas and
databases; `.ci/run` sets it). Without it every layer runs on SQLite only and pytest's header
says so.

The integration tests run on both (tests/integration/conftest.py): each app gets a schema of
its own in that database, which its URL selects (`options=-csearch_path=...`). A fresh schema
costs ~80 ms (`create_all`, every DDL statement a round trip); emptying one costs ~3 ms
(DELETE from every table, the sequences restarted), so the schemas built from the models are
kept in a pool: an app whose test is over gives its schema back emptied, and the next app takes
it. A schema built by the migrations is dropped after its test. Schema names carry the pid:
several pytest runs may share one server. The end-to-end layer runs `serve` on a database of
its own (`fresh_database`), made empty from template0 and dropped at the end.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from functools import cache

from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.pool import NullPool

URL_VARIABLE = "KOSCI_TEST_POSTGRES_URL"
EXAMPLE_URL = "postgresql+psycopg://ci:ci@127.0.0.1/kosci_test"
SKIPPED_LINE = (
    f"PostgreSQL: skipped (set {URL_VARIABLE}={EXAMPLE_URL} to run the suite on PostgreSQL "
    "too; .ci/run does)"
)
SQLITE = "sqlite"
POSTGRESQL = "postgresql"
# Schemas and databases of this process: `kt<pid>_<n>` and `kt<pid>_db<n>`.
PREFIX = f"kt{os.getpid()}_"
# The tests wait for nothing on disk: a lost commit after a crash of the server is harmless here.
SESSION_OPTIONS = "-c synchronous_commit=off"


def server_url() -> str | None:
    return os.environ.get(URL_VARIABLE) or None


def databases() -> tuple[str, ...]:
    """The back ends the database layers run on: SQLite, and PostgreSQL when configured."""
    return (SQLITE, POSTGRESQL) if server_url() else (SQLITE,)


def header_line() -> str:
    url = server_url()
    if url is None:
        return SKIPPED_LINE
    shown = make_url(url).render_as_string(hide_password=True)
    return f"PostgreSQL: {shown} (the integration and end-to-end tests run on SQLite and on it)"


def _required_url() -> str:
    url = server_url()
    if url is None:
        raise RuntimeError(f"{URL_VARIABLE} is not set")
    return url


@cache
def admin() -> Engine:
    """Autocommit connections to the server's database, for DDL, waiting for no disk either;
    one kept open for the process (a new connection costs ~8 ms of password exchange, and the
    schemas are handed out and emptied once a test)."""
    return create_engine(url_for(), isolation_level="AUTOCOMMIT", pool_size=1, max_overflow=4)


def url_for(schema: str | None = None, database: str | None = None) -> str:
    """The server's URL with `schema` first on the search path and/or another database."""
    url = make_url(_required_url())
    options = SESSION_OPTIONS
    if schema is not None:
        options = f"-c search_path={schema} {options}"
    url = url.update_query_dict({"options": options})
    if database is not None:
        url = url.set(database=database)
    return url.render_as_string(hide_password=False)


def schema_of(url: str) -> str | None:
    """The schema `url_for` put in `url`, if any."""
    options = make_url(url).query.get("options")
    if not isinstance(options, str):
        return None
    for option in options.split():
        if option.startswith("search_path="):
            return option.removeprefix("search_path=")
    return None


class _Schemas:
    def __init__(self) -> None:
        self.count = 0
        self.free: list[str] = []
        self.models: set[str] = set()

    def new(self) -> str:
        self.count += 1
        name = f"{PREFIX}{self.count}"
        with admin().connect() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {name} CASCADE"))
            conn.execute(text(f"CREATE SCHEMA {name}"))
        return name


_schemas = _Schemas()


def models_schema() -> str:
    """An empty schema holding the tables the models describe: from the pool, or built."""
    if _schemas.free:
        return _schemas.free.pop()
    from tracker import models  # noqa: F401  (the tables, registered on the metadata)
    from tracker.extensions import db

    name = _schemas.new()
    engine = create_engine(url_for(name), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            db.metadata.create_all(conn)
    finally:
        engine.dispose()
    _schemas.models.add(name)
    return name


def empty_schema() -> str:
    """A schema with nothing in it (for the migrations to build); `release` drops it."""
    return _schemas.new()


def release(schema: str) -> None:
    """The test that used `schema` is over: empty it back into the pool, or drop it. The
    app's engines must be disposed first (an open transaction would hold the DELETE)."""
    if schema not in _schemas.models:
        drop_schema(schema)
        return
    try:
        with (
            admin().connect() as conn,
            conn.execution_options(isolation_level="READ COMMITTED").begin(),
        ):
            conn.execute(text("SET LOCAL lock_timeout = '10s'"))
            conn.execute(text("SET LOCAL synchronous_commit = off"))
            tables = (
                conn.execute(
                    text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema}
                )
                .scalars()
                .all()
            )
            sequences = (
                conn.execute(
                    text("SELECT sequencename FROM pg_sequences WHERE schemaname = :s"),
                    {"s": schema},
                )
                .scalars()
                .all()
            )
            statements = [f'DELETE FROM {schema}."{table}"' for table in _delete_order(tables)]
            statements += [f'ALTER SEQUENCE {schema}."{name}" RESTART' for name in sequences]
            conn.execute(text("; ".join(statements)))
    except BaseException:
        drop_schema(schema)
        raise
    _schemas.free.append(schema)


def _delete_order(tables: Sequence[str]) -> list[str]:
    """The tables, those that others refer to last (the models' order, reversed)."""
    from tracker import models  # noqa: F401
    from tracker.extensions import db

    ordered = [t.name for t in reversed(db.metadata.sorted_tables) if t.name in tables]
    return ordered + sorted(set(tables) - set(ordered))


def drop_schema(schema: str) -> None:
    _schemas.models.discard(schema)
    with contextlib.suppress(ValueError):
        _schemas.free.remove(schema)
    with admin().connect() as conn:
        conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))


def fresh_database() -> str:
    """A new, empty database on the server (from template0); its name."""
    _schemas.count += 1
    name = f"{PREFIX}db{_schemas.count}"
    with admin().connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE template0'))
    return name


def drop_database(name: str) -> None:
    with admin().connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def drop_everything() -> None:
    """Drop this process's schemas and databases, and those a killed earlier run left."""
    if server_url() is None:
        return
    with admin().connect() as conn:
        schemas = conn.execute(
            text("SELECT nspname FROM pg_namespace WHERE nspname ~ '^kt[0-9]+_'")
        ).scalars()
        for schema in list(schemas):
            if schema.startswith(PREFIX) or not _alive(int(schema[2:].split("_")[0])):
                conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        names = conn.execute(
            text("SELECT datname FROM pg_database WHERE datname ~ '^kt[0-9]+_db'")
        ).scalars()
        for name in list(names):
            if name.startswith(PREFIX) or not _alive(int(name[2:].split("_")[0])):
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    _schemas.free.clear()
    _schemas.models.clear()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
