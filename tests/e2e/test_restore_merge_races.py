"""One phone restores Alicja's deleted game from the trash while another merges Alicja into Ola,
at the same moment, through the real `serve` (several worker processes): both are answered,
and the game ends up Ola's whichever came first, with no Alicja left."""

from __future__ import annotations

import re

from sqlalchemy import select

from tracker.extensions import db
from tracker.models import Account, GameSeat, Player

from .web import Api, Browserless, at_once, new_account

ROUNDS = 8
UNDO = re.compile(r'action="(/gracze/polaczenia/\d+/cofnij)"')
RESTORE = re.compile(r'action="/historia/kosz/(\d+)/przywroc"')


def test_a_restore_and_a_merge_of_its_player_at_once_give_the_game_to_the_one_remaining(
    live_server,
):
    name, token = new_account(live_server, "Kosz i gracze")
    api = Api(live_server.url, token)
    phones = [Browserless(live_server.url), Browserless(live_server.url)]
    for phone in phones:
        phone.sign_in(name)
    api.create_game("standard", ["Ola"])
    with live_server.app.app_context():
        account = db.session.scalar(select(Account.id).where(Account.name == name))
        mine = Player.account_id == account
        ola = db.session.scalar(select(Player.id).where(mine, Player.name == "Ola"))

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        api.create_game("standard", [alicja])  # she stays a player with the game deleted
        with live_server.app.app_context():
            source = db.session.scalar(select(Player.id).where(mine, Player.name == alicja))
        deleted = phones[0].post_form(f"/gry/{game['id']}/usun", {})
        assert deleted.status == 303, deleted
        (entry,) = RESTORE.findall(phones[0].get(deleted.location).text)
        restore_csrf = phones[0].csrf_token("/historia/kosz")
        merge_csrf = phones[1].csrf_token(f"/gracze/{source}/polacz")

        answers = at_once(
            lambda url=f"/historia/kosz/{entry}/przywroc", csrf=restore_csrf: phones[0].request(
                "POST", url, {"csrf_token": csrf}
            ),
            lambda url=f"/gracze/{source}/polacz", csrf=merge_csrf: phones[1].request(
                "POST", url, {"csrf_token": csrf, "target": str(ola)}
            ),
        )

        assert all(not isinstance(a, BaseException) and a.status == 303 for a in answers), (
            f"round {round_}: {answers}"
        )
        with live_server.app.app_context():
            left = db.session.scalars(select(Player.id).where(mine, Player.name == alicja)).all()
            seated = db.session.scalars(
                select(GameSeat.player_id).where(GameSeat.player_id.in_([ola, source]))
            ).all()
        assert left == [], f"round {round_}: {alicja} is still there"
        assert sorted(seated) == [ola] * (3 + 2 * round_), f"round {round_}: {seated}"


def test_a_restore_and_a_deletion_of_its_player_at_once_are_both_answered(live_server):
    """Alicja has no game but the deleted one: her deletion („Usuń”) and the game's restore at
    once either delete her and bring her back with the game, or refuse her deletion."""
    name, token = new_account(live_server, "Kosz i usuwanie")
    api = Api(live_server.url, token)
    phones = [Browserless(live_server.url), Browserless(live_server.url)]
    for phone in phones:
        phone.sign_in(name)
    with live_server.app.app_context():
        account = db.session.scalar(select(Account.id).where(Account.name == name))
        mine = Player.account_id == account

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        with live_server.app.app_context():
            source = db.session.scalar(select(Player.id).where(mine, Player.name == alicja))
        deleted = phones[0].post_form(f"/gry/{game['id']}/usun", {})
        assert deleted.status == 303, deleted
        (entry,) = RESTORE.findall(phones[0].get(deleted.location).text)
        restore_csrf = phones[0].csrf_token("/historia/kosz")
        delete_csrf = phones[1].csrf_token(f"/gracze/{source}/usun")

        answers = at_once(
            lambda url=f"/historia/kosz/{entry}/przywroc", csrf=restore_csrf: phones[0].request(
                "POST", url, {"csrf_token": csrf}
            ),
            lambda url=f"/gracze/{source}/usun", csrf=delete_csrf: phones[1].request(
                "POST", url, {"csrf_token": csrf}
            ),
        )

        assert all(not isinstance(a, BaseException) and a.status in (303, 409) for a in answers), (
            f"round {round_}: {answers}"
        )
        assert answers[0].status == 303, f"round {round_}: {answers}"  # type: ignore[union-attr]
        with live_server.app.app_context():
            left = db.session.scalars(select(Player.id).where(mine, Player.name == alicja)).all()
        assert len(left) == 1, f"round {round_}: {alicja} is there {len(left)} times"


