"""The game pages through the Flask client, CSRF on: every form is posted with the page's token.

Scores and winners are checked against what `tracker.rules` derives, not typed in by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient
from history_builders import STANDARD_SHEET

from tracker.models import Account, Turn
from tracker.rules import TABLE_VARIANTS, TableGame, parse_dice
from tracker.services import game_lists, games, players

pytestmark = pytest.mark.one_backend(
    "the game's pages and forms; the writes and reads beneath them are the services'"
    " that test_api_games, test_corrections and test_writes run on both"
)

PASSWORD = "tajne hasło 123"

# Thirteen turns that fill a standard sheet, every one worth points.
FULL_SHEET = STANDARD_SHEET
LOW_SHEET = [
    ("11112", "chance") if field == "chance" else (dice, field) for dice, field in FULL_SHEET
]


def text_of(html: str) -> str:
    """The page as a reader sees it: no tags, one space between words (a roll kept on one line,
    `rolls_unbroken`, reads as the roll)."""
    joined = re.sub(r'<span class="nowrap">([^<]*)</span>', r"\1", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", joined))


def page_csrf(client: FlaskClient, url: str = "/zasady") -> str:
    html = client.get(url).get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert match, "every page carries the CSRF token in a meta tag"
    return match.group(1)


@dataclass
class Table:
    """A signed-in client with helpers for posting the game forms."""

    app: Flask
    client: FlaskClient
    name: str

    @property
    def account_id(self) -> int:
        with self.app.app_context():
            from tracker.extensions import db

            return db.session.query(Account.id).filter(Account.name == self.name).scalar()

    def post(self, url: str, data: dict | None = None, **kwargs):
        return self.client.post(
            url, data={"csrf_token": page_csrf(self.client), **(data or {})}, **kwargs
        )

    def new_game(self, names: list[str], variant: str = "standard", **extra) -> int:
        data = {"variant": variant, **{f"players-{i}": n for i, n in enumerate(names)}, **extra}
        response = self.post("/gry/nowa", data)
        assert response.status_code == 303, text_of(response.get_data(as_text=True))
        return int(response.headers["Location"].rsplit("/", 1)[1])

    def write(self, game_id: int, dice: str, field: str, column: int = 0, **extra):
        seq = extra.pop("seq", None) or self.view(game_id).next_seq
        data = {"dice": dice, "field": field, "column": column, "seq": seq, **extra}
        return self.post(f"/gry/{game_id}/ruch", data)

    def view(self, game_id: int) -> games.GameView:
        with self.app.app_context():
            view = games.load(self.account_id, game_id)
            _ = [s.player.name for s in view.seats]  # loaded before the session closes
            return view

    def play_through(self, game_id: int, turns_per_seat: list[list[tuple[str, str]]]) -> None:
        """Write whole rounds straight through the service: a quick way to an ended game."""
        with self.app.app_context():
            for round_turns in zip(*turns_per_seat, strict=True):
                for dice, field in round_turns:
                    games.record_turn(self.account_id, game_id, dice, field, 0)


def sign_up(client: FlaskClient, name: str):
    token = page_csrf(client, "/rejestracja")
    return client.post(
        "/rejestracja",
        data={"csrf_token": token, "name": name, "password": PASSWORD, "confirm": PASSWORD},
    )


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    assert sign_up(client, "Kowalscy").status_code == 302
    return Table(app, client, "Kowalscy")


# --- signing up and in, the home page ------------------------------------------------------


def test_first_visit_to_an_empty_installation_goes_to_sign_up(client: FlaskClient):
    response = client.get("/")

    assert response.status_code == 302
    assert response.headers["Location"] == "/rejestracja"


def test_sign_up_signs_in_and_the_home_page_offers_a_new_game(client: FlaskClient):
    response = sign_up(client, "Kowalscy")
    assert response.status_code == 302

    home = client.get("/").get_data(as_text=True)

    assert 'href="/gry/nowa"' in home
    assert "Nowa gra" in home
    assert "Witaj, Kowalscy!" in home
    for link in ('href="/sedzia"', 'href="/gracze"', 'href="/zasady"', 'href="/konto"'):
        assert link in home
    nav = home.split('aria-label="Menu główne"', 1)[1].split("</nav>", 1)[0]
    assert [label for label in re.findall(r">(\w+)</a>", nav)] == [
        "Gry",
        "Statystyki",
        "Historia",
        "Sędzia",
        "Zasady",
        "Konto",
    ]


def test_signed_out_visitor_sees_the_intro_and_signs_in(client: FlaskClient):
    sign_up(client, "Kowalscy")
    client.post("/wyloguj", data={"csrf_token": page_csrf(client)})

    home = client.get("/")
    html = home.get_data(as_text=True)
    assert home.status_code == 200
    assert "Zaloguj się" in html
    assert "Sędzia – kto ma rację?" in html
    nav = html.split('aria-label="Menu główne"', 1)[1].split("</nav>", 1)[0]
    assert re.findall(r">(\w+)</a>", nav) == ["Sędzia", "Zasady", "Zaloguj"]

    token = page_csrf(client, "/logowanie")
    signed_in = client.post(
        "/logowanie", data={"csrf_token": token, "name": "kowalscy", "password": PASSWORD}
    )
    assert signed_in.status_code == 302
    assert "Gry w toku" in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("url", ["/gracze", "/gry/nowa", "/gry/1", "/gry/1/tabela", "/gry/1/usun"])
def test_anonymous_visitor_is_sent_to_sign_in(client: FlaskClient, url: str):
    sign_up(client, "Kowalscy")
    client.post("/wyloguj", data={"csrf_token": page_csrf(client)})

    response = client.get(url)

    assert response.status_code == 302
    assert response.headers["Location"].startswith("/logowanie")


def test_a_form_posted_after_signing_out_leads_to_sign_in(client: FlaskClient):
    sign_up(client, "Kowalscy")
    token = page_csrf(client)
    client.post("/wyloguj", data={"csrf_token": token})

    response = client.post("/gry/1/ruch", data={"csrf_token": page_csrf(client), "seq": "1"})

    assert response.status_code == 302
    assert response.headers["Location"] == "/logowanie"


@pytest.mark.parametrize(
    ("referrer", "back"),
    [
        ("http://localhost/gry/7?dice=12345&seq=3", "/logowanie?next=%2Fgry%2F7"),
        ("https://evil.example/gry/7", "/logowanie"),  # only a page of this site
    ],
)
def test_a_form_posted_after_the_session_ended_comes_back_to_its_page(
    client: FlaskClient, referrer: str, back: str
):
    """A turn tapped after „Wyloguj na wszystkich urządzeniach” on another phone: after
    sign-in, back to the game it was sent from, not to the form's own address (POST only)."""
    sign_up(client, "Kowalscy")
    client.post("/wyloguj", data={"csrf_token": page_csrf(client)})

    response = client.post(
        "/gry/7/ruch",
        data={"csrf_token": page_csrf(client), "seq": "1"},
        headers={"Referer": referrer},
    )

    assert response.status_code == 302
    assert response.headers["Location"] == back
    assert "Zaloguj się, aby kontynuować." in client.get(back).get_data(as_text=True)


