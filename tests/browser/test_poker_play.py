"""Dice poker on one 360 px phone passed around the table: four players, a match to 3 round wins.

Every round's winner, the reason and the match result come from `tracker.rules.PokerMatch`,
never typed in by hand.
"""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from tracker.rules import PokerMatch, PokerOptions, classify, parse_dice

NAMES = ["Ala", "Ola", "Ela", "Jan"]
TARGET = 3
# Round by round, in seating order: a full house of sixes beats one of fives, a kicker decides
# between two fours of a kind, two equal two pairs draw, then Jan takes two more rounds.
ROUNDS = [
    ["55522", "23456", "33312", "66611"],
    ["44441", "44446", "12346", "22334"],
    ["22446", "44226", "11235", "65431"],
    ["33345", "11345", "22456", "55551"],
    ["12345", "66543", "11456", "44444"],
]
# In round 4 Jan first taps a wrong roll, sees the round go to Ala, and takes it back.
MISTAKE = (3, 3, "12346")


def no_sideways_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def sign_up(page: Page) -> None:
    page.goto("/rejestracja")
    page.get_by_label("Nazwa konta").fill(f"Rodzina {uuid.uuid4().hex[:8]}")
    page.get_by_label("Hasło", exact=True).fill("tajne hasło 123")
    page.get_by_label("Powtórz hasło").fill("tajne hasło 123")
    page.get_by_role("button", name="Załóż konto").click()
    expect(page.get_by_role("link", name="Nowa gra")).to_be_visible()


def assert_big_enough(page: Page, selector: str) -> None:
    buttons = page.locator(selector).all()
    assert buttons
    for button in buttons:
        box = button.bounding_box()
        assert box is not None
        assert box["width"] >= 48, selector
        assert box["height"] >= 48, selector


def tap_hand(page: Page, dice: str) -> None:
    """Tap the five dice on the pad; the screen names the hand before it is written."""
    pad = page.locator("[data-pad]")
    for face in dice:
        pad.locator(f'button[data-face="{face}"]').click()
    label = classify(parse_dice(dice)).hand.label
    expect(page.locator("[data-fields] [data-hand-label]")).to_have_text(label)


def enter_hand(page: Page, match: PokerMatch, dice: str) -> None:
    seat = match.current_seat
    assert seat is not None
    expect(page.locator(".turn-name")).to_have_text(NAMES[seat])
    tap_hand(page, dice)
    page.get_by_role("button", name="Zapisz układ").click()
    decided = match.play(parse_dice(dice))
    if not decided.complete:
        value = classify(parse_dice(dice))
        saved = f"Zapisano: {NAMES[seat]} – {value.hand.label} {value.shown}"
        expect(page.get_by_text(saved, exact=True)).to_be_visible()


def expect_round_result(page: Page, match: PokerMatch) -> None:
    decided = match.rounds[-1]
    assert decided.complete
    if match.finished:
        return
    result = page.locator(".round-result")
    expect(result.locator(".turn-round")).to_have_text(f"Wynik rundy {decided.number}")
    if decided.winners:
        verdict = f"Rundę wygrywa {NAMES[decided.winners[0]]}"
    else:
        verdict = "Remis – nikt nie wygrywa rundy"
    expect(result.locator("[data-verdict]")).to_have_text(verdict)
    expect(result.locator("[data-explanation]")).to_have_text(decided.explanation)
    expect(page.locator(".scores .scores-total")).to_have_text([str(w) for w in match.round_wins])


