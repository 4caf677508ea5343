"""Whether the database answers, for an uptime monitor (`/healthz/db`)."""

from __future__ import annotations

from sqlalchemy import text

from ..extensions import db


def check_database() -> None:
    """Ask the database one query; its error (DBAPIError) when it does not answer."""
    db.session.execute(text("SELECT 1"))
    db.session.rollback()
