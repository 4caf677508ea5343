"""Two phones of one family tap „Cofnij” on the same merge of two players at the same moment,
through the real `serve` (several worker processes): the merged-away player comes back once,
with exactly the games the merge moved; the second phone is told the merge was undone already."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from tracker.extensions import db
from tracker.models import Account, GameSeat, Player

from .web import Api, Browserless, at_once, new_account

ROUNDS = 6
UNDO = re.compile(r'action="(/gracze/polaczenia/\d+/cofnij)"')


def test_two_phones_undoing_one_merge_at_once_bring_the_player_back_once(live_server):
    name, token = new_account(live_server, "Połączenia")
    api = Api(live_server.url, token)
    phones = [Browserless(live_server.url), Browserless(live_server.url)]
    for phone in phones:
        phone.sign_in(name)
    api.create_game("standard", ["Ola"])  # the player each Alicja is merged into by mistake
    with live_server.app.app_context():
        account = db.session.scalar(select(Account.id).where(Account.name == name))
        mine = Player.account_id == account
        ola = db.session.scalar(select(Player.id).where(mine, Player.name == "Ola"))

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        api.create_game("standard", ["Ala", alicja])
        api.create_game("standard", [alicja])
        with live_server.app.app_context():
            source = db.session.scalar(select(Player.id).where(mine, Player.name == alicja))
        merged = phones[0].post_form(f"/gracze/{source}/polacz", {"target": str(ola)})
        assert merged.status == 303, merged
        (undo,) = set(UNDO.findall(phones[0].get("/gracze").text))
        tokens = [phone.csrf_token("/gracze") for phone in phones]

        answers = at_once(
            *(
                lambda phone=phone, csrf=csrf, undo=undo: phone.request(
                    "POST", undo, {"csrf_token": csrf}
                )
                for phone, csrf in zip(phones, tokens, strict=True)
            )
        )

        assert all(not isinstance(a, BaseException) and a.status == 303 for a in answers), (
            f"round {round_}: {answers}"
        )
        pages = [phone.get("/gracze").text for phone in phones]
        said = sorted(
            "Cofnięto połączenie" in page or "To połączenie już cofnięto" in page for page in pages
        )
        assert said == [True, True], f"round {round_}: each phone is told what happened"
        with live_server.app.app_context():
            back = db.session.scalars(select(Player.id).where(mine, Player.name == alicja)).all()
            assert len(back) == 1, f"round {round_}: {alicja} came back {len(back)} times"
            seats = db.session.scalar(
                select(func.count()).select_from(GameSeat).where(GameSeat.player_id == back[0])
            )
            ola_seats = db.session.scalar(
                select(func.count()).select_from(GameSeat).where(GameSeat.player_id == ola)
            )
        assert seats == 2, f"round {round_}: {alicja} has {seats} games"
        assert ola_seats == 1, f"round {round_}: Ola kept {ola_seats} games"
