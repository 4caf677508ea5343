"""One thumb per turn, and a score table that fits the phone (360×740, the real server).

After the fifth die every free field of a one-column table is on the screen without scrolling:
a turn is five taps on the dice and one on the field. Triple's 39 cells are one short swipe away.
The confirmation of a written turn carries its undo; the site menu folds away during a game.
The full sheet shows 4 players (triple: 2) without a hidden column; a wider one says it scrolls.
Its column heads, and the score chips over a turn, tell a family's players apart („Dziadek Z.”,
„Dziadek M.”), never cut.

docs/benchmarks.md ("Taps and swipes per turn") quotes the figures these tests measure.
"""

from __future__ import annotations

import re

import pytest
from live import PHONE_VIEWPORT, SCREENSHOTS_DIR, LiveServer
from playwright.sync_api import Browser, Page, expect

from tracker.rules import TABLE_VARIANTS, TableGame, parse_dice
from tracker.services import games

from .phone import ALA, OLA, field_button, no_sideways_scroll, sign_up, start_game, tap_dice

NAMES = ["Ala", "Ola", "Ela", "Jan"]
# A family's real names: two seats share a first word, or one name starts another's.
FAMILY = ["Dziadek Zbyszek", "Dziadek Marian", "Babcia Ela", "Babcia Halina", "Ola", "Ola K."]
DICE = "33322"  # a full house: points in many fields, zeros in others
HEIGHT = PHONE_VIEWPORT["height"]
WIDTH = PHONE_VIEWPORT["width"]
# A column of a sheet filled high: every upper field with four of a kind, every lower one full.
HIGH = [
    ("11112", "ones"),
    ("22221", "twos"),
    ("33331", "threes"),
    ("44441", "fours"),
    ("55551", "fives"),
    ("66661", "sixes"),
    ("66654", "three_of_a_kind"),
    ("66665", "four_of_a_kind"),
    ("66655", "full_house"),
    ("12346", "small_straight"),
    ("23456", "large_straight"),
    ("66666", "five_of_a_kind"),
    ("66665", "chance"),
]
SHORT_SWIPE = HEIGHT // 2  # a flick of the thumb moves the page about half a screen

# Where the field buttons are, seen from the top of the screen: how many lie wholly inside it and
# how far the page must scroll to bring the lowest one in (0: no swipe at all).
REACH = """() => {
  const boxes = [...document.querySelectorAll('[data-fields] button[name=field]')]
    .map(b => b.getBoundingClientRect());
  const inside = boxes.filter(r =>
    r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth).length;
  const lowest = Math.max(...boxes.map(r => r.bottom));
  return {fields: boxes.length, inside, scrollY: scrollY,
          swipe: Math.max(0, Math.ceil(lowest - innerHeight)),
          shortest: Math.min(...boxes.map(r => r.height))};
}"""


def new_game(live_server: LiveServer, account: str, variant: str, names: list[str]) -> int:
    with live_server.app.app_context():
        return games.create_game(live_server.account_id(account), variant, names).id


def write(live_server: LiveServer, account: str, game_id: int, turns) -> None:
    """Turns written straight through the service: (dice, field, column)."""
    owner = live_server.account_id(account)
    with live_server.app.app_context():
        for dice, field, column in turns:
            games.record_turn(owner, game_id, dice, field, column)


def clipped_numbers(page: Page) -> list[str]:
    """The sheet's numbers wider than their cell."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.sheet td')]
            .filter(e => e.scrollWidth > e.clientWidth)
            .map(e => e.textContent.trim())"""
    )


def covered_points(page: Page) -> list[str]:
    """The fields whose points something else covers (a badge on the button's border over the
    digits): read at arm's length, a number must be whole."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-fields] .pencil-btn')].filter(button => {
            const points = button.querySelector('.pencil-points').getBoundingClientRect();
            return [...button.querySelectorAll('.tag, .hint-badge')].some(badge => {
              const b = badge.getBoundingClientRect();
              return b.left < points.right && points.left < b.right
                && b.top < points.bottom && points.top < b.bottom;
            });
          }).map(button => button.textContent.trim().replace(/\\s+/g, ' '))"""
    )


