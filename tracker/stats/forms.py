"""The statistics filter: a GET form, so a filtered page is a link to bookmark or share.

The fields only carry the text; `tracker.services.filters.read_filter` checks it (the parser the
history uses too), and the view puts its message next to the field it names.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField

# types-WTForms (3.2) predates SelectChoice, new in WTForms 3.3 (tuples are deprecated there).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]

from ..rules import VARIANT_NAMES

ALL_VARIANTS = ""


class FilterForm(FlaskForm):
    class Meta:
        csrf = False  # reads nothing but the query string, changes nothing

    # Polish parameter names in the address: /statystyki?wariant=triple&od=2025-05-01
    variant = SelectField(
        "Wariant",
        name="wariant",
        choices=[
            SelectChoice(ALL_VARIANTS, "Wszystkie warianty"),
            *(SelectChoice(v, name) for v, name in VARIANT_NAMES.items()),
        ],
        validate_choice=False,  # the service names an unknown variant in Polish
    )
    since = StringField("Od dnia", name="od", render_kw={"type": "date"})
    until = StringField("Do dnia", name="do", render_kw={"type": "date"})
