"""Two phones of one family tap „Przywróć” on the same deleted game at the same moment, through
the real `serve` (several worker processes): the game comes back once, both phones are led to
it, and it plays on from where it was."""

from __future__ import annotations

import random

from sqlalchemy import func, select

from tracker import rules
from tracker.extensions import db
from tracker.models import DeletedGame, Game

from .web import RESTORE_FORM, at_once, legal_move, sheet_in, sheet_of, two_phones

ROUNDS = 8
STANDARD = rules.find_variant("standard")


def test_two_phones_restoring_one_game_at_once_get_it_back_once(live_server):
    family = two_phones(live_server, "Kosz")
    api, phones = family.api, family.phones
    rng = random.Random("trash races")

    for round_ in range(ROUNDS):
        game = api.create_game("standard", ["Ala", "Ola"])
        table = rules.TableGame(STANDARD, 2)
        for _ in range(1 + round_ % 4):
            dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
            move = legal_move(table, dice, rng.choice)
            assert api.turn(game["id"], move).status == 201
            table.play(dice, move["field"], move["column"])
        deleted = phones[0].post_form(f"/gry/{game['id']}/usun", {})
        assert deleted.status == 303, deleted
        (restore,) = RESTORE_FORM.findall(phones[0].get(deleted.location).text)

        answers = at_once(
            *(phone.ready_post(restore, token_from="/historia/kosz") for phone in phones)
        )

        assert all(not isinstance(a, BaseException) and a.status == 303 for a in answers), (
            f"round {round_}: {answers}"
        )
        locations = {a.location for a in answers}  # type: ignore[union-attr]
        assert len(locations) == 1, f"round {round_}: led to {locations}"
        restored_id = int(locations.pop().rsplit("/", 1)[1])
        pages = [phone.get(f"/gry/{restored_id}").text for phone in phones]
        said = sorted(
            "Przywrócono grę" in page or "Tę grę już przywrócono" in page for page in pages
        )
        assert said == [True, True], f"round {round_}: each phone is told what happened"
        with live_server.app.app_context():
            account_id = db.session.scalar(select(Game.account_id).where(Game.id == restored_id))
            count = db.session.scalar(
                select(func.count(Game.id)).where(Game.account_id == account_id)
            )
            became = db.session.scalar(
                select(DeletedGame.restored_game_id).where(
                    DeletedGame.id == int(restore.split("/")[3])
                )
            )
        assert count == 1, f"round {round_}: {count} games after two restores of one"
        assert became == restored_id

        # The game plays on from where it was, judged by its own turns.
        again = api.game(restored_id)
        assert sheet_in(again) == sheet_of(table)
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        move = legal_move(table, dice, rng.choice)
        assert api.turn(restored_id, move).status == 201
        table.play(dice, move["field"], move["column"])
        assert sheet_in(api.game(restored_id)) == sheet_of(table)
        assert phones[1].post_form(f"/gry/{restored_id}/usun", {}).status == 303
        assert api.call("GET", f"/games/{game['id']}").status == 404
