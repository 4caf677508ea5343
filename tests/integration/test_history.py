"""The history list (`/historia`) and a game's page in it (`/gry/<id>/tabela`), CSRF on.

The family of `history_builders` gives the list a known order; dates in the filter are local
(Warsaw) calendar days, both included.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from history_builders import PASSWORD, build_family, new_account, play, play_out, set_times
from sqlalchemy import select, update

from tracker.extensions import db
from tracker.models import Game, Player, Turn
from tracker.services import games

from .apps import built_once

NEWEST_FIRST = ["rematch", "triple", "poker", "scandinavian", "ordered", "tie"]


def sign_in(client: FlaskClient, name: str) -> None:
    html = client.get("/logowanie").get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert token
    response = client.post(
        "/logowanie", data={"csrf_token": token.group(1), "name": name, "password": PASSWORD}
    )
    assert response.status_code == 302


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def listed(html: str) -> list[int]:
    """The game ids of the list, top to bottom."""
    return [int(i) for i in re.findall(r'<li class="history-item[^"]*" data-game="(\d+)"', html)]


def item(html: str, game_id: int) -> str:
    row = rf'<li class="history-item[^"]*" data-game="{game_id}"[^>]*>.*?</li>'
    match = re.search(row, html, re.S)
    assert match, game_id
    return match.group(0)


def field_error(html: str, field: str) -> str | None:
    match = re.search(rf'<p class="error" id="{field}-error">(.*?)</p>', html, re.S)
    return match.group(1) if match else None


@pytest.fixture
def family(app: Flask, client: FlaskClient) -> dict[str, Any]:
    def build() -> dict[str, Any]:
        with app.app_context():
            account_id = new_account("Kowalscy")
            ids = build_family(account_id)
            player_ids = {p.name: p.id for p in db.session.scalars(select(Player))}
        return {"account": account_id, "ids": ids, "players": player_ids}

    built = built_once(app, "test_history.family", build)
    sign_in(client, "Kowalscy")
    return built


def history(client: FlaskClient, **args: Any) -> tuple[int, str]:
    response = client.get("/historia", query_string=args)
    return response.status_code, response.get_data(as_text=True)


# --- the list ----------------------------------------------------------------------------------


def test_every_game_is_listed_newest_first(client: FlaskClient, family: dict[str, Any]):
    status, html = history(client)

    assert status == 200
    assert listed(html) == [family["ids"][k] for k in NEWEST_FIRST]
    assert "Razem 6 gier" in text_of(html)


def test_unfinished_games_are_marked_and_show_how_far_they_got(
    client: FlaskClient, family: dict[str, Any]
):
    _, html = history(client)

    for key in ("triple", "rematch"):
        entry = item(html, family["ids"][key])
        assert 'class="history-item is-open"' in entry
        assert '<span class="tag tag-open">w toku</span>' in entry
    assert "kolejka 2 z 13" in text_of(item(html, family["ids"]["rematch"]))
    assert "kolejka 5 z 39" in text_of(item(html, family["ids"]["triple"]))
    for key in ("tie", "ordered", "scandinavian", "poker"):
        assert "w toku" not in item(html, family["ids"][key])


def home_cards(html: str) -> list[int]:
    """The game ids of the home page's „Gry w toku”, top to bottom."""
    return [int(i) for i in re.findall(r'<li class="card game-item" data-game="(\d+)"', html)]


def test_home_page_leaves_old_unfinished_games_to_the_history(
    client: FlaskClient, family: dict[str, Any]
):
    home = client.get("/").get_data(as_text=True)

    assert home_cards(home) == []  # started in 2025: not tonight's game
    assert "Żadna gra nie czeka" not in home
    link = re.search(r'<p class="home-older"><a href="([^"]+)">([^<]+)</a>', home)
    assert link
    assert link.group(2) == "Starsze niedokończone (2)"
    status, html = history(client, **dict(re.findall(r"(\w+)=([\w-]+)", unescape(link.group(1)))))
    assert status == 200
    assert listed(html) == [family["ids"]["rematch"], family["ids"]["triple"]]
    assert "Pasują 2 gry" in text_of(html)


