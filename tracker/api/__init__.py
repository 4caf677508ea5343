"""The JSON API, version 1, under `/api/v1`.

Endpoints live in modules of this package and register themselves on `bp`; import each one at
the bottom of this file. Requests carry no cookie-based form, so CSRF does not apply: an
endpoint that changes someone's data authenticates with a bearer token instead.

Every error under `/api/` (this version or any other, including unknown URLs) answers
`{"error": "<message>"}` with the HTTP status and never an HTML page: `tracker.errors` sends
them here through `error_response`.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Blueprint, Response, jsonify, request

from tracker.extensions import csrf

API_PATH_PREFIX = "/api/"

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


def is_api_request() -> bool:
    """Whether the current request is for the JSON API (so errors must be JSON)."""
    return request.path.startswith(API_PATH_PREFIX)


def error_response(message: str, status: int, headers: Iterable[tuple[str, str]] = ()) -> Response:
    """The API's error body: `{"error": message}` with `status`."""
    response = jsonify(error=message)
    response.status_code = status
    response.headers.extend(headers)
    return response


# Endpoint modules, imported last because they import `bp` from here:
# from tracker.api import score  # noqa: E402, F401
from tracker.api import games, rules_api, stats, transfer  # noqa: E402, F401
