"""What an account prefers for its pages: its language (tracker/i18n.py)."""

from __future__ import annotations

from sqlalchemy import update

from ..extensions import db
from ..models import Account


def set_language(account_id: int, language: str | None) -> None:
    """Remember `language` ("pl", "en"; None: no choice) for every browser of the account."""
    db.session.execute(update(Account).where(Account.id == account_id).values(language=language))
    db.session.commit()
