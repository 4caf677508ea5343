"""„Dołącz telefon”: the link a phone opens to join a game, and the game's invitation panel.

- `bp` (anyone): `/dolacz?kod=<token>` lets the browser in as a guest of the invitation's game
  (`tracker.guests`) and goes to the game. A signed-in account opening a link to its own game
  just goes there.
- `panel` (the signed-in account, `signed_in_only`): the panel of one game, with the QR code
  and the link of the invitation just made, the choice between playing and watching, and the
  live invitations, each with its revoke button.

The link's token is shown once: the browser that made it keeps it in its session for the panel
(the database keeps only its SHA-256), so a reload still shows the code.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.wrappers import Response

from .. import guests
from ..cli import lan_address
from ..forms import EmptyForm, add_error
from ..i18n import N_, gettext
from ..rules import VARIANT_NAMES
from ..services import NotFound, ServiceError, game_view, invitations
from ..services.invitations import Invitation
from ..web import account_id, signed_in_only
from .forms import MODE_LABELS, InvitationForm

bp = Blueprint("join", __name__)
panel = Blueprint("invitations", __name__)
signed_in_only(panel)

# The panel's session key: the invitation this browser made last, with its token.
SHOWN_KEY = "invitation_shown"
OTHER_ACCOUNT = N_(
    "Ten telefon jest zalogowany na inne konto. Wyloguj się (Konto → Wyloguj), a potem otwórz "
    "link zaproszenia jeszcze raz."
)


@bp.get("/dolacz")
def join() -> ResponseReturnValue:
    token = request.args.get("kod", "").strip()
    visitor = invitations.by_token(token)
    if visitor is None:
        abort(404, gettext(invitations.GONE))
    to_game = redirect(url_for("games.play", game_id=visitor.game_id), code=303)
    if current_user.is_authenticated:
        if int(current_user.id) == visitor.account_id:
            return to_game  # the family's own phone: it has the game already
        abort(403, gettext(OTHER_ACCOUNT))
    guests.remember(visitor, invitations.digest(token))
    invitations.record_use(visitor)
    if visitor.watching:
        flash(gettext("Ten telefon ogląda grę. Wyniki odświeżają się same."), "info")
    else:
        flash(gettext("Ten telefon dołączył do gry i może wpisywać ruchy."), "success")
    return to_game


@bp.after_request
def _never_cache(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


# --- the game's panel ----------------------------------------------------------------------


@panel.get("/gry/<int:game_id>/telefony")
def page(game_id: int) -> ResponseReturnValue:
    return _render(game_id, InvitationForm(formdata=None))


@panel.post("/gry/<int:game_id>/telefony")
def create(game_id: int) -> ResponseReturnValue:
    form = InvitationForm()
    if form.validate_on_submit():
        try:
            made, token = invitations.create(account_id(), game_id, form.mode.data)
        except NotFound as exc:
            abort(404, exc.message)
        except ServiceError as exc:
            add_error(form.mode, exc.message)
        else:
            session[SHOWN_KEY] = {"game": game_id, "id": made.id, "token": token}
            return redirect(url_for("invitations.page", game_id=game_id, _anchor="kod"), code=303)
    return _render(game_id, form), 400


@panel.post("/gry/<int:game_id>/telefony/<int:invitation_id>/cofnij")
def revoke(game_id: int, invitation_id: int) -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        invitations.revoke(account_id(), game_id, invitation_id)
    except NotFound as exc:
        abort(404, exc.message)
    flash(
        gettext("Zaproszenie cofnięte: telefon, który z niego korzystał, nie ma już dostępu."),
        "info",
    )
    return redirect(url_for("invitations.page", game_id=game_id), code=303)


def _render(game_id: int, form: InvitationForm) -> str:
    try:
        game, seats = game_view.read(account_id(), game_id)
        live = invitations.live(account_id(), game_id)
    except NotFound as exc:
        abort(404, exc.message)
    shown = _shown(game_id, live)
    return render_template(
        "games/join.html",
        game=game,
        names=[s.player.name for s in seats],
        variant_name=VARIANT_NAMES[game.variant],
        form=form,
        revoke_form=EmptyForm(),
        live=live,
        shown=shown,
        mode_labels=MODE_LABELS,
        after_end_hours=int(invitations.AFTER_END.total_seconds() // 3600),
        lan_page=_lan_page(game_id) if shown else None,
    )


class Shown:
    """The invitation this browser made last, while it lives: its link and QR code."""

    def __init__(self, invitation: Invitation, token: str) -> None:
        self.invitation = invitation
        self.url = guests.join_url(token)
        # Dark modules on white with the standard quiet zone (4 modules); sized by CSS.
        self.svg = segno.make(self.url, error="m").svg_inline(
            border=4,
            dark="#000",
            light="#fff",
            omitsize=True,
            svgclass="qr-code",
            title=gettext("Kod QR zaproszenia do gry"),
        )


def _shown(game_id: int, live: list[Invitation]) -> Shown | None:
    kept = session.get(SHOWN_KEY)
    if not isinstance(kept, dict) or kept.get("game") != game_id:
        return None
    invitation = next((i for i in live if i.id == kept.get("id")), None)
    token = kept.get("token")
    if invitation is None or not isinstance(token, str):
        return None
    return Shown(invitation, token)


def _lan_page(game_id: int) -> str | None:
    """This panel at the computer's address on the Wi-Fi, when it was opened as `localhost`
    (whose links no phone can open) and no proxy stands in front of the app; else None."""
    if current_app.config.get("KOSCI_PROXY_HOPS"):
        return None
    parts = urlsplit(request.host_url)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    address = lan_address() if loopback else None
    if address is None:
        return None
    port = f":{parts.port}" if parts.port else ""
    path = url_for("invitations.page", game_id=game_id)
    return f"{parts.scheme}://{address}{port}{path}"
