"""The players page and service: Polish order, names with emoji (or an error naming the
character), deleting a player without games, merging two players into one (the history follows),
every game showing a player raising its version; the player limits on the new-game form."""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from history_builders import play_out
from sqlalchemy import select
from stats_builders import SHEETS, play_table_game

from tracker.extensions import db
from tracker.models import AuditEvent, Game, GameSeat, Player
from tracker.rules import VARIANTS
from tracker.services import Conflict, NotFound, audit, games, history, players, stats
from tracker.services.filters import GameFilter
from tracker.services.players import PlayerHasGames, PlayersShareAGame
from tracker.store import games as store

from .test_game_pages import Table, page_csrf, sign_up, text_of

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # 👨‍👩‍👧: five code points, one character


@pytest.fixture
def table(app: Flask, client) -> Table:
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


def player_id(table: Table, name: str) -> int:
    with table.app.app_context():
        return next(p.id for p in players.list_players(table.account_id) if p.name == name)


def names_of(table: Table) -> list[str]:
    with table.app.app_context():
        return [p.name for p in players.list_players(table.account_id)]


def versions(app: Flask, *game_ids: int) -> list[int]:
    with app.app_context():
        return [db.session.get(Game, game_id).version for game_id in game_ids]


def audit_details(app: Flask, event: str) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(AuditEvent.detail).where(AuditEvent.event == event)))


def delete_game(table: Table, game_id: int) -> None:
    assert table.post(f"/gry/{game_id}/usun").status_code == 303


# --- Polish alphabetical order -------------------------------------------------------------

NAMES = ["Zoë", "Łukasz", "Lucyna", "Marek", "Adam", "Żaneta"]
POLISH_ORDER = ["Adam", "Lucyna", "Łukasz", "Marek", "Zoë", "Żaneta"]


def positions(html: str, names: list[str], pattern: str) -> list[int]:
    return [html.index(pattern.format(name)) for name in names]


def test_every_list_of_names_is_in_polish_order(table: Table):
    table.new_game(NAMES[:3])
    table.new_game(NAMES[3:])

    assert names_of(table) == POLISH_ORDER
    pages = {
        "/gracze": 'value="{}"',
        "/gry/nowa": '<option value="{}">',
        "/historia": ">{}</option>",
        "/statystyki": ">{}<",
    }
    for url, pattern in pages.items():
        html = table.client.get(url).get_data(as_text=True)
        found = positions(html, POLISH_ORDER, pattern)
        assert found == sorted(found), url
        assert len(set(found)) == len(found), url


def test_head_to_head_pairs_are_named_in_polish_order(app: Flask, table: Table):
    with app.app_context():
        account = table.account_id
        play_table_game(
            account, "standard", {"Zoë": SHEETS["best"], "Łukasz": SHEETS["best"]}, None
        )
        game_id = play_table_game(
            account,
            "standard",
            {"Zoë": SHEETS["best"], "Łukasz": SHEETS["no_bonus"]},
            "2025-03-01T18:00",
        )
        assert game_id
        (pair,) = stats.head_to_head(account, GameFilter())

    assert (pair.a_name, pair.b_name) == ("Łukasz", "Zoë")


