"""Joining a game by QR code or link („Dołącz telefon”), CSRF on: invitations made and revoked
through the API and the game's panel, a guest phone that plays (or only watches) its one game
and finds every other URL of the app a 404, revocation that works at once (even against a write
already past the first check), expiry a few hours after the game ends, and the audit log."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import func, select, update
from werkzeug.routing import Rule

from tracker.extensions import db
from tracker.models import (
    Account,
    ApiToken,
    AuditEvent,
    DeletedGame,
    Game,
    GameInvitation,
    Player,
    Turn,
)
from tracker.services import Conflict, NotFound, accounts, games, invitations, trash

from .test_accounts import sign_in, sign_up

API = "/api/v1/games"
GONE_TEXT = "Zaproszenie wygasło albo zostało cofnięte"
WATCH_ONLY = "Ten telefon tylko ogląda grę."
JOIN_URL = re.compile(r"data-invite-url>(http://localhost/dolacz\?kod=[\w-]+)<")
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
# A standard sheet for one player, every turn worth points: 13 turns end the game.
ONE_PLAYER_GAME = [
    ("11123", "ones"),
    ("22234", "twos"),
    ("33345", "threes"),
    ("44456", "fours"),
    ("55561", "fives"),
    ("66612", "sixes"),
    ("44412", "three_of_a_kind"),
    ("55551", "four_of_a_kind"),
    ("22333", "full_house"),
    ("12346", "small_straight"),
    ("23456", "large_straight"),
    ("11111", "five_of_a_kind"),
    ("65433", "chance"),
]


def text(response) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def csrf_of(client: FlaskClient, url: str) -> str:
    """The CSRF token a page at `url` carries (every page has it in a meta tag)."""
    page = client.get(url)
    assert page.status_code == 200, (url, page.status_code)
    match = CSRF_META.search(page.get_data(as_text=True))
    assert match
    return match.group(1)


@dataclass
class Family:
    """The Kowalscy: a signed-in browser, an API token, two games (one for the guest, one it
    must never see) and a player."""

    app: Flask
    browser: FlaskClient
    account_id: int
    token: str
    game_id: int
    other_game_id: int

    @property
    def api(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def invite(self, mode: str = "play", game_id: int | None = None) -> tuple[int, str]:
        """An invitation made through the API: its id and its link."""
        response = self.browser.post(
            f"{API}/{game_id or self.game_id}/invitations", json={"mode": mode}, headers=self.api
        )
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        return body["id"], body["url"]

    def revoke(self, invitation_id: int) -> None:
        url = f"{API}/{self.game_id}/invitations/{invitation_id}"
        assert self.browser.delete(url, headers=self.api).status_code == 204

    def turns(self, game_id: int | None = None) -> int:
        with self.app.app_context():
            return db.session.scalar(
                select(func.count())
                .select_from(Turn)
                .where(Turn.game_id == (game_id or self.game_id), Turn.undone_at.is_(None))
            )

    def play_through(self, game_id: int, skip: int = 0) -> None:
        """The one-player game's turns, after the first `skip` (written by a phone)."""
        with self.app.app_context():
            for dice, field in ONE_PLAYER_GAME[skip:]:
                games.record_turn(self.account_id, game_id, dice, field, 0)

    def finished_at(self, game_id: int) -> datetime:
        with self.app.app_context():
            moment = db.session.scalar(select(Game.finished_at).where(Game.id == game_id))
        assert moment is not None
        return moment


@pytest.fixture
def family(app: Flask, client: FlaskClient) -> Family:
    assert sign_up(client).status_code == 302
    with app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.name == "Kowalscy"))
        _, token = accounts.create_token(account_id, "tests")
        game = games.create_game(account_id, "standard", ["Ala", "Ola"])
        other = games.create_game(account_id, "poker", ["Ala", "Ola"])
        return Family(app, client, account_id, token, game.id, other.id)


def join(app: Flask, url: str) -> FlaskClient:
    """A fresh phone (no cookies) that opens the invitation's link."""
    phone = app.test_client()
    response = phone.get(url.removeprefix("http://localhost"))
    assert response.status_code == 303, text(response)
    return phone


def write_turn(phone: FlaskClient, game_id: int, dice: str, field: str, seq: int):
    token = csrf_of(phone, f"/gry/{game_id}")
    return phone.post(
        f"/gry/{game_id}/ruch",
        data={"csrf_token": token, "dice": dice, "field": field, "column": 0, "seq": seq},
    )


@pytest.fixture
def moved_clock(monkeypatch: pytest.MonkeyPatch) -> list[datetime | None]:
    """Set `clock[0]` to a moment: invitations judge expiry by it (None: the real time)."""
    clock: list[datetime | None] = [None]
    real_now = invitations.now
    monkeypatch.setattr(invitations, "now", lambda: clock[0] or real_now())
    return clock


# --- the API ---------------------------------------------------------------------------------


def test_a_new_invitation_answers_201_with_an_absolute_link_and_stores_only_its_digest(
    app: Flask, family: Family
):
    response = family.browser.post(
        f"{API}/{family.game_id}/invitations", json={"mode": "watch"}, headers=family.api
    )

    assert response.status_code == 201
    body = response.get_json()
    assert list(body) == ["id", "url", "mode", "expires_at"]
    assert body["mode"] == "watch"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", body["expires_at"])
    match = re.fullmatch(r"http://localhost/dolacz\?kod=([\w-]+)", body["url"])
    assert match, body["url"]
    token = match.group(1)
    assert len(token) >= 22  # 128 random bits, URL-safe
    with app.app_context():
        row = db.session.get(GameInvitation, body["id"])
        assert row is not None
        assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert row.game_id == family.game_id
        assert row.account_id == family.account_id
        assert row.revoked_at is None
        # While the game goes on, its hard cap; nothing in the database holds the token.
        assert body["expires_at"] == (row.expires_at.isoformat(timespec="seconds") + "Z")
        assert row.expires_at - row.created_at == invitations.MAX_LIFETIME


def test_the_live_invitations_of_a_game_are_listed_without_their_links(family: Family):
    first, _ = family.invite("play")
    second, _ = family.invite("watch")
    family.revoke(first)

    listed = family.browser.get(f"{API}/{family.game_id}/invitations", headers=family.api)

    assert listed.status_code == 200
    assert [(i["id"], i["mode"]) for i in listed.get_json()["invitations"]] == [(second, "watch")]
    assert "url" not in listed.get_json()["invitations"][0]


