"""Playing at the table on a 360 px phone: sign up, start a game, tap dice and fields.

The live server is shared by the whole session, so every test signs up its own account. Expected
scores come from `tracker.rules`, never typed in by hand.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tracker.rules import TableGame, parse_dice

from .phone import (
    ALA,
    OLA,
    STANDARD,
    TRIPLE,
    field_button,
    no_sideways_scroll,
    play_turn,
    sign_in,
    sign_up,
    start_game,
    tap_dice,
    written,
)


def test_a_family_signs_up_on_the_form_and_plays_by_tapping(page: Page, screenshot):
    """The first minutes of a family: the sign-up form, a new game, turns tapped on one phone
    passed around the table. (A whole game to its end screen, turn by turn with its
    „Zapisano”, is tests/browser/test_live_table.py's three phones.)"""
    sign_up(page, through_form=True)
    expect(page.get_by_role("heading", name="Gry w toku")).to_be_visible()
    assert no_sideways_scroll(page)
    names = ["Ala", "Ola"]
    page.get_by_role("link", name="Nowa gra").click()
    expect(page).to_have_url(re.compile(r"/gry/nowa$"))  # not the page before it
    screenshot(page, "new-game")
    page.go_back()
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)

    for ala, ola in zip(ALA[:3], OLA[:3], strict=True):
        play_turn(page, game, names, *ala)
        play_turn(page, game, names, *ola)
    # Ala: 1-2-3-4-6 with a few fields already filled
    tap_dice(page, "12346")
    expect(field_button(page, "small_straight")).to_contain_text("30")
    assert no_sideways_scroll(page)
    screenshot(page, "turn-standard")
    field_button(page, "small_straight").click()
    expect(
        page.get_by_text(written(game, names, "12346", "small_straight"), exact=True)
    ).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ola")


def test_undo_takes_back_a_turn_and_the_log_marks_it(page: Page):
    sign_up(page)
    names = ["Ala", "Ola"]
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)
    play_turn(page, game, names, "66612", "sixes")
    expect(page.locator(".turn-name")).to_have_text("Ola")

    undo = page.get_by_role("button", name=re.compile("Cofnij ostatni ruch"))
    expect(undo).to_contain_text("Ala – Szóstki 18")
    undo.click()

    expect(page.get_by_text("Cofnięto: Ala – Szóstki 18.")).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ala")
    # The roll stays on screen: the right field is one tap away.
    expect(field_button(page, "three_of_a_kind")).to_contain_text("21")
    field_button(page, "three_of_a_kind").click()
    expect(page.get_by_text("Zapisano: Ala – Trzy jednakowe 21")).to_be_visible()

    page.get_by_role("link", name="Pełna tabela").click()
    log = page.locator(".log li")
    expect(log).to_have_count(2)
    expect(log.nth(1)).to_contain_text("cofnięty")
    expect(log.nth(1).locator("s")).to_have_text("Ala – Szóstki 18")
    expect(log.nth(0)).not_to_contain_text("cofnięty")


def test_a_zero_where_more_was_possible_asks_first(page: Page, screenshot):
    sign_up(page)
    start_game(page, "Kości (tabela polska)", ["Ala", "Ola"])
    tap_dice(page, "12346")

    field_button(page, "five_of_a_kind").click()
    question = page.get_by_text("Wpisać 0 w polu Generał? Najwięcej teraz: Mały strit za 30 pkt.")
    expect(question).to_be_visible()
    assert no_sideways_scroll(page)
    screenshot(page, "zero-confirmation")
    page.get_by_role("button", name="Nie, inne pole").click()
    expect(question).to_have_count(0)
    expect(page.locator(".turn-name")).to_have_text("Ala")

    field_button(page, "five_of_a_kind").click()
    page.get_by_role("button", name="Tak, wpisz 0").click()
    expect(page.get_by_text("Zapisano: Ala – Generał 0")).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ola")