def test_home_page_lists_the_unfinished_games_of_this_week_first(app: Flask, client: FlaskClient):
    with app.app_context():
        account = new_account("Nowakowie")
        tonight = games.create_game(account, "standard", ["Ala", "Ola"]).id
        last_week = games.create_game(account, "standard", ["Ala"]).id
        abandoned = games.create_game(account, "poker", ["Ala", "Ola"]).id
        now = datetime.now(UTC).replace(tzinfo=None)
        set_times(tonight, now - timedelta(minutes=5))
        set_times(last_week, now - timedelta(days=5))
        set_times(abandoned, now - timedelta(days=40))
    sign_in(client, "Nowakowie")

    home = client.get("/").get_data(as_text=True)

    assert home_cards(home) == [tonight, last_week]
    assert "Starsze niedokończone (1)" in home
    _, html = history(client, stan="w-toku")
    assert listed(html) == [tonight, last_week, abandoned]  # every one stays in the history
    _, html = history(client, stan="zakonczone")
    assert listed(html) == []
    status, html = history(client, stan="skonczone")
    assert status == 400
    assert field_error(html, "stan") == "Wybierz stan gry z listy."


def test_finished_games_show_the_winners_and_every_result(
    client: FlaskClient, family: dict[str, Any]
):
    _, html = history(client)

    tie = text_of(item(html, family["ids"]["tie"]))
    poker = text_of(item(html, family["ids"]["poker"]))
    assert "Remis: Ala i Ola" in tie
    assert "Ala 308 Ola 308" in tie
    assert "Wygrywa Ala" in poker
    assert "Ala 2 rundy Łucja 0 rund Jan 1 runda" in poker
    assert "Poker kościany bez tabeli" in poker
    assert "1.03.2025 19:27" in tie  # when it finished, local time, as the table saw it


def test_each_game_links_to_its_sheet_and_turn_log(client: FlaskClient, family: dict[str, Any]):
    _, html = history(client)

    for game_id in family["ids"].values():
        assert f'<a href="/gry/{game_id}/tabela">' in item(html, game_id)


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("standard", ["rematch", "tie"]),
        ("poker", ["poker"]),
        ("triple", ["triple"]),
        ("ordered", ["ordered"]),
    ],
)
def test_the_list_filters_by_variant(
    client: FlaskClient, family: dict[str, Any], variant: str, expected: list[str]
):
    status, html = history(client, wariant=variant)

    assert status == 200
    assert listed(html) == [family["ids"][k] for k in expected]
    assert f'<option selected value="{variant}">' in html
    assert '<span class="filter-now">' in html


def test_the_list_filters_by_player(client: FlaskClient, family: dict[str, Any]):
    _, jan = history(client, gracz=family["players"]["Jan"])
    _, ola = history(client, gracz=family["players"]["Ola"])

    assert listed(jan) == [family["ids"][k] for k in ("poker", "scandinavian")]
    assert listed(ola) == [family["ids"][k] for k in ("rematch", "ordered", "tie")]
    assert "Pasują 2 gry" in text_of(jan)


def test_the_list_filters_by_local_days_both_included(client: FlaskClient, family: dict[str, Any]):
    """The poker match began at 23:30 on 1 May in Warsaw, the triple game at 00:30 on 2 May,
    although both began on 1 May in UTC."""
    _, first = history(client, od="2025-05-01", do="2025-05-01")
    _, second = history(client, od="2025-05-02")
    _, spring = history(client, od="2025-03-15", do="2025-04-01")
    _, polish = history(client, do="1.03.2025")

    assert listed(first) == [family["ids"]["poker"]]
    assert listed(second) == [family["ids"][k] for k in ("rematch", "triple")]
    assert listed(spring) == [family["ids"][k] for k in ("scandinavian", "ordered")]
    assert listed(polish) == [family["ids"]["tie"]]


def test_a_filter_that_works_folds_the_form_so_the_games_come_first(
    client: FlaskClient, family: dict[str, Any]
):
    # Open, the form fills a 360 x 740 phone: after "Pokaż", or back from a game on page 3,
    # not one game was in sight. Folded, it still says the filter in words, as the statistics.
    _, html = history(client, wariant="standard", od="2025-05-01")

    assert '<details class="filters">' in html
    assert filter_now(html) == "Kości (tabela polska) · od 1.05.2025"
    assert listed(html) == [family["ids"]["rematch"]]


def filter_now(html: str) -> str | None:
    """What the folded filter's summary says."""
    match = re.search(r'<span class="filter-now">(.*?)</span>', html, re.S)
    return text_of(match.group(1)) if match else None