def test_home_lists_unfinished_games_with_their_round(table: Table):
    game_id = table.new_game(["Ala", "Ola"], "ordered")
    table.write(game_id, "11123", "ones")
    table.write(game_id, "11456", "ones")

    html = table.client.get("/").get_data(as_text=True)
    text = text_of(html)

    assert "Ala, Ola" in text
    assert "Gra po kolei · kolejka 2 z 13" in text
    assert f'href="/gry/{game_id}"' in html
    assert f'href="/gry/{game_id}/usun"' in html
    assert "Graj dalej" in text


# --- a new game ------------------------------------------------------------------------------


def test_new_game_page_offers_every_variant_and_known_players(table: Table):
    table.new_game(["Babcia Zosia"])

    html = table.client.get("/gry/nowa").get_data(as_text=True)

    for variant in TABLE_VARIANTS.values():
        assert f'value="{variant.id}"' in html
        assert variant.name in html
    assert 'value="poker" id="variant-poker"' in html
    assert "Poker kościany bez tabeli" in html
    assert '<option value="Babcia Zosia">' in html
    assert html.count('list="known-players"') >= 2
    assert "Losuj, kto zaczyna" in html


@pytest.mark.parametrize(
    ("data", "error_id", "message", "kept"),
    [
        pytest.param(
            {"players-0": "", "players-1": "  "},
            "players-error",
            "Wpisz imię co najmniej jednego gracza.",
            None,
            id="no-players",
        ),
        pytest.param(
            {"players-0": "Ala", "players-1": "ALA"},
            "players-1-error",
            "Ten gracz już siedzi przy stole (gracz 1).",
            "ALA",
            id="duplicate",
        ),
        pytest.param(
            {"players-0": "Ala", "players-1": "B" * 31},
            "players-1-error",
            "Imię gracza może mieć najwyżej 30 znaków.",
            "B" * 31,
            id="31-chars",
        ),
        pytest.param(
            {f"players-{i}": f"Gracz{i}" for i in range(9)},
            "players-error",
            "Za dużo graczy: 9. Kości (tabela polska): od 1 do 8 graczy przy jednym stole. "
            "Przy większej grupie zagrajcie w dwie osobne gry.",
            "Gracz8",
            id="9-players",
        ),
        pytest.param(
            {"variant": "yahtzee", "players-0": "Ala"},
            "variant-error",
            "Wybierz jeden z wariantów.",
            "Ala",
            id="bad-variant",
        ),
    ],
)
def test_new_game_errors_are_shown_next_to_the_field_and_input_is_kept(
    table: Table, data: dict, error_id: str, message: str, kept: str | None
):
    response = table.post("/gry/nowa", {"variant": "standard", **data})

    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert f'<p class="error" id="{error_id}">{message}</p>' in html
    assert f'aria-describedby="{error_id}"' in html
    if kept is not None:
        assert f'value="{kept}"' in html
    with table.app.app_context():
        assert game_lists.list_games(table.account_id) == []


def test_dodaj_gracza_without_javascript_adds_a_row_and_keeps_the_names(table: Table):
    response = table.post("/gry/nowa", {"variant": "triple", "players-0": "Ala", "add": "1"})

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="players-2"' in html
    assert 'value="Ala"' in html
    assert 'value="triple" id="variant-triple" checked' in html
    assert 'class="error"' not in html


def test_new_game_seats_players_in_the_order_entered(table: Table):
    game_id = table.new_game(["Ola", "", "Ala", "Ela"], "ordered", bonus_threshold="42")

    view = table.view(game_id)
    assert view.names == ["Ola", "Ala", "Ela"]
    assert view.variant.id == "ordered"
    assert view.options.bonus_threshold == 42


def test_new_game_can_draw_who_starts(table: Table):
    names = [f"Gracz {i}" for i in range(8)]
    game_id = table.new_game(names, shuffle="y")

    view = table.view(game_id)
    assert sorted(view.names) == sorted(names)
    assert "Wylosowana kolejność: " in table.client.get(f"/gry/{game_id}").get_data(as_text=True)


