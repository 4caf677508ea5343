"""Behind a proxy, over HTTPS, and the headers of every answer: `KOSCI_PROXY_HOPS` and
`KOSCI_HTTPS` read from the environment, forwarded headers believed only when configured,
Secure `__Host-` cookies and HSTS, Permissions-Policy and COOP everywhere, and no private page
or API answer stored by a browser or a cache on the way. tests/e2e/test_proxy.py runs the same
behind a real proxy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.middleware.proxy_fix import ProxyFix

from tracker import create_app
from tracker.extensions import db
from tracker.models import LoginFailure
from tracker.services import accounts
from tracker.settings import ConfigError

from .apps import dispose_engines

pytestmark = pytest.mark.one_backend("headers and proxies, not the database")

PASSWORD = "Kości i kubek 2024"
HTTPS = "https://localhost"
HTTP = "http://localhost"  # said outright: with KOSCI_HTTPS the test client defaults to https
CSRF_INPUT = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
SETTINGS = ("KOSCI_PROXY_HOPS", "KOSCI_HTTPS")


@pytest.fixture
def env_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator:
    """`env_app(KOSCI_HTTPS="1", ...)`: an app built with these environment variables (and
    neither of the two settings otherwise)."""
    built: list[Flask] = []

    def build(config: dict | None = None, **env: str) -> Flask:
        for name in SETTINGS:
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        app = create_app(
            {
                "SECRET_KEY": "x",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                **(config or {}),
            },
            instance_path=tmp_path / "instance",
        )
        built.append(app)
        return app

    yield build
    for app in built:
        dispose_engines(app)


def form_token(client: FlaskClient, url: str, **kwargs) -> str:
    page = client.get(url, **kwargs)
    assert page.status_code == 200, page.status_code
    match = CSRF_INPUT.search(page.get_data(as_text=True))
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def sign_up(client: FlaskClient, base_url: str = HTTP) -> None:
    """Sign up (and so sign in) "Kowalscy", as a browser would: on HTTPS Flask-WTF wants the
    Referer of the form's page."""
    token = form_token(client, "/rejestracja", base_url=base_url)
    response = client.post(
        "/rejestracja",
        base_url=base_url,
        data={"csrf_token": token, "name": "Kowalscy", "password": PASSWORD, "confirm": PASSWORD},
        headers={"Referer": f"{base_url}/rejestracja"},
    )
    assert response.status_code == 302, response.get_data(as_text=True)


def set_cookie(response, name: str) -> str:
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith(f"{name}="):
            return header
    raise AssertionError(f"no {name} in {response.headers.getlist('Set-Cookie')}")


def attributes(header: str) -> set[str]:
    return {part.strip().lower() for part in header.split(";")[1:]}


# --- settings from the environment -----------------------------------------------------------


def test_by_default_the_app_trusts_no_proxy_and_expects_plain_http(env_app):
    app = env_app()

    assert app.config["KOSCI_PROXY_HOPS"] == 0
    assert app.config["KOSCI_HTTPS"] is False
    assert not isinstance(app.wsgi_app, ProxyFix)
    assert app.config["SESSION_COOKIE_NAME"] == "session"
    assert app.config["SESSION_COOKIE_SECURE"] is False
    assert app.config["REMEMBER_COOKIE_SAMESITE"] == "Lax"
    assert app.config["REMEMBER_COOKIE_HTTPONLY"] is True


@pytest.mark.parametrize(("raw", "hops"), [("1", 1), ("2", 2), (" 1 ", 1), ("0", 0), ("", 0)])
def test_proxy_hops_come_from_the_environment(env_app, raw: str, hops: int):
    app = env_app(KOSCI_PROXY_HOPS=raw)

    assert app.config["KOSCI_PROXY_HOPS"] == hops
    if hops:
        assert isinstance(app.wsgi_app, ProxyFix)
        assert (app.wsgi_app.x_for, app.wsgi_app.x_proto, app.wsgi_app.x_host) == (hops,) * 3
        assert app.wsgi_app.x_prefix == 0
    else:
        assert not isinstance(app.wsgi_app, ProxyFix)


