"""Languages (tracker/i18n.py): Polish by default, English by the switch at the foot of every
page (remembered by the browser and by the account) or, for the API, by `Accept-Language`."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tracker.extensions import db
from tracker.i18n import LANGUAGE_COOKIE
from tracker.models import Account
from tracker.services import accounts

from .test_accounts import PASSWORD, SIGN_IN, sign_in

pytestmark = pytest.mark.one_backend("the language chosen, not the database")

SWITCH = "/jezyk"
SWITCH_TOKEN = re.compile(
    r'action="/jezyk">\s*<input type="hidden" name="csrf_token" value="([^"]+)"'
)


def text(response) -> str:
    return response.get_data(as_text=True)


def switch(client: FlaskClient, language: str, page: str = SIGN_IN, **extra: str):
    """Tap the language switch on `page`, as a browser would (the page's own CSRF token)."""
    match = SWITCH_TOKEN.search(text(client.get(page)))
    assert match, "the page has no language switch"
    return client.post(
        SWITCH, data={"csrf_token": match.group(1), "language": language, "next": page, **extra}
    )


@pytest.fixture
def account(app: Flask) -> None:
    with app.app_context():
        accounts.create_account("Kowalscy", PASSWORD)


def test_pages_are_polish_by_default(client: FlaskClient, account: None):
    page = text(client.get(SIGN_IN))
    assert '<html lang="pl"' in page
    assert "<h1>Zaloguj się</h1>" in page
    assert 'value="en" lang="en">English</button>' in page


def test_the_switch_gives_the_same_page_in_english_and_this_browser_keeps_it(
    client: FlaskClient, account: None
):
    response = switch(client, "en")

    assert response.status_code == 302
    assert response.headers["Location"] == SIGN_IN
    cookie = response.headers["Set-Cookie"]
    assert f"{LANGUAGE_COOKIE}=en" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Max-Age=31536000" in cookie
    page = text(client.get(SIGN_IN))
    assert '<html lang="en"' in page
    assert "<h1>Sign in</h1>" in page
    assert ">Rules</a>" in page  # base.html's menu
    assert 'value="pl" lang="pl">Polski</button>' in page


def test_form_errors_and_flashes_follow_the_language(client: FlaskClient, account: None):
    switch(client, "en")
    wrong = sign_in(client, password="not the password at all")
    assert "Wrong account name or password." in text(wrong)
    assert "Nieprawidłowa" not in text(wrong)


def test_switching_back_gives_polish(client: FlaskClient, account: None):
    switch(client, "en")
    switch(client, "pl")
    assert "<h1>Zaloguj się</h1>" in text(client.get(SIGN_IN))


def test_the_account_remembers_the_language_for_its_other_browsers(
    app: Flask, client: FlaskClient, account: None
):
    sign_in(client)
    switch(client, "en", page="/konto")
    with app.app_context():
        assert db.session.scalar(select(Account.language)) == "en"

    other = app.test_client()  # another phone: no cookie of its own
    assert "<h1>Zaloguj się</h1>" in text(other.get(SIGN_IN))
    sign_in(other)
    page = text(other.get("/konto"))
    assert '<html lang="en"' in page
    assert "API tokens" in page


def test_an_unknown_language_is_refused(client: FlaskClient, account: None):
    response = switch(client, "de")
    assert response.status_code == 400
    assert LANGUAGE_COOKIE not in response.headers.get("Set-Cookie", "")
    assert "Nieprawidłowe żądanie" in text(response)


def test_the_switch_needs_its_csrf_token(client: FlaskClient, account: None):
    response = client.post(SWITCH, data={"language": "en", "next": "/"})
    assert response.status_code == 400


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example"])
def test_the_switch_never_leads_off_site(client: FlaskClient, account: None, target: str):
    match = SWITCH_TOKEN.search(text(client.get(SIGN_IN)))
    assert match
    response = client.post(
        SWITCH, data={"csrf_token": match.group(1), "language": "en", "next": target}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize(
    ("accept", "message"),
    [
        (None, "Brak tokenu: dodaj nagłówek Authorization: Bearer <token>."),
        ("pl", "Brak tokenu: dodaj nagłówek Authorization: Bearer <token>."),
        ("en-GB,en;q=0.9", "No token: add the header Authorization: Bearer <token>."),
        ("de", "Brak tokenu: dodaj nagłówek Authorization: Bearer <token>."),
        ("de, en;q=0.5", "No token: add the header Authorization: Bearer <token>."),
    ],
)
def test_the_api_speaks_the_language_the_client_asks_for(
    client: FlaskClient, accept: str | None, message: str
):
    headers = {"Accept-Language": accept} if accept else {}
    response = client.get("/api/v1/games", headers=headers)
    assert response.status_code == 401
    assert response.get_json() == {"error": message}


def test_the_api_ignores_the_page_language_cookie(client: FlaskClient):
    client.set_cookie(LANGUAGE_COOKIE, "en")
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.get_json() == {"error": "Nie ma takiego adresu ani zasobu."}
    english = client.get("/api/v1/no-such-thing", headers={"Accept-Language": "en"})
    assert english.get_json() == {"error": "No such address or resource."}


def test_a_cookie_naming_no_language_of_the_app_gives_polish(client: FlaskClient, account: None):
    client.set_cookie(LANGUAGE_COOKIE, "xx")
    assert '<html lang="pl"' in text(client.get(SIGN_IN))
