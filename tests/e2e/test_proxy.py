"""`flask serve` behind a reverse proxy that says the site is on HTTPS, as the README sets it up:
Caddy (`reverse_proxy`, here over plain HTTP on loopback with `auto_https off`, told to say
`X-Forwarded-Proto: https` as it does when it terminates TLS), or, where Caddy is not installed,
a minimal forwarding proxy that sets the same headers. The server behind it runs with
`KOSCI_PROXY_HOPS=1 KOSCI_HTTPS=1`; the session's shared server (no settings) shows that
without them forged forwarding headers are ignored.

Clients connect from different loopback addresses (127.0.0.x: all of 127/8 is this machine on
Linux), so the proxy sees, and forwards, a different client address for each.
"""

from __future__ import annotations

import contextlib
import http.client
import http.server
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from forwarding import Request, forwarding_proxy, passed_headers
from live import (
    LiveServer,
    dispose_engines,
    free_port,
    log_tail,
    start_server,
    stop_process_group,
)

from .web import CSRF_META, PASSWORD, Answer

pytestmark = pytest.mark.e2e

PUBLIC_HOST = "kosci.example"  # the name families type; the proxy passes it on
PROXY_START_TIMEOUT = 20.0

CADDYFILE = """\
{{
	admin off
	auto_https off
}}

http://:{port} {{
	bind 127.0.0.1
	reverse_proxy 127.0.0.1:{app_port} {{
		# Caddy says https itself when it terminates TLS; here it speaks plain HTTP.
		header_up X-Forwarded-Proto https
	}}
}}
"""


# --- the client: a cookie jar that connects from a chosen loopback address ------------------