def reach(page: Page) -> dict:
    return page.evaluate(REACH)


def in_view(page: Page, name: str) -> None:
    """What the phone shows without scrolling, as test-results/screenshots/NAME.png."""
    page.screenshot(path=SCREENSHOTS_DIR / f"{name}.png")


def hidden_columns(page: Page) -> list[str]:
    """The sheet's cells that reach past the screen's right edge or out of the table's box."""
    return page.evaluate(
        """() => {
          const box = document.querySelector('.sheet-scroll').getBoundingClientRect();
          const right = Math.min(innerWidth, box.right) + 0.5;
          return [...document.querySelectorAll('.sheet th, .sheet td')]
            .filter(e => e.getBoundingClientRect().right > right)
            .map(e => e.textContent.trim() || e.outerHTML.slice(0, 60));
        }"""
    )


def test_after_the_fifth_die_every_field_of_a_standard_table_is_in_view(page: Page):
    sign_up(page)
    start_game(page, "Kości (tabela polska)", NAMES)
    tap_dice(page, "66612")
    field_button(page, "sixes").click()
    expect(page.get_by_text("Zapisano: Ala – Szóstki 18")).to_be_visible()
    in_view(page, "layout-standard-before-dice")

    tap_dice(page, DICE)  # taps 1–5

    seen = reach(page)
    assert seen["fields"] == 13
    assert seen["inside"] == 13, seen
    assert seen["scrollY"] == 0
    assert seen["swipe"] == 0
    assert seen["shortest"] >= 44
    assert no_sideways_scroll(page)
    assert covered_points(page) == []
    in_view(page, "layout-standard-5-dice")
    field_button(page, "full_house").click()  # tap 6
    expect(page.get_by_text("Zapisano: Ola – Ful 25")).to_be_visible()


def test_six_of_a_familys_names_leave_every_field_in_view_after_the_fifth_die(
    page: Page, live_server: LiveServer
):
    """The score chips go by the seats' short names on a phone: six whole names took four
    lines and pushed a field under the screen's edge. No two chips look alike; each is read,
    and titled, by the whole name."""
    account = sign_up(page)
    game_id = new_game(live_server, account, "standard", FAMILY)
    page.goto(f"/gry/{game_id}")

    tap_dice(page, DICE)

    seen = reach(page)
    assert seen["inside"] == 13, seen
    assert seen["swipe"] == 0
    assert_chips_go_by_short_names(page, "Wyniki")
    assert no_sideways_scroll(page)
    in_view(page, "layout-standard-5-dice-family")


def test_the_chips_of_a_dice_poker_match_go_by_the_same_short_names(
    page: Page, live_server: LiveServer
):
    account = sign_up(page)
    game_id = new_game(live_server, account, "poker", FAMILY)

    page.goto(f"/gry/{game_id}")

    assert_chips_go_by_short_names(page, "Wygrane rundy")
    assert no_sideways_scroll(page)
    in_view(page, "layout-poker-family")


def assert_chips_go_by_short_names(page: Page, label: str) -> None:
    """The score chips of FAMILY (nobody has scored yet) show short names, no two alike; each
    is read by the whole name, and titled with it."""
    chips = page.evaluate(
        """() => [...document.querySelectorAll('.scores li')].map(li => {
            const shown = [...li.querySelectorAll('.scores-name > *')]
              .filter(e => e.getBoundingClientRect().width > 1);
            return (shown.length ? shown : [li.querySelector('.scores-name')])
              .map(e => e.innerText.trim()).join(' ');
          })"""
    )
    assert chips == ["Dziadek Z.", "Dziadek M.", "Babcia E.", "Babcia H.", "Ola", "Ola K."]
    read = "".join(f"\n  - listitem: {name} 0" for name in FAMILY)  # the short ones unread
    expect(page.get_by_role("list", name=label)).to_match_aria_snapshot(f'- list "{label}":{read}')
    expect(page.locator(".scores li").nth(1)).to_have_attribute("title", "Dziadek Marian")


