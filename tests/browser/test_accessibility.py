"""Accessibility, audited: axe-core (tests/browser/axe.py) finds no WCAG 2.1 A/AA violation on
any page and state that matters, on a 360 px phone in the light and in the dark theme (the
phone's own `prefers-color-scheme`, which the app's default theme "Auto" follows). And the dice
pad works with the keyboard alone and tells a screen reader each die and each field with its
points.

One family is set up per module through the services (finished games, a poker match, an
invitation); each test signs in on a fresh phone and audits several pages, and a test that
writes a turn gets a game of its own."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from live import LiveServer
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy import select
from stats_builders import SHEETS, build_family, random_games

from tracker.extensions import db
from tracker.models import Player
from tracker.rules import POKER
from tracker.services import games, invitations

from .axe import audit
from .phone import sign_in, sign_up, tap_dice

SCHEMES = ["light", "dark"]
# The page's background in each palette (static/css/app.css, --bg).
BACKGROUNDS = {"light": "rgb(245, 243, 238)", "dark": "rgb(18, 20, 22)"}


@dataclass(frozen=True)
class Family:
    account: str
    account_id: int
    finished: int  # a standard game played to the end
    poker: int  # a poker match, its first round under way
    poker_finished: int
    triple: int  # Kości potrójne with „Podpowiedzi”, nothing written yet
    player: int  # Ala's id, for her statistics page
    play_link: str  # a guest's link to play `triple`
    watch_link: str  # a guest's link to watch `finished`


@pytest.fixture(scope="module")
def family(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> Family:
    context = browser.new_context(**{**browser_context_args, "base_url": live_server.url})
    try:
        account = sign_up(context.new_page())
    finally:
        context.close()
    account_id = live_server.account_id(account)
    with live_server.app.app_context():
        built = build_family(account_id)
        random_games(account_id, ["Ala", "Ola", "Jan"], 3, datetime(2025, 6, 2, 17))
        finished = games.create_game(account_id, "standard", ["Ala", "Ola"]).game.id
        for ala, ola in zip(SHEETS["best"], SHEETS["low_chance"], strict=True):
            games.record_turn(account_id, finished, *ala, 0)
            games.record_turn(account_id, finished, *ola, 0)
        poker = games.create_game(account_id, POKER, ["Ala", "Ola"], {"target_wins": 2}).game.id
        games.record_turn(account_id, poker, "66655")
        triple = games.create_game(account_id, "triple", ["Ala", "Ola"], hints=True).game.id
        player = db.session.scalar(
            select(Player.id).where(Player.account_id == account_id, Player.name == "Ala")
        )
        assert player is not None
        _, play = invitations.create(account_id, triple, invitations.PLAY)
        _, watch = invitations.create(account_id, finished, invitations.WATCH)
    return Family(
        account=account,
        account_id=account_id,
        finished=finished,
        poker=poker,
        poker_finished=built["G5"],
        triple=triple,
        player=player,
        play_link=f"{live_server.url}/dolacz?kod={play}",
        watch_link=f"{live_server.url}/dolacz?kod={watch}",
    )


def new_game(live_server: LiveServer, family: Family) -> int:
    """A standard game of the family for one test, Ala to play; Ala and Ola wrote one turn."""
    with live_server.app.app_context():
        game_id = games.create_game(family.account_id, "standard", ["Ala", "Ola"]).game.id
        games.record_turn(family.account_id, game_id, "66653", "sixes", 0)
        games.record_turn(family.account_id, game_id, "11234", "ones", 0)
    return game_id


def audit_both(page: Page, what: str) -> None:
    """Audit the page as it is now in the phone's light and then its dark scheme (the theme
    "Auto" follows it), checking first that each palette is really drawn; back to light after.
    One page in both schemes costs half the navigation of a test per scheme."""
    # The stylesheet applied: a page whose link is visible may still be loading it (seen on a
    # busy CI run, right after signing in: the body had no background yet).
    page.wait_for_load_state("load")
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        drawn_in(page, scheme)
        audit(page, f"{what} [{scheme}]")
    page.emulate_media(color_scheme="light")


def tap(page: Page, faces: str) -> None:
    """Tap the dice pad, a face at a time."""
    pad = page.locator("[data-pad]")
    for face in faces:
        pad.locator(f'button[data-face="{face}"]').click()


def drawn_in(page: Page, scheme: str) -> None:
    """The page really is in the palette asked for, so the audit measured that one."""
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == BACKGROUNDS[scheme], background


def test_pages_for_everyone(page: Page, family: Family):
    # `family`: an account exists, so /logowanie is the sign-in form, not the first sign-up.
    for path, what in (
        ("/", "home, signed out"),
        ("/logowanie", "sign in"),
        ("/rejestracja", "sign up"),
        ("/zasady", "rules"),
        ("/offline", "offline page"),
        ("/nie-ma-takiej-strony", "404"),
    ):
        page.goto(path)
        audit_both(page, what)

    page.goto("/logowanie")
    page.get_by_role("button", name="Zaloguj się").click()  # errors next to the fields
    expect(page.locator(".field .error").first).to_be_visible()
    audit_both(page, "sign in with errors")


def test_arbiter_both_tabs(page: Page):
    page.goto("/sedzia")
    audit_both(page, "arbiter, table tab")
    page.get_by_text("Pola już wypełnione").click()
    page.get_by_label("Szóstki", exact=True).select_option("30")
    audit_both(page, "arbiter, table tab, the sheet open")
    tap(page, "6666")
    with page.expect_navigation():
        tap(page, "6")
    expect(page.get_by_role("region", name="Co daje rzut")).to_be_visible()
    audit_both(page, "arbiter, table tab with a roll")

    page.goto("/sedzia/poker")
    audit_both(page, "arbiter, poker tab")
    page.locator("#h0_name").fill("Ola")
    tap(page, "2345612345")
    page.get_by_role("button", name="Kto wygrywa?").click()
    expect(page.get_by_role("region", name="Wynik rundy")).to_be_visible()
    audit_both(page, "arbiter, poker tab with a result")


def test_the_family_pages(page: Page, family: Family):
    sign_in(page, family.account)
    audit_both(page, "home, signed in")
    for path, what in (
        ("/gry/nowa", "new game form"),
        ("/statystyki", "statistics"),
        (f"/gracze/{family.player}/statystyki", "a player's statistics"),
        ("/historia", "history"),
        ("/historia?stan=w-toku", "history, filtered: the filter said in words"),
        ("/historia/kosz", "the trash"),
        ("/konto", "account"),
        ("/konto/haslo", "password change"),
        ("/konto/dane", "the account's data"),
        ("/gracze", "players"),
        (f"/gracze/{family.player}/polacz", "merge players"),
    ):
        page.goto(path)
        audit_both(page, what)

    page.goto("/statystyki")
    page.locator(".filter > summary").click()
    expect(page.locator(".filter-form")).to_be_visible()
    audit_both(page, "statistics, filter open")

    page.goto("/gry/nowa")
    page.get_by_label("Gracz 1", exact=True).fill("")
    page.get_by_role("button", name="Zacznij grę").click()
    expect(page.locator(".error").first).to_be_visible()
    audit_both(page, "new game form with errors")


def test_a_game_in_play(page: Page, family: Family, live_server: LiveServer, screenshot):
    game_id = new_game(live_server, family)
    sign_in(page, family.account)
    page.goto(f"/gry/{game_id}")
    expect(page.locator(".turn-name")).to_have_text("Ala")
    audit_both(page, "turn screen before the dice")
    page.locator(".site-menu > summary").click()
    audit_both(page, "turn screen, menu open")
    page.locator(".site-menu > summary").click()

    tap(page, "3")
    audit_both(page, "turn screen, one die in")
    tap(page, "3312")
    expect(page.locator("[data-fields] .pencil-btn").first).to_be_visible()
    screenshot(page, "a11y-turn")
    audit_both(page, "turn screen with pencil marks")

    page.locator('[data-fields] button[value="five_of_a_kind"]').click()  # 0 where 9 is free
    expect(page.get_by_role("alertdialog")).to_be_visible()
    audit_both(page, "turn screen, a zero to confirm")
    page.get_by_role("button", name="Nie, inne pole").click()

    page.locator('[data-fields] button[value="threes"]').click()
    expect(page.get_by_text("Zapisano: Ala – Trójki 9", exact=True)).to_be_visible()
    audit_both(page, "turn screen, a turn written, its undo")

    page.goto(f"/gry/{game_id}/tabela")
    audit_both(page, "full sheet and turn log")
    page.goto(f"/gry/{game_id}/ruchy/1/popraw")
    audit_both(page, "correct a turn")
    page.goto(f"/gry/{game_id}/usun")
    audit_both(page, "delete a game")
    page.goto(f"/gry/{game_id}/telefony")
    audit_both(page, "join a phone")
    page.get_by_role("button", name="Pokaż kod QR").click()
    expect(page.locator(".qr-code")).to_be_visible()
    audit_both(page, "join a phone, the QR code")


def test_triple_with_hints_and_poker(page: Page, family: Family):
    sign_in(page, family.account)
    page.goto(f"/gry/{family.triple}")
    audit_both(page, "triple turn screen")
    tap(page, "66612")
    expect(page.locator("[data-fields] .pencil-cell").first).to_be_visible()
    audit_both(page, "triple turn screen with pencil marks and the hint")
    page.locator(".hint-details > summary").click()
    audit_both(page, "triple turn screen, the hint's figures open")

    page.goto(f"/gry/{family.poker}")
    audit_both(page, "poker turn screen")
    tap(page, "12345")
    expect(page.get_by_role("button", name="Zapisz układ")).to_be_visible()
    audit_both(page, "poker turn screen, a hand to write")
    page.goto(f"/gry/{family.poker}/tabela")
    audit_both(page, "poker match so far")
    page.goto(f"/gry/{family.poker_finished}")
    audit_both(page, "poker match finished")


def test_a_finished_game(page: Page, family: Family, screenshot):
    sign_in(page, family.account)
    page.goto(f"/gry/{family.finished}")
    expect(page.get_by_role("heading", name=re.compile("Wygrywa|Remis"))).to_be_visible()
    screenshot(page, "a11y-end")
    audit_both(page, "end screen")
    page.goto(f"/gry/{family.finished}/tabela")
    audit_both(page, "full sheet of a finished game")
    page.goto(f"/gry/{family.finished}/przeglad")
    audit_both(page, "review")


def test_guest_phones_joined_by_a_link(page: Page, family: Family):
    page.goto(family.play_link)
    expect(page.get_by_text("Ten telefon dołączył do gry i może wpisywać ruchy.")).to_be_visible()
    audit_both(page, "a guest's turn screen after joining")
    page.goto(family.watch_link)
    expect(page.get_by_text("Ten telefon ogląda grę.")).to_be_visible()
    audit_both(page, "a watching guest's screen")
    page.goto("/dolacz?kod=nie-ma-takiego-kodu-0000000000")
    audit_both(page, "join page, a dead link")


def test_the_dark_theme_chosen_on_a_light_phone(page: Page, family: Family):
    """Ciemny from the theme switch (data-theme on <html>) on a phone set to light."""
    page.emulate_media(color_scheme="light")
    sign_in(page, family.account)
    page.get_by_role("button", name="Ciemny").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    drawn_in(page, "dark")
    audit(page, "home, theme Ciemny on a light phone")
    page.goto(f"/gry/{family.finished}")
    audit(page, "end screen, theme Ciemny on a light phone")


# The dice pad by keyboard and screen reader -----------------------------------------------------


def focused(page: Page) -> Locator:
    return page.locator("*:focus")


def tab_to(page: Page, name: re.Pattern[str], *, back: bool = False, limit: int = 40) -> list[str]:
    """Press Tab (Shift+Tab) until the focused control's accessible name matches `name`; the
    names passed on the way."""
    passed: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        label = accessible_name(page)
        passed.append(label)
        if name.search(label):
            return passed
    raise AssertionError(f"{name.pattern} never focused; passed {passed}")


def accessible_name(page: Page) -> str:
    """The focused control's role and accessible name, as Playwright's ARIA snapshot reads them
    from the browser's accessibility tree (e.g. 'button "Kość nr 1: pusta"')."""
    if page.evaluate("document.activeElement === document.body"):
        return ""
    first = focused(page).aria_snapshot().splitlines()[0]
    match = re.match(r'- \'?(\w+) "((?:[^"\\]|\\.)*)"', first)  # YAML quotes a name with ":"
    return f"{match.group(1)} {match.group(2)}" if match else first


