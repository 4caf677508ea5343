"""The rules' texts in the request's language: the presentation side of `tracker.rules.text`.

`rules_text(x)` takes what the rules say, a `Text` (a reason, a note, an explanation), a
`RulesError` (its `.text`) or a plain marked string (a field label, a variant name, a hand
name), and gives it translated: the template through `gettext`, then formatted with its values,
each translated the same way. Codes are never touched. Registered as the Jinja filter and global
`rules_text` (`{{ p.note_text|rules_text }}`, `{{ f.label|rules_text }}`).
"""

from __future__ import annotations

from flask import Flask
from flask_babel import gettext

from tracker.rules import RulesError, Text


def _translate(message: str) -> str:
    # gettext("") is the catalog's header; without values gettext formats nothing.
    return gettext(message) if message else message


def rules_text(value: Text | RulesError | str | None) -> str:
    """`value` in the current language ("" for None)."""
    if value is None:
        return ""
    if isinstance(value, RulesError):
        value = value.text
    if isinstance(value, Text):
        return value.format(_translate)
    return _translate(value)


def points_text(points: object, extra_bonus: object = 0) -> str:
    """What a turn wrote in its field, as every message and log says it: „25”, and with a
    further Generał's bonus „25 (+100)” (the bonus is not part of the field's points)."""
    return f"{points} (+{extra_bonus})" if extra_bonus else str(points)


def init_rules_text(app: Flask) -> None:
    app.add_template_filter(rules_text, "rules_text")
    app.add_template_global(rules_text, "rules_text")
