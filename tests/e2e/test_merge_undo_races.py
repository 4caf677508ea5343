"""Two phones of one family tap „Cofnij” on the same merge of two players at the same moment,
through the real `serve` (several worker processes): the merged-away player comes back once,
with exactly the games the merge moved; the second phone is told the merge was undone already."""

from __future__ import annotations

from sqlalchemy import func, select

from tracker.extensions import db
from tracker.models import GameSeat

from .web import UNDO_MERGE_FORM, at_once, two_phones

ROUNDS = 6


def test_two_phones_undoing_one_merge_at_once_bring_the_player_back_once(live_server):
    family = two_phones(live_server, "Połączenia")
    api, phones = family.api, family.phones
    api.create_game("standard", ["Ola"])  # the player each Alicja is merged into by mistake
    ola = family.player_id("Ola")

    for round_ in range(ROUNDS):
        alicja = f"Alicja {round_}"
        api.create_game("standard", ["Ala", alicja])
        api.create_game("standard", [alicja])
        source = family.player_id(alicja)
        merged = phones[0].post_form(f"/gracze/{source}/polacz", {"target": str(ola)})
        assert merged.status == 303, merged
        (undo,) = set(UNDO_MERGE_FORM.findall(phones[0].get("/gracze").text))

        answers = at_once(*(phone.ready_post(undo, token_from="/gracze") for phone in phones))

        assert all(not isinstance(a, BaseException) and a.status == 303 for a in answers), (
            f"round {round_}: {answers}"
        )
        pages = [phone.get("/gracze").text for phone in phones]
        said = sorted(
            "Cofnięto połączenie" in page or "To połączenie już cofnięto" in page for page in pages
        )
        assert said == [True, True], f"round {round_}: each phone is told what happened"
        with live_server.app.app_context():
            back = family.player_ids(alicja)
            assert len(back) == 1, f"round {round_}: {alicja} came back {len(back)} times"
            seats = db.session.scalar(
                select(func.count()).select_from(GameSeat).where(GameSeat.player_id == back[0])
            )
            ola_seats = db.session.scalar(
                select(func.count()).select_from(GameSeat).where(GameSeat.player_id == ola)
            )
        assert seats == 2, f"round {round_}: {alicja} has {seats} games"
        assert ola_seats == 1, f"round {round_}: Ola kept {ola_seats} games"
