"""The statistics pages on a 360 px phone: charts drawn and named, no sideways scroll, the filter
form, the player page. The games are played through the services (see `stats_builders`)."""

from __future__ import annotations

import re
from datetime import datetime

from playwright.sync_api import Page, expect
from sqlalchemy import select
from stats_builders import build_family, play_table_game, random_games, standard_sheet

from tracker.extensions import db
from tracker.models import Account

from .phone import no_sideways_scroll, sign_up

CHARTS = ("chart-variants", "chart-months", "chart-wins", "chart-totals-standard")


def family_with_games(live_server, account_name: str) -> None:
    with live_server.app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == account_name))
        build_family(account_id)
        random_games(account_id, ["Ala", "Ola", "Jan", "Babcia Ela"], 14, datetime(2025, 6, 2, 17))


def small_tap_targets(page: Page) -> list[str]:
    """Links, buttons, fields and summaries in the page's main part lower than 48 px."""
    page.wait_for_load_state("load")  # measured with the stylesheet applied, not before it
    return page.evaluate(
        """() => [...document.querySelectorAll(
              'main a, main button, main summary, main select, main input, main label.choice')]
            .filter(el => el.offsetParent !== null && el.type !== 'checkbox')
            .filter(el => el.getBoundingClientRect().height < 47.5)
            .map(el => el.outerHTML.slice(0, 80))"""
    )


def sideways_scrollers(page: Page) -> list[str]:
    """Boxes in the page's main part whose content is wider than they are (tables, the variant
    tabs), and tables that stick out of the main part: on the statistics pages nothing may
    need a sideways swipe, at phone width or on a laptop."""
    page.wait_for_load_state("load")  # measured with the stylesheet applied, not before it
    return page.evaluate(
        """() => {
            const main = document.querySelector('main').getBoundingClientRect();
            const bad = [];
            for (const box of document.querySelectorAll('main .table-scroll, main .tabs')) {
                if (box.offsetParent === null) continue;  // in a closed <details>
                if (box.scrollWidth > box.clientWidth + 1) {
                    const what = box.outerHTML.slice(0, 90);
                    bad.push(`${box.scrollWidth} in ${box.clientWidth}: ${what}`);
                }
            }
            for (const table of document.querySelectorAll('main table')) {
                const right = table.getBoundingClientRect().right;
                if (table.offsetParent !== null && right > main.right + 0.5)
                    bad.push('sticks out: ' + table.outerHTML.slice(0, 60));
            }
            return bad;
        }"""
    )


def entry_gaps(page: Page) -> dict[str, float]:
    """Rows of the figures table whose box reaches more than 2 px below their last figure."""
    return page.evaluate(
        """() => {
            const gaps = {};
            for (const row of document.querySelectorAll('.stats-table tbody tr')) {
                const filled = [...row.children].filter(c => c.textContent.trim() !== '');
                const last = Math.max(...filled.map(c => c.getBoundingClientRect().bottom));
                const gap = row.getBoundingClientRect().bottom - last;
                if (gap > 2) gaps[row.querySelector('th').textContent.trim()] = gap;
            }
            return gaps;
        }"""
    )


LAPTOP = {"width": 1280, "height": 800}


def assert_tap_target(page: Page, locator) -> None:
    box = locator.bounding_box()
    assert box is not None
    assert box["height"] >= 48, box


def test_statistics_page_on_a_phone(page: Page, live_server, screenshot):
    account = sign_up(page)
    family_with_games(live_server, account)

    page.get_by_role("link", name="Statystyki").click()

    expect(page).to_have_url(re.compile(r"/statystyki$"))
    expect(page.get_by_role("heading", name="Statystyki", level=1)).to_be_visible()
    expect(page.locator(".stats-lead")).to_have_text("21 zakończonych gier")
    for chart_id in CHARTS:
        chart = page.locator(f"#{chart_id}")
        expect(chart).to_be_visible()
        box = chart.bounding_box()
        assert box is not None
        assert 300 <= box["width"] <= 330, (chart_id, box)  # the whole width of a phone
    # Screen readers get an image named by the chart's title and summary.
    expect(
        page.get_by_role("img", name=re.compile(r"^Gry według wariantu Najczęściej"))
    ).to_be_visible()
    # Who the dice favour: the first seat per table size, and the nemeses.
    expect(page.get_by_role("heading", name="Kto zaczyna", level=2)).to_be_visible()
    sizes = page.locator("table.seat-advantage")
    expect(sizes.first).to_be_visible()
    assert sizes.count() == 3  # the games of two, three and four players
    expect(
        sizes.first.get_by_role("row", name=re.compile(r"^1\. \(zaczyna\) \d+ \d+\s?%$"))
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Nemezis")).to_be_visible()
    nemeses = page.locator(".nemeses .nemesis")
    expect(nemeses.first).to_be_visible()
    expect(nemeses.first).to_have_text(re.compile(r"^\S.* → \S.*\s+\d+–\d+–\d+\s+\(\d+ wspóln"))
    assert sideways_scrollers(page) == [], "\n".join(sideways_scrollers(page))
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "stats")

    data = page.locator("#chart-wins").locator("xpath=..").locator(".chart-data")
    assert_tap_target(page, data.locator("summary"))
    data.locator("summary").click()
    expect(data.get_by_role("row", name=re.compile(r"^Jan \d+$"))).to_be_visible()
    for summary in page.locator(".chart-data > summary").all():
        summary.click()  # every chart's data open: none wider than the phone
    assert sideways_scrollers(page) == [], "\n".join(sideways_scrollers(page))
    assert no_sideways_scroll(page)
    # A player's figures, one entry each, every figure under its label.
    figures = page.get_by_role("region", name="Wyniki graczy – Kości (tabela polska)")
    ala = figures.get_by_role("row").filter(has=page.get_by_role("rowheader", name="Ala"))
    expect(ala.get_by_role("cell").first).to_be_visible()
    assert ala.get_by_role("cell").count() == 7
    figures.screenshot(path=screenshot(page, "stats").with_name("stats-figures.png"))

    page.set_viewport_size(LAPTOP)
    assert sideways_scrollers(page) == [], "\n".join(sideways_scrollers(page))


