"""Correcting an earlier turn on a 360 px phone: from the full sheet's turn log to the
correction page, the dice tapped again and another field chosen, back to the game.

Expected scores come from `tracker.rules`, never typed in by hand.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tracker.rules import TableGame, correct_turn, parse_dice

from .phone import STANDARD, no_sideways_scroll, play_turn, sign_up, start_game

# Ala rolled 4-4-4-5-5 in her second turn but typed 4-4-4-5-6 into Trzy jednakowe.
TURNS = [
    ("66666", "five_of_a_kind"),  # 1 Ala
    ("12345", "large_straight"),  # 2 Ola
    ("44456", "three_of_a_kind"),  # 3 Ala: the mistake
    ("23456", "small_straight"),  # 4 Ola
    ("66612", "sixes"),  # 5 Ala
]


def test_an_earlier_turn_is_corrected_from_the_turn_log(page: Page, screenshot):
    names = ["Ala", "Ola"]
    sign_up(page)
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)
    for dice, field in TURNS:
        play_turn(page, game, names, dice, field)

    page.get_by_role("link", name="Pełna tabela").click()
    page.get_by_role("link", name="Popraw ruch 3").click()
    expect(page.get_by_role("heading", name="Popraw ruch 3")).to_be_visible()
    expect(page.get_by_label("Kości", exact=True)).to_have_value("44456")
    expect(page.get_by_label("Pole")).to_have_value("0:three_of_a_kind")
    assert no_sideways_scroll(page)
    screenshot(page, "correction")

    # Five dice in: no pad, whose next tap would start a whole new roll. A tap on the wrong
    # die clears it, and the pad fills it.
    pad = page.locator("[data-pad]")
    expect(pad).to_be_hidden()
    expect(page.get_by_text("Dotknij kości, którą chcesz zmienić.")).to_be_visible()
    page.get_by_role("button", name="Kość nr 5: 6").click()
    expect(pad).to_be_visible()
    expect(pad.locator('button[data-face="1"]')).to_be_focused()
    page.keyboard.press("5")  # the pad takes the keys 1–6
    expect(page.get_by_label("Kości", exact=True)).to_have_value("44455")
    expect(pad).to_be_hidden()
    expect(page.get_by_label("Pole")).to_be_focused()  # not the page: the next control
    page.get_by_label("Pole").select_option(label="Ful")
    page.get_by_role("button", name="Zapisz poprawkę").click()

    expected = correct_turn(STANDARD, 2, None, game.turns, 2, parse_dice("44455"), "full_house")
    assert expected.after.points == 25
    expect(page).to_have_url(re.compile(r"/gry/\d+$"))
    expect(
        page.get_by_text(
            "Poprawiono ruch 3: Ala – Trzy jednakowe 23 (4-4-4-5-6) → Ful 25 (4-4-4-5-5).",
            exact=True,
        )
    ).to_be_visible()
    ala_total = page.locator(".scores li").first.locator(".scores-total")
    expect(ala_total).to_have_text(str(expected.state.scores[0]))
    expect(page.locator(".turn-name")).to_have_text("Ola")  # the game goes on where it was

    page.get_by_role("link", name="Pełna tabela").click()
    log = page.locator(".log li")
    expect(log.first).to_contain_text("Ala – Ful 25")
    expect(log.first).to_contain_text("poprawka")
    expect(log.filter(has_text="Ala – Trzy jednakowe 23")).to_contain_text("poprawiony")
    assert no_sideways_scroll(page)
    screenshot(page, "correction-log")

    # A mistyped roll is refused next to the dice, as typed.
    page.get_by_role("link", name="Popraw ruch 4").click()
    page.get_by_label("Kości", exact=True).fill("2345")
    page.get_by_role("button", name="Zapisz poprawkę").click()
    expect(page.locator("#dice-error")).to_have_text("Potrzeba dokładnie pięciu kości, podano 4.")
    expect(page.get_by_label("Kości", exact=True)).to_have_value("2345")
    assert no_sideways_scroll(page)
    screenshot(page, "correction-refused")

    # Sent with no connection: the page and the typed dice stay, the banner says nothing was
    # sent, and „Ponów” sends it once the Wi-Fi is back.
    page.context.set_offline(True)
    page.get_by_label("Kości", exact=True).fill("23455")
    page.get_by_role("button", name="Zapisz poprawkę").click()
    banner = page.locator(".net-banner")
    expect(banner).to_contain_text("Brak połączenia z serwerem – nic nie wysłano.")
    expect(page.get_by_label("Kości", exact=True)).to_have_value("23455")
    screenshot(page, "correction-offline")
    page.context.set_offline(False)
    banner.get_by_role("button", name="Ponów").click()
    expect(page.get_by_text(re.compile(r"^Poprawiono ruch 4: Ola – Mały strit"))).to_be_visible()


def test_a_correction_to_a_needless_zero_asks_first_on_the_phone(page: Page, screenshot):
    """Ola's small straight moved to Generał by a slip in the field list: a 0 where the
    straight gives 30. The page asks, as a turn does; „Tak, wpisz 0” writes it."""
    names = ["Ala", "Ola"]
    sign_up(page)
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)
    for dice, field in TURNS[:4]:
        play_turn(page, game, names, dice, field)
    page.get_by_role("link", name="Pełna tabela").click()
    page.get_by_role("link", name="Popraw ruch 4").click()

    page.get_by_label("Pole").select_option(label="Generał")
    page.get_by_role("button", name="Zapisz poprawkę").click()

    question = page.locator(".confirm-question")
    expect(question).to_have_text("Wpisać 0 w polu Generał? Najwięcej teraz: Mały strit za 30 pkt.")
    expect(page.get_by_label("Pole")).to_have_value("0:five_of_a_kind")
    assert no_sideways_scroll(page)
    screenshot(page, "correction-zero-question")
    page.get_by_role("button", name="Tak, wpisz 0").click()

    expect(page).to_have_url(re.compile(r"/gry/\d+$"))
    expect(page.get_by_text(re.compile(r"Poprawiono ruch 4: Ola – Mały strit 30"))).to_be_visible()
