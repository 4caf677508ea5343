"""The rules page /zasady: every variant, the tables from the rules core, and the decisions of
the settled rules a player needs to know (joker, +100, 42, shared places, maxima)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tracker.rules import SCANDINAVIAN, STANDARD, VARIANT_NAMES, VARIANTS, Hand
from tracker.services import games

# The page writes nothing: one app for the module (tests/integration/conftest.py).
pytestmark = [pytest.mark.shared_app, pytest.mark.one_backend("the rules page: stateless")]


@pytest.fixture
def page(client: FlaskClient) -> str:
    response = client.get("/zasady")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def text_of(html: str) -> str:
    """The page as a reader sees it: no tags, one space between words, plain dashes."""
    inline_joined = re.sub(r"</?(?:a|strong|span)\b[^>]*>", "", html)
    without_tags = re.sub(r"<[^>]+>", " ", inline_joined).replace("\u2011", "-")
    return re.sub(r"\s+", " ", without_tags)


@pytest.mark.parametrize("variant", list(VARIANT_NAMES))
def test_rules_page_names_every_variant(page: str, variant: str):
    assert VARIANT_NAMES[variant] in page


@pytest.mark.parametrize("table", [STANDARD, SCANDINAVIAN], ids=lambda t: t.id)
def test_rules_page_shows_the_fields_of_each_table_from_the_code(page: str, table):
    for field in table.fields:
        assert f'<th scope="row">{field.label}</th>' in page
        assert field.hint.replace("-", "\u2011") in page
    assert f"+{table.upper_bonus}, gdy górna część daje co najmniej 63" in page


@pytest.mark.parametrize(
    "decision",
    [
        pytest.param("co najmniej 63, dostajesz +35", id="upper bonus 35 at 63"),
        pytest.param("+100 premii", id="extra Generał bonus"),
        pytest.param("także gdy wpiszesz go za 0", id="extra bonus also when written as 0"),
        pytest.param("rozstrzyga stan tabeli, a nie historia rzutów", id="state of the sheet"),
        pytest.param("Generał jest jokerem tylko wtedy", id="joker condition"),
        pytest.param("pole Generał (50 albo 0)", id="joker with Generał 50 or 0"),
        pytest.param("ful 25, mały strit 30, duży strit 40", id="joker scores"),
        pytest.param("Jokera wpisujesz w wolne pole dolnej części", id="joker placement"),
        pytest.param("za 0 w wolne pole górnej części", id="joker to upper as 0"),
        pytest.param("nie jest jokerem", id="non-joker five of a kind"),
        pytest.param("to zwykły rzut", id="non-joker five of a kind is an ordinary roll"),
        pytest.param("następne wolne pole", id="ordered: next free field"),
        pytest.param("próg premii 42 zamiast 63", id="42 option"),
        pytest.param("próg 42 obowiązuje tylko w grze po kolei", id="42 only in ordered"),
        pytest.param("Premia za górną część przy 63 wynosi +50", id="scandinavian bonus 50"),
        pytest.param("Nie ma jokera ani premii za kolejne generały", id="scandinavian no joker"),
        pytest.param("kolumna 1 ×1, kolumna 2 ×2, kolumna 3 ×3", id="triple multipliers"),
        pytest.param("(40 + 100) × 3 = 420", id="triple 420 example"),
        pytest.param("we wszystkich trzech polach Generał jest 50", id="triple bonus condition"),
        pytest.param("2-3-4-5-6 wygrywa z 1-2-3-4-5", id="poker straight tie-break"),
        pytest.param("5-5-3-3-1 wygrywa z 5-5-2-2-6", id="poker two pairs tie-break"),
        pytest.param("5-5-5-2-2 wygrywa z 4-4-4-6-6", id="poker full house tie-break"),
        pytest.param("1, 1, 3", id="shared places"),
        pytest.param("dzielą się zwycięstwem", id="equal highest totals share the win"),
    ],
)
def test_rules_page_states_the_decisions(page: str, decision: str):
    assert decision in text_of(page)


@pytest.mark.parametrize(
    ("row", "maximum"),
    [
        ("Kości (tabela polska)", 375),
        ("Kości (tabela polska): generał w każdym z 13 ruchów", 1575),
        ("Gra po kolei", 375),
        ("Tabela skandynawska", 374),
        ("Kości potrójne", 2250),
    ],
)
def test_rules_page_lists_the_maxima(page: str, row: str, maximum: int):
    assert f"{row} {maximum}" in text_of(page)


def test_rules_page_says_how_many_players_a_game_seats(page: str):
    """The rulebook sets no upper limit ("Nie ma górnej granicy"); the app's limits are each
    variant's own (tracker.rules.variants: a table from 1, dice poker from 2, since a round is
    won against someone), said where the rules are, and are the new game form's."""
    text = text_of(page)
    assert (
        "Zasady nie ograniczają liczby graczy (najlepiej gra się we dwoje, troje albo czworo). "
        "Aplikacja prowadzi przy jednym stole:"
    ) in text
    assert (
        "Kości (tabela polska), Gra po kolei, Tabela skandynawska i Kości potrójne – "
        "od 1 do 8 graczy"
    ) in text
    assert "Poker kościany bez tabeli – od 2 do 8 graczy" in text
    assert "od 1 do 8 graczy. " not in text  # no sentence claims 1–8 for every variant
    assert [(v.min_players, v.max_players) for v in VARIANTS.values()] == [
        (1, 8),
        (1, 8),
        (1, 8),
        (1, 8),
        (2, 8),
    ]
    assert games.MAX_PLAYERS == 8


