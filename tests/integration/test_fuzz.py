"""No input answers 500: every endpoint of `app.url_map`, fuzzed, and the inputs that once did.

The fuzz test walks the URL map, so a new endpoint is fuzzed without being listed here. Each
route and method gets random query strings, form fields and JSON bodies (huge integers, the
calendar's first and last days, odd Unicode, empty values, malformed JSON), signed in and signed
out for the pages, with a bearer token and without one for `/api/v1`. The app is built once for
the module, with CSRF off so that form posts reach the views; every example uses a fresh client
(its session cookie copied), so signing out or up in one example changes nothing for the next.

The regression tables below are the reproductions of the bugs the fuzzing is there to prevent:
days at the ends of the calendar (local midnight in UTC overflowed) and integers too long for
`int()` (more than 4,300 digits) or for SQLite.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

import pytest
from conftest import examples as scaled
from flask import Flask
from flask.testing import FlaskClient
from history_builders import PASSWORD, build_family, new_account
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from postgres import POSTGRESQL
from sqlalchemy import select, update
from werkzeug.datastructures import MultiDict
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from tracker.extensions import db
from tracker.models import Account, AccountSession, Player
from tracker.services import InvalidInput, accounts, games, stats
from tracker.services.filters import read_filter
from tracker.services.inputs import FIRST_DAY, LAST_DAY, whole_number

from .apps import backend_of, make_app, release_app

HUGE = "1" * 5000  # more digits than int() converts (4,300)
OUT_OF_RANGE = "Data {day} jest poza zakresem: podaj dzień od 2.01.0001 do 30.12.9999."
FIRST, LAST = "1.01.0001", "31.12.9999"  # how the messages write the calendar's two ends


@dataclass(frozen=True)
class Site:
    """The module's app: the Kowalscy's history (every variant, finished and not), signed in
    (`cookie`) and with an API `token`."""

    app: Flask
    account_id: int
    games: dict[str, int]
    players: tuple[int, ...]
    token: str
    token_id: int
    cookie: str

    def client(self, signed_in: bool = True) -> FlaskClient:
        client = self.app.test_client()
        if signed_in:
            # A fuzzed sign-out, "sign out everywhere" or password change closes the session
            # `cookie` names: open it again, so that every signed-in request is signed in.
            with self.app.app_context():
                db.session.execute(
                    update(AccountSession)
                    .where(
                        AccountSession.account_id == self.account_id,
                        AccountSession.revoked_at.is_not(None),
                    )
                    .values(revoked_at=None)
                )
                db.session.commit()
            client.set_cookie(self.app.config["SESSION_COOKIE_NAME"], self.cookie)
        return client

    @property
    def api_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def new_game(self, variant: str = "standard") -> int:
        names = ["Ala", "Ola"] if variant == "poker" else ["Ala"]
        with self.app.app_context():
            return games.create_game(self.account_id, variant, names).id


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, backend: str) -> Iterator[Site]:
    # make_app hashes passwords with one PBKDF2 round: fuzzed sign-ups and sign-ins hash them.
    app = make_app(
        tmp_path_factory.mktemp("fuzz"), backend=backend, TESTING=True, WTF_CSRF_ENABLED=False
    )
    with app.app_context():
        account_id = new_account("Kowalscy")
        ids = build_family(account_id)
        player_ids = tuple(db.session.scalars(select(Player.id).order_by(Player.id)))
        token_row, token = accounts.create_token(account_id, "fuzz")
        token_id = token_row.id
    client = app.test_client()
    signed = client.post("/logowanie", data={"name": "Kowalscy", "password": PASSWORD})
    assert signed.status_code == 302, signed.status_code
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    yield Site(app, account_id, ids, player_ids, token, token_id, cookie.value)
    release_app(app)


def field_error(html: str, field: str) -> str | None:
    """The message next to a form field (templates/_forms.html)."""
    match = re.search(rf'<p class="error" id="{field}-error">(.*?)</p>', html, re.S)
    return match.group(1) if match else None


def fill(site: Site, url: str) -> str:
    """`{game}`, `{poker}` (new games, nobody's turn written yet), `{player}` in a URL."""
    return url.format(
        game=site.new_game("standard") if "{game}" in url else 0,
        poker=site.new_game("poker") if "{poker}" in url else 0,
        player=site.players[0],
    )


# --- regressions: days at the ends of the calendar ----------------------------------------


@pytest.mark.parametrize(
    ("url", "args", "field", "day"),
    [
        ("/statystyki", {"od": "0001-01-01"}, "od", FIRST),
        ("/statystyki", {"do": "9999-12-31"}, "do", LAST),
        ("/gracze/{player}/statystyki", {"od": "0001-01-01"}, "od", FIRST),
        ("/gracze/{player}/statystyki", {"do": "9999-12-31"}, "do", LAST),
        ("/historia", {"od": "0001-01-01"}, "od", FIRST),
        ("/historia", {"do": "9999-12-31"}, "do", LAST),
        ("/historia", {"od": "1.01.0001"}, "od", FIRST),
        ("/historia", {"do": "31.12.9999"}, "do", LAST),
        ("/historia", {"od": "9999-12-31"}, "od", LAST),
        ("/historia", {"do": "0001-01-01"}, "do", FIRST),
    ],
)
def test_a_day_at_the_calendars_end_is_explained_next_to_its_field(
    site: Site, url: str, args: dict[str, str], field: str, day: str
):
    response = site.client().get(fill(site, url), query_string=args)

    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert field_error(html, field) == OUT_OF_RANGE.format(day=day)
    assert 'aria-invalid="true"' in html


@pytest.mark.parametrize(
    ("args", "day"),
    [
        ({"from": "0001-01-01"}, FIRST),
        ({"to": "9999-12-31"}, LAST),
        ({"from": "9999-12-31"}, LAST),
        ({"to": "0001-01-01"}, FIRST),
    ],
)
def test_the_stats_api_refuses_a_day_at_the_calendars_end(
    site: Site, args: dict[str, str], day: str
):
    response = site.client(signed_in=False).get(
        "/api/v1/stats", query_string=args, headers=site.api_headers
    )

    assert response.status_code == 400
    assert response.get_json() == {"error": OUT_OF_RANGE.format(day=day)}


@pytest.mark.parametrize(
    ("given", "field"),
    [({"since": "0001-01-01"}, "from"), ({"until": "9999-12-31"}, "to")],
)
def test_the_stats_service_names_the_field_of_a_day_out_of_range(given: dict[str, str], field: str):
    with pytest.raises(InvalidInput) as refused:
        read_filter(**given)

    assert refused.value.field == field


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Etc/GMT+12", "Europe/Warsaw", "UTC"])
def test_the_first_and_last_days_accepted_work_in_every_time_zone(site: Site, zone: str):
    """UTC+14 and UTC−12, the farthest zones from Greenwich: both ends still have bounds."""
    filters = read_filter(
        since=FIRST_DAY.isoformat(), until=LAST_DAY.isoformat(), zone=ZoneInfo(zone)
    )
    with site.app.app_context():
        assert stats.overview(site.account_id, filters).games > 0
    assert FIRST_DAY - timedelta(days=1) == date.min
    assert LAST_DAY + timedelta(days=1) == date.max


# --- regressions: integers of any length -------------------------------------------------

TURN = {"dice": "11123", "field": "ones", "column": "0"}


@pytest.mark.parametrize(
    ("url", "form", "message"),
    [
        ("/gry/{game}/ruch", {**TURN, "seq": HUGE}, "Numer ruchu w formularzu jest nieprawidłowy"),
        ("/gry/{game}/ruch", {**TURN, "seq": str(2**63)}, "Numer ruchu"),
        ("/gry/{game}/ruch", {**TURN, "seq": "0", "column": HUGE}, "Nie ma takiej kolumny"),
        ("/gry/{game}/ruch", {**TURN, "seq": "0", "column": str(2**64)}, "Nie ma takiej kolumny"),
        ("/gry/{game}/cofnij", {"seq": HUGE}, "Numer ruchu w formularzu jest nieprawidłowy"),
        ("/gry/{poker}/ruch", {"dice": "11123", "seq": HUGE}, "Formularz układu"),
    ],
)
def test_a_turn_form_with_a_number_out_of_range_is_a_bad_request(
    site: Site, url: str, form: dict[str, str], message: str
):
    response = site.client().post(fill(site, url), data=form)

    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


@pytest.mark.parametrize("expected_seq", ["²", "١", HUGE, "-1", str(2**64)])
def test_the_api_undo_refuses_an_expected_seq_that_is_no_number(site: Site, expected_seq: str):
    response = site.client(signed_in=False).delete(
        f"/api/v1/games/{site.new_game()}/turns/last",
        query_string={"expected_seq": expected_seq},
        headers=site.api_headers,
    )

    assert response.status_code == 400
    assert "expected_seq" in response.get_json()["error"]


def test_a_column_the_database_could_hold_but_the_sheet_has_not_is_explained(site: Site):
    game_id = site.new_game()

    response = site.client().post(
        f"/gry/{game_id}/ruch", data={**TURN, "seq": "1", "column": str(2**63 - 1)}
    )

    assert response.status_code == 400
    assert f"Kolumna {2**63 - 1} nie istnieje" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("url", "args"),
    [
        ("/gry/{game}", {"seq": HUGE, "dice": "11111"}),
        ("/gry/{game}", {"seq": str(2**64), "dice": "11111"}),
        ("/gry/nowa", {"gracze": HUGE}),
        ("/statystyki", {"gracz": HUGE}),
        ("/historia", {"strona": HUGE}),
        ("/sedzia", {"variant": "ordered", "bonus_threshold": HUGE}),
        ("/sedzia", {"c0_ones": HUGE, "dice": "11111"}),
        ("/sedzia", {"variant": "triple", "c2_extra_bonus": HUGE}),
        ("/sedzia/poker", {"hands": HUGE}),
    ],
)
def test_a_huge_number_in_the_query_is_read_as_no_number(
    site: Site, url: str, args: dict[str, str]
):
    response = site.client().get(fill(site, url), query_string=args)

    assert response.status_code == 200


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("0", 0),
        (" 42 ", 42),
        ("007", 7),
        (str(2**63 - 1), 2**63 - 1),
        ("0" * 100 + "5", 5),
        (str(2**63), None),
        (HUGE, None),
        ("-1", None),
        ("1.5", None),
        ("²", None),
        ("١٢", None),
        ("", None),
        (None, None),
    ],
)
def test_whole_number(text: str | None, number: int | None):
    assert whole_number(text) == number


