"""Errors raised by the rules core. Messages are Polish: they are shown to players as they are.

Each error may carry a stable `code` (see `Code`) so that callers never compare sentences.
"""

from __future__ import annotations

from .codes import Code


class RulesError(ValueError):
    """Input the rules cannot accept (bad dice, unknown field, impossible sheet...)."""

    def __init__(self, message: str, code: Code | None = None) -> None:
        super().__init__(message)
        self.code = code


class MoveRefused(RulesError):
    """A well-formed move that the rules forbid (field taken, joker placement, fixed order)."""
