from __future__ import annotations

from wtforms import HiddenField, SelectField

# types-WTForms (3.2) predates SelectChoice, new in WTForms 3.3 (tuples are deprecated there).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]

from ..forms import PageForm
from .app_shell import THEMES


class ThemeForm(PageForm):
    """The theme switch at the foot of every page: one submit button per theme."""

    theme = SelectField(choices=[SelectChoice(value, label) for value, label in THEMES.items()])
    next = HiddenField()