# --- regressions: a JSON body posted to a page's form ----------------------------------------


@pytest.mark.parametrize(
    ("url", "signed_in", "status"),
    [
        ("/gry/nowa", True, 400),
        ("/gry/{game}/ruch", True, 400),
        ("/gry/{game}/cofnij", True, 400),
        ("/gracze/{player}", True, 400),
        ("/konto", True, 400),
        ("/konto/dane", True, 400),
        ("/logowanie", False, 400),
        ("/rejestracja", False, 400),
        # A button without fields (CSRF is off here): it does its work.
        ("/gry/{game}/rewanz", True, 303),
        ("/wyloguj", True, 302),
    ],
)
@pytest.mark.parametrize(
    "body",
    [b"false", b"[1, 2]", b'"seq"', b'{"seq": 1.5, "column": [0]}', b"[" * 100_000],
    ids=["false", "array", "string", "odd-values", "too-deep"],
)
def test_a_json_body_to_a_page_is_an_empty_form_not_a_crash(
    site: Site, url: str, signed_in: bool, status: int, body: bytes
):
    """Flask-WTF would read the JSON as the form's fields: an array or a number crashed."""
    response = site.client(signed_in).post(
        fill(site, url), data=body, content_type="application/json"
    )

    assert response.status_code == status


# --- an import with times at the calendar's ends ----------------------------------------------