def test_a_turn_played_with_the_keyboard_alone(
    page: Page, family: Family, live_server: LiveServer, screenshot
):
    game_id = new_game(live_server, family)
    sign_in(page, family.account)
    page.goto(f"/gry/{game_id}")
    expect(page.locator(".turn-name")).to_have_text("Ala")

    # Tab from the top: the five empty dice, in order, then the pad's first face.
    passed = tab_to(page, re.compile(r"^button Kość 1$"))
    dice = [label for label in passed if label.startswith("button Kość nr")]
    assert dice == [f"button Kość nr {n}: pusta" for n in range(1, 6)], passed
    outline = focused(page).evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline == "solid"  # the focus is drawn

    # Enter and Space on a face, the keys 1–6 on the pad.
    tab_to(page, re.compile(r"^button Kość 3$"))
    page.keyboard.press("Enter")
    page.keyboard.press(" ")
    page.keyboard.press("3")
    page.keyboard.press("1")
    said = page.locator("[data-dice-said]")
    expect(said).to_have_text("Kość nr 4: 1.")
    slots = page.locator("[data-slots] button")
    expect(slots.nth(0)).to_have_accessible_name("Kość nr 1: 3 – dotknij, aby usunąć")
    expect(slots.nth(3)).to_have_accessible_name("Kość nr 4: 1 – dotknij, aby usunąć")

    # A wrong die: back to it, Delete, and the focus returns to the pad.
    tab_to(page, re.compile(r"^button Kość nr 3:"), back=True)
    page.keyboard.press("Delete")
    expect(slots.nth(2)).to_have_accessible_name("Kość nr 3: pusta")
    expect(said).to_have_text("Kość nr 3: usunięta.")
    expect(focused(page)).to_have_accessible_name("Kość 1")
    page.keyboard.press("3")
    page.keyboard.press("2")

    # The fifth die: the pad goes, the focus lands on a field, each field says its points.
    expect(said).to_have_text("Kość nr 5: 2. Pięć kości: 3-3-3-1-2.")
    expect(page.locator("[data-pad]")).to_be_hidden()
    expect(focused(page)).to_have_attribute("name", "field")
    threes = page.locator('[data-fields] button[value="threes"]')
    expect(threes).to_have_accessible_name(re.compile(r"^Trójki(\s*, najwięcej)?\s*: 9 pkt$"))
    expect(page.locator('[data-fields] button[value="chance"]')).to_have_accessible_name(
        re.compile(r"^Szansa(\s*, najwięcej)?\s*: 12 pkt$")
    )
    expect(page.locator('[data-fields] button[value="five_of_a_kind"]')).to_have_accessible_name(
        re.compile(r"^Generał\s*: 0 pkt$")
    )
    screenshot(page, "a11y-keyboard-fields")
    tab_to(page, re.compile(r"^button Trójki"))
    page.keyboard.press("Enter")
    expect(page.get_by_text("Zapisano: Ala – Trójki 9", exact=True)).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ola")
    # The write swaps the screen in place: the focus is not dropped to the page's top (a
    # keyboard would start over from the menu) but lands on the next roll's pad.
    expect(focused(page)).to_have_accessible_name("Kość 1")
    page.keyboard.press("6")
    expect(said).to_have_text("Kość nr 1: 6.")


def test_a_screen_redrawn_by_another_phones_write_keeps_the_keyboards_place(
    page: Page,
    family: Family,
    live_server: LiveServer,
    browser: Browser,
    browser_context_args: dict[str, Any],
):
    game_id = new_game(live_server, family)
    sign_in(page, family.account)
    page.goto(f"/gry/{game_id}")
    tab_to(page, re.compile(r"^button Kość 4$"))

    other = browser.new_context(**browser_context_args).new_page()
    try:
        sign_in(other, family.account)
        other.goto(f"/gry/{game_id}")
        tap_dice(other, "33312")
        other.locator('[data-fields] button[value="threes"]').click()
        expect(other.get_by_text("Zapisano: Ala – Trójki 9", exact=True)).to_be_visible()
    finally:
        other.context.close()

    expect(page.locator(".turn-name")).to_have_text("Ola", timeout=4000)  # by a poll
    expect(focused(page)).to_have_accessible_name("Kość 4")
    page.keyboard.press("4")
    expect(page.locator("[data-dice-said]")).to_have_text("Kość nr 1: 4.")