def test_the_folded_filter_says_every_part_of_it_in_words(
    client: FlaskClient, family: dict[str, Any]
):
    _, everything = history(
        client,
        wariant="poker",
        gracz=family["players"]["Łucja"],
        stan="zakonczone",
        od="1.05.2025",
        do="2025-05-31",
    )
    _, one_day = history(client, od="2025-05-01", do="2025-05-01", stan="w-toku")
    _, until = history(client, do="2025-05-01")
    _, none = history(client)
    _, wrong = history(client, od="jutro")

    assert filter_now(everything) == (
        "Poker kościany bez tabeli · 1.05.2025 – 31.05.2025 · z udziałem: Łucja · zakończone"
    )
    assert filter_now(one_day) == "1.05.2025 · w toku"
    assert filter_now(until) == "do 1.05.2025"
    assert filter_now(none) is None
    assert filter_now(wrong) == "filtr do poprawienia"
    # The statistics say theirs with the same words.
    stats_page = client.get(
        "/statystyki", query_string={"wariant": "poker", "od": "2025-05-01", "do": "2025-05-31"}
    )
    assert "Poker kościany bez tabeli · 1.05.2025 – 31.05.2025" in text_of(
        stats_page.get_data(as_text=True)
    )


def test_a_game_across_midnight_belongs_to_the_day_it_finished_in_history_and_statistics(
    app: Flask, client: FlaskClient
):
    """31.08 23:37 to 1.09 00:10 in Warsaw: a September game on every page, as the
    statistics count it; while it went on, it was an August game (the day it started)."""
    with app.app_context():
        account = new_account("Nocni")
        game_id = games.create_game(account, "standard", ["Ala"]).id
        play_out(account, game_id, seed=5)
        set_times(game_id, datetime(2025, 8, 31, 21, 37))  # UTC; 23:37 in Warsaw
        db.session.execute(
            update(Game).where(Game.id == game_id).values(finished_at=datetime(2025, 8, 31, 22, 10))
        )
        db.session.commit()
    sign_in(client, "Nocni")

    _, august = history(client, od="2025-08-01", do="2025-08-31")
    _, september = history(client, od="2025-09-01", do="2025-09-30")
    stats_september = client.get(
        "/statystyki", query_string={"od": "2025-09-01", "do": "2025-09-30"}
    )

    assert listed(august) == []
    assert listed(september) == [game_id]
    assert "1 zakończona gra" in text_of(stats_september.get_data(as_text=True))
    row = text_of(item(september, game_id))
    assert row.startswith("1.09.2025 00:10 Wygrywa Ala")  # the finish, as the home page says it
    assert "Gra zakończona należy do dnia, w którym się skończyła" in text_of(september)

    with app.app_context():
        db.session.execute(update(Game).where(Game.id == game_id).values(finished_at=None))
        db.session.commit()
    _, august = history(client, od="2025-08-01", do="2025-08-31")
    assert listed(august) == [game_id]
    assert text_of(item(august, game_id)).startswith("zaczęta 31.08.2025 23:37")


def test_filters_combine(client: FlaskClient, family: dict[str, Any]):
    _, html = history(client, wariant="standard", gracz=family["players"]["Ala"], od="2025-05-01")

    assert listed(html) == [family["ids"]["rematch"]]


@pytest.mark.parametrize("bad", ["2025-13-01", "jutro", "31.02.2025", "2025/05/01"])
def test_a_bad_date_is_explained_next_to_its_field(
    client: FlaskClient, family: dict[str, Any], bad: str
):
    status, html = history(client, od=bad)

    assert status == 400
    assert field_error(html, "od") == (
        "Nieprawidłowa data. Wpisz ją jako RRRR-MM-DD (np. 2025-05-03) albo 3.05.2025."
    )
    assert 'aria-invalid="true"' in html
    assert field_error(html, "do") is None
    assert listed(html) == []
    assert '<details class="filters" open>' in html


def test_from_after_to_is_explained_next_to_the_to_field(
    client: FlaskClient, family: dict[str, Any]
):
    status, html = history(client, od="2025-05-02", do="2025-05-01")

    assert status == 400
    assert field_error(html, "do") == (
        "Data „do” jest wcześniejsza niż data „od”. Popraw jedną z nich."
    )
    assert listed(html) == []


def test_an_unknown_variant_or_player_is_explained(client: FlaskClient, family: dict[str, Any]):
    status, html = history(client, wariant="yahtzee", gracz="999999")

    assert status == 400
    assert field_error(html, "wariant") == "Nie ma takiego wariantu. Wybierz jeden z listy."
    assert field_error(html, "gracz") == "Nie ma takiego gracza na tym koncie. Wybierz z listy."


def test_another_accounts_player_is_not_a_filter(app: Flask, client: FlaskClient, family):
    with app.app_context():
        other = new_account("Sąsiedzi")
        games.create_game(other, "standard", ["Zenek"])
        zenek = db.session.scalar(select(Player.id).where(Player.name == "Zenek"))

    status, html = history(client, gracz=zenek)

    assert status == 400
    assert "Zenek" not in html
    assert field_error(html, "gracz")


