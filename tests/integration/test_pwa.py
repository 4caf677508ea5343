"""The app on the phone through the Flask client: the manifest and its icons, the service worker's
script and settings, the offline page, the theme cookie, the wake-lock mark on game pages, and the
colours of both themes (WCAG AA). What only a browser can show (the worker at work, dark mode
drawn, the wake lock asked for) is in tests/browser/test_pwa.py."""

from __future__ import annotations

import json
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from flask import Flask, Response
from flask.testing import FlaskClient

from tracker.errors import OWN_ANSWER_HEADER, mark_own_answer
from tracker.i18n import LANGUAGE_COOKIE
from tracker.main import app_shell

pytestmark = pytest.mark.one_backend("the manifest, the worker and the offline page: no database")

REPO = Path(__file__).resolve().parents[2]
CSS = REPO / "static" / "css"
PASSWORD = "tajne hasło 123"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (its first chunk, IHDR)."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR"
    assert length == 13
    return struct.unpack(">II", data[16:24])


def csrf(client: FlaskClient, url: str = "/zasady") -> str:
    html = client.get(url).get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def html_tag(html: str) -> str:
    match = re.search(r"<html[^>]*>", html)
    assert match
    return match.group(0)


def worker_config(script: str) -> dict:
    match = re.search(r"^const CONFIG = (\{.*\});$", script, re.MULTILINE)
    assert match, "the route fills in the worker's settings"
    return json.loads(match.group(1))


# --- the manifest and the icons ----------------------------------------------------------------


def test_manifest_is_served_as_a_manifest_with_what_installing_needs(client: FlaskClient):
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "Kości"
    assert manifest["short_name"]
    assert manifest["lang"] == "pl"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    # The light theme's colours: the brand blue and the page's background.
    css = palettes()["light"]
    assert manifest["theme_color"] == css["--primary"]
    assert manifest["background_color"] == css["--bg"]


def test_every_icon_of_the_manifest_is_a_png_of_the_size_it_claims(client: FlaskClient):
    icons = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))["icons"]

    kinds = set()
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == "image/png" == icon["type"]
        width, height = png_size(response.get_data())
        assert icon["sizes"] == f"{width}x{height}", icon["src"]
        kinds.add((icon["purpose"], width))
        response.close()
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= kinds


def corner_alpha(data: bytes) -> int:
    """The opacity of a PNG's top-left pixel (8-bit RGB or RGBA, not interlaced). Whatever a row's
    filter, its first pixel is stored as it is: it has no pixel on its left nor above it."""
    width, _ = png_size(data)
    bit_depth, colour_type, _, _, interlace = struct.unpack(">BBBBB", data[24:29])
    assert bit_depth == 8
    assert colour_type in (2, 6)  # RGB, RGBA
    assert interlace == 0
    chunks, offset = [], 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset : offset + 8])
        if kind == b"IDAT":
            chunks.append(data[offset + 8 : offset + 8 + length])
        offset += 12 + length
    first_row = zlib.decompress(b"".join(chunks))[: 1 + width * 4]
    return first_row[4] if colour_type == 6 else 255


def test_the_maskable_and_apple_icons_fill_their_square_and_the_others_do_not():
    """A mask may cut anywhere outside the safe zone and iOS draws transparency black: those
    two are full bleed; the `any` icons are the favicon, with transparent rounded corners."""
    icons = REPO / "static" / "icons"
    assert corner_alpha((icons / "icon-maskable-512.png").read_bytes()) == 255
    assert corner_alpha((icons / "apple-touch-icon.png").read_bytes()) == 255
    assert png_size((icons / "apple-touch-icon.png").read_bytes()) == (180, 180)
    for name in ("icon-192.png", "icon-512.png"):
        assert corner_alpha((icons / name).read_bytes()) == 0, name


def test_pages_link_the_manifest_the_apple_icon_and_both_bar_colours(client: FlaskClient):
    html = client.get("/zasady").get_data(as_text=True)

    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in html
    icon = client.get("/static/icons/apple-touch-icon.png")
    icon.close()
    assert icon.status_code == 200
    bars = dict(
        re.findall(
            r'media="\(prefers-color-scheme: (\w+)\)" data-color="[^"]+"\s+content="([^"]+)"', html
        )
    )
    assert bars == app_shell.THEME_COLORS
    assert '<meta name="color-scheme" content="light dark">' in html


# --- the service worker ------------------------------------------------------------------------


