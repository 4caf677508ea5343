"""`/konto/dane`: download the account's whole history, or bring an export back in.

The import form is the one form allowed past the app's 1 MB request limit (an account's export
outgrows it): the view raises the limit for its own request to `transfer.MAX_FILE_BYTES` before
anything reads the body, so it checks the CSRF token itself instead of the app-wide check (which
would read the body first, under the 1 MB limit).
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from ..extensions import csrf
from ..i18n import _, ngettext
from ..services import ServiceError, transfer
from ..services.transfer import bgstats
from ..web import account_id, local_zone, retry_after, signed_in_only
from .forms import ImportForm

bp = Blueprint("transfer", __name__)
signed_in_only(bp)

MAX_MB = transfer.MAX_FILE_BYTES // (1024 * 1024)


def _zone_name() -> str:
    return local_zone().key


def _file_name(extension: str) -> str:
    """ "kosci-Kowalscy-2025-05-03.json": whose data and from when, safe in any file system."""
    name = re.sub(r"[^\w]+", "-", current_user.name).strip("-") or "konto"  # i18n: not shown
    today = datetime.now(UTC).astimezone(ZoneInfo(_zone_name())).date()
    return f"kosci-{name}-{today.isoformat()}.{extension}"


def _render(
    form: ImportForm, status: int = 200, headers: list[tuple[str, str]] | None = None
) -> ResponseReturnValue:
    size = transfer.account_size(account_id())
    return (
        render_template(
            "transfer/data.html",
            form=form,
            games=size.games,
            players=size.players,
            max_mb=MAX_MB,
        ),
        status,
        headers or [],
    )


@bp.get("/konto/dane")
def data() -> ResponseReturnValue:
    return _render(ImportForm(formdata=None))


@bp.get("/konto/dane/kosci.json")
def download_json() -> ResponseReturnValue:
    body = transfer.export_json(account_id()).encode()
    return send_file(
        io.BytesIO(body),
        mimetype="application/json",
        as_attachment=True,
        download_name=_file_name("json"),
        max_age=0,
    )


@bp.get("/konto/dane/wyniki.csv")
def download_csv() -> ResponseReturnValue:
    body = transfer.export_csv(account_id(), timezone=_zone_name()).encode()
    return send_file(
        io.BytesIO(body),
        mimetype="text/csv",  # Flask adds "; charset=utf-8" to a text/ type
        as_attachment=True,
        download_name=_file_name("csv"),
        max_age=0,
    )


@bp.get("/konto/dane/bgstats.json")
def download_bgstats() -> ResponseReturnValue:
    """The finished games as a BG Stats file (`transfer.bgstats`)."""
    body = bgstats.export_bgstats_json(account_id(), timezone=_zone_name()).encode()
    today = datetime.now(UTC).astimezone(ZoneInfo(_zone_name())).date()
    return send_file(
        io.BytesIO(body),
        mimetype="application/json",
        as_attachment=True,
        download_name=f"kosci-bgstats-{today.isoformat()}.json",
        max_age=0,
    )


@bp.post("/konto/dane")
@csrf.exempt  # checked below, once the larger limit is in place
def upload() -> ResponseReturnValue:
    request.max_content_length = transfer.MAX_FILE_BYTES
    try:
        csrf.protect()  # reads the form: the body, up to the raised limit
    except RequestEntityTooLarge:
        form = ImportForm(formdata=None)
        form.file.errors = [_("Plik jest za duży: najwyżej %(mb)d MB.", mb=MAX_MB)]
        return _render(form, 413)
    form = ImportForm()
    if not form.validate_on_submit():
        return _render(form, 400)
    try:
        with transfer.one_import_at_a_time(current_app.instance_path):
            document = transfer.parse_export_file(form.file.data.read())
            form.file.data.close()
            result = transfer.import_account(account_id(), document)
    except ServiceError as exc:
        form.file.errors = [exc.message]
        return _render(form, exc.status, retry_after(exc))  # another import: wait a little
    flash(_result_text(result), "success")
    return redirect(url_for("transfer.data"), code=303)


def _result_text(result: transfer.ImportResult) -> str:
    later = " " + _("Oceny części gier zostaną policzone w tle.") if result.review_pending else ""
    if not result.games and not result.players and not result.skipped:
        # An export of an account that had not played yet: nothing to say "already there" of.
        return _("Plik jest poprawny, ale nie ma w nim żadnej gry.") + later
    if not result.games and not result.players:
        return (
            _("Plik jest poprawny, ale nie wniósł nic nowego: wszystkie jego gry już są na koncie.")
            + later
        )
    text = _(
        "Zaimportowano %(games)s i %(players)s.",
        # The object of "Zaimportowano": 1 grę, 2 gry, 5 gier; 1 gracza, 2 graczy.
        games=ngettext("%(num)d grę", "%(num)d gier", result.games),
        players=ngettext("%(num)d gracza", "%(num)d graczy", result.players),
    )
    if result.skipped:
        text += " " + ngettext(
            "Pominięto %(num)d grę, która już była na koncie.",
            "Pominięto %(num)d gier, które już były na koncie.",
            result.skipped,
        )
    return text + later
