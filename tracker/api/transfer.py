"""The whole account as JSON, out and back in (bearer token required).

`GET /api/v1/export` answers the export document (`tracker.services.transfer`);
`POST /api/v1/import` takes one as the body and answers
`{"imported": {"games": n, "players": n}}`, counting what it created: the same file a second
time imports 0 and 0. A file that is not a valid export is a 400 and changes nothing.

The app refuses bodies over 1 MB; an account's export outgrows that, so the import raises the
limit for its own request to `transfer.MAX_FILE_BYTES` (32 MB) before reading the body.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from ..services import ServiceError, transfer
from . import bp, error_response
from .auth import current_account, token_required


@bp.get("/export")
@token_required
def export() -> Response:
    return Response(transfer.export_json(current_account().id), mimetype="application/json")


@bp.post("/import")
@token_required
def import_() -> dict[str, Any] | Response:
    request.max_content_length = transfer.MAX_FILE_BYTES
    try:
        body = request.get_data(cache=False)
    except RequestEntityTooLarge:
        mb = transfer.MAX_FILE_BYTES // (1024 * 1024)
        return error_response(f"Plik eksportu może mieć najwyżej {mb} MB.", 413)
    try:
        result = transfer.import_account(current_account().id, transfer.parse_export_file(body))
    except ServiceError as exc:
        return error_response(exc.message, exc.status)
    return {"imported": {"games": result.games, "players": result.players}}
