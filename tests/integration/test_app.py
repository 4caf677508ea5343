"""The app shell: pages, error rendering (HTML and API JSON), configuration, the database."""

from __future__ import annotations

import io
import stat
from pathlib import Path

import pytest
from flask import Flask, abort, request
from flask.testing import FlaskClient
from sqlalchemy import text

from tracker import create_app
from tracker.extensions import csrf, db
from tracker.services import accounts
from tracker.settings import ConfigError


def add_api_route(app: Flask, rule: str, view, methods=("POST",)) -> None:
    """A test-only endpoint that belongs to the `api` blueprint (so CSRF-exempt like it)."""
    app.add_url_rule(
        f"/api/v1{rule}", endpoint=f"api.{view.__name__}", view_func=view, methods=list(methods)
    )


def echo():
    return {"received": request.get_json()}


# Pages


def test_first_visit_to_an_empty_installation_leads_to_sign_up(client: FlaskClient):
    response = client.get("/")

    assert response.status_code == 302
    assert response.headers["Location"].endswith("/rejestracja")


def test_home_page_is_in_polish_and_links_to_the_arbiter(app, client: FlaskClient):
    with app.app_context():
        accounts.create_account("Kowalscy", "sekretne hasło 123")

    response = client.get("/")

    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<html lang="pl">' in page
    assert "Kości" in page
    assert 'href="/sedzia"' in page
    assert "Sędzia – kto ma rację?" in page
    assert 'href="/zasady"' in page
    assert 'name="csrf-token"' in page


def test_rules_page_has_a_heading(client: FlaskClient):
    response = client.get("/zasady")

    assert response.status_code == 200
    assert "<h1>Zasady</h1>" in response.get_data(as_text=True)


def test_healthz_answers_plain_ok(client: FlaskClient):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True) == "ok"
    assert "Set-Cookie" not in response.headers


def test_the_database_health_check_answers_ok_when_the_database_answers(client: FlaskClient):
    response = client.get("/healthz/db")

    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok"
    assert response.headers["Cache-Control"] == "no-store"


def test_favicon_is_served_and_the_legacy_path_redirects_to_it(client: FlaskClient):
    icon = client.get("/static/favicon.svg")
    legacy = client.get("/favicon.ico")

    assert icon.status_code == 200
    assert icon.mimetype == "image/svg+xml"
    assert legacy.status_code == 301
    assert legacy.headers["Location"].endswith("/static/favicon.svg")
    icon.close()


# Errors as HTML pages


def test_unknown_page_is_a_polish_404_page(client: FlaskClient):
    response = client.get("/nie-ma-takiej")

    assert response.status_code == 404
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "Nie ma takiej strony" in page
    assert '<html lang="pl">' in page


def test_wrong_method_on_a_page_is_a_polish_405_page_with_allow(client: FlaskClient):
    response = client.post("/zasady")

    assert response.status_code == 405
    assert response.mimetype == "text/html"
    assert "Niedozwolona metoda" in response.get_data(as_text=True)
    assert "GET" in response.headers["Allow"]


def test_abort_with_a_message_shows_that_message(app: Flask, client: FlaskClient):
    @app.get("/gra/<int:game_id>")
    def game(game_id: int):
        abort(404, "Nie ma takiej gry.")

    response = client.get("/gra/7")

    assert response.status_code == 404
    assert "Nie ma takiej gry." in response.get_data(as_text=True)


@pytest.mark.parametrize("app_config", [{"PROPAGATE_EXCEPTIONS": False}])
def test_crash_is_a_polish_500_page_without_traceback(app: Flask, client: FlaskClient):
    @app.get("/crash")
    def crash():
        raise RuntimeError("secret internals")

    response = client.get("/crash")

    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Błąd serwera" in page
    assert "secret internals" not in page
    assert "Traceback" not in page


def test_a_database_error_keeps_the_statements_values_out_of_the_log(
    app: Flask, caplog: pytest.LogCaptureFixture
):
    """A failed statement is logged with its traceback, which names the statement; its values
    (a password hash, a name, an address) stay out of the log."""
    app.config["TESTING"] = False  # errors are logged and rendered, as `serve` runs the app
    app.config["PROPAGATE_EXCEPTIONS"] = False

    secret = "".join(reversed("t3rk3s"))  # not in the traceback's source lines

    @app.get("/fails")
    def fails():
        db.session.execute(text("SELECT * FROM no_such_table WHERE x = :hash"), {"hash": secret})
        return "never"

    response = app.test_client().get("/fails")

    assert response.status_code == 500
    assert "no_such_table" in caplog.text
    assert secret not in caplog.text


