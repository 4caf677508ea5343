"""The base of every form a page posts."""

from __future__ import annotations

import inspect
from typing import Any

from flask import request
from flask_wtf import FlaskForm
from werkzeug.datastructures import ImmutableMultiDict
from wtforms import Field

# `FlaskForm()`'s default formdata: "read it from the request".
_FROM_REQUEST = inspect.signature(FlaskForm.__init__).parameters["formdata"].default


class PageForm(FlaskForm):
    """A form posted by a page: its fields come from the form body (and its files), never from a
    JSON body.

    Flask-WTF reads a JSON body as the form's fields when there is no form body. A JSON array,
    string or number there is no mapping of fields and crashed the page (500); a page is posted by
    a browser form, so a JSON body counts as an empty submission: the form answers with its own
    errors (400), like any form sent without its fields.
    """

    class Meta(FlaskForm.Meta):
        def wrap_formdata(self, form: Any, formdata: Any) -> Any:
            if formdata is _FROM_REQUEST and _json_only():
                formdata = ImmutableMultiDict()
            return super().wrap_formdata(form, formdata)


def add_error(field: Field, message: str) -> None:
    """Show `message` under `field` of a validated form. `validate()` leaves every field's errors a
    list (the stubs say Sequence: before validation they are an empty tuple)."""
    errors = field.errors
    assert isinstance(errors, list), "a field's errors are added to after validation"
    errors.append(message)


def _json_only() -> bool:
    return request.is_json and not request.form and not request.files


class EmptyForm(PageForm):
    """A CSRF-protected POST button (sign out, revoke, delete, undo, rematch)."""
