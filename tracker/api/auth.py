"""Bearer-token authentication for the API endpoints that touch an account's data."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import Response, g, request

from ..i18n import gettext
from ..services import accounts
from ..services.accounts import AccountRef
from . import error_response

P = ParamSpec("P")
R = TypeVar("R")


def token_required(view: Callable[P, R]) -> Callable[P, R | Response]:
    """401 unless `Authorization: Bearer <token>` names a live token; the account is in `g`."""

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R | Response:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return _unauthorized(
                gettext("Brak tokenu: dodaj nagłówek Authorization: Bearer <token>.")
            )
        account = accounts.account_for_token(token.strip())
        if account is None:
            return _unauthorized(gettext("Nieznany albo unieważniony token."))
        g.api_account = account
        return view(*args, **kwargs)

    return wrapper


def current_account() -> AccountRef:
    account: AccountRef = g.api_account
    return account


def _unauthorized(message: str) -> Response:
    return error_response(message, 401, [("WWW-Authenticate", 'Bearer realm="kosci"')])
