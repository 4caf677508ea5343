"""Who may sign up (`KOSCI_SIGNUP`: open, invite, closed), invite codes (account page and CLI,
used once, even by two sign-ups at once), sign-ups limited per address, and sign-in slowed
down per (name, address) and per address, never per name alone."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select

from tracker import create_app
from tracker.extensions import db
from tracker.models import Account, Invite, SignupAttempt, utcnow
from tracker.services import accounts, signup
from tracker.settings import ConfigError

SIGN_UP = "/rejestracja"
SIGN_IN = "/logowanie"
ACCOUNT = "/konto"
INVITES = "/konto/zaproszenia"
PASSWORD = "Kości i kubek 2024"
CSRF_INPUT = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
CODE = re.compile(r"data-invite-code>([A-Z0-9-]+)<")
INVITE_MODE = [{"KOSCI_SIGNUP": "invite"}]


class Browser:
    """A phone's browser at one address: its own cookies, the address on every request."""

    def __init__(self, app: Flask, addr: str) -> None:
        self.client: FlaskClient = app.test_client()
        self.environ = {"REMOTE_ADDR": addr}

    def get(self, url: str):
        return self.client.get(url, environ_base=self.environ)

    def submit(self, url: str, form_page: str | None = None, **fields: str):
        page = self.get(form_page or url)
        match = CSRF_INPUT.search(page.get_data(as_text=True))
        assert match, f"no form on {form_page or url} ({page.status_code})"
        return self.client.post(
            url, data={"csrf_token": match.group(1), **fields}, environ_base=self.environ
        )

    def sign_up(self, name: str, password: str = PASSWORD, **fields: str):
        return self.submit(SIGN_UP, name=name, password=password, confirm=password, **fields)

    def sign_in(self, name: str, password: str = PASSWORD):
        return self.submit(SIGN_IN, name=name, password=password)


def normalize(code: str) -> str:
    return signup.normalize_code(code)


def text(response) -> str:
    return response.get_data(as_text=True)


def account_names(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Account.name).order_by(Account.id)))


def new_account(app: Flask, name: str = "Kowalscy") -> int:
    with app.app_context():
        return accounts.create_account(name, PASSWORD).id


def new_invite(app: Flask, account_id: int | None = None, **options: Any) -> str:
    with app.app_context():
        return signup.create_invite(account_id, **options)[1]


# --- the policy --------------------------------------------------------------------------------


