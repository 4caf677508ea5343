"""Errors raised by the rules core. Messages are Polish (`str(error)`); `error.text` is the same
sentence as a `Text`, for the presentation layer to show it in the player's language.

Each error may carry a stable `code` (see `Code`) so that callers never compare sentences.
"""

from __future__ import annotations

from .codes import Code
from .text import Text


class RulesError(ValueError):
    """Input the rules cannot accept (bad dice, unknown field, impossible sheet...)."""

    def __init__(self, message: str | Text, code: Code | None = None) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(str(text))
        self.text = text
        self.code = code


class MoveRefused(RulesError):
    """A well-formed move that the rules forbid (field taken, joker placement, fixed order)."""
