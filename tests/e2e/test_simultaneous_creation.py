"""Several phones start games with the same new players at the same moment: every request gets
an answer (a game, or a clear 409), never a 500, and no worker is left broken afterwards."""

from __future__ import annotations

import uuid

from sqlalchemy import func, select

from tracker.extensions import db
from tracker.models import Account, Player, name_key

from .web import Answer, Api, at_once, new_account

THREADS = 8
BURSTS = 3
AFTERWARDS = 40


def test_games_with_the_same_new_players_created_at_once(live_server):
    name, token = new_account(live_server, "Tłum")
    api = Api(live_server.url, token)
    created: list[int] = []

    for burst in range(BURSTS):
        players = [f"Nowy {uuid.uuid4().hex[:6]}", f"Nowa {uuid.uuid4().hex[:6]}", "Ala"]
        body = {"variant": "standard" if burst % 2 else "triple", "players": players}

        def create(body: dict = body) -> Answer:
            return api.call("POST", "/games", body)

        answers = at_once(*[create] * THREADS)
        for answer in answers:
            assert isinstance(answer, Answer), answer
            assert answer.status in (201, 409), f"burst {burst}: {answer}"
            if answer.status == 409:
                assert answer.json()["error"], answer
        games = [a.json() for a in answers if a.status == 201]
        assert games, "not one of the simultaneous requests created a game"
        for game in games:
            assert [p["name"] for p in game["players"]] == players
        created += [game["id"] for game in games]

        # Each new name is one player of the account, however many requests created it.
        with live_server.app.app_context():
            account_id = db.session.scalar(
                select(Account.id).where(Account.name_key == name_key(name))
            )
            for player in players:
                count = db.session.scalar(
                    select(func.count())
                    .select_from(Player)
                    .where(Player.account_id == account_id, Player.name_key == name_key(player))
                )
                assert count == 1, (player, count)

    # Afterwards every worker still answers: no failed transaction left behind in any of them.
    for index in range(AFTERWARDS):
        if index % 2:
            answer = api.call("GET", f"/games/{created[index % len(created)]}")
        else:
            answer = api.call("GET", "/games")
        assert answer.status == 200, f"request {index} after the bursts: {answer}"
    listed = {game["id"] for game in api.call("GET", "/games").json()["games"]}
    assert set(created) <= listed