# --- the turn screen ---------------------------------------------------------------------


def test_turn_screen_shows_whose_turn_and_the_round(table: Table):
    game_id = table.new_game(["Ala", "Ola"])

    response = table.client.get(f"/gry/{game_id}")

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert '<h1 class="turn-name">Ala</h1>' in html
    assert "Kolejka 1 z 13" in html
    assert 'inputmode="numeric"' in html
    assert "Górna część: 0 – do premii brakuje 63" in text_of(html)
    assert "data-write" not in html  # no dice, no pencil marks yet


def test_dice_in_the_query_pencil_in_every_free_field(table: Table):
    game_id = table.new_game(["Ala", "Ola"])

    html = table.client.get(f"/gry/{game_id}?dice=33322").get_data(as_text=True)

    evaluation = TableGame(TABLE_VARIANTS["standard"], 2).evaluate(parse_dice("33322"))
    for placement in evaluation.placements:
        button = re.search(
            rf'<button class="pencil-btn" type="submit" form="w0"\s+name="field" '
            rf'value="{placement.field}" data-points="(\d+)"',
            html,
        )
        assert button, placement.field
        assert int(button.group(1)) == placement.points
    assert 'name="seq" value="1"' in html
    assert 'name="dice" value="33322"' in html
    best = re.search(r'class="pencil is-best[^"]*" data-row>\s*<button[^>]*value="(\w+)"', html)
    assert best
    assert best.group(1) == "full_house"


def test_wrong_dice_in_the_query_are_explained_next_to_the_input(table: Table):
    game_id = table.new_game(["Ala"])

    html = table.client.get(f"/gry/{game_id}?dice=1234").get_data(as_text=True)

    assert '<p class="error" id="dice-error">Potrzeba dokładnie pięciu kości, podano 4.</p>' in html
    assert 'value="1234"' in html
    assert "data-write" not in html


def test_the_fragment_is_the_pencil_marks_alone(table: Table):
    game_id = table.new_game(["Ala"])

    response = table.client.get(f"/gry/{game_id}?dice=66666&fragment=fields&seq=1")

    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html
    assert 'value="five_of_a_kind" data-points="50"' in html