def test_rules_page_lists_poker_hands_from_best_to_worst(page: str):
    text = text_of(page)
    # Each label's first appearance after the list's heading, in order.
    start = text.index("Układy od najwyższego")
    positions = [text.index(hand.label, start) for hand in sorted(Hand, reverse=True)]
    assert positions == sorted(positions)


def test_rules_page_keeps_its_heading_and_a_table_of_contents(page: str):
    assert "<h1>Zasady</h1>" in page
    for anchor in ("warianty", "tabela", "joker", "po-kolei", "poker", "maksimum"):
        assert f'href="#{anchor}"' in page
        assert f'id="{anchor}"' in page


@pytest.mark.parametrize(
    ("label", "value"),
    [
        ("Kości (tabela polska)", "254,59"),
        ("Gra po kolei (premia od 63)", "130,29"),
        ("Gra po kolei (premia od 42)", "149,65"),
        ("Tabela skandynawska", "248,44"),
        ("Kości potrójne", "≈ 1696,92"),
    ],
)
def test_rules_page_gives_the_expected_score_of_an_empty_sheet(page: str, label, value):
    """From the shipped optimal-play tables; triple is the marked approximation
    (6 × 245,87 + 221,7 for the choice among three columns)."""
    assert f"{label} {value}" in text_of(page)


def test_rules_page_explains_optimal_play_and_its_limits(page: str):
    text = text_of(page)
    assert "oczekiwane punkty" in text
    assert "nie największa szansa pokonania innych graczy" in text
    assert "254,59" in text
    assert "245,87" in text
    # Kości's empty sheet is worth a little more than official Yahtzee's: a difference that
    # two decimals round away, so the check gives four.
    kosci = re.search(r"warta odrobinę więcej: (\d+),(\d{4})\.", text)
    assert kosci is not None
    assert 254.5877 < float(f"{kosci[1]}.{kosci[2]}") < 254.59
    # The variant's name is not declined, so it follows „wariant” („W Gra po kolei” is wrong).
    assert "W wariancie Gra po kolei pola nie wybiera się" in text
    assert "błąd" not in text.lower().split("optymalna gra, przegląd")[1]


def test_rules_page_says_what_the_review_of_gra_po_kolei_shows(page: str):
    """The review of an ordered game shows every move as the best choice with 0 expected points
    given away (the only move: tests/integration/test_review.py), beside the luck; the page
    must not claim it shows the luck alone."""
    text = text_of(page)
    assert "pokazuje tylko szczęście" not in text
    assert (
        "W wariancie Gra po kolei pola nie wybiera się: w przeglądzie każdy ruch jest najlepszym "
        "wyborem, oddanych punktów jest 0, a wynik od oczekiwanego różni tylko szczęście."
    ) in text
