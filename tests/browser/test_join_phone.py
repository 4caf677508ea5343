"""„Dołącz telefon” on two 360 px phones against the real server (3 worker processes): the
family's phone shows the QR code and the link of its game; a phone with no account opens the
link, writes a turn, and finds the rest of the account a 404; a revoked link stops it at once.
"""

from __future__ import annotations

import re
from typing import Any

from history_builders import STANDARD_SHEET
from live import LiveServer
from playwright.sync_api import Browser, Page, Route, expect

from tracker.rules import TableGame, parse_dice
from tracker.services import games, invitations

from .phone import (
    STANDARD,
    answer_once_logged,
    no_sideways_scroll,
    play_turn,
    sign_up,
    sign_up_id,
    start_game,
)


def test_a_phone_without_the_password_joins_by_the_link_and_plays(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], base_url: str, screenshot
):
    sign_up(page)
    names = ["Ala", "Ola"]
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)
    play_turn(page, game, names, "66653", "sixes")
    game_url = page.url

    page.get_by_role("link", name="Dołącz telefon").click()
    expect(page.get_by_role("heading", name="Dołącz telefon")).to_be_visible()
    page.get_by_role("button", name="Pokaż kod QR").click()
    qr = page.locator(".qr-code")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box is not None
    assert box["width"] >= 240
    assert abs(box["width"] - box["height"]) < 1  # square, as scanners need it
    assert no_sideways_scroll(page)
    link = page.locator("[data-invite-url]").inner_text().strip()
    assert re.fullmatch(re.escape(base_url) + r"/dolacz\?kod=[\w-]{22,}", link), link
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Kopiuj link").click()  # shown by invite.js
    expect(page.get_by_text("Skopiowano link.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link
    expect(page.locator("[data-invitation]")).to_have_count(1)
    screenshot(page, "join-phone-panel")

    guest_context = browser.new_context(**{**browser_context_args, "base_url": base_url})
    try:
        phone = guest_context.new_page()
        phone.goto(link)
        expect(phone).to_have_url(game_url)
        expect(
            phone.get_by_text("Ten telefon dołączył do gry i może wpisywać ruchy.")
        ).to_be_visible()
        play_turn(phone, game, names, "11234", "ones")  # Ola's turn, on the guest phone
        screenshot(phone, "join-phone-guest-turn")
        expect(phone.get_by_role("link", name="Dołącz telefon")).to_have_count(0)

        history = phone.goto(f"{base_url}/historia")
        assert history is not None
        assert history.status == 404
        for private in ("/statystyki", "/gry/nowa", "/konto", "/api/v1/games"):
            answer = phone.request.get(f"{base_url}{private}", max_redirects=0)
            assert answer.status == 404, private
        # The logo leads to the home page; the guest's way back to its game is the first button.
        phone.goto(game_url)
        phone.locator("a.brand").click()
        back = phone.get_by_role("link", name="Wróć do gry")
        expect(back).to_be_visible()
        screenshot(phone, "join-phone-guest-home")
        back.click()
        expect(phone).to_have_url(game_url)

        page.goto(game_url)  # the family's phone sees the guest's turn
        expect(page.locator(".turn-name")).to_have_text("Ala")

        page.goto(f"{game_url}/telefony")
        page.get_by_role("button", name=re.compile("^Cofnij")).click()
        expect(page.get_by_text("Zaproszenie cofnięte")).to_be_visible()
        gone = phone.goto(game_url)
        assert gone is not None
        assert gone.status == 404
        expect(phone.get_by_text("Zaproszenie wygasło albo zostało cofnięte")).to_be_visible()
    finally:
        guest_context.close()


def test_a_watching_phone_follows_the_game_without_the_dice_pad(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], base_url: str, screenshot
):
    sign_up(page)
    names = ["Ala", "Ola"]
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)
    game_url = page.url
    page.goto(f"{game_url}/telefony")
    page.get_by_text("Tylko ogląda").click()
    page.get_by_role("button", name="Pokaż kod QR").click()
    expect(page.get_by_role("heading", name="Zeskanuj, aby oglądać")).to_be_visible()
    link = page.locator("[data-invite-url]").inner_text().strip()

    guest_context = browser.new_context(**{**browser_context_args, "base_url": base_url})
    try:
        phone = guest_context.new_page()
        phone.goto(link)
        expect(phone.get_by_text("Ten telefon tylko ogląda grę")).to_be_visible()
        expect(phone.locator("[data-pad]")).to_have_count(0)
        expect(phone.get_by_role("heading", name="Teraz: Ala")).to_be_visible()

        page.goto(game_url)
        play_turn(page, game, names, "66653", "sixes")
        # live.js on the watching phone brings the turn in without a reload.
        expect(phone.get_by_role("heading", name="Teraz: Ola")).to_be_visible(timeout=10_000)
        assert no_sideways_scroll(phone)
        screenshot(phone, "join-phone-watching")
    finally:
        guest_context.close()


