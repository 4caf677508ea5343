"""A gateway in front of `flask serve`, as nginx stands in front of it at a club (README "Behind a
proxy, over HTTPS"): it passes every request on, or, while the test says the app is away
(`gateway.answer(502)`: `serve` restarting), answers for it itself with nginx's bare error page,
as nginx does when it cannot reach the app. It counts what it answered, to see what a phone
asked while the app was away."""

from __future__ import annotations

import contextlib
import http.client
import http.server
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

# Headers that describe one connection, not the request: a proxy does not pass them on.
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
}
REASONS = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Temporarily Unavailable",
    504: "Gateway Time-out",
}


def nginx_page(status: int) -> bytes:
    """What nginx answers by itself for `status`: its bare page, no header of the app."""
    title = f"{status} {REASONS[status]}"
    return (
        f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n"
        f"<center><h1>{title}</h1></center>\r\n<hr><center>nginx</center>\r\n"
        "</body>\r\n</html>\r\n"
    ).encode()


@dataclass
class Away:
    """What the gateway answers for the app while it is away."""

    status: int
    body: bytes
    headers: dict[str, str]


@dataclass
class Gateway:
    url: str
    away: Away | None = None
    # (path, status) of every request it answered for the app while it was away, in order,
    # with the time it came (time.monotonic()).
    answered: list[tuple[str, int, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(
        self, status: int, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> None:
        """From now on, answer every request itself: nginx's page for `status` unless `body`."""
        page = nginx_page(status) if body is None else body
        self.away = Away(status, page, {"Content-Type": "text/html", **(headers or {})})

    def pass_on(self) -> None:
        """From now on, pass every request on to the app again (it is back)."""
        self.away = None

    def asked(self, path: str) -> list[float]:
        """When requests for `path` (query left out) came while the app was away."""
        with self.lock:
            return [when for asked, _, when in self.answered if asked == path]


@contextlib.contextmanager
def gateway_to(app_url: str) -> Iterator[Gateway]:
    app_port = urlsplit(app_url).port
    assert app_port is not None
    gateway = Gateway(url="")

    class Forward(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            away = gateway.away
            if away is not None:
                with gateway.lock:
                    path = urlsplit(self.path).path
                    gateway.answered.append((path, away.status, time.monotonic()))
                reason = REASONS.get(away.status, "")
                self.send(away.status, reason, away.headers.items(), away.body)
                return
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            upstream = http.client.HTTPConnection("127.0.0.1", app_port, timeout=30)
            try:
                upstream.request(self.command, self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
            finally:
                upstream.close()
            passed = [(k, v) for k, v in answer.getheaders() if k.lower() not in HOP_BY_HOP]
            self.send(answer.status, answer.reason, passed, data)

        def send(self, status: int, reason: str, headers, data: bytes) -> None:
            self.send_response_only(status, reason)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            self.close_connection = True

        do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = forward

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forward)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="gateway", daemon=True)
    thread.start()
    gateway.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield gateway
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