@pytest.mark.parametrize(
    "body",
    [{"mode": "admin"}, {}, {"mode": None}, {"mode": 1}, {"mode": ["play"]}, {"mode": "PLAY"}],
    ids=["unknown", "missing", "null", "number", "list", "upper-case"],
)
def test_a_bad_mode_is_a_400_and_makes_nothing(app: Flask, family: Family, body: dict[str, Any]):
    response = family.browser.post(
        f"{API}/{family.game_id}/invitations", json=body, headers=family.api
    )

    assert response.status_code == 400
    assert response.get_json()["error"] == invitations.BAD_MODE
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(GameInvitation)) == 0


def test_an_unknown_key_is_a_400(family: Family):
    response = family.browser.post(
        f"{API}/{family.game_id}/invitations",
        json={"mode": "play", "expires": "never"},
        headers=family.api,
    )
    assert response.status_code == 400
    assert "expires" in response.get_json()["error"]


def test_another_accounts_game_and_invitation_are_404(app: Flask, family: Family):
    invitation_id, url = family.invite()
    with app.app_context():
        stranger = Account(name="Nowakowie", name_key="nowakowie", password_hash="!")
        db.session.add(stranger)
        db.session.commit()
        _, stranger_token = accounts.create_token(stranger.id, "tests")
    headers = {"Authorization": f"Bearer {stranger_token}"}
    client = app.test_client()

    made = client.post(
        f"{API}/{family.game_id}/invitations", json={"mode": "play"}, headers=headers
    )
    listed = client.get(f"{API}/{family.game_id}/invitations", headers=headers)
    revoked = client.delete(f"{API}/{family.game_id}/invitations/{invitation_id}", headers=headers)

    assert (made.status_code, listed.status_code, revoked.status_code) == (404, 404, 404)
    assert join(app, url).get(f"/gry/{family.game_id}").status_code == 200  # still live


def test_an_invitation_of_another_game_of_the_account_is_404_to_revoke(family: Family):
    invitation_id, _ = family.invite()
    url = f"{API}/{family.other_game_id}/invitations/{invitation_id}"
    assert family.browser.delete(url, headers=family.api).status_code == 404


@pytest.mark.parametrize("app_config", [{"KOSCI_PROXY_HOPS": 1}])
def test_the_link_is_absolute_as_the_proxy_says(family: Family):
    response = family.browser.post(
        f"{API}/{family.game_id}/invitations",
        json={"mode": "play"},
        headers={
            **family.api,
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "kosci.example.org",
            "X-Forwarded-For": "192.0.2.7",
        },
    )

    assert response.status_code == 201
    assert response.get_json()["url"].startswith("https://kosci.example.org/dolacz?kod=")


def test_the_api_needs_a_token(family: Family):
    client = family.app.test_client()
    response = client.post(f"{API}/{family.game_id}/invitations", json={"mode": "play"})
    assert response.status_code == 401


def test_revoking_twice_is_a_404_the_second_time(family: Family):
    invitation_id, _ = family.invite()
    family.revoke(invitation_id)
    url = f"{API}/{family.game_id}/invitations/{invitation_id}"
    assert family.browser.delete(url, headers=family.api).status_code == 404


# --- joining ---------------------------------------------------------------------------------


def test_the_link_makes_the_phone_a_guest_of_that_game(app: Flask, family: Family):
    invitation_id, url = family.invite()
    phone = app.test_client()

    response = phone.get(url.removeprefix("http://localhost"))

    assert response.status_code == 303
    assert response.headers["Location"] == f"/gry/{family.game_id}"
    assert response.headers["Cache-Control"] == "no-store"
    with phone.session_transaction() as session:
        kept = session["invitation"]
        assert session.permanent
    token = url.rsplit("=", 1)[1]
    assert kept == {"id": invitation_id, "digest": hashlib.sha256(token.encode()).hexdigest()}
    page = phone.get(f"/gry/{family.game_id}")
    assert page.status_code == 200
    assert "Ten telefon dołączył do gry i może wpisywać ruchy." in text(page)
    assert page.headers["Cache-Control"] == "no-store"


def test_a_guest_phones_reads_leave_its_cookie_alone(app: Flask, family: Family):
    """The phone's cookie is set by the requests that change it, never sent back unchanged.
    A guest's session is permanent; were it sent back with every answer, a poll that a phone
    sent just before it opened the next game's link, and that was answered just after, would
    put the old game's invitation back in the cookie: the next game would be a 404."""
    _, url = family.invite("play")
    phone = join(app, url)
    first = phone.get(f"/gry/{family.game_id}")  # shows the message, and so takes it out
    assert first.status_code == 200
    assert "Set-Cookie" in first.headers
    for path in (f"/gry/{family.game_id}/stan", f"/gry/{family.game_id}", "/zasady"):
        response = phone.get(path)
        assert response.status_code == 200, path
        assert "Set-Cookie" not in response.headers, path
    with phone.session_transaction() as session:
        assert session.permanent  # the phone still follows the game after a browser restart


@pytest.mark.parametrize(
    "kod", ["", "nie-ma-takiego-kodu", "x" * 500, "żółw"], ids=["empty", "unknown", "long", "utf"]
)
def test_an_unknown_link_is_a_404_that_says_why(client: FlaskClient, kod: str):
    response = client.get("/dolacz", query_string={"kod": kod})
    assert response.status_code == 404
    assert GONE_TEXT in text(response)
    with client.session_transaction() as session:
        assert "invitation" not in session


def test_the_owner_opening_its_own_link_just_goes_to_the_game(family: Family):
    _, url = family.invite()

    response = family.browser.get(url.removeprefix("http://localhost"))

    assert response.status_code == 303
    assert response.headers["Location"] == f"/gry/{family.game_id}"
    with family.browser.session_transaction() as session:
        assert "invitation" not in session
    assert family.browser.get("/historia").status_code == 200  # still the whole account


def test_a_phone_signed_in_to_another_account_is_told_to_sign_out_first(app: Flask, family: Family):
    _, url = family.invite()
    neighbour = app.test_client()
    assert sign_up(neighbour, "Nowakowie").status_code == 302

    response = neighbour.get(url.removeprefix("http://localhost"))

    assert response.status_code == 403
    assert "zalogowany na inne konto" in text(response)
    assert neighbour.get(f"/gry/{family.game_id}").status_code == 404


# --- a guest that plays ----------------------------------------------------------------------