def test_a_stale_fragment_request_is_refused_and_the_page_says_why(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")

    response = table.client.get(f"/gry/{game_id}?dice=66666&fragment=fields&seq=1")

    assert response.status_code == 409
    # turn.js goes where the answer says: the game now, with the typed dice kept.
    assert response.headers["Content-Location"] == f"/gry/{game_id}?dice=66666&seq=2"
    html = table.client.get(response.headers["Content-Location"]).get_data(as_text=True)
    assert "Na innym telefonie zapisano już: Ala – Szóstki 18." in html
    assert 'value="five_of_a_kind" data-points="50"' in html


@pytest.mark.parametrize(
    "asked",
    [
        pytest.param("dice=66612", id="as-written"),
        pytest.param("dice=21666", id="in-another-order"),
        # The phone sent 66612 and heard nothing back; then a die was tapped away. The request
        # names the dice sent (`sent`): that roll is turn 1's, so the write went in.
        pytest.param("dice=6661&sent=66612", id="changed-after-a-lost-answer"),
    ],
)
def test_dice_that_are_the_roll_written_at_their_turn_stand_written_not_carried(
    table: Table, asked: str
):
    """A phone asks for pencil marks for turn 1 with the very roll turn 1 holds (its own write,
    the answer lost; or the same roll typed on another phone, in any order): the roll stands
    written, said as a write is, with its undo. The dice are not carried to Ola's turn, where
    one more tap would write Ala's roll for Ola."""
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")

    response = table.client.get(f"/gry/{game_id}?{asked}&fragment=fields&seq=1")

    assert response.status_code == 409
    assert response.headers["Content-Location"] == f"/gry/{game_id}"
    html = table.client.get(response.headers["Content-Location"]).get_data(as_text=True)
    assert text_of(html).count("Zapisano: Ala – Szóstki 18") == 1
    assert "data-undo-written" in html
    assert "Na innym telefonie zapisano" not in html
    assert "data-write" not in html  # nothing pencilled in for Ola


def test_dice_sent_that_are_not_the_roll_written_are_kept_as_any_stale_phones(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")

    other = table.client.get(f"/gry/{game_id}?dice=6661&fragment=fields&seq=1&sent=55555")

    assert other.headers["Content-Location"] == f"/gry/{game_id}?dice=6661&seq=2"


def test_the_roll_written_with_turns_after_it_names_them(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    table.write(game_id, "33322", "full_house")

    response = table.client.get(f"/gry/{game_id}?dice=66612&fragment=fields&seq=1")

    assert response.status_code == 409
    assert response.headers["Content-Location"] == f"/gry/{game_id}"
    html = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    assert (
        "Te kości są już zapisane: Ala – Szóstki 18. Potem na innym telefonie zapisano: "
        "Ola – Ful 25. Teraz kolej: Ala." in html
    )


def test_a_turn_sent_for_a_turn_taken_back_since_says_so(table: Table):
    """The form sent for Ola's turn 2 after another phone took back Ala's turn 1: the flash
    tells of the undo, not that the turn was „already written” (nothing was)."""
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    assert table.post(f"/gry/{game_id}/cofnij", {"seq": "2"}).status_code == 303
    table.client.get(f"/gry/{game_id}")  # the undo's own message, shown

    response = table.write(game_id, "66666", "five_of_a_kind", seq=2)

    assert response.status_code in (302, 303)
    html = text_of(table.client.get(response.headers["Location"]).get_data(as_text=True))
    assert "Na innym telefonie cofnięto ruch. Teraz kolej: Ala." in html
    assert "został już zapisany" not in html


def test_a_fragment_for_a_turn_taken_back_since_says_so(table: Table):
    """Dice typed for Ola's turn 2, and another phone takes back Ala's turn 1: not „zapisano
    już” (nothing was written), but the undo, and whose turn it is now."""
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    assert table.post(f"/gry/{game_id}/cofnij", {"seq": "2"}).status_code == 303
    table.client.get(f"/gry/{game_id}")  # the undo's own message, shown

    response = table.client.get(f"/gry/{game_id}?dice=66666&fragment=fields&seq=2")

    assert response.status_code == 409
    assert response.headers["Content-Location"] == f"/gry/{game_id}?dice=66666&seq=1"
    html = table.client.get(response.headers["Content-Location"]).get_data(as_text=True)
    assert "Na innym telefonie cofnięto ruch. Teraz kolej: Ala. Twoje kości zostały" in html
    assert "zapisano już" not in html
    assert 'value="five_of_a_kind" data-points="50"' in html


def test_dice_of_an_older_turn_never_pencil_in_the_next_players_turn(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")

    back = table.client.get(f"/gry/{game_id}?dice=66612&seq=1").get_data(as_text=True)
    current = table.client.get(f"/gry/{game_id}?dice=66612&seq=2").get_data(as_text=True)

    assert '<h1 class="turn-name">Ola</h1>' in back
    assert "data-write" not in back
    assert 'name="dice" value="66612"' in current


def test_joker_and_extra_bonus_are_flagged_with_the_notes(table: Table):
    game_id = table.new_game(["Ala"])
    table.write(game_id, "66666", "five_of_a_kind")
    table.write(game_id, "66612", "sixes")

    html = table.client.get(f"/gry/{game_id}?dice=66666").get_data(as_text=True)

    assert 'data-flag="joker"' in html
    assert 'data-flag="extra-bonus"' in html
    assert "Joker musi trafić do wolnego pola dolnej części" in html  # once, for all upper fields
    assert html.count("Joker musi trafić") == 1
    assert 'value="full_house" data-points="25"' in html
    assert "Generał +100 ×" not in html  # no mark yet: none written


def test_triple_groups_the_fields_in_three_columns(table: Table):
    game_id = table.new_game(["Ala", "Ola"], "triple")
    table.write(game_id, "66666", "five_of_a_kind", 2)

    html = table.client.get(f"/gry/{game_id}?dice=44412").get_data(as_text=True)

    assert "Kolejka 1 z 39" in html
    for column in range(3):
        assert f'<form id="w{column}" method="post"' in html
        assert f'form="w{column}" name="field" value="fours"' in html
    assert "×1: 0 – do premii brakuje 63" in text_of(html)


def test_triple_says_which_column_each_extra_generals_bonus_is_in(table: Table):
    """Beside the columns' „×1: …”, „×2: …” lines, „Generał +100 × 2” read as a +100 in column
    ×2; Ala's two bonuses are in ×1 and ×3. Each column's line carries its own."""
    game_id = table.new_game(["Ala"], "triple")
    for dice, field, column in [
        ("66666", "five_of_a_kind", 0),
        ("55555", "five_of_a_kind", 1),
        ("44444", "five_of_a_kind", 2),
        ("22222", "twos", 0),  # +100 in ×1
        ("33333", "threes", 2),  # +100 in ×3
        ("11111", "ones", 2),  # +100 in ×3
    ]:
        assert table.write(game_id, dice, field, column).status_code == 303

    text = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))

    assert "Generał +100 × " not in text
    assert "×1: 10 – +4 ponad normę · Generał +100 ×2: 0 – do premii brakuje 63 ×3:" in text
    assert "×3: 20 – +8 ponad normę · Generał +200 " in text


def test_a_turn_is_written_by_the_form_and_the_next_player_is_up(table: Table):
    game_id = table.new_game(["Ala", "Ola"])

    response = table.write(game_id, "33322", "full_house")

    assert response.status_code == 303
    assert response.headers["Location"] == f"/gry/{game_id}"
    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)
    assert "Zapisano: Ala – Ful 25" in html
    assert '<h1 class="turn-name">Ola</h1>' in html
    view = table.view(game_id)
    assert [(t.dice, t.field, t.points) for t in view.turns] == [("33322", "full_house", 25)]
    assert "Ala – Ful 25" in text_of(html)  # the undo button says what it takes back


@pytest.mark.parametrize(
    ("variant", "turns", "said"),
    [
        pytest.param(
            "standard",
            [("66661", "sixes"), ("55551", "fives"), ("44441", "fours"), ("33331", "threes")],
            "Zapisano: Ala – Trójki 12, do wyniku +47",
            id="the turn that completes the upper bonus says its 35 too",
        ),
        pytest.param(
            "standard",
            [("66661", "sixes")],
            "Zapisano: Ala – Szóstki 24",
            id="a turn that adds its points says only them",
        ),
        pytest.param(
            "triple",
            [("22333", "chance", 1)],
            "Zapisano: Ala – Szansa ×2: 13, do wyniku +26",
            id="a column of ×2 doubles what it adds",
        ),
    ],
)
def test_the_written_turn_says_what_it_added_to_the_total_where_that_is_not_its_points(
    table: Table, variant: str, turns: list[tuple], said: str
):
    game_id = table.new_game(["Ala"], variant)
    for turn in turns:
        assert table.write(game_id, *turn).status_code == 303

    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)

    assert said in html
    # The flash, its undo's name for a screen reader, and the undo button of the last turn.
    assert html.count(said.removeprefix("Zapisano: ")) == 3
    assert f"{said}," not in html  # nothing more after it


