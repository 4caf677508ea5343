"""The catalogs hold every message of the sources, translated (README "Języki").

Run `flask --app tracker translations extract`, translate the new entries of
`tracker/translations/en/LC_MESSAGES/messages.po` (and give the three Polish forms of a new
plural in the pl catalog), then `flask --app tracker translations compile`.
"""

from __future__ import annotations

import gettext
import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import read_mo

from tracker import catalogs
from tracker.i18n import LANGUAGES

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
POLISH_FORMS = 3


@cache
def sources() -> Catalog:
    return catalogs.extract_messages()


@cache
def catalog(language: str) -> Catalog:
    return catalogs.read_catalog(catalogs.po_path(language), language)


def ids(messages: Catalog) -> set[str]:
    return {message_key(m) for m in messages if m.id}


def message_key(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_language_of_the_app_has_a_catalog():
    assert set(LANGUAGES) <= set(catalogs.catalog_languages())


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "pl"])
def test_every_message_of_the_sources_is_translated(language: str):
    translations = catalog(language)
    missing = []
    for message in sources():
        if not message.id:
            continue
        found = translations.get(message.id if isinstance(message.id, str) else message.id[0])
        if (
            found is None
            or found.fuzzy
            or not all(forms(found))
            or len(forms(found)) != translations.num_plurals ** bool(message.pluralizable)
            and message.pluralizable
        ):
            missing.append(message_key(message))
    assert missing == [], f"run `translations extract` and translate these in {language}"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "pl"])
def test_no_catalog_keeps_a_message_the_sources_no_longer_have(language: str):
    assert ids(catalog(language)) - ids(sources()) == set()


def test_every_plural_has_its_three_polish_forms():
    polish = catalog("pl")
    assert polish.num_plurals == POLISH_FORMS
    missing = [
        message_key(message)
        for message in sources()
        if message.pluralizable
        and (
            (found := polish.get(message_key(message))) is None
            or len(forms(found)) != POLISH_FORMS
            or not all(forms(found))
            or found.fuzzy
        )
    ]
    assert missing == []


def test_the_compiled_polish_catalog_says_1_znak_2_znaki_5_znakow():
    """Through gettext itself, as the app reads the .mo: the rule of the header picks the form."""
    with catalogs.po_path("pl").with_suffix(".mo").open("rb") as file:
        polish = gettext.GNUTranslations(file)
    one, many = "Co najmniej %(num)d znak.", "Co najmniej %(num)d znaków."
    said = {n: polish.ngettext(one, many, n) % {"num": n} for n in (1, 2, 4, 5, 12, 22, 25, 112)}
    assert said == {
        1: "Co najmniej 1 znak.",
        2: "Co najmniej 2 znaki.",
        4: "Co najmniej 4 znaki.",
        5: "Co najmniej 5 znaków.",
        12: "Co najmniej 12 znaków.",
        22: "Co najmniej 22 znaki.",
        25: "Co najmniej 25 znaków.",
        112: "Co najmniej 112 znaków.",
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders_of_their_message(language: str):
    wrong = []
    for message in catalog(language):
        if not message.id:
            continue
        originals = message.id if isinstance(message.id, tuple | list) else (message.id,)
        expected = placeholders(originals[-1]) | placeholders(originals[0])
        for text in forms(message):
            # A singular form may leave out %(num)d ("one game"), never add a name.
            if text and not placeholders(text) <= expected | {"num"}:
                wrong.append((message_key(message), text))
            if text and not message.pluralizable and placeholders(text) != expected:
                wrong.append((message_key(message), text))
    assert wrong == []


def test_no_english_sentence_puts_in_before_the_variant_named_in_order():
    """The English name of Gra po kolei begins with "In": a sentence that says "in" before it,
    as Polish says "w grze po kolei" or "w wariancie %(ordered)s", reads "In In order". Such a
    sentence is written around the name instead ("%(ordered)s has no choice of field")."""
    in_before_name = re.compile(r"\b[Ii]n (?:In order|%\(ordered\)s)")
    english = catalog("en")
    assert english.get("Gra po kolei").string == "In order"
    doubled = [
        text
        for message in english
        if message.id
        for text in forms(message)
        if text
        if in_before_name.search(text)
    ]
    assert doubled == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_the_compiled_po(language: str):
    """`translations compile` was run after the last change of the .po."""
    mo = catalogs.po_path(language).with_suffix(".mo")
    with mo.open("rb") as file:
        committed = read_mo(file)
    fresh = catalogs.read_catalog(catalogs.po_path(language), language)

    def content(messages: Catalog) -> dict[str, object]:
        return {
            message_key(m): tuple(forms(m))
            for m in messages
            if m.id and any(forms(m)) and not m.fuzzy
        }

    assert content(committed) == content(fresh)
