from __future__ import annotations

from flask_wtf.file import FileField, FileRequired

from ..forms import PageForm


class ImportForm(PageForm):
    file = FileField(
        "Plik kopii (JSON)",
        validators=[FileRequired("Wybierz plik pobrany jako „Pobierz wszystko (JSON)”.")],
        render_kw={"accept": ".json,application/json"},
    )
