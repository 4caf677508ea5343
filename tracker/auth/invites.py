"""Invite codes on the account page (`KOSCI_SIGNUP=invite`): the section's data for
templates/auth/_invites.html, and the button that makes a code."""

from __future__ import annotations

from typing import Any

from flask import abort, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required

from ..forms import EmptyForm
from ..models import utcnow
from ..services import ServiceError, signup
from .views import bp


@bp.app_template_global("invite_section")
def invite_section() -> dict[str, Any] | None:
    """What the account page's invite section shows; None when sign-up is not by invitation
    (or nobody is signed in): the section is then left out."""
    if signup.policy() != "invite" or not current_user.is_authenticated:
        return None
    return {
        "invites": signup.recent_invites(current_user.id),
        "now": utcnow(),
        "days": signup.INVITE_DAYS,
        "form": EmptyForm(),
    }


@bp.post("/konto/zaproszenia")
@login_required
def create_invite() -> ResponseReturnValue:
    if signup.policy() != "invite":
        abort(404)
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        invite, code = signup.create_invite(current_user.id)
    except ServiceError as exc:
        abort(exc.status, exc.message)
    link = url_for("auth.sign_up", kod=code, _external=True)
    page = render_template("auth/invite_created.html", invite=invite, code=code, link=link)
    return page, 200, {"Cache-Control": "no-store"}  # the code is shown once
