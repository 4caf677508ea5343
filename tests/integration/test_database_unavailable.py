"""PostgreSQL stopped (or restarted) while `serve` runs: every request that needs the database
answers 503, a page that says so (JSON under /api/), and the log gets one line a request, not
two tracebacks. The error page itself must not need the database: a signed-in phone's page
would otherwise fail twice and reach the server as an exception (granian then answers an empty
500).

The app points at a PostgreSQL address where nothing listens: no server is needed."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tracker import create_app
from tracker.errors import OWN_ANSWER_HEADER
from tracker.extensions import db

pytestmark = pytest.mark.one_backend("the database is one that does not answer")

PASSWORD = "tajne-haslo-bazy"


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app as `serve` runs it (not TESTING: errors are rendered, not raised), on a
    PostgreSQL that does not answer."""
    url = f"postgresql+psycopg://kosci:{PASSWORD}@127.0.0.1:{closed_port()}/kosci"
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "TESTING": False},
        instance_path=tmp_path / "instance",
    )
    yield app
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()


def signed_in(client: FlaskClient) -> FlaskClient:
    """A browser whose session names an account's session (checked against the database)."""
    with client.session_transaction() as session:
        session["_user_id"] = "1:a-session-key"
        session["_fresh"] = True
    return client


@pytest.mark.parametrize("path", ["/gry/1", "/gry/1/stan", "/", "/historia"])
def test_a_signed_in_page_says_the_database_does_not_answer(
    app: Flask, path: str, caplog: pytest.LogCaptureFixture
):
    client = signed_in(app.test_client())
    with caplog.at_level(logging.INFO):
        answer = client.get(path)
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "5"
    # The app's own 503, which the service worker shows as it is: it says what is wrong, where
    # a gateway's bare 503 gets the offline page instead (static/js/sw.js).
    assert answer.headers[OWN_ANSWER_HEADER] == "app"
    page = answer.get_data(as_text=True)
    assert "Baza danych nie odpowiada" in page
    logged = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(logged) == 1, [record.getMessage() for record in logged]
    assert logged[0].exc_info is None, "a traceback for a database that is down"
    assert path in logged[0].getMessage()
    assert PASSWORD not in caplog.text


def test_a_signed_out_page_and_a_form_say_it_too(app: Flask):
    client = app.test_client()
    assert client.get("/logowanie").status_code == 503
    app.config["WTF_CSRF_ENABLED"] = False  # the token's page is a 503 too
    answer = signed_in(client).post("/gry/1/ruch", data={"dice": "11111", "seq": "1"})
    assert answer.status_code == 503


def test_a_page_asked_for_opens_by_itself_once_the_database_answers_a_forms_answer_does_not(
    app: Flask,
):
    """A GET page asks /healthz/db and loads itself again (static/js/app.js); a form's answer
    does not: loading it again would send the form again."""
    client = signed_in(app.test_client())
    page = client.get("/gry/1").get_data(as_text=True)
    assert 'data-retry-health="/healthz/db"' in page
    assert "Gdy baza danych znów odpowie, strona otworzy się sama." in page
    app.config["WTF_CSRF_ENABLED"] = False
    answer = client.post("/gry/1/ruch", data={"dice": "11111", "seq": "1"})
    assert answer.status_code == 503
    assert "data-retry-health" not in answer.get_data(as_text=True)


def test_the_api_answers_503_in_json(app: Flask):
    answer = app.test_client().get("/api/v1/games", headers={"Authorization": "Bearer kosci_abc"})
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "5"
    assert answer.get_json()["error"] == "Baza danych nie odpowiada; spróbuj ponownie za chwilę."


def test_the_health_check_needs_no_database(app: Flask):
    assert app.test_client().get("/healthz").status_code == 200


def test_the_database_health_check_tells_a_monitor_the_database_is_down(app: Flask):
    answer = app.test_client().get("/healthz/db")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "5"
