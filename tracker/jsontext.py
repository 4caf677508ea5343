"""JSON whose strings are text: no half of a UTF-16 pair standing alone.

JSON may spell half of a pair by itself (`"\\ud800"`), and Python's decoder reads it into a
string that no UTF-8 answer, log line or database can hold: an error message quoting such a
key back failed as it was encoded, a 500. Every JSON document the app reads (API bodies
through `TextJSONProvider`, export files through `lone_surrogate`) is refused with a 400
instead, and says which character.

Only a document that can hold one is searched (a `\\ud8…`–`\\udf…` escape, or bytes that are not
plain UTF-8): a turn's body costs one regular expression scan.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask.json.provider import DefaultJSONProvider

from .i18n import gettext

# Half of a UTF-16 pair as JSON spells it: \uD800–\uDFFF.
_SPELLED = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SPELLED_BYTES = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def lone_surrogate(document: str | bytes | bytearray, value: object) -> str | None:
    """Half of a UTF-16 pair standing alone somewhere in `value` (a key or a string, at any
    depth), as JSON spells it (`\\ud800`); None when there is none. `document`: the JSON text
    `value` was read from, which says whether to look at all."""
    if not _may_hold_one(document):
        return None
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                return f"\\u{ord(item[exc.start]):04x}"
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _may_hold_one(document: str | bytes | bytearray) -> bool:
    if isinstance(document, str):
        if _SPELLED.search(document) is not None:
            return True
        try:
            document.encode("utf-8")
        except UnicodeEncodeError:
            return True  # the text itself holds one
        return False
    if _SPELLED_BYTES.search(document) is not None:
        return True
    if document.isascii():
        return False
    try:
        bytes(document).decode("utf-8")
    except UnicodeDecodeError:
        # UTF-16 or UTF-32 (which json reads), or surrogates encoded in UTF-8 (which it reads
        # with "surrogatepass"): look at the strings.
        return True
    return False


def half_pair_text(char: str) -> str:
    """What is wrong with such a character, for a message that names it."""
    return gettext(
        "tekst zawiera %(char)s: połowę pary znaków UTF-16 bez drugiej połowy", char=char
    )


class TextJSONProvider(DefaultJSONProvider):
    """Flask's JSON, whose `loads` refuses half of a UTF-16 pair with a ValueError (a request
    body: a 400 that says so, `KosciRequest.on_json_loading_failed`). Answers keep Polish
    readable (`ensure_ascii` off) and their keys in the documented order, unsorted (no sorting
    cost per answer)."""

    ensure_ascii = False
    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        value = json.loads(s, **kwargs)
        found = lone_surrogate(s, value)
        if found is not None:
            raise ValueError(half_pair_text(found))
        return value
