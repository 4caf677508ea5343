"""The arbiter on a 360 px phone: the dice pad, the sheet selects, the poker hands."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

# Every control a thumb has to hit, as rendered (hidden ones have no box and are skipped).
SMALL_TARGETS_JS = """
(minimum) => Array.from(document.querySelectorAll(
  "a, button, input:not([type=hidden]), select, summary"
)).filter((el) => el.getClientRects().length > 0)
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, box]) => box.width < minimum || box.height < minimum)
  .map(([el, box]) => `${el.outerHTML.slice(0, 80)} ${box.width}x${box.height}`)
"""


def fits_the_phone(page: Page) -> None:
    # A page reached by a form's Enter may be measured before its stylesheet has loaded.
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate(SMALL_TARGETS_JS, 44) == []


def die(page: Page, face: int) -> Locator:
    """A button of the dice pad."""
    return page.locator("[data-pad]").get_by_role("button", name=f"Kość {face}", exact=True)


def row(page: Page, field: str, column: int = 0) -> Locator:
    return page.locator(f'.moves [data-field="{field}"][data-column="{column}"]')


def test_table_tab_settles_a_joker_tapped_on_the_dice_pad(page: Page, screenshot):
    page.goto("/sedzia")
    expect(page.get_by_role("link", name="Tabela")).to_have_attribute("aria-current", "page")
    fits_the_phone(page)
    screenshot(page, "arbiter-table-empty")

    page.get_by_role("radio", name="Kości (tabela polska)").check()
    page.get_by_text("Pola już wypełnione").click()
    page.get_by_label("Generał", exact=True).select_option("50")
    page.get_by_label("Szóstki", exact=True).select_option("30")
    fits_the_phone(page)
    screenshot(page, "arbiter-table-sheet")
    for _ in range(4):
        die(page, 6).click()
    expect(page.locator("#dice")).to_have_value("6666")
    with page.expect_navigation():
        die(page, 6).click()  # the fifth die sends the form

    results = page.get_by_role("region", name="Co daje rzut")
    expect(results).to_be_visible()
    expect(results.locator('[data-flag="joker"]')).to_have_text("JOKER")
    expect(results.locator('[data-flag="extra-bonus"]')).to_have_text("+100")
    expect(row(page, "full_house")).to_have_attribute("data-points", "25")
    expect(row(page, "full_house").locator(".move-points")).to_have_text("25")
    expect(row(page, "sixes")).to_have_count(0)  # Szóstki is filled: not a free field
    expect(page.get_by_label("Szóstki", exact=True)).to_have_value("30")
    ones = row(page, "ones")
    expect(ones).to_have_attribute("data-allowed", "false")
    expect(ones).to_contain_text("nie wolno")
    expect(ones).to_contain_text("Joker musi trafić do wolnego pola dolnej części")
    expect(row(page, "large_straight")).to_have_attribute("data-best", "true")
    fits_the_phone(page)
    screenshot(page, "arbiter-table-joker")

    slots = page.locator("[data-slots] button")
    expect(slots).to_have_count(5)
    slots.nth(2).click()  # tapping a die clears it
    expect(page.locator("#dice")).to_have_value("6666")
    expect(slots.nth(2)).to_have_accessible_name("Kość nr 3: pusta")
    with page.expect_navigation():
        die(page, 2).click()  # fills the cleared die, and the roll is complete again
    expect(page.locator("#dice")).to_have_value("66266")
    expect(page.locator("[data-flag]")).to_have_count(0)
    expect(row(page, "three_of_a_kind")).to_have_attribute("data-points", "26")


def test_changing_the_variant_reloads_the_sheet_for_it(page: Page):
    page.goto("/sedzia")

    with page.expect_navigation():
        page.get_by_role("radio", name="Kości potrójne").click()

    expect(page.get_by_role("radio", name="Kości potrójne")).to_be_checked()
    page.get_by_text("Pola już wypełnione").click()
    expect(page.get_by_role("group", name="Kolumna ×3")).to_be_visible()
    expect(page.get_by_text("Próg premii w grze po kolei")).to_be_hidden()

    with page.expect_navigation():
        page.get_by_role("radio", name="Gra po kolei").click()
    expect(page.get_by_text("Próg premii w grze po kolei")).to_be_visible()
    fits_the_phone(page)


def test_poker_tab_ranks_three_hands(page: Page, screenshot):
    page.goto("/sedzia/poker")
    expect(page.get_by_role("link", name="Poker")).to_have_attribute("aria-current", "page")
    fits_the_phone(page)

    page.locator("#h0_name").fill("Ola")
    for face in (2, 3, 4, 5, 6):
        die(page, face).click()
    for face in (1, 2, 3, 4, 5):  # the pad moved on to the next hand by itself
        die(page, face).click()
    expect(page.locator("#h0_dice")).to_have_value("23456")
    expect(page.locator("#h1_dice")).to_have_value("12345")

    page.get_by_role("button", name="Dodaj gracza").click()
    expect(page).to_have_url("/sedzia/poker")  # added in the page, not by a round trip
    expect(page.locator('input[name="hands"]')).to_have_value("3")
    page.locator("#h2_name").fill("Ala")
    page.locator("#h2_dice").fill("55331")
    expect(page.locator('[data-hand="2"] [data-slots] button').first).to_have_text("5")
    fits_the_phone(page)
    screenshot(page, "arbiter-poker-hands")

    page.get_by_role("button", name="Kto wygrywa?").click()

    results = page.get_by_role("region", name="Wynik rundy")
    expect(results).to_be_visible()
    expect(results.locator("[data-verdict]")).to_have_text("Wygrywa Ola")
    expect(results.locator("[data-explanation]")).to_have_text(
        "2-3-4-5-6 wygrywa z 1-2-3-4-5: oba układy to strit, a decyduje najwyższa kość: "
        "szóstka jest wyższa niż piątka."
    )
    places = results.locator("[data-player]")
    expect(places).to_have_count(3)
    expect(places.first).to_have_attribute("data-name", "Ola")
    expect(places.first).to_have_attribute("data-winner", "true")
    expect(places.last).to_have_attribute("data-name", "Ala")
    expect(page.locator("#h2_dice")).to_have_value("55331")
    fits_the_phone(page)
    screenshot(page, "arbiter-poker-result")


def test_poker_tie_for_best_is_a_draw(page: Page, screenshot):
    page.goto("/sedzia/poker?hands=3&h0_dice=66622&h1_dice=22666&h2_dice=12345")

    page.get_by_role("button", name="Kto wygrywa?").click()

    expect(page.locator("[data-verdict]")).to_contain_text("Remis")
    expect(page.locator("[data-explanation]")).to_contain_text("nikt nie wygrywa rundy")
    fits_the_phone(page)
    screenshot(page, "arbiter-poker-draw")


def test_without_javascript_both_tabs_are_plain_get_forms(
    browser: Browser, browser_context_args: dict[str, Any], base_url: str
):
    context = browser.new_context(
        **{**browser_context_args, "base_url": base_url, "java_script_enabled": False}
    )
    page = context.new_page()

    page.goto("/sedzia")
    expect(page.locator("[data-pad]")).to_be_hidden()
    page.get_by_label("Kości", exact=True).fill("33355")
    page.get_by_role("button", name="Sprawdź rzut").click()
    expect(row(page, "full_house")).to_have_attribute("data-points", "25")
    fits_the_phone(page)

    page.goto("/sedzia/poker")
    page.locator("#h0_dice").fill("55331")
    page.get_by_role("button", name="Dodaj gracza").click()  # a round trip adds the row
    page.locator("#h1_dice").fill("55226")
    page.locator("#h2_name").fill("Ela")
    page.locator("#h2_dice").fill("12346")
    page.locator("#h2_dice").press("Enter")  # Enter ranks the hands, it adds no row
    expect(page.locator("[data-verdict]")).to_have_text("Wygrywa Gracz 1")
    expect(page.locator("[data-explanation]")).to_contain_text("5-5-3-3-1 wygrywa z 5-5-2-2-6")
    fits_the_phone(page)
    context.close()


def test_a_button_left_under_the_finger_does_not_stay_lit_on_a_phone(page: Page):
    """A phone has no hover: after a tap, the browser keeps `:hover` on whatever is under the
    finger, and a screen that changes under it (another phone's turn arriving) lit a button
    nobody touched. Hover colours are for a mouse only (`@media (hover: hover)`)."""
    assert page.evaluate("matchMedia('(hover: none)').matches")
    page.goto("/sedzia/poker")
    for name in ("Kto wygrywa?", "Dodaj gracza"):
        button = page.get_by_role("button", name=name)
        before = button.evaluate("b => getComputedStyle(b).backgroundColor")
        button.hover()
        after = button.evaluate("b => getComputedStyle(b).backgroundColor")
        assert after == before, name
