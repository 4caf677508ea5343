"""Accounts that can be secured, CSRF on: signing out ends the session wherever its cookies went,
"sign out everywhere", password change and the `reset-password` command, the 12-character
minimum for new passwords, the password again before a new API token, the remember cookie's
attributes, a new CSRF token at sign-in; and the audit log with its `audit` command."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import select, text
from werkzeug.security import generate_password_hash

from tracker.extensions import db
from tracker.models import Account, AccountSession, AuditEvent
from tracker.services import InvalidInput, accounts, transfer, trash
from tracker.services import games as game_service

from .test_accounts import (
    ACCOUNT,
    NEW_TOKEN,
    PASSWORD,
    SIGN_IN,
    SIGN_OUT,
    csrf_token,
    sign_in,
    signed_in,
    submit,
)
from .test_accounts import (
    text as page_text,
)

SIGN_OUT_EVERYWHERE = "/wyloguj-wszedzie"
CHANGE_PASSWORD = "/konto/haslo"
NEW_PASSWORD = "Nowe hasło do kości 7"
REMEMBER = "remember_token"  # Flask-Login's default name


@pytest.fixture
def account(app: Flask) -> int:
    """An account "Kowalscy" with `PASSWORD`, made through the service (nobody signed in)."""
    with app.app_context():
        return accounts.create_account("Kowalscy", PASSWORD).id


@pytest.fixture
def phone(app: Flask, account: int) -> FlaskClient:
    """A browser signed in to "Kowalscy"."""
    client = app.test_client()
    assert sign_in(client).status_code == 302
    return client


def session_cookie(app: Flask) -> str:
    return app.config["SESSION_COOKIE_NAME"]


def remember_cookie(app: Flask) -> str:
    return app.config.get("REMEMBER_COOKIE_NAME", REMEMBER)


def copy_of(app: Flask, client: FlaskClient, *names: str) -> FlaskClient:
    """Another browser holding copies of `client`'s cookies `names` (a stolen or synced copy)."""
    other = app.test_client()
    for name in names:
        cookie = client.get_cookie(name)
        assert cookie is not None, f"no {name} cookie"
        other.set_cookie(name, cookie.value)
    return other


def audit_log(app: Flask) -> list[tuple[str, int | None, str]]:
    with app.app_context():
        return [
            (e.event, e.account_id, e.detail)
            for e in db.session.scalars(select(AuditEvent).order_by(AuditEvent.id))
        ]


# --- signing out ends the session, wherever its cookies went ---------------------------------


def test_cookies_copied_before_sign_out_no_longer_sign_in_after_it(app: Flask, phone: FlaskClient):
    session_copy = copy_of(app, phone, session_cookie(app))
    remember_copy = copy_of(app, phone, remember_cookie(app))
    both_copy = copy_of(app, phone, session_cookie(app), remember_cookie(app))
    other_phone = app.test_client()  # the family's other phone, signed in on its own
    sign_in(other_phone)
    # Before: every copy signs in (the remember cookie alone restores the sign-in).
    assert signed_in(session_copy)
    assert signed_in(remember_copy)

    response = submit(phone, SIGN_OUT, form_page=ACCOUNT)

    assert response.status_code == 302
    assert not signed_in(phone)
    for copy in (session_copy, remember_copy, both_copy):
        assert not signed_in(copy)
        assert copy.get(ACCOUNT).headers["Location"].startswith(SIGN_IN)
    assert signed_in(other_phone)  # a plain sign-out signs out only that browser


