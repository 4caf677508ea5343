"""The statistics filter: a GET form, so a filtered page is a link to bookmark or share.

The fields only carry the text; `tracker.services.filters.read_filter` checks it (the parser the
history uses too), and the view puts its message next to the field it names.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField

# types-WTForms (3.2) predates SelectChoice, new in WTForms 3.3 (tuples are deprecated there).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]

from ..i18n import lazy_gettext
from ..rules import VARIANT_NAMES

ALL_VARIANTS = ""


class FilterForm(FlaskForm):
    class Meta:
        csrf = False  # reads nothing but the query string, changes nothing

    # Polish parameter names in the address: /statystyki?wariant=triple&od=2025-05-01
    # The choices' labels are lazy: translated when the form is drawn (the variants' names are
    # the rules' N_-marked texts).
    variant = SelectField(
        lazy_gettext("Wariant"),
        name="wariant",
        choices=[
            SelectChoice(ALL_VARIANTS, lazy_gettext("Wszystkie warianty")),
            *(SelectChoice(v, lazy_gettext(name)) for v, name in VARIANT_NAMES.items()),
        ],
        validate_choice=False,  # the service names an unknown variant in the user's language
    )
    since = StringField(lazy_gettext("Od dnia"), name="od", render_kw={"type": "date"})
    until = StringField(lazy_gettext("Do dnia"), name="do", render_kw={"type": "date"})
