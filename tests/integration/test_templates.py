"""Shared templates: the form macros show each error next to its field."""

from __future__ import annotations

import pytest
from flask import Flask, render_template_string
from flask_wtf import FlaskForm
from wtforms import BooleanField, StringField
from wtforms.validators import DataRequired

pytestmark = pytest.mark.one_backend("templates, not the database")

FORM_PAGE = """
{% from "_forms.html" import field, form_errors, submit %}
{{ form_errors(form) }}{{ field(form.name, hint="Jak cię wołają przy stole.") }}
{{ field(form.joker) }}{{ submit("Zapisz") }}
"""


class PlayerForm(FlaskForm):
    name = StringField("Imię", validators=[DataRequired("Podaj imię.")])
    joker = BooleanField("Joker")


def render_form(app: Flask, data: dict[str, str]) -> str:
    with app.test_request_context(method="POST", data=data):
        form = PlayerForm(meta={"csrf": False})
        form.validate()
        return render_template_string(FORM_PAGE, form=form)


def test_field_error_is_shown_next_to_the_field_and_linked_to_it(app: Flask):
    html = render_form(app, {"name": ""})

    assert '<p class="error" id="name-error">Podaj imię.</p>' in html
    assert 'aria-invalid="true"' in html
    assert 'aria-describedby="name-hint name-error"' in html
    assert '<label for="name">Imię</label>' in html


def test_valid_field_has_no_error(app: Flask):
    html = render_form(app, {"name": "Ala"})

    assert 'class="error"' not in html
    assert "aria-invalid" not in html
    assert 'aria-describedby="name-hint"' in html
    assert '<button class="btn btn-primary" type="submit">Zapisz</button>' in html