def test_a_guest_phone_on_one_game_opens_the_link_to_the_next(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
):
    """A guest phone still on the last game's screen opens the next game's link. Once the join
    has answered, the old screen's poll finds its game closed to this phone (404), while the
    join's answer is still on its way (a slow network: held here until that poll has been
    answered). The old screen must not reload itself then: the reload would cancel the
    navigation under way (net::ERR_ABORTED) and leave the phone on the old game's error page."""
    account_id = sign_up_id(page, live_server)
    with live_server.app.app_context():
        last = games.create_game(account_id, "standard", ["Ala", "Ola"]).game.id
        following = games.create_game(account_id, "standard", ["Ala", "Ola"]).game.id
        _, last_token = invitations.create(account_id, last, invitations.PLAY)
        _, next_token = invitations.create(account_id, following, invitations.PLAY)
    closed_poll = f'"GET /gry/{last}/stan HTTP/1.1" 404'
    joined = "Ten telefon dołączył do gry i może wpisywać ruchy."

    # The guest's phone, without a service worker (`answer_once_logged` says why).
    guest = browser.new_context(
        **{**browser_context_args, "base_url": live_server.url, "service_workers": "block"}
    )
    try:
        phone = guest.new_page()
        phone.goto(f"/dolacz?kod={last_token}")
        expect(phone.get_by_text(joined)).to_be_visible()
        expect(phone).to_have_url(re.compile(f"/gry/{last}$"))

        polled: list[bool] = []

        def held(route: Route) -> None:  # joined: the session is the next game's now
            polled.append(answer_once_logged(route, live_server, closed_poll))

        phone.route(re.compile(re.escape(next_token)), held)
        phone.goto(f"/dolacz?kod={next_token}")
        assert polled == [True], "the old screen never polled while the join was on its way"
        expect(phone).to_have_url(re.compile(f"/gry/{following}$"))
        expect(phone.get_by_text(joined)).to_be_visible()
    finally:
        guest.close()


# A one-player game a turn from its end (the family writes the last: Szansa 6-5-4-3-2).
ALMOST_OVER = STANDARD_SHEET[:-1]


def test_a_guest_phone_follows_the_rematch_the_family_taps(
    page: Page,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    screenshot,
):
    """The game ends with a joined phone at the table; the family taps „Rewanż” on its own
    phone. The guest's end screen (live.js) offers „Przejdź do rewanżu” by itself, and the
    guest writes its turn in the rematch: no new QR code round the table."""
    account_id = sign_up_id(page, live_server)
    with live_server.app.app_context():
        game_id = games.create_game(account_id, "standard", ["Ala"]).game.id
        for dice, field in ALMOST_OVER:
            games.record_turn(account_id, game_id, dice, field, 0)
        _, token = invitations.create(account_id, game_id, invitations.PLAY)
    game = TableGame.replay(STANDARD, 1, [(parse_dice(d), f, 0) for d, f in ALMOST_OVER])
    guest = browser.new_context(**{**browser_context_args, "base_url": live_server.url})
    try:
        phone = guest.new_page()
        phone.goto(f"/dolacz?kod={token}")
        expect(phone.locator(".turn-name")).to_have_text("Ala")
        page.goto(f"/gry/{game_id}")
        play_turn(page, game, ["Ala"], "65432", "chance")
        expect(phone.get_by_role("heading", name="Wygrywa Ala!")).to_be_visible(timeout=10_000)
        follow = phone.get_by_role("link", name="Przejdź do rewanżu")
        expect(follow).to_have_count(0)

        page.get_by_role("button", name="Rewanż").click()
        expect(page.locator(".turn-name")).to_have_text("Ala")

        expect(follow).to_be_visible(timeout=10_000)  # the guest's screen, redrawn by itself
        assert no_sideways_scroll(phone)
        screenshot(phone, "join-phone-rematch")
        follow.click()
        expect(phone.locator(".turn-name")).to_have_text("Ala")
        play_turn(phone, TableGame(STANDARD, 1), ["Ala"], "66653", "sixes")
        expect(page.locator(".scores-total")).to_have_text("18", timeout=10_000)
    finally:
        guest.close()
