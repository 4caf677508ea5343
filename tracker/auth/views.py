from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required, login_user, logout_user

from ..forms import EmptyForm, add_error
from ..i18n import _
from ..models import Account
from ..services import ServiceError, accounts, signup
from ..web import retry_after, same_site_path
from .forms import PasswordChangeForm, SignInForm, SignUpForm, TokenForm

bp = Blueprint("auth", __name__)


def start_session(account: Account) -> None:
    """Sign this browser in to `account` after its password was checked: an empty session
    cookie (nothing another account left in it, such as an invitation link made on this
    browser, and a new CSRF token: one planted before sign-in is worth nothing after), a new
    server-side session that signing out ends (`accounts.sign_in`, which also writes the audit
    log), and the remember cookie."""
    _empty_session()
    accounts.sign_in(account)
    login_user(account, remember=True)


def end_session() -> None:
    """Sign this browser out. The session cookie is signed, not encrypted, so anyone holding
    the browser can read it: it keeps nothing of the account (the invitation link the panel
    shows, the CSRF token). The theme and the language are cookies of their own and stay."""
    _empty_session()
    logout_user()  # after emptying: it marks the remember cookie to be deleted


def _empty_session() -> None:
    session.clear()
    g.pop(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), None)


@bp.route("/rejestracja", methods=["GET", "POST"])
def sign_up() -> ResponseReturnValue:
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    policy = signup.policy()
    if policy == "closed":
        page = render_template(
            "auth/sign_up.html", form=None, policy=policy, first=not accounts.has_accounts()
        )
        return page, 403 if request.method == "POST" else 200
    form = SignUpForm()
    if policy != "invite":
        del form.invite
    elif request.method == "GET" and request.args.get("kod"):
        form.invite.data = request.args["kod"][:100]  # the link an invite is shared as
    status, headers = 200, []
    if form.validate_on_submit():
        try:
            account = signup.sign_up(
                form.name.data or "",
                form.password.data or "",
                request.remote_addr or "",
                invite_code=form.invite.data if policy == "invite" else None,
            )
        except ServiceError as exc:
            add_error(getattr(form, exc.field or "name"), exc.message)
            status = exc.status
            headers = retry_after(exc)
        else:
            start_session(account)
            flash(_("Witaj, %(name)s! Konto jest gotowe.", name=account.name), "success")
            return redirect(url_for("main.home"))
    elif form.errors:
        status = 400
    return (
        render_template(
            "auth/sign_up.html", form=form, policy=policy, password_min=accounts.PASSWORD_MIN
        ),
        status,
        headers,
    )


@bp.route("/logowanie", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    if not accounts.has_accounts():
        return redirect(url_for("auth.sign_up"))
    form = SignInForm()
    status, headers = 200, []
    if form.validate_on_submit():
        try:
            account = accounts.authenticate(
                form.name.data or "", form.password.data or "", request.remote_addr or ""
            )
        except ServiceError as exc:
            add_error(form.password, exc.message)
            status = exc.status
            headers = retry_after(exc)
        else:
            start_session(account)
            return redirect(same_site_path(request.args.get("next")))
    elif form.errors:
        status = 400
    return render_template("auth/sign_in.html", form=form), status, headers


@bp.post("/wyloguj")
@login_required
def sign_out() -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    accounts.close_session(current_user)  # copies of this browser's cookies stop working too
    end_session()
    flash(_("Wylogowano."), "info")
    return redirect(url_for("auth.sign_in"))


@bp.post("/wyloguj-wszedzie")
@login_required
def sign_out_everywhere() -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    accounts.close_all_sessions(current_user.id)
    end_session()
    flash(_("Wylogowano na wszystkich urządzeniach. Zaloguj się ponownie."), "info")
    return redirect(url_for("auth.sign_in"))


@bp.route("/konto/haslo", methods=["GET", "POST"])
@login_required
def change_password() -> ResponseReturnValue:
    form = PasswordChangeForm()
    status, headers = 200, []
    if form.validate_on_submit():
        try:
            accounts.change_password(
                current_user,
                form.current_password.data or "",
                form.new_password.data or "",
                request.remote_addr or "",
            )
        except ServiceError as exc:
            add_error(getattr(form, exc.field or "current_password"), exc.message)
            status = exc.status
            headers = retry_after(exc)
        else:
            flash(_("Hasło zmienione. Inne urządzenia zostały wylogowane."), "success")
            return redirect(url_for("auth.account"))
    elif form.errors:
        status = 400
    return render_template("auth/password.html", form=form), status, headers


@bp.route("/konto", methods=["GET", "POST"])
@login_required
def account() -> ResponseReturnValue:
    form = TokenForm()
    new_token = None
    status, headers = 200, []
    if form.validate_on_submit():
        try:
            accounts.confirm_password(
                current_user, form.current_password.data or "", request.remote_addr or ""
            )
            _, new_token = accounts.create_token(current_user.id, form.name.data or "")
        except ServiceError as exc:
            add_error(getattr(form, exc.field or "name"), exc.message)
            status = exc.status
            headers = retry_after(exc)
        else:
            form = TokenForm(formdata=None)
    elif form.errors:
        status = 400
    return (
        render_template(
            "auth/account.html",
            form=form,
            tokens=accounts.list_tokens(current_user.id),
            new_token=new_token,
            action_form=EmptyForm(),
        ),
        status,
        headers,
    )


@bp.post("/konto/tokeny/<int:token_id>/uniewaznij")
@login_required
def revoke_token(token_id: int) -> ResponseReturnValue:
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        accounts.revoke_token(current_user.id, token_id)
    except ServiceError as exc:
        abort(exc.status, exc.message)
    flash(_("Token unieważniony: nie da się już nim zalogować do API."), "info")
    return redirect(url_for("auth.account"))