def test_a_turn_sent_again_before_the_page_is_shown_says_zapisano_once(table: Table):
    """The first answer was lost after its cookie had arrived (cut off on the way): the phone
    sends the same turn again, which finds it written. One „Zapisano”, with one undo."""
    game_id = table.new_game(["Ala", "Ola"])
    turn = {"csrf_token": page_csrf(table.client), "seq": 1, "column": 0}
    turn |= {"dice": "33322", "field": "full_house"}  # no page between them: none shows it

    assert table.client.post(f"/gry/{game_id}/ruch", data=turn).status_code == 303
    assert table.client.post(f"/gry/{game_id}/ruch", data=turn).status_code == 303

    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)
    assert html.count("Zapisano: Ala – Ful 25") == 1
    assert html.count("data-undo-written") == 1
    assert len(table.view(game_id).turns) == 1


def test_a_redraw_by_a_poll_leaves_zapisano_for_the_screen_that_shows_it(table: Table):
    """The first answer was cut off after its cookie had arrived, and the poll redraws the
    screen while the retry is on its way: the phone drops that redraw (it is writing), so the
    redraw must not take „Zapisano”, which the retry, finding it waiting, does not say again.
    The page the retry leads to says it, once, with its undo."""
    game_id = table.new_game(["Ala", "Ola"])
    assert table.write(game_id, "33322", "full_house").status_code == 303

    redraw = table.client.get(f"/gry/{game_id}", headers={"Kosci-Redraw": "poll"})

    assert redraw.status_code == 200
    assert "Zapisano" not in redraw.get_data(as_text=True)
    assert '<h1 class="turn-name">Ola</h1>' in redraw.get_data(as_text=True)
    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)
    assert html.count("Zapisano: Ala – Ful 25") == 1
    assert html.count("data-undo-written") == 1
    assert "Zapisano" not in table.client.get(f"/gry/{game_id}").get_data(as_text=True)


def test_the_same_message_waiting_twice_is_said_once(table: Table):
    """Two identical messages in the session (a sign-in asked for by a poll, then by the
    reload it caused): the page says it once."""
    with table.client.session_transaction() as session:
        session["_flashes"] = [("info", "Gra jest zakończona."), ("info", "Gra jest zakończona.")]

    html = table.client.get("/").get_data(as_text=True)

    assert html.count("Gra jest zakończona.") == 1


def test_a_zero_where_more_was_possible_is_confirmed_first(table: Table):
    game_id = table.new_game(["Ala", "Ola"])

    asked = table.write(game_id, "12346", "five_of_a_kind")

    html = asked.get_data(as_text=True)
    assert asked.status_code == 200
    assert "Wpisać 0 w polu Generał? Najwięcej teraz: Mały strit za 30 pkt." in html
    assert 'name="confirm" value="1"' in html
    assert 'name="dice" value="12346"' in html
    assert table.view(game_id).turns == []

    written = table.write(game_id, "12346", "five_of_a_kind", confirm="1")
    assert written.status_code == 303
    assert [(t.field, t.points) for t in table.view(game_id).turns] == [("five_of_a_kind", 0)]


def test_gra_po_kolei_names_the_one_field_the_roll_goes_to(table: Table):
    """In Gra po kolei a roll can go only to the next free field: the screen says which,
    not a list of thirteen fields to choose from."""
    game_id = table.new_game(["Ala"], "ordered")

    first = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    table.write(game_id, "11123", "ones")
    second = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))

    assert "Następne pole: Jedynki." in first
    assert "Wolne pola" not in first
    assert "Następne pole: Dwójki." in second


def test_a_zero_that_is_the_only_choice_needs_no_confirmation(table: Table):
    game_id = table.new_game(["Ala"], "ordered")

    response = table.write(game_id, "22222", "ones")

    assert response.status_code == 303
    assert table.view(game_id).turns[0].points == 0


def test_a_stale_phone_cannot_write_the_next_players_turn(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "33322", "full_house", seq=1)

    stale = table.write(game_id, "66666", "five_of_a_kind", seq=1)

    assert stale.status_code == 303
    # The typed dice stay, pencilled in for the turn that is now to be played.
    assert stale.headers["Location"] == f"/gry/{game_id}?dice=66666&seq=2"
    html = table.client.get(stale.headers["Location"]).get_data(as_text=True)
    assert "Na innym telefonie zapisano już: Ala – Ful 25." in html
    assert "Teraz kolej: Ola." in html
    assert '<h1 class="turn-name">Ola</h1>' in html
    assert 'value="five_of_a_kind" data-points="50"' in html
    assert len(table.view(game_id).turns) == 1


def test_the_same_roll_sent_into_another_field_is_not_carried_to_the_next_player(
    table: Table,
):
    """Two phones, the same roll for Ala: one writes Ful, the other (stale) asks for Szansa.
    The roll is written; the stale phone is told where, and its dice are not carried to Ola."""
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "33322", "full_house", seq=1)

    stale = table.write(game_id, "23233", "chance", seq=1)

    assert stale.status_code == 303
    assert stale.headers["Location"] == f"/gry/{game_id}"
    html = text_of(table.client.get(stale.headers["Location"]).get_data(as_text=True))
    assert "Na innym telefonie zapisano już: Ala – Ful 25. Teraz kolej: Ola." in html
    assert "Twoje kości zostały" not in html
    assert len(table.view(game_id).turns) == 1


