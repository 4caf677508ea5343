"""Every Polish text the app's Python shows is marked for translation (README "Języki").

An AST scan of tracker/**/*.py: a string literal holding a Polish letter must be an argument of
`_`, `gettext`, `ngettext`, `lazy_gettext`, `lazy_ngettext` or `N_`. Not scanned: docstrings,
the arguments of logging calls (`logger.*`, `app.logger.*`, `logging.*`), of the command line
(`click.*`: the server's CLI speaks Polish only, to whoever runs the server) and of
`audit.record` (the audit log is data, written once, in Polish); a line marked
`# i18n: not shown`; the CLI modules (`CLI_ONLY`); and tracker/rules/ and
tracker/advisor/, pure modules that cannot import Flask (they speak in codes, and mark their
sentences with their own `N_`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "tracker"
PURE = ("rules", "advisor")
# The server's command line (serve, backup, restore, accounts, the advisor's tables) and the
# sentence a wrong setting stops the start with (settings.py): they speak Polish only, to
# whoever runs the server.
CLI_ONLY = frozenset({"cli.py", "commands.py", "advisor_cli.py", "backup.py", "settings.py"})
# A line that says so holds a text no one reads as language (an alphabet, a brand).
NOT_SHOWN_MARK = "# i18n: not shown"


POLISH_LETTER = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")
TRANSLATING = frozenset({"_", "gettext", "ngettext", "lazy_gettext", "lazy_ngettext", "N_"})
# Calls whose arguments are not shown to a person using the app (by the name they are called
# through: `logger.warning`, `app.logger.info`, `click.echo`, `audit.record`).
NOT_SHOWN_ROOTS = frozenset({"logger", "logging", "click"})
NOT_SHOWN_CALLS = frozenset({"audit.record"})


def module_names() -> list[str]:
    return sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] not in PURE
        and path.relative_to(PACKAGE).as_posix() not in CLI_ONLY
    )


def dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return dotted(node.func)
    return ""


def _exempt_call(node: ast.Call) -> bool:
    name = dotted(node.func)
    parts = name.split(".")
    return (
        parts[-1] in TRANSLATING
        or name in NOT_SHOWN_CALLS
        or parts[0] in NOT_SHOWN_ROOTS
        or "logger" in parts
    )


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                found.add(id(body[0].value))
    return found


def untranslated(source: str, name: str) -> list[str]:
    tree = ast.parse(source)
    lines = source.splitlines()
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        # Every string under an exempt call (or decorator) is skipped, however deep.
        if isinstance(node, ast.Call) and _exempt_call(node):
            skip.update(id(inner) for inner in ast.walk(node))
    strings = sorted(
        (node for node in ast.walk(tree) if isinstance(node, ast.Constant)),
        key=lambda node: (node.lineno, node.col_offset),
    )
    return [
        f'{name}:{node.lineno}: "{node.value}"'
        for node in strings
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and POLISH_LETTER.search(node.value)
        and NOT_SHOWN_MARK not in lines[node.lineno - 1]
    ]


@pytest.mark.parametrize("name", module_names())
def test_every_polish_text_of_the_module_is_marked(name: str):
    assert untranslated((PACKAGE / name).read_text(encoding="utf-8"), name) == []


def test_the_scan_finds_what_is_shown_and_skips_the_rest():
    source = '''
"""Moduł."""
import logging
logger = logging.getLogger(__name__)
TITLE = N_("Gra")
def view():
    """Widok."""
    logger.warning("Błąd %s", 1)
    click.echo("Zapisano")
    audit.record("x", 1, f"zamknięte sesje: {n}")
    flash(_("Zapisano grę."))
    flash(f"Usunięto grę {name}.")
    raise InvalidInput("Podaj nazwę gracza.")
ALPHABET = "aąb"  # i18n: not shown
'''
    assert untranslated(source, "m.py") == [
        'm.py:12: "Usunięto grę "',
        'm.py:13: "Podaj nazwę gracza."',
    ]
