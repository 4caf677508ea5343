"""The app on the phone, in Chromium against `flask serve`: the service worker at work (the shell
kept, no page kept, the offline page when the network is gone or a gateway answers for the
server while it restarts, and how it comes back by itself), dark mode drawn by the system's
setting and by the switch, with and without JavaScript, and the screen kept on in a game.

`base_url` is http://127.0.0.1:…, a secure context like HTTPS (a plain LAN address is not):
browsers run service workers and the wake lock there."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from live import PHONE_VIEWPORT, LiveServer
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tracker import create_app
from tracker.extensions import db
from tracker.rules import TABLE_VARIANTS, TableGame

from .gateway import Gateway, gateway_to
from .phone import field_button, play_turn, sign_up, start_game, tap_dice

STANDARD_NAME = "Kości (tabela polska)"
LIGHT_BG = "rgb(245, 243, 238)"  # --bg of static/css/app.css
DARK_BG = "rgb(18, 20, 22)"

# navigator.wakeLock as a test double: every request is recorded in window.wakeLocks, and each
# lock it hands out can be released as the browser would when the page is hidden.
WAKE_LOCK_STUB = """
window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request: async (type) => {
      const sentinel = new EventTarget();
      sentinel.type = type;
      sentinel.released = false;
      sentinel.release = async () => {
        sentinel.released = true;
        sentinel.dispatchEvent(new Event("release"));
      };
      window.wakeLocks.push(sentinel);
      return sentinel;
    },
  },
});
"""


# Every element with text of its own, drawn: its colour against the background it is drawn on
# (the nearest backgrounds up the tree, blended), below 4.5:1.
UNREADABLE_TEXT = """() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3]));
  const drawnOn = (element) => {
    const layers = [];
    for (let e = element; e; e = e.parentElement) {
      const colour = parse(getComputedStyle(e).backgroundColor);
      if (colour && colour[3] > 0) layers.push(colour);
      if (colour && colour[3] === 1) break;
    }
    return layers.reverse().reduce((below, top) => over(top, below), [255, 255, 255]);
  };
  const luminance = (c) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const low = [];
  for (const element of document.querySelectorAll("body *")) {
    const own = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || element.getClientRects().length === 0) continue;
    if (element.closest("[disabled], [aria-disabled=true], .visually-hidden, option")) continue;
    const style = getComputedStyle(element);
    if (style.visibility === "hidden") continue;
    const r = ratio(parse(style.color), drawnOn(element));
    if (r < 4.5) {
      const text = element.textContent.trim().slice(0, 30);
      low.push(`${element.tagName}.${element.className} ${r.toFixed(2)}: ${text}`);
    }
  }
  return low;
}"""


def unreadable_text(page: Page) -> list[str]:
    return page.evaluate(UNREADABLE_TEXT)


def background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def wait_until(
    page: Page, expression: str, timeout: float = 10, explain: str | None = None
) -> None:
    """Poll `expression` in the page until it is true (`page.wait_for_function` polls with
    `eval`, which the app's Content-Security-Policy forbids). `explain`: an expression whose
    value the failure message shows (what the page was doing)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() >= deadline:
            state = page.evaluate(explain) if explain else None
            raise AssertionError(f"still false after {timeout} s: {expression} ({state})")
        page.wait_for_timeout(50)


# Where the page and its service worker stand, for a failure message.
WORKER_STATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const state = (worker) => (worker ? worker.state : null);
  return {
    page: location.pathname,
    ready: document.readyState,
    registered: Boolean(registration),
    installing: state(registration && registration.installing),
    waiting: state(registration && registration.waiting),
    active: state(registration && registration.active),
  };
}"""


def worker_in_control(page: Page) -> None:
    """Wait until the service worker is installed, active and controls the page. Installing
    it fetches the whole app shell: on a busy machine (the end-to-end tests' servers on the
    other core) that has taken over 10 s once, so it gets 30."""
    wait_until(page, "navigator.serviceWorker.controller !== null", 30, WORKER_STATE)


def cached_paths(page: Page) -> dict[str, list[str]]:
    return page.evaluate(
        """async () => {
          const found = {};
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            found[name] = (await cache.keys()).map((r) => new URL(r.url).pathname).sort();
          }
          return found;
        }"""
    )


def test_worker_keeps_the_shell_and_shows_the_offline_page_without_network(
    page: Page, context: BrowserContext, base_url: str, screenshot
):
    sign_up(page)
    worker_in_control(page)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)")
    assert scope == f"{base_url}/"
    start_game(page, STANDARD_NAME, ["Ala", "Ola"])
    game_url = page.url
    page.goto("/zasady")
    page.goto(game_url)

    caches = cached_paths(page)
    assert len(caches) == 1, caches
    [(name, paths)] = caches.items()
    assert re.fullmatch(r"kosci-[0-9a-f]{16}", name)
    assert {"/static/css/app.css", "/static/js/app.js", "/static/js/turn.js", "/offline"} <= set(
        paths
    )
    # No page of the account, nor any other page, is kept: only the shell and the offline page
    # (in each language, and the language the pages said, also under /offline).
    assert all(p.startswith("/static/") or p == "/offline" for p in paths), paths
    kept = cached_urls(page)
    assert {"/offline?lang=pl", "/offline?lang=en"} <= kept
    kept_offline = page.evaluate("caches.match('/offline?lang=pl').then((r) => r.text())")
    assert "Brak połączenia z serwerem" in kept_offline
    assert "/konto" not in kept_offline  # kept signed out: no account's links

    context.set_offline(True)
    page.reload()

    expect(page.get_by_role("heading", name="Brak połączenia z serwerem")).to_be_visible()
    assert page.url == game_url
    retry = page.get_by_role("link", name="Spróbuj ponownie")
    expect(retry).to_be_visible()
    assert retry.evaluate("(a) => a.href") == game_url  # opens the game again, not /offline
    assert retry.bounding_box()["height"] >= 48
    assert background(page) == LIGHT_BG  # the cached CSS is applied
    expect(page.locator(".site-nav")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "pwa-offline")

    context.set_offline(False)  # back on the Wi-Fi: the page tries again by itself

    expect(page.locator(".turn-name")).to_have_text("Ala")
    assert page.url == game_url


def cached_urls(page: Page) -> set[str]:
    """Every URL the worker keeps, path and query."""
    return set(
        page.evaluate(
            """async () => {
              const found = [];
              for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const r of await cache.keys()) {
                  const url = new URL(r.url);
                  found.push(url.pathname + url.search);
                }
              }
              return found;
            }"""
        )
    )


# The language the pages last told the worker (static/js/sw.js keeps it in its cache).
SAID = "caches.match('/offline?language').then((r) => (r ? r.text() : ''))"
SAID_LANGUAGE = SAID + ".then((said) => said === 'LANGUAGE')"


def said_language(page: Page) -> str:
    return page.evaluate(SAID)


def test_the_offline_page_speaks_the_language_of_the_pages(
    page: Page, context: BrowserContext, screenshot
):
    """Kept in both languages at install (without cookies); shown in the one the pages said
    last, and again in Polish once the family switches back."""
    sign_up(page)
    worker_in_control(page)
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the page drawn again
    page.wait_for_load_state()
    wait_until(page, SAID_LANGUAGE.replace("LANGUAGE", "en"))
    page.goto("/zasady")

    context.set_offline(True)
    page.reload()

    expect(page.get_by_role("heading", name="No connection to the server")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.get_by_role("link", name="Try again")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "pwa-offline-en")

    context.set_offline(False)  # the offline page opens the rules again by itself
    expect(page.locator(".language-switch")).to_be_visible()
    expect(page.get_by_role("heading", name="No connection to the server")).to_have_count(0)
    page.get_by_role("button", name="Polski").click()
    expect(page.locator("html")).to_have_attribute("lang", "pl")  # the page drawn again
    page.wait_for_load_state()
    wait_until(page, SAID_LANGUAGE.replace("LANGUAGE", "pl"))
    assert said_language(page) == "pl"
    context.set_offline(True)
    page.reload()

    expect(page.get_by_role("heading", name="Brak połączenia z serwerem")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "pl"
    context.set_offline(False)


def test_dark_mode_follows_the_system_until_the_switch_says_otherwise(page: Page):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.emulate_media(color_scheme="light")
    page.goto("/zasady")
    assert background(page) == LIGHT_BG

    page.emulate_media(color_scheme="dark")
    assert background(page) == DARK_BG
    expect(page.get_by_role("button", name="Auto")).to_have_attribute("aria-pressed", "true")

    page.evaluate("window.sameDocument = true")
    page.get_by_role("button", name="Jasny").click()

    assert background(page) == LIGHT_BG
    assert page.evaluate("window.sameDocument"), "applied by app.js at once, with no page load"
    expect(page.get_by_role("button", name="Jasny")).to_have_attribute("aria-pressed", "true")
    expect(page.locator('meta[name="color-scheme"]')).to_have_attribute("content", "light")
    page.reload()  # remembered: drawn light by the server, although the phone says dark
    assert background(page) == LIGHT_BG
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    bars = page.locator('meta[name="theme-color"]')
    expect(bars.nth(1)).to_have_attribute("content", "#0a58a8")

    page.emulate_media(color_scheme="light")
    page.get_by_role("button", name="Ciemny").click()
    assert background(page) == DARK_BG
    expect(bars.nth(0)).to_have_attribute("content", "#1c1f23")
    page.goto("/sedzia")
    assert background(page) == DARK_BG
    expect(page.locator('meta[name="color-scheme"]')).to_have_attribute("content", "dark")

    page.get_by_role("button", name="Auto").click()
    assert background(page) == LIGHT_BG
    expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
    page.reload()
    assert background(page) == LIGHT_BG
    page.emulate_media(color_scheme="dark")
    assert background(page) == DARK_BG
    assert not errors


def test_the_switch_works_without_javascript(new_context):
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/zasady#tabela")

    page.get_by_role("button", name="Ciemny").click()  # the form: POST, then back to the page

    expect(page).to_have_url(re.compile(r"/zasady$"))
    # The URL changes when the answer starts to arrive, before its stylesheet has loaded.
    page.wait_for_load_state("load")
    assert background(page) == DARK_BG
    expect(page.get_by_role("button", name="Ciemny")).to_have_attribute("aria-pressed", "true")


def test_every_text_of_a_game_is_readable_in_both_themes(page: Page, screenshot):
    """The turn screen with its pencilled values, the sheet and the other pages: WCAG AA
    contrast for every piece of text, on the background it is really drawn on."""
    sign_up(page)
    names = ["Ala", "Ola"]
    start_game(page, STANDARD_NAME, names)
    game = TableGame(TABLE_VARIANTS["standard"], 2)
    play_turn(page, game, names, "66612", "sixes")
    play_turn(page, game, names, "11456", "ones")
    tap_dice(page, "55523")
    expect(field_button(page, "fives")).to_contain_text("15")
    game_url = page.url.split("?")[0]

    for scheme, colour in (("light", LIGHT_BG), ("dark", DARK_BG)):
        page.emulate_media(color_scheme=scheme)
        assert background(page) == colour
        assert unreadable_text(page) == []
        screenshot(page, f"pwa-turn-{scheme}")

    page.goto(f"{game_url}/tabela")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert unreadable_text(page) == []
        screenshot(page, f"pwa-sheet-{scheme}")
    for path in ("/", "/zasady", "/sedzia", "/konto", "/historia", "/statystyki", "/offline"):
        page.goto(path)
        assert background(page) == DARK_BG
        assert unreadable_text(page) == [], path
        screenshot(page, f"pwa-dark-{path.strip('/') or 'home'}")


def test_a_game_keeps_the_screen_on_and_asks_again_when_shown_again(
    page: Page, context: BrowserContext
):
    context.add_init_script(WAKE_LOCK_STUB)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_up(page)
    assert page.evaluate("window.wakeLocks.length") == 0  # not on the home page

    start_game(page, STANDARD_NAME, ["Ala", "Ola"])

    wait_until(page, "window.wakeLocks.length === 1")
    assert page.evaluate("window.wakeLocks[0].type") == "screen"
    # Hidden and shown again: the browser released the lock; the page asks for a new one.
    page.evaluate(
        """() => {
          window.wakeLocks[0].release();
          document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    wait_until(page, "window.wakeLocks.length === 2")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(100)
    assert page.evaluate("window.wakeLocks.length") == 2  # one lock held: nothing more to ask
    assert not errors


def test_without_a_wake_lock_a_game_opens_as_ever(page: Page, context: BrowserContext):
    context.add_init_script("delete Navigator.prototype.wakeLock; delete navigator.wakeLock;")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_up(page)

    start_game(page, STANDARD_NAME, ["Ala", "Ola"])

    assert page.evaluate("'wakeLock' in navigator") is False
    assert not errors


# --- behind a gateway, while `serve` restarts -------------------------------------------------

# document.visibilityState as a test double: `window.kosciHidden = true` hides the page.
VISIBILITY_STUB = """
Object.defineProperty(document, "visibilityState", {
  configurable: true,
  get: () => (window.kosciHidden ? "hidden" : "visible"),
});
"""
HIDE = "window.kosciHidden = true; document.dispatchEvent(new Event('visibilitychange'))"
SHOW = "window.kosciHidden = false; document.dispatchEvent(new Event('visibilitychange'))"


@pytest.fixture
def gateway(live_server: LiveServer) -> Iterator[Gateway]:
    """nginx in front of `flask serve` (tests/browser/gateway.py)."""
    with gateway_to(live_server.url) as found:
        yield found


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict, gateway: Gateway) -> Iterator[Page]:
    """A phone that opens Kości through the gateway."""
    context = browser.new_context(**{**browser_context_args, "base_url": gateway.url})
    try:
        yield context.new_page()
    finally:
        context.close()