def test_service_worker_is_javascript_from_the_root_with_its_settings(client: FlaskClient):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    # Its scope is the folder it is served from: the root, the whole site; no header widens it.
    assert "Service-Worker-Allowed" not in response.headers
    page = client.get("/zasady").get_data(as_text=True)
    assert 'data-service-worker="/sw.js"' in page
    config = worker_config(response.get_data(as_text=True))
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    # The offline page in every language, the app's default before a page says its own.
    assert config["offline"] == {"pl": "/offline?lang=pl", "en": "/offline?lang=en"}
    assert config["language"] == "pl"
    assert config["static"] == "/static/"
    # What marks a 502, 503 or 504 as the app's own page, shown as it is (tracker/errors.py).
    assert config["ownAnswer"] == OWN_ANSWER_HEADER
    shell = set(config["shell"])
    assert {
        "/static/css/app.css",
        "/static/js/app.js",
        "/static/favicon.svg",
        "/static/icons/icon-192.png",
        "/static/icons/icon-maskable-512.png",
    } <= shell
    assert "/static/js/sw.js" not in shell  # the worker is not part of what it keeps
    for url in shell:  # every file it keeps at install exists (one 404 would fail the install)
        answer = client.get(url)
        assert answer.status_code == 200, url
        answer.close()


def test_an_unchanged_worker_answers_304(client: FlaskClient):
    first = client.get("/sw.js")

    again = client.get("/sw.js", headers={"If-None-Match": first.headers["ETag"]})

    assert again.status_code == 304


def test_the_cache_version_follows_the_shell_files(app: Flask, tmp_path: Path):
    """A deploy that changes a CSS file gets a new cache version, so phones drop the old copy;
    nothing changed, the same version (no needless download of the whole shell)."""
    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static)
    app.static_folder = str(static)
    client = app.test_client()
    before = worker_config(client.get("/sw.js").get_data(as_text=True))["version"]
    assert worker_config(client.get("/sw.js").get_data(as_text=True))["version"] == before

    css = static / "css" / "app.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* next version */\n", encoding="utf-8")

    after = worker_config(client.get("/sw.js").get_data(as_text=True))
    assert after["version"] != before
    (static / "js" / "new.js").write_text("// a new file\n", encoding="utf-8")
    newest = worker_config(client.get("/sw.js").get_data(as_text=True))
    assert newest["version"] != after["version"]
    assert "/static/js/new.js" in newest["shell"]


def test_the_offline_page_says_what_happened_and_how_to_retry(client: FlaskClient):
    response = client.get("/offline")

    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Brak połączenia z serwerem" in html
    # An empty href is the address the phone tried to open: the retry opens it again.
    assert (
        '<a class="btn btn-primary btn-block btn-big" href="" data-retry>Spróbuj ponownie</a>'
        in html
    )
    assert '<body class="offline-page">' in html
    # Shown too while a gateway answers for a server that restarts: it says it tries again.
    assert "Serwer Kości nie odpowiada" in html
    assert "Za chwilę spróbujemy jeszcze raz; gdy serwer odpowie, strona otworzy się sama" in html


@pytest.mark.parametrize(
    ("status", "marked"), [(502, True), (503, True), (504, True), (500, False)]
)
def test_the_apps_own_unavailable_answers_say_they_are_its_own(status: int, marked: bool):
    """A 502, 503 or 504 of the app's carries OWN_ANSWER_HEADER: the service worker shows it as
    it is, and the offline page for a gateway's (tests/integration/test_database_unavailable.py
    has the real one). The worker never looks at other answers: they need no mark."""
    response = mark_own_answer(Response("", status=status))

    assert (response.headers.get(OWN_ANSWER_HEADER) == "app") is marked


def test_the_pages_scripts_read_the_same_mark():
    """app.js tells the app's own 503 (its database away) from a proxy's by this header."""
    app_js = (Path(__file__).resolve().parents[2] / "static" / "js" / "app.js").read_text()

    assert f'response.headers.get("{OWN_ANSWER_HEADER}") === "app"' in app_js


def test_the_apps_pages_carry_no_mark(client: FlaskClient):
    for path in ("/zasady", "/nie-ma-takiej-strony"):
        assert OWN_ANSWER_HEADER not in client.get(path).headers