def test_after_the_fifth_die_all_fifteen_scandinavian_fields_are_in_view(page: Page):
    sign_up(page)
    start_game(page, "Tabela skandynawska", NAMES)
    tap_dice(page, "66612")
    field_button(page, "sixes").click()
    expect(page.get_by_text("Zapisano: Ala – Szóstki 18")).to_be_visible()

    tap_dice(page, DICE)

    seen = reach(page)
    assert seen["fields"] == 15
    assert seen["inside"] == 15, seen
    assert seen["swipe"] == 0
    assert seen["shortest"] >= 44
    assert no_sideways_scroll(page)
    in_view(page, "layout-scandinavian-5-dice")


def test_triples_39_cells_are_one_short_swipe_away(
    page: Page, browser: Browser, browser_context_args: dict, base_url: str
):
    sign_up(page)
    start_game(page, "Kości potrójne", NAMES)
    tap_dice(page, "66612")
    field_button(page, "sixes", 2).click()
    expect(page.get_by_text("Zapisano: Ala – Szóstki ×3: 18, do wyniku +54")).to_be_visible()

    tap_dice(page, DICE)

    seen = reach(page)
    assert seen["fields"] == 39
    assert 0 < seen["swipe"] <= SHORT_SWIPE, seen  # the upper rows in view, the rest one flick
    assert seen["shortest"] >= 44
    best = page.locator("[data-fields] [data-best]")
    expect(best).to_have_count(1)  # Ful ×3: the hook to bring the best into view
    expect(best).to_have_attribute("value", "full_house")
    assert no_sideways_scroll(page)
    in_view(page, "layout-triple-5-dice")

    # Without JavaScript the dice form lands on the grid (#pola): all 39 cells at once.
    plain = browser.new_context(
        **{**browser_context_args, "java_script_enabled": False, "base_url": base_url}
    )
    try:
        other = plain.new_page()
        other.context.add_cookies(page.context.cookies())
        other.goto(page.url.split("?")[0])
        other.get_by_label("Kości", exact=True).fill(DICE)
        other.get_by_role("button", name="Pokaż punkty").click()
        # The form's GET is a navigation: measure the page it lands on, not the one it leaves.
        other.wait_for_url(re.compile(r"dice=.*#pola$"))
        other.wait_for_load_state()
        seen = reach(other)
        assert seen["inside"] == 39, seen
    finally:
        plain.close()


def test_the_confirmation_of_a_written_turn_carries_its_undo(page: Page):
    sign_up(page)
    start_game(page, "Kości (tabela polska)", ["Ala", "Ola"])
    game = TableGame(TABLE_VARIANTS["standard"], 2)
    tap_dice(page, "66612")
    field_button(page, "sixes").click()
    game.play(parse_dice("66612"), "sixes")

    written = page.locator(".flash-written")
    expect(written).to_contain_text("Zapisano: Ala – Szóstki 18")
    undo = written.get_by_role("button", name="Cofnij ruch Ala – Szóstki 18")
    box = undo.bounding_box()
    assert box is not None
    assert box["height"] >= 44
    assert box["y"] + box["height"] <= HEIGHT  # under the thumb, not below the fold
    undo.click()

    expect(page.get_by_text("Cofnięto: Ala – Szóstki 18.")).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ala")
    expect(page.locator(".flash-written")).to_have_count(0)
    field_button(page, "three_of_a_kind").click()  # the roll stayed: one tap rewrites it
    expect(page.locator(".flash-written")).to_contain_text("Zapisano: Ala – Trzy jednakowe 21")


def test_the_site_menu_folds_into_one_button_during_a_game(page: Page):
    sign_up(page)
    nav = page.get_by_role("navigation", name="Menu główne")
    expect(nav.get_by_role("link", name="Historia")).to_be_visible()  # outside a game: open
    start_game(page, "Kości (tabela polska)", ["Ala", "Ola"])

    expect(nav.get_by_role("link", name="Historia")).to_be_hidden()
    header = page.locator(".site-header").bounding_box()
    assert header is not None
    assert header["height"] <= 56  # one row: the turn starts right under it
    menu = page.locator(".site-menu > summary")
    expect(menu).to_have_text("Menu")
    menu.click()
    in_view(page, "layout-menu-open")
    nav.get_by_role("link", name="Historia").click()
    expect(page.get_by_role("heading", name="Historia gier")).to_be_visible()
    expect(page.locator(".site-menu")).to_have_count(0)