def test_open_sign_up_needs_no_invite(app: Flask):
    browser = Browser(app, "10.0.0.1")
    assert "Kod zaproszenia" not in text(browser.get(SIGN_UP))

    assert browser.sign_up("Kowalscy").status_code == 302
    assert account_names(app) == ["Kowalscy"]


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_invite_sign_up_needs_a_valid_code_and_uses_it_up(app: Flask):
    code = new_invite(app)
    browser = Browser(app, "10.0.0.1")
    assert "Kod zaproszenia" in text(browser.get(SIGN_UP))

    missing = browser.sign_up("Kowalscy")
    wrong = browser.sign_up("Kowalscy", invite="ABCD-EFGH-JKLM-NPQR")
    assert (missing.status_code, wrong.status_code) == (400, 400)
    assert "Podaj kod zaproszenia." in text(missing)
    assert "Nieprawidłowy kod zaproszenia." in text(wrong)
    assert account_names(app) == []

    # Case, spaces and dashes as typed on a phone do not matter.
    typed = " " + code.replace("-", " ").lower()
    assert browser.sign_up("Kowalscy", invite=typed).status_code == 302

    again = Browser(app, "10.0.0.2").sign_up("Nowakowie", invite=code)
    assert again.status_code == 400
    assert "Ten kod zaproszenia został już wykorzystany." in text(again)
    assert account_names(app) == ["Kowalscy"]
    with app.app_context():
        invite = db.session.scalars(select(Invite)).one()
        assert invite.used_at is not None
        assert invite.used_by is not None
        assert invite.used_by.name == "Kowalscy"
        assert normalize(code) not in invite.code_hash.upper()  # only its hash is stored


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_without_a_valid_invite_sign_up_tells_nothing_about_names(app: Flask):
    new_account(app)

    response = Browser(app, "10.0.0.1").sign_up("Kowalscy", invite="ABCD-EFGH-JKLM-NPQR")

    assert "Nieprawidłowy kod zaproszenia." in text(response)
    assert signup.NAME_UNUSABLE not in text(response)


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_an_expired_invite_is_refused(app: Flask):
    with app.app_context():
        _, code = signup.create_invite(None, days=7, now=utcnow() - timedelta(days=7, seconds=1))

    response = Browser(app, "10.0.0.1").sign_up("Kowalscy", invite=code)

    assert response.status_code == 400
    assert "Ten kod zaproszenia wygasł" in text(response)
    assert account_names(app) == []


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_an_invite_used_twice_at_once_is_accepted_once(app: Flask, monkeypatch: pytest.MonkeyPatch):
    """Both sign-ups find the code unused (the barrier holds each right after that check),
    then both try to use it: only the transaction that takes it first gets it."""
    code = new_invite(app)
    checked = signup._check_invite
    barrier = threading.Barrier(2, timeout=10)
    first_check = threading.local()

    def both_found_it_unused(digest: str, now: Any) -> None:
        checked(digest, now)
        if not getattr(first_check, "done", False):
            first_check.done = True
            barrier.wait()

    monkeypatch.setattr(signup, "_check_invite", both_found_it_unused)
    browsers = [Browser(app, f"10.0.0.{i}") for i in (1, 2)]
    answers: dict[str, Any] = {}

    def sign_up(browser: Browser, name: str) -> None:
        answers[name] = browser.sign_up(name, invite=code)

    threads = [
        threading.Thread(target=sign_up, args=(browser, name))
        for browser, name in zip(browsers, ("Kowalscy", "Nowakowie"), strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    statuses = sorted(answer.status_code for answer in answers.values())
    assert statuses == [302, 400]
    loser = next(answer for answer in answers.values() if answer.status_code == 400)
    assert "już wykorzystany" in text(loser)
    names = account_names(app)
    assert len(names) == 1
    with app.app_context():
        invite = db.session.scalars(select(Invite)).one()
        assert invite.used_by is not None
        assert invite.used_by.name == names[0]


@pytest.mark.parametrize("app_config", [{"KOSCI_SIGNUP": "closed"}])
def test_closed_sign_up_says_so_and_creates_nothing(app: Flask):
    browser = Browser(app, "10.0.0.1")

    page = browser.get(SIGN_UP)
    # An empty installation: the page says how the first account is made.
    assert page.status_code == 200
    assert "Zakładanie kont jest na tym serwerze wyłączone." in text(page)
    assert "create-account" in text(page)
    assert 'name="password"' not in text(page)

    # The command line still makes accounts; they sign in as usual.
    created = app.test_cli_runner().invoke(
        args=["create-account", "Kowalscy", "--password", PASSWORD]
    )
    assert created.exit_code == 0, created.output
    assert "create-account" in text(browser.get(SIGN_UP))

    # A sign-up form sent anyway (with a valid CSRF token, from the sign-in page) is refused.
    sent = browser.submit(
        SIGN_UP, form_page=SIGN_IN, name="Nowakowie", password=PASSWORD, confirm=PASSWORD
    )
    assert sent.status_code == 403
    assert account_names(app) == ["Kowalscy"]
    assert browser.sign_in("Kowalscy").status_code == 302


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"KOSCI_SIGNUP": "zamknięte"},
            "KOSCI_SIGNUP ma wartość 'zamknięte': dozwolone są open, invite, closed",
        ),
        ({"KOSCI_SIGNUP_PER_HOUR": "0"}, "KOSCI_SIGNUP_PER_HOUR ma wartość '0': wpisz liczbę"),
        ({"KOSCI_SIGNUP_PER_HOUR": "pięć"}, "KOSCI_SIGNUP_PER_HOUR ma wartość 'pięć': wpisz"),
    ],
)
def test_a_wrong_sign_up_setting_stops_the_start_with_a_clear_message(
    tmp_path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str
):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ConfigError, match=message):
        create_app({"SECRET_KEY": "x"}, instance_path=tmp_path)


