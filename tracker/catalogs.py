"""The translation catalogs (tracker/translations), kept with Babel's Python API: collect the
marked texts (`extract`), bring every language's catalog up to date with them, compile them.

`flask --app tracker translations extract|compile|init <lang>` (tracker/i18n.py) and the
catalog checks (tests/unit/test_i18n_catalog.py) both use these functions, so the checks see
exactly what the command writes.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
TRANSLATIONS = PACKAGE / "translations"
TEMPLATE_CATALOG = TRANSLATIONS / "messages.pot"
BABEL_CONFIG = ROOT / "babel.cfg"
# The calls whose (first, or first two: plural) string arguments are messages; `pgettext`'s
# first is the context of a word that means two things ("Kości": the app, and the dice).
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
    "N_": None,
}
# A comment starting with this just before a marked text goes to the translators.
COMMENT_TAGS = ("Translators:",)
SOURCE_FOLDERS = ("tracker", "templates")
PROJECT = "Kości"  # i18n: not shown (the catalogs' header)


def po_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


def catalog_languages() -> list[str]:
    """The languages that have a catalog (a folder with messages.po)."""
    return sorted(path.parent.parent.name for path in TRANSLATIONS.glob("*/LC_MESSAGES/*.po"))


def _in_sources(dirname: str) -> bool:
    relative = Path(dirname).resolve().relative_to(ROOT).parts
    return (
        not relative
        or relative[0] in SOURCE_FOLDERS
        and not any(part.startswith((".", "_")) for part in relative)
    )


def extract_messages() -> Catalog:
    """Every marked text of the sources (babel.cfg says which files and how), with the files it
    is in (no line numbers: an edit elsewhere in a file leaves the catalogs alone)."""
    with BABEL_CONFIG.open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog(project=PROJECT, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT,
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
        directory_filter=_in_sources,
    ):
        catalog.add(
            message,
            None,
            [(Path(filename).as_posix(), lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def _write_po(path: Path, catalog: Catalog, *, omit_header: bool = False) -> None:
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=0,  # no wrapping: one message, one line, clean diffs
        omit_header=omit_header,
        sort_output=True,
        ignore_obsolete=True,  # a text removed from the sources leaves the catalogs
        include_lineno=False,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def extract() -> list[Path]:
    """Write messages.pot and bring every language's messages.po up to date with it: new texts
    are added untranslated, removed ones dropped, translations of the others kept."""
    template = extract_messages()
    _write_po(TEMPLATE_CATALOG, template, omit_header=True)
    written = [TEMPLATE_CATALOG]
    for language in catalog_languages():
        path = po_path(language)
        catalog = read_catalog(path, language)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        _write_po(path, catalog)
        written.append(path)
    return written


def init(language: str) -> Path:
    """A new, untranslated catalog for `language` (refused if it has one)."""
    path = po_path(language)
    if path.exists():
        raise FileExistsError(f"{path} already exists")
    template = extract_messages()
    catalog = Catalog(locale=Locale.parse(language), project=PROJECT, charset="utf-8")
    catalog.update(template, no_fuzzy_matching=True)
    _write_po(path, catalog)
    return path


def compiled(catalog: Catalog) -> bytes:
    """The .mo of `catalog` (fuzzy translations left out, as gettext does)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> Iterator[Path]:
    """Compile every messages.po to the messages.mo beside it."""
    for language in catalog_languages():
        path = po_path(language)
        mo = path.with_suffix(".mo")
        mo.write_bytes(compiled(read_catalog(path, language)))
        yield mo
