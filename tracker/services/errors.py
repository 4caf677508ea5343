"""Service errors. Each carries a Polish message for the person and maps to one HTTP status."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    # What happened, for callers to branch on (never the message): None for a plain refusal.
    code: str | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field  # the form field the message belongs next to, if any


class InvalidInput(ServiceError):
    status = 400


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """The rules or the current state of the game refuse the request."""

    status = 409


class Throttled(ServiceError):
    status = 429