def test_a_refused_move_is_explained_and_the_dice_are_kept(table: Table):
    game_id = table.new_game(["Ala"], "ordered")

    response = table.write(game_id, "66666", "five_of_a_kind")

    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Gra po kolei: teraz wpisujesz do pola Jedynki." in html
    assert 'value="66666"' in html
    assert table.view(game_id).turns == []


def test_a_refused_move_says_why_once_next_to_the_fields(table: Table):
    """The refusal is the error over the fields; the same sentence is not repeated under it
    as the fields' shared reason (two lines more between the dice and the field to tap)."""
    game_id = table.new_game(["Ala"], "ordered")

    html = table.write(game_id, "66666", "five_of_a_kind").get_data(as_text=True)

    reason = "Gra po kolei: teraz wpisujesz do pola Jedynki."
    assert f'<p class="error" role="alert" id="field-error">{reason}</p>' in html
    assert html.count(reason) == 1


def test_an_undo_in_gra_po_kolei_does_not_ask_for_another_field(table: Table):
    """Gra po kolei has one field a turn: the undone roll goes back to it, so the undo says
    to change the dice, not to „choose the right field”."""
    game_id = table.new_game(["Ala"], "ordered")
    table.write(game_id, "11123", "ones")

    assert table.post(f"/gry/{game_id}/cofnij", {"seq": "2"}).status_code == 303
    html = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))

    assert "Cofnięto: Ala – Jedynki 3. Znów kolej: Ala. Kości zostały" in html
    assert "wybierz właściwe pole" not in html


def test_a_broken_turn_form_is_a_bad_request(table: Table):
    game_id = table.new_game(["Ala"])

    response = table.post(f"/gry/{game_id}/ruch", {"dice": "66666", "field": "chance"})

    assert response.status_code == 400
    assert "Formularz ruchu jest niepełny" in response.get_data(as_text=True)


def test_a_turn_without_the_csrf_token_is_refused(table: Table):
    game_id = table.new_game(["Ala"])

    response = table.client.post(
        f"/gry/{game_id}/ruch", data={"dice": "66666", "field": "chance", "seq": "1"}
    )

    assert response.status_code == 400
    assert table.view(game_id).turns == []


# --- undo, the full sheet and its log ----------------------------------------------------


