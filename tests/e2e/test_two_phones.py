"""A table game finished by two phones signed in to the same account, turn about, each page
load answered by whichever worker of `flask serve` takes it. The first rounds go in through the
server's services (a whole game tapped on phones is tests/browser/test_live_table.py's); the
phones write the last rounds, the end screen and the log."""

from __future__ import annotations

import re
from typing import Any

from browser.phone import (
    ALA,
    OLA,
    STANDARD,
    no_sideways_scroll,
    play_turn,
    sign_in,
    sign_up,
    start_game,
)
from live import LiveServer
from playwright.sync_api import Browser, Page, expect

from tracker.rules import TableGame, parse_dice, places_of
from tracker.services import games

NAMES = ["Ala", "Ola"]
# The rounds the phones write, turn about: the last ones, the game's end among them.
PHONE_ROUNDS = 3


def test_two_phones_finish_a_game_turn_about(
    page: Page,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    screenshot,
):
    account = sign_up(page, "Dwa telefony")
    start_game(page, "Kości (tabela polska)", NAMES)
    game_url = page.url
    game = TableGame(STANDARD, len(NAMES))
    first = len(ALA) - PHONE_ROUNDS
    account_id = live_server.account_id(account)
    with live_server.app.app_context():
        game_id = int(game_url.rsplit("/", 1)[1])
        for ala, ola in zip(ALA[:first], OLA[:first], strict=True):
            for dice, field in (ala, ola):
                games.record_turn(account_id, game_id, dice, field, 0)
                game.play(parse_dice(dice), field)

    second = browser.new_context(**browser_context_args)
    try:
        other = second.new_page()
        sign_in(other, account)
        other.goto(game_url)
        phones = [page, other]  # Ala's turns on the first phone, Ola's on the second

        for ala, ola in zip(ALA[first:], OLA[first:], strict=True):
            for seat, (dice, field) in enumerate((ala, ola)):
                phone = phones[seat]
                phone.goto(game_url)  # the other phone has just written a turn
                expect(phone.locator(".turn-name")).to_have_text(NAMES[seat])
                play_turn(phone, game, NAMES, dice, field)

        assert game.finished
        scores = game.scores
        places = places_of(scores)
        for phone in phones:
            phone.goto(game_url)
            expect(
                phone.get_by_role("heading", name=re.compile(r"^(Wygrywa|Remis)"))
            ).to_be_visible()
            standings = phone.locator(".standings li")
            for row, seat in enumerate(sorted(range(len(NAMES)), key=lambda s: (places[s], s))):
                expect(standings.nth(row)).to_contain_text(NAMES[seat])
                expect(standings.nth(row).locator(".standings-total")).to_have_text(
                    str(scores[seat])
                )
            expect(phone.locator(".sheet .row-total td")).to_have_text([str(s) for s in scores])
            assert no_sideways_scroll(phone)
        screenshot(other, "e2e-two-phones-end")

        other.get_by_role("link", name="Historia ruchów").click()
        expect(other.locator(".log li")).to_have_count(len(ALA) + len(OLA))
        expect(other.locator(".log li.is-undone")).to_have_count(0)
    finally:
        second.close()