def test_the_sheet_of_four_players_fits_without_a_hidden_column(
    page: Page, live_server: LiveServer
):
    account = sign_up(page)
    game_id = new_game(live_server, account, "standard", ["Aleksandra", "Ola", "Bartłomiej", "Jan"])
    turns = [(dice, field, 0) for r in range(6) for dice, field in (ALA[r], OLA[r]) * 2]
    write(live_server, account, game_id, turns)
    game = TableGame(TABLE_VARIANTS["standard"], 4)
    ones = [game.play(parse_dice(dice), field).points for dice, field, _ in turns[:4]]

    page.goto(f"/gry/{game_id}/tabela")

    sheet = page.locator(".sheet")
    expect(sheet.locator("thead th")).to_have_count(5)
    assert hidden_columns(page) == []
    expect(page.get_by_text("Przesuń tabelę →")).to_have_count(0)
    # Short row names on the phone; the full name stays for screen readers.
    first = sheet.locator("tbody th").first
    expect(first).to_have_attribute("title", "Jedynki")
    expect(first.locator(".label-short")).to_have_text("1")
    expect(first.locator(".label-full")).to_have_text("Jedynki")
    expect(sheet.locator("tbody tr").first.locator("td")).to_have_text([str(p) for p in ones])
    assert no_sideways_scroll(page)
    in_view(page, "layout-sheet-4-players")


# What each player's column head shows (its parts a reader sees, not those only read aloud),
# whether the name runs past its cell (cut, with an ellipsis or not) and on how many lines.
HEADS = """() => [...document.querySelectorAll('.sheet thead tr:first-child th')].slice(1)
  .map(th => {
    const shown = [...th.querySelectorAll('.seat-name > *')].filter(e => {
      const box = e.getBoundingClientRect();
      return box.width > 1 && box.height > 1;
    });
    const parts = shown.length ? shown : [th];
    const lines = Math.max(...parts.map(e => new Set(
      [...e.getClientRects()].map(r => Math.round(r.top))).size));
    return {text: parts.map(e => e.innerText.trim()).join(' '), title: th.title,
            cut: th.scrollWidth > th.clientWidth + 0.5, lines};
  })"""


@pytest.mark.parametrize(
    ("variant", "names"),
    [
        pytest.param("standard", FAMILY[:4], id="standard-4"),
        pytest.param("standard", FAMILY, id="standard-6"),
        pytest.param(
            "standard",
            ["Łukasz", "Łucja", "Ola", "Ola K.", "Dziadek Zbyszek", "Dziadek Zbigniew"],
            id="standard-6-prefixes",
        ),
        pytest.param("triple", FAMILY[:2], id="triple-2"),
        pytest.param("triple", FAMILY[2:6], id="triple-4"),
    ],
)
def test_the_heads_of_the_sheet_tell_a_familys_players_apart(
    page: Page,
    live_server: LiveServer,
    request: pytest.FixtureRequest,
    variant: str,
    names: list[str],
):
    """At 360 px no name is cut („Dzia…” and „Dzia…” read as one player): each head shows
    the name, or where the column is too narrow its short form, on at most two lines, no two
    alike; the whole name is its accessible name and its title. A laptop shows whole names."""
    account = sign_up(page)
    game_id = new_game(live_server, account, variant, names)

    page.goto(f"/gry/{game_id}/tabela")

    heads = page.evaluate(HEADS)
    shown = [head["text"] for head in heads]
    assert [head for head in heads if head["cut"] or head["lines"] > 2] == []
    assert len({text.casefold() for text in shown}) == len(names), shown
    assert [head["title"] for head in heads] == names
    for name in names:
        expect(page.get_by_role("columnheader", name=name, exact=True)).to_have_count(1)
    assert no_sideways_scroll(page)
    in_view(page, f"layout-sheet-names-{request.node.callspec.id.removeprefix('chromium-')}")

    page.set_viewport_size({"width": 1280, "height": 800})
    heads = page.evaluate(HEADS)
    assert [" ".join(head["text"].split()) for head in heads] == names


