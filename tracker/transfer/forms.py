from __future__ import annotations

from flask_wtf.file import FileField, FileRequired

from ..forms import PageForm
from ..i18n import lazy_gettext


class ImportForm(PageForm):
    file = FileField(
        lazy_gettext("Plik kopii (JSON)"),
        validators=[
            FileRequired(lazy_gettext("Wybierz plik pobrany jako „Pobierz wszystko (JSON)”."))
        ],
        render_kw={"accept": ".json,application/json"},
    )
