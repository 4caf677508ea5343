"""Who plays best on a 360 px phone: the section of the statistics page and of the player page
(tables within the width, the chart over time, the explanation), games played through the
services the way people play (`stats_builders.random_games`)."""

from __future__ import annotations

import re
from datetime import datetime

from playwright.sync_api import Page, expect
from sqlalchemy import select
from stats_builders import random_games

from tracker.extensions import db
from tracker.models import Account

from .phone import no_sideways_scroll, sign_up
from .test_stats import small_tap_targets


def games_played(live_server, account_name: str) -> None:
    with live_server.app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == account_name))
        random_games(account_id, ["Ala", "Ola", "Jan", "Babcia Ela"], 8, datetime(2025, 6, 2, 17))


def test_who_plays_best_on_a_phone(page: Page, live_server, screenshot):
    account = sign_up(page)
    games_played(live_server, account)
    page.goto("/statystyki")

    page.get_by_role("link", name="Kto gra najlepiej").click()

    section = page.locator('section[aria-labelledby="najlepiej"]')
    expect(section.get_by_role("heading", name="Kto gra najlepiej")).to_be_in_viewport()
    rows = section.locator("tbody tr")
    expect(rows).to_have_count(4)  # everyone of the four, on the Polish table
    given_away = [
        float(text.split()[0].replace(",", "."))
        for text in rows.locator("td:nth-child(2)").all_inner_texts()
    ]
    assert given_away == sorted(given_away)  # fewest expected points given away first
    expect(section).to_contain_text("oczekiwanych punktów")
    table = section.locator("table").first.bounding_box()
    assert table is not None
    assert table["width"] <= 330  # three columns fit a phone
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    whole = screenshot(page, "stats-skill")
    section.screenshot(path=whole.with_name("stats-skill-section.png"))

    rows.first.get_by_role("link").click()

    expect(page).to_have_url(re.compile(r"/gracze/\d+/statystyki\?wariant=standard"))
    mine = page.locator('section[aria-labelledby="wybory"]')
    expect(mine.get_by_role("heading", name="Wybory pól i szczęście")).to_be_visible()
    chart = mine.locator("#chart-skill")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None
    assert 300 <= box["width"] <= 330
    expect(
        page.get_by_role(
            "img", name=re.compile(r"^Oddane oczekiwane punkty na ruch w kolejnych grach")
        )
    ).to_be_visible()
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    whole = screenshot(page, "stats-player-skill")
    mine.screenshot(path=whole.with_name("stats-player-skill-section.png"))


def test_a_name_of_thirty_letters_stays_in_its_cell_on_a_phone(page: Page, live_server, screenshot):
    """The longest one-word name a player may have (30 letters) is broken inside its cell of
    every statistics table, not written over the figures beside it nor pushing the table
    sideways, and the three columns of who plays best still fit a phone."""
    account = sign_up(page)
    longest = "Grzegorzbrzęczyszczykiewiczowa"
    with live_server.app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == account))
        random_games(account_id, [longest, "Ala"], 2, datetime(2025, 6, 2, 17))
    page.goto("/statystyki")

    names = page.locator(".stats-table tbody th a", has_text=longest)
    expect(names.first).to_be_visible()
    spilled = names.evaluate_all(
        "links => links.filter(a => a.scrollWidth > a.clientWidth + 1)"
        ".map(a => a.closest('.stats-table').className)"
    )
    assert spilled == []
    skill = page.locator('section[aria-labelledby="najlepiej"] .skill-table').first
    assert skill.evaluate("box => box.scrollWidth <= box.clientWidth")  # all three columns in view
    assert no_sideways_scroll(page)
    screenshot(page, "stats-longest-name")