def test_a_guest_writes_and_takes_back_turns_of_its_game(family: Family):
    _, url = family.invite("play")
    phone = join(family.app, url)

    written = write_turn(phone, family.game_id, "66612", "sixes", seq=1)

    assert written.status_code == 303, text(written)
    assert family.turns() == 1
    page = phone.get(f"/gry/{family.game_id}")
    assert "Zapisano: Ala" in text(page)
    assert f'action="/gry/{family.game_id}/cofnij"' in page.get_data(as_text=True)
    undone = phone.post(
        f"/gry/{family.game_id}/cofnij",
        data={"csrf_token": csrf_of(phone, f"/gry/{family.game_id}"), "seq": 2},
    )
    assert undone.status_code == 303
    assert family.turns() == 0
    for path in ("tabela", "stan"):
        assert phone.get(f"/gry/{family.game_id}/{path}").status_code == 200


def test_a_guest_sees_no_button_that_would_be_a_404(family: Family):
    _, url = family.invite("play")
    phone = join(family.app, url)

    turn_screen = phone.get(f"/gry/{family.game_id}").get_data(as_text=True)
    sheet = phone.get(f"/gry/{family.game_id}/tabela").get_data(as_text=True)
    owners_screen = family.browser.get(f"/gry/{family.game_id}").get_data(as_text=True)

    assert "Dołącz telefon" in owners_screen
    assert "Dołącz telefon" not in turn_screen
    assert 'href="/historia"' not in sheet
    assert ">Historia<" not in turn_screen  # the guest's menu is a visitor's


def guest_of_a_finished_solo_game(family: Family, mode: str) -> tuple[FlaskClient, int]:
    """A phone joined (`mode`) to a one-player game played to its end; the phone and the game."""
    with family.app.app_context():
        solo = games.create_game(family.account_id, "standard", ["Ala"]).id
    _, url = family.invite(mode, game_id=solo)
    phone = join(family.app, url)
    family.play_through(solo)
    return phone, solo


def test_a_guest_of_a_finished_game_sees_the_end_screen_without_the_rematch(family: Family):
    phone, solo = guest_of_a_finished_solo_game(family, "play")

    end = phone.get(f"/gry/{solo}")

    assert end.status_code == 200
    assert "Wygrywa Ala!" in text(end)
    assert "Rewanż" not in text(end)
    assert "Rewanż" in text(family.browser.get(f"/gry/{solo}"))


def test_a_guest_follows_the_familys_rematch_without_a_new_code(family: Family):
    """The family taps „Rewanż”: the guest phone's end screen leads to the rematch, where it
    writes its turns as before, and to the rematch's rematch; the home page leads to the
    latest. Nothing else of the account opens."""
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    assert "Przejdź do rewanżu" not in text(phone.get(f"/gry/{solo}"))  # none tapped yet
    with family.app.app_context():
        rematch = games.rematch(family.account_id, solo).id

    end = phone.get(f"/gry/{solo}")

    assert f'href="/gry/{rematch}">Przejdź do rewanżu</a>' in end.get_data(as_text=True)
    assert "Przejdź do rewanżu" not in text(family.browser.get(f"/gry/{solo}"))  # its own button
    assert phone.get(f"/gry/{rematch}").status_code == 200
    assert write_turn(phone, rematch, "11123", "ones", 1).status_code == 303
    assert phone.get(f"/gry/{rematch}/tabela").status_code == 200
    family.play_through(rematch, skip=1)
    with family.app.app_context():
        third = games.rematch(family.account_id, rematch).id
    assert phone.get(f"/gry/{third}").status_code == 200
    assert f'href="/gry/{third}"' in phone.get("/").get_data(as_text=True)
    assert phone.get(f"/gry/{family.game_id}").status_code == 404  # not a rematch of its game
    assert phone.get("/historia").status_code == 404


def test_an_invitation_lives_as_long_as_the_evenings_rematches(family: Family, moved_clock):
    """A long evening: the game the phone joined ended more than `AFTER_END` ago, but the family
    went on with rematches. The phone still plays the one in progress, and its invitation ends
    `AFTER_END` after the last game of the evening, not after the first."""
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    with family.app.app_context():
        rematch = games.rematch(family.account_id, solo).id
    late = family.finished_at(solo) + invitations.AFTER_END + timedelta(hours=1)
    moved_clock[0] = late

    assert phone.get(f"/gry/{rematch}").status_code == 200
    assert write_turn(phone, rematch, "11123", "ones", 1).status_code == 303  # the write's check
    assert family.turns(rematch) == 1
    assert phone.get(f"/gry/{solo}").status_code == 200  # the evening's first end screen too
    family.invite("watch", game_id=solo)  # a link to it still works, so it is still made
    family.play_through(rematch, skip=1)
    ended = family.finished_at(rematch)
    moved_clock[0] = ended + invitations.AFTER_END - timedelta(minutes=1)
    assert phone.get(f"/gry/{rematch}").status_code == 200
    moved_clock[0] = ended + invitations.AFTER_END + timedelta(minutes=1)
    assert phone.get(f"/gry/{rematch}").status_code == 404
    assert phone.get(f"/gry/{solo}").status_code == 404


def test_a_rematch_started_after_the_link_expired_does_not_bring_it_back(
    family: Family, moved_clock
):
    """The evening ended (its last game over for `AFTER_END`), so the link stopped working;
    days later the family taps „Rewanż” on that old end screen. That is another evening: the
    phone that joined the old game does not get into the new one, and the rematch's panel
    neither lists nor revokes the old link."""
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    with family.app.app_context():
        invitation_id = db.session.scalar(select(GameInvitation.id))
    next_day = family.finished_at(solo) + timedelta(days=1)
    moved_clock[0] = next_day
    assert phone.get(f"/gry/{solo}").status_code == 404
    with family.app.app_context():
        rematch = games.rematch(family.account_id, solo).id
        db.session.execute(update(Game).where(Game.id == rematch).values(started_at=next_day))
        db.session.commit()

    assert phone.get(f"/gry/{rematch}").status_code == 404
    assert phone.get(f"/gry/{solo}").status_code == 404
    listed = family.browser.get(f"{API}/{rematch}/invitations", headers=family.api).get_json()
    assert listed["invitations"] == []
    revoke = f"{API}/{rematch}/invitations/{invitation_id}"
    assert family.browser.delete(revoke, headers=family.api).status_code == 404
    _, fresh = family.invite("play", game_id=rematch)  # the new evening's own link works
    assert join(family.app, fresh).get(f"/gry/{rematch}").status_code == 200


