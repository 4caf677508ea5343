"""The whole account as JSON, out and back in (bearer token required).

`GET /api/v1/export` answers the export document (`tracker.services.transfer`), and
`GET /api/v1/export/bgstats` the finished games as a BG Stats file (`transfer.bgstats`);
`POST /api/v1/import` takes one as the body and answers
`{"imported": {"games": n, "players": n}}`, counting what it created: the same file a second
time imports 0 and 0. A file that is not a valid export is a 400 and changes nothing.

The app refuses bodies over 1 MB; an account's export outgrows that, so the import raises the
limit for its own request to `transfer.MAX_FILE_BYTES` (32 MB) before reading the body.
One import runs at a time on the server: a second one meanwhile is a 429 with `Retry-After`,
and changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from ..i18n import _
from ..services import ServiceError, transfer
from ..services.transfer import bgstats
from ..web import local_zone, retry_after
from . import bp, error_response
from .auth import current_account, token_required


@bp.get("/export")
@token_required
def export() -> Response:
    return Response(transfer.export_json(current_account().id), mimetype="application/json")


@bp.get("/export/bgstats")
@token_required
def export_bgstats() -> Response:
    """The finished games as a BG Stats file (`tracker.services.transfer.bgstats`)."""
    body = bgstats.export_bgstats_json(current_account().id, timezone=local_zone().key)
    return Response(body, mimetype="application/json")


@bp.post("/import")
@token_required
def import_() -> dict[str, Any] | Response:
    request.max_content_length = transfer.MAX_FILE_BYTES
    try:
        body = request.get_data(cache=False)
    except RequestEntityTooLarge:
        mb = transfer.MAX_FILE_BYTES // (1024 * 1024)
        return error_response(_("Plik eksportu może mieć najwyżej %(mb)d MB.", mb=mb), 413)
    try:
        with transfer.one_import_at_a_time(current_app.instance_path):
            document = transfer.parse_export_file(body)
            del body  # 32 MB less to hold while the games are checked
            result = transfer.import_account(current_account().id, document)
    except ServiceError as exc:  # another import running: Throttled, with its Retry-After
        return error_response(exc.message, exc.status, retry_after(exc))
    return {"imported": {"games": result.games, "players": result.players}}