def test_a_reload_keeps_every_written_turn(page: Page):
    sign_up(page)
    names = ["Ala", "Ola"]
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)
    play_turn(page, game, names, "55531", "fives")
    page.locator('[data-pad] button[data-face="4"]').click()
    page.locator('[data-pad] button[data-face="4"]').click()

    page.reload()

    expect(page.locator(".turn-name")).to_have_text("Ola")
    expect(page.locator(".scores li").first).to_contain_text("15")
    # The two dice typed before the reload are still there: three more make the roll.
    expect(page.locator("[data-turn] [data-dice-input]")).to_have_value("44")
    for face in "412":
        page.locator(f'[data-pad] button[data-face="{face}"]').click()
    field_button(page, "fours").click()
    game.play(parse_dice("44412"), "fours")
    expect(page.get_by_text("Zapisano: Ola – Czwórki 12", exact=True)).to_be_visible()
    page.reload()
    expect(page.locator(".turn-name")).to_have_text("Ala")
    expect(page.locator(".scores li").nth(1)).to_contain_text("12")


def test_the_pad_and_the_fields_are_big_enough_for_a_thumb(page: Page):
    sign_up(page)
    start_game(page, "Kości (tabela polska)", ["Ala"])
    for button in page.locator("[data-pad] button").all():
        box = button.bounding_box()
        assert box is not None
        assert box["width"] >= 48
        assert box["height"] >= 48
    tap_dice(page, "33322")
    for button in page.locator("[data-fields] button[name=field]").all():
        box = button.bounding_box()
        assert box is not None
        assert box["height"] >= 48


def test_triple_shows_three_columns_with_pencil_marks(page: Page, screenshot):
    sign_up(page)
    names = ["Ala", "Ola"]
    start_game(page, "Kości potrójne", names)
    game = TableGame(TRIPLE, 2)
    play_turn(page, game, names, "66666", "five_of_a_kind", 2)
    play_turn(page, game, names, "44412", "fours", 0)
    play_turn(page, game, names, "33322", "full_house", 1)
    play_turn(page, game, names, "12345", "large_straight", 2)

    tap_dice(page, "66612")
    grid = page.locator("[data-fields] .pgrid")
    expect(grid.locator(".pgrid-head")).to_contain_text("×1×2×3")
    # Ala's Generał ×3 is written in ink; her sixes are pencilled in every column.
    row = grid.locator(".pgrid-row", has_text="Generał")
    expect(row.locator(".ink")).to_have_text("50")
    expect(field_button(page, "sixes", 2)).to_contain_text("18")
    assert no_sideways_scroll(page)
    screenshot(page, "turn-triple")
    field_button(page, "sixes", 2).click()
    expect(page.get_by_text("Zapisano: Ala – Szóstki ×3: 18, do wyniku +54")).to_be_visible()
    # A field at the bottom of the long sheet: the „Zapisano” with its undo comes into view,
    # not left far above the thumb.
    tap_dice(page, "65432")
    field_button(page, "chance", 2).click()
    flash = page.locator(".flash-written")
    expect(flash).to_contain_text("Zapisano: Ola – Szansa ×3: 20, do wyniku +60")
    expect(flash).to_be_in_viewport()
    expect(flash.get_by_role("button", name="Cofnij")).to_be_in_viewport()
    screenshot(page, "turn-triple-written-low")


def test_home_lists_the_unfinished_game(page: Page, screenshot):
    sign_up(page)
    start_game(page, "Gra po kolei", ["Ala", "Ola", "Ela"])
    page.get_by_text("Menu", exact=True).click()  # during a game the site menu is folded
    page.get_by_role("link", name="Gry", exact=True).click()
    item = page.locator(".game-item")
    expect(item).to_contain_text("Ala, Ola, Ela")
    expect(item).to_contain_text("Gra po kolei · kolejka 1 z 13")
    assert no_sideways_scroll(page)
    screenshot(page, "home-signed-in")
    item.get_by_role("link", name="Graj dalej").click()
    expect(page.locator(".turn-name")).to_have_text("Ala")