def test_a_rematchs_panel_lists_and_revokes_the_phones_joined_earlier(family: Family):
    """The phones that joined the first game play its rematch: the rematch's „Dołącz telefon”
    lists their invitations, and revoking one there shuts that phone out at once. Another game
    of the account cannot revoke it."""
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    with family.app.app_context():
        invitation_id = db.session.scalar(select(GameInvitation.id))
        rematch = games.rematch(family.account_id, solo).id

    listed = family.browser.get(f"{API}/{rematch}/invitations", headers=family.api).get_json()
    panel = family.browser.get(f"/gry/{rematch}/telefony").get_data(as_text=True)

    assert [i["id"] for i in listed["invitations"]] == [invitation_id]
    assert f'data-invitation="{invitation_id}"' in panel
    assert "z wcześniejszej gry" in panel
    other = f"{API}/{family.game_id}/invitations/{invitation_id}"
    assert family.browser.delete(other, headers=family.api).status_code == 404
    assert phone.get(f"/gry/{rematch}").status_code == 200
    csrf = csrf_of(family.browser, f"/gry/{rematch}/telefony")
    revoked = family.browser.post(
        f"/gry/{rematch}/telefony/{invitation_id}/cofnij", data={"csrf_token": csrf}
    )
    assert revoked.status_code == 303
    assert phone.get(f"/gry/{rematch}").status_code == 404
    assert phone.get(f"/gry/{solo}").status_code == 404


def test_a_watching_guest_follows_the_rematch_still_watching(family: Family):
    phone, solo = guest_of_a_finished_solo_game(family, "watch")
    with family.app.app_context():
        rematch = games.rematch(family.account_id, solo).id

    assert phone.get(f"/gry/{rematch}").status_code == 200
    assert write_turn(phone, rematch, "11123", "ones", 1).status_code == 403


def test_a_guest_of_a_dice_poker_match_follows_its_rematch(family: Family):
    _, url = family.invite("play", game_id=family.other_game_id)
    phone = join(family.app, url)
    with family.app.app_context():
        while not games.load(family.account_id, family.other_game_id).finished:
            games.record_turn(family.account_id, family.other_game_id, "66666")
            games.record_turn(family.account_id, family.other_game_id, "11112")
        rematch = games.rematch(family.account_id, family.other_game_id).id

    end = phone.get(f"/gry/{family.other_game_id}")

    assert f'href="/gry/{rematch}">Przejdź do rewanżu</a>' in end.get_data(as_text=True)
    assert phone.get(f"/gry/{rematch}").status_code == 200


def test_a_guest_opening_another_games_address_is_told_it_needs_that_games_link(
    family: Family,
):
    """Another game of the account, or none: the guest phone is told it joined another game
    and how to join this one, not that the page does not exist (the same 404 for both)."""
    with family.app.app_context():
        solo = games.create_game(family.account_id, "standard", ["Ala"]).id
    _, url = family.invite("play", game_id=solo)
    phone = join(family.app, url)
    assert phone.get(f"/gry/{solo}").status_code == 200  # its own game, and its „dołączył”

    answers = [phone.get(f"/gry/{game}") for game in (family.game_id, family.other_game_id, 99999)]

    assert [a.status_code for a in answers] == [404, 404, 404]
    pages = [re.search(r"<main.*?</main>", text(a)) for a in answers]
    assert all(pages)
    assert len({page.group(0) for page in pages if page}) == 1
    said = text(answers[0])
    assert "Ten telefon dołączył do innej gry" in said
    assert "za rewanżem swojej gry idzie sam" in said
    assert "Nie ma takiej strony" not in said
    assert phone.get("/historia").status_code == 404
    assert "Nie ma takiej strony" in text(phone.get("/historia"))


def test_the_home_page_leads_a_guest_back_to_its_game(family: Family):
    """The logo, the menu and „Strona główna” of the end screen lead to the home page: a guest
    phone finds its game there again, as long as its invitation lives."""
    invitation_id, url = family.invite("play")
    phone = join(family.app, url)

    home = phone.get("/")

    assert home.status_code == 200
    assert f'href="/gry/{family.game_id}"' in home.get_data(as_text=True)
    assert "Wróć do gry" in text(home)
    family.revoke(invitation_id)
    after = phone.get("/")
    assert after.status_code == 200
    assert f'href="/gry/{family.game_id}"' not in after.get_data(as_text=True)
    assert "Wróć do gry" not in text(after)


def _sample_value(name: str, family: Family, game_id: int) -> Any:
    with family.app.app_context():
        player_id = db.session.scalar(select(Player.id).limit(1))
        token_id = db.session.scalar(select(ApiToken.id).limit(1))
    return {
        "game_id": game_id,
        "player_id": player_id,
        "token_id": token_id,
        "seq": 1,
        "invitation_id": 1,
        "filename": "css/app.css",
    }.get(name, 1)  # any other id: one that may well exist


# What anyone may open without an account: a guest gets what a visitor gets, not a 404. Kept
# here apart from tracker/guests.py, so that a page made public by mistake fails this test.
PUBLIC = {
    "static",
    "main.home",
    "main.rules",
    "main.healthz",
    "main.healthz_database",  # an uptime monitor, signed in or not
    "main.favicon",
    "main.manifest",
    "main.service_worker",
    "main.offline",
    "main.theme",
    "main.language",  # the language switch: a guest phone chooses its own
    "auth.sign_in",
    "auth.sign_up",
    "arbiter.table",
    "arbiter.poker",
    "api.score",
    "api.advice",
    "api.poker_rank",
    "join.join",
}
# The guest's own game: these answer it (writes are tested above).
OWN_GAME_PAGES = {"games.play", "games.sheet", "games.state", "games.review"}
OWN_GAME_WRITES = {"games.write", "games.undo"}


def _requests(family: Family) -> list[tuple[str, str, str, int]]:
    """Every rule of the URL map and method, with sample arguments: (endpoint, method, url,
    game id used). A rule about a game is tried with the guest's game and with another. Built
    first, then sent: a request context kept open would share `g` with the requests."""
    rules: list[Rule] = sorted(family.app.url_map.iter_rules(), key=lambda r: r.rule)
    requests = []
    with family.app.test_request_context():
        for rule in rules:
            about_a_game = "game_id" in rule.arguments
            for game_id in [family.game_id, family.other_game_id] if about_a_game else [0]:
                values = {name: _sample_value(name, family, game_id) for name in rule.arguments}
                url = url_for(rule.endpoint, **values)
                for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                    requests.append((rule.endpoint, method, url, game_id))
    return requests


def _send(phone: FlaskClient, method: str, url: str, csrf: str):
    if url.startswith("/api/"):
        return phone.open(url, method=method, json={})
    data = {"csrf_token": csrf} if method != "GET" else None
    return phone.open(url, method=method, data=data)


