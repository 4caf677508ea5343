"""The turn path's statements, run on the DB-API cursor of the session's own connection.

Every turn runs three statements (the game's lock, the turn's row, the seat's figures). Through
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
    names: tuple[str, ...] | None  # positional paramstyles: the parameters in order
    defaults: dict[str, Any]  # literals in the statement (`version + 1`)
    processors: dict[str, Callable[[Any], Any]]


class Direct:
    """One Core statement, run straight on the DB-API cursor."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: dict[Dialect, _Compiled] = {}

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self._compiled.get(dialect)
        if compiled is None:
            sql = cast(SQLCompiler, self.statement.compile(dialect=dialect))
            binds = sql.binds
            defaults = {
                name: bind.value
                for name, bind in binds.items()
                if not bind.required and bind.value is not None
            }
            processors: dict[str, Callable[[Any], Any]] = {}
            for name, bind in binds.items():
                processor = bind.type.bind_processor(dialect)
                if processor is not None:
                    processors[name] = processor
            names = tuple(sql.positiontup) if sql.positiontup is not None else None
            compiled = self._compiled[dialect] = _Compiled(sql.string, names, defaults, processors)
        return compiled

    def _arguments(self, compiled: _Compiled, params: Mapping[str, Any]) -> Any:
        values = {**compiled.defaults, **params} if compiled.defaults else dict(params)
        for name, processor in compiled.processors.items():
            if name in values:
                values[name] = processor(values[name])
        if compiled.names is None:
            return values
        return tuple(values[name] for name in compiled.names)

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
        """Run once per set of parameters (`executemany`)."""
        compiled = self._compile(conn.dialect)
        arguments = [self._arguments(compiled, row) for row in rows]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
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
