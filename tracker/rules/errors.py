"""Errors raised by the rules core. Messages are Polish: they are shown to players as they are."""


class RulesError(ValueError):
    """Input the rules cannot accept (bad dice, unknown field, impossible sheet...)."""


class MoveRefused(RulesError):
    """A well-formed move that the rules forbid (field taken, joker placement, fixed order)."""