def test_the_filter_form_narrows_the_statistics(page: Page, live_server, screenshot):
    account = sign_up(page)
    family_with_games(live_server, account)
    page.goto("/statystyki")

    summary = page.locator(".filter > summary")
    assert_tap_target(page, summary)
    summary.click()
    page.get_by_label("Wariant", exact=True).select_option("standard")
    page.get_by_label("Od dnia").fill("2025-04-01")
    page.get_by_label("Do dnia").fill("2025-05-31")
    jan = page.locator(".filter-choices label", has_text="Jan")
    assert_tap_target(page, jan)
    jan.click()
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "stats-filter")
    page.get_by_role("button", name="Pokaż").click()

    expect(page).to_have_url(re.compile(r"wariant=standard&od=2025-04-01&do=2025-05-31&gracz=\d+"))
    expect(page.locator(".stats-lead")).to_have_text("2 zakończone gry")  # G3 and Jan's G4
    expect(page.locator(".filter-now")).to_have_text(
        "Kości (tabela polska) · 1.04.2025 – 31.05.2025 · z udziałem: Jan"
    )
    expect(page.locator("#chart-variants")).to_be_visible()
    assert no_sideways_scroll(page)

    page.locator(".filter > summary").click()
    page.get_by_role("link", name="Wyczyść filtr").click()
    expect(page.locator(".stats-lead")).to_have_text("21 zakończonych gier")


LONG_NAME = "Żaneta Wójcik-Przybyszewska"


def names_outside_their_box(page: Page) -> list[str]:
    """The filter's player choices whose name sticks out of its box, or is cut inside a word
    although the word would fit on a line of the box (a name breaks between words)."""
    page.wait_for_load_state("load")
    return page.evaluate(
        """() => [...document.querySelectorAll('.filter-choices label')].flatMap(label => {
            const box = label.getBoundingClientRect();
            const name = label.querySelector('span');
            const bad = [];
            if (name.getBoundingClientRect().right > box.right + 0.5)
                bad.push(`${name.textContent} sticks out of its box`);
            const text = name.firstChild;
            for (const word of text.textContent.matchAll(/[^\\s-]+-?/g)) {  // a line may break
                const range = document.createRange();  // after a space or a hyphen
                range.setStart(text, word.index);
                range.setEnd(text, word.index + word[0].length);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (lines.size > 1) bad.push(`${word[0]} cut across ${lines.size} lines`);
            }
            return bad;
        })"""
    )


def test_a_long_name_stays_whole_in_its_filter_box(page: Page, live_server, screenshot):
    """A player's name in the statistics filter stays inside its box, on a laptop as on a
    phone: the grid's narrow cells used to let „Przybyszewska” run out over the border."""
    account = sign_up(page)
    with live_server.app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == account))
        names = ["Ala", "Babcia Zoë", "Ola", "Tomek", LONG_NAME]
        play_table_game(account_id, "standard", {n: standard_sheet() for n in names}, None)

    for viewport in (LAPTOP, {"width": 360, "height": 740}):
        page.set_viewport_size(viewport)
        page.goto("/statystyki")
        page.locator(".filter > summary").click()
        expect(page.locator(".filter-choices label", has_text=LONG_NAME)).to_be_visible()
        assert names_outside_their_box(page) == []
        assert no_sideways_scroll(page)
        assert small_tap_targets(page) == []
    screenshot(page, "stats-filter-long-name")


def test_player_page_on_a_phone(page: Page, live_server, screenshot):
    account = sign_up(page)
    family_with_games(live_server, account)
    page.goto("/gracze")

    link = page.get_by_role("link", name="Statystyki gracza Ola")
    assert_tap_target(page, link)
    link.click()

    expect(page.get_by_role("heading", name="Ola", level=1)).to_be_visible()
    expect(page.locator("#chart-timeline")).to_be_visible()
    expect(page.locator("#chart-totals")).to_be_visible()
    expect(page.get_by_role("heading", name="Pola tabeli")).to_be_visible()
    expect(page.get_by_role("heading", name="Nemezis")).to_be_visible()
    nemesis = page.locator(".nemeses .nemesis")
    expect(nemesis).to_have_count(1)
    expect(nemesis).to_have_text(re.compile(r"^\S.*\s+\d+–\d+–\d+\s+\(\d+ wspóln"))
    assert sideways_scrollers(page) == [], "\n".join(sideways_scrollers(page))
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    # Each variant is an entry on a phone; one with no +100 (the Scandinavian table) ends at
    # its last figure, with no empty line under it.
    assert entry_gaps(page) == {}
    screenshot(page, "stats-player")

    page.get_by_role("link", name="Tabela skandynawska").click()
    expect(page).to_have_url(re.compile(r"wariant=scandinavian"))
    expect(
        page.get_by_role("img", name=re.compile(r"^Wyniki w kolejnych grach – Tabela skandynawska"))
    ).to_be_visible()
    assert no_sideways_scroll(page)
