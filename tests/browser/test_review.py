"""The review of a game on a 360 px phone: a standard game for two, its first round tapped on
the turn screen and the rest written through the services, then the finished screen's
„Przegląd gry”: each player's turns with the best field, the sums and the SVG chart, without
sideways scrolling (on a phone the roll heads the field cell, so even the turn table of
Kości potrójne fits) and with large tap targets."""

from __future__ import annotations

import re

from live import LiveServer
from playwright.sync_api import Page, expect

from tracker.rules import TableGame
from tracker.services import games

from .phone import STANDARD, no_sideways_scroll, play_turn, sign_up, start_game

PHONE_WIDTH = 360
NAMES = ["Ala", "Ola"]
# The first round, tapped: the same straight, written small by Ala (the large one is worth ~15
# expected points more) and large by Ola.
FIRST_ROUND = [("12345", "small_straight"), ("12345", "large_straight")]
ALA_REST = [
    ("11123", "ones"),
    ("22234", "twos"),
    ("33345", "threes"),
    ("44456", "fours"),
    ("55561", "fives"),
    ("66612", "sixes"),
    ("44412", "three_of_a_kind"),
    ("55551", "four_of_a_kind"),
    ("22333", "full_house"),
    ("23456", "large_straight"),
    ("11111", "five_of_a_kind"),
    ("65433", "chance"),
]
OLA_REST = [
    ("11456", "ones"),
    ("22136", "twos"),
    ("33124", "threes"),
    ("44123", "fours"),
    ("55123", "fives"),
    ("66123", "sixes"),
    ("33345", "three_of_a_kind"),
    ("22221", "four_of_a_kind"),
    ("44455", "full_house"),
    ("23451", "small_straight"),
    ("55555", "five_of_a_kind"),
    ("65432", "chance"),
]