def test_the_sign_up_settings_are_read_from_the_environment(
    tmp_path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("KOSCI_SIGNUP", " Invite ")
    monkeypatch.setenv("KOSCI_SIGNUP_PER_HOUR", "12")
    app = create_app({"SECRET_KEY": "x"}, instance_path=tmp_path)

    assert app.config["KOSCI_SIGNUP"] == "invite"
    assert app.config["KOSCI_SIGNUP_PER_HOUR"] == 12


# --- invites: the account page and the command line ------------------------------------------


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_an_account_invites_another_from_its_account_page(app: Flask):
    new_account(app)
    host = Browser(app, "10.0.0.1")
    assert host.sign_in("Kowalscy").status_code == 302
    assert "Zaproszenia" in text(host.get(ACCOUNT))

    made = host.submit(INVITES, form_page=ACCOUNT)

    assert made.status_code == 200
    assert made.headers["Cache-Control"] == "no-store"
    match = CODE.search(text(made))
    assert match, text(made)
    assert f"/rejestracja?kod={match.group(1)}" in text(made)
    guest = Browser(app, "10.0.0.2")
    assert match.group(1) in text(guest.get(f"{SIGN_UP}?kod={match.group(1)}"))  # filled in
    assert guest.sign_up("Nowakowie", invite=match.group(1)).status_code == 302
    assert "konto Nowakowie" in text(host.get(ACCOUNT))


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_an_invite_needs_the_csrf_token(app: Flask):
    new_account(app)
    host = Browser(app, "10.0.0.1")
    host.sign_in("Kowalscy")

    assert host.client.post(INVITES, environ_base=host.environ).status_code == 400
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Invite)) == 0


def test_without_invite_sign_up_the_account_page_has_no_invites(app: Flask):
    new_account(app)
    host = Browser(app, "10.0.0.1")
    host.sign_in("Kowalscy")

    assert "Zaproszenia" not in text(host.get(ACCOUNT))
    assert host.submit(INVITES, form_page=ACCOUNT).status_code == 404


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_an_account_holds_a_limited_number_of_open_invites(app: Flask):
    account_id = new_account(app)
    with app.app_context():
        for _ in range(signup.ACTIVE_INVITES_MAX):
            signup.create_invite(account_id)
        with pytest.raises(signup.Conflict):
            signup.create_invite(account_id)


def test_phones_making_invites_at_once_never_pass_the_limit(app: Flask):
    from .test_writes import at_once

    account_id = new_account(app)
    for _ in range(signup.ACTIVE_INVITES_MAX - 3):
        new_invite(app, account_id)

    def invite() -> str:
        with app.app_context():
            signup.create_invite(account_id)
        return "made"

    answers = at_once([invite] * 8)

    assert answers.count("made") == 3, answers
    assert all(isinstance(a, signup.Conflict) for a in answers if a != "made"), answers
    with app.app_context():
        assert len(signup.active_invites(account_id)) == signup.ACTIVE_INVITES_MAX


@pytest.mark.parametrize("app_config", INVITE_MODE)
def test_create_invite_on_the_command_line(app: Flask, runner: FlaskCliRunner):
    result = runner.invoke(args=["create-invite", "--days", "3"])

    assert result.exit_code == 0, result.output
    code = result.output.strip().splitlines()[-1]
    assert re.fullmatch(r"[A-Z2-9]{4}(-[A-Z2-9]{4}){3}", code)
    with app.app_context():
        invite = db.session.scalars(select(Invite)).one()
        assert invite.created_by_account_id is None
        assert abs(invite.expires_at - utcnow() - timedelta(days=3)) < timedelta(minutes=1)
    assert Browser(app, "10.0.0.1").sign_up("Kowalscy", invite=code).status_code == 302

    assert runner.invoke(args=["create-invite", "--days", "0"]).exit_code != 0


def test_create_invite_warns_when_sign_up_is_not_by_invitation(runner: FlaskCliRunner):
    result = runner.invoke(args=["create-invite"])

    assert result.exit_code == 0, result.output
    assert "KOSCI_SIGNUP=open" in result.output


# --- sign-ups per address ----------------------------------------------------------------------


def test_sign_up_attempts_are_limited_per_address(app: Flask):
    new_account(app)
    limit = app.config["KOSCI_SIGNUP_PER_HOUR"]
    assert limit == signup.DEFAULT_PER_HOUR == 5

    # A taken name counts too: otherwise asking which names exist would cost nothing.
    for _ in range(limit - 1):
        taken = Browser(app, "10.0.0.1").sign_up("KOWALSCY")
        assert taken.status_code == 400
        assert signup.NAME_UNUSABLE in text(taken)
    assert Browser(app, "10.0.0.1").sign_up("Nowakowie").status_code == 302

    refused = Browser(app, "10.0.0.1").sign_up("Wiśniewscy")
    assert refused.status_code == 429
    assert re.search(r"Spróbuj ponownie za (60|59) min\.", text(refused)), text(refused)
    assert 58 * 60 < int(refused.headers["Retry-After"]) <= 60 * 60
    assert Browser(app, "10.0.0.2").sign_up("Wiśniewscy").status_code == 302
    assert account_names(app) == ["Kowalscy", "Nowakowie", "Wiśniewscy"]


