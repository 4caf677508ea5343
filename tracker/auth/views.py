from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required, login_user, logout_user

from ..forms import EmptyForm
from ..services import ServiceError, accounts
from .forms import SignInForm, SignUpForm, TokenForm

bp = Blueprint("auth", __name__)


def _safe_next(target: str | None) -> str:
    """Only same-site paths: an open redirect would send a family to a phishing page.

    Browsers read a backslash as a slash and drop tabs and newlines, so `/\\evil.example` and
    `/<tab>/evil.example` lead off-site like `//evil.example`: refuse them too.
    """
    if (
        target
        and target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and target.isprintable()
    ):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("main.home")


@bp.route("/rejestracja", methods=["GET", "POST"])
def sign_up() -> ResponseReturnValue:
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    form = SignUpForm()
    if form.validate_on_submit():
        try:
            account = accounts.create_account(form.name.data or "", form.password.data or "")
        except ServiceError as exc:
            getattr(form, exc.field or "name").errors.append(exc.message)
        else:
            login_user(account, remember=True)
            flash(f"Witaj, {account.name}! Konto jest gotowe.", "success")
            return redirect(url_for("main.home"))
    return render_template("auth/sign_up.html", form=form), 400 if form.errors else 200


@bp.route("/logowanie", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    if not accounts.has_accounts():
        return redirect(url_for("auth.sign_up"))
    form = SignInForm()
    status = 200
    if form.validate_on_submit():
        try:
            account = accounts.authenticate(
                form.name.data or "", form.password.data or "", request.remote_addr or ""
            )
        except ServiceError as exc:
            form.password.errors.append(exc.message)
            status = exc.status
        else:
            login_user(account, remember=True)
            return redirect(_safe_next(request.args.get("next")))
    elif form.errors:
        status = 400
    return render_template("auth/sign_in.html", form=form), status


@bp.post("/wyloguj")
@login_required
def sign_out() -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    logout_user()
    flash("Wylogowano.", "info")
    return redirect(url_for("auth.sign_in"))


@bp.route("/konto", methods=["GET", "POST"])
@login_required
def account() -> ResponseReturnValue:
    form = TokenForm()
    new_token = None
    status = 200
    if form.validate_on_submit():
        try:
            _, new_token = accounts.create_token(current_user.id, form.name.data or "")
        except ServiceError as exc:
            form.name.errors.append(exc.message)
            status = 400
        else:
            form = TokenForm(formdata=None)
    elif form.errors:
        status = 400
    return render_template(
        "auth/account.html",
        form=form,
        tokens=accounts.list_tokens(current_user.id),
        new_token=new_token,
        action_form=EmptyForm(),
    ), status


@bp.post("/konto/tokeny/<int:token_id>/uniewaznij")
@login_required
def revoke_token(token_id: int) -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        accounts.revoke_token(current_user.id, token_id)
    except ServiceError as exc:
        abort(exc.status, exc.message)
    flash("Token unieważniony: nie da się już nim zalogować do API.", "info")
    return redirect(url_for("auth.account"))
