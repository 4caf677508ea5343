"""The JSON API, version 1, under `/api/v1`.

Endpoints live in modules of this package and register themselves on `bp`; import each one at
the bottom of this file. Requests carry no cookie-based form, so CSRF does not apply: an
endpoint that changes someone's data authenticates with a bearer token instead.

Every error under `/api/` (this version or any other, including unknown URLs) answers
`{"error": "<message>"}` with the HTTP status and never an HTML page: `tracker.errors` sends
them here through `error_response`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from flask import Blueprint, Response, jsonify, request

from tracker.extensions import csrf
from tracker.i18n import _
from tracker.rules import RulesError
from tracker.rules_text import rules_text
from tracker.services import InvalidInput, ServiceError
from tracker.web import retry_after

API_PATH_PREFIX = "/api/"

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


def is_api_request() -> bool:
    """Whether the current request is for the JSON API (so errors must be JSON)."""
    return request.path.startswith(API_PATH_PREFIX)


def error_response(
    message: str,
    status: int,
    headers: Iterable[tuple[str, str]] = (),
    code: str | None = None,
) -> Response:
    """The API's error body: `{"error": message}` with `status`, and `"code"` when the error
    has one for clients to branch on."""
    response = jsonify(error=message) if code is None else jsonify(error=message, code=code)
    response.status_code = status
    response.headers.extend(headers)
    return response


P = ParamSpec("P")
R = TypeVar("R")
JsonObject = dict[str, Any]


def api_errors(view: Callable[P, R]) -> Callable[P, R | Response]:
    """The one error decorator of the API: a `ServiceError` answers its status, anything the
    rules refuse (`RulesError`) 400, each as `{"error": message}` with `"code"` when the error
    has one."""

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R | Response:
        try:
            return view(*args, **kwargs)
        except ServiceError as exc:
            return error_response(exc.message, exc.status, retry_after(exc), code=exc.code)
        except RulesError as exc:
            message = rules_text(exc)
            # Sheet messages begin with a column prefix ("kolumna 2: ...") that may be absent.
            code = None if exc.code is None else str(exc.code)  # the rules' Code, when given
            return error_response(message[:1].upper() + message[1:], 400, code=code)

    return wrapper


def read_json_object(allowed: frozenset[str]) -> JsonObject:
    """The one JSON body reader of the API: the body as a JSON object with no keys but
    `allowed` (InvalidInput otherwise). Malformed JSON is a 400 and a body that is not JSON a
    415, both raised by the request class (`tracker.errors.KosciRequest`)."""
    try:
        body = request.get_json()
    except RecursionError:
        # json.loads gives up on deeply nested arrays with RecursionError, not ValueError.
        raise InvalidInput(_("Treść żądania jest zbyt głęboko zagnieżdżona.")) from None
    if not isinstance(body, dict):
        raise InvalidInput(_('Treść żądania musi być obiektem JSON, np. {"variant": "standard"}.'))
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise InvalidInput(
            _(
                "Nieznane klucze: %(unknown)s. Dozwolone: %(allowed)s.",
                unknown=", ".join(unknown),
                allowed=", ".join(sorted(allowed)),
            )
        )
    return body


# Endpoint modules, imported last because they import `bp` from here:
# from tracker.api import score  # noqa: E402, F401
from tracker.api import (  # noqa: E402, F401
    corrections,
    games,
    invitations,
    review,
    rules_api,
    stats,
    transfer,
)
