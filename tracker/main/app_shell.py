"""The app on the phone: the web manifest, the service worker, the colour theme.

- The manifest (`/manifest.webmanifest`) lets a phone install Kości as an app: its name, colours
  and icons (static/icons/, drawn by scripts/make_icons.py).
- The service worker (`/sw.js`, served from the root so that it controls every page) is
  static/js/sw.js with its settings filled in: the files of the app shell to keep, the offline
  page, and a cache version that is a hash of all of them, so a new version of the app (a changed
  CSS file, script or template of the offline page) installs a fresh copy and drops the old one.
  Browsers run it only in a secure context: HTTPS, or `localhost`/`127.0.0.1` (README "The app on
  the phone").
- The theme (Auto, Jasny, Ciemny) is remembered per browser in a cookie that the server reads to
  put `data-theme` on `<html>`: the page is drawn in its colours from the first paint, with no
  inline script (which the Content-Security-Policy forbids), no blocking script file, and also
  without JavaScript. localStorage could only be read by a script, after the first paint or by
  blocking it. static/js/app.js sets the same cookie itself when the switch is tapped.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request, url_for
from flask.blueprints import BlueprintSetupState
from flask_babel import force_locale
from werkzeug.wrappers import Response as BaseResponse

from ..errors import OWN_ANSWER_HEADER
from ..i18n import DEFAULT, LANGUAGES, N_, TRANSLATIONS, _, current_language

MANIFEST_MIMETYPE = "application/manifest+json"
SERVICE_WORKER_FILE = "js/sw.js"  # in static/; served as /sw.js, never registered from there
# The settings placeholder in static/js/sw.js that the /sw.js route replaces with JSON.
SERVICE_WORKER_CONFIG = "{/* filled in by the /sw.js route */}"
# The templates the offline page is drawn from: a change to either is a new app version.
OFFLINE_TEMPLATES = ("base.html", "main/offline.html")

# The browser's bars (`theme-color`) per scheme: the brand blue in light, the header's own
# colour in dark (static/css/app.css, `--surface`), so a dark page is not framed in bright blue.
THEME_COLORS = {"light": "#0a58a8", "dark": "#1c1f23"}
# The splash screen of the installed app: the page's background (`--bg`, light).
BACKGROUND_COLOR = "#f5f3ee"

# (file in static/, size in pixels, purpose); the maskable one keeps its pips in the safe zone.
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)
APPLE_TOUCH_ICON = "icons/apple-touch-icon.png"

# "auto" follows the phone's setting (`prefers-color-scheme`); the others force it.
THEMES = {"auto": N_("Auto"), "light": N_("Jasny"), "dark": N_("Ciemny")}  # _() in base.html
THEME_COOKIE = "theme"
THEME_COOKIE_MAX_AGE = 400 * 24 * 60 * 60  # the longest a browser keeps a cookie (Chrome)


def register_template_globals(state: BlueprintSetupState) -> None:
    """What base.html draws the theme and its switch with."""
    state.app.jinja_env.globals.update(
        current_theme=current_theme, themes=THEMES, theme_colors=THEME_COLORS
    )


def current_theme() -> str:
    """This browser's theme: "auto" (the default, also for a cookie that says anything else),
    "light" or "dark"."""
    value = request.cookies.get(THEME_COOKIE, "auto")
    return value if value in THEMES else "auto"


def remember_theme(response: BaseResponse, theme: str) -> None:
    """Set the theme cookie, readable by app.js (it sets the same one without a page load)."""
    response.set_cookie(
        THEME_COOKIE,
        theme,
        max_age=THEME_COOKIE_MAX_AGE,
        path="/",
        samesite="Lax",
        secure=bool(current_app.config["KOSCI_HTTPS"]),
        httponly=False,
    )


def manifest() -> dict[str, Any]:
    """The web app manifest: what a phone needs to install Kości on its home screen."""
    home = url_for("main.home")
    return {
        "id": home,
        "name": _("Kości"),
        "short_name": _("Kości"),
        "description": _("Tabela wyników do gry w kości: generał, poker kościany i ich odmiany."),
        "lang": current_language(),
        "dir": "ltr",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLORS["light"],
        "categories": ["games", "entertainment"],
        "icons": [
            {
                "src": url_for("static", filename=file),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for file, size, purpose in ICONS
        ],
    }


def manifest_response() -> BaseResponse:
    """The manifest in the language of the page that links it: `?lang=en` (base.html adds it
    for a language other than Polish), as browsers fetch a manifest without cookies."""
    language = request.args.get("lang")
    if language in LANGUAGES:
        with force_locale(language):
            document = manifest()
            document["lang"] = language
    else:
        document = manifest()
    response = current_app.response_class(
        json.dumps(document, ensure_ascii=False, indent=2), mimetype=MANIFEST_MIMETYPE
    )
    response.vary.add("Cookie")  # without `lang`, the language of the browser's cookie
    response.add_etag()
    return response.make_conditional(request)


@dataclass(frozen=True)
class _Shell:
    """What the service worker is built from, as read from disk at one moment (`stamp`)."""

    stamp: tuple[tuple[str, int, int], ...]  # (path, mtime, size) of every input
    version: str
    files: tuple[str, ...]  # the app shell: paths in static/
    source: str  # static/js/sw.js


_shells: dict[str, _Shell] = {}  # per static folder; one app per process in production


def _inputs(app: Flask) -> tuple[Path, list[Path], list[Path]]:
    """static/js/sw.js, the shell's files (everything else in static/, hidden files left out)
    and what the offline page is drawn from (its templates, the compiled catalogs)."""
    assert app.static_folder is not None
    assert app.template_folder is not None
    static = Path(app.static_folder)
    worker = static / SERVICE_WORKER_FILE
    files = sorted(
        path
        for path in static.rglob("*")
        if path.is_file() and path != worker and not path.name.startswith(".")
    )
    templates = Path(app.root_path, app.template_folder)
    # The offline page's texts are in the compiled catalogs: a new translation, a new version.
    catalogs = sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo"))
    return worker, files, [*(templates / name for name in OFFLINE_TEMPLATES), *catalogs]


def _shell(app: Flask) -> _Shell:
    """The shell as it is on disk now: rebuilt (hashed) only when a file's time or size
    changed, so a deploy, or an edit on a developer's machine, gives a new version."""
    worker, files, templates = _inputs(app)
    everything = [worker, *files, *templates]
    stats = [path.stat() for path in everything]
    stamp = tuple(
        (str(path), stat.st_mtime_ns, stat.st_size)
        for path, stat in zip(everything, stats, strict=True)
    )
    key = str(app.static_folder)
    known = _shells.get(key)
    if known is not None and known.stamp == stamp:
        return known
    digest = hashlib.sha256()
    static = Path(str(app.static_folder))
    for path in everything:
        digest.update(os.path.relpath(path, app.root_path).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    source = worker.read_text(encoding="utf-8")
    if SERVICE_WORKER_CONFIG not in source:
        raise RuntimeError(f"{worker} lost its settings placeholder {SERVICE_WORKER_CONFIG}")
    shell = _Shell(
        stamp=stamp,
        version=digest.hexdigest()[:16],
        files=tuple(path.relative_to(static).as_posix() for path in files),
        source=source,
    )
    _shells[key] = shell
    return shell


def service_worker_script() -> str:
    """static/js/sw.js with its settings: the cache version, the shell's URLs, the offline page."""
    shell = _shell(current_app)
    config = {
        "version": shell.version,
        "shell": [url_for("static", filename=file) for file in shell.files],
        "static": url_for("static", filename=""),
        # The offline page in every language; the worker shows the one of the pages it serves.
        "offline": {language: url_for("main.offline", lang=language) for language in LANGUAGES},
        "language": DEFAULT,
        # A 502, 503 or 504 with this header is the app's own page, shown as it is.
        "ownAnswer": OWN_ANSWER_HEADER,
    }
    return shell.source.replace(SERVICE_WORKER_CONFIG, json.dumps(config, ensure_ascii=False))


def service_worker_response() -> BaseResponse:
    """`/sw.js`: JavaScript, checked by the browser at every visit (`no-cache`, with an ETag so
    an unchanged worker costs a 304)."""
    response = current_app.response_class(service_worker_script(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)
