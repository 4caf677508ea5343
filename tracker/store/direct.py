"""The turn path's statements, run on the DB-API cursor of the session's own connection.

A turn runs up to three statements (the game's lock, the turn's row, the seat's figures). Through
`Connection.execute` each costs about 25 µs of Python here (the execution context, parameter
processing, the result's wrapping) for 3 µs of the database's own work: a tenth of a turn's
server CPU (docs/benchmarks.md, "Twice the peer"). `Direct` keeps what matters of SQLAlchemy:
the statement is built with Core (one definition for every dialect), compiled once per
dialect, its parameters go through the column types' bind processors, it runs in the
session's transaction (which commits or rolls it back), and a database error comes out as
SQLAlchemy's exception, as from `execute`. What it leaves out: result processing (the
statements return plain integers and strings), engine events and SQL logging.

Only for statements whose every bound value is a plain parameter or a literal, and whose
results need no type processing; everything else goes through `Connection.execute`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

from sqlalchemy import exc
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement


class _Compiled(NamedTuple):
    sql: str
    # Each parameter in order (positional paramstyles) or by name: its name, its literal
    # value when the statement holds one (`version + 1`), its type's bind processor.
    params: tuple[tuple[str, Any, Callable[[Any], Any] | None], ...]
    positional: bool


_NO_VALUE = object()


class Direct:
    """One Core statement, run straight on the DB-API cursor."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: dict[Dialect, _Compiled] = {}

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect)
        if compiled is None:
            sql = cast(SQLCompiler, self.statement.compile(dialect=dialect))
            positional = sql.positiontup is not None
            names = tuple(sql.positiontup or ()) if positional else tuple(sql.binds)
            params = []
            for name in names:
                bind = sql.binds[name]
                literal = _NO_VALUE if bind.required or bind.value is None else bind.value
                params.append((name, literal, bind.type.bind_processor(dialect)))
            compiled = _Compiled(sql.string, tuple(params), positional)
            self._compiled[dialect] = compiled
        return compiled

    @staticmethod
    def _arguments(compiled: _Compiled, values: Mapping[str, Any]) -> Any:
        arguments = []
        for name, literal, processor in compiled.params:
            value = values[name] if literal is _NO_VALUE else literal
            arguments.append(value if processor is None else processor(value))
        if compiled.positional:
            return tuple(arguments)
        return dict(zip((name for name, _, _ in compiled.params), arguments, strict=True))

    def first(self, conn: Connection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """Run with one set of parameters; the first row returned, if any."""
        compiled = self._compile(conn.dialect)
        arguments = self._arguments(compiled, params)
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(compiled.sql, arguments)
            row = cursor.fetchone() if cursor.description else None
        except conn.dialect.loaded_dbapi.Error as error:
            raise _wrapped(conn, compiled.sql, arguments, error) from error
        finally:
            cursor.close()
        return None if row is None else tuple(row)

    def many(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run once per set of parameters (`executemany`; one set, the common case of a turn's
        one seat, as a plain `execute`: psycopg's `executemany` enters and leaves its pipeline
        mode, which costs more than the statement)."""
        compiled = self._compile(conn.dialect)
        arguments = [self._arguments(compiled, row) for row in rows]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if len(arguments) == 1:
                cursor.execute(compiled.sql, arguments[0])
            else:
                cursor.executemany(compiled.sql, arguments)
        except conn.dialect.loaded_dbapi.Error as error:
            raise _wrapped(conn, compiled.sql, arguments, error) from error
        finally:
            cursor.close()


def _wrapped(conn: Connection, sql: str, arguments: Any, error: Exception) -> exc.StatementError:
    """The error as `Connection.execute` would raise it (IntegrityError, OperationalError…)."""
    return exc.DBAPIError.instance(
        sql, arguments, error, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect
    )