@pytest.mark.parametrize("mode", ["play", "watch"])
def test_a_guest_gets_404_on_every_other_url_of_the_app(family: Family, mode: str):
    """Table-driven over the whole URL map: only its own game's pages (and writes), and what
    a visitor may open, answer a guest; everything else is a 404 as if it did not exist."""
    _, url = family.invite(mode)
    phone = join(family.app, url)
    visitor = family.app.test_client()
    csrf = csrf_of(phone, f"/gry/{family.game_id}")
    visitor_csrf = csrf_of(visitor, "/zasady")
    tried: set[str] = set()
    wrong = []
    for endpoint, method, target, game_id in _requests(family):
        tried.add(endpoint)
        own_game = game_id == family.game_id
        if endpoint in PUBLIC:
            as_visitor = _send(visitor, method, target, visitor_csrf)
            as_visitor.close()  # a static file's handle
            expected = as_visitor.status_code
        elif own_game and endpoint in OWN_GAME_PAGES:
            expected = 200
        elif own_game and endpoint in OWN_GAME_WRITES:
            continue  # writing is tested on its own (play: written; watch: 403)
        else:
            expected = 404
        got = _send(phone, method, target, csrf)
        got.close()
        if got.status_code != expected:
            wrong.append(f"{method} {target} ({endpoint}): {got.status_code}, not {expected}")
    assert not wrong, "\n".join(wrong)
    # The whole map was walked, including the account's private pages and the API.
    assert len(tried) > 40
    assert {
        "history.index",
        "stats.overview",
        "games.new",
        "games.players_page",
        "games.delete",
        "games.rematch",
        "transfer.data",
        "transfer.download_json",
        "auth.account",
        "api.list_games",
        "api.get_game",
        "invitations.page",
    } <= tried
    assert family.turns() == 0
    assert family.turns(family.other_game_id) == 0
    with family.app.app_context():
        assert db.session.get(Game, family.other_game_id) is not None


def test_a_guest_with_its_own_api_token_is_answered_by_the_token(family: Family):
    _, url = family.invite("watch")
    phone = join(family.app, url)

    with_token = phone.get(API, headers=family.api)
    without = phone.get(API)

    assert with_token.status_code == 200
    assert without.status_code == 404
    assert "error" in without.get_json()


# --- a guest that only watches ---------------------------------------------------------------


def test_a_watching_guest_sees_the_game_without_the_turn_form(family: Family):
    with family.app.app_context():
        games.record_turn(family.account_id, family.game_id, "66612", "sixes", 0)
    _, url = family.invite("watch")
    phone = join(family.app, url)

    page = phone.get(f"/gry/{family.game_id}")
    html = page.get_data(as_text=True)

    assert page.status_code == 200
    assert "Ten telefon tylko ogląda grę" in text(page)
    assert "Teraz: Ola" in text(page)
    assert "Ostatnio: Ala" in text(page)
    assert f'action="/gry/{family.game_id}/ruch"' not in html
    assert f'action="/gry/{family.game_id}/cofnij"' not in html
    assert 'name="dice"' not in html
    assert 'name="kosci-live"' in html  # it follows the game
    sheet = phone.get(f"/gry/{family.game_id}/tabela").get_data(as_text=True)
    assert f'action="/gry/{family.game_id}/cofnij"' not in sheet
    owners = family.browser.get(f"/gry/{family.game_id}").get_data(as_text=True)
    assert 'name="dice"' in owners  # the test can fail


def test_a_watching_poker_guest_sees_the_match_read_only(family: Family):
    with family.app.app_context():
        games.record_turn(family.account_id, family.other_game_id, "66666", None, None)
    _, url = family.invite("watch", game_id=family.other_game_id)
    phone = join(family.app, url)

    page = phone.get(f"/gry/{family.other_game_id}")

    assert page.status_code == 200
    assert "Teraz: Ola" in text(page)
    assert 'name="dice"' not in page.get_data(as_text=True)


@pytest.mark.parametrize("path", ["ruch", "cofnij"])
def test_any_write_of_a_watching_guest_is_a_403(family: Family, path: str):
    with family.app.app_context():
        games.record_turn(family.account_id, family.game_id, "66612", "sixes", 0)
    _, url = family.invite("watch")
    phone = join(family.app, url)
    csrf = csrf_of(phone, f"/gry/{family.game_id}")

    response = phone.post(
        f"/gry/{family.game_id}/{path}",
        data={"csrf_token": csrf, "dice": "11123", "field": "ones", "column": 0, "seq": 2},
    )

    assert response.status_code == 403
    assert WATCH_ONLY in text(response)
    assert family.turns() == 1


# --- revoking --------------------------------------------------------------------------------


def test_a_revoked_invitation_is_a_404_at_once_on_every_page_of_the_game(family: Family):
    invitation_id, url = family.invite("play")
    phone = join(family.app, url)
    assert phone.get(f"/gry/{family.game_id}").status_code == 200

    family.revoke(invitation_id)

    for path in ("", "/tabela", "/stan"):
        response = phone.get(f"/gry/{family.game_id}{path}")
        assert response.status_code == 404, path
    assert GONE_TEXT in text(phone.get(f"/gry/{family.game_id}"))
    assert phone.get("/historia").status_code == 404  # not a sign-in page either
    again = family.app.test_client().get(url.removeprefix("http://localhost"))
    assert again.status_code == 404
    assert GONE_TEXT in text(again)


def revoke_after_the_first_check(
    family: Family, invitation_id: int, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Revoke the invitation, while every request's first check still sees it live (as if the
    check ran just before the revocation): only the write's own re-check can stop it."""
    with family.app.app_context():
        stale = invitations.guest(
            invitation_id, hashlib.sha256(url.rsplit("=", 1)[1].encode()).hexdigest()
        )
    assert stale is not None
    family.revoke(invitation_id)
    monkeypatch.setattr(invitations, "guest", lambda *_args: stale)


def test_a_revocation_after_the_first_check_still_stops_the_write(
    family: Family, monkeypatch: pytest.MonkeyPatch
):
    """The write asks again inside its own transaction, after the game's lock: a revocation
    that lands between the request's first check and the write is not outrun."""
    invitation_id, url = family.invite("play")
    phone = join(family.app, url)
    csrf = csrf_of(phone, f"/gry/{family.game_id}")
    revoke_after_the_first_check(family, invitation_id, url, monkeypatch)

    response = phone.post(
        f"/gry/{family.game_id}/ruch",
        data={"csrf_token": csrf, "dice": "66612", "field": "sixes", "column": 0, "seq": 1},
    )

    assert response.status_code == 404
    assert GONE_TEXT in text(response)
    assert family.turns() == 0
    with family.app.app_context():
        version = db.session.scalar(select(Game.version).where(Game.id == family.game_id))
    assert version == 0  # nothing of the write was kept


