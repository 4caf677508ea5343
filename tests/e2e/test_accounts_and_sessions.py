"""Accounts and sessions on `flask serve`: each phone sees its own account and nobody else's,
whichever worker process answers (CSRF on, as in production)."""

from __future__ import annotations

import re
import uuid
from typing import Any

from browser.phone import PASSWORD, sign_in, sign_out
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .web import Browserless, csrf_session_token

# Enough requests that each of the server's workers answers several of them.
LOADS = 20


def phone(browser: Browser, browser_context_args: dict[str, Any]) -> BrowserContext:
    return browser.new_context(**browser_context_args)


def fill_sign_up(page: Page, name: str) -> None:
    page.goto("/rejestracja")
    page.get_by_label("Nazwa konta").fill(name)
    page.get_by_label("Hasło", exact=True).fill(PASSWORD)
    page.get_by_label("Powtórz hasło").fill(PASSWORD)


def account_heading(page: Page):
    return page.get_by_role("heading", level=1, name=re.compile("^Konto: "))


def test_three_phones_sign_up_at_once_and_each_sees_only_its_own_account(
    browser: Browser, browser_context_args: dict[str, Any], screenshot
):
    names = [
        f"{family} {uuid.uuid4().hex[:6]}" for family in ("Nowakowie", "Wiśniewscy", "Zieloni")
    ]
    contexts = [phone(browser, browser_context_args) for _ in names]
    try:
        pages = [context.new_page() for context in contexts]
        for page, name in zip(pages, names, strict=True):
            fill_sign_up(page, name)
        for page in pages:  # the three forms go out together, not one after another
            page.get_by_role("button", name="Załóż konto").click(no_wait_after=True)
        for page in pages:
            expect(page.get_by_role("link", name="Nowa gra")).to_be_visible()

        for _ in range(3):  # each page load is a new connection, to any worker
            for page, name in zip(pages, names, strict=True):
                page.goto("/konto")
                expect(account_heading(page)).to_have_text(f"Konto: {name}")
                others = [other for other in names if other != name]
                for other in others:
                    assert other not in page.content()
        screenshot(pages[0], "e2e-account")
    finally:
        for context in contexts:
            context.close()


def test_a_phone_without_cookies_never_sees_an_account(
    browser: Browser, browser_context_args: dict[str, Any], live_server
):
    # Accounts exist and have just been used, on every worker.
    names = []
    for _ in range(3):
        client = Browserless(live_server.url)
        name = f"Sąsiedzi {uuid.uuid4().hex[:6]}"
        client.sign_up(name)
        names.append(name)
        for _ in range(3):
            assert client.account_name() == name

    context = phone(browser, browser_context_args)
    try:
        page = context.new_page()
        for _ in range(6):
            context.clear_cookies()
            page.goto("/konto")
            expect(page).to_have_url(re.compile(r"/logowanie\?next=%2Fkonto$"))
            expect(account_heading(page)).to_have_count(0)
            context.clear_cookies()
            page.goto("/")
            nav = page.get_by_role("navigation", name="Menu główne")
            expect(nav.get_by_role("link", name="Zaloguj")).to_be_visible()
            expect(nav.get_by_role("link", name="Konto")).to_have_count(0)
            expect(page.get_by_role("link", name="Nowa gra")).to_have_count(0)
            html = page.content()
            assert not [name for name in names if name in html]
    finally:
        context.close()

    # Without any browser at all: every worker answers /konto with the way to sign in.
    for _ in range(LOADS):
        assert Browserless(live_server.url).account_name() is None


def test_every_fresh_phone_gets_its_own_session_and_csrf_token(
    browser: Browser, browser_context_args: dict[str, Any], live_server
):
    tokens = []
    for _ in range(6):
        context = phone(browser, browser_context_args)
        try:
            page = context.new_page()
            page.goto("/rejestracja")
            signed = page.locator("main form input[name=csrf_token]").first.input_value()
            tokens.append(csrf_session_token(signed))
            cookies = {cookie["name"] for cookie in context.cookies()}
            assert "session" in cookies, "the sign-up page set no session cookie"
        finally:
            context.close()
    assert len(set(tokens)) == len(tokens), tokens

    # The same without a browser: each first visit gets a Set-Cookie and its own token.
    raw = set()
    for _ in range(9):
        client = Browserless(live_server.url)
        raw.add(csrf_session_token(client.csrf_token("/rejestracja")))
        assert "session" in client.cookies, "no Set-Cookie on a first visit"
    assert len(raw) == 9


def test_a_signed_in_phone_stays_signed_in_across_the_workers(
    browser: Browser, browser_context_args: dict[str, Any], live_server
):
    # The phone talks to this test's server (SQLite or PostgreSQL), like the client below.
    context = browser.new_context(**{**browser_context_args, "base_url": live_server.url})
    page = context.new_page()
    client = Browserless(live_server.url)
    name = f"Stali {uuid.uuid4().hex[:6]}"
    client.sign_up(name)
    for _ in range(LOADS):
        assert client.account_name() == name

    # The same account in a browser: signed out and in again, page after page.
    for cycle in range(5):
        sign_in(page, name)
        for _ in range(3):
            page.goto("/konto")
            expect(account_heading(page)).to_have_text(f"Konto: {name}")
        if cycle < 4:
            sign_out(page)
            page.goto("/konto")
            expect(page).to_have_url(re.compile(r"/logowanie"))
    context.close()
