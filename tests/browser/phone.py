"""Shared steps for phone tests on the table: sign up or in through the forms, start a game,
tap dice and fields. Used by tests/browser and tests/e2e."""

from __future__ import annotations

import re
import time
import uuid

from live import CSRF_META, LiveServer
from playwright.sync_api import Page, Route, expect

from tracker.games.turn import cell_name
from tracker.rules import TABLE_VARIANTS, TableGame, parse_dice

PASSWORD = "tajne hasło 123"

STANDARD = TABLE_VARIANTS["standard"]
TRIPLE = TABLE_VARIANTS["triple"]

# A whole two-player game, turn by turn in seating order: Ala gets her upper bonus, a Generał
# and then a joker with +100 in Szansa; Ola plays a plain, lower game.
ALA = [
    ("11123", "ones"),
    ("22245", "twos"),
    ("33316", "threes"),
    ("44425", "fours"),
    ("55531", "fives"),
    ("66612", "sixes"),
    ("44456", "three_of_a_kind"),
    ("55552", "four_of_a_kind"),
    ("33322", "full_house"),
    ("12346", "small_straight"),
    ("23456", "large_straight"),
    ("66666", "five_of_a_kind"),
    ("66666", "chance"),
]
OLA = [
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
    ("12345", "large_straight"),
    ("55555", "five_of_a_kind"),
    ("65432", "chance"),
]


def no_sideways_scroll(page: Page) -> bool:
    """Nothing wider than the phone's screen. Compared with the profile's width, not with
    `window.innerWidth`: on a mobile profile an overflowing page widens the layout viewport
    (the phone zooms out), so the window grows with the page and that test passes anything."""
    viewport = page.viewport_size
    assert viewport is not None
    width = page.evaluate("document.documentElement.scrollWidth")
    return bool(width <= viewport["width"])


def sign_up(page: Page, family: str = "Rodzina", *, through_form: bool = False) -> str:
    """A new account, signed in on `page` and showing the home page; its name.

    `through_form`: typed into the sign-up form and sent with its button, as a family does.
    Otherwise the same form is sent by the page's own request context (its cookie jar, the
    form page's CSRF token): the server does exactly the same, without a browser filling the
    fields (about a second a test on the CI machine). The form itself is driven in
    tests/browser/test_game_play.py and tests/e2e/test_accounts_and_sessions.py."""
    name = f"{family} {uuid.uuid4().hex[:8]}"
    if through_form:
        page.goto("/rejestracja")
        page.get_by_label("Nazwa konta").fill(name)
        page.get_by_label("Hasło", exact=True).fill(PASSWORD)
        page.get_by_label("Powtórz hasło").fill(PASSWORD)
        page.get_by_role("button", name="Załóż konto").click()
    else:
        form = page.request.get("/rejestracja")
        token = CSRF_META.search(form.text())
        assert form.ok, f"/rejestracja answered {form.status}"
        assert token, "no CSRF token on /rejestracja"
        answer = page.request.post(
            "/rejestracja",
            form={
                "csrf_token": token.group(1),
                "name": name,
                "password": PASSWORD,
                "confirm": PASSWORD,
            },
            max_redirects=0,
        )
        assert answer.status in (302, 303), f"sign-up of {name!r} answered {answer.status}"
        page.goto(answer.headers["location"])
    expect(page.get_by_role("link", name="Nowa gra")).to_be_visible()
    return name


def sign_up_id(page: Page, live_server: LiveServer, family: str = "Rodzina") -> int:
    """`sign_up`, and the new account's id in the server's database."""
    return live_server.account_id(sign_up(page, family))


def start_game(page: Page, variant_name: str, names: list[str]) -> None:
    page.get_by_role("link", name="Nowa gra").click()
    page.get_by_text(variant_name, exact=True).click()
    for index, name in enumerate(names):
        if index >= page.locator("[data-seat]").count():
            page.get_by_role("button", name="+ Dodaj gracza").click()
        page.get_by_label(f"Gracz {index + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Zacznij grę").click()
    expect(page).to_have_url(re.compile(r"/gry/\d+$"))
    expect(page.locator(".turn-name")).to_have_text(names[0])


def tap_dice(page: Page, dice: str) -> None:
    pad = page.locator("[data-pad]")
    for face in dice:
        pad.locator(f'button[data-face="{face}"]').click()
    expect(page.locator("[data-fields] [data-write]").first).to_be_attached()


def field_button(page: Page, field: str, column: int = 0):
    return page.locator(f'[data-fields] button[form="w{column}"][value="{field}"]')


def play_turn(page: Page, game: TableGame, names: list[str], dice: str, field: str, column=0):
    """Tap the dice and the field; check the flash against the rules' own placement."""
    seat = game.current_seat
    assert seat is not None
    expect(page.locator(".turn-name")).to_have_text(names[seat])
    tap_dice(page, dice)
    field_button(page, field, column).click()
    expect(page.get_by_text(written(game, names, dice, field, column), exact=True)).to_be_visible()


def written(game: TableGame, names: list[str], dice: str, field: str, column: int = 0) -> str:
    """Play the turn on `game` (the rules' own model of the game on screen) and return the
    „Zapisano: …” the screen shows for it."""
    seat = game.current_seat
    assert seat is not None
    placement = game.play(parse_dice(dice), field, column)
    colon = ":" if game.variant.columns > 1 else ""
    text = f"Zapisano: {names[seat]} – {cell_name(game.variant, field, column)}{colon} "
    text += str(placement.points)
    if placement.extra_bonus:
        text += f" (+{placement.extra_bonus})"
    if placement.gain != placement.points + placement.extra_bonus:  # ×2, ×3, the upper bonus
        text += f", do wyniku +{placement.gain}"
    return text


def sign_in(page: Page, account: str) -> None:
    """Sign in to `account` through the form."""
    page.goto("/logowanie")
    page.get_by_label("Nazwa konta").fill(account)
    page.get_by_label("Hasło").fill(PASSWORD)
    page.get_by_role("button", name="Zaloguj się").click()
    expect(page.get_by_role("link", name="Nowa gra")).to_be_visible()


def sign_out(page: Page) -> None:
    """Sign out with the account page's button, and wait until the server has done it.

    app.js sends a form only once it has found the server (a /healthz call), so the click
    returns before the form goes: a request sent straight after it could carry the old
    session's cookie and be cut short by the sign-out's answer."""
    page.goto("/konto")
    page.get_by_role("button", name="Wyloguj się").click()
    expect(page).to_have_url(re.compile(r"/logowanie"))
    expect(page.get_by_role("link", name="Nowa gra")).to_have_count(0)


def answer_once_logged(route: Route, server: LiveServer, line: str) -> bool:
    """For a `page.route` handler: send the request on to the server now, and hand its answer
    to the page only once the server's access log holds one more `line` than before (within
    10 s), and half a second later. What the page does meanwhile, its answer on the way (a slow
    network), is what the test sees. Whether the line came.

    Route with a pattern the browser matches itself (a string or a compiled regex, not a
    function), so that no other request waits for this handler; and in a context with
    `service_workers="block"`: the service worker's own fetch of a page is not routed."""

    before = server.logged(line)
    answer = route.fetch(max_redirects=0)  # the server has answered; the page waits
    deadline = time.monotonic() + 10
    while not (came := server.logged(line) > before) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # what the page does with it, it has started doing
    route.fulfill(response=answer)
    return came
