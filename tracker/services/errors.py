"""Service errors. Each carries a Polish message for the person and maps to one HTTP status."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    # What happened, for callers to branch on (never the message): None for a plain refusal.
    code: str | None = None

    def __init__(self, message: str, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field  # the form field the message belongs next to, if any
        if code is not None:
            self.code = code


# The codes of refusals that say what happened (the API's "code"), beside the codes the rules
# give (`rules.Code`) and those of the subclasses below and in the services:
GAME_CHANGED = "game_changed"  # the game moved on since the client's screen (expected_seq/version)
SAME_DATA_CHANGED = "same_data_changed"  # another phone wrote the same rows at the same moment
GAME_FINISHED = "game_finished"  # no turn after the end
GAME_NOT_FINISHED = "game_not_finished"  # a rematch before the end
NOT_THEIR_TURN = "not_their_turn"  # "player" names another than the current player
TURN_LIMIT = "turn_limit"
NOTHING_TO_UNDO = "nothing_to_undo"
INVITATION_LIMIT = "invitation_limit"
GAME_LONG_OVER = "game_long_over"  # an invitation to a game that ended long ago
PLAYER_GONE = "player_gone"  # deleted or merged away meanwhile
PASSWORD_CHANGED_ELSEWHERE = "password_changed_elsewhere"
INVITE_LIMIT = "invite_limit"


class InvalidInput(ServiceError):
    status = 400


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """The rules or the current state of the game refuse the request."""

    status = 409


class Throttled(ServiceError):
    """Too many attempts for now; `retry_after`: the seconds until the next may succeed, when
    known (the answer's Retry-After)."""

    status = 429

    def __init__(
        self,
        message: str,
        field: str | None = None,
        code: str | None = None,
        *,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message, field, code)
        self.retry_after = retry_after