def test_form_post_without_csrf_token_is_refused_in_polish(app: Flask, client: FlaskClient):
    @app.post("/form")
    def form():
        return "saved"

    response = client.post("/form", data={"name": "Ala"})

    assert response.status_code == 400
    assert "Formularz wygasł" in response.get_data(as_text=True)


@pytest.mark.parametrize("app_config", [{"WTF_CSRF_ENABLED": False}])
def test_csrf_can_be_turned_off_through_app_config(app: Flask, client: FlaskClient):
    @app.post("/form")
    def form():
        return "saved"

    assert client.post("/form").get_data(as_text=True) == "saved"


# Errors under /api/ as JSON


def test_unknown_api_url_is_json_404(client: FlaskClient):
    response = client.get("/api/v1/nothing")

    assert response.status_code == 404
    assert response.is_json
    assert set(response.get_json()) == {"error"}
    assert response.get_json()["error"]


def test_api_post_needs_no_csrf_token_and_reads_json(app: Flask, client: FlaskClient):
    add_api_route(app, "/echo", echo)

    response = client.post("/api/v1/echo", json={"dice": [1, 2, 3, 4, 5]})

    assert response.status_code == 200
    assert response.get_json() == {"received": {"dice": [1, 2, 3, 4, 5]}}


def test_malformed_json_to_the_api_is_json_400(app: Flask, client: FlaskClient):
    add_api_route(app, "/echo", echo)

    response = client.post("/api/v1/echo", data="{dice: [1, 2", content_type="application/json")

    assert response.status_code == 400
    assert response.is_json
    assert "JSON" in response.get_json()["error"]


def test_api_body_that_is_not_json_is_json_415(app: Flask, client: FlaskClient):
    add_api_route(app, "/echo", echo)

    response = client.post("/api/v1/echo", data="dice=12345")

    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]


def chunked(client: FlaskClient, url: str, body: bytes, content_type: str):
    """`body` sent as a server hands over a chunked request: its length unknown, and the server
    says the stream ends where the body does (`wsgi.input_terminated`, as granian does)."""
    return client.post(
        url,
        input_stream=io.BytesIO(body),
        content_type=content_type,
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_a_chunked_body_over_the_limit_is_a_413_not_read_in_part(app: Flask, client: FlaskClient):
    add_api_route(app, "/echo", echo)
    limit = app.config["MAX_CONTENT_LENGTH"]
    document = b'{"dice": [1, 2, 3, 4, 5]}'

    within = chunked(client, "/api/v1/echo", document.ljust(limit), "application/json")
    over = chunked(client, "/api/v1/echo", document.ljust(limit) + b"not JSON", "application/json")

    assert within.status_code == 200, within.get_json()
    assert within.get_json() == {"received": {"dice": [1, 2, 3, 4, 5]}}
    assert over.status_code == 413, over.get_json()
    assert over.get_json()["error"]


def test_a_chunked_form_over_the_limit_is_a_413_not_read_in_part(app: Flask, client: FlaskClient):
    @app.post("/form-echo")
    def form_echo():
        return {"fields": sorted(request.form)}

    csrf.exempt(form_echo)

    limit = app.config["MAX_CONTENT_LENGTH"]
    whole = b"a=" + b"x" * (limit - 2)  # exactly the limit
    form = "application/x-www-form-urlencoded"

    within = chunked(client, "/form-echo", whole, form)
    over = chunked(client, "/form-echo", whole + b"&b=1", form)  # werkzeug alone: b lost

    assert over.status_code == 413
    assert within.status_code == 200
    assert within.get_json() == {"fields": ["a"]}


def test_wrong_method_on_the_api_is_json_405_with_allow(app: Flask, client: FlaskClient):
    add_api_route(app, "/echo", echo)

    response = client.get("/api/v1/echo")

    assert response.status_code == 405
    assert response.is_json
    assert "POST" in response.headers["Allow"]


@pytest.mark.parametrize("app_config", [{"PROPAGATE_EXCEPTIONS": False}])
def test_crash_in_the_api_is_json_500_without_traceback(app: Flask, client: FlaskClient):
    def crash():
        raise RuntimeError("secret internals")

    add_api_route(app, "/crash", crash, methods=("GET",))

    response = client.get("/api/v1/crash")

    assert response.status_code == 500
    assert response.is_json
    assert "secret internals" not in response.get_json()["error"]


def test_abort_with_a_message_in_the_api_answers_that_message(app: Flask, client: FlaskClient):
    def game():
        abort(404, "Nie ma takiej gry.")

    add_api_route(app, "/games/7", game, methods=("GET",))

    response = client.get("/api/v1/games/7")

    assert response.status_code == 404
    assert response.get_json() == {"error": "Nie ma takiej gry."}


def test_api_errors_keep_polish_letters_readable(client: FlaskClient):
    response = client.get("/api/v1/nothing")

    assert "\\u" not in response.get_data(as_text=True)


# Configuration


def test_secret_key_is_generated_once_into_the_instance_folder_and_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    config = {"SQLALCHEMY_DATABASE_URI": "sqlite://"}

    first = create_app(config, instance_path=tmp_path)
    second = create_app(config, instance_path=tmp_path)

    key_file = tmp_path / "secret_key"
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) == 64
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_secret_key_from_the_environment_is_used_and_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("SECRET_KEY", "from the environment")

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=tmp_path)

    assert app.config["SECRET_KEY"] == "from the environment"
    assert not (tmp_path / "secret_key").exists()