# --- names: any emoji, or an error that names the character -----------------------------


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(f"{FAMILY} Kowalscy", id="family"),
        pytest.param("\U0001f44d\U0001f3fd Ola", id="skin-tone"),
        pytest.param("\U0001f1f5\U0001f1f1 Jan", id="flag"),
        pytest.param("1\ufe0f\u20e3 Ala", id="keycap"),
        pytest.param("\u2764\ufe0f Babcia", id="selector"),
        pytest.param("\U0001fae8", id="newer-emoji-alone"),
        pytest.param("Ż" * 29 + FAMILY, id="30-characters-with-an-emoji"),
    ],
)
def test_names_with_emoji_are_accepted(table: Table, name: str):
    game_id = table.new_game([name, "Ala"])

    assert table.view(game_id).names == [name, "Ala"]
    assert f'value="{name}"' in table.client.get("/gracze").get_data(as_text=True)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("Ala\x07", "Znak U+0007 (BELL) nie może być w imieniu.", id="bell"),
        pytest.param(
            "A\u200bla", "Znak U+200B (ZERO WIDTH SPACE) nie może być w imieniu.", id="zwsp"
        ),
        pytest.param(
            "\u202eAla",
            "Znak U+202E (RIGHT-TO-LEFT OVERRIDE) nie może być w imieniu.",
            id="bidi-override",
        ),
        pytest.param(
            "Ala\ue000", "Znak U+E000 (znak do użytku prywatnego) nie może być w imieniu.", id="pua"
        ),
        pytest.param(
            "A\u200dla", "Znak U+200D (ZERO WIDTH JOINER) nie może być w imieniu.", id="zwj-in-text"
        ),
        pytest.param("Ż" * 31, "Imię gracza może mieć najwyżej 30 znaków.", id="31-letters"),
        pytest.param(
            "Ż" * 30 + FAMILY, "Imię gracza może mieć najwyżej 30 znaków.", id="30-and-an-emoji"
        ),
        pytest.param(
            FAMILY * 25,
            "Imię gracza jest za długie: skróć je albo użyj mniej emoji.",
            id="25-families-125-code-points",
        ),
        pytest.param("---", "Imię gracza musi zawierać literę, cyfrę albo emoji.", id="dashes"),
    ],
)
def test_a_refused_name_says_why_next_to_the_field(table: Table, name: str, message: str):
    response = table.post("/gry/nowa", {"variant": "standard", "players-0": name})

    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f'<p class="error" id="players-0-error">{message}</p>' in html

    table.new_game(["Ala"])
    ala = player_id(table, "Ala")
    response = table.post(f"/gracze/{ala}", {f"p{ala}-name": name})

    assert response.status_code == 400
    assert f'<p class="error" id="p{ala}-name-error">{message}</p>' in response.get_data(
        as_text=True
    )
    assert names_of(table) == ["Ala"]


def test_emoji_names_are_one_player_whatever_the_case_or_the_composition(table: Table):
    game_id = table.new_game([f"{FAMILY} Kowalscy", "Zoë"])

    response = table.post(
        "/gry/nowa", {"variant": "standard", "players-0": f"{FAMILY} KOWALSCY", "players-1": "x"}
    )
    assert response.status_code == 303
    again = table.new_game(["ZOE\u0308"])  # decomposed: E and a combining diaeresis

    assert names_of(table) == [f"{FAMILY} Kowalscy", "x", "Zoë"]
    assert table.view(again).names == ["Zoë"]
    kowalscy = player_id(table, f"{FAMILY} Kowalscy")
    response = table.post(f"/gracze/{kowalscy}", {f"p{kowalscy}-name": "zoe\u0308"})
    assert response.status_code == 400
    assert "Inny gracz ma już takie imię." in response.get_data(as_text=True)
    assert table.view(game_id).names == [f"{FAMILY} Kowalscy", "Zoë"]


# --- renaming raises the version of the player's games -----------------------------------


def test_renaming_raises_the_version_of_every_game_of_the_player(app: Flask, table: Table):
    with_ala = [table.new_game(["Ala", "Ola"]), table.new_game(["Jan", "Ala"])]
    without = table.new_game(["Ola", "Jan"])
    before = versions(app, *with_ala, without)
    ala = player_id(table, "Ala")

    assert table.post(f"/gracze/{ala}", {f"p{ala}-name": "Alicja"}).status_code == 303

    assert versions(app, *with_ala, without) == [before[0] + 1, before[1] + 1, before[2]]
    assert table.view(with_ala[1]).names == ["Jan", "Alicja"]
    # The same name again changes nothing a game shows: no version raised.
    assert table.post(f"/gracze/{ala}", {f"p{ala}-name": "Alicja"}).status_code == 303
    assert versions(app, *with_ala) == [before[0] + 1, before[1] + 1]


# --- deleting a player without games -----------------------------------------------------


def test_the_list_counts_the_games_the_statistics_count_and_says_the_others_apart(
    app: Flask, table: Table
):
    over = table.new_game(["Ala", "Ola"])
    with app.app_context():
        play_out(table.account_id, over, seed=1)
    table.new_game(["Ala", "Ola"])
    table.new_game(["Ala", "Ela"])

    page = table.client.get("/gracze").get_data(as_text=True)

    def games_said(name: str) -> str:
        row = re.search(rf'<li id="p{player_id(table, name)}">.*?</li>', page, re.S)
        assert row
        return text_of(re.search(r'<span class="muted">(.*?)</span>', row.group(0), re.S)[1])

    assert games_said("Ala") == "1 gra, 2 w toku"
    assert games_said("Ola") == "1 gra, 1 w toku"
    assert games_said("Ela") == "1 w toku"
    with app.app_context():
        counted = {
            p.name: p.overall.games for p in stats.overview(table.account_id, GameFilter()).players
        }
    assert counted == {"Ala": 1, "Ola": 1}  # the statistics: finished games only