def test_without_javascript_every_step_is_a_plain_form(
    browser: Browser, browser_context_args: dict, screenshot
):
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    page = context.new_page()
    try:
        sign_up(page)
        page.get_by_role("link", name="Nowa gra").click()
        page.get_by_label("Gracz 1", exact=True).fill("Ala")
        page.get_by_role("button", name="+ Dodaj gracza").click()  # a round trip keeps "Ala"
        expect(page.get_by_label("Gracz 1", exact=True)).to_have_value("Ala")
        page.get_by_label("Gracz 3", exact=True).fill("Ola")
        page.get_by_role("button", name="Zacznij grę").click()
        expect(page.locator(".turn-name")).to_have_text("Ala")

        page.get_by_label("Kości", exact=True).fill("12346")
        page.get_by_role("button", name="Pokaż punkty").click()
        expect(page).to_have_url(re.compile(r"\?seq=1&dice=12346"))
        field_button(page, "five_of_a_kind").click()
        question = page.get_by_text("Wpisać 0 w polu Generał? Najwięcej teraz: Mały strit")
        expect(question).to_be_visible()
        screenshot(page, "zero-confirmation-no-js")
        page.get_by_role("button", name="Tak, wpisz 0").click()
        expect(page.get_by_text("Zapisano: Ala – Generał 0")).to_be_visible()
        expect(page.locator(".turn-name")).to_have_text("Ola")
        assert no_sideways_scroll(page)
        screenshot(page, "turn-no-js")
    finally:
        context.close()


def test_tapping_a_die_clears_it_and_typed_dice_work_too(page: Page):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_up(page)
    start_game(page, "Kości (tabela polska)", ["Ala"])
    tap_dice(page, "12346")
    expect(page.locator("[data-pad]")).to_be_hidden()
    expect(page).to_have_url(re.compile(r"\?dice=12346&seq=1$"))

    page.get_by_role("button", name="Kość nr 5: 6 – dotknij, aby usunąć").click()

    expect(page.locator("[data-pad]")).to_be_visible()
    expect(page.locator("[data-fields] [data-write]")).to_have_count(0)
    tap_dice(page, "5")
    expect(field_button(page, "large_straight")).to_contain_text("40")

    page.get_by_label("Kości", exact=True).fill("33322")
    expect(field_button(page, "full_house")).to_contain_text("25")
    expect(page.locator("[data-slots] button").first).to_have_text("3")
    assert errors == []


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("123456", "Wpisano 6 kości – potrzeba dokładnie pięciu. Popraw kości."),
        ("12347", "Kość ma oczka od 1 do 6, a nie 7. Popraw kości."),
    ],
    ids=["a sixth digit", "a 7"],
)
def test_typed_dice_that_are_no_roll_are_said_so_not_cut_to_five(
    page: Page, typed: str, said: str, screenshot
):
    """A sixth digit (or a 7) is a slip somewhere in the five: the dice are not cut to the first
    five and pencilled in as if that were the roll, but refused next to the input, with no
    field to write, until they are five dice again; a reload keeps them as typed."""
    sign_up(page)
    start_game(page, "Kości (tabela polska)", ["Ala", "Ola"])
    dice = page.get_by_label("Kości", exact=True)

    dice.fill(typed)

    error = page.get_by_text(said, exact=True)
    expect(error).to_be_visible()
    expect(dice).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[data-fields] [data-write]")).to_have_count(0)
    expect(page.locator("[data-pad]")).to_be_visible()
    assert no_sideways_scroll(page)
    screenshot(page, "turn-typed-dice-refused")
    page.reload()
    expect(page.get_by_label("Kości", exact=True)).to_have_value(typed)
    expect(error).to_be_visible()

    page.get_by_label("Kości", exact=True).fill("12346")

    expect(error).to_be_hidden()
    expect(page.get_by_label("Kości", exact=True)).not_to_have_attribute("aria-invalid", "true")
    expect(field_button(page, "small_straight")).to_contain_text("30")


def test_a_second_phone_on_the_account_sees_and_continues_the_same_game(
    page: Page, browser: Browser, browser_context_args: dict, base_url: str
):
    account = sign_up(page)
    names = ["Ala", "Ola"]
    start_game(page, "Kości (tabela polska)", names)
    game = TableGame(STANDARD, 2)
    play_turn(page, game, names, "66653", "sixes")
    game_url = page.url

    second = browser.new_context(**{**browser_context_args, "base_url": base_url})
    phone = second.new_page()
    sign_in(phone, account)
    phone.get_by_role("link", name="Graj dalej").first.click()

    expect(phone).to_have_url(game_url)
    play_turn(phone, game, names, "11234", "ones")  # Ola's turn, on the second phone
    page.reload()
    play_turn(page, game, names, "55551", "fives")  # Ala again, back on the first phone
    phone.reload()  # the second phone sees the turn written on the first
    expect(phone.locator(".turn-name")).to_have_text("Ola")
    totals = phone.locator(".scores .scores-total")
    expect(totals).to_have_text([str(score) for score in game.scores])
    second.close()