@pytest.mark.parametrize(
    ("raw", "on"), [("1", True), ("true", True), ("yes", True), ("0", False), ("off", False)]
)
def test_https_comes_from_the_environment(env_app, raw: str, on: bool):
    app = env_app(KOSCI_HTTPS=raw)

    assert app.config["KOSCI_HTTPS"] is on
    assert app.config["SESSION_COOKIE_SECURE"] is on
    assert bool(app.config.get("REMEMBER_COOKIE_SECURE")) is on
    assert app.config["SESSION_COOKIE_NAME"] == ("__Host-session" if on else "session")


@pytest.mark.parametrize(
    ("name", "raw"),
    [("KOSCI_PROXY_HOPS", "-1"), ("KOSCI_PROXY_HOPS", "two"), ("KOSCI_HTTPS", "maybe")],
)
def test_a_setting_that_makes_no_sense_stops_the_app_with_its_name(env_app, name, raw):
    with pytest.raises(ConfigError, match=name):
        env_app(**{name: raw})


def test_https_keeps_the_plain_session_name_where_the_prefix_cannot_apply(env_app):
    """Browsers refuse a `__Host-` cookie with a Domain: a configured domain keeps the name."""
    app = env_app({"SESSION_COOKIE_DOMAIN": "kosci.example"}, KOSCI_HTTPS="1")

    assert app.config["SESSION_COOKIE_NAME"] == "session"
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["REMEMBER_COOKIE_NAME"] == "__Host-remember_token"


# --- HTTPS: cookies and HSTS -----------------------------------------------------------------


@pytest.mark.parametrize("app_config", [{"KOSCI_HTTPS": True}])
def test_over_https_cookies_are_secure_host_only_and_hsts_is_sent(client: FlaskClient):
    token_page = client.get("/rejestracja", base_url=HTTPS)
    sign_up(client, HTTPS)
    signed_up = client.get("/konto", base_url=HTTPS)
    plain = client.get("/zasady", base_url=HTTP)

    session = set_cookie(token_page, "__Host-session")
    assert {"secure", "httponly", "path=/", "samesite=lax"} <= attributes(session)
    assert not any(attribute.startswith("domain=") for attribute in attributes(session))
    assert signed_up.status_code == 200  # the prefixed cookies sign the browser in
    assert token_page.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in plain.headers  # browsers ignore it on http


@pytest.mark.parametrize("app_config", [{"KOSCI_HTTPS": True}])
def test_over_https_the_remember_cookie_is_secure_host_only_and_lax(client: FlaskClient):
    token = form_token(client, "/rejestracja", base_url=HTTPS)

    response = client.post(
        "/rejestracja",
        base_url=HTTPS,
        data={"csrf_token": token, "name": "Kowalscy", "password": PASSWORD, "confirm": PASSWORD},
        headers={"Referer": f"{HTTPS}/rejestracja"},
    )

    remember = set_cookie(response, "__Host-remember_token")
    assert {"secure", "httponly", "path=/", "samesite=lax"} <= attributes(remember)
    assert not any(attribute.startswith("domain=") for attribute in attributes(remember))


@pytest.mark.parametrize("app_config", [{"KOSCI_HTTPS": True}])
def test_over_https_signing_out_deletes_the_remember_cookie_as_it_was_set(client: FlaskClient):
    """A browser takes (and so deletes) a `__Host-` cookie only with Secure: a deletion
    without it is refused, and the signed-out token would stay on the phone for a year."""
    sign_up(client, HTTPS)
    token = form_token(client, "/konto", base_url=HTTPS)

    response = client.post(
        "/wyloguj",
        base_url=HTTPS,
        data={"csrf_token": token},
        headers={"Referer": f"{HTTPS}/konto"},
    )

    assert response.status_code == 302
    deleted = set_cookie(response, "__Host-remember_token")
    assert {"secure", "httponly", "path=/", "max-age=0"} <= attributes(deleted)
    assert not any(attribute.startswith("domain=") for attribute in attributes(deleted))


def test_without_https_cookies_keep_plain_names_and_no_hsts_is_sent(client: FlaskClient):
    token = form_token(client, "/rejestracja")
    response = client.post(
        "/rejestracja",
        data={"csrf_token": token, "name": "Kowalscy", "password": PASSWORD, "confirm": PASSWORD},
    )
    secure_request = client.get("/zasady", base_url=HTTPS)

    remember = set_cookie(response, "remember_token")
    assert "secure" not in attributes(remember)
    assert {"httponly", "samesite=lax"} <= attributes(remember)
    assert "Strict-Transport-Security" not in secure_request.headers