def test_the_sign_up_limit_lasts_an_hour(app: Flask):
    with app.app_context():
        start = utcnow()
        for _ in range(signup.DEFAULT_PER_HOUR):
            signup._count_attempt("10.0.0.1", start)
        with pytest.raises(signup.Throttled):
            signup._count_attempt("10.0.0.1", start + timedelta(minutes=59))
        signup._count_attempt("10.0.0.1", start + signup.ATTEMPT_WINDOW + timedelta(seconds=1))
        # Attempts older than the hour are forgotten.
        assert db.session.scalar(select(func.count()).select_from(SignupAttempt)) == 1


@pytest.mark.parametrize(
    ("addr", "key"),
    [
        ("192.168.1.23", "192.168.1.23"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("::ffff:192.168.1.23", "192.168.1.23"),
        ("", "?"),
    ],
)
def test_addresses_are_counted_per_ipv4_address_or_ipv6_64(addr: str, key: str):
    assert accounts.address_key(addr) == key


# --- sign-in: per (name, address), and per address ---------------------------------------------


def test_guessing_from_one_address_does_not_lock_the_family_out_elsewhere(app: Flask):
    new_account(app)
    guesser = Browser(app, "10.0.0.66")

    answers = [guesser.sign_in("Kowalscy", "zgadywane").status_code for _ in range(20)]

    assert answers[: accounts.FREE_FAILURES] == [400] * accounts.FREE_FAILURES
    assert set(answers[accounts.FREE_FAILURES :]) == {429}
    assert guesser.sign_in("Kowalscy").status_code == 429  # even the right password, for now
    family_phone = Browser(app, "10.0.0.2")
    assert family_phone.sign_in("Kowalscy").status_code == 302
    # The family signing in does not free the guesser.
    assert Browser(app, "10.0.0.66").sign_in("Kowalscy").status_code == 429


def test_one_address_guessing_at_many_names_is_slowed_down(app: Flask):
    new_account(app)
    guesser = Browser(app, "10.0.0.66")
    for number in range(accounts.ADDRESS_FREE_FAILURES):
        assert guesser.sign_in(f"Rodzina {number}", "zgadywane").status_code == 400

    assert guesser.sign_in("Kowalscy").status_code == 429
    assert guesser.sign_in("Rodzina 99", "zgadywane").status_code == 429
    assert Browser(app, "10.0.0.2").sign_in("Kowalscy").status_code == 302


def test_guesses_from_one_ipv6_64_count_as_one_address(app: Flask):
    """A home or a phone on IPv6 may use any address of its /64: a new address for each
    guess still counts against that /64, and a neighbouring /64 is another address."""
    new_account(app)
    answers = [
        Browser(app, f"2001:db8:aa:bb::{number:x}").sign_in("Kowalscy", "zgadywane").status_code
        for number in range(1, accounts.FREE_FAILURES + 3)
    ]

    assert answers[: accounts.FREE_FAILURES] == [400] * accounts.FREE_FAILURES
    assert set(answers[accounts.FREE_FAILURES :]) == {429}
    assert Browser(app, "2001:db8:aa:bb:1:2:3:4").sign_in("Kowalscy").status_code == 429
    assert Browser(app, "2001:db8:aa:bc::1").sign_in("Kowalscy").status_code == 302


def test_a_successful_sign_in_forgets_only_its_own_addresss_failures(app: Flask):
    new_account(app)
    with app.app_context():
        now = utcnow()
        for addr in ("10.0.0.1", "10.0.0.66"):
            for _ in range(accounts.FREE_FAILURES - 1):
                with pytest.raises(accounts.InvalidInput):
                    accounts.authenticate("Kowalscy", "zgadywane", addr, now=now)
        accounts.authenticate("Kowalscy", PASSWORD, "10.0.0.1", now=now)
        with pytest.raises(accounts.InvalidInput):  # the fifth failure from .66
            accounts.authenticate("Kowalscy", "zgadywane", "10.0.0.66", now=now)
        with pytest.raises(accounts.Throttled):
            accounts.authenticate("Kowalscy", PASSWORD, "10.0.0.66", now=now)
        assert accounts.authenticate("Kowalscy", PASSWORD, "10.0.0.1", now=now)