def test_triple_with_two_players_shows_all_six_columns(page: Page, live_server: LiveServer):
    account = sign_up(page)
    game_id = new_game(live_server, account, "triple", ["Aleksandra", "Bartłomiej"])
    # A high game in every column: four-digit column totals (×3) are the widest numbers.
    write(
        live_server,
        account,
        game_id,
        [(dice, field, column) for column in range(3) for dice, field in HIGH for _ in "AB"],
    )

    page.goto(f"/gry/{game_id}/tabela")

    expect(page.locator(".sheet .sheet-mult")).to_have_count(6)
    expect(page.locator(".sheet tr", has_text="Kolumna × mnożnik").locator("td").last).to_have_text(
        re.compile(r"^\d{4}$")
    )
    assert hidden_columns(page) == []
    assert clipped_numbers(page) == []
    expect(page.get_by_text("Przesuń tabelę →")).to_have_count(0)
    assert no_sideways_scroll(page)
    in_view(page, "layout-sheet-triple-2-players")
    page.locator(".sheet .row-total").evaluate("el => el.scrollIntoView({block: 'end'})")
    in_view(page, "layout-sheet-triple-2-players-totals")


def test_a_wider_triple_sheet_keeps_four_digit_numbers_apart(page: Page, live_server: LiveServer):
    """Three players of triple scroll (9 columns); each column still holds a four-digit
    column total whole, in a font with wide digits too, instead of running into the next."""
    account = sign_up(page)
    game_id = new_game(live_server, account, "triple", ["Ala", "Ola", "Ela"])
    write(
        live_server,
        account,
        game_id,
        [(dice, field, column) for column in range(3) for dice, field in HIGH for _ in "ABC"],
    )

    page.goto(f"/gry/{game_id}/tabela")

    expect(page.get_by_text("Przesuń tabelę →")).to_be_visible()
    expect(page.locator(".sheet tr", has_text="Kolumna × mnożnik").locator("td").last).to_have_text(
        re.compile(r"^\d{4}$")
    )
    assert clipped_numbers(page) == []
    assert no_sideways_scroll(page)
    page.locator(".sheet .row-total").evaluate("el => el.scrollIntoView({block: 'end'})")
    in_view(page, "layout-sheet-triple-3-players-totals")


def test_a_wider_sheet_scrolls_under_its_first_column_and_says_so(
    page: Page, live_server: LiveServer
):
    account = sign_up(page)
    names = ["Ala", "Ola", "Ela", "Jan", "Iza", "Piotr"]
    game_id = new_game(live_server, account, "standard", names)
    write(live_server, account, game_id, [("66612", "sixes", 0)] * 6)

    page.goto(f"/gry/{game_id}/tabela")

    hint = page.get_by_text("Przesuń tabelę →")
    expect(hint).to_be_visible()
    assert no_sideways_scroll(page)  # the table scrolls inside its box, not the page
    scroller = page.locator(".sheet-scroll")
    label = page.locator(".sheet tbody th").first
    before = label.bounding_box()
    scroller.evaluate("el => el.scrollBy(400, 0)")
    page.wait_for_function("document.querySelector('.sheet-scroll').scrollLeft > 0")
    after = label.bounding_box()
    assert before is not None
    assert after is not None
    assert after["x"] == before["x"]  # the row names stay put
    last = page.locator(".sheet thead th").last
    expect(last).to_have_text("Piotr")
    box = last.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= WIDTH + 0.5  # the last player scrolled into view
    expect(hint).to_be_visible()  # sticky: still there after the swipe
    scroller.evaluate("el => el.scrollTo(0, 0)")
    in_view(page, "layout-sheet-6-players")

    # A wider phone fits the same table (short names up to 480 px): no hint where nothing scrolls.
    page.set_viewport_size({"width": 470, "height": HEIGHT})
    expect(hint).to_be_hidden()
    assert hidden_columns(page) == []