@pytest.mark.parametrize(
    ("query", "cookie", "lang", "heading"),
    [
        ("?lang=en", None, "en", "No connection to the server"),
        ("?lang=pl", "en", "pl", "Brak połączenia z serwerem"),  # the query wins: kept so
        ("", "en", "en", "No connection to the server"),  # without it, the browser's choice
        ("?lang=xx", None, "pl", "Brak połączenia z serwerem"),
    ],
)
def test_the_offline_page_is_drawn_in_the_language_it_is_asked_for(
    client: FlaskClient, query: str, cookie: str | None, lang: str, heading: str
):
    """The worker keeps it once per language, fetched without cookies (static/js/sw.js)."""
    if cookie:
        client.set_cookie(LANGUAGE_COOKIE, cookie)

    html = client.get(f"/offline{query}").get_data(as_text=True)

    assert f'<html lang="{lang}"' in html
    assert f'<h1 id="offline-heading">{heading}</h1>' in html
    if lang == "en":
        assert "Try again</a>" in html
        assert not re.search("[ąćęłńóśźż]", re.sub(r"<[^>]+>", "", html).replace("Kości", ""))


# --- the theme ---------------------------------------------------------------------------------


def choose_theme(client: FlaskClient, theme: str, next_page: str = "/zasady?x=1") -> Response:
    return client.post(
        "/motyw", data={"csrf_token": csrf(client), "theme": theme, "next": next_page}
    )


def test_no_choice_follows_the_phone(client: FlaskClient):
    html = client.get("/zasady").get_data(as_text=True)

    assert html_tag(html) == '<html lang="pl">'
    assert 'value="auto" aria-pressed="true"' in html


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_chosen_theme_is_remembered_and_drawn_by_the_server(client: FlaskClient, theme: str):
    response = choose_theme(client, theme)

    assert response.status_code == 302
    assert response.headers["Location"] == "/zasady?x=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"theme={theme};")
    assert {"SameSite=Lax", "Path=/", "Max-Age=34560000"} <= set(cookie.split("; "))
    assert "HttpOnly" not in cookie  # app.js sets the same cookie when the switch is tapped
    html = client.get("/zasady").get_data(as_text=True)
    assert html_tag(html) == f'<html lang="pl" data-theme="{theme}">'
    assert f'<meta name="color-scheme" content="{theme}">' in html
    colour = app_shell.THEME_COLORS[theme]
    assert html.count(f'content="{colour}"') == 2  # both bars, whatever the phone's setting
    assert f'value="{theme}" aria-pressed="true"' in html
    assert 'value="auto" aria-pressed="false"' in html


def test_a_theme_switch_leads_only_back_to_this_site(client: FlaskClient):
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", ""):
        response = choose_theme(client, "dark", target)
        assert response.headers["Location"] == "/", target


@pytest.mark.parametrize(
    "data",
    [{"theme": "purple"}, {"theme": ""}, {}],
    ids=["unknown", "empty", "missing"],
)
def test_a_theme_that_does_not_exist_is_refused(client: FlaskClient, data: dict):
    response = client.post("/motyw", data={"csrf_token": csrf(client), **data})

    assert response.status_code == 400
    assert "Set-Cookie" not in response.headers or "theme=" not in response.headers["Set-Cookie"]


def test_the_theme_switch_needs_the_csrf_token(client: FlaskClient):
    assert client.post("/motyw", data={"theme": "dark"}).status_code == 400


def test_a_cookie_with_an_unknown_theme_counts_as_auto(client: FlaskClient):
    client.set_cookie("theme", '"><script>')

    html = client.get("/zasady").get_data(as_text=True)

    assert html_tag(html) == '<html lang="pl">'
    assert "<script>" not in html


@pytest.mark.parametrize("app_config", [{"KOSCI_HTTPS": True}])
def test_over_https_the_theme_cookie_is_secure(app: Flask):
    with app.test_request_context():
        response = Response()
        app_shell.remember_theme(response, "dark")

    assert "Secure" in response.headers["Set-Cookie"]


# --- the screen kept on during a game ----------------------------------------------------------


def test_only_game_pages_ask_to_keep_the_screen_on(client: FlaskClient):
    client.post(
        "/rejestracja",
        data={
            "csrf_token": csrf(client, "/rejestracja"),
            "name": "Kowalscy",
            "password": PASSWORD,
            "confirm": PASSWORD,
        },
    )
    started = client.post(
        "/gry/nowa",
        data={
            "csrf_token": csrf(client),
            "variant": "standard",
            "players-0": "Ala",
            "players-1": "Ola",
        },
    )
    assert started.status_code == 303
    game = started.headers["Location"]

    for page in (game, f"{game}/tabela"):
        assert "data-wake-lock" in body_tag(client.get(page).get_data(as_text=True)), page
    for page in ("/", "/zasady", "/sedzia", "/gry/nowa", "/konto"):
        assert "data-wake-lock" not in body_tag(client.get(page).get_data(as_text=True)), page


def body_tag(html: str) -> str:
    match = re.search(r"<body[^>]*>", html)
    assert match
    return match.group(0)