def test_nothing_matching_says_so(client: FlaskClient, family: dict[str, Any]):
    status, html = history(client, od="2030-01-01")

    assert status == 200
    assert "Żadna gra nie pasuje do tych filtrów." in html
    assert 'href="/historia">Pokaż wszystkie gry' in html


def test_an_empty_history_invites_to_play(app: Flask, client: FlaskClient):
    with app.app_context():
        new_account("Nowi")
    sign_in(client, "Nowi")

    status, html = history(client)

    assert status == 200
    assert "Nie ma jeszcze żadnej gry" in html
    assert 'href="/gry/nowa"' in html


def test_the_nav_links_to_the_history(client: FlaskClient, family: dict[str, Any]):
    home = client.get("/").get_data(as_text=True)
    _, page = history(client)

    assert 'href="/historia">Historia</a>' in home
    assert 'href="/historia" aria-current="page">Historia</a>' in page


# --- pages ------------------------------------------------------------------------------------


@pytest.fixture
def many(app: Flask, client: FlaskClient) -> list[int]:
    """65 one-player games, a day apart, oldest first."""
    with app.app_context():
        account_id = new_account("Kowalscy")
        ids = []
        for day in range(65):
            game = games.create_game(
                account_id,
                "standard" if day % 2 else "poker",
                ["Ala"] if day % 2 else ["Ala", "Ola"],
            )
            set_times(game.id, datetime(2024, 1, 1, 12) + timedelta(days=day))
            ids.append(game.id)
    sign_in(client, "Kowalscy")
    return ids


def test_the_history_comes_thirty_games_a_page(client: FlaskClient, many: list[int]):
    newest_first = many[::-1]

    _, first = history(client)
    _, second = history(client, strona=2)
    _, third = history(client, strona=3)

    assert listed(first) == newest_first[:30]
    assert listed(second) == newest_first[30:60]
    assert listed(third) == newest_first[60:]
    assert 'rel="next" href="/historia?strona=2"' in first
    assert 'rel="prev"' not in first
    assert 'rel="prev" href="/historia?strona=1"' in second
    assert 'rel="next" href="/historia?strona=3"' in second
    assert 'rel="next"' not in third
    assert "Razem 65 gier · strona 3 z 3" in text_of(third)


def test_the_pages_keep_the_filter(client: FlaskClient, many: list[int]):
    _, first = history(client, wariant="poker")
    _, second = history(client, wariant="poker", strona=2)

    assert len(listed(first)) == 30
    assert listed(second) == many[::-1][::2][30:]  # 33 poker games: three more
    assert 'href="/historia?strona=2&amp;wariant=poker"' in first


@pytest.mark.parametrize("variant", ["poker", "standard"])
def test_a_game_opened_from_a_page_of_the_list_leads_back_to_that_page(
    client: FlaskClient, many: list[int], variant: str
):
    # A family three years in opens a game from page 2 of a filtered list; the game's own
    # „Historia gier” button must bring them back there, not to page 1 of everything.
    _, second = history(client, wariant=variant, strona=2)
    game_id = listed(second)[-1]
    place = "strona=2&amp;wariant=" + variant

    assert f'<a href="/gry/{game_id}/tabela?{place}">' in item(second, game_id)
    assert f'data-game="{game_id}" id="g{game_id}">' in item(second, game_id)
    sheet = client.get(f"/gry/{game_id}/tabela?strona=2&wariant={variant}")
    back = f'href="/historia?{place}#g{game_id}">Historia gier</a>'  # to the game on that page
    assert back in sheet.get_data(as_text=True)


def test_the_games_review_keeps_the_place_in_the_history_too(
    client: FlaskClient, family: dict[str, Any]
):
    game_id = family["ids"]["tie"]
    place = "strona=2&amp;od=2025-03-01"

    sheet = client.get(f"/gry/{game_id}/tabela?strona=2&od=2025-03-01").get_data(as_text=True)
    review = client.get(f"/gry/{game_id}/przeglad?strona=2&od=2025-03-01").get_data(as_text=True)

    assert f'href="/gry/{game_id}/przeglad?{place}">Przegląd gry</a>' in sheet
    assert f'href="/gry/{game_id}/tabela?{place}">Tabela i historia ruchów</a>' in review