def test_the_end_screen_of_four_players_fits_the_phone(page: Page, live_server: LiveServer):
    account = sign_up(page)
    game_id = new_game(live_server, account, "standard", NAMES)
    turns = [(dice, field, 0) for r in range(13) for dice, field in (ALA[r], OLA[r]) * 2]
    write(live_server, account, game_id, turns)

    page.goto(f"/gry/{game_id}")

    expect(page.get_by_role("heading", name=re.compile("Remis: Ala i Ela"))).to_be_visible()
    assert hidden_columns(page) == []
    expect(page.get_by_text("Przesuń tabelę →")).to_have_count(0)
    assert no_sideways_scroll(page)
    in_view(page, "layout-end-4-players")
    page.locator(".sheet").evaluate("el => el.scrollIntoView()")
    in_view(page, "layout-end-4-players-sheet")


def test_the_last_turn_of_a_game_can_be_taken_back_from_the_end_screen(
    page: Page, live_server: LiveServer
):
    account = sign_up(page)
    game_id = new_game(live_server, account, "standard", ["Ala"])
    write(live_server, account, game_id, [(d, f, 0) for d, f in ALA[:-1]])
    page.goto(f"/gry/{game_id}")
    tap_dice(page, ALA[-1][0])
    field_button(page, ALA[-1][1]).click()

    expect(page.get_by_role("heading", name="Wygrywa Ala!")).to_be_visible()
    page.locator(".flash-written").get_by_role("button", name=re.compile("^Cofnij")).click()

    expect(page.locator(".turn-name")).to_have_text("Ala")
    expect(page.get_by_text("Cofnięto: Ala – Szansa")).to_be_visible()


# The five die slots (templates/_dice.html) and --tap, the house's smallest target, measured on
# the element that holds them (an in-game screen sets --tap itself).
DIE_SLOTS = """() => {
  const slots = [...document.querySelectorAll('[data-slots] .dice-slot')];
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;width:var(--tap);height:0';
  slots[0].parentElement.appendChild(probe);
  const tap = probe.getBoundingClientRect().width;
  probe.remove();
  const boxes = slots.map(s => s.getBoundingClientRect());
  return {tap, count: slots.length,
          width: Math.min(...boxes.map(r => r.width)),
          height: Math.min(...boxes.map(r => r.height)),
          right: Math.max(...boxes.map(r => r.right)),
          rows: new Set(boxes.map(r => Math.round(r.top))).size};
}"""


def test_the_five_die_slots_are_a_thumbs_target_on_a_360_px_phone(page: Page):
    """Each slot (tap one to clear that die) is at least --tap wide and high, the five on one
    line inside the screen, on the turn screen of a table game and of dice poker."""
    sign_up(page)
    start_game(page, "Kości (tabela polska)", NAMES[:2])
    pad = page.locator("[data-pad]")
    for face in "62":
        pad.locator(f'button[data-face="{face}"]').click()

    slots = page.evaluate(DIE_SLOTS)
    in_view(page, "layout-die-slots-table")
    assert slots["count"] == 5
    assert slots["tap"] >= 48
    assert slots["width"] >= slots["tap"], slots
    assert slots["height"] >= slots["tap"], slots
    assert slots["rows"] == 1
    assert slots["right"] <= WIDTH
    assert no_sideways_scroll(page)
    for face in "612":
        pad.locator(f'button[data-face="{face}"]').click()
    digits = page.locator("[data-dice-input]")
    expect(digits).to_have_value("62612")
    # The typed digits beside the dice keep all five in view.
    assert digits.evaluate("e => e.scrollWidth <= e.clientWidth")
    in_view(page, "layout-die-slots-table-5-dice")

    page.goto("/")
    start_game(page, "Poker kościany bez tabeli", NAMES[:2])
    for face in "62":
        pad.locator(f'button[data-face="{face}"]').click()

    slots = page.evaluate(DIE_SLOTS)
    in_view(page, "layout-die-slots-poker")
    assert slots["count"] == 5
    assert slots["width"] >= slots["tap"], slots
    assert slots["height"] >= slots["tap"], slots
    assert slots["rows"] == 1
    assert slots["right"] <= WIDTH
    assert no_sideways_scroll(page)