def small_tap_targets(page: Page) -> list[str]:
    """Links, buttons and summaries in the page's content under 44 px high (a link inside a
    sentence excepted)."""
    page.wait_for_load_state("load")
    return page.evaluate(
        """() => [...document.querySelectorAll('main a, main button, main summary')]
            .filter(e => e.offsetParent !== null)
            .filter(e => !(e.tagName === 'A' && e.closest('p')))
            .filter(e => e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def test_the_review_of_a_finished_game_on_a_phone(page: Page, live_server: LiveServer, screenshot):
    account = sign_up(page)
    start_game(page, "Kości (tabela polska)", NAMES)
    game_id = int(re.search(r"/gry/(\d+)$", page.url).group(1))  # type: ignore[union-attr]
    game = TableGame(STANDARD, len(NAMES))
    for dice, field_id in FIRST_ROUND:
        play_turn(page, game, NAMES, dice, field_id)
    account_id = live_server.account_id(account)
    with live_server.app.app_context():
        for ala, ola in zip(ALA_REST, OLA_REST, strict=True):
            for dice, field_id in (ala, ola):
                games.record_turn(account_id, game_id, dice, field_id, 0)

    page.goto(f"/gry/{game_id}")
    expect(page.get_by_role("heading", name=re.compile("Wygrywa|Remis"))).to_be_visible()
    page.get_by_role("link", name="Przegląd gry").click()

    expect(page).to_have_url(re.compile(rf"/gry/{game_id}/przeglad$"))
    expect(page.get_by_role("heading", name="Przegląd gry", level=1)).to_be_visible()
    ala = page.locator("#gracz-1")
    first = ala.locator('tr[data-seq="1"]')
    expect(first.locator("[data-best]")).to_have_text("Duży strit 40")
    expect(first.locator("[data-turn-loss]")).to_have_text("15,0")
    ola_first = page.locator('#gracz-2 tr[data-seq="2"]')
    expect(ola_first).to_have_class("is-best")
    expect(page.locator("svg.chart-svg")).to_have_count(2)
    expect(ala.locator("svg.chart-svg")).to_be_visible()
    # On a mobile profile `window.innerWidth` grows with a page that overflows, so measure
    # against the phone's own 360 px too.
    assert no_sideways_scroll(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    assert small_tap_targets(page) == []
    # The turn table is wider than the phone only inside its own box, if at all.
    box = ala.locator(".review-turns").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE_WIDTH
    # The players' summary fits whole: no column hidden behind a sideways swipe.
    summary = page.locator(".review-summary")
    assert summary.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    screenshot(page, "review")

    page.get_by_role("link", name="Ola").click()  # the summary's names jump to each player
    expect(page).to_have_url(re.compile("#gracz-2$"))


def test_the_players_summary_fits_a_phone_with_a_long_name(page: Page, live_server: LiveServer):
    """A surname of one long word („Wójcik-Przybyszewska”) used to hold the name column at its
    full width, and the luck column went behind a sideways swipe."""
    account = sign_up(page)
    names = ["Ala", "Żaneta Wójcik-Przybyszewska"]
    account_id = live_server.account_id(account)
    with live_server.app.app_context():
        game_id = games.create_game(account_id, "standard", names).id
        for ala, ola in zip([FIRST_ROUND[0], *ALA_REST], [FIRST_ROUND[1], *OLA_REST], strict=True):
            for dice, field_id in (ala, ola):
                games.record_turn(account_id, game_id, dice, field_id, 0)

    page.goto(f"/gry/{game_id}/przeglad")

    summary = page.locator(".review-summary")
    expect(summary.get_by_role("link", name=names[1])).to_be_visible()
    assert summary.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    assert no_sideways_scroll(page)


# Five 6s three times into the Generał fields, then five of a kind on top of them: the rows of
# Kości potrójne carry the longest figures there are, „Szóstki ×3: 390 ((30 + 100) × 3)”.
TRIPLE_TURNS = [
    ("66666", "five_of_a_kind", 0),
    ("66666", "five_of_a_kind", 1),
    ("66666", "five_of_a_kind", 2),
    ("66666", "sixes", 2),
    ("55555", "four_of_a_kind", 1),
]


def test_every_column_of_the_triple_turn_table_fits_a_phone(
    page: Page, live_server: LiveServer, screenshot
):
    """The points given away are the column that matters: a long field figure used to push
    them behind a sideways swipe. On a phone the roll heads the field cell instead of taking a
    column; on a laptop it keeps its own."""
    account = sign_up(page)
    account_id = live_server.account_id(account)
    with live_server.app.app_context():
        game_id = games.create_game(account_id, "triple", ["Ala"]).id
        for dice, field_id, column in TRIPLE_TURNS:
            games.record_turn(account_id, game_id, dice, field_id, column)

    page.goto(f"/gry/{game_id}/przeglad")

    turns = page.locator(".review-turns")
    row = turns.locator('tr[data-seq="4"]')
    expect(row.locator(".review-field")).to_contain_text("Szóstki ×3: 390")
    loss = turns.locator('tr[data-seq="1"] [data-turn-loss]').bounding_box()
    assert loss is not None
    assert loss["x"] + loss["width"] <= PHONE_WIDTH
    assert turns.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    expect(row.locator(".review-field .review-dice-inline")).to_have_text("6-6-6-6-6")
    assert no_sideways_scroll(page)
    screenshot(page, "review-triple")

    page.set_viewport_size({"width": 1280, "height": 800})
    expect(row.locator("td.review-dice")).to_have_text("6-6-6-6-6")
    expect(row.locator(".review-field .review-dice-inline")).to_be_hidden()


# Which words of the summary's names a line break cuts in two (a word whose letters lie on
# more than one line).
BROKEN_WORDS = """() => [...document.querySelectorAll('.review-summary tbody th a')].flatMap(a => {
  const text = a.firstChild;
  const words = [];
  for (const m of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (lines.size > 1) words.push(m[0]);
  }
  return words;
})"""


def test_the_summary_breaks_a_triple_players_name_between_words(
    page: Page, live_server: LiveServer, screenshot
):
    """Kości potrójne's wide figures („≈+1134,1”) left the name column less than „Krystyna”:
    the names read „Babcia Krystyn / a”, „Dziadek Zbignie / w”. The figures' heads took more
    room than the figures; the names now break between words."""
    account = sign_up(page)
    names = ["Babcia Krystyna", "Dziadek Zbigniew"]
    account_id = live_server.account_id(account)
    with live_server.app.app_context():
        game_id = games.create_game(account_id, "triple", names).id
        for dice, field_id, column in TRIPLE_TURNS:
            for _seat in names:
                games.record_turn(account_id, game_id, dice, field_id, column)

    page.goto(f"/gry/{game_id}/przeglad")

    summary = page.locator(".review-summary")
    expect(summary.get_by_role("link", name=names[1])).to_be_visible()
    assert page.evaluate(BROKEN_WORDS) == []
    assert summary.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
    assert no_sideways_scroll(page)
    screenshot(page, "review-triple-names")