def test_a_games_page_carries_only_the_lists_own_arguments_back(
    client: FlaskClient, many: list[int]
):
    query = "od=2024-01-05&gracz=%3Cb%3E&next=//evil.example&strona=" + "9" * 40
    html = client.get(f"/gry/{many[0]}/tabela?{query}").get_data(as_text=True)

    assert f'href="/historia?gracz=%3Cb%3E&amp;od=2024-01-05#g{many[0]}">Historia gier</a>' in html
    assert not re.search(r'href="[^"]*evil', html)  # the language switch keeps its own `next`


@pytest.mark.parametrize(
    ("page", "shown"),
    [("9", 3), ("99999999999999999999", 3), ("1000000", 3), ("0", 1), ("-1", 1), ("abc", 1)],
)
def test_a_page_out_of_range_shows_the_nearest(
    client: FlaskClient, many: list[int], page: str, shown: int
):
    status, html = history(client, strona=page)

    assert status == 200
    assert f"Razem 65 gier · strona {shown} z 3" in text_of(html)


# --- a game's page: the sheet and the turn log ----------------------------------------------------


def log_items(html: str) -> list[str]:
    log = html.split('<ol class="log">', 1)[1].split("</ol>", 1)[0]
    return [text_of(li) for li in re.findall(r"<li.*?</li>", log, re.S)]


def test_a_games_page_shows_the_dice_of_every_turn_round_and_corrections(
    app: Flask, client: FlaskClient, family: dict[str, Any]
):
    game_id = family["ids"]["tie"]
    with app.app_context():
        log = db.session.scalars(select(Turn).where(Turn.game_id == game_id)).all()
        turns = [(t.seq, "-".join(t.dice), t.undone_at is not None) for t in log]

    html = client.get(f"/gry/{game_id}/tabela").get_data(as_text=True)

    items = log_items(html)
    assert len(items) == len(turns) == 27  # newest first, the corrected one included
    for text, (seq, dice, undone) in zip(items, reversed(turns), strict=True):
        assert text.startswith(f"{seq}. ")
        assert f"kolejka {(seq + 1) // 2} · {dice} · " in text
        assert ("cofnięty" in text) == undone
    corrected = items[-3]
    assert corrected == (
        "3. Ala – Trzy jednakowe 21 cofnięty kolejka 2 · 6-6-6-1-2 · 19:03, cofnięto o 19:03"
    )
    assert '<s>Ala – Trzy jednakowe 21</s> <span class="tag tag-undone">cofnięty</span>' in html
    assert items[-4].startswith("3. Ala – Dwójki 6 kolejka 2 · 2-2-2-4-5 · 19:04")
    assert "Kości (tabela polska) · zaczęta 1.03.2025 19:00 · zakończona 1.03.2025 19:27" in (
        text_of(html)
    )
    assert f'href="/historia#g{game_id}">Historia gier</a>' in html


def test_a_triple_games_page_names_the_column_of_each_turn(
    client: FlaskClient, family: dict[str, Any]
):
    html = client.get(f"/gry/{family['ids']['triple']}/tabela").get_data(as_text=True)

    items = log_items(html)
    assert items[-1] == "1. Ala – Generał ×3: 50 kolejka 1 · 6-6-6-6-6 · 00:31 Popraw ruch 1"
    assert "cofnięty" in items[0]  # the last turn was taken back
    assert "kolejka 5 z 39" in text_of(html)


def test_a_poker_matchs_page_shows_its_rounds_and_every_hand(
    client: FlaskClient, family: dict[str, Any]
):
    html = client.get(f"/gry/{family['ids']['poker']}/tabela").get_data(as_text=True)

    items = log_items(html)
    assert len(items) == 14  # 12 hands in force, 2 taken back
    assert items[-1] == "1. Ala – Pięć jednakowych 6-6-6-6-6 runda 1 · 23:31 Popraw układ 1"
    assert sum("cofnięty" in i for i in items) == 2
    assert items[-5] == "4. Ala – Strit 2-3-4-5-6 runda 2 · 23:35 Popraw układ 4"
    assert (
        items[1] == "12. Jan – Trzy jednakowe 2-2-2-5-1 cofnięty runda 4 · 23:43, cofnięto o 23:43"
    )
    assert "Przebieg meczu" in html


def test_a_game_in_play_can_still_be_read_from_the_history(
    app: Flask, client: FlaskClient, family: dict[str, Any]
):
    game_id = family["ids"]["rematch"]
    with app.app_context():
        play(family["account"], game_id, [("44412", "fours")])

    html = client.get(f"/gry/{game_id}/tabela").get_data(as_text=True)

    assert "kolejka 3 z 13, teraz Ola" in text_of(html)
    assert log_items(html)[0].startswith("4. Ala – Czwórki 12 kolejka 2 · 4-4-4-1-2 · ")
