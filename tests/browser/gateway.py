"""A gateway in front of `flask serve`, as nginx stands in front of it at a club (README "Behind a
proxy, over HTTPS"): it passes every request on, or, while the test says the app is away
(`gateway.answer(502)`: `serve` restarting), answers for it itself with nginx's bare error page,
as nginx does when it cannot reach the app. It counts what it answered, to see what a phone
asked while the app was away."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from forwarding import Reply, Request, forwarding_proxy

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
    only: str | None = None  # a path: only its requests are answered, the rest pass on


@dataclass
class Gateway:
    url: str
    away: Away | None = None
    # (path, status) of every request it answered for the app while it was away, in order,
    # with the time it came (time.monotonic()).
    answered: list[tuple[str, int, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(
        self,
        status: int,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        *,
        only: str | None = None,
    ) -> None:
        """From now on, answer every request itself: nginx's page for `status` unless `body`.
        `only`: just the requests for this path (a 504 for one slow page)."""
        page = nginx_page(status) if body is None else body
        self.away = Away(status, page, {"Content-Type": "text/html", **(headers or {})}, only)

    def pass_on(self) -> None:
        """From now on, pass every request on to the app again (it is back)."""
        self.away = None

    def asked(self, path: str) -> list[float]:
        """When requests for `path` (query left out) came while the app was away."""
        with self.lock:
            return [when for asked, _, when in self.answered if asked == path]

    def reply_while_away(self, request: Request) -> Reply | None:
        """The gateway's own answer while the app is away (noted), else None: ask the app."""
        away = self.away
        path = urlsplit(request.path).path
        if away is None or away.only not in (None, path):
            return None
        with self.lock:
            self.answered.append((path, away.status, time.monotonic()))
        return Reply(away.status, REASONS.get(away.status, ""), away.headers.items(), away.body)


@contextlib.contextmanager
def gateway_to(app_url: str) -> Iterator[Gateway]:
    app_port = urlsplit(app_url).port
    assert app_port is not None
    gateway = Gateway(url="")
    with forwarding_proxy(
        app_port, name="gateway", answer_instead=gateway.reply_while_away
    ) as gateway.url:
        yield gateway