def test_database_defaults_to_a_file_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("DATABASE_URL", raising=False)

    app = create_app({"SECRET_KEY": "x"}, instance_path=tmp_path)

    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'kosci.sqlite3'}"


def test_database_url_from_the_environment_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    database = tmp_path / "elsewhere.sqlite3"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")

    app = create_app({"SECRET_KEY": "x"}, instance_path=tmp_path / "instance")
    with app.app_context():
        db.session.execute(text("CREATE TABLE probe (id INTEGER)"))
        db.session.commit()
        db.engine.dispose()

    assert database.exists()
    assert not (tmp_path / "instance" / "kosci.sqlite3").exists()


def test_instance_path_can_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("KOSCI_INSTANCE_PATH", str(tmp_path / "elsewhere"))

    app = create_app({"SECRET_KEY": "x"})

    assert app.instance_path == str(tmp_path / "elsewhere")
    assert (tmp_path / "elsewhere").is_dir()


@pytest.mark.sqlite_only("PRAGMAs")
def test_sqlite_connections_get_the_pragmas(app: Flask):
    with app.app_context():
        pragma = {
            name: db.session.execute(text(f"PRAGMA {name}")).scalar()
            for name in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout")
        }

    assert pragma == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "synchronous": 1,
        "busy_timeout": 5000,
    }


@pytest.mark.parametrize("path", ["/", "/sedzia", "/zasady", "/healthz", "/api/v1/nothing"])
def test_every_answer_forbids_other_hosts_and_inline_script(client: FlaskClient, path: str):
    response = client.get(path)

    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/zasady", "/static/css/app.css", "/static/js/turn.js"])
def test_pages_and_assets_go_out_compressed_to_a_browser(client: FlaskClient, path: str):
    response = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    response.get_data()  # read it all, as a server does, then close it as a server does
    response.close()

    assert response.status_code == 200
    assert response.headers["Content-Encoding"] in {"gzip", "deflate", "br"}


def test_api_answers_are_not_compressed(client: FlaskClient):
    response = client.post(
        "/api/v1/poker/rank",
        json={"hands": [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]]},
        headers={"Accept-Encoding": "gzip, deflate, br"},
    )

    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers


@pytest.mark.sqlite_only("PRAGMAs")
@pytest.mark.parametrize(("setting", "level"), [("full", 2), ("NORMAL", 1), ("", 1)])
def test_durability_is_a_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, level: int
):
    """KOSCI_SQLITE_SYNCHRONOUS=FULL makes every commit reach the disk before its answer;
    NORMAL is the default."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("KOSCI_SQLITE_SYNCHRONOUS", setting)
    app = create_app(instance_path=tmp_path)
    with app.app_context():
        found = db.session.execute(text("PRAGMA synchronous")).scalar()
        db.session.remove()
        db.engine.dispose()
    assert found == level


def test_an_unknown_durability_setting_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("KOSCI_SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ConfigError, match="KOSCI_SQLITE_SYNCHRONOUS ma wartość 'OFF'"):
        create_app(instance_path=tmp_path)
