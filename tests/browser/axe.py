"""axe-core (vendored in tests/vendor/axe-core, a test-only asset the app never serves) run in a
Playwright page: `audit(page, "turn screen")` fails the test with a readable list of every
WCAG 2.1 A/AA violation on the page as it is drawn now.

The app's CSP allows no inline script, so a <script> tag with axe's source would be refused;
`page.evaluate` runs the source through the DevTools protocol, which the page's CSP does not
govern, so the page keeps its real policy while it is audited."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_DIR = Path(__file__).resolve().parent.parent / "vendor" / "axe-core"
AXE_SOURCE = AXE_DIR / "axe.min.js"

# WCAG 2.0 and 2.1, levels A and AA: the bar.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

RUN_AXE = """async (tags) => {
  const results = await axe.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}"""


@cache
def axe_source() -> str:
    return AXE_SOURCE.read_text(encoding="utf-8")


def violations(page: Page) -> list[dict[str, Any]]:
    """axe's WCAG 2.1 AA violations on `page` as it is now (axe injected when missing)."""
    page.wait_for_load_state("load")  # the stylesheet applied: contrast is measured on it
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    result: list[dict[str, Any]] = page.evaluate(RUN_AXE, WCAG_TAGS)
    return result


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for v in found:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:8]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {node['target']}  {summary[:300]}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def audit(page: Page, what: str) -> None:
    """Fail unless axe finds no WCAG 2.1 A/AA violation on `page` (`what` names the state)."""
    found = violations(page)
    assert not found, f"axe: {what} ({page.url}) has violations:\n{describe(found)}"