def test_a_revocation_after_the_first_check_still_stops_an_undo(
    family: Family, monkeypatch: pytest.MonkeyPatch
):
    """The same for a write through the ORM session (an undo): it asks again before commit."""
    invitation_id, url = family.invite("play")
    phone = join(family.app, url)
    assert write_turn(phone, family.game_id, "66612", "sixes", seq=1).status_code == 303
    csrf = csrf_of(phone, f"/gry/{family.game_id}")
    revoke_after_the_first_check(family, invitation_id, url, monkeypatch)

    response = phone.post(f"/gry/{family.game_id}/cofnij", data={"csrf_token": csrf, "seq": 2})

    assert response.status_code == 404
    assert GONE_TEXT in text(response)
    assert family.turns() == 1


def test_deleting_the_game_ends_its_invitations(family: Family):
    _, url = family.invite("play")
    phone = join(family.app, url)
    with family.app.app_context():
        trash.delete_game(family.account_id, family.game_id)
        assert db.session.scalar(select(func.count()).select_from(GameInvitation)) == 0

    assert phone.get(f"/gry/{family.game_id}").status_code == 404


def test_a_link_revoked_while_its_game_is_deleted_stays_revoked_after_the_restore(
    family: Family, monkeypatch: pytest.MonkeyPatch
):
    """One phone revokes a link just as another deletes the game, after the deletion has read
    the links it keeps: the revocation either waits and finds the game gone (told so), or is
    kept. Never revoked on the panel and then back with the game restored."""
    import threading

    invitation_id, url = family.invite("play")
    phone = join(family.app, url)
    answer: list[object] = []

    def revoke() -> None:
        with family.app.app_context():
            try:
                invitations.revoke(family.account_id, family.game_id, invitation_id)
                answer.append("revoked")
            except NotFound as exc:
                answer.append(exc)

    revoking = threading.Thread(target=revoke)
    real_kept = invitations.kept

    def kept_then_revoked(game_id: int) -> list[dict[str, str]]:
        links = real_kept(game_id)
        revoking.start()
        revoking.join(timeout=2)  # done by now, unless it waits for the deletion
        return links

    monkeypatch.setattr(invitations, "kept", kept_then_revoked)
    with family.app.app_context():
        entry = trash.delete_game(family.account_id, family.game_id)
    revoking.join(timeout=30)
    with family.app.app_context():
        restored = trash.restore(family.account_id, entry).game_id

    assert answer, "the revocation did not end"
    if answer[0] == "revoked":
        assert phone.get(f"/gry/{restored}").status_code == 404
    else:
        assert isinstance(answer[0], NotFound), answer


def test_a_game_deleted_after_its_links_expired_promises_no_phone_its_way_back(
    family: Family, moved_clock
):
    """The game's evening was over, so its link no longer worked, when the family deleted it:
    the trash keeps no link, and the phone is told its link expired, not that the game will
    take it back once restored (it would not: the game is as long over as before)."""
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    moved_clock[0] = family.finished_at(solo) + invitations.AFTER_END + timedelta(hours=1)
    with family.app.app_context():
        entry = trash.delete_game(family.account_id, solo)

    told = text(phone.get(f"/gry/{solo}"))

    assert GONE_TEXT in told
    assert "Tę grę usunięto" not in told
    with family.app.app_context():
        restored = trash.restore(family.account_id, entry).game_id
        assert db.session.scalar(select(func.count()).select_from(GameInvitation)) == 0
    assert phone.get(f"/gry/{restored}").status_code == 404


def test_a_game_restored_from_the_trash_takes_its_joined_phones_back(family: Family):
    """Deleted by mistake, then „Cofnij”: the phone joined by the game's link opens its old
    address and is led to the game as restored, where it writes as before, with no new code.
    A link revoked before the deletion stays revoked."""
    _, url = family.invite("play")
    phone = join(family.app, url)
    revoked_id, revoked_url = family.invite("watch")
    watcher = join(family.app, revoked_url)
    family.revoke(revoked_id)
    assert write_turn(phone, family.game_id, "66612", "sixes", 1).status_code == 303
    with family.app.app_context():
        entry = trash.delete_game(family.account_id, family.game_id)
    meanwhile = phone.get(f"/gry/{family.game_id}")
    assert meanwhile.status_code == 404
    assert "Tę grę usunięto na telefonie, który ją prowadzi." in text(meanwhile)
    assert "Tej gry tu już nie ma" in text(meanwhile)
    assert "Zaproszenie wygasło" in text(watcher.get(f"/gry/{family.game_id}"))  # revoked before
    with family.app.app_context():
        restored = trash.restore(family.account_id, entry).game_id

    back = phone.get(f"/gry/{family.game_id}")

    assert back.status_code == 303
    assert back.headers["Location"] == f"/gry/{restored}"
    page = phone.get(f"/gry/{restored}")
    assert "Tę grę przywrócono z kosza (może na innym telefonie). Oto ona." in text(page)
    assert phone.get(f"/gry/{family.game_id}/stan").status_code == 404  # a poll is not moved
    assert write_turn(phone, restored, "33322", "full_house", 2).status_code == 303
    assert family.turns(restored) == 2
    assert watcher.get(f"/gry/{restored}").status_code == 404
    with family.app.app_context():
        assert [i.mode for i in invitations.live(family.account_id, restored)] == ["play"]


def test_deleting_the_evenings_first_game_leaves_its_phones_in_the_rematch(family: Family):
    """The family deletes the game a phone joined, while that phone plays its rematch: the
    phone's link goes to the rematch (its panel lists it as its own) and the phone plays on.
    The first game comes back from the trash without it."""
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    with family.app.app_context():
        invitation_id = db.session.scalar(select(GameInvitation.id))
        rematch = games.rematch(family.account_id, solo).id
        entry = trash.delete_game(family.account_id, solo)

    assert phone.get(f"/gry/{rematch}").status_code == 200
    assert write_turn(phone, rematch, "11123", "ones", 1).status_code == 303
    panel = family.browser.get(f"/gry/{rematch}/telefony").get_data(as_text=True)
    assert f'data-invitation="{invitation_id}"' in panel
    assert "z wcześniejszej gry" not in panel
    with family.app.app_context():
        restored = trash.restore(family.account_id, entry).game_id
        assert invitations.live(family.account_id, rematch)[0].game_id == rematch
        kept = db.session.scalar(
            select(func.count()).select_from(DeletedGame).where(DeletedGame.invitations.is_(None))
        )
    assert kept == 1  # nothing kept: SQL NULL, as for entries from before the column
    assert phone.get(f"/gry/{restored}").status_code == 404  # not a game of its evening now