# --- the colours of both themes ----------------------------------------------------------------

_VARIABLE = re.compile(r"(--[\w-]+)\s*:\s*([^;]+);")
_LIGHT = re.compile(r"^:root \{(.*?)^\}", re.MULTILINE | re.DOTALL)
_DARK_BY_SYSTEM = re.compile(
    r"^@media \(prefers-color-scheme: dark\) \{\s*"
    r':root:not\(\[data-theme="light"\]\) \{(.*?)\}\s*\}',
    re.MULTILINE | re.DOTALL,
)
_DARK_BY_SWITCH = re.compile(r'^:root\[data-theme="dark"\] \{(.*?)^\}', re.MULTILINE | re.DOTALL)
# A colour named in a rule; black shades (shadows: `rgb(0 0 0 / .15)`) darken either theme alike.
_COLOUR_LITERAL = re.compile(
    r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\((?!\s*0[\s,]+0[\s,]+0\s*[,/])|\b(?:white|black)\b(?!-)"
)
_ANY_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(")


def palettes() -> dict[str, dict[str, str]]:
    css = (CSS / "app.css").read_text(encoding="utf-8")
    found = {}
    for name, pattern in (
        ("light", _LIGHT),
        ("dark", _DARK_BY_SYSTEM),
        ("dark by the switch", _DARK_BY_SWITCH),
    ):
        match = pattern.search(css)
        assert match, f"app.css has no {name} palette"
        found[name] = dict(_VARIABLE.findall(match.group(1)))
    return found


def test_the_dark_palette_is_the_same_by_the_system_and_by_the_switch():
    found = palettes()

    assert found["dark"] == found["dark by the switch"]


def test_every_colour_that_changes_in_dark_has_a_dark_value():
    found = palettes()
    light, dark = found["light"], found["dark"]
    colours = {name for name, value in light.items() if _ANY_COLOUR.search(value)}
    same_in_both = {"--joker", "--joker-dark", "--on-joker", "--open"}

    assert colours - same_in_both == set(dark), "a light colour without its dark value"


def test_no_rule_names_a_colour_of_its_own():
    """Every colour comes from the palettes, so dark mode cannot miss one."""
    offenders = []
    for path in sorted(CSS.glob("*.css")):
        css = path.read_text(encoding="utf-8")
        for palette in (_LIGHT, _DARK_BY_SYSTEM, _DARK_BY_SWITCH):
            css = palette.sub("", css, count=1)
        css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
        offenders += [
            f"{path.name}: {line.strip()}"
            for line in css.splitlines()
            if _COLOUR_LITERAL.search(line)
        ]
    assert not offenders, "\n".join(offenders)


def _luminance(hex_colour: str) -> float:
    digits = hex_colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours."""
    lighter, darker = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


# Text and the backgrounds it is drawn on (app.css, history.css, poker.css).
TEXT_ON = {
    "--text": [
        "--bg",
        "--surface",
        "--pressed",
        "--ok-bg",
        "--best-bg",
        "--refused-bg",
        "--danger-bg",
        "--ink-bg",
        "--bonus-bg",
        "--chip-bg",
    ],
    "--muted": [
        "--bg",
        "--surface",
        "--pressed",
        "--refused-bg",
        "--ok-bg",
        "--best-bg",
        "--ink-bg",
    ],
    "--primary": ["--bg", "--surface", "--pressed"],  # links, secondary buttons, the dice pad
    "--on-primary": ["--primary", "--primary-dark"],  # primary buttons, also hovered
    "--danger": ["--bg", "--surface", "--danger-bg", "--best-bg"],  # errors, zero pencil values
    "--on-danger": ["--danger"],
    "--ok": ["--bg", "--surface", "--ok-bg", "--best-bg"],  # the best move, winners
    "--on-ok": ["--ok"],
    "--pencil": ["--surface"],  # the pencilled points on the turn screen
    "--chip-text": ["--chip-bg"],
    "--bonus-text": ["--bonus-bg"],
}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_text_passes_wcag_aa_on_every_background_it_is_drawn_on(theme: str):
    palette = {**palettes()["light"], **palettes()[theme]}
    low = [
        f"{text} on {background}: {contrast(palette[text], palette[background]):.2f}"
        for text, backgrounds in TEXT_ON.items()
        for background in backgrounds
        if contrast(palette[text], palette[background]) < 4.5
    ]
    assert contrast(palette["--on-joker"], palette["--joker"]) >= 4.5
    assert contrast(palette["--on-joker"], palette["--joker-dark"]) >= 4.5
    assert not low, low