def test_a_restore_and_an_undo_of_the_merge_at_once_give_the_game_back_to_the_player_back(
    live_server,
):
    """Alicja merged into Ola by mistake, then her game deleted; one phone restores it while
    another taps „Cofnij” on the merge: whichever decides first, the game is Alicja's again."""
    name, token = new_account(live_server, "Kosz i cofanie")
    api = Api(live_server.url, token)
    phones = [Browserless(live_server.url), Browserless(live_server.url)]
    for phone in phones:
        phone.sign_in(name)
    api.create_game("standard", ["Ola"])
    with live_server.app.app_context():
        account = db.session.scalar(select(Account.id).where(Account.name == name))
        mine = Player.account_id == account
        ola = db.session.scalar(select(Player.id).where(mine, Player.name == "Ola"))

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        with live_server.app.app_context():
            source = db.session.scalar(select(Player.id).where(mine, Player.name == alicja))
        merged = phones[1].post_form(f"/gracze/{source}/polacz", {"target": str(ola)})
        assert merged.status == 303, merged
        (undo,) = set(UNDO.findall(phones[1].get("/gracze").text))
        deleted = phones[0].post_form(f"/gry/{game['id']}/usun", {})
        assert deleted.status == 303, deleted
        (entry,) = RESTORE.findall(phones[0].get(deleted.location).text)
        restore_csrf = phones[0].csrf_token("/historia/kosz")
        undo_csrf = phones[1].csrf_token("/gracze")

        answers = at_once(
            lambda url=f"/historia/kosz/{entry}/przywroc", csrf=restore_csrf: phones[0].request(
                "POST", url, {"csrf_token": csrf}
            ),
            lambda url=undo, csrf=undo_csrf: phones[1].request("POST", url, {"csrf_token": csrf}),
        )

        assert all(not isinstance(a, BaseException) and a.status == 303 for a in answers), (
            f"round {round_}: {answers}"
        )
        restored = int(answers[0].location.rsplit("/", 1)[1])  # type: ignore[union-attr]
        with live_server.app.app_context():
            (back,) = db.session.scalars(select(Player.id).where(mine, Player.name == alicja))
            seats = db.session.scalars(
                select(GameSeat.player_id)
                .where(GameSeat.game_id == restored)
                .order_by(GameSeat.seat)
            ).all()
        assert seats[0] == back, f"round {round_}: the restored game is {seats[0]}'s"


def test_a_deletion_and_an_undo_of_the_merge_at_once_keep_the_game_for_the_player_back(
    live_server,
):
    """Alicja merged into Ola by mistake; one phone deletes her game while another taps
    „Cofnij” on the merge: restored from the trash afterwards, the game is Alicja's again."""
    name, token = new_account(live_server, "Usuwanie i cofanie")
    api = Api(live_server.url, token)
    phones = [Browserless(live_server.url), Browserless(live_server.url)]
    for phone in phones:
        phone.sign_in(name)
    api.create_game("standard", ["Ola"])
    with live_server.app.app_context():
        account = db.session.scalar(select(Account.id).where(Account.name == name))
        mine = Player.account_id == account
        ola = db.session.scalar(select(Player.id).where(mine, Player.name == "Ola"))

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        with live_server.app.app_context():
            source = db.session.scalar(select(Player.id).where(mine, Player.name == alicja))
        merged = phones[1].post_form(f"/gracze/{source}/polacz", {"target": str(ola)})
        assert merged.status == 303, merged
        (undo,) = set(UNDO.findall(phones[1].get("/gracze").text))
        delete_csrf = phones[0].csrf_token(f"/gry/{game['id']}/usun")
        undo_csrf = phones[1].csrf_token("/gracze")

        answers = at_once(
            lambda url=f"/gry/{game['id']}/usun", csrf=delete_csrf: phones[0].request(
                "POST", url, {"csrf_token": csrf}
            ),
            lambda url=undo, csrf=undo_csrf: phones[1].request("POST", url, {"csrf_token": csrf}),
        )

        assert all(not isinstance(a, BaseException) and a.status == 303 for a in answers), (
            f"round {round_}: {answers}"
        )
        (entry,) = set(RESTORE.findall(phones[0].get("/historia/kosz").text))
        restored = phones[0].post_form(
            f"/historia/kosz/{entry}/przywroc", {}, token_from="/historia/kosz"
        )
        assert restored.status == 303, restored
        restored_id = int(restored.location.rsplit("/", 1)[1])
        with live_server.app.app_context():
            (back,) = db.session.scalars(select(Player.id).where(mine, Player.name == alicja))
            seats = db.session.scalars(
                select(GameSeat.player_id)
                .where(GameSeat.game_id == restored_id)
                .order_by(GameSeat.seat)
            ).all()
        assert seats[0] == back, f"round {round_}: the restored game is {seats[0]}'s"