def test_the_first_game_and_its_rematch_deleted_at_once_keep_the_link_in_the_trash(
    family: Family, monkeypatch: pytest.MonkeyPatch
):
    """Two phones delete the evening's first game and its rematch at the same moment: the
    first game's deletion waits for the rematch's, finds it gone, and keeps its link in its
    own trash entry (no link handed to a game no longer there: a foreign-key error on
    PostgreSQL). Restoring it brings the phone back."""
    import threading
    import time

    phone, solo = guest_of_a_finished_solo_game(family, "play")
    with family.app.app_context():
        rematch = games.rematch(family.account_id, solo).id
    inside = threading.Event()
    real_kept = invitations.kept

    def slow_for_the_rematch(game_id: int) -> list[dict[str, str]]:
        if game_id == rematch:  # the rematch's deletion holds its lock a moment
            inside.set()
            time.sleep(0.5)
        return real_kept(game_id)

    monkeypatch.setattr(invitations, "kept", slow_for_the_rematch)
    failures: list[BaseException] = []

    def delete_the_rematch() -> None:
        with family.app.app_context():
            try:
                trash.delete_game(family.account_id, rematch)
            except BaseException as exc:  # reported below
                failures.append(exc)

    other = threading.Thread(target=delete_the_rematch)
    other.start()
    assert inside.wait(10)
    with family.app.app_context():
        entry = trash.delete_game(family.account_id, solo)
    other.join(30)

    assert failures == []
    with family.app.app_context():
        restored = trash.restore(family.account_id, entry).game_id
    assert phone.get(f"/gry/{restored}").status_code == 200


def test_a_link_revived_by_an_undo_does_not_follow_a_rematch_of_another_evening(
    family: Family, moved_clock
):
    """The family came back to an old game's end screen the next day, tapped „Rewanż” (a new
    evening), then took back the old game's last turn, which reopens it and its link: the
    phone joined to the old game opens it again, but not the new evening's rematch."""
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    moved_clock[0] = family.finished_at(solo) + invitations.AFTER_END + timedelta(hours=1)
    with family.app.app_context():
        rematch = games.rematch(family.account_id, solo).id
        games.undo_last_turn(family.account_id, solo)

    assert phone.get(f"/gry/{solo}").status_code == 200
    assert phone.get(f"/gry/{rematch}").status_code == 404


# --- expiry ----------------------------------------------------------------------------------


def test_an_invitation_ends_a_few_hours_after_its_game(family: Family, moved_clock):
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    ended = family.finished_at(solo)

    moved_clock[0] = ended + invitations.AFTER_END - timedelta(minutes=1)
    assert phone.get(f"/gry/{solo}").status_code == 200
    listed = family.browser.get(f"{API}/{solo}/invitations", headers=family.api).get_json()
    expires = (ended + invitations.AFTER_END).isoformat(timespec="seconds") + "Z"
    assert listed["invitations"][0]["expires_at"] == expires

    moved_clock[0] = ended + invitations.AFTER_END + timedelta(minutes=1)
    assert phone.get(f"/gry/{solo}").status_code == 404
    late = family.browser.post(
        f"{API}/{solo}/invitations", json={"mode": "play"}, headers=family.api
    )
    assert late.status_code == 409


def test_an_unfinished_game_keeps_its_invitation_until_the_hard_cap(family: Family, moved_clock):
    _, url = family.invite("play")
    phone = join(family.app, url)
    with family.app.app_context():
        created = db.session.scalar(select(GameInvitation.created_at))

    moved_clock[0] = created + invitations.MAX_LIFETIME - timedelta(minutes=1)
    assert phone.get(f"/gry/{family.game_id}").status_code == 200
    moved_clock[0] = created + invitations.MAX_LIFETIME + timedelta(minutes=1)
    assert phone.get(f"/gry/{family.game_id}").status_code == 404


def test_an_undo_after_the_end_reopens_the_game_and_its_invitation(family: Family, moved_clock):
    phone, solo = guest_of_a_finished_solo_game(family, "play")
    ended = family.finished_at(solo)
    with family.app.app_context():
        games.undo_last_turn(family.account_id, solo)

    moved_clock[0] = ended + invitations.AFTER_END + timedelta(hours=1)

    assert phone.get(f"/gry/{solo}").status_code == 200  # the game goes on, so does the link


# --- the panel on the game's screen ----------------------------------------------------------


def test_the_panel_makes_a_link_with_its_qr_code_that_a_fresh_phone_can_play_by(family: Family):
    game = f"/gry/{family.game_id}"
    assert f'href="{game}/telefony"' in family.browser.get(game).get_data(as_text=True)
    csrf = csrf_of(family.browser, f"{game}/telefony")

    made = family.browser.post(f"{game}/telefony", data={"csrf_token": csrf, "mode": "play"})

    assert made.status_code == 303
    assert made.headers["Location"] == f"{game}/telefony#kod"
    panel = family.browser.get(f"{game}/telefony")
    html = panel.get_data(as_text=True)
    assert panel.status_code == 200
    assert re.search(r'<svg viewBox="0 0 (\d+) \1" class="qr-code">', html)
    assert 'stroke="#000"' in html  # dark modules…
    assert 'fill="#fff"' in html  # …on white
    link = JOIN_URL.search(html)
    assert link, "the panel shows the link"
    assert "Może wpisywać ruchy" in text(panel)
    assert html.count("data-invitation=") == 1
    phone = join(family.app, link.group(1))
    assert write_turn(phone, family.game_id, "66612", "sixes", seq=1).status_code == 303
    assert family.turns() == 1


def test_the_panel_revokes_an_invitation(family: Family):
    invitation_id, url = family.invite("watch")
    phone = join(family.app, url)
    game = f"/gry/{family.game_id}"
    csrf = csrf_of(family.browser, f"{game}/telefony")

    response = family.browser.post(
        f"{game}/telefony/{invitation_id}/cofnij", data={"csrf_token": csrf}
    )

    assert response.status_code == 303
    assert "Zaproszenie cofnięte" in text(family.browser.get(f"{game}/telefony"))
    assert phone.get(game).status_code == 404


def test_the_panels_forms_need_their_csrf_token(family: Family):
    invitation_id, url = family.invite("play")
    game = f"/gry/{family.game_id}"

    made = family.browser.post(f"{game}/telefony", data={"mode": "play"})
    revoked = family.browser.post(f"{game}/telefony/{invitation_id}/cofnij")

    assert (made.status_code, revoked.status_code) == (400, 400)
    with family.app.app_context():
        assert db.session.scalar(select(func.count()).select_from(GameInvitation)) == 1
    assert join(family.app, url).get(game).status_code == 200


