"""A forwarding proxy in a few lines, for the tests that put something in front of `flask serve`
as a club puts nginx or Caddy (README "Behind a proxy, over HTTPS"): every request is passed on
to the app and its answer back, each on a connection of its own. What makes one proxy differ
from another is given as two hooks: the headers it sends the app (`upstream_headers`), and an
answer it gives itself instead of asking the app (`answer_instead`: a gateway whose app is
away)."""

from __future__ import annotations

import contextlib
import http.client
import http.server
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Reply:
    """An answer the proxy sends: the app's, passed on, or one of its own."""

    status: int
    reason: str
    headers: Iterable[tuple[str, str]]
    body: bytes


Request = http.server.BaseHTTPRequestHandler  # what the hooks get: path, headers, client


def passed_headers(request: Request) -> dict[str, str]:
    """The request's headers a proxy passes on as they are (the default `upstream_headers`)."""
    return {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}


@contextlib.contextmanager
def forwarding_proxy(
    app_port: int,
    *,
    name: str = "proxy",
    upstream_headers: Callable[[Request], dict[str, str]] = passed_headers,
    answer_instead: Callable[[Request], Reply | None] = lambda _request: None,
) -> Iterator[str]:
    """A proxy to the app on `app_port` of this machine, running in a thread while the block
    runs; its URL."""

    class Forward(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            own = answer_instead(self)
            self.send(own if own is not None else self.ask_app(body))

        def ask_app(self, body: bytes | None) -> Reply:
            upstream = http.client.HTTPConnection("127.0.0.1", app_port, timeout=30)
            try:
                upstream.request(self.command, self.path, body=body, headers=upstream_headers(self))
                answer = upstream.getresponse()
                data = answer.read()
            finally:
                upstream.close()
            passed = [(k, v) for k, v in answer.getheaders() if k.lower() not in HOP_BY_HOP]
            return Reply(answer.status, answer.reason, passed, data)

        def send(self, reply: Reply) -> None:
            self.send_response_only(reply.status, reply.reason)
            for header, value in reply.headers:
                self.send_header(header, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(reply.body)
            self.close_connection = True

        do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = forward

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forward)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