@pytest.mark.parametrize("app_config", [{"WTF_CSRF_ENABLED": False}])
def test_a_time_at_the_calendars_end_in_an_import_breaks_no_page(app: Flask, client: FlaskClient):
    # An app of its own: the imported game would break the pages of the module's app.
    client.post("/rejestracja", data={"name": "Nowak", "password": PASSWORD, "confirm": PASSWORD})
    with app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == "Nowak"))
        _, token = accounts.create_token(account_id, "import")
    headers = {"Authorization": f"Bearer {token}"}
    created = client.post(
        "/api/v1/games", json={"variant": "standard", "players": ["Ala"]}, headers=headers
    )
    assert created.status_code == 201
    document = client.get("/api/v1/export", headers=headers).get_json()
    game = document["games"][0]
    game["uid"] = "f" * 32
    game["started_at"] = "9999-12-31T23:30:00Z"  # 1 January 10000 in Warsaw
    document["games"] = [game]

    imported = client.post("/api/v1/import", json=document, headers=headers)

    assert imported.status_code < 500
    for url in ("/", "/historia", "/statystyki", "/konto/dane/wyniki.csv"):
        assert client.get(url).status_code < 500, url


# --- fuzzing every endpoint ---------------------------------------------------------------

# Parameter and field names the views read, so that random values reach the parsing code; the
# days and numbers among them mostly get days and numbers, the edges of the calendar and of int.
DAY_KEYS = ("od", "do", "from", "to")
NUMBER_KEYS = (
    *("seq", "column", "expected_seq", "gracze", "gracz", "strona", "hands", "target_wins"),
    *("bonus_threshold", "c0_ones", "c1_sixes", "c0_five_of_a_kind", "c0_extra_bonus"),
    *("c2_extra_bonus", "c0_pair"),
)
OTHER_KEYS = (
    *("field", "dice", "confirm", "fragment", "add", "shuffle", "variant", "wariant", "player"),
    *("players-0", "players-1", "players-8", "name", "password", "next", "csrf_token"),
    *("p1-name", "file", "h0_name", "h0_dice", "h1_dice", "h7_dice"),
)
EDGE_DAYS = (
    *("0001-01-01", "0001-01-02", "9999-12-30", "9999-12-31", "0000-01-01", "2025-02-29"),
    *("1.01.0001", "2.01.0001", "31.12.9999", "30.12.9999", "29.02.2025", "2025-5-3"),
    *("99999-01-01", "2025-05-03T00:00", "+2025-05-03", "２０２５-05-03"),
)
EDGE_NUMBERS_TEXT = (
    *("0", "1", "-1", "00", "007", "1.5", "1e400", "NaN", "Infinity", " 7 ", "+1", "0x10"),
    *(str(2**31), str(2**63 - 1), str(2**63), str(2**64), "9" * 30, "1" * 4301, HUGE),
    *("²", "١٢٣", "𝟙𝟚𝟛", "1_000"),
)
EDGE_TEXT = (
    *("", " ", "66666", "11123", "123456", "\x00", "\ufeff", "🎲", "ą" * 300, "<script>"),
    *("%", "{}", "[]", "null", "true", "standard", "triple", "poker", "ordered", "fields"),
    *("fuzz", "Kowalscy", "Ala", "ALA", "/\\evil", "//evil.example"),
)
EDGE_VALUES = (*EDGE_DAYS, *EDGE_NUMBERS_TEXT, *EDGE_TEXT)
values = st.one_of(
    st.sampled_from(EDGE_VALUES),
    st.text(max_size=20),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
)
day_values = st.one_of(
    st.sampled_from(EDGE_DAYS),
    st.dates().map(date.isoformat),
    st.dates().map(lambda d: f"{d.day}.{d.month:02}.{d.year}"),
    values,
)
number_values = st.one_of(
    st.sampled_from(EDGE_NUMBERS_TEXT),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    values,
)
pairs = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(DAY_KEYS), day_values),
        st.tuples(st.sampled_from(NUMBER_KEYS), number_values),
        st.tuples(st.sampled_from(OTHER_KEYS), values),
        st.tuples(st.text(min_size=1, max_size=10), values),
    ),
    max_size=8,
)