def send(
    base_url: str,
    method: str,
    path: str,
    *,
    source: str = "127.0.0.1",
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> Answer:
    """One request on its own connection, from the address `source`."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=30, source_address=(source, 0)
    )
    try:
        conn.request(method, path, body=body, headers={"Connection": "close", **(headers or {})})
        response = conn.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        conn.close()


class Phone:
    """A browser without JavaScript at the address `source`, sending `Host: host`. Like a
    browser, it names the page a form was posted from (Referer): on HTTPS, Flask-WTF refuses a
    form whose Referer is not a page of the same host."""

    def __init__(
        self, base_url: str, source: str, host: str | None = None, scheme: str = "https"
    ) -> None:
        self.base_url = base_url
        self.source = source
        self.host = host
        self.origin = f"{scheme}://{host or urlsplit(base_url).netloc}"
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, **headers: str
    ) -> Answer:
        if self.host:
            headers.setdefault("Host", self.host)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers.setdefault("Referer", f"{self.origin}{path}")
        answer = send(self.base_url, method, path, source=self.source, headers=headers, body=body)
        for morsel in set_cookies(answer).values():
            self.cookies[morsel.key] = morsel.value
        return answer

    def csrf_token(self, path: str) -> str:
        page = self.request("GET", path)
        assert page.status == 200, (path, page)
        found = CSRF_META.search(page.text)
        assert found, f"no CSRF token on {path}"
        return found.group(1)

    def sign_in(self, name: str, password: str, token: str | None = None) -> Answer:
        token = token or self.csrf_token("/logowanie")
        form = {"csrf_token": token, "name": name, "password": password}
        return self.request("POST", "/logowanie", form)


def set_cookies(answer: Answer) -> dict[str, SimpleCookie]:
    cookies = {}
    for header in answer.headers.get_all("Set-Cookie") or []:
        for name, morsel in SimpleCookie(header).items():
            cookies[name] = morsel
    return cookies


def raw_set_cookie(answer: Answer, name: str) -> str:
    """The Set-Cookie header that sets `name`, as sent (its attributes included)."""
    for header in answer.headers.get_all("Set-Cookie") or []:
        if header.startswith(f"{name}="):
            return header
    raise AssertionError(f"no Set-Cookie for {name}: {answer.headers.get_all('Set-Cookie')}")


def attributes(set_cookie: str) -> set[str]:
    """The attributes of a Set-Cookie header, lower case: {"secure", "path=/", ...}."""
    return {part.strip().lower() for part in set_cookie.split(";")[1:]}


# --- the servers -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def proxied_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """`flask serve` configured for a proxy in front and HTTPS: `KOSCI_PROXY_HOPS=1`,
    `KOSCI_HTTPS=1`."""
    server, process = start_server(
        tmp_path_factory.mktemp("proxied"),
        env={"KOSCI_PROXY_HOPS": "1", "KOSCI_HTTPS": "1"},
        workers=2,
    )
    try:
        yield server
    finally:
        stop_process_group(process)
        dispose_engines(server.app)


@pytest.fixture(scope="module")
def proxy(proxied_server: LiveServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The proxy's URL: Caddy if it is installed, else a forwarding proxy in this process."""
    app_port = urlsplit(proxied_server.url).port
    assert app_port is not None
    if shutil.which("caddy"):
        with caddy(tmp_path_factory.mktemp("caddy"), app_port) as url:
            yield url
    else:
        with python_proxy(app_port) as url:
            yield url


@contextlib.contextmanager
def caddy(directory: Path, app_port: int) -> Iterator[str]:
    port = free_port()
    caddyfile = directory / "Caddyfile"
    caddyfile.write_text(CADDYFILE.format(port=port, app_port=app_port), encoding="utf-8")
    log_path = directory / "caddy.log"
    env = {
        "HOME": str(directory),
        "XDG_DATA_HOME": str(directory / "data"),
        "XDG_CONFIG_HOME": str(directory / "config"),
        "PATH": "/usr/bin:/bin",
    }
    command = ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_proxy(url, lambda: process.poll() is None, log_path)
        yield url
    finally:
        stop_process_group(process)


# Headers that describe one connection, not the request: a proxy does not pass them on.
FORWARDED = {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"}


@contextlib.contextmanager
def python_proxy(app_port: int) -> Iterator[str]:
    """What Caddy's `reverse_proxy` does, in a few lines: the Host kept, X-Forwarded-For set to
    the address the client connected from (whatever the client sent), X-Forwarded-Proto https
    (as when it terminates TLS), X-Forwarded-Host the Host asked for."""

    def as_caddy_sends_them(request: Request) -> dict[str, str]:
        headers = {k: v for k, v in passed_headers(request).items() if k.lower() not in FORWARDED}
        headers["X-Forwarded-For"] = request.client_address[0]
        headers["X-Forwarded-Proto"] = "https"
        headers["X-Forwarded-Host"] = request.headers.get("Host", "")
        return headers

    with forwarding_proxy(app_port, upstream_headers=as_caddy_sends_them) as url:
        # Served by a thread of this process, it listens from the start: the wait checks that
        # the app answers through it.
        wait_for_proxy(url, lambda: True, None)
        yield url


def wait_for_proxy(url: str, running, log_path: Path | None) -> None:
    deadline = time.monotonic() + PROXY_START_TIMEOUT
    last_error = "no answer yet"
    while time.monotonic() < deadline:
        if not running():
            pytest.fail("the proxy stopped:\n" + (log_tail(log_path) if log_path else ""))
        try:
            answer = send(url, "GET", "/healthz")
            if answer.status == 200 and answer.text == "ok":
                return
            last_error = repr(answer)
        except OSError as exc:
            last_error = str(exc)
        time.sleep(0.1)
    pytest.fail(
        f"the proxy did not answer within {PROXY_START_TIMEOUT:.0f} s ({last_error})\n"
        + (log_tail(log_path) if log_path else "")
    )


def new_name(family: str) -> str:
    return f"{family} {uuid.uuid4().hex[:8]}"


# --- behind the proxy ------------------------------------------------------------------------


def test_cookies_are_secure_and_host_prefixed_and_hsts_is_sent(proxy: str):
    phone = Phone(proxy, "127.0.0.2", PUBLIC_HOST)

    page = phone.request("GET", "/rejestracja")
    name = new_name("Proxy")
    token = CSRF_META.search(page.text)
    assert token, page
    signed_up = phone.request(
        "POST",
        "/rejestracja",
        {"csrf_token": token.group(1), "name": name, "password": PASSWORD, "confirm": PASSWORD},
    )

    assert page.status == 200
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "camera=()" in page.headers["Permissions-Policy"]
    assert page.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    session = raw_set_cookie(page, "__Host-session")
    assert {"secure", "httponly", "path=/", "samesite=lax"} <= attributes(session)
    assert not any(a.startswith("domain=") for a in attributes(session))
    assert signed_up.status in (302, 303), signed_up
    remember = raw_set_cookie(signed_up, "__Host-remember_token")
    assert {"secure", "httponly", "path=/", "samesite=lax"} <= attributes(remember)
    assert not any(a.startswith("domain=") for a in attributes(remember))
    assert "session" not in phone.cookies  # no cookie under the plain name
    account = phone.request("GET", "/konto")
    assert account.status == 200, account
    assert account.headers["Cache-Control"] == "no-store"


def test_redirects_keep_https_and_the_public_host(proxy: str):
    phone = Phone(proxy, "127.0.0.2", PUBLIC_HOST)

    # werkzeug answers a doubled slash with a full URL built from the request's scheme and host.
    answer = phone.request("GET", "/konto//dane")

    assert answer.status == 308, answer
    assert answer.headers["Location"] == f"https://{PUBLIC_HOST}/konto/dane"


def test_sign_in_throttling_counts_each_forwarded_address_apart(proxy: str):
    """Every request reaches the app from the proxy's address; the app must count failed
    sign-ins per client address, the one the proxy forwards, or 20 failures from one phone
    would lock every family out."""
    owner = Phone(proxy, "127.0.0.3")
    name = new_name("Zamek")
    token = owner.csrf_token("/rejestracja")
    signed_up = owner.request(
        "POST",
        "/rejestracja",
        {"csrf_token": token, "name": name, "password": PASSWORD, "confirm": PASSWORD},
    )
    assert signed_up.status in (302, 303), signed_up

    guesser = Phone(proxy, "127.0.0.4")
    token = guesser.csrf_token("/logowanie")
    # Each guess at another name, so only the address limit (20 in 15 minutes) can apply;
    # the last one comes from a forged X-Forwarded-For, which the proxy replaces.
    for attempt in range(20):
        answer = guesser.sign_in(new_name("Zgadywanie"), "zle haslo", token)
        assert answer.status in (200, 400), (attempt, answer)  # refused, not throttled
    throttled = guesser.request(
        "POST",
        "/logowanie",
        {"csrf_token": token, "name": new_name("Zgadywanie"), "password": "zle haslo"},
        **{"X-Forwarded-For": "198.51.100.7"},
    )
    family = Phone(proxy, "127.0.0.5").sign_in(name, PASSWORD)

    assert throttled.status == 429, throttled
    assert family.status in (302, 303), family


# --- with no proxy configured ----------------------------------------------------------------


@pytest.mark.one_backend("forwarding headers and the URLs built from them touch no database")
def test_without_proxy_hops_forged_forwarding_headers_are_ignored(live_server: LiveServer):
    """The shared server has no KOSCI_PROXY_HOPS: X-Forwarded-For, -Proto and -Host sent by a
    client are not believed, neither for sign-in throttling nor for the URLs it builds."""
    name = new_name("Bez proxy")
    owner = Phone(live_server.url, "127.0.0.6", scheme="http")
    token = owner.csrf_token("/rejestracja")
    signed_up = owner.request(
        "POST",
        "/rejestracja",
        {"csrf_token": token, "name": name, "password": PASSWORD, "confirm": PASSWORD},
    )
    assert signed_up.status in (302, 303), signed_up
    guesser = Phone(live_server.url, "127.0.0.7", scheme="http")
    token = guesser.csrf_token("/logowanie")

    for attempt in range(20):
        forged = {"X-Forwarded-For": f"203.0.113.{attempt + 1}"}
        answer = guesser.request(
            "POST",
            "/logowanie",
            {"csrf_token": token, "name": new_name("Zgadywanie"), "password": "zle haslo"},
            **forged,
        )
        assert answer.status in (200, 400), (attempt, answer)  # refused, not throttled
    throttled = guesser.request(
        "POST",
        "/logowanie",
        {"csrf_token": token, "name": name, "password": PASSWORD},
        **{"X-Forwarded-For": "198.51.100.8"},
    )
    # From 127.0.0.1, with forwarded headers nothing configured may believe (granian reads none).
    redirect = send(
        live_server.url,
        "GET",
        "/konto//dane",
        headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"},
    )

    assert throttled.status == 429, throttled
    assert redirect.status == 308, redirect
    assert redirect.headers["Location"] == f"{live_server.url}/konto/dane"
    assert "Strict-Transport-Security" not in redirect.headers
    assert "__Host-session" not in guesser.cookies
    assert "session" in guesser.cookies
