"""Accounts in the browser, CSRF on: sign up, sign in (slowed down after failures), sign out,
safe redirects, and the account page's API tokens."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.security import check_password_hash

from tracker.extensions import db
from tracker.models import Account, ApiToken, LoginFailure, name_key
from tracker.services import InvalidInput, Throttled, accounts

SIGN_UP = "/rejestracja"
SIGN_IN = "/logowanie"
SIGN_OUT = "/wyloguj"
ACCOUNT = "/konto"
PASSWORD = "Kości i kubek 2024"

CSRF_INPUT = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
NEW_TOKEN = re.compile(r"data-new-token>(kosci_[\w-]+)<")


def csrf_token(client: FlaskClient, url: str) -> str:
    """The CSRF token of the form on the page at `url`, as a browser would submit it."""
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    match = CSRF_INPUT.search(page.get_data(as_text=True))
    assert match, "the page has no CSRF token"
    return match.group(1)


def submit(client: FlaskClient, url: str, form_page: str | None = None, **fields: str):
    """Fill in the form of `form_page` (default: `url`) and send it to `url`."""
    token = csrf_token(client, form_page or url)
    return client.post(url, data={"csrf_token": token, **fields})


def sign_up(client: FlaskClient, name: str = "Kowalscy", password: str = PASSWORD):
    return submit(client, SIGN_UP, name=name, password=password, confirm=password)


def sign_in(client: FlaskClient, name: str = "Kowalscy", password: str = PASSWORD, url=SIGN_IN):
    return submit(client, url, name=name, password=password)


def text(response) -> str:
    return response.get_data(as_text=True)


def signed_in(client: FlaskClient) -> bool:
    return client.get(ACCOUNT).status_code == 200


@pytest.fixture
def account(app: Flask) -> None:
    """An account "Kowalscy" with `PASSWORD`, made through the service (nobody signed in)."""
    with app.app_context():
        accounts.create_account("Kowalscy", PASSWORD)


# --- sign up -------------------------------------------------------------------------------


def test_an_account_name_is_stored_composed_and_signs_in_however_it_is_typed(
    app: Flask, client: FlaskClient
):
    """„Zoë” typed as e + combining diaeresis (some keyboards send it so) is the same name as
    the one-character ë: stored composed (NFC), and either spelling signs in."""
    assert sign_up(client, "Zoe\u0308 Nowak").status_code == 302
    with app.app_context():
        stored = db.session.scalar(select(Account.name))
    assert stored == "Zo\u00eb Nowak"
    for typed in ("Zo\u00eb Nowak", "ZOE\u0308 NOWAK"):
        other = app.test_client()
        assert sign_in(other, typed).status_code == 302, typed


def test_a_name_that_only_looks_like_another_account_is_refused(client: FlaskClient):
    assert sign_up(client, "Zo\u00eb").status_code == 302
    fresh = client.application.test_client()

    response = sign_up(fresh, "Zoe\u0308")

    assert response.status_code == 400
    assert "Tej nazwy nie można użyć – wybierz inną." in text(response)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("\u200bZo\u00eb", "Znak U+200B (ZERO WIDTH SPACE) nie może być w nazwie konta."),
        ("Zo\u00eb\u202e", "Znak U+202E (RIGHT-TO-LEFT OVERRIDE) nie może być w nazwie konta."),
        ("Kowal\u0007", "Znak U+0007 (BELL) nie może być w nazwie konta."),
        ("\u2063\u2063", "Znak U+2063 (INVISIBLE SEPARATOR) nie może być w nazwie konta."),
        ("– –", "Nazwa konta musi zawierać literę, cyfrę albo emoji."),
    ],
)
def test_an_account_name_with_an_invisible_or_control_character_is_refused(
    app: Flask, client: FlaskClient, name: str, said: str
):
    response = sign_up(client, name)

    assert response.status_code == 400
    assert said in text(response)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Account)) == 0


def test_sign_up_creates_the_account_and_signs_in(client: FlaskClient):
    response = sign_up(client)

    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert signed_in(client)
    assert "Konto: Kowalscy" in text(client.get(ACCOUNT))


@pytest.mark.sqlite_only("reads the database file's bytes")
def test_the_password_is_stored_hashed_never_as_plain_text(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The real method: `app` hashes with one PBKDF2 round (tests/integration/apps.py).
    monkeypatch.setitem(app.config, "PASSWORD_HASH_METHOD", accounts.DEFAULT_HASH_METHOD)
    sign_up(client)

    with app.app_context():
        stored = db.session.scalar(select(Account.password_hash))
        db.engine.dispose()  # everything written out to the file
    assert PASSWORD not in stored
    assert stored.split(":")[0] in {"scrypt", "pbkdf2"}
    assert check_password_hash(stored, PASSWORD)
    database = b"".join(p.read_bytes() for p in tmp_path.glob("test.sqlite3*"))
    assert b"Kowalscy" in database
    assert PASSWORD.encode() not in database


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param(
            {"name": "kowalscy", "password": PASSWORD, "confirm": PASSWORD},
            "Tej nazwy nie można użyć – wybierz inną.",
            id="name taken, other case",
        ),
        pytest.param(
            {"name": " KOWALSCY ", "password": PASSWORD, "confirm": PASSWORD},
            "Tej nazwy nie można użyć – wybierz inną.",
            id="name taken, capitals and spaces",
        ),
        pytest.param(
            {"name": "Nowakowie", "password": "krótkie has", "confirm": "krótkie has"},
            "Hasło musi mieć co najmniej 12 znaków.",
            id="short password",
        ),
        pytest.param(
            {"name": "Nowakowie", "password": PASSWORD, "confirm": PASSWORD + "!"},
            "Hasła się różnią.",
            id="confirmation differs",
        ),
        pytest.param(
            {"name": "", "password": PASSWORD, "confirm": PASSWORD},
            "Podaj nazwę konta.",
            id="no name",
        ),
        pytest.param(
            {"name": "N" * 61, "password": PASSWORD, "confirm": PASSWORD},
            "Nazwa konta może mieć najwyżej 60 znaków.",
            id="61-character name",
        ),
    ],
)
def test_sign_up_with_bad_input_shows_the_error_and_answers_400(
    app: Flask, client: FlaskClient, account: None, fields: dict[str, str], message: str
):
    response = submit(client, SIGN_UP, **fields)

    assert response.status_code == 400
    assert message in text(response)
    assert 'class="error"' in text(response)
    assert not signed_in(client)
    with app.app_context():
        assert db.session.scalars(select(Account.name)).all() == ["Kowalscy"]


# --- sign in -------------------------------------------------------------------------------


def test_sign_in_without_any_account_sends_you_to_sign_up(client: FlaskClient):
    response = client.get(SIGN_IN)

    assert response.status_code == 302
    assert response.headers["Location"] == SIGN_UP


def test_sign_in_with_the_right_password_case_ignored_in_the_name(
    client: FlaskClient, account: None
):
    response = sign_in(client, name="  kowalscy ")

    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert signed_in(client)


@pytest.mark.parametrize(
    ("name", "password"),
    [
        pytest.param("Kowalscy", PASSWORD + "x", id="wrong password"),
        pytest.param("Nowakowie", PASSWORD, id="unknown account"),
    ],
)
def test_a_failed_sign_in_says_the_same_whatever_was_wrong(
    client: FlaskClient, account: None, name: str, password: str
):
    response = sign_in(client, name=name, password=password)

    assert response.status_code == 400
    assert "Nieprawidłowa nazwa konta lub hasło." in text(response)
    assert not signed_in(client)


def test_repeated_failed_sign_ins_are_slowed_down(app: Flask, client: FlaskClient, account: None):
    for _ in range(accounts.FREE_FAILURES):
        assert sign_in(client, password="zgadywane").status_code == 400

    throttled = sign_in(client)  # the right password, but too soon

    assert throttled.status_code == 429
    match = re.search(r"Spróbuj ponownie za (\d+) s", text(throttled))
    assert match, text(throttled)
    wait = int(match.group(1))
    assert 1 <= wait <= accounts.BASE_DELAY.total_seconds() + 1
    assert throttled.headers["Retry-After"] == str(wait)  # what the sentence says
    assert not signed_in(client)
    with app.app_context():
        last_failure = db.session.scalar(select(LoginFailure.at).order_by(LoginFailure.at.desc()))
        # Just before the wait is over: still refused, and the password is not even checked.
        with pytest.raises(Throttled):
            accounts.authenticate(
                "Kowalscy", PASSWORD, "127.0.0.1", now=last_failure + timedelta(seconds=4)
            )
        # After the wait: the right password passes and the failures are forgotten.
        account = accounts.authenticate(
            "Kowalscy", PASSWORD, "127.0.0.1", now=last_failure + timedelta(seconds=wait)
        )
        assert account.name == "Kowalscy"
        assert db.session.scalars(select(LoginFailure)).all() == []
    assert sign_in(client).status_code == 302


def test_a_right_password_before_a_sensitive_step_does_not_forget_the_wrong_ones(
    app: Flask, account: None
):
    """Re-authentication (a new token, a password change): the right password counts as no
    failure, but the wrong guesses made before it still do, as they did."""
    with app.app_context():
        kowalscy = db.session.scalar(select(Account).where(Account.name == "Kowalscy"))
        assert kowalscy is not None
        for _ in range(2):
            with pytest.raises(InvalidInput):
                accounts.confirm_password(kowalscy, "zgadywane", "127.0.0.1")
        accounts.confirm_password(kowalscy, PASSWORD, "127.0.0.1")
        assert db.session.scalar(select(func.count()).select_from(LoginFailure)) == 2


def test_each_failure_beyond_the_free_ones_doubles_the_wait(app: Flask, account: None):
    def attempt(password: str, after: float) -> Account:
        return accounts.authenticate(
            "Kowalscy", password, "10.0.0.1", now=start + timedelta(seconds=after)
        )

    with app.app_context():
        start = accounts.utcnow()
        for _ in range(accounts.FREE_FAILURES):
            with pytest.raises(InvalidInput):
                attempt("zgadywane", 0)
        with pytest.raises(Throttled, match="za 5 s"):
            attempt(PASSWORD, 0.5)
        with pytest.raises(InvalidInput):  # the 5 s are over, but the password is wrong again
            attempt("zgadywane", 5)

        with pytest.raises(Throttled, match="za 10 s"):
            attempt(PASSWORD, 5)
        with pytest.raises(Throttled, match="za 10 s"):
            attempt(PASSWORD, 5.5)
        with pytest.raises(Throttled, match="za 1 s"):
            attempt(PASSWORD, 14.5)
        assert attempt(PASSWORD, 15).name == "Kowalscy"


def test_failures_older_than_the_window_are_not_counted(app: Flask, account: None):
    with app.app_context():
        long_ago = accounts.utcnow() - accounts.WINDOW - timedelta(seconds=1)
        db.session.add_all(
            LoginFailure(name_key="kowalscy", remote_addr="10.0.0.1", at=long_ago)
            for _ in range(10)
        )
        db.session.commit()

        assert accounts.authenticate("Kowalscy", PASSWORD, "10.0.0.1").name == "Kowalscy"


def test_sign_in_returns_to_the_page_that_asked_for_it(client: FlaskClient, account: None):
    asked = client.get(ACCOUNT)
    assert asked.status_code == 302
    login_url = asked.headers["Location"]
    assert login_url == f"{SIGN_IN}?next=%2Fkonto"

    response = sign_in(client, url=login_url)

    assert response.headers["Location"] == ACCOUNT


@pytest.mark.parametrize(
    "target",
    [
        pytest.param("//evil.example", id="scheme-relative"),
        pytest.param("//evil.example/konto", id="scheme-relative with a path"),
        pytest.param("https://evil.example/", id="absolute"),
        pytest.param("/\\evil.example", id="backslash read as a slash"),
        pytest.param("/\t/evil.example", id="tab dropped by browsers"),
        pytest.param("/\n/evil.example", id="newline dropped by browsers"),
        pytest.param("javascript:alert(1)", id="javascript URL"),
        pytest.param("evil.example", id="no leading slash"),
    ],
)
def test_sign_in_never_redirects_off_site(client: FlaskClient, account: None, target: str):
    response = sign_in(client, url=f"{SIGN_IN}?{urlencode({'next': target})}")

    assert response.status_code == 302
    assert response.headers["Location"] == "/"


# --- sign out and CSRF ---------------------------------------------------------------------


def test_sign_out_needs_a_post_with_the_csrf_token(client: FlaskClient, account: None):
    sign_in(client)

    assert client.get(SIGN_OUT).status_code == 405
    assert client.post(SIGN_OUT).status_code == 400
    assert client.post(SIGN_OUT, data={"csrf_token": "forged"}).status_code == 400
    assert signed_in(client)

    response = submit(client, SIGN_OUT, form_page=ACCOUNT)

    assert response.status_code == 302
    assert response.headers["Location"] == SIGN_IN
    assert not signed_in(client)


def test_every_form_refuses_a_post_without_the_csrf_token(
    app: Flask, client: FlaskClient, account: None
):
    sign_in(client)
    with app.app_context():
        account_id = db.session.scalar(select(Account.id))
        token, _ = accounts.create_token(account_id, "skrypt")
        token_id = token.id
    form_urls = sorted(
        re.sub(r"<[^>]+>", str(token_id), rule.rule)
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and not rule.rule.startswith("/api/")
    )
    assert {SIGN_UP, SIGN_IN, SIGN_OUT, ACCOUNT} <= set(form_urls)

    for url in form_urls:
        response = client.post(url, data={"name": "Nowakowie", "password": PASSWORD})
        assert response.status_code == 400, url
        assert "Formularz wygasł" in text(response), url

    assert signed_in(client)
    with app.app_context():
        assert db.session.get(ApiToken, token_id).revoked_at is None
        assert [t.name for t in accounts.list_tokens(account_id)] == ["skrypt"]


# --- the account page: API tokens ----------------------------------------------------------


def test_the_account_page_needs_signing_in(client: FlaskClient, account: None):
    response = client.get(ACCOUNT)

    assert response.status_code == 302
    assert response.headers["Location"].startswith(SIGN_IN)


def test_a_new_token_is_shown_once_listed_and_works_on_the_api(
    app: Flask, client: FlaskClient, account: None
):
    sign_in(client)

    created = submit(client, ACCOUNT, name="Skrypt domowy", current_password=PASSWORD)

    assert created.status_code == 200
    match = NEW_TOKEN.search(text(created))
    assert match, text(created)
    token = match.group(1)
    api = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/games", headers=api).status_code == 200
    later = text(client.get(ACCOUNT))
    assert token not in later
    assert "Skrypt domowy" in later
    assert f"{token[:12]}…" in later
    with app.app_context():
        stored = db.session.scalar(select(ApiToken))
        assert stored.token_hash != token
        assert token not in stored.token_hash
        assert stored.last_used_at is not None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("", "Podaj nazwę tokenu.", id="no name"),
        pytest.param("T" * 61, "Nazwa tokenu może mieć najwyżej 60 znaków.", id="61 characters"),
    ],
)
def test_a_token_needs_a_name_of_at_most_60_characters(
    app: Flask, client: FlaskClient, account: None, name: str, message: str
):
    sign_in(client)

    response = submit(client, ACCOUNT, name=name, current_password=PASSWORD)

    assert response.status_code == 400
    assert message in text(response)
    assert not NEW_TOKEN.search(text(response))
    with app.app_context():
        assert db.session.scalars(select(ApiToken)).all() == []


def test_revoking_a_token_stops_it_on_the_api(app: Flask, client: FlaskClient, account: None):
    sign_in(client)
    created = submit(client, ACCOUNT, name="Skrypt", current_password=PASSWORD)
    token = NEW_TOKEN.search(text(created)).group(1)
    with app.app_context():
        token_id = db.session.scalar(select(ApiToken.id))

    response = submit(client, f"{ACCOUNT}/tokeny/{token_id}/uniewaznij", form_page=ACCOUNT)

    assert response.status_code == 302
    assert response.headers["Location"] == ACCOUNT
    page = text(client.get(ACCOUNT))
    assert "Token unieważniony" in page
    assert "Brak tokenów." in page
    response = client.get("/api/v1/games", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401
    again = submit(client, f"{ACCOUNT}/tokeny/{token_id}/uniewaznij", form_page=ACCOUNT)
    assert again.status_code == 404


def test_another_accounts_token_cannot_be_revoked(app: Flask, client: FlaskClient, account: None):
    with app.app_context():
        other = accounts.create_account("Nowakowie", PASSWORD)
        theirs, plain = accounts.create_token(other.id, "ich skrypt")
        their_id = theirs.id
    sign_in(client)

    for token_id in (their_id, 999, 10**30):
        url = f"{ACCOUNT}/tokeny/{token_id}/uniewaznij"
        response = submit(client, url, form_page=ACCOUNT)
        assert response.status_code == 404, token_id

    assert "ich skrypt" not in text(client.get(ACCOUNT))
    response = client.get("/api/v1/games", headers={"Authorization": f"Bearer {plain}"})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "name",
    [
        "ß" * 60,  # 60 characters, compared as "ss" * 60: 120
        "ŉ" * 31,  # each compared as two: "ʼn"
    ],
)
def test_a_name_whose_compared_form_is_longer_than_the_column_is_refused_in_polish(
    client: FlaskClient, app: Flask, name: str
):
    """Names are compared by a key (casefolded: „ß” is „ss”), which can grow past the 60
    characters the database keeps: on PostgreSQL that was a 500 at sign-up."""
    response = sign_up(client, name=name)
    assert response.status_code == 400
    assert "Nazwa konta jest za długa" in text(response)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Account)) == 0


def test_a_sign_in_with_a_name_whose_compared_form_is_long_is_an_ordinary_failure(
    client: FlaskClient,
):
    """The failed attempt is counted under the name's key, which can be longer than the
    name (and than the column): on PostgreSQL that was a 500 at sign-in."""
    sign_up(client)
    client.post("/wyloguj", data={"csrf_token": csrf_token(client, "/konto")})
    response = sign_in(client, name="ß" * 60)
    assert response.status_code == 400
    assert "Nieprawidłowa nazwa konta lub hasło." in text(response)


def test_a_nul_in_a_sign_in_name_is_an_ordinary_failure(client: FlaskClient, app: Flask):
    """PostgreSQL keeps no NUL in text: a name with one (from a script, never a keyboard)
    was a 500 at sign-in there. It names no account; the attempt still counts."""
    with app.app_context():
        accounts.create_account("Kowalscy", PASSWORD)
    response = sign_in(client, name="Kowal\x00scy")
    assert response.status_code == 400
    assert "Nieprawidłowa nazwa konta lub hasło." in text(response)
    assert not signed_in(client)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(LoginFailure)) == 1


def test_a_token_name_with_a_control_character_is_refused_in_polish(client: FlaskClient):
    """A token's name follows an account's: no invisible or control character (a NUL was a
    500 on PostgreSQL, which keeps none in text)."""
    assert sign_up(client).status_code == 302
    response = submit(client, ACCOUNT, name="Skrypt\x00", current_password=PASSWORD)
    assert response.status_code == 400
    assert "nie może być w nazwie tokenu" in text(response)


@pytest.mark.sqlite_only("only SQLite could store a key longer than its column")
def test_an_old_account_whose_key_outgrew_the_column_signs_in_and_leaves_no_failure(
    client: FlaskClient, app: Flask
):
    """An account made before names' keys were checked („ß” × 40 has the key „ss” × 40) still
    signs in, and its right password is not left counted as a failed guess."""
    with app.app_context():
        name = "ß" * 40
        db.session.add(
            Account(
                name=name, name_key=name_key(name), password_hash=accounts.hash_password(PASSWORD)
            )
        )
        db.session.commit()
    response = sign_in(client, name=name)
    assert response.status_code == 302
    assert signed_in(client)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(LoginFailure)) == 0