def wait_for_requests(page: Page, gateway: Gateway, path: str, count: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while len(gateway.asked(path)) < count:
        if time.monotonic() >= deadline:
            raise AssertionError(f"{path} asked {len(gateway.asked(path))} times, not {count}")
        page.wait_for_timeout(100)


def test_while_serve_restarts_behind_a_gateway_the_phone_waits_and_comes_back_by_itself(
    phone: Page, gateway: Gateway, screenshot
):
    """nginx answers 502 itself while `serve` restarts: the phone shows the offline page, not
    nginx's bare page, asks the server again every few seconds (not while hidden) and opens
    the game again by itself once the server answers, without a tap."""
    page = phone
    page.context.add_init_script(VISIBILITY_STUB)
    sign_up(page)
    worker_in_control(page)
    start_game(page, STANDARD_NAME, ["Ala", "Ola"])
    game_url = page.url
    game_path = urlsplit(game_url).path
    stop_the_clock(page)  # the retries' timers run when the test says, not in real time

    gateway.answer(502)  # serve restarts
    page.reload()

    expect(page.get_by_role("heading", name="Brak połączenia z serwerem")).to_be_visible()
    expect(page.get_by_text("502 Bad Gateway")).to_have_count(0)
    assert page.url == game_url
    expect(page.get_by_text("Za chwilę spróbujemy jeszcze raz")).to_be_visible()
    # Its button is in view on the narrowest phone, above the checks for a longer wait.
    box = page.get_by_role("link", name="Spróbuj ponownie").bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= PHONE_VIEWPORT["height"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "pwa-offline-gateway")
    # Hidden (the phone in a pocket), it asks nothing; shown again, it asks at once.
    page.evaluate(HIDE)
    advance(page, 12_000)  # past every delay the page could have set
    page.wait_for_timeout(300)  # time for a request it should not have made to arrive
    assert gateway.asked("/healthz") == []
    page.evaluate(SHOW)
    wait_for_requests(page, gateway, "/healthz", 1, timeout=2)
    # Then again a few seconds later: no storm of requests, and no page loaded in a loop.
    assert_asked_again_seconds_later(page, gateway, "/healthz", asked=1)
    assert len(gateway.asked(game_path)) == 1  # the reload that met the 502

    gateway.pass_on()  # serve is back
    advance(page, 9_000)  # the next try (at most 10 s apart)

    expect(page.locator(".turn-name")).to_have_text("Ala", timeout=5_000)
    assert page.url == game_url


def test_a_page_slower_than_the_gateway_waits_is_not_loaded_again_and_again(
    phone: Page, gateway: Gateway, screenshot
):
    """nginx answers 504 for one page that takes longer than it waits, while the server itself
    answers: the offline page tries that page again by itself twice, then says that the page
    does not open and waits for a tap. Before, it loaded the slow page again every few seconds
    for as long as the phone showed it, each time a heavy request on the server."""
    page = phone
    sign_up(page)
    worker_in_control(page)
    start_game(page, STANDARD_NAME, ["Ala", "Ola"])
    game_path = urlsplit(page.url).path
    stop_the_clock(page)
    unreachable = page.get_by_role("heading", name="Brak połączenia z serwerem")
    stuck = page.get_by_role("heading", name="Ta strona się nie otwiera")

    gateway.answer(504, only=game_path)  # /healthz passes: the server answers
    page.reload()
    expect(unreachable).to_be_visible()
    expect(stuck).to_be_hidden()
    for tries in (1, 2):  # /healthz answers, the page is loaded again, and meets the 504 again
        advance(page, 5_000)
        wait_for_requests(page, gateway, game_path, 1 + tries, timeout=5)

    expect(stuck).to_be_visible()
    expect(unreachable).to_be_hidden()
    expect(page.get_by_text("ta strona nie otworzyła się kilka razy z rzędu")).to_be_visible()
    expect(page.get_by_role("link", name="Strona główna")).to_be_visible()
    expect(page.get_by_text("Czy telefon jest w tej samej sieci Wi-Fi")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "pwa-page-too-slow")
    advance(page, 30_000)  # three times the longest delay between tries
    page.wait_for_timeout(300)  # time for a request it should not have made to arrive
    assert len(gateway.asked(game_path)) == 3

    gateway.pass_on()  # the page is quick enough again
    page.get_by_role("link", name="Spróbuj ponownie").click()
    expect(page.locator(".turn-name")).to_have_text("Ala")
    # The page opened: its tries are forgotten, and the next 504 gets its two tries again.
    gateway.answer(504, only=game_path)
    page.reload()
    expect(unreachable).to_be_visible()
    advance(page, 5_000)
    wait_for_requests(page, gateway, game_path, 5, timeout=5)
    expect(unreachable).to_be_visible()
    gateway.pass_on()


def stop_the_clock(page: Page) -> None:
    """The page's clock (and the next page's) stands still until `advance` runs it: installed,
    it would go on in real time, and a test's own slow steps (a screenshot on a busy machine)
    would then count as the page's seconds."""
    start = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))