EDGE_NUMBERS = (0, -1, 1, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**300, 1e308, 0.5)
# Half of a UTF-16 pair alone: JSON may spell it (\ud800), Python decodes it, UTF-8 cannot
# encode it. Only in JSON bodies: a form's text is UTF-8 on the wire.
LONE_SURROGATES = ("\ud800", "\udfff", "a\udc00b", "\ud83d")
json_text = st.one_of(
    st.text(max_size=10),
    st.sampled_from(LONE_SURROGATES),
    st.text(st.characters(codec=None, categories=["Cs", "Ll"]), max_size=4),
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(EDGE_NUMBERS),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(EDGE_VALUES),
    json_text,
)
JSON_KEYS = (
    *("variant", "players", "options", "dice", "field", "column", "player", "sheet", "hands"),
    *("bonus_threshold", "target_wins", "extra_bonus", "ones", "five_of_a_kind", "format"),
    "expected_seq",
    *("version", "games", "turns", "started_at", "finished_at", "seats", "uid", "name"),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.dictionaries(st.one_of(st.sampled_from(JSON_KEYS), json_text), children),
    ),
    max_leaves=20,
)
# Bodies that no JSON decoder should take whole: malformed, too deep, too long a number.
RAW_BODIES = (
    b"",
    b"{",
    b"nul",
    b"\xff\xfe",
    b"[" * 100_000,
    b"[" * 50_000 + b"]" * 50_000,
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    b'{"dice": [' + b"9" * 5000 + b"]}",
    b'{"column": 1e999, "dice": [1, 2, 3, 4, 5], "field": "ones"}',
    b'{"dice": NaN, "column": Infinity}',
    b'{"\\ud800": 1, "dice": [1, 2, 3, 4, 5], "field": "ones"}',
)