def test_undo_takes_back_the_last_turn_and_keeps_the_roll_on_screen(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")

    response = table.post(f"/gry/{game_id}/cofnij", {"seq": "2"})

    assert response.status_code == 303
    assert response.headers["Location"] == f"/gry/{game_id}?dice=66612&seq=1"
    html = table.client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Cofnięto: Ala – Szóstki 18. Znów kolej: Ala." in html
    assert '<h1 class="turn-name">Ala</h1>' in html
    assert 'value="sixes" data-points="18"' in html
    view = table.view(game_id)
    assert view.turns == []
    assert [t.undone_at is not None for t in view.log] == [True]


def test_undo_goes_back_one_turn_at_a_time_to_the_start(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    table.write(game_id, "11456", "ones")

    table.post(f"/gry/{game_id}/cofnij", {"seq": "3"})
    table.post(f"/gry/{game_id}/cofnij", {"seq": "2"})
    at_start = table.post(f"/gry/{game_id}/cofnij", {"seq": "1"})

    assert at_start.status_code == 303
    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)
    assert "Nie ma czego cofać: to początek gry." in html
    assert "Cofnij ostatni ruch" not in html
    assert len(table.view(game_id).log) == 2


def test_undo_from_a_stale_phone_takes_nothing_back(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    table.write(game_id, "11456", "ones")

    table.post(f"/gry/{game_id}/cofnij", {"seq": "2"})

    assert len(table.view(game_id).turns) == 2
    html = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    # Not "try again": that would take back Ola's turn, which the phone never saw.
    assert "Na innym telefonie zapisano już kolejny ruch. Nic nie cofnięto" in html
    assert "Sprawdź tabelę i spróbuj ponownie" not in html


def test_the_loser_of_two_undos_is_told_the_turn_is_already_taken_back(table: Table):
    """Two phones tap „Cofnij” on Ola's turn at once: one takes it back. The other must not
    say "try again" above „Cofnij ostatni ruch”, which would take back Ala's turn too."""
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    table.write(game_id, "11456", "ones")
    assert table.post(f"/gry/{game_id}/cofnij", {"seq": "3"}).status_code == 303
    table.client.get(f"/gry/{game_id}")  # the winner's message, shown

    table.post(f"/gry/{game_id}/cofnij", {"seq": "3"})

    assert len(table.view(game_id).turns) == 1
    html = text_of(table.client.get(f"/gry/{game_id}").get_data(as_text=True))
    assert (
        "Ten ruch cofnięto już na innym telefonie. Nic więcej nie cofnięto – teraz kolej: Ola."
        in html
    )
    assert "Sprawdź tabelę i spróbuj ponownie" not in html


def test_full_sheet_shows_every_field_sum_and_total(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    table.write(game_id, "33322", "full_house")

    html = table.client.get(f"/gry/{game_id}/tabela").get_data(as_text=True)

    view = table.view(game_id)
    assert 'class="table-scroll sheet-scroll"' in html
    for label in ("Suma górna", "Premia (63+)", "Suma dolna", "Generał +100", "Razem"):
        assert f'<th scope="row">{label}</th>' in html
    # A field row goes by its short name on a phone; the full name is in the row for the rest.
    jedynki = re.search(r'<th scope="row" title="Jedynki">(.*?)</th>', html, re.S)
    assert jedynki
    assert '<span class="label-short is-digit" aria-hidden="true">1</span>' in jedynki.group(1)
    assert '<span class="label-full">Jedynki</span>' in jedynki.group(1)
    totals = re.search(r'<tr class="row-total">.*?</tr>', html, re.S)
    assert totals
    assert re.findall(r"<td[^>]*>(\d+)</td>", totals.group(0)) == [
        str(s) for s in view.table.scores
    ]
    assert '<td class="is-last">25</td>' in html


def test_full_sheet_of_triple_has_three_columns_per_player(table: Table):
    game_id = table.new_game(["Ala", "Ola"], "triple")
    table.write(game_id, "66666", "five_of_a_kind", 2)

    html = table.client.get(f"/gry/{game_id}/tabela").get_data(as_text=True)

    assert html.count('<th scope="col" class="sheet-mult">×3</th>') == 2
    assert '<th scope="row">Kolumna × mnożnik</th>' in html
    # The log: the points after a colon („×3 50” read as 350); the undo button: what they added.
    assert re.search(r'<span class="log-main">Ala – Generał ×3: 50\s*</span>', html)
    assert "Ala – Generał ×3: 50, do wyniku +150" in html
    assert "×3 50" not in html


def test_the_log_strikes_through_corrected_turns(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "66612", "sixes")
    table.post(f"/gry/{game_id}/cofnij", {"seq": "2"})
    table.write(game_id, "66612", "three_of_a_kind")

    html = table.client.get(f"/gry/{game_id}/tabela").get_data(as_text=True)

    log = html.split("Historia ruchów", 1)[1]
    assert '<s>Ala – Szóstki 18</s> <span class="tag tag-undone">cofnięty</span>' in log
    assert "Ala – Trzy jednakowe 21" in log
    assert log.index("Trzy jednakowe") < log.index("Szóstki")  # newest first
    assert "6-6-6-1-2" in log


# --- the end, the rematch, deleting ------------------------------------------------------


def test_the_end_shows_the_winner_the_ranking_and_the_sheets(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    ola_turns = [("11112" if f == "chance" else d, f) for d, f in FULL_SHEET]
    table.play_through(game_id, [FULL_SHEET, ola_turns])

    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)

    game = TableGame.replay(
        TABLE_VARIANTS["standard"],
        2,
        [
            (parse_dice(d), f, 0)
            for pair in zip(FULL_SHEET, ola_turns, strict=True)
            for d, f in pair
        ],
    )
    assert game.winners == (0,)
    assert "Wygrywa Ala!" in html
    text = text_of(html)
    assert f"1. Ala {game.scores[0]}" in text
    assert f"2. Ola {game.scores[1]}" in text
    assert '<tr class="row-total">' in html
    assert "Rewanż" in html
    assert "Cofnij ostatni ruch" in html
    assert "zaczyna Ola" in text


def test_equal_totals_share_the_win(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.play_through(game_id, [FULL_SHEET, FULL_SHEET])

    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)

    assert "Remis: Ala i Ola" in html
    assert text_of(html).count(" 1. ") == 2


@pytest.mark.parametrize(
    ("sheets", "heading"),
    [
        ([FULL_SHEET] * 2, "Remis: Ala i Ola"),
        ([FULL_SHEET] * 4, "Remis – wszyscy po {total} pkt!"),
        ([FULL_SHEET] * 3 + [LOW_SHEET], "Remis na pierwszym miejscu – po {total} pkt"),
    ],
    ids=["two share it: named", "everyone", "three of four"],
)
def test_a_shared_win_of_three_or_more_is_not_a_heading_of_names(
    table: Table, sheets: list, heading: str
):
    names = ["Ala", "Ola", "Ela", "Jan"][: len(sheets)]
    game_id = table.new_game(names)
    table.play_through(game_id, sheets)

    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)

    total = max(table.view(game_id).table.scores)
    found = re.search(r'<h1 id="winner" class="winner">(.*?)</h1>', html, re.S)
    assert found
    assert found.group(1).strip() == heading.format(total=total)
    winners = sum(1 for sheet in sheets if sheet is FULL_SHEET)
    assert text_of(html).count(" 1. ") == winners  # the standings name every winner


def test_undo_is_still_possible_after_the_end(table: Table):
    game_id = table.new_game(["Ala"])
    table.play_through(game_id, [FULL_SHEET])

    table.post(f"/gry/{game_id}/cofnij", {"seq": "14"})

    html = table.client.get(f"/gry/{game_id}?dice=65432").get_data(as_text=True)
    assert '<h1 class="turn-name">Ala</h1>' in html
    assert "Kolejka 13 z 13" in html


def test_rematch_keeps_players_and_variant_and_the_next_player_starts(table: Table):
    game_id = table.new_game(["Ala", "Ola", "Ela"], "ordered", bonus_threshold="42")
    table.play_through(game_id, [FULL_SHEET] * 3)

    response = table.post(f"/gry/{game_id}/rewanz")

    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert new_id != game_id
    view = table.view(new_id)
    assert view.names == ["Ola", "Ela", "Ala"]
    assert view.variant.id == "ordered"
    assert view.options.bonus_threshold == 42
    assert "Rewanż! Zaczyna Ola." in table.client.get(f"/gry/{new_id}").get_data(as_text=True)


def test_rematch_of_an_unfinished_game_is_explained(table: Table):
    game_id = table.new_game(["Ala"])

    response = table.post(f"/gry/{game_id}/rewanz")

    assert response.status_code == 303
    html = table.client.get(f"/gry/{game_id}").get_data(as_text=True)
    assert "Rewanż można zagrać po zakończeniu gry." in html


def test_delete_asks_first_then_removes_the_game(table: Table):
    game_id = table.new_game(["Ala", "Ola"])

    confirm = table.client.get(f"/gry/{game_id}/usun")

    html = confirm.get_data(as_text=True)
    assert confirm.status_code == 200
    assert "Usunąć grę?" in html
    assert "Tak, usuń grę" in html
    assert table.client.get(f"/gry/{game_id}").status_code == 200  # nothing deleted by a GET

    deleted = table.post(f"/gry/{game_id}/usun")

    assert deleted.status_code == 303
    assert deleted.headers["Location"] == "/"
    assert "Usunięto grę" in table.client.get("/").get_data(as_text=True)
    assert table.client.get(f"/gry/{game_id}").status_code == 404


def test_delete_without_the_csrf_token_is_refused(table: Table):
    game_id = table.new_game(["Ala"])

    response = table.client.post(f"/gry/{game_id}/usun")

    assert response.status_code == 400
    assert table.client.get(f"/gry/{game_id}").status_code == 200


# --- players -----------------------------------------------------------------------------


def _player_id(table: Table, name: str) -> int:
    with table.app.app_context():
        return next(p.id for p in players.list_players(table.account_id) if p.name == name)


def test_players_page_lists_the_accounts_players(table: Table):
    table.new_game(["Ola", "Ala"])

    html = table.client.get("/gracze").get_data(as_text=True)

    assert html.index('value="Ala"') < html.index('value="Ola"')
    assert 'maxlength="120"' in html  # the browser's guard; the service counts characters


def test_renaming_a_player_keeps_the_results(table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "33322", "full_house")
    ala = _player_id(table, "Ala")

    response = table.post(f"/gracze/{ala}", {f"p{ala}-name": "  Alicja   Nowak "})

    assert response.status_code == 303
    assert "Zmieniono imię: Ala → Alicja Nowak. Wyniki zostają." in table.client.get(
        "/gracze"
    ).get_data(as_text=True)
    view = table.view(game_id)
    assert view.names == ["Alicja Nowak", "Ola"]
    assert view.table.scores[0] == 25


@pytest.mark.parametrize(
    ("new_name", "message"),
    [
        pytest.param("", "Podaj imię gracza.", id="empty"),
        pytest.param("Ż" * 31, "Imię gracza może mieć najwyżej 30 znaków.", id="31-chars"),
        pytest.param("OLA", "Inny gracz ma już takie imię.", id="same-ignoring-case"),
    ],
)
def test_rename_errors_are_shown_next_to_the_field(table: Table, new_name: str, message: str):
    table.new_game(["Ala", "Ola"])
    ala = _player_id(table, "Ala")

    response = table.post(f"/gracze/{ala}", {f"p{ala}-name": new_name})

    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f'<p class="error" id="p{ala}-name-error">{message}</p>' in html
    assert f'value="{new_name}"' in html or not new_name
    assert table.view(1).names == ["Ala", "Ola"]


def test_polish_letters_are_fine_in_names(table: Table):
    game_id = table.new_game(["Łucja", "Źdźisław"])
    lucja = _player_id(table, "Łucja")

    table.post(f"/gracze/{lucja}", {f"p{lucja}-name": "Łucja Żółć"})

    assert table.view(game_id).names == ["Łucja Żółć", "Źdźisław"]


# --- another account's data ------------------------------------------------------------


def test_another_account_gets_404_for_every_page_and_post(app: Flask, table: Table):
    game_id = table.new_game(["Ala", "Ola"])
    table.write(game_id, "33322", "full_house")
    ala = _player_id(table, "Ala")

    other = app.test_client()
    assert sign_up(other, "Nowakowie").status_code == 302
    token = page_csrf(other)
    gets = [
        f"/gry/{game_id}",
        f"/gry/{game_id}?dice=66666",
        f"/gry/{game_id}?dice=66666&fragment=fields&seq=2",
        f"/gry/{game_id}/tabela",
        f"/gry/{game_id}/usun",
    ]
    posts = [
        (f"/gry/{game_id}/ruch", {"dice": "66666", "field": "chance", "seq": "2"}),
        (f"/gry/{game_id}/cofnij", {"seq": "2"}),
        (f"/gry/{game_id}/usun", {}),
        (f"/gry/{game_id}/rewanz", {}),
        (f"/gracze/{ala}", {f"p{ala}-name": "Intruz"}),
    ]
    for url in gets:
        assert other.get(url).status_code == 404, url
    for url, data in posts:
        response = other.post(url, data={"csrf_token": token, **data})
        assert response.status_code == 404, url
        assert "Nie ma takiej" in response.get_data(as_text=True)
    assert "Ala" not in other.get("/gracze").get_data(as_text=True)
    assert "Ala" not in other.get("/").get_data(as_text=True)

    view = table.view(game_id)
    assert view.names == ["Ala", "Ola"]
    assert len(view.turns) == 1
    with app.app_context():
        from tracker.extensions import db

        assert db.session.query(Turn).count() == 1


def test_the_live_state_polled_with_a_weakened_etag_answers_304(table: Table):
    # live.js polls /stan with If-None-Match; behind a compressing proxy the ETag is W/"…".
    game_id = table.new_game(["Ala", "Ola"])
    etag = table.client.get(f"/gry/{game_id}/stan").headers["ETag"]

    again = table.client.get(f"/gry/{game_id}/stan", headers={"If-None-Match": f"W/{etag}"})

    assert again.status_code == 304