def advance(page: Page, ms: int) -> None:
    """Run the page's clock (`stop_the_clock`) `ms` ahead, half a second at a time with a
    moment of real time between, so that a request a timer sent gets its answer before the
    clock runs on (in one jump, its 8 s abort timer would fire first)."""
    for _ in range(0, ms, 500):
        page.clock.run_for(500)
        page.wait_for_timeout(25)


def assert_asked_again_seconds_later(page: Page, gateway: Gateway, path: str, asked: int) -> None:
    """After its `asked`-th try a retrying page waits at least 3.6 s (4.5 s less its jitter)
    before it asks `path` again, and asks by 5.4 s: the page's clock (`page.clock`) runs 2 s, then
    4 more."""
    advance(page, 2_000)
    page.wait_for_timeout(300)
    assert len(gateway.asked(path)) == asked, "asked again within 2 s"
    advance(page, 4_000)
    wait_for_requests(page, gateway, path, asked + 1, timeout=2)


def test_the_offline_page_opened_at_its_own_address_stays_put(page: Page):
    """/offline itself (a link, an audit) stands for no other page: it does not load itself
    again and again while the server answers."""
    stop_the_clock(page)
    page.goto("/offline")
    page.evaluate("window.stayed = true")

    advance(page, 12_000)  # past every try of a page the worker put in its place
    page.wait_for_timeout(300)

    assert page.evaluate("window.stayed === true")