class Body:
    """What a POST carries: form fields, a JSON value, raw bytes sent as JSON, or a file.

    Not a dataclass: Hypothesis prints a falsifying example's dataclasses field by field, and a
    100 kB body would be printed whole (a HypothesisWarning, an error in this suite)."""

    def __init__(self, kind: str, value: Any) -> None:
        self.kind = kind
        self.value = value

    def __repr__(self) -> str:  # a falsifying example is printed: keep it readable
        text = repr(self.value)
        return f"Body({self.kind}, {text[:300]}{'…' if len(text) > 300 else ''})"

    def request_kwargs(self) -> dict[str, Any]:
        if self.kind == "form":
            return {"data": MultiDict(self.value)}
        if self.kind == "json":
            return {"data": json.dumps(self.value), "content_type": "application/json"}
        if self.kind == "raw":
            return {"data": self.value, "content_type": "application/json"}
        name, content = self.value  # a file upload
        return {"data": {"file": (io.BytesIO(content), name)}}


bodies = st.one_of(
    pairs.map(lambda p: Body("form", p)),
    json_values.map(lambda v: Body("json", v)),
    st.sampled_from(RAW_BODIES).map(lambda b: Body("raw", b)),
    st.binary(max_size=200).map(lambda b: Body("raw", b)),
    st.tuples(
        st.sampled_from(["kosci.json", "wyniki.csv", "", "ą.json"]),
        st.one_of(
            st.binary(max_size=200),
            json_values.map(lambda v: json.dumps(v).encode()),
            st.sampled_from(RAW_BODIES),
        ),
    ).map(lambda f: Body("file", f)),
)

_ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
# Per route and method (ten times more nightly). 20 signed in: CI runs the fuzz on SQLite and
# on PostgreSQL, and 30 cost it ~20 s of its 10 minutes. PostgreSQL gets half as many (on a
# slow CI machine the whole fuzz took 70 s there, 58 s on SQLite); the regression tests below
# run in full on both.
EXAMPLES = {"signed in": 20, "signed out": 8}
POSTGRESQL_SHARE = 2


def routes(app: Flask) -> list[tuple[Rule, str]]:
    """Every rule of the URL map with each method it answers (HEAD and OPTIONS left out)."""
    return [
        (rule, method)
        for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    ]


