"""A family switches the whole app to English and back (README "Języki"), CSRF on.

One account with a game of every variant (finished and in progress, a corrected turn, an
invitation; players named without Polish letters), signed in and switched to English: every page
of the app's URL map for that account, the pages its links lead to, and the screens a game shows
only after some input (dice entered, the arbiter's answers, the filters, an error page) carry no
Polish letter in their visible text, except the game's own words listed in `ALLOWED`. The same
walk in Polish says `<html lang="pl">` and finds the Polish headings. The JSON API, asked in
English, gives every error it can quickly be made to give in English.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import select

from tracker.extensions import db
from tracker.models import Account, Player
from tracker.services import accounts, corrections, game_view, games, invitations

from .test_accounts import sign_up

pytestmark = pytest.mark.one_backend("the pages' language, not the database")

POLISH = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")
# The game's own words, Polish in every language by design (the glossary of the translation):
ALLOWED = (
    "Generał",  # the game's word for five of a kind and its field; the rules page explains it
    "Kości",  # the app's name (title, header, manifest, variant names "Kości (Polish sheet)")
    "Polski",  # the language switch names each language in that language
)
# Polish words of the game without a Polish letter, which the letters alone would miss.
POLISH_WORDS = re.compile(
    r"\b(?:Jedynki|Szansa|strit|Ful|jednakowe|jednakowych|Dwie pary|Para|Kolumna|kolumna|Tabela"
    r"|tabela|tabeli|Gracz|gracz|Zapisz|Wpisz|Suma|suma|premia|Premia|ruch|kolej|Runda|runda"
    r"|Wolne|Popraw|Cofnij|Wariant|wariant|Statystyki|Historia|Gracze|Zasady|pkt)\b"
)
DICE_LABEL = re.compile(r'<label for="[\w-]*dice">Dice</label>')
DICE_LABEL_IN_POLISH = re.compile(r'<label for="[\w-]*dice">Kości</label>')
HTML_LANG = re.compile(r'<html[^>]*\blang="([a-z]+)"')
SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")
SHOWN_ATTRIBUTE = re.compile(r'\b(?:title|alt|placeholder|aria-label)="([^"]*)"')
HREF = re.compile(r'\bhref="(/[^"]*)"')
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')

# Endpoints that are no page: files, the switch, writes that only answer a POST.
NOT_PAGES = {
    "static",
    "main.favicon",
    "main.healthz",
    "main.service_worker",
    "transfer.download_json",  # the data itself (ids, names), in no language
    "transfer.download_bgstats",
}
# The dice a test game cycles through: a Generał, straights, a full house… (the best move each).
ROLLS = ["66666", "12345", "22333", "44412", "55551", "11123", "65433", "23456", "33345", "11111"]
PLAYERS = ["Ala", "Ola", "Tom"]
MAX_PAGES = 400


def visible_text(page: str) -> str:
    """What a reader sees or hears: the text without scripts, styles and tags, and the titles,
    alternative texts, placeholders and ARIA labels."""
    without_code = SCRIPT_OR_STYLE.sub(" ", page)
    attributes = " ".join(SHOWN_ATTRIBUTE.findall(without_code))
    text = TAG.sub(" ", without_code) + " " + attributes
    return re.sub(r"\s+", " ", html.unescape(text))


def polish_words(text: str) -> list[str]:
    """The words with a Polish letter that are not on the allow-list, each with its context."""
    for word in ALLOWED:
        text = text.replace(word, " ")
    found = []
    for match in itertools.chain(POLISH.finditer(text), POLISH_WORDS.finditer(text)):
        start = text.rfind(" ", 0, match.start() - 20) + 1
        found.append(text[start : match.end() + 30].strip())
    return found


def by_word(found: dict[str, list[str]]) -> str:
    """The report of a walk: each Polish word once, with the first page and context it was
    seen in, and on how many pages."""
    first: dict[str, tuple[str, str]] = {}
    pages: dict[str, set[str]] = {}
    for url, contexts in found.items():
        for context in contexts:
            for word in re.findall(r"\S*[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]\S*", context) or [
                w.group(0) for w in POLISH_WORDS.finditer(context)
            ]:
                first.setdefault(word, (url, context))
                pages.setdefault(word, set()).add(url)
    return "\n".join(
        f"{word!r} on {len(pages[word])} pages, e.g. {url}: …{context}…"
        for word, (url, context) in sorted(first.items())
    )


def json_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)


# --- the family ------------------------------------------------------------------------------


@dataclass
class Family:
    app: Flask
    browser: FlaskClient
    account_id: int
    token: str
    games: dict[str, int] = field(default_factory=dict)  # a name of ours -> game id
    player_id: int = 0
    correctable: tuple[int, int] = (0, 0)  # (game id, seq) of a turn corrected once

    def play(self, game_id: int, turns: int | None = None) -> None:
        """`turns` turns (None: to the end), each the best move of the next roll."""
        with self.app.app_context():
            for count, dice in enumerate(itertools.cycle(ROLLS)):
                view = game_view.load(self.account_id, game_id)
                if view.finished or count == turns:
                    return
                field_id, column = None, None  # dice poker: the dice alone
                if not view.is_poker:
                    moves = view.table.evaluate(tuple(int(d) for d in dice)).moves
                    best = max(moves, key=lambda p: p.gain)
                    field_id, column = best.field, best.column
                games.record_turn(self.account_id, game_id, dice, field_id, column)


@pytest.fixture
def family(app: Flask, client: FlaskClient) -> Family:
    assert sign_up(client).status_code == 302
    with app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == "Kowalscy"))
        _, token = accounts.create_token(account_id, "tests")
        made = Family(app, client, account_id, token)
        for name, variant, names, hints in [
            ("standard_done", "standard", PLAYERS[:2], False),
            ("standard", "standard", PLAYERS, True),
            ("ordered", "ordered", PLAYERS[:2], False),
            ("ordered_done", "ordered", PLAYERS[:1], False),
            ("scandinavian", "scandinavian", PLAYERS[:2], False),
            ("scandinavian_done", "scandinavian", PLAYERS[1:], False),
            ("triple", "triple", PLAYERS[:2], False),
            ("triple_done", "triple", PLAYERS[:1], False),
            ("poker", "poker", PLAYERS, False),
            ("poker_done", "poker", PLAYERS[:2], False),
        ]:
            made.games[name] = games.create_game(account_id, variant, names, hints=hints).id
        made.player_id = db.session.scalar(
            select(Player.id).where(Player.account_id == account_id, Player.name == "Ala")
        )
    for name, game_id in made.games.items():
        made.play(game_id, None if name.endswith("_done") else 5)
    with app.app_context():
        game_id = made.games["standard"]
        corrections.correct_turn(account_id, game_id, 2, "12346", "small_straight", 0)
        invitations.create(account_id, made.games["standard"], "play")
        invitations.create(account_id, made.games["poker"], "watch")
    made.correctable = (made.games["standard"], 2)
    return made


def switch(family: Family, language: str) -> None:
    page = family.browser.get("/")
    match = CSRF_META.search(page.get_data(as_text=True))
    assert match
    answer = family.browser.post(
        "/jezyk", data={"csrf_token": match.group(1), "language": language, "next": "/"}
    )
    assert answer.status_code in (302, 303), answer.status_code


def _value(name: str, family: Family, game_id: int) -> int:
    if name == "game_id":
        return game_id
    if name == "player_id":
        return family.player_id
    if name == "seq":
        return family.correctable[1]
    raise AssertionError(f"no sample value for <{name}>")


def page_urls(family: Family) -> list[str]:
    """Every GET page of the URL map for this account (a rule about a game: every game), and
    the screens that need input."""
    urls: list[str] = []
    with family.app.test_request_context():
        for rule in sorted(family.app.url_map.iter_rules(), key=lambda r: r.rule):
            if "GET" not in (rule.methods or ()) or rule.endpoint in NOT_PAGES:
                continue
            if rule.endpoint.startswith("api.") or "invitation_id" in rule.arguments:
                continue
            if rule.endpoint == "games.correct":
                game_ids = [family.correctable[0]]
            elif "game_id" in rule.arguments:
                game_ids = list(family.games.values())
            else:
                game_ids = [0]
            for game_id in game_ids:
                values = {n: _value(n, family, game_id) for n in rule.arguments}
                urls.append(url_for(rule.endpoint, **values))
        urls += input_screens(family)
    return urls


def input_screens(family: Family) -> list[str]:
    g = family.games
    urls = []
    with family.app.app_context():
        for name in ("standard", "ordered", "scandinavian", "triple", "poker"):
            view = game_view.load(family.account_id, g[name])
            for dice in ("66666", "11111", "12345", "22333", "1234"):  # the last one: an error
                query = {"dice": dice, "seq": view.next_seq}
                urls.append(url_for("games.play", game_id=g[name], **query))
                urls.append(url_for("games.play", game_id=g[name], fragment="fields", **query))
            # dice from a page older than the last turn
            urls.append(url_for("games.play", game_id=g[name], dice="66666", seq=1))
        for variant in ("standard", "ordered", "scandinavian", "triple"):
            for dice in ("66666", "12345", "11112", "7"):
                query = {"variant": variant, "dice": dice, "c0_sixes": "18", "c0_ones": "x"}
                urls.append("/sedzia?" + urlencode(query))
            urls.append("/sedzia?" + urlencode({"variant": variant, "c0_sixes": "18"}))
        urls.append("/sedzia?" + urlencode({"variant": "ordered", "bonus_threshold": "5"}))
        urls.append("/sedzia?variant=nope")
        for hands in [
            ("22233", "33322"),  # two full houses: the three of a kind decides
            ("22233", "22233"),  # a tie
            ("66665", "66662", "12345"),
            ("11223", "11224"),
            ("12345", "23456", "66666", ""),
            ("7", "12345"),
            ("12345", ""),
        ]:
            query = {"hands": str(len(hands))}
            for i, dice in enumerate(hands):
                query[f"h{i}_name"] = PLAYERS[i % 3] if i < 3 else ""
                query[f"h{i}_dice"] = dice
            urls.append("/sedzia/poker?" + urlencode(query))
        urls.append("/sedzia/poker?hands=2&add=1")
        for query in [
            {"wariant": "triple"},
            {"wariant": "poker"},
            {"od": "2020-01-01", "do": "2099-12-31"},
            {"od": "nope"},
            {"od": "2099-01-01", "do": "2020-01-01"},
            {"wariant": "nope"},
        ]:
            urls.append("/statystyki?" + urlencode(query))
            urls.append(f"/gracze/{family.player_id}/statystyki?" + urlencode(query))
            urls.append("/historia?" + urlencode(query))
        urls.append(f"/statystyki?gracz={family.player_id}")
        urls.append("/historia?gracz=999999")
        urls.append("/historia?strona=2")
        urls.append("/gry/nowa?gracze=4")
        urls.append("/dolacz?kod=nope")  # a signed-in family's phone, a dead link: 404
        urls.append("/no-such-page")  # 404
        urls.append("/gry/999999")  # another account's (or no) game: 404
        urls.append(f"/gry/{g['standard']}/ruchy/999/popraw")  # no such turn
    return urls


def form_answers(family: Family) -> dict[str, str]:
    """The screens a refused form draws (a turn refused, a needless 0 asked about, a new game
    without players, a correction that does not fit): url and visible text."""
    g = family.games
    with family.app.app_context():
        standard = game_view.load(family.account_id, g["standard"])
        ordered = game_view.load(family.account_id, g["ordered"])
        poker = game_view.load(family.account_id, g["poker"])
    sheet = standard.table.sheets[standard.current_seat or 0][0]
    free = next(f.id for f in standard.variant.table.fields if not sheet.is_filled(f.id))
    sends = [
        # a needless 0 (no ones in the roll): asked about first
        (f"/gry/{g['standard']}/ruch", {"dice": "22334", "field": free, "seq": standard.next_seq}),
        (f"/gry/{g['standard']}/ruch", {"dice": "1234", "field": free, "seq": standard.next_seq}),
        # the ordered sheet refuses a field out of order
        (
            f"/gry/{g['ordered']}/ruch",
            {"dice": "12345", "field": "chance", "seq": ordered.next_seq},
        ),
        (f"/gry/{g['poker']}/ruch", {"dice": "123", "seq": poker.next_seq}),
        (f"/gry/{g['standard']}/ruch", {"dice": "12345", "field": free, "seq": 1}),  # stale
        ("/gry/nowa", {"variant": "standard", "players-0": "", "players-1": ""}),
        ("/gry/nowa", {"variant": "triple", "players-0": "Ala", "players-1": "Ala"}),
        ("/gry/nowa", {"variant": "ordered", "bonus_threshold": "7", "players-0": "Ala"}),
        (f"/gry/{g['standard']}/ruchy/2/popraw", {"dice": "7", "where": "0:ones", "seq": "1"}),
        (f"/gry/{g['standard']}/ruchy/2/popraw", {"dice": "66666", "where": "0:ones", "seq": "1"}),
        (f"/gracze/{family.player_id}", {"name": ""}),
        ("/konto/haslo", {"current": "nope", "password": "x", "confirm": "y"}),
        # deleted: said with its „Cofnij”, then in the trash (below)
        (f"/gry/{g['triple_done']}/usun", {}),
    ]
    answers = {}
    for url, data in sends:
        page = family.browser.get("/").get_data(as_text=True)
        match = CSRF_META.search(page)
        assert match
        answer = family.browser.post(url, data={"csrf_token": match.group(1), **data})
        assert answer.status_code < 500, (url, answer.status_code)
        if 300 <= answer.status_code < 400:  # the flash waits on the page it leads to
            answer = family.browser.get(answer.headers["Location"])
        answers[f"POST {url} {data}"] = visible_text(answer.get_data(as_text=True))
    trash = family.browser.get("/historia/kosz").get_data(as_text=True)
    answers["/historia/kosz with a game"] = visible_text(trash)
    entry = re.search(r'action="(/historia/kosz/\d+/przywroc)"', trash)
    assert entry, "the deleted game is in the trash"
    token = CSRF_META.search(trash)
    assert token
    restored = family.browser.post(entry.group(1), data={"csrf_token": token.group(1)})
    assert restored.status_code == 303
    again = family.browser.post(entry.group(1), data={"csrf_token": token.group(1)})
    for answer in (restored, again):  # restored, and told so on a second tap
        page = family.browser.get(answer.headers["Location"]).get_data(as_text=True)
        answers[f"POST {entry.group(1)} ({len(answers)})"] = visible_text(page)
    # Zosia merged into Ala by mistake, and the merge undone (twice: told so the second time).
    with family.app.app_context():
        games.create_game(family.account_id, "standard", ["Zosia"])
        zosia = db.session.scalar(
            select(Player.id).where(Player.account_id == family.account_id, Player.name == "Zosia")
        )
    merged = family.browser.post(
        f"/gracze/{zosia}/polacz",
        data={"csrf_token": token.group(1), "target": str(family.player_id)},
    )
    assert merged.status_code == 303
    players_page = family.browser.get(merged.headers["Location"]).get_data(as_text=True)
    answers["POST merge"] = visible_text(players_page)
    undo = re.search(r'action="(/gracze/polaczenia/\d+/cofnij)"', players_page)
    assert undo, "the merge can be undone"
    for n in range(2):
        undone = family.browser.post(undo.group(1), data={"csrf_token": token.group(1)})
        page = family.browser.get(undone.headers["Location"]).get_data(as_text=True)
        answers[f"POST {undo.group(1)} ({n})"] = visible_text(page)
    return answers


@dataclass
class Walk:
    pages: dict[str, str] = field(default_factory=dict)  # url -> visible text
    raw: dict[str, str] = field(default_factory=dict)  # url -> HTML
    languages: dict[str, str] = field(default_factory=dict)  # url -> <html lang>
    json_answers: dict[str, object] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)


def walk(family: Family) -> Walk:
    """Every page of `page_urls`, then every local link they show (once each)."""
    done = Walk()
    queue = page_urls(family)
    seen = set(queue)
    while queue:
        url = queue.pop(0)
        answer = family.browser.get(url)
        body = answer.get_data(as_text=True)
        done.statuses[url] = answer.status_code
        assert answer.status_code < 500, (url, answer.status_code)
        kind = answer.mimetype
        if 300 <= answer.status_code < 400:
            continue  # a signed-in family's sign-in page, a stale turn screen: sent on
        if kind == "text/html":
            match = HTML_LANG.search(body)
            if match or "<html" in body:
                done.languages[url] = match.group(1) if match else ""
            done.pages[url] = visible_text(body)
            done.raw[url] = body
            for link in HREF.findall(html.unescape(body)):
                path = urlsplit(link).path
                if path.startswith(("/static/", "/konto/dane/")) or link in seen:
                    continue
                if len(seen) < MAX_PAGES:
                    seen.add(link)
                    queue.append(link)
        elif kind in ("application/json", "application/manifest+json"):
            done.json_answers[url] = json.loads(body)
        elif kind == "text/csv":
            done.pages[url] = body
    return done


# --- English ---------------------------------------------------------------------------------


def test_a_family_switched_to_english_sees_no_polish_anywhere(family: Family):
    switch(family, "en")
    pages = walk(family)
    refused = form_answers(family)

    polish = {
        url: words
        for url, text in {**pages.pages, **refused}.items()
        if (words := polish_words(text))
    }
    polish.update(
        {
            url: words
            for url, answer in pages.json_answers.items()
            if (words := polish_words(" ".join(json_strings(answer))))
        }
    )
    assert not polish, f"Polish left on {len(polish)} pages:\n{by_word(polish)}"
    said = " ".join(refused.values())
    for english in (
        "Game deleted",
        "Undo",
        "Restore",
        "Game restored",
        "restored already",
        "Recent merges",
        "Merge undone",
        "undone already",
    ):
        assert english in said, english
    not_english = {url: lang for url, lang in pages.languages.items() if lang != "en"}
    assert not not_english
    # The walk saw the whole app: every variant's screens, the review, the 404s, the downloads.
    assert len(pages.pages) > 100
    assert 404 in pages.statuses.values()
    assert 400 in pages.statuses.values()
    seen = " ".join(pages.pages.values())
    # "Kości" stays only as the app's name: the dice a player enters are "Dice".
    assert not any(DICE_LABEL_IN_POLISH.search(text) for text in pages.raw.values())
    assert DICE_LABEL.search(pages.raw[f"/gry/{family.games['standard']}"])
    for english in [
        "Game review",
        "Statistics",
        "History",
        "Players",
        "Rules",
        "Referee",
        "Dice poker",
        "Triple Kości",
        "Scandinavian sheet",
        "In order",
        "Full house",
        "Add a phone",
    ]:
        assert english in seen, english


def test_the_english_error_pages_say_so_in_english(family: Family):
    switch(family, "en")

    missing = family.browser.get("/no-such-page")

    assert missing.status_code == 404
    assert HTML_LANG.search(missing.get_data(as_text=True)).group(1) == "en"  # type: ignore[union-attr]
    assert not polish_words(visible_text(missing.get_data(as_text=True)))


# --- and back to Polish ------------------------------------------------------------------------


def test_switched_back_to_polish_the_pages_are_polish_again(family: Family):
    switch(family, "en")
    switch(family, "pl")
    urls = [
        "/",
        "/zasady",
        "/sedzia",
        "/statystyki",
        "/historia",
        "/gracze",
        "/konto",
        "/konto/dane",
        f"/gry/{family.games['standard']}",
        f"/gry/{family.games['standard_done']}/przeglad",
        f"/gry/{family.games['poker']}",
        "/no-such-page",
    ]
    headings = {}
    for url in urls:
        body = family.browser.get(url).get_data(as_text=True)
        assert HTML_LANG.search(body).group(1) == "pl", url  # type: ignore[union-attr]
        headings[url] = visible_text(body)
    assert "Zasady gry" in headings["/zasady"] or "Zasady" in headings["/zasady"]
    assert "Statystyki" in headings["/statystyki"]
    assert "Historia" in headings["/historia"]
    assert "Gracze" in headings["/gracze"]
    assert "Przegląd gry" in headings[f"/gry/{family.games['standard_done']}/przeglad"]
    assert "Runda" in headings[f"/gry/{family.games['poker']}"]
    assert "Kolejka" in headings[f"/gry/{family.games['standard']}"]
    assert "Kości potrójne" in headings["/statystyki"]
    assert "Gra po kolei" in headings["/historia"]
    assert "Nie ma takiej strony" in headings["/no-such-page"]
    seen = " ".join(headings.values())
    for english in ("Game review", "Statistics", "Sign out"):
        assert english not in seen


# --- the JSON API in English -------------------------------------------------------------------


def test_the_api_asked_in_english_gives_its_errors_in_english(family: Family):
    api = family.app.test_client()
    english = {"Authorization": f"Bearer {family.token}", "Accept-Language": "en"}
    g = family.games
    base = "/api/v1/games"
    calls: list[tuple[str, str, object]] = [
        ("GET", base + "/999999", None),
        ("GET", f"{base}/{g['standard']}/review", None),  # not finished
        ("POST", base, {}),
        ("POST", base, {"variant": "nope", "players": ["Ala"]}),
        ("POST", base, {"variant": "poker", "players": ["Ala"]}),
        ("POST", base, {"variant": "standard", "players": []}),
        ("POST", base, {"variant": "standard", "players": ["Ala", "Ala"]}),
        ("POST", base, {"variant": "standard", "players": ["x" * 200]}),
        ("POST", base, {"variant": "poker", "players": ["Ala", "Ola"], "hints": True}),
        ("POST", f"{base}/{g['standard']}/turns", {}),
        ("POST", f"{base}/{g['standard']}/turns", {"dice": "1234", "field": "ones"}),
        ("POST", f"{base}/{g['standard']}/turns", {"dice": "12345", "field": "nope"}),
        ("POST", f"{base}/{g['standard']}/turns", {"dice": "12345", "field": "ones", "column": 9}),
        ("POST", f"{base}/{g['ordered']}/turns", {"dice": "12345", "field": "chance"}),
        ("POST", f"{base}/{g['standard_done']}/turns", {"dice": "12345", "field": "ones"}),
        ("POST", f"{base}/{g['poker']}/turns", {"dice": "123"}),
        ("POST", f"{base}/{g['poker']}/turns", {"dice": "12345", "field": "ones"}),
        ("POST", f"{base}/{g['standard']}/turns?expected_seq=x", {"dice": "12345"}),
        ("POST", f"{base}/{g['standard']}/turns?expected_seq=1", {"dice": "12345"}),
        ("PUT", f"{base}/{g['standard']}/turns/999", {"dice": "12345", "field": "ones"}),
        ("PUT", f"{base}/{g['standard']}/turns/1", {"dice": "7", "field": "ones"}),
        ("PUT", f"{base}/{g['standard']}/turns/1", {"dice": "12345", "field": "nope"}),
        ("DELETE", f"{base}/{g['standard_done']}/turns/last?expected_seq=1", None),
        ("POST", f"{base}/{g['standard']}/invitations", {"mode": "nope"}),
        ("DELETE", f"{base}/{g['standard']}/invitations/999999", None),
        ("POST", "/api/v1/score", {}),
        ("POST", "/api/v1/score", {"variant": "standard", "dice": "7"}),
        ("POST", "/api/v1/score", {"variant": "nope", "dice": "12345"}),
        ("POST", "/api/v1/score", {"variant": "standard", "dice": "12345", "sheet": {"x": 1}}),
        ("POST", "/api/v1/score", {"variant": "standard", "dice": "12345", "sheet": {"ones": 7}}),
        ("POST", "/api/v1/advice", {}),
        ("POST", "/api/v1/advice", {"variant": "poker", "dice": "12345"}),
        ("POST", "/api/v1/poker/rank", {}),
        ("POST", "/api/v1/poker/rank", {"hands": ["12345"]}),
        ("POST", "/api/v1/poker/rank", {"hands": ["12345", "7"]}),
        ("GET", "/api/v1/stats?variant=nope", None),
        ("GET", "/api/v1/stats?from=nope", None),
        ("GET", "/api/v1/stats?what=1", None),
        ("GET", "/api/v1/stats/rivals?player=Nobody", None),
        ("POST", "/api/v1/import", {"nope": 1}),
        ("GET", "/api/v1/nope", None),
    ]
    errors = {}
    for method, url, body in calls:
        answer = api.open(url, method=method, json=body, headers=english)
        assert answer.status_code < 500, (method, url)
        if answer.status_code >= 400:
            errors[f"{method} {url} {json.dumps(body)[:60]}"] = (answer.get_json() or {}).get(
                "error", ""
            )
    # A missing or wrong token, in English too.
    for headers in ({"Accept-Language": "en"}, {**english, "Authorization": "Bearer nope"}):
        answer = api.get(base, headers=headers)
        errors[f"GET {base} {headers.get('Authorization')}"] = answer.get_json()["error"]

    assert len(errors) > 30
    polish = {call: text for call, text in errors.items() if polish_words(text)}
    assert not polish, "\n".join(f"{c}: {t}" for c, t in polish.items())
    assert all(errors.values()), [c for c, t in errors.items() if not t]
