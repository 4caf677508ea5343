"""A small stdlib HTTP client for the end-to-end tests: every request opens a fresh connection
(so requests spread over the worker processes, as many phones' do).

`Browserless` keeps cookies and reads CSRF tokens like a browser without JavaScript; `Api` sends
JSON with a bearer token. Redirects are never followed: tests look at `location`.
"""

from __future__ import annotations

import base64
import http.client
import json
import re
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode, urlsplit

from live import CSRF_META
from sqlalchemy import select

from tracker import rules
from tracker.extensions import db
from tracker.models import Account, Player
from tracker.services import accounts

TIMEOUT = 15.0
PASSWORD = "tajne hasło 123"

ACCOUNT_HEADING = re.compile(r"<h1>Konto: ([^<]+)</h1>")


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def location(self) -> str:
        """The redirect's path (and query), without scheme and host."""
        parts = urlsplit(self.headers.get("Location", ""))
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def __repr__(self) -> str:
        return f"<Answer {self.status} {self.text[:300]!r}>"


def request(
    base_url: str,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = TIMEOUT,
) -> Answer:
    """One request on its own connection."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers={"Connection": "close", **(headers or {})})
        response = conn.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        conn.close()


class Browserless:
    """A phone without JavaScript: a cookie jar, forms posted with the page's CSRF token."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, timeout: float = TIMEOUT
    ) -> Answer:
        headers = {}
        body = None
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        answer = request(self.base_url, method, path, body, headers, timeout)
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"] or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return answer

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def csrf_token(self, path: str) -> str:
        page = self.get(path)
        assert page.status == 200, (path, page)
        found = CSRF_META.search(page.text)
        assert found, f"no CSRF token on {path}"
        return found.group(1)

    def post_form(self, path: str, form: dict[str, str], token_from: str | None = None) -> Answer:
        """POST `form` to `path` with the CSRF token of the page at `token_from` (else `path`)."""
        token = self.csrf_token(token_from or path)
        return self.request("POST", path, {"csrf_token": token, **form})

    def sign_up(self, name: str, password: str = PASSWORD) -> None:
        answer = self.post_form(
            "/rejestracja", {"name": name, "password": password, "confirm": password}
        )
        assert answer.status in (302, 303), f"sign-up of {name!r} answered {answer}"
        assert self.account_name() == name

    def sign_in(self, name: str, password: str = PASSWORD) -> None:
        answer = self.post_form("/logowanie", {"name": name, "password": password})
        assert answer.status in (302, 303), f"sign-in of {name!r} answered {answer}"

    def ready_post(
        self, path: str, form: dict[str, str] | None = None, token_from: str | None = None
    ) -> Callable[[], Answer]:
        """`post_form` in two halves, for `at_once`: the CSRF token is read now (from the page
        at `token_from`, else `path`), the POST is sent when the result is called."""
        token = self.csrf_token(token_from or path)
        return lambda: self.request("POST", path, {"csrf_token": token, **(form or {})})

    def account_name(self) -> str | None:
        """The name on /konto, or None when /konto sends this client to sign in."""
        page = self.get("/konto")
        if page.status in (302, 303):
            assert page.location.startswith("/logowanie"), page.location
            return None
        assert page.status == 200, page
        found = ACCOUNT_HEADING.search(page.text)
        assert found, page
        return found.group(1)


def csrf_session_token(signed: str) -> str:
    """The raw session token inside a signed Flask-WTF CSRF token (`payload.timestamp.sig`)."""
    payload = signed.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class Api:
    """The JSON API with one account's bearer token."""

    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url
        self.token = token

    def call(self, method: str, path: str, body: Any = None, timeout: float = TIMEOUT) -> Answer:
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        return request(self.base_url, method, f"/api/v1{path}", data, headers, timeout)

    def create_game(self, variant: str, players: Sequence[str]) -> dict[str, Any]:
        answer = self.call("POST", "/games", {"variant": variant, "players": list(players)})
        assert answer.status == 201, answer
        return answer.json()

    def game(self, game_id: int) -> dict[str, Any]:
        answer = self.call("GET", f"/games/{game_id}")
        assert answer.status == 200, answer
        return answer.json()

    def turn(self, game_id: int, move: dict[str, Any], timeout: float = TIMEOUT) -> Answer:
        return self.call("POST", f"/games/{game_id}/turns", move, timeout)

    def undo(self, game_id: int) -> Answer:
        return self.call("DELETE", f"/games/{game_id}/turns/last")


