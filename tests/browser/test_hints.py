"""„Podpowiedzi” on the phone (360×740, the real server): chosen on the new-game form, the best
field marked after the fifth die, the expected totals on request, every field still in view;
a game without the option shows none of it."""

from __future__ import annotations

import re

from live import SCREENSHOTS_DIR
from playwright.sync_api import Page, expect

from .phone import field_button, no_sideways_scroll, sign_up, tap_dice
from .test_turn_layout import reach

HINTS_LABEL = "Podpowiedzi (najlepsze pole według optymalnej gry)"


def in_view(page: Page, name: str) -> None:
    """What the phone shows without scrolling, as test-results/screenshots/NAME.png."""
    page.screenshot(path=SCREENSHOTS_DIR / f"{name}.png")


def start(page: Page, variant_name: str, names: list[str], *, hints: bool) -> None:
    page.get_by_role("link", name="Nowa gra").click()
    page.get_by_text(variant_name, exact=True).click()
    for index, name in enumerate(names):
        if index >= page.locator("[data-seat]").count():
            page.get_by_role("button", name="+ Dodaj gracza").click()
        page.get_by_label(f"Gracz {index + 1}", exact=True).fill(name)
    box = page.get_by_label(HINTS_LABEL)
    expect(box).not_to_be_checked()  # off by default
    if hints:
        box.check()
        box.scroll_into_view_if_needed()
        in_view(page, "hints-new-game-form")
    page.get_by_role("button", name="Zacznij grę").click()
    expect(page).to_have_url(re.compile(r"/gry/\d+$"))
    expect(page.locator(".turn-name")).to_have_text(names[0])


def test_a_game_with_podpowiedzi_marks_the_best_field_and_shows_expected_totals(page: Page):
    sign_up(page)
    start(page, "Kości (tabela polska)", ["Ala", "Ola"], hints=True)
    expect(page.locator(".turn-head")).to_contain_text("Podpowiedzi włączone")

    tap_dice(page, "12345")

    best = page.locator("[data-fields] [data-hint-best]")
    expect(best).to_have_count(1)
    expect(best).to_have_attribute("value", "large_straight")
    expect(best.locator(".hint-badge")).to_be_visible()
    expect(best.locator(".hint-badge")).to_have_text(re.compile("najlepsze", re.IGNORECASE))
    seen = reach(page)  # the badge sits in the border: all 13 fields stay in view
    assert seen["fields"] == 13
    assert seen["inside"] == 13, seen
    assert seen["swipe"] == 0
    assert no_sideways_scroll(page)
    in_view(page, "hints-standard-5-dice")

    details = page.locator("[data-hint]")
    expect(details.locator(".hint-list")).to_be_hidden()  # on request only
    details.get_by_text("Pokaż oczekiwane punkty").click()
    rows = details.locator(".hint-list tbody tr")
    expect(rows).to_have_count(13)
    expect(rows.first).to_contain_text("Duży strit")
    expect(rows.first).to_contain_text("261,5")
    expect(rows.first).to_contain_text("najlepsze")
    details.scroll_into_view_if_needed()
    assert no_sideways_scroll(page)
    widths = details.evaluate(
        "d => [d.getBoundingClientRect().right,"
        " d.querySelector('table').getBoundingClientRect().right]"
    )
    assert widths[1] <= widths[0], widths  # the table stays inside its box
    in_view(page, "hints-standard-expected")

    field_button(page, "large_straight").click()
    expect(page.get_by_text("Zapisano: Ala – Duży strit 40")).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ola")
    tap_dice(page, "66612")
    expect(page.locator("[data-fields] [data-hint-best]")).not_to_have_count(0)


def test_all_fifteen_scandinavian_fields_stay_in_view_with_the_hint(page: Page):
    sign_up(page)
    start(page, "Tabela skandynawska", ["Ala", "Ola"], hints=True)

    tap_dice(page, "33322")

    expect(page.locator("[data-fields] [data-hint-best] .hint-badge")).not_to_have_count(0)
    seen = reach(page)
    assert seen["fields"] == 15
    assert seen["inside"] == 15, seen
    assert seen["swipe"] == 0
    assert no_sideways_scroll(page)
    in_view(page, "hints-scandinavian-5-dice")


def test_another_phone_of_the_table_sees_the_hint_too(page: Page):
    sign_up(page)
    start(page, "Kości (tabela polska)", ["Ala", "Ola"], hints=True)
    other = page.context.new_page()  # a second phone signed in to the same account
    other.goto(page.url)

    expect(other.locator(".turn-head")).to_contain_text("Podpowiedzi włączone")
    tap_dice(other, "12345")
    expect(other.locator("[data-fields] [data-hint-best]")).to_have_attribute(
        "value", "large_straight"
    )


def test_triple_brings_the_marked_cell_into_view_with_approximate_figures(page: Page):
    sign_up(page)
    start(page, "Kości potrójne", ["Ala", "Ola"], hints=True)

    tap_dice(page, "33322")

    best = page.locator("[data-fields] [data-hint-best]")
    expect(best.first).to_be_in_viewport()
    expect(best.first.locator(".hint-badge")).to_be_visible()
    assert no_sideways_scroll(page)
    in_view(page, "hints-triple-5-dice")
    page.get_by_text("Pokaż oczekiwane punkty").click()
    expect(page.locator("[data-hint] .hint-expected").first).to_have_text(re.compile(r"^≈\d+,\d$"))
    page.locator("[data-hint]").scroll_into_view_if_needed()
    assert no_sideways_scroll(page)
    in_view(page, "hints-triple-expected")


def test_a_game_without_podpowiedzi_shows_none_of_it(page: Page):
    sign_up(page)
    start(page, "Kości (tabela polska)", ["Ala", "Ola"], hints=False)

    tap_dice(page, "12345")

    expect(page.locator("[data-fields] [data-best]")).to_have_count(1)  # the pencil marks
    expect(page.locator("[data-hint-best]")).to_have_count(0)
    expect(page.locator(".hint-badge")).to_have_count(0)
    expect(page.get_by_text("Pokaż oczekiwane punkty")).to_have_count(0)
    expect(page.get_by_text("Podpowiedzi włączone")).to_have_count(0)


def test_dice_poker_does_not_offer_the_hint(page: Page):
    sign_up(page)
    page.get_by_role("link", name="Nowa gra").click()
    box = page.get_by_label(HINTS_LABEL)
    expect(box).to_be_visible()

    page.get_by_text("Poker kościany bez tabeli", exact=True).click()

    expect(box).to_be_hidden()