def test_a_cookie_without_a_session_key_is_refused(app: Flask, account: int):
    """The cookies of the versions before sessions named only the account: never enough now."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"] = str(account)
        session["_fresh"] = True

    assert not signed_in(client)


def test_sign_out_everywhere_ends_every_session_of_the_account(app: Flask, phone: FlaskClient):
    other_phone = app.test_client()
    sign_in(other_phone)
    remembered = copy_of(app, other_phone, remember_cookie(app))
    with app.app_context():
        other = accounts.create_account("Nowakowie", PASSWORD)
    neighbour = app.test_client()
    sign_in(neighbour, name="Nowakowie")

    response = submit(phone, SIGN_OUT_EVERYWHERE, form_page=ACCOUNT)

    assert response.status_code == 302
    assert response.headers["Location"] == SIGN_IN
    for client in (phone, other_phone, remembered):
        assert not signed_in(client)
    assert signed_in(neighbour)  # another account's sessions stay
    with app.app_context():
        assert accounts.account_for_session(f"{other.id}:x") is None
        open_sessions = db.session.scalars(
            select(AccountSession.account_id).where(AccountSession.revoked_at.is_(None))
        ).all()
    assert open_sessions == [other.id]
    assert sign_in(phone).status_code == 302  # the password still works
    assert signed_in(phone)


# --- cookies and CSRF ---------------------------------------------------------------------------


def test_the_remember_cookie_is_samesite_lax_and_httponly(app: Flask, account: int):
    client = app.test_client()

    response = sign_in(client)

    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith(REMEMBER)]
    assert len(cookies) == 1, response.headers.getlist("Set-Cookie")
    attributes = {part.strip().lower() for part in cookies[0].split(";")}
    assert "samesite=lax" in attributes
    assert "httponly" in attributes


def test_the_csrf_token_changes_at_sign_in(app: Flask, account: int):
    client = app.test_client()
    form_token = csrf_token(client, SIGN_IN)
    with client.session_transaction() as session:
        before = session["csrf_token"]

    signed = client.post(
        SIGN_IN, data={"csrf_token": form_token, "name": "Kowalscy", "password": PASSWORD}
    )
    assert signed.status_code == 302
    client.get(ACCOUNT)

    with client.session_transaction() as session:
        after = session["csrf_token"]
    assert after != before
    # A token from before signing in (one an attacker could have planted) is refused now.
    fields = {"csrf_token": form_token, "name": "Skrypt", "current_password": PASSWORD}
    assert client.post(ACCOUNT, data=fields).status_code == 400
    assert signed_in(client)


# --- passwords ----------------------------------------------------------------------------------


def test_new_passwords_need_12_characters_old_ones_keep_working(app: Flask, client: FlaskClient):
    with app.app_context():
        with pytest.raises(InvalidInput, match="co najmniej 12 znaków"):
            accounts.create_account("Nowakowie", "a" * 11)
        assert accounts.create_account("Nowakowie", "a" * 12).name == "Nowakowie"
        # An account whose 8-character password was set before the minimum was raised.
        db.session.add(
            Account(
                name="Dawni",
                name_key="dawni",
                password_hash=generate_password_hash("sekret12", method="pbkdf2:sha256:1"),
            )
        )
        db.session.commit()

    assert sign_in(client, name="Dawni", password="sekret12").status_code == 302


def test_changing_the_password_signs_out_the_other_sessions_but_not_this_one(
    app: Flask, phone: FlaskClient
):
    other_phone = app.test_client()
    sign_in(other_phone)
    remembered = copy_of(app, other_phone, remember_cookie(app))
    this_phone_copy = copy_of(app, phone, session_cookie(app))

    response = submit(
        phone,
        CHANGE_PASSWORD,
        current_password=PASSWORD,
        new_password=NEW_PASSWORD,
        confirm=NEW_PASSWORD,
    )

    assert response.status_code == 302
    assert response.headers["Location"] == ACCOUNT
    assert "Hasło zmienione" in page_text(phone.get(ACCOUNT))
    assert signed_in(phone)
    assert signed_in(this_phone_copy)  # this browser's session, not another's
    assert not signed_in(other_phone)
    assert not signed_in(remembered)
    assert sign_in(app.test_client()).status_code == 400  # the old password
    assert sign_in(app.test_client(), password=NEW_PASSWORD).status_code == 302


def test_two_phones_changing_the_password_at_once_one_wins_the_other_is_told(
    app: Flask, phone: FlaskClient
):
    """Both typed the right current password; only one new password can be the account's.
    The other phone is told so, and the phone whose password stands stays signed in."""
    from .test_writes import at_once

    other_phone = app.test_client()
    sign_in(other_phone)
    new_passwords = {phone: NEW_PASSWORD, other_phone: NEW_PASSWORD + " drugi"}
    forms = {
        browser: {
            "csrf_token": csrf_token(browser, CHANGE_PASSWORD),
            "current_password": PASSWORD,
            "new_password": new,
            "confirm": new,
        }
        for browser, new in new_passwords.items()
    }

    answers = at_once(
        [
            lambda browser=browser: browser.post(CHANGE_PASSWORD, data=forms[browser])
            for browser in (phone, other_phone)
        ]
    )

    changed = [a.status_code == 302 and a.headers["Location"] == ACCOUNT for a in answers]
    assert changed.count(True) == 1, answers  # not both: only one password can stand
    winner, loser = (phone, other_phone) if changed[0] else (other_phone, phone)
    refused = answers[1] if changed[0] else answers[0]
    # Told at once (409), or, if the winner was done before it began, signed out already.
    if refused.status_code == 409:
        assert "Hasło tego konta zmieniono przed chwilą na innym urządzeniu." in page_text(refused)
    else:
        assert refused.status_code == 302, refused
        assert refused.headers["Location"].startswith(SIGN_IN), refused.headers["Location"]
    assert signed_in(winner)
    assert not signed_in(loser)
    assert sign_in(app.test_client(), password=new_passwords[winner]).status_code == 302
    assert sign_in(app.test_client(), password=new_passwords[loser]).status_code == 400
    assert [event for event, _, _ in audit_log(app)].count("password_changed") == 1


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        pytest.param(
            {"current_password": PASSWORD + "x", "new_password": NEW_PASSWORD},
            "current_password",
            "Nieprawidłowe hasło.",
            id="wrong current password",
        ),
        pytest.param(
            {"current_password": "", "new_password": NEW_PASSWORD},
            "current_password",
            "Podaj obecne hasło.",
            id="no current password",
        ),
        pytest.param(
            {"current_password": PASSWORD, "new_password": "a" * 11},
            "new_password",
            "Hasło musi mieć co najmniej 12 znaków.",
            id="11-character new password",
        ),
    ],
)
def test_a_password_change_needs_the_current_password_and_12_characters(
    app: Flask, phone: FlaskClient, fields: dict[str, str], field: str, message: str
):
    other_phone = app.test_client()
    sign_in(other_phone)

    response = submit(phone, CHANGE_PASSWORD, confirm=fields["new_password"], **fields)

    assert response.status_code == 400
    assert f'<p class="error" id="{field}-error">{message}</p>' in page_text(response)
    assert signed_in(phone)
    assert signed_in(other_phone)
    assert sign_in(app.test_client()).status_code == 302  # the password is unchanged
    assert "password_changed" not in [event for event, _, _ in audit_log(app)]


def test_reset_password_cli_sets_the_password_and_ends_every_session(
    app: Flask, runner: FlaskCliRunner, phone: FlaskClient
):
    remembered = copy_of(app, phone, remember_cookie(app))

    result = runner.invoke(args=["reset-password", "kowalscy", "--password", NEW_PASSWORD])

    assert result.exit_code == 0, result.output
    assert "Kowalscy" in result.output
    assert not signed_in(phone)
    assert not signed_in(remembered)
    assert sign_in(app.test_client()).status_code == 400
    assert sign_in(app.test_client(), password=NEW_PASSWORD).status_code == 302
    assert NEW_PASSWORD not in result.output


def test_reset_password_cli_asks_twice_and_refuses_bad_input(
    app: Flask, runner: FlaskCliRunner, account: int
):
    asked = runner.invoke(args=["reset-password", "Kowalscy"], input=f"{NEW_PASSWORD}\n" * 2)
    assert asked.exit_code == 0, asked.output
    assert "Nowe hasło:" in asked.output
    assert "Powtórz nowe hasło:" in asked.output  # in Polish, as the first question
    assert "Repeat" not in asked.output
    assert sign_in(app.test_client(), password=NEW_PASSWORD).status_code == 302

    short = runner.invoke(args=["reset-password", "Kowalscy", "--password", "a" * 11])
    assert short.exit_code != 0
    assert "co najmniej 12 znaków" in short.output
    unknown = runner.invoke(args=["reset-password", "Nikt", "--password", NEW_PASSWORD])
    assert unknown.exit_code != 0
    assert "Nie ma konta 'Nikt'" in unknown.output


# --- a new API token needs the password again -----------------------------------------------


@pytest.mark.parametrize("password", ["", PASSWORD + "x"], ids=["no password", "wrong password"])
def test_a_new_api_token_needs_the_accounts_password(app: Flask, phone: FlaskClient, password: str):
    response = submit(phone, ACCOUNT, name="Skrypt", current_password=password)

    assert response.status_code == 400
    assert not NEW_TOKEN.search(page_text(response))
    assert 'id="current_password-error"' in page_text(response)
    with app.app_context():
        assert accounts.list_tokens(db.session.scalar(select(Account.id))) == []

    created = submit(phone, ACCOUNT, name="Skrypt", current_password=PASSWORD)
    assert NEW_TOKEN.search(page_text(created))


# --- the audit log --------------------------------------------------------------------------


@pytest.fixture
def eventful(app: Flask, account: int) -> dict[str, str]:
    """Everything the audit log records, done once through the pages and the services; the
    secrets used on the way."""
    client = app.test_client()
    sign_in(client, password="zgadywane hasło 1")
    sign_in(client, name="Nieznani", password="zgadywane hasło 2")
    sign_in(client)
    plain = NEW_TOKEN.search(
        page_text(submit(client, ACCOUNT, name="Skrypt", current_password=PASSWORD))
    ).group(1)
    with app.app_context():
        token_id = accounts.list_tokens(account)[0].id
        game = game_service.create_game(account, "standard", ["Ala"])
        document = transfer.export_account(account)
        trash.delete_game(account, game.id)
        transfer.import_account(account, json.loads(json.dumps(document)))
    submit(client, f"{ACCOUNT}/tokeny/{token_id}/uniewaznij", form_page=ACCOUNT)
    submit(
        client,
        CHANGE_PASSWORD,
        current_password=PASSWORD,
        new_password=NEW_PASSWORD,
        confirm=NEW_PASSWORD,
    )
    submit(client, SIGN_OUT, form_page=ACCOUNT)
    sign_in(client, password=NEW_PASSWORD)
    submit(client, SIGN_OUT_EVERYWHERE, form_page=ACCOUNT)
    app.test_cli_runner().invoke(args=["reset-password", "Kowalscy", "--password", PASSWORD * 2])
    return {"token": plain, "game": str(game.id)}


def test_the_audit_log_records_security_events_and_no_secret(
    app: Flask, account: int, eventful: dict[str, str]
):
    log = audit_log(app)

    assert [(event, who) for event, who, _ in log] == [
        ("sign_in_failed", account),
        ("sign_in_failed", None),
        ("sign_in", account),
        ("token_created", account),
        ("game_deleted", account),
        ("import", account),
        ("token_revoked", account),
        ("password_changed", account),
        ("sign_out", account),
        ("sign_in", account),
        ("sign_out_everywhere", account),
        ("password_reset", account),
    ]
    details = {event: detail for event, _, detail in log}
    assert log[1][2] == "nazwa: Nieznani"  # the name tried, never the password
    assert details["game_deleted"] == f"gra {eventful['game']} (standard)"
    assert details["import"] == "gry: 1, gracze: 0, pominięte: 0"
    assert "Skrypt" in details["token_created"]
    with app.app_context():
        addresses = set(db.session.scalars(select(AuditEvent.remote_addr)))
        keys = db.session.scalars(select(AccountSession.key_hash)).all()
        rows = db.session.execute(text("SELECT * FROM audit_events")).all()
    assert addresses == {"127.0.0.1", ""}  # "" for the CLI's reset
    everything = repr(rows)
    secrets = [PASSWORD, NEW_PASSWORD, PASSWORD * 2, "zgadywane", eventful["token"], *keys]
    assert [s for s in secrets if s in everything] == []
    assert eventful["token"][:12] not in everything


def test_the_audit_command_prints_the_log_for_the_server_owner(
    app: Flask, runner: FlaskCliRunner, account: int, eventful: dict[str, str]
):
    with app.app_context():
        accounts.create_account("Nowakowie", PASSWORD)
    sign_in(app.test_client(), name="Nowakowie")

    everything = runner.invoke(args=["audit"])
    theirs = runner.invoke(args=["audit", "--account", "nowakowie"])
    last_two = runner.invoke(args=["audit", "--account", "Kowalscy", "--limit", "2"])
    unknown = runner.invoke(args=["audit", "--account", "Nikt"])

    assert everything.exit_code == 0, everything.output
    lines = everything.output.splitlines()
    assert len(lines) == 13
    assert lines[0].split("\t")[1:4] == ["sign_in_failed", "Kowalscy", "127.0.0.1"]
    assert lines[1].split("\t")[1:] == ["sign_in_failed", "-", "127.0.0.1", "nazwa: Nieznani"]
    assert lines[-1].split("\t")[1:4] == ["sign_in", "Nowakowie", "127.0.0.1"]
    assert lines[-1].split("\t")[0].endswith("Z")
    assert theirs.output.splitlines() == lines[-1:]
    assert [line.split("\t")[1] for line in last_two.output.splitlines()] == [
        "sign_out_everywhere",
        "password_reset",
    ]
    assert unknown.exit_code != 0
    assert "Nie ma konta 'Nikt'" in unknown.output
    for secret in (PASSWORD, NEW_PASSWORD, "zgadywane", eventful["token"]):
        assert secret not in everything.output


def test_an_api_request_with_a_bearer_token_neither_reads_nor_writes_the_cookie_session(
    app: Flask, account: int, phone: FlaskClient
):
    """The token speaks for an API request: a browser's session cookie sent along is not
    opened, refreshed or varied on, and a token-less request to the same API still is."""
    with app.app_context():
        _, token = accounts.create_token(account, "skrypt")
    bearer = {"Authorization": f"Bearer {token}"}

    with_token = phone.get("/api/v1/games", headers=bearer)
    without_token = phone.get("/api/v1/games")

    assert with_token.status_code == 200
    assert "Set-Cookie" not in with_token.headers
    assert "Cookie" not in with_token.vary
    assert without_token.status_code == 401
    assert "Cookie" in without_token.vary  # the session was read: Flask says so