def test_four_players_play_a_match_to_three_round_wins_on_one_phone(page: Page, screenshot):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_up(page)
    page.get_by_role("link", name="Nowa gra").click()
    target = page.get_by_role("group", name="Do ilu wygranych rund")
    expect(target).to_be_hidden()  # only for poker
    page.get_by_text("Poker kościany bez tabeli", exact=True).click()
    expect(target).to_be_visible()
    expect(target.get_by_role("radio", name="3")).to_be_checked()
    assert_big_enough(page, ".wins-choice span")
    for index, name in enumerate(NAMES):
        if index >= page.locator("[data-seat]").count():
            page.get_by_role("button", name="+ Dodaj gracza").click()
        page.get_by_label(f"Gracz {index + 1}", exact=True).fill(name)
    assert no_sideways_scroll(page)
    screenshot(page, "poker-new-game")
    page.get_by_role("button", name="Zacznij grę").click()
    expect(page).to_have_url(re.compile(r"/gry/\d+$"))
    expect(page.locator(".turn-round")).to_have_text("Runda 1 · gracie do 3 wygranych")
    assert_big_enough(page, "[data-pad] button")

    match = PokerMatch(len(NAMES), PokerOptions(target_wins=TARGET))
    for round_index, hands in enumerate(ROUNDS):
        for seat, dice in enumerate(hands):
            if (round_index, seat) == MISTAKE[:2]:
                take_back_a_mistaken_hand(page, match, MISTAKE[2], dice)
            elif round_index == 1 and seat == 2:
                tap_hand(page, dice)  # the round in progress, the hand named before writing
                assert_big_enough(page, "[data-fields] button")
                assert no_sideways_scroll(page)
                screenshot(page, "poker-round")
                page.get_by_role("button", name="Zapisz układ").click()
                match.play(parse_dice(dice))
            else:
                enter_hand(page, match, dice)
        expect_round_result(page, match)
        if round_index == 2:
            assert no_sideways_scroll(page)
            screenshot(page, "poker-round-result")
        if match.finished:
            break

    assert match.finished
    assert match.winner == NAMES.index("Jan")
    score = ":".join(str(w) for w in sorted(match.round_wins, reverse=True))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Mecz wygrywa Jan {score}")
    expect(page.locator(".standings li").first).to_contain_text("Jan")
    rounds = page.locator(".round-item")
    expect(rounds).to_have_count(len(match.rounds))
    for item, decided in zip(rounds.all(), reversed(match.rounds), strict=True):
        expect(item.locator("[data-explanation]")).to_have_text(decided.explanation)
    expect(page.get_by_role("button", name="Rewanż")).to_be_visible()
    assert no_sideways_scroll(page)
    screenshot(page, "poker-finished")

    page.get_by_role("link", name="Historia układów").click()
    expect(page.locator(".log li")).to_have_count(sum(len(r) for r in ROUNDS) + 1)
    expect(page.locator(".log .is-undone s")).to_have_text("Jan – Nic (żaden układ) 6-4-3-2-1")
    assert no_sideways_scroll(page)
    screenshot(page, "poker-history")

    page.go_back()
    page.get_by_role("button", name="Rewanż").click()
    expect(page.get_by_text("Rewanż! Zaczyna Ola.")).to_be_visible()
    expect(page.locator(".turn-name")).to_have_text("Ola")
    assert errors == []


def take_back_a_mistaken_hand(page: Page, match: PokerMatch, wrong: str, right: str) -> None:
    """The last hand of a round entered wrong: the round is decided, then undone and redone."""
    mistaken = PokerMatch.replay(
        match.players,
        [hand.dice for r in match.rounds for _, hand in r.hands] + [parse_dice(wrong)],
        match.options,
    )
    expect(page.locator(".turn-name")).to_have_text("Jan")
    tap_hand(page, wrong)
    page.get_by_role("button", name="Zapisz układ").click()
    expect_round_result(page, mistaken)

    undo = page.get_by_role("button", name=re.compile("Cofnij ostatni układ"))
    expect(undo).to_contain_text("Jan – Nic (żaden układ) 6-4-3-2-1 · i wynik rundy 4")
    undo.click()
    expect(page.get_by_text(re.compile(r"^Cofnięto: Jan – .* i wynik rundy 4\."))).to_be_visible()
    expect(page.locator(".round-result")).to_have_count(0)
    expect(page.locator(".turn-name")).to_have_text("Jan")
    # The wrong dice stay on the pad's slots: tap each to clear it, then tap the right ones.
    for index, face in enumerate(wrong, start=1):
        page.get_by_role("button", name=f"Kość nr {index}: {face} – dotknij, aby usunąć").click()
    tap_hand(page, right)
    page.get_by_role("button", name="Zapisz układ").click()
    match.play(parse_dice(right))


def test_the_match_survives_a_reload_and_works_without_javascript(
    browser, browser_context_args, screenshot
):
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    page = context.new_page()
    try:
        sign_up(page)
        page.get_by_role("link", name="Nowa gra").click()
        page.get_by_label("Poker kościany bez tabeli").check()
        page.get_by_role("radio", name="2", exact=True).check()
        page.get_by_label("Gracz 1", exact=True).fill("Ala")
        page.get_by_label("Gracz 2", exact=True).fill("Ola")
        page.get_by_role("button", name="Zacznij grę").click()
        expect(page.locator(".turn-round")).to_have_text("Runda 1 · gracie do 2 wygranych")

        for dice in ("66666", "12346"):
            page.get_by_label("Kości", exact=True).fill(dice)
            page.get_by_role("button", name="Pokaż układ").click()
            label = classify(parse_dice(dice)).hand.label
            expect(page.locator("[data-hand-label]")).to_have_text(label)
            if dice == "12346":
                assert no_sideways_scroll(page)
                screenshot(page, "poker-no-js")
            page.get_by_role("button", name="Zapisz układ").click()
        expect(page.locator("[data-verdict]")).to_have_text("Rundę wygrywa Ala")
        page.reload()
        expect(page.locator("[data-verdict]")).to_have_text("Rundę wygrywa Ala")
        expect(page.locator(".turn-name")).to_have_text("Ala")
        assert no_sideways_scroll(page)
    finally:
        context.close()