def apps_own_answers(tmp_path: Path) -> dict[int, tuple[bytes, dict[str, str]]]:
    """The app's own 500 (a view that failed) and 503 (the database does not answer: a
    PostgreSQL where nothing listens), as `serve` would send them through the gateway."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"postgresql+psycopg://kosci:x@127.0.0.1:{closed}/kosci",
            "SECRET_KEY": "test",
            "TESTING": False,
        },
        instance_path=tmp_path / "instance",
    )

    def fails() -> str:
        raise RuntimeError("a bug")

    app.add_url_rule("/test-fails", "fails", fails)
    client = app.test_client()
    answers = {}
    for status, path in ((500, "/test-fails"), (503, "/logowanie")):
        answer = client.get(path)
        assert answer.status_code == status
        headers = {k: v for k, v in answer.headers.items() if k.lower() != "content-length"}
        answers[status] = (answer.get_data(), headers)
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()
    return answers


def test_the_apps_own_500_and_503_show_as_they_are_a_gateways_gets_the_offline_page(
    phone: Page, gateway: Gateway, tmp_path: Path
):
    """502, 503 and 504 from the gateway itself: the offline page. The app's own 500 and its own
    503 (the database does not answer, which says so) are shown as they are."""
    page = phone
    page.goto("/zasady")
    worker_in_control(page)
    own = apps_own_answers(tmp_path)

    for status in (502, 503, 504):
        gateway.answer(status)
        page.reload()
        expect(page.get_by_role("heading", name="Brak połączenia z serwerem")).to_be_visible()
        expect(page.get_by_text(f"{status} ")).to_have_count(0)

    body, headers = own[500]
    gateway.answer(500, body, headers)
    page.reload()
    expect(page.get_by_role("heading", name="Błąd serwera")).to_be_visible()
    expect(page.get_by_role("heading", name="Brak połączenia z serwerem")).to_have_count(0)

    body, headers = own[503]
    gateway.answer(503, body, headers)
    page.reload()
    expect(page.get_by_text("Baza danych nie odpowiada")).to_be_visible()
    expect(page.get_by_role("heading", name="Brak połączenia z serwerem")).to_have_count(0)
    gateway.pass_on()


def test_the_databases_own_503_page_opens_the_game_by_itself_once_the_database_answers(
    phone: Page, gateway: Gateway, tmp_path: Path, screenshot
):
    """PostgreSQL restarts: the app's own page says the database does not answer (shown as it
    is, not as the offline page), asks /healthz/db a few seconds apart and opens the page that
    was asked for by itself once the database answers, without a tap."""
    page = phone
    sign_up(page)
    start_game(page, STANDARD_NAME, ["Ala", "Ola"])
    game_url = page.url
    body, headers = apps_own_answers(tmp_path)[503]
    stop_the_clock(page)  # the retries' timers run when the test says, not in real time

    gateway.answer(503, body, headers)  # every answer, /healthz/db's too: the database is down
    page.reload()

    expect(page.get_by_text("Baza danych nie odpowiada")).to_be_visible()
    expect(
        page.get_by_text("Gdy baza danych znów odpowie, strona otworzy się sama.")
    ).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "database-unavailable")
    advance(page, 2_000)  # under its first delay (3 s, less a fifth at most)
    page.wait_for_timeout(300)
    assert gateway.asked("/healthz/db") == []
    advance(page, 2_000)  # past it (3.6 s at most)
    wait_for_requests(page, gateway, "/healthz/db", 1, timeout=2)
    assert_asked_again_seconds_later(page, gateway, "/healthz/db", asked=1)  # not a storm
    game_path = urlsplit(game_url).path
    assert len(gateway.asked(game_path)) == 1  # only the reload that met the 503

    gateway.pass_on()  # the database is back
    advance(page, 9_000)  # the next try (at most 10 s apart)

    expect(page.locator(".turn-name")).to_have_text("Ala", timeout=5_000)
    assert page.url == game_url
