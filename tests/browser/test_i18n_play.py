"""The turn screen in English on a 360 px phone (README "Języki"): the dice pad and the five
dice speak English to a screen reader, a 0 is asked about in English, a written turn says so in
English, and nothing scrolls sideways. Polish stays the default (tests/browser/test_game_play.py).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .phone import no_sideways_scroll, sign_up, start_game, tap_dice


def test_a_turn_is_played_in_english_with_the_dice_pad(page: Page, screenshot):
    sign_up(page)
    start_game(page, "Kości (tabela polska)", ["Ala", "Ola"])
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".turn-name")).to_have_text("Ala")
    expect(page.locator(".turn-round")).to_contain_text("Round 1 of 13")

    # The pad and the empty dice, named in English.
    pad = page.get_by_role("group", name="Tap the pips of the next die")
    expect(pad).to_be_visible()
    expect(pad.get_by_role("button", name="Face 6")).to_be_visible()
    slots = page.locator("[data-slots] button")
    expect(slots.nth(0)).to_have_accessible_name("Die 1: empty")
    assert no_sideways_scroll(page)
    screenshot(page, "i18n-en-turn-before-dice")

    # Four dice: each tap is said in English; a tapped die is cleared and said so.
    pad.get_by_role("button", name="Face 6").click()
    said = page.locator("[data-dice-said]")
    expect(said).to_have_text("Die 1: 6.")
    expect(slots.nth(0)).to_have_accessible_name("Die 1: 6 – tap to clear")
    slots.nth(0).click()
    expect(said).to_have_text("Die 1: cleared.")
    expect(slots.nth(0)).to_have_accessible_name("Die 1: empty")

    # Five sixes: the last tap says all five; the fields are pencilled in.
    tap_dice(page, "66666")
    expect(said).to_have_text("Die 5: 6. Five dice: 6-6-6-6-6.")
    assert no_sideways_scroll(page)
    screenshot(page, "i18n-en-turn-after-dice")

    # A 0 in Ones where the Generał scores 50: the question and its answers in English.
    page.locator('[data-fields] button[form="w0"][value="ones"]').click()
    question = page.locator(".confirm-box [data-question]")
    expect(question).to_have_text(re.compile(r"^Write 0 in .+\? Most points now: .+ for 50 pts\.$"))
    expect(page.get_by_role("button", name="Yes, write 0")).to_be_visible()
    page.get_by_role("button", name="No, another field").click()
    expect(page.locator(".confirm-box")).to_have_count(0)

    # Written: the flash and its undo button in English.
    page.locator('[data-fields] button[form="w0"][value="five_of_a_kind"]').click()
    written = page.locator(".flash-written")
    expect(written.locator("p")).to_have_text(re.compile(r"^Written: Ala – .+ 50$"))
    expect(written.get_by_role("button", name=re.compile(r"^Undo move Ala – "))).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ola")
    expect(page.get_by_role("button", name=re.compile(r"^Undo the last move"))).to_be_visible()
    assert no_sideways_scroll(page)

    # The full sheet, and the phone-joining page, in English.
    page.get_by_role("link", name="Full sheet").click()
    expect(page.get_by_role("heading", name="Sheet", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Move history")).to_be_visible()
    expect(page.locator(".log-round").first).to_have_text("round 1")
    expect(page.locator(".sheet .row-total th")).to_have_text("Total")
    screenshot(page, "i18n-en-sheet")
    page.get_by_role("link", name="Back to the game").click()
    page.get_by_role("link", name="Add a phone").click()
    expect(page.get_by_role("heading", name="Add a phone")).to_be_visible()
    page.get_by_role("button", name="Show the QR code").click()
    expect(page.get_by_role("heading", name="Scan to play")).to_be_visible()
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    assert no_sideways_scroll(page)
    screenshot(page, "i18n-en-join")


def words_cut_in_the_sheet(page: Page) -> list[str]:
    """Words of the full sheet's row and column labels split across two lines (a line may break
    after a space or a hyphen, never inside a word)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.sheet th')].flatMap(th => {
            const cut = [];
            const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
            for (let text; (text = walker.nextNode()); ) {
                if (getComputedStyle(text.parentElement).position === 'absolute') continue;
                for (const word of text.textContent.matchAll(/[^\\s-]+-?/g)) {
                    const range = document.createRange();
                    range.setStart(text, word.index);
                    range.setEnd(text, word.index + word[0].length);
                    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                    if (lines.size > 1) cut.push(`${word[0]} in ${th.textContent.trim()}`);
                }
            }
            return cut;
        })"""
    )


def test_the_triple_sheet_in_english_cuts_no_label_inside_a_word(page: Page, screenshot):
    """The sheet's label column is 4.6rem wide on a phone: „Column × multiplier” broke as
    „multiplie / r” there (the Polish „Kolumna × mnożnik” fits)."""
    sign_up(page)
    start_game(page, "Kości potrójne", ["Ala", "Ola"])
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")

    page.goto(page.url + "/tabela")

    expect(page.locator(".sheet tbody th").last).to_be_visible()
    assert words_cut_in_the_sheet(page) == []
    screenshot(page, "i18n-en-triple-sheet")
