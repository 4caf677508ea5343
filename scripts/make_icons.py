"""Draw the app's PNG icons (static/icons/) from static/favicon.svg with headless Chromium.

    .venv/bin/python scripts/make_icons.py

The PNGs are committed; run this again only after changing the favicon. It needs Playwright's
Chromium, or a system one (`$CHROMIUM_PATH`, else `chromium` on the PATH), as the browser tests do.

- icon-192.png, icon-512.png (manifest `purpose: any`): the favicon as it is, transparent corners;
- icon-maskable-512.png (`purpose: maskable`): the tile's colour to every edge and the pips inside
  the safe zone, the central circle of 80 % of the width that every mask keeps;
- apple-touch-icon.png (180): full bleed as well, since iOS draws transparency black and rounds
  the corners itself.
"""

from __future__ import annotations

import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
FAVICON = ROOT / "static" / "favicon.svg"
ICONS = ROOT / "static" / "icons"
SVG = "http://www.w3.org/2000/svg"

# The favicon's pips span 7..25 of its 32 units. In a 38-unit square centred on them their outer
# edges reach 9 * sqrt(2) = 12.7 units from the centre, 33 % of the width: inside the 40 % safe
# radius, with room to spare for a mask that is smaller still.
MASKABLE_VIEWBOX = "-3 -3 38 38"
# The Apple icon keeps the favicon's proportions, without its margin and rounded corners.
APPLE_VIEWBOX = "0 0 32 32"


def favicon_parts() -> tuple[str, str]:
    """The favicon's tile colour and its pips (the `<g>`), as SVG text."""
    ET.register_namespace("", SVG)
    root = ET.parse(FAVICON).getroot()
    tile = root.find(f"{{{SVG}}}rect")
    pips = root.find(f"{{{SVG}}}g")
    if tile is None or pips is None:
        raise SystemExit(f"{FAVICON}: expected a <rect> tile and a <g> of pips")
    return tile.attrib["fill"], ET.tostring(pips, encoding="unicode")


def full_bleed(viewbox: str) -> str:
    """The tile's colour over the whole square, the favicon's pips on it."""
    colour, pips = favicon_parts()
    x, y, width, height = viewbox.split()
    return (
        f'<svg xmlns="{SVG}" viewBox="{viewbox}">'
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="{colour}"/>{pips}</svg>'
    )


def chromium_path() -> str | None:
    """None: Playwright's own Chromium; else the system's, like tests/live.py."""
    with sync_playwright() as playwright:
        if Path(playwright.chromium.executable_path).exists():
            return None
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")


def render(svgs: dict[str, tuple[str, int]]) -> None:
    """Each `name: (svg, size)` drawn at `size` x `size` CSS pixels (scale 1) into ICONS/name."""
    executable = chromium_path()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        try:
            for name, (svg, size) in svgs.items():
                page = browser.new_page(
                    viewport={"width": size, "height": size}, device_scale_factor=1
                )
                page.set_content(
                    "<!doctype html><style>html,body{margin:0;background:transparent}"
                    f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
                )
                page.screenshot(path=ICONS / name, omit_background=True)
                page.close()
        finally:
            browser.close()


def main() -> None:
    ICONS.mkdir(exist_ok=True)
    favicon = FAVICON.read_text(encoding="utf-8")
    render(
        {
            "icon-192.png": (favicon, 192),
            "icon-512.png": (favicon, 512),
            "icon-maskable-512.png": (full_bleed(MASKABLE_VIEWBOX), 512),
            "apple-touch-icon.png": (full_bleed(APPLE_VIEWBOX), 180),
        }
    )
    for path in sorted(ICONS.glob("*.png")):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