def test_a_player_whose_games_were_deleted_can_be_deleted(app: Flask, table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.new_game(["Ola"])
    delete_game(table, game_id)
    ala = player_id(table, "Ala")
    page = table.client.get("/gracze").get_data(as_text=True)
    assert f'href="/gracze/{ala}/usun"' in page
    assert f'href="/gracze/{player_id(table, "Ola")}/usun"' not in page  # she has a game

    ask = table.client.get(f"/gracze/{ala}/usun")
    assert ask.status_code == 200
    assert "Tak, usuń gracza" in ask.get_data(as_text=True)
    response = table.post(f"/gracze/{ala}/usun")

    assert response.status_code == 303
    assert response.headers["Location"] == "/gracze"
    assert "Usunięto gracza Ala." in table.client.get("/gracze").get_data(as_text=True)
    assert names_of(table) == ["Ola"]
    assert audit_details(app, audit.PLAYER_DELETED) == [f"gracz {ala} (Ala)"]


def test_a_player_with_games_is_not_deleted(app: Flask, table: Table):
    table.new_game(["Ala", "Ola"])
    ala = player_id(table, "Ala")

    page = table.client.get(f"/gracze/{ala}/usun").get_data(as_text=True)
    assert "Tak, usuń gracza" not in page
    assert f'href="/gracze/{ala}/polacz"' in page
    response = table.post(f"/gracze/{ala}/usun")

    assert response.status_code == 409  # a conflict with the games, as the service says
    assert "Nie można usunąć gracza Ala: jest zapisany w 1 grze." in text_of(
        response.get_data(as_text=True)
    )
    assert names_of(table) == ["Ala", "Ola"]
    with app.app_context(), pytest.raises(PlayerHasGames) as refused:
        players.delete_player(table.account_id, ala)
    assert refused.value.code == "player_has_games"
    assert refused.value.status == 409
    assert audit_details(app, audit.PLAYER_DELETED) == []


# --- merging two players -----------------------------------------------------------------


def ala_and_alicja(app: Flask, table: Table) -> tuple[int, int, int]:
    """Ala's game alone, Alicja's finished game with Ola, and Ola's and Alicja's game in play:
    their ids (Alicja is Ala entered twice)."""
    with app.app_context():
        account = table.account_id
        solo = play_table_game(account, "standard", {"Ala": SHEETS["best"]}, "2025-03-01T18:00")
        as_alicja = play_table_game(
            account,
            "standard",
            {"Alicja": SHEETS["no_bonus"], "Ola": SHEETS["best"]},
            "2025-03-02T18:00",
        )
        return solo, as_alicja, games.create_game(account, "standard", ["Ola", "Alicja"]).id


def test_merging_moves_the_history_and_raises_the_versions(app: Flask, table: Table):
    solo, as_alicja, open_game = ala_and_alicja(app, table)
    before = versions(app, solo, as_alicja, open_game)
    ala, alicja = player_id(table, "Ala"), player_id(table, "Alicja")

    form = table.client.get(f"/gracze/{alicja}/polacz").get_data(as_text=True)
    assert f'<option value="{ala}">Ala</option>' in form
    assert f'<option value="{alicja}">' not in form  # not into oneself
    response = table.post(f"/gracze/{alicja}/polacz", {"target": str(ala)})

    assert response.status_code == 303
    assert response.headers["Location"] == f"/gracze#p{ala}"
    assert "Połączono: Alicja i Ala to teraz jeden gracz, Ala. Przeniesione gry: 2." in (
        table.client.get("/gracze").get_data(as_text=True)
    )
    assert names_of(table) == ["Ala", "Ola"]
    # Every game that showed Alicja shows Ala, with a new version; Ala's own game is untouched.
    assert versions(app, solo, as_alicja, open_game) == [before[0], before[1] + 1, before[2] + 1]
    assert table.view(as_alicja).names == ["Ala", "Ola"]
    assert table.view(open_game).names == ["Ola", "Ala"]
    with app.app_context():
        (ala_stats,) = stats.player_stats(table.account_id, GameFilter(), ala)
        assert (ala_stats.overall.games, ala_stats.overall.wins) == (2, 1)
        assert (ala_stats.overall.best, ala_stats.overall.worst) == (308, 267)
        found = history.search(table.account_id, GameFilter(player_ids=frozenset({ala})))
        assert sorted(e.game.id for e in found.entries) == sorted([solo, as_alicja, open_game])
        assert db.session.get(Player, alicja) is None
    assert table.client.get(f"/gracze/{alicja}/statystyki").status_code == 404
    assert "Ala" in text_of(table.client.get(f"/gracze/{ala}/statystyki").get_data(as_text=True))
    assert audit_details(app, audit.PLAYERS_MERGED) == [
        f"gracz {alicja} (Alicja) → {ala} (Ala), gier: 2"
    ]


def test_two_players_of_one_game_are_not_merged(app: Flask, table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.new_game(["Ola"])
    before = versions(app, game_id)
    ala, ola = player_id(table, "Ala"), player_id(table, "Ola")

    response = table.post(f"/gracze/{ola}/polacz", {"target": str(ala)})

    assert response.status_code == 409
    assert (
        '<p class="error" id="target-error">Nie można połączyć graczy Ola i Ala: siedzą razem '
        "przy stole w 1 grze, a w jednej grze każdy ma jedno miejsce. To dwie różne osoby.</p>"
    ) in response.get_data(as_text=True)
    assert names_of(table) == ["Ala", "Ola"]
    assert versions(app, game_id) == before
    assert table.view(game_id).names == ["Ala", "Ola"]
    with app.app_context():
        with pytest.raises(PlayersShareAGame) as refused:
            players.merge_players(table.account_id, ola, ala)
        assert refused.value.code == "players_share_a_game"
        assert (
            db.session.scalar(
                select(GameSeat.player_id).where(GameSeat.game_id == game_id, GameSeat.seat == 1)
            )
            == ola
        )


def test_merging_needs_a_player_from_the_list(table: Table):
    table.new_game(["Ala"])
    table.new_game(["Ola"])
    ala = player_id(table, "Ala")

    for target in ("", str(ala), "999", "x"):
        response = table.post(f"/gracze/{ala}/polacz", {"target": target})
        assert response.status_code == 400
        assert "Wybierz z listy gracza, z którym łączysz." in response.get_data(as_text=True)
    assert names_of(table) == ["Ala", "Ola"]


# --- another account, CSRF ---------------------------------------------------------------


def test_another_accounts_player_is_a_404(app: Flask, table: Table):
    table.new_game(["Ala"])
    ala = player_id(table, "Ala")
    table.client.get("/wyloguj")
    other = app.test_client()
    assert sign_up(other, "Nowakowie").status_code == 302
    token = page_csrf(other)
    other.post("/gry/nowa", data={"csrf_token": token, "variant": "standard", "players-0": "Ola"})
    with app.app_context():
        other_account = db.session.scalar(select(Player.account_id).where(Player.name == "Ola"))
        ola = db.session.scalar(select(Player.id).where(Player.name == "Ola"))

    for url in (f"/gracze/{ala}/usun", f"/gracze/{ala}/polacz"):
        assert other.get(url).status_code == 404, url
        assert other.post(url, data={"csrf_token": token, "target": str(ola)}).status_code == 404
    # Merging one's own player into another account's: that player is not in the list.
    response = other.post(f"/gracze/{ola}/polacz", data={"csrf_token": token, "target": str(ala)})
    assert response.status_code == 400
    with app.app_context():
        with pytest.raises(NotFound):
            players.merge_players(other_account, ola, ala)
        with pytest.raises(NotFound):
            players.delete_player(other_account, ala)
    assert names_of(table) == ["Ala"]


@pytest.mark.parametrize("action", ["usun", "polacz"])
def test_delete_and_merge_without_the_csrf_token_are_refused(table: Table, action: str):
    game_id = table.new_game(["Ala", "Ola"])
    delete_game(table, game_id)
    table.new_game(["Ola"])
    ala = player_id(table, "Ala")

    response = table.client.post(
        f"/gracze/{ala}/{action}", data={"target": str(player_id(table, "Ola"))}
    )

    assert response.status_code == 400
    assert names_of(table) == ["Ala", "Ola"]


# --- the player limits on the new-game form ----------------------------------------------


def test_the_new_game_form_says_each_variants_player_limits(table: Table):
    html = text_of(table.client.get("/gry/nowa").get_data(as_text=True))

    for variant in VARIANTS.values():
        assert f"Przy stole od {variant.min_players} do {variant.max_players} graczy." in html
    most = max(v.max_players for v in VARIANTS.values())
    assert re.search(rf"Od 1 do {most} graczy przy stole; Poker kościany bez tabeli: od 2 do", html)
    assert "Więcej osób? Zagrajcie w dwie osobne gry." in html


@pytest.mark.parametrize("variant", ["triple", "poker"])
def test_too_many_players_names_the_variants_limit(table: Table, variant: str):
    chosen = VARIANTS[variant]
    count = chosen.max_players + 1
    data = {"variant": variant, **{f"players-{i}": f"Gracz {i}" for i in range(count)}}

    response = table.post("/gry/nowa", data)

    assert response.status_code == 400
    message = (
        f"Za dużo graczy: {count}. {chosen.name}: od {chosen.min_players} do "
        f"{chosen.max_players} graczy przy jednym stole. Przy większej grupie zagrajcie w dwie "
        "osobne gry."
    )
    assert f'<p class="error" id="players-error">{message}</p>' in response.get_data(as_text=True)


# --- two phones changing the same players at once ------------------------------------------


@pytest.fixture
def meanwhile(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[Callable[[], object]]:
    """Writes of another phone, each run (in a thread with its own connection, to its commit)
    just after the next player write has read its players and before it takes its lock: the
    moment two phones race at."""
    pending: list[Callable[[], object]] = []
    real = store.writing

    def other_phone(write: Callable[[], object]) -> None:
        with app.app_context():
            write()

    @contextlib.contextmanager
    def writing() -> Iterator[None]:
        while pending:
            thread = threading.Thread(target=other_phone, args=(pending.pop(0),))
            thread.start()
            thread.join(30)
        with real():
            yield

    monkeypatch.setattr(store, "writing", writing)
    return pending


def deleted_meanwhile(table: Table, meanwhile: list) -> int:
    """Ala, a player without games (a game deleted leaves her), whom another phone deletes
    while this one's write runs; her id."""
    delete_game(table, table.new_game(["Ala"]))
    ala = player_id(table, "Ala")
    meanwhile.append(lambda: players.delete_player(table.account_id, ala))
    return ala


def test_the_second_of_two_deletes_is_a_404_and_deletes_once(
    app: Flask, table: Table, meanwhile: list
):
    ala = deleted_meanwhile(table, meanwhile)

    response = table.post(f"/gracze/{ala}/usun")

    assert response.status_code == 404
    assert "Nie ma takiego gracza." in text_of(response.get_data(as_text=True))
    assert audit_details(app, audit.PLAYER_DELETED) == [f"gracz {ala} (Ala)"]


def test_renaming_a_player_another_phone_deleted_is_a_404(
    app: Flask, table: Table, meanwhile: list
):
    ala = deleted_meanwhile(table, meanwhile)

    response = table.post(f"/gracze/{ala}", {f"p{ala}-name": "Alicja"})

    assert response.status_code == 404
    assert names_of(table) == []


def test_merging_a_player_another_phone_merged_away_is_a_404(
    app: Flask, table: Table, meanwhile: list
):
    table.new_game(["Ala"])
    table.new_game(["Ela"])
    table.new_game(["Ola"])
    ala, ela, ola = (player_id(table, name) for name in ("Ala", "Ela", "Ola"))
    meanwhile.append(lambda: players.merge_players(table.account_id, ala, ola))

    response = table.post(f"/gracze/{ala}/polacz", {"target": str(ela)})

    assert response.status_code == 404
    assert names_of(table) == ["Ela", "Ola"]
    assert audit_details(app, audit.PLAYERS_MERGED) == [f"gracz {ala} (Ala) → {ola} (Ola), gier: 1"]


def test_merging_into_a_player_another_phone_merged_away_says_so_at_the_choice(
    app: Flask, table: Table, meanwhile: list
):
    """Two phones merging the same two players into each other: the second finds its chosen
    target gone, and says so next to the choice, with nothing written."""
    table.new_game(["Ala"])
    table.new_game(["Ola"])
    ala, ola = player_id(table, "Ala"), player_id(table, "Ola")
    meanwhile.append(lambda: players.merge_players(table.account_id, ola, ala))

    response = table.post(f"/gracze/{ala}/polacz", {"target": str(ola)})

    assert response.status_code == 409
    assert (
        '<p class="error" id="target-error">Gracza Ola właśnie usunięto albo połączono z innym: '
        "wybierz innego.</p>"
    ) in response.get_data(as_text=True)
    assert names_of(table) == ["Ala"]
    with app.app_context():
        assert players.games_of(ala) == 2


def test_a_rename_while_a_game_with_the_player_is_being_started_shows_in_that_game(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
):
    """The game is written (its seats inserted) but not yet committed when the rename runs:
    either way round, the new game shows the new name on every phone, and its cached state
    (kept by the worker that started it) is not used again."""
    table.new_game(["Ala"])
    ala = player_id(table, "Ala")
    seated, go_on = threading.Event(), threading.Event()
    real_insert = store.insert_game

    def insert_game(*args: Any, **kwargs: Any) -> Any:
        inserted = real_insert(*args, **kwargs)
        seated.set()
        go_on.wait(10)  # the game's transaction stays open here
        return inserted

    monkeypatch.setattr(store, "insert_game", insert_game)
    started: list[int] = []

    def start() -> None:
        with app.app_context():
            started.append(games.create_game(table.account_id, "standard", ["Ala"]).id)

    starter = threading.Thread(target=start)
    starter.start()
    assert seated.wait(10)
    threading.Timer(0.5, go_on.set).start()  # the game commits half a second later
    with app.app_context():
        players.rename_player(table.account_id, ala, "Alicja")
    starter.join(10)

    assert table.view(started[0]).names == ["Alicja"]
    with app.app_context():
        written = games.record_turn(table.account_id, started[0], "66612", "sixes", 0)
        assert written.seats[0].player.name == "Alicja"


def test_two_phones_merging_two_players_into_each_other_at_once(app: Flask, table: Table):
    """Real threads, each with its own connection (on PostgreSQL too): one merge wins, the
    other is told the player is gone, never a 500 or a deadlock."""
    from .test_writes import at_once

    for round_ in range(6):
        first, second = f"Ala{round_}", f"Ola{round_}"
        table.new_game([first])
        table.new_game([second])
        a, b = player_id(table, first), player_id(table, second)

        def merge(source: int, target: int) -> object:
            with app.app_context():
                return players.merge_players(table.account_id, source, target)

        answers = at_once([lambda a=a, b=b: merge(a, b), lambda a=a, b=b: merge(b, a)])

        refused = [x for x in answers if isinstance(x, Exception)]
        assert len(refused) == 1, answers
        assert isinstance(refused[0], (NotFound, Conflict)), answers
        survivors = [n for n in names_of(table) if n in (first, second)]
        assert len(survivors) == 1
        with app.app_context():
            assert players.games_of(player_id(table, survivors[0])) == 2


# --- a merge undone („Cofnij połączenie”) -------------------------------------------------------

UNDO_MERGE = re.compile(r'action="/gracze/polaczenia/(\d+)/cofnij"')


def stats_of(app: Flask, account: int, player: int) -> tuple[int, int, int | None, int | None]:
    with app.app_context():
        (found,) = stats.player_stats(account, GameFilter(), player)
        o = found.overall
        return (o.games, o.wins, o.best, o.worst)


def test_cofnij_beside_the_merge_gives_alicja_her_games_back(app: Flask, table: Table):
    solo, as_alicja, open_game = ala_and_alicja(app, table)
    ala, alicja = player_id(table, "Ala"), player_id(table, "Alicja")
    alicja_before = stats_of(app, table.account_id, alicja)
    ala_before = stats_of(app, table.account_id, ala)
    merged = table.post(f"/gracze/{alicja}/polacz", {"target": str(ala)})
    page = table.client.get(merged.headers["Location"]).get_data(as_text=True)
    (merge,) = set(UNDO_MERGE.findall(page))  # beside the message, and in the list
    assert "Ostatnie połączenia" in page
    versions_merged = versions(app, solo, as_alicja, open_game)

    undone = table.post(f"/gracze/polaczenia/{merge}/cofnij")

    assert undone.status_code == 303
    back = player_id(table, "Alicja")
    assert back != alicja  # a new player of the old name
    assert undone.headers["Location"] == "/gracze"  # the message at the top, in sight
    said = text_of(table.client.get("/gracze").get_data(as_text=True))
    assert (
        "Cofnięto połączenie: Alicja znów jest osobnym graczem, a Ala ma swoje gry jak przedtem."
        in said
    )
    assert "Ostatnie połączenia" not in said
    assert names_of(table) == ["Ala", "Alicja", "Ola"]
    assert table.view(as_alicja).names == ["Alicja", "Ola"]
    assert table.view(open_game).names == ["Ola", "Alicja"]
    assert table.view(solo).names == ["Ala"]
    assert stats_of(app, table.account_id, back) == alicja_before
    assert stats_of(app, table.account_id, ala) == ala_before
    # the games whose seat moved back are raised again; Ala's own is not touched
    assert versions(app, solo, as_alicja, open_game) == [
        versions_merged[0],
        versions_merged[1] + 1,
        versions_merged[2] + 1,
    ]
    assert audit_details(app, audit.PLAYERS_UNMERGED) == [
        f"gracz {ala} (Ala) → {back} (Alicja), gier: 2"
    ]


def test_an_undone_merge_keeps_the_reviews_with_their_seats(app: Flask, table: Table):
    from tracker.models import SeatReview

    with app.app_context():
        account = table.account_id
        game = play_table_game(
            account,
            "standard",
            {"Alicja": SHEETS["no_bonus"], "Ola": SHEETS["best"]},
            "2025-03-02T18:00",
        )
        play_table_game(account, "standard", {"Ala": SHEETS["best"]}, "2025-03-01T18:00")
    ala, alicja = player_id(table, "Ala"), player_id(table, "Alicja")
    with app.app_context():
        merged = players.merge_players(table.account_id, alicja, ala)
        players.undo_merge(table.account_id, merged.merge_id)
        reviews = dict(
            db.session.execute(
                select(SeatReview.seat, SeatReview.player_id).where(SeatReview.game_id == game)
            ).all()
        )
    assert reviews == {0: player_id(table, "Alicja"), 1: player_id(table, "Ola")}


def test_games_started_after_the_merge_stay_with_the_remaining_player(app: Flask, table: Table):
    with app.app_context():
        account = table.account_id
        play_table_game(account, "standard", {"Alicja": SHEETS["best"]}, "2025-03-02T18:00")
        games.create_game(account, "standard", ["Ala"])
    ala, alicja = player_id(table, "Ala"), player_id(table, "Alicja")
    with app.app_context():
        merged = players.merge_players(table.account_id, alicja, ala)
        later = games.create_game(table.account_id, "standard", ["Ala", "Ola"]).id
        players.undo_merge(table.account_id, merged.merge_id)

    assert table.view(later).names == ["Ala", "Ola"]
    assert stats_of(app, table.account_id, player_id(table, "Alicja"))[0] == 1


@pytest.mark.parametrize(
    ("meanwhile", "message", "code"),
    [
        pytest.param(
            "undone",
            "To połączenie już cofnięto (może na innym telefonie).",
            players.MERGE_UNDONE,
            id="undone-already",
        ),
        pytest.param(
            "name",
            "Nie da się cofnąć: imię Alicja ma teraz inny gracz. Zmień mu imię i cofnij "
            "jeszcze raz.",
            players.NAME_TAKEN,
            id="name-taken",
        ),
        pytest.param(
            "merged-away",
            "Nie da się cofnąć: gracza Ala, z którym połączono Alicja, połączono potem z graczem "
            "Zosia. Najpierw cofnij tamto połączenie (Ala → Zosia), potem to.",
            "player_gone",
            id="target-merged-away",
        ),
    ],
)
def test_an_undo_that_cannot_be_done_says_why_and_changes_nothing(
    app: Flask, table: Table, meanwhile: str, message: str, code: str
):
    with app.app_context():
        account = table.account_id
        play_table_game(account, "standard", {"Alicja": SHEETS["best"]}, "2025-03-02T18:00")
        play_table_game(account, "standard", {"Ala": SHEETS["best"]}, "2025-03-03T18:00")
        play_table_game(account, "standard", {"Zosia": SHEETS["best"]}, "2025-03-04T18:00")
    ala, alicja, zosia = (player_id(table, n) for n in ("Ala", "Alicja", "Zosia"))
    with app.app_context():
        merged = players.merge_players(table.account_id, alicja, ala)
        if meanwhile == "undone":
            players.undo_merge(table.account_id, merged.merge_id)
        elif meanwhile == "name":
            players.rename_player(table.account_id, zosia, "ALICJA")
        else:
            players.merge_players(table.account_id, ala, zosia)
    before = names_of(table)

    refused = table.post(f"/gracze/polaczenia/{merged.merge_id}/cofnij")

    assert refused.status_code == 303
    page = table.client.get("/gracze").get_data(as_text=True)
    assert message in text_of(page)
    # Undone already is what was asked for (another phone was quicker): said, not an error.
    kind = "info" if code == players.MERGE_UNDONE else "error"
    assert f'<p class="flash flash-{kind}">{message}</p>' in page
    assert names_of(table) == before
    with app.app_context(), pytest.raises(Conflict) as again:
        players.undo_merge(table.account_id, merged.merge_id)
    assert again.value.code == code


def test_anothers_merge_an_old_one_or_no_token_cannot_be_undone(app: Flask, table: Table):
    from datetime import timedelta

    from sqlalchemy import update

    from tracker.models import PlayerMerge, utcnow

    with app.app_context():
        play_table_game(
            table.account_id, "standard", {"Alicja": SHEETS["best"]}, "2025-03-02T18:00"
        )
        games.create_game(table.account_id, "standard", ["Ala"])
    ala, alicja = player_id(table, "Ala"), player_id(table, "Alicja")
    with app.app_context():
        merge_id = players.merge_players(table.account_id, alicja, ala).merge_id

    assert table.client.post(f"/gracze/polaczenia/{merge_id}/cofnij").status_code == 400
    other = app.test_client()
    assert sign_up(other, "Nowakowie").status_code == 302
    refused = other.post(
        f"/gracze/polaczenia/{merge_id}/cofnij", data={"csrf_token": page_csrf(other)}
    )
    assert refused.status_code == 404
    assert "Alicja" not in other.get("/gracze").get_data(as_text=True)
    with app.app_context():
        db.session.execute(
            update(PlayerMerge)
            .where(PlayerMerge.id == merge_id)
            .values(merged_at=utcnow() - timedelta(days=players.MERGE_UNDO_DAYS, seconds=1))
        )
        db.session.commit()
    assert "Ostatnie połączenia" not in table.client.get("/gracze").get_data(as_text=True)
    old = table.post(f"/gracze/polaczenia/{merge_id}/cofnij")
    assert old.status_code == 404
    assert "Tego połączenia nie da się już cofnąć: minęło 30 dni" in text_of(
        old.get_data(as_text=True)
    )
    assert names_of(table) == ["Ala"]


def test_merges_chained_can_be_undone_the_last_first(app: Flask, table: Table):
    """Alicja into Ala, then Ala into Ola (both by mistake): undoing Ala→Ola brings Ala back as
    a new player, and Alicja→Ala is a merge into her again: listed, and undone."""
    with app.app_context():
        account = table.account_id
        for name, day in [("Alicja", 2), ("Ala", 3), ("Ola", 4)]:
            play_table_game(account, "standard", {name: SHEETS["best"]}, f"2025-03-0{day}T18:00")
    ala, alicja, ola = (player_id(table, n) for n in ("Ala", "Alicja", "Ola"))
    alicja_before = stats_of(app, table.account_id, alicja)
    with app.app_context():
        first = players.merge_players(table.account_id, alicja, ala).merge_id
        second = players.merge_players(table.account_id, ala, ola).merge_id

    too_early = table.post(f"/gracze/polaczenia/{first}/cofnij")
    assert too_early.status_code == 303
    assert (
        "Nie da się cofnąć: gracza Ala, z którym połączono Alicja, połączono potem z graczem "
        "Ola. Najpierw cofnij tamto połączenie (Ala → Ola), potem to."
    ) in text_of(table.client.get("/gracze").get_data(as_text=True))
    assert table.post(f"/gracze/polaczenia/{second}/cofnij").status_code == 303
    page = table.client.get("/gracze").get_data(as_text=True)
    assert set(UNDO_MERGE.findall(page)) == {str(first)}
    undone = table.post(f"/gracze/polaczenia/{first}/cofnij")

    assert undone.status_code == 303
    assert "Cofnięto połączenie: Alicja znów jest osobnym graczem, a Ala ma swoje gry" in text_of(
        table.client.get("/gracze").get_data(as_text=True)
    )
    assert names_of(table) == ["Ala", "Alicja", "Ola"]
    assert stats_of(app, table.account_id, player_id(table, "Alicja")) == alicja_before
    for name in ("Ala", "Ola"):
        assert stats_of(app, table.account_id, player_id(table, name))[0] == 1