def path_values(site: Site, rule: Rule, method: str) -> st.SearchStrategy[dict[str, str]]:
    """A value for each argument of the rule: often one that exists, sometimes anything."""
    numbers = st.one_of(
        st.integers(min_value=0, max_value=2**64),
        st.sampled_from([0, 2**63 - 1, 2**63, 10**30]),
    )
    strategies: dict[str, st.SearchStrategy[str]] = {}
    for converter, name in _ARGUMENT.findall(rule.rule):
        if converter == "int":
            known: list[int] = {
                "game_id": list(site.games.values()),
                "player_id": list(site.players),
                "token_id": [],
            }.get(name, [])
            if rule.endpoint == "games.delete" and method == "POST":
                # Deleting: games of its own, the family's history stays for the other routes.
                known = [site.new_game(v) for v in ("standard", "triple", "poker")]
                numbers = numbers.filter(lambda n: n not in site.games.values())
            drawn = st.one_of(st.sampled_from(known), numbers) if known else numbers
            if name == "token_id":  # never revoke the token the API examples use
                drawn = drawn.filter(lambda n: n != site.token_id)
            strategies[name] = drawn.map(str)
        elif converter == "path":
            strategies[name] = st.one_of(
                st.sampled_from(["css/app.css", "js/turn.js", "favicon.svg", "../pyproject.toml"]),
                st.text(min_size=1, max_size=20).filter(lambda t: "\x00" not in t),
            )
        else:
            strategies[name] = st.text(min_size=1, max_size=20)
    return st.fixed_dictionaries(strategies)


def url_of(rule: Rule, arguments: dict[str, str]) -> str:
    return _ARGUMENT.sub(lambda m: quote(arguments[m.group(2)], safe="/"), rule.rule)


def fuzz_route(site: Site, rule: Rule, method: str, signed_in: bool, examples: int) -> None:
    """Random requests to one route and method; fails on the first answer of 500 or more."""
    api = rule.rule.startswith("/api/")

    @settings(
        max_examples=scaled(examples),
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],  # no slow "explain" phase
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        arguments=path_values(site, rule, method),
        query=pairs,
        body=bodies if method in ("POST", "PUT", "PATCH") else st.none(),
    )
    def check(arguments: dict[str, str], query: list[tuple[str, str]], body: Body | None):
        client = site.client(signed_in and not api)
        headers = site.api_headers if api and signed_in else {}
        kwargs = body.request_kwargs() if body else {}
        url = url_of(rule, arguments)
        response: TestResponse = client.open(
            url, method=method, query_string=MultiDict(query), headers=headers, **kwargs
        )
        response.close()  # a static file's handle
        assert response.status_code < 500, (method, url[:200], body, response.status_code)

    check()


# The routes are fuzzed in shards, so that pytest-xdist's workers share them: one test of the
# whole map took 48 s on SQLite, the longest test of the suite and the last to end.
SHARDS = 4


@pytest.mark.parametrize("shard", range(SHARDS), ids=lambda n: f"routes {n + 1} of {SHARDS}")
def test_no_endpoint_answers_500(site: Site, shard: int):
    """Every route of the URL map, every method, signed in (bearer token for the API) and not:
    every `SHARDS`-th of them, from the `shard`-th on."""
    fuzzed = routes(site.app)
    assert len(fuzzed) > 30  # the whole map, not a part of it
    failures = []
    share = POSTGRESQL_SHARE if backend_of(site.app) == POSTGRESQL else 1
    for signed_in_label, examples in EXAMPLES.items():
        examples = max(1, examples // share)
        for rule, method in fuzzed[shard::SHARDS]:
            try:
                fuzz_route(site, rule, method, signed_in_label == "signed in", examples)
            except Exception as exc:  # noqa: BLE001 - collected, reported together below
                notes = "\n".join(getattr(exc, "__notes__", []))
                failures.append(f"{method} {rule.rule} ({signed_in_label}): {exc!r}\n{notes}")
    assert not failures, "\n\n".join(failures)


def test_every_route_is_fuzzed(site: Site):
    """A new endpoint needs no entry here: the URL map is walked (this guards the walk)."""
    endpoints = {rule.endpoint for rule, _ in routes(site.app)}
    assert {"api.stats_summary", "stats.overview", "history.index", "games.write"} <= endpoints
    assert all(_ARGUMENT.sub("x", rule.rule).count("<") == 0 for rule, _ in routes(site.app)), (
        "a rule argument the fuzzer cannot fill"
    )