def test_the_panel_says_in_polish_what_is_wrong_with_the_mode(family: Family):
    game = f"/gry/{family.game_id}"
    csrf = csrf_of(family.browser, f"{game}/telefony")

    response = family.browser.post(f"{game}/telefony", data={"csrf_token": csrf, "mode": "boss"})

    assert response.status_code == 400
    assert "Wybierz, czy telefon z tym linkiem może wpisywać ruchy" in text(response)


def test_the_panel_of_another_accounts_game_is_a_404(app: Flask, family: Family):
    neighbour = app.test_client()
    assert sign_up(neighbour, "Nowakowie").status_code == 302
    game = f"/gry/{family.game_id}"

    assert neighbour.get(f"{game}/telefony").status_code == 404
    csrf = csrf_of(neighbour, "/zasady")
    made = neighbour.post(f"{game}/telefony", data={"csrf_token": csrf, "mode": "play"})
    assert made.status_code == 404


def test_a_signed_out_visitor_is_sent_to_sign_in_from_the_panel(app: Flask, family: Family):
    response = app.test_client().get(f"/gry/{family.game_id}/telefony")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/logowanie")


# --- the audit log ---------------------------------------------------------------------------


def test_the_audit_log_records_invitations_made_used_and_revoked_without_the_token(
    family: Family,
):
    invitation_id, url = family.invite("watch")
    join(family.app, url)
    family.revoke(invitation_id)

    with family.app.app_context():
        events = [
            (e.event, e.account_id, e.detail)
            for e in db.session.scalars(
                select(AuditEvent)
                .where(AuditEvent.event.like("invitation_%"))
                .order_by(AuditEvent.id)
            )
        ]
    detail = f"gra {family.game_id}, zaproszenie {invitation_id}"
    assert events == [
        ("invitation_created", family.account_id, f"{detail} (watch)"),
        ("invitation_used", family.account_id, f"{detail} (watch)"),
        ("invitation_revoked", family.account_id, detail),
    ]
    token = url.rsplit("=", 1)[1]
    assert all(token not in d for _, _, d in events)


def test_the_live_count_per_game_is_capped(family: Family, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(invitations, "MAX_LIVE_PER_GAME", 2)
    family.invite()
    family.invite("watch")

    third = family.browser.post(
        f"{API}/{family.game_id}/invitations", json={"mode": "play"}, headers=family.api
    )

    assert third.status_code == 409
    with family.app.app_context():
        db.session.execute(update(GameInvitation).values(revoked_at=datetime(2026, 1, 1)))
        db.session.commit()
    family.invite()  # revoked ones do not count


@pytest.mark.parametrize("way_out", ["/wyloguj", "/wyloguj-wszedzie"])
def test_signing_out_leaves_no_invitation_link_in_the_browsers_cookie(family: Family, way_out: str):
    """The panel keeps the link it made in the session cookie, which is signed but readable:
    on a shared tablet the next person must not find a live link to the family's game in it,
    whether the family signed out here or everywhere."""
    game = f"/gry/{family.game_id}"
    csrf = csrf_of(family.browser, f"{game}/telefony")
    family.browser.post(f"{game}/telefony", data={"csrf_token": csrf, "mode": "play"})
    with family.browser.session_transaction() as kept:
        assert kept["invitation_shown"]["game"] == family.game_id

    signed_out = family.browser.post(way_out, data={"csrf_token": csrf_of(family.browser, game)})

    assert signed_out.status_code == 302
    with family.browser.session_transaction() as kept:
        assert "invitation_shown" not in kept
        assert "_user_id" not in kept
    # Signing in again starts the panel afresh: no link until one is made.
    assert sign_in(family.browser).status_code == 302
    assert JOIN_URL.search(text(family.browser.get(f"{game}/telefony"))) is None


def test_signing_in_drops_what_another_account_left_in_the_session(app: Flask, family: Family):
    """A browser whose account was signed out elsewhere (a password change, „sign out
    everywhere” on another phone) keeps its cookie: the next account signed in on it must not
    inherit the first one's invitation link."""
    game = f"/gry/{family.game_id}"
    csrf = csrf_of(family.browser, f"{game}/telefony")
    family.browser.post(f"{game}/telefony", data={"csrf_token": csrf, "mode": "play"})
    with app.app_context():
        accounts.close_all_sessions(family.account_id)
    neighbour_name = "Nowakowie"
    assert sign_up(app.test_client(), neighbour_name).status_code == 302

    assert sign_in(family.browser, neighbour_name).status_code == 302

    with family.browser.session_transaction() as kept:
        assert "invitation_shown" not in kept


def test_phones_inviting_at_once_never_pass_the_limit(app: Flask, family: Family):
    """Each phone counts the live invitations and writes its own under the game's lock: eight
    phones asking at once, four short of the limit, make exactly four."""
    from .test_writes import at_once

    for _ in range(invitations.MAX_LIVE_PER_GAME - 4):
        family.invite()

    def invite() -> int:
        with app.app_context():
            invitations.create(family.account_id, family.game_id, "play")
        return 201

    answers = at_once([invite] * 8)

    assert answers.count(201) == 4, answers
    refused = [a for a in answers if a != 201]
    assert all(isinstance(a, Conflict) and a.code == "invitation_limit" for a in refused), answers
    with app.app_context():
        assert len(invitations.live(family.account_id, family.game_id)) == (
            invitations.MAX_LIVE_PER_GAME
        )


def test_an_invitation_to_a_game_deleted_at_the_same_moment_is_a_404(app: Flask, family: Family):
    """Never a 500 (the invitation's foreign key to a game gone): the phone is told the game
    is gone, or the invitation is made and deleted with its game."""
    from .test_writes import at_once

    for _ in range(5):
        with app.app_context():
            game_id = games.create_game(family.account_id, "standard", ["Ala", "Ola"]).id

        def invite(game_id: int = game_id) -> str:
            with app.app_context():
                invitations.create(family.account_id, game_id, "play")
            return "invited"

        def delete(game_id: int = game_id) -> str:
            with app.app_context():
                trash.delete_game(family.account_id, game_id)
            return "deleted"

        answers = at_once([invite, delete])

        assert answers[1] == "deleted", answers
        assert answers[0] == "invited" or isinstance(answers[0], NotFound), answers
        with app.app_context():
            left = db.session.scalar(select(func.count()).where(GameInvitation.game_id == game_id))
        assert left == 0
