"""Signing out on `flask serve`: a copy of the cookies taken before (a phone left unlocked, a
synced browser profile) stops working at once on every worker process, while the family's other
phone stays signed in."""

from __future__ import annotations

from .web import Browserless, new_account

# Enough requests that each of the server's workers answers several of them.
LOADS = 12


def with_cookies(base_url: str, cookies: dict[str, str]) -> Browserless:
    """A fresh browser holding exactly these cookies (a copy taken from another one)."""
    browser = Browserless(base_url)
    browser.cookies = dict(cookies)
    return browser


def test_cookies_copied_before_sign_out_no_longer_sign_in_after_it(live_server):
    # Through the real commands, once in the end-to-end tests: a family's first steps.
    name, _ = new_account(live_server, "Ostrożni", cli=True)
    phone = Browserless(live_server.url)
    phone.sign_in(name)
    assert {"session", "remember_token"} <= set(phone.cookies), phone.cookies
    other_phone = Browserless(live_server.url)
    other_phone.sign_in(name)
    copies = [  # taken now: both cookies, the session cookie alone, the remember cookie alone
        {key: phone.cookies[key] for key in keys}
        for keys in (("session", "remember_token"), ("session",), ("remember_token",))
    ]
    for cookies in copies:  # before: each copy signs in, whichever worker answers
        for _ in range(3):
            assert with_cookies(live_server.url, cookies).account_name() == name

    answer = phone.post_form("/wyloguj", {}, token_from="/konto")

    assert answer.status == 302, answer
    assert answer.location == "/logowanie"
    assert phone.account_name() is None
    for cookies in copies:
        for _ in range(LOADS):
            assert with_cookies(live_server.url, cookies).account_name() is None, cookies.keys()
    for _ in range(LOADS):  # a plain sign-out signs out only that phone
        assert other_phone.account_name() == name
