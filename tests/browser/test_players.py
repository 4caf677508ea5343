"""The players page on a 360 px phone (CSRF on, the real server): Polish order, an emoji family
name, deleting a player without games, merging two players, no word broken in two, and the
new-game form saying how many may sit at the table."""

from __future__ import annotations

import re

import pytest
from history_builders import STANDARD_SHEET
from live import SCREENSHOTS_DIR, LiveServer
from playwright.sync_api import Page, expect

from tracker.services import games, trash

from . import phone
from .axe import audit

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467 Kowalscy"  # 👨‍👩‍👧 Kowalscy
LONG_WORD = "Konstantynopolitańczykowianka"  # 29 letters: wider than a heading line
LONG_NAME = "Przemysław Wielkopolański"  # two words that each fit a line at 360 px


def no_sideways_scroll(page: Page) -> bool:
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def small_tap_targets(page: Page) -> list[str]:
    page.wait_for_load_state("load")
    return page.evaluate(
        """() => [...document.querySelectorAll('main a, main button, main input, main select')]
            .filter(e => e.offsetParent !== null && e.type !== 'hidden')
            .filter(e => !(e.tagName === 'A' && e.closest('p')))
            .filter(e => e.getBoundingClientRect().height < 43.5)
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def words_broken_in_two(page: Page, selector: str, line: str | None = None) -> list[str]:
    """The words inside `selector` that the browser split over two lines although they would
    fit on one line: of their own box, or of the box `line` around them (a row of a list whose
    cells share the line). A word longer than that may break: the last resort."""
    page.wait_for_load_state("load")
    return page.evaluate(
        """([selector, line]) => {
          const broken = [];
          const blockOf = (element) => {
            if (line && element.closest(line)) element = element.closest(line);
            while (element.parentElement && getComputedStyle(element).display === 'inline') {
              element = element.parentElement;
            }
            const style = getComputedStyle(element);
            return element.clientWidth - parseFloat(style.paddingLeft)
              - parseFloat(style.paddingRight);
          };
          for (const box of document.querySelectorAll(selector)) {
            const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (node.parentElement.closest('.visually-hidden')) continue;
              const width = blockOf(node.parentElement);
              for (const match of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const rects = [...range.getClientRects()].filter(r => r.width > 0);
                const lines = new Set(rects.map(r => Math.round(r.top))).size;
                const wide = rects.reduce((sum, r) => sum + r.width, 0);
                if (lines > 1 && wide <= width + 0.5) broken.push(match[0]);
              }
            }
          }
          return broken;
        }""",
        [selector, line],
    )


def test_players_page_deletes_and_merges_on_a_phone(
    page: Page, live_server: LiveServer, screenshot
):
    account = phone.sign_up_id(page, live_server)
    with live_server.app.app_context():
        gone = games.create_game(account, "standard", ["Zoë", LONG_WORD, "Łukasz"])
        trash.delete_game(account, gone.id)  # its players stay, without games
        games.create_game(account, "standard", [FAMILY, "Lucyna", LONG_NAME])
        games.create_game(account, "standard", ["Lucynka", "Łukasz"])

    page.reload()
    page.get_by_role("link", name="Gracze", exact=True).click()  # on the home page

    expect(page.get_by_role("heading", name="Gracze")).to_be_visible()
    names = page.locator(".player-list input[type=text]")
    expect(names).to_have_count(7)
    assert [names.nth(i).input_value() for i in range(7)] == [
        FAMILY,
        LONG_WORD,
        "Lucyna",
        "Lucynka",
        "Łukasz",
        LONG_NAME,
        "Zoë",
    ]
    # Deleting is offered only for the players without games.
    expect(page.get_by_role("link", name=re.compile(r"^Usuń gracza"))).to_have_count(2)
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "players")

    # Delete Zoë: the page asks first.
    page.get_by_role("link", name="Usuń gracza Zoë").click()
    expect(page.get_by_role("heading", name="Usunąć gracza?")).to_be_visible()
    assert no_sideways_scroll(page)
    screenshot(page, "players-delete")
    page.get_by_role("button", name="Tak, usuń gracza").click()
    expect(page.get_by_text("Usunięto gracza Zoë.")).to_be_visible()
    expect(names).to_have_count(6)

    # Merge Lucynka into Lucyna: the one chosen stays and gets the games.
    page.get_by_role("link", name="Połącz gracza Lucynka z innym").click()
    expect(page.get_by_role("heading", name="Połącz gracza")).to_be_visible()
    assert words_broken_in_two(page, "h1, .player-name") == []
    assert no_sideways_scroll(page)
    screenshot(page, "players-merge")
    page.get_by_label("Zostaje gracz").select_option(label="Lucyna")
    page.get_by_role("button", name="Połącz graczy").click()
    expect(
        page.get_by_text("Połączono: Lucynka i Lucyna to teraz jeden gracz, Lucyna.")
    ).to_be_visible()
    expect(names).to_have_count(5)
    # A wrong choice is undone: „Cofnij” beside the message, and in the list of recent merges.
    recent = page.locator(".recent-merges")
    expect(recent).to_contain_text("Lucynka → Lucyna")
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "players-merged-with-undo")
    audit(page, "players, a merge with its „Cofnij”")
    page.locator(".flash-with-undo").get_by_role("button", name="Cofnij połączenie graczy").click()
    expect(
        page.get_by_text(
            "Cofnięto połączenie: Lucynka znów jest osobnym graczem, a Lucyna ma swoje gry"
        )
    ).to_be_visible()
    expect(names).to_have_count(6)
    expect(recent).to_have_count(0)
    # and merged again, for what follows
    page.get_by_role("link", name="Połącz gracza Lucynka z innym").click()
    page.get_by_label("Zostaje gracz").select_option(label="Lucyna")
    page.get_by_role("button", name="Połącz graczy").click()
    expect(names).to_have_count(5)

    # Lucyna and Łukasz sat at one table: the merge is refused, next to the choice.
    page.get_by_role("link", name="Połącz gracza Łukasz z innym").click()
    page.get_by_label("Zostaje gracz").select_option(label="Lucyna")
    page.get_by_role("button", name="Połącz graczy").click()
    expect(page.locator("#target-error")).to_contain_text("siedzą razem przy stole w 1 grze")
    assert no_sideways_scroll(page)
    screenshot(page, "players-merge-refused")


def test_long_names_break_only_between_words(page: Page, live_server: LiveServer, screenshot):
    account = phone.sign_up_id(page, live_server)
    with live_server.app.app_context():
        game = games.create_game(account, "standard", [LONG_NAME, "Ola"])
        finished = games.create_game(account, "standard", [LONG_NAME, LONG_WORD])
        for dice, field in STANDARD_SHEET:
            for _ in range(2):
                games.record_turn(account, finished.id, dice, field, 0)

    page.goto(f"/gry/{game.id}")
    assert words_broken_in_two(page, "h1, h2, .turn-name") == []
    assert no_sideways_scroll(page)
    screenshot(page, "players-long-name-turn")

    # Head-to-head: "Wielkopolański" fits a line of the card, so it is not cut to fit a third.
    page.goto("/statystyki")
    expect(page.locator(".pair")).to_have_count(1)
    assert words_broken_in_two(page, ".pair-name", line=".pair-score") == []
    assert words_broken_in_two(page, "h1, h2, h3") == []
    assert no_sideways_scroll(page)
    page.locator(".pair").screenshot(path=SCREENSHOTS_DIR / "players-long-name-pair.png")

    page.goto("/gracze")
    page.get_by_role("link", name=f"Połącz gracza {LONG_NAME} z innym").click()
    expect(page.get_by_role("heading", name="Połącz gracza", exact=True)).to_be_visible()
    assert words_broken_in_two(page, "h1, h2, .player-name, strong") == []
    assert no_sideways_scroll(page)


def test_a_long_one_word_name_keeps_scores_and_buttons_on_the_screen(
    page: Page, live_server: LiveServer
):
    """The score chips over the turn (the current player's chip is bold) and the confirmation
    of a written turn beside its undo: a name of one word as long as a name may be is broken
    (the last resort) instead of pushing a score or a button past the screen's edge; so is
    it in the history's card of the game."""
    account = phone.sign_up_id(page, live_server)
    with live_server.app.app_context():
        game = games.create_game(account, "triple", [LONG_WORD + "ą", "Ola"])

    page.goto(f"/gry/{game.id}")

    expect(page.locator(".turn-name")).to_have_text(LONG_WORD + "ą")
    viewport = page.viewport_size
    assert viewport is not None
    for total in page.locator(".scores .scores-total").all():
        box = total.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= viewport["width"], total.inner_text()
    assert phone.no_sideways_scroll(page)

    # „Zapisano: <the name> – …” beside its „Cofnij”: the name breaks, the button stays whole.
    phone.tap_dice(page, "66612")
    phone.field_button(page, "sixes", 0).click()
    undo = page.locator(".flash-undo button")
    expect(undo).to_be_visible()
    box = undo.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= viewport["width"]
    assert phone.no_sideways_scroll(page)

    page.goto("/historia")  # the game's card: „Wygrywa <the name>”, the seats and their totals
    expect(page.locator(".history-item")).to_have_count(1)
    assert phone.no_sideways_scroll(page)


def test_the_new_game_form_says_how_many_may_sit_at_the_table(
    page: Page, live_server: LiveServer, screenshot
):
    phone.sign_up_id(page, live_server)
    page.get_by_role("link", name="Nowa gra").click()

    expect(page.get_by_text("Przy stole od 2 do 8 graczy.")).to_be_visible()  # poker's card
    expect(page.locator("#seats-hint")).to_contain_text("Od 1 do 8 graczy przy stole")
    for index in range(8):
        if index >= page.locator("[data-seat]").count():
            page.get_by_role("button", name="+ Dodaj gracza").click()
        page.get_by_label(f"Gracz {index + 1}", exact=True).fill(f"Gracz {index + 1}")
    # Eight seats: no more to add, and the hint above says why.
    expect(page.get_by_role("button", name="+ Dodaj gracza")).to_be_hidden()
    assert words_broken_in_two(page, "h1, legend, .variant-card strong") == []
    assert no_sideways_scroll(page)
    screenshot(page, "new-game-eight-players")


def test_names_and_field_labels_beside_buttons_and_cells_break_only_between_words(
    page: Page, live_server: LiveServer, screenshot
):
    """Where a name shares its line with something else (the turn log's „Popraw”, a poker
    hand's name beside the hand), and the field labels of Kości potrójne beside their three
    cells on a 320 px phone: a word that fits a line is never cut to make room."""
    account = phone.sign_up_id(page, live_server)
    with live_server.app.app_context():
        table = games.create_game(account, "standard", ["Maksymilianowa Grzegorzewska", "Ola"])
        games.record_turn(account, table.id, "12345", "large_straight", 0)
        poker = games.create_game(account, "poker", ["Dziadek", "Wnuczek"])
        for hand in ("11111", "11112"):
            games.record_turn(account, poker.id, hand, None, None)
        triple = games.create_game(account, "triple", ["Mama", "Tata", "Zosia"])

    page.goto(f"/gry/{table.id}/tabela")
    assert words_broken_in_two(page, ".log-main", line=".log li") == []
    assert no_sideways_scroll(page)
    page.locator(".log").screenshot(path=SCREENSHOTS_DIR / "log-long-name.png")

    page.goto(f"/gry/{poker.id}")
    expect(page.locator(".poker-hand")).to_have_count(2)
    assert (
        words_broken_in_two(page, ".poker-hand-name, .poker-hand-label", line=".poker-hand") == []
    )
    assert no_sideways_scroll(page)
    page.locator(".round-result").screenshot(path=SCREENSHOTS_DIR / "poker-round-names.png")

    page.set_viewport_size({"width": 320, "height": 700})
    page.goto(f"/gry/{triple.id}?dice=33322&seq=1")
    expect(page.locator("[data-fields] .pgrid-label").first).to_be_visible()
    assert words_broken_in_two(page, "[data-fields] .pgrid-label", line=".pgrid-row") == []
    assert no_sideways_scroll(page)
    screenshot(page, "triple-labels-320")


def test_a_refused_rename_far_down_the_list_opens_at_its_error(page: Page, live_server: LiveServer):
    """A family of many players renames the last one to a name another player has: the answer
    shows the error beside that field, on the screen, not the top of the list."""
    account = phone.sign_up_id(page, live_server)
    with live_server.app.app_context():
        games.create_game(account, "standard", ["Babcia", "Dziadek", "Mama", "Tata"])
        games.create_game(account, "standard", ["Wujek", "Zosia", "Żaneta", "Ciocia"])

    page.goto("/gracze")
    name = page.get_by_label("Imię gracza Żaneta")
    name.fill("zosia")
    page.locator("form.rename").filter(has=name).get_by_role("button", name="Zmień").click()

    error = page.get_by_text("Inny gracz ma już takie imię.")
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()
    expect(page.get_by_label("Imię gracza Żaneta")).to_be_in_viewport()


@pytest.mark.parametrize(
    ("variant", "names", "scrolls"),
    [
        ("scandinavian", ["Maksymilian", "Bartłomiej", "Ola"], False),
        (
            "standard",
            ["Bartłomieja", "Maksymilian", "Aleksandra", "Przemysław", "Katarzynka", "Ola"],
            True,
        ),
    ],
    ids=["three", "six"],
)
def test_long_one_word_names_fit_the_sheets_columns(
    page: Page, live_server: LiveServer, screenshot, variant: str, names: list[str], scrolls: bool
):
    """At 360 px, long first names head their columns of the sheet whole (in a smaller type),
    not broken into „Maksymili/an” and „Bartłomie/j”; a short name keeps the sheet's usual size.
    Three players share the screen's width. Six scroll the sheet anyway: their columns widen to
    fit the longest word, where the smallest type alone could not (six at „Bartłomi/eja”)."""
    account = phone.sign_up_id(page, live_server)
    with live_server.app.app_context():
        game = games.create_game(account, variant, names)

    page.goto(f"/gry/{game.id}/tabela")

    shown = page.locator(".sheet thead .seat-name .name-full")
    expect(shown).to_have_count(len(names))
    lines = shown.evaluate_all(
        """els => els.map(e => new Set([...e.getClientRects()]
            .filter(r => r.width > 0).map(r => Math.round(r.top))).size)"""
    )
    assert lines == [1] * len(names)
    sizes = shown.evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    root = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert min(sizes) >= 0.62 * root - 0.01
    assert sizes[-1] == pytest.approx(0.85 * root)  # „Ola” fits as it is
    sheet = page.locator(".sheet-scroll")
    overflow = sheet.evaluate("e => e.scrollWidth > e.clientWidth")
    assert overflow is scrolls
    if scrolls:
        expect(page.get_by_text("Przesuń tabelę →")).to_be_visible()
    assert no_sideways_scroll(page)
    screenshot(page, f"sheet-long-first-names-{len(names)}")
