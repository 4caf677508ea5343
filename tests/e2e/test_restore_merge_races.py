"""One phone restores Alicja's deleted game from the trash while another merges Alicja into Ola,
at the same moment, through the real `serve` (several worker processes): both are answered,
and the game ends up Ola's whichever came first, with no Alicja left."""

from __future__ import annotations

from sqlalchemy import select

from tracker.extensions import db
from tracker.models import GameSeat

from .web import RESTORE_FORM, UNDO_MERGE_FORM, at_once, two_phones

ROUNDS = 8


def deleted_and_restore_form(phone, game_id: int) -> str:
    """Delete the game from `phone`; the address of its „Przywróć”, as the deletion's page
    offers it."""
    deleted = phone.post_form(f"/gry/{game_id}/usun", {})
    assert deleted.status == 303, deleted
    (restore,) = RESTORE_FORM.findall(phone.get(deleted.location).text)
    return restore


def merged_and_undo_form(phone, source: int, target: int) -> str:
    """Merge `source` into `target` from `phone`; the address of the merge's „Cofnij”."""
    merged = phone.post_form(f"/gracze/{source}/polacz", {"target": str(target)})
    assert merged.status == 303, merged
    (undo,) = set(UNDO_MERGE_FORM.findall(phone.get("/gracze").text))
    return undo


def assert_answered(answers, round_: int, statuses=(303,)) -> None:
    assert all(not isinstance(a, BaseException) and a.status in statuses for a in answers), (
        f"round {round_}: {answers}"
    )


def first_seat_player(live_server, game_id: int) -> int:
    """The player in the game's first seat, as stored."""
    with live_server.app.app_context():
        return db.session.scalars(
            select(GameSeat.player_id).where(GameSeat.game_id == game_id).order_by(GameSeat.seat)
        ).first()


def test_a_restore_and_a_merge_of_its_player_at_once_give_the_game_to_the_one_remaining(
    live_server,
):
    family = two_phones(live_server, "Kosz i gracze")
    api, phones = family.api, family.phones
    api.create_game("standard", ["Ola"])
    ola = family.player_id("Ola")

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        api.create_game("standard", [alicja])  # she stays a player with the game deleted
        source = family.player_id(alicja)
        restore = deleted_and_restore_form(phones[0], game["id"])

        answers = at_once(
            phones[0].ready_post(restore, token_from="/historia/kosz"),
            phones[1].ready_post(f"/gracze/{source}/polacz", {"target": str(ola)}),
        )

        assert_answered(answers, round_)
        with live_server.app.app_context():
            left = family.player_ids(alicja)
            seated = db.session.scalars(
                select(GameSeat.player_id).where(GameSeat.player_id.in_([ola, source]))
            ).all()
        assert left == [], f"round {round_}: {alicja} is still there"
        assert sorted(seated) == [ola] * (3 + 2 * round_), f"round {round_}: {seated}"


def test_a_restore_and_a_deletion_of_its_player_at_once_are_both_answered(live_server):
    """Alicja has no game but the deleted one: her deletion („Usuń”) and the game's restore at
    once either delete her and bring her back with the game, or refuse her deletion."""
    family = two_phones(live_server, "Kosz i usuwanie")
    api, phones = family.api, family.phones

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        source = family.player_id(alicja)
        restore = deleted_and_restore_form(phones[0], game["id"])

        answers = at_once(
            phones[0].ready_post(restore, token_from="/historia/kosz"),
            phones[1].ready_post(f"/gracze/{source}/usun"),
        )

        assert_answered(answers, round_, (303, 409))
        assert answers[0].status == 303, f"round {round_}: {answers}"  # type: ignore[union-attr]
        left = family.player_ids(alicja)
        assert len(left) == 1, f"round {round_}: {alicja} is there {len(left)} times"


def test_a_restore_and_an_undo_of_the_merge_at_once_give_the_game_back_to_the_player_back(
    live_server,
):
    """Alicja merged into Ola by mistake, then her game deleted; one phone restores it while
    another taps „Cofnij” on the merge: whichever decides first, the game is Alicja's again."""
    family = two_phones(live_server, "Kosz i cofanie")
    api, phones = family.api, family.phones
    api.create_game("standard", ["Ola"])
    ola = family.player_id("Ola")

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        source = family.player_id(alicja)
        undo = merged_and_undo_form(phones[1], source, ola)
        restore = deleted_and_restore_form(phones[0], game["id"])

        answers = at_once(
            phones[0].ready_post(restore, token_from="/historia/kosz"),
            phones[1].ready_post(undo, token_from="/gracze"),
        )

        assert_answered(answers, round_)
        restored = int(answers[0].location.rsplit("/", 1)[1])  # type: ignore[union-attr]
        first = first_seat_player(live_server, restored)
        assert first == family.player_id(alicja), f"round {round_}: the restored game is {first}'s"


def test_a_deletion_and_an_undo_of_the_merge_at_once_keep_the_game_for_the_player_back(
    live_server,
):
    """Alicja merged into Ola by mistake; one phone deletes her game while another taps
    „Cofnij” on the merge: restored from the trash afterwards, the game is Alicja's again."""
    family = two_phones(live_server, "Usuwanie i cofanie")
    api, phones = family.api, family.phones
    api.create_game("standard", ["Ola"])
    ola = family.player_id("Ola")

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        game = api.create_game("standard", [alicja, "Zosia"])
        source = family.player_id(alicja)
        undo = merged_and_undo_form(phones[1], source, ola)

        answers = at_once(
            phones[0].ready_post(f"/gry/{game['id']}/usun"),
            phones[1].ready_post(undo, token_from="/gracze"),
        )

        assert_answered(answers, round_)
        (restore,) = set(RESTORE_FORM.findall(phones[0].get("/historia/kosz").text))
        restored = phones[0].post_form(restore, {}, token_from="/historia/kosz")
        assert restored.status == 303, restored
        restored_id = int(restored.location.rsplit("/", 1)[1])
        first = first_seat_player(live_server, restored_id)
        assert first == family.player_id(alicja), f"round {round_}: the restored game is {first}'s"