# --- forwarded headers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("app_config", "counted_for"),
    [({}, "127.0.0.1"), ({"KOSCI_PROXY_HOPS": 1}, "203.0.113.9")],
)
def test_failed_sign_ins_count_for_the_forwarded_address_only_behind_a_proxy(
    app: Flask, client: FlaskClient, counted_for: str
):
    """Behind a proxy every request comes from the proxy: throttling must key on the client's
    address it forwards, and only the last hop's (the proxy's own) value is believed."""
    with app.app_context():
        accounts.create_account("Kowalscy", PASSWORD)
    token = form_token(client, "/logowanie")

    client.post(
        "/logowanie",
        data={"csrf_token": token, "name": "Kowalscy", "password": "nie to hasło"},
        headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.9"},  # forged, then the proxy's
    )

    with app.app_context():
        assert db.session.scalars(select(LoginFailure.remote_addr)).all() == [counted_for]


@pytest.mark.parametrize(
    ("app_config", "location"),
    [
        ({"KOSCI_HTTPS": True}, "http://localhost/konto/dane"),
        ({"KOSCI_HTTPS": True, "KOSCI_PROXY_HOPS": 1}, "https://kosci.example/konto/dane"),
    ],
)
def test_the_forwarded_scheme_and_host_count_only_behind_a_proxy(client: FlaskClient, location):
    # werkzeug redirects a doubled slash to a full URL built from the request's scheme and host.
    response = client.get(
        "/konto//dane",
        base_url=HTTP,
        headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "kosci.example"},
    )

    assert response.status_code == 308
    assert response.headers["Location"] == location
    assert ("Strict-Transport-Security" in response.headers) is location.startswith("https")


# --- headers on every answer -----------------------------------------------------------------


@pytest.mark.shared_app
@pytest.mark.parametrize(
    "path",
    ["/", "/zasady", "/sedzia", "/healthz", "/static/favicon.svg", "/nie-ma", "/api/v1/nie-ma"],
)
def test_every_answer_refuses_device_features_and_isolates_its_window(
    client: FlaskClient, path: str
):
    response = client.get(path)
    response.close()

    policy = {
        feature.strip(): allowed
        for feature, _, allowed in (
            item.partition("=") for item in response.headers["Permissions-Policy"].split(",")
        )
    }
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert policy[feature] == "()", feature
    assert policy["screen-wake-lock"] == "(self)"  # left for keeping a phone's screen on
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"


def test_no_page_of_a_signed_in_account_is_stored(client: FlaskClient):
    sign_up(client)

    for path in (
        "/",
        "/konto",
        "/zasady",
        "/sedzia",
        "/gracze",
        "/gry/nowa",
        "/statystyki",
        "/historia",
        "/konto/dane",
        "/nie-ma",
    ):
        response = client.get(path)
        assert response.status_code in (200, 404), (path, response.status_code)
        assert response.headers.get("Cache-Control") == "no-store", path


def test_no_api_answer_is_stored(app: Flask, client: FlaskClient):
    with app.app_context():
        account = accounts.create_account("Kowalscy", PASSWORD)
        _, token = accounts.create_token(account.id, "test")
    bearer = {"Authorization": f"Bearer {token}"}

    answers = {
        "rules": client.post(
            "/api/v1/score", json={"variant": "standard", "dice": [1, 2, 3, 4, 5]}
        ),
        "refused": client.post("/api/v1/score", json={}),
        "unknown URL": client.get("/api/v1/nie-ma"),
        "no token": client.get("/api/v1/games"),
        "games": client.get("/api/v1/games", headers=bearer),
        "stats": client.get("/api/v1/stats", headers=bearer),
    }

    assert [answer.status_code for answer in answers.values()] == [200, 400, 404, 401, 200, 200]
    for name, answer in answers.items():
        assert answer.headers.get("Cache-Control") == "no-store", name


@pytest.mark.shared_app
def test_public_pages_and_static_files_keep_their_caching(client: FlaskClient):
    """Nobody signed in: the rules, `/healthz` and static files may be cached as before."""
    responses = {path: client.get(path) for path in ("/zasady", "/healthz", "/static/favicon.svg")}

    for path, response in responses.items():
        assert "no-store" not in response.headers.get("Cache-Control", ""), path
        response.close()
