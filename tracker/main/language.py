"""The language switch at the foot of every page (`POST /jezyk`): remembered by this browser (a
cookie, also for a guest phone) and, when signed in, by the account, for its other browsers."""

from __future__ import annotations

from flask import abort, redirect
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse
from wtforms import HiddenField, SelectField

# types-WTForms (3.2) predates SelectChoice, new in WTForms 3.3 (tuples are deprecated there).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]

from ..forms import PageForm
from ..i18n import LANGUAGE_NAMES, remember_language
from ..services import preferences
from ..web import same_site_path
from .views import bp


class LanguageForm(PageForm):
    """One submit button per language (base.html shows the other one)."""

    language = SelectField(
        choices=[SelectChoice(value, label) for value, label in LANGUAGE_NAMES.items()]
    )
    next = HiddenField()


@bp.post("/jezyk")
def language() -> BaseResponse:
    """Switch the language and go back to the page the switch was tapped on."""
    form = LanguageForm()
    if not form.validate_on_submit():
        abort(400)
    chosen = str(form.language.data)
    response = redirect(same_site_path(form.next.data))
    remember_language(response, chosen)
    if current_user.is_authenticated:
        preferences.set_language(current_user.id, chosen)
    return response
