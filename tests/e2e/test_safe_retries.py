"""A request sent twice (a phone retrying on bad Wi-Fi, a double tap, two phones at once) does
its work once: a turn carrying `expected_seq` is written once, a rematch opens one game."""

from __future__ import annotations

import random

from tracker import rules

from .web import Answer, Api, Browserless, at_once, legal_move, new_account

STANDARD = rules.find_variant("standard")


def test_a_turn_sent_twice_with_expected_seq_is_written_once(live_server):
    _, token = new_account(live_server, "Ponowienia")
    api = Api(live_server.url, token)
    game = api.create_game("standard", ["Ala", "Ola"])
    game_id = game["id"]
    assert game.get("next_seq") == 1, "the game JSON says which turn comes next (next_seq)"

    body = {"dice": [3, 3, 3, 5, 5], "field": "full_house", "expected_seq": 1}
    first = api.turn(game_id, body)
    assert first.status == 201, first
    assert first.json()["next_seq"] == 2
    again = api.turn(game_id, body)  # the first answer was lost: the same turn, sent again
    assert again.status == 201, again
    assert again.json()["next_seq"] == 2
    other = api.turn(game_id, {**body, "field": "chance"})  # another move for that turn
    assert other.status == 409, other
    assert other.json()["code"] == "already_written"
    game = api.game(game_id)
    assert len(game["turns"]) == 1
    assert game["next_seq"] == 2
    assert game["current_player"] == "Ola"

    # Sent twice at the same moment, on two connections: written once, both told it is.
    body = {"dice": [6, 6, 6, 1, 2], "field": "sixes", "expected_seq": 2}
    answers = at_once(lambda: api.turn(game_id, body), lambda: api.turn(game_id, body))
    assert [a.status for a in answers if isinstance(a, Answer)] == [201, 201], answers
    game = api.game(game_id)
    assert [t["player"] for t in game["turns"]] == ["Ala", "Ola"]
    assert game["next_seq"] == 3

    # A stale expected_seq never writes.
    stale = api.turn(game_id, {"dice": [1, 1, 1, 2, 3], "field": "ones", "expected_seq": 2})
    assert stale.status == 409, stale
    assert len(api.game(game_id)["turns"]) == 2


def finished_game(api: Api) -> int:
    game = api.create_game("standard", ["Ala", "Ola"])
    table = rules.TableGame(STANDARD, 2)
    rng = random.Random("rematch")
    while not table.finished:
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(5)))
        move = legal_move(table, dice, lambda moves: max(moves, key=lambda p: p.gain))
        answer = api.turn(game["id"], move)
        assert answer.status == 201, answer
        table.play(dice, move["field"], move["column"])
    assert api.game(game["id"])["finished"]
    return game["id"]


def test_rematch_sent_twice_and_from_two_phones_opens_one_game(live_server):
    name, token = new_account(live_server, "Rewanżyści")
    api = Api(live_server.url, token)
    game_id = finished_game(api)
    phones = [Browserless(live_server.url) for _ in range(3)]
    for phone in phones:
        phone.sign_in(name)
    end_screen = f"/gry/{game_id}"
    rematch = f"/gry/{game_id}/rewanz"

    # A double tap on one phone: the same form posted twice.
    token_a = phones[0].csrf_token(end_screen)
    first = phones[0].request("POST", rematch, {"csrf_token": token_a})
    second = phones[0].request("POST", rematch, {"csrf_token": token_a})
    assert first.status == 303, first
    assert second.status == 303, second
    assert first.location.startswith("/gry/"), first.location
    assert second.location == first.location

    # Two other phones on the end screen tap Rewanż at the same moment.
    tokens = [phone.csrf_token(end_screen) for phone in phones[1:]]
    answers = at_once(
        *[
            (lambda phone=phone, token=token: phone.request("POST", rematch, {"csrf_token": token}))
            for phone, token in zip(phones[1:], tokens, strict=True)
        ]
    )
    for answer in answers:
        assert isinstance(answer, Answer), answer
        assert answer.status == 303, answer
        assert answer.location == first.location

    listed = api.call("GET", "/games").json()["games"]
    assert len(listed) == 2, [(g["id"], g["players"]) for g in listed]
    rematch_id = int(first.location.removeprefix("/gry/").split("?")[0])
    assert {g["id"] for g in listed} == {game_id, rematch_id}
    assert api.game(rematch_id)["current_player"] == "Ola"