def new_account(live_server: Any, family: str = "Rodzina", *, cli: bool = False) -> tuple[str, str]:
    """An account and an API token in the server's database: (name, token).

    Made by the services the `create-account` and `create-token` commands call, through the
    server's app (`live_server.app`, the same database). `cli`: with those commands instead,
    run against the server's installation as a user would: two more processes, each starting
    the app (1.5–3 s of CPU; the integration tests cover the commands themselves)."""
    name = f"{family} {uuid.uuid4().hex[:8]}"
    if cli:
        live_server.flask("create-account", name, "--password", PASSWORD)
        token = live_server.flask("create-token", name).stdout.strip().splitlines()[-1]
        return name, token
    with live_server.app.app_context():
        account = accounts.create_account(name, PASSWORD)
        _, token = accounts.create_token(account.id, "end-to-end")
    return name, token


# The forms that take a tap back, as the pages draw them: a trash entry's „Przywróć” (and the
# „Cofnij” beside a deletion), and a merge's „Cofnij”.
RESTORE_FORM = re.compile(r'action="(/historia/kosz/\d+/przywroc)"')
UNDO_MERGE_FORM = re.compile(r'action="(/gracze/polaczenia/\d+/cofnij)"')


@dataclass
class Family:
    """One account with an API token and two phones signed in to it (`two_phones`)."""

    live_server: Any
    account_id: int
    api: Api
    phones: list[Browserless]

    def player_ids(self, name: str) -> list[int]:
        """The ids of the account's players called `name` (none, one, or a name twice)."""
        with self.live_server.app.app_context():
            return list(
                db.session.scalars(
                    select(Player.id).where(
                        Player.account_id == self.account_id, Player.name == name
                    )
                )
            )

    def player_id(self, name: str) -> int:
        (found,) = self.player_ids(name)
        return found


def two_phones(live_server: Any, family: str) -> Family:
    """A new account (`new_account`) and two phones signed in to it."""
    name, token = new_account(live_server, family)
    phones = [Browserless(live_server.url), Browserless(live_server.url)]
    for phone in phones:
        phone.sign_in(name)
    with live_server.app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == name))
    assert account_id is not None
    return Family(live_server, account_id, Api(live_server.url, token), phones)


def legal_move(table: rules.TableGame, dice: rules.Dice, pick: Callable[[list], Any]) -> dict:
    """A move the rules accept for `dice` on `table`, chosen by `pick`, as an API turn body
    (not yet played on `table`)."""
    moves = list(table.evaluate(dice).moves)
    assert moves, "the rules always leave a legal move"
    placement = pick(moves)
    return {"dice": list(dice), "field": placement.field, "column": placement.column}


def sheet_of(table: rules.TableGame) -> list[list[dict[str, int]]]:
    """Every player's columns of written cells, as the game JSON shows them."""
    return [[dict(column.cells) for column in sheet] for sheet in table.sheets]


def sheet_in(game: dict[str, Any]) -> list[list[dict[str, int]]]:
    return [[column["cells"] for column in player["columns"]] for player in game["players"]]


def at_once(*calls: Callable[[], Answer], timeout: float = 30) -> list[Answer | BaseException]:
    """Run the calls in threads released together by a barrier; their answers in order (or the
    exception a call raised)."""
    barrier = threading.Barrier(len(calls))
    results: list[Answer | BaseException | None] = [None] * len(calls)

    def run(index: int, call: Callable[[], Answer]) -> None:
        try:
            barrier.wait(timeout=timeout)
            results[index] = call()
        except BaseException as exc:  # reported to the test, which fails with it
            results[index] = exc

    threads = [
        threading.Thread(target=run, args=(i, c), name=f"at_once-{i}") for i, c in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(t.is_alive() for t in threads), "a request never finished"
    return [r for r in results if r is not None]
