"""`lone_surrogate`: half of a UTF-16 pair standing alone in a JSON document, however the
document spells it or is encoded, and nothing else."""

from __future__ import annotations

import json

import pytest

from tracker.jsontext import lone_surrogate


@pytest.mark.parametrize(
    ("document", "found"),
    [
        pytest.param('{"\\ud800": 1}', "\\ud800", id="a key, spelled"),
        pytest.param(b'{"a": ["x", {"b": "y\\uDFFF"}]}', "\\udfff", id="deep, as bytes"),
        pytest.param(b'"\xed\xa0\x80"', "\\ud800", id="encoded in UTF-8 (read with surrogatepass)"),
        pytest.param(
            '"\ud83d"'.encode("utf-16-le", "surrogatepass"), "\\ud83d", id="a UTF-16 body"
        ),
        pytest.param('{"a": "\\ud83c\\udfb2"}', None, id="a whole pair is one character"),
        pytest.param('{"a": "\\\\ud800"}', None, id="a backslash, then text"),
        pytest.param('{"gracz": "Łucja 🎲"}'.encode(), None, id="Polish and an emoji in UTF-8"),
        pytest.param('{"dice": [1, 2, 3, 4, 5], "field": "ones"}', None, id="a turn"),
    ],
)
def test_lone_surrogate(document: str | bytes, found: str | None):
    assert lone_surrogate(document, json.loads(document)) == found
