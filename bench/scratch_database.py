"""A scratch PostgreSQL database for the benchmarks' `--database-url`.

`--database-url postgresql+psycopg://USER:PASSWORD@HOST/DB` names a server and a role allowed
to create databases; the benchmark runs in a new, empty database beside DB
(`kosci_bench_<pid>`, from template0), dropped at the end, so DB itself is never touched.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool


@contextmanager
def scratch_database(server_url: str) -> Iterator[str]:
    """The URL of a fresh database on `server_url`'s server, dropped on leaving."""
    url = make_url(server_url)
    if url.get_backend_name() != "postgresql":
        raise SystemExit(f"--database-url must be a postgresql+psycopg:// URL, not {url}")
    name = f"kosci_bench_{os.getpid()}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE template0'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def server_version(database_url: str) -> str:
    """`PostgreSQL 15.18` for a PostgreSQL URL."""
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            version = connection.execute(text("SHOW server_version")).scalar_one()
    finally:
        engine.dispose()
    return f"PostgreSQL {str(version).split()[0]}"
