"""„Wyślij do BG Stats” on a 360 px phone: a standard game for two, its first round tapped and
the rest written through the services; the end screen's link carries BG Stats' `createPlay`
data with both players, their totals and who won, and the data page offers the BG Stats file."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

from history_builders import POKER_HANDS
from live import SCREENSHOTS_DIR, LiveServer
from playwright.sync_api import Page, expect

from tracker.rules import TableGame
from tracker.services import games

from .phone import STANDARD, no_sideways_scroll, play_turn, sign_up, start_game
from .test_review import ALA_REST, FIRST_ROUND, NAMES, OLA_REST


def test_the_end_screen_sends_the_game_to_bg_stats(page: Page, live_server: LiveServer, screenshot):
    account = sign_up(page)
    start_game(page, "Kości (tabela polska)", NAMES)
    game_id = int(re.search(r"/gry/(\d+)$", page.url).group(1))  # type: ignore[union-attr]
    game = TableGame(STANDARD, len(NAMES))
    for dice, field_id in FIRST_ROUND:
        play_turn(page, game, NAMES, dice, field_id)
    link = page.get_by_role("link", name="Wyślij do BG Stats")
    expect(link).to_have_count(0)  # not while the game goes on
    account_id = live_server.account_id(account)
    with live_server.app.app_context():
        for ala, ola in zip(ALA_REST, OLA_REST, strict=True):
            for dice, field_id in (ala, ola):
                games.record_turn(account_id, game_id, dice, field_id, 0)
        view = games.load(account_id, game_id)
        totals = list(view.table.scores)
        winners = set(view.table.winners)

    page.goto(f"/gry/{game_id}")
    expect(page.get_by_role("heading", name=re.compile("Wygrywa|Remis"))).to_be_visible()
    expect(link).to_be_visible()
    assert link.get_attribute("rel") == "noopener"
    box = link.bounding_box()
    assert box is not None
    assert box["height"] >= 44
    href = link.get_attribute("href")
    assert href is not None
    parts = urlsplit(href)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == (
        "https://app.bgstatsapp.com/createPlay.html"
    )
    data = json.loads(parse_qs(parts.query)["data"][0])
    assert [(p["name"], p["score"], p["winner"]) for p in data["players"]] == [
        (name, totals[seat], seat in winners) for seat, name in enumerate(NAMES)
    ]
    assert data["game"]["bggId"] == 2243
    assert data["board"] == "Kości (tabela polska)"
    assert no_sideways_scroll(page)
    link.scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS_DIR / "bgstats-end-screen.png")
    screenshot(page, "bgstats-end-screen-full")

    page.goto("/konto/dane")
    download = page.get_by_role("link", name="Eksport do BG Stats")
    expect(download).to_be_visible()
    box = download.bounding_box()
    assert box is not None
    assert box["height"] >= 44
    assert no_sideways_scroll(page)
    with page.expect_download() as info:
        download.click()
    assert re.fullmatch(r"kosci-bgstats-\d{4}-\d{2}-\d{2}\.json", info.value.suggested_filename)
    exported = json.loads(info.value.path().read_text(encoding="utf-8"))
    [played] = exported["plays"]
    assert [s["score"] for s in played["playerScores"]] == [str(t) for t in totals]
    download.scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS_DIR / "bgstats-data-page.png")

    # Dice poker: the score sent is the rounds won (Ala 2, Łucja 0, Jan 1).
    with live_server.app.app_context():
        poker = games.create_game(account_id, "poker", ["Ala", "Łucja", "Jan"], {"target_wins": 2})
        for dice in POKER_HANDS:
            games.record_turn(account_id, poker.id, dice)
    page.goto(f"/gry/{poker.id}")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href is not None
    data = json.loads(parse_qs(urlsplit(href).query)["data"][0])
    assert [(p["name"], p["score"], p["winner"]) for p in data["players"]] == [
        ("Ala", 2, True),
        ("Łucja", 0, False),
        ("Jan", 1, False),
    ]
    assert no_sideways_scroll(page)
    link.scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS_DIR / "bgstats-poker-end-screen.png")
