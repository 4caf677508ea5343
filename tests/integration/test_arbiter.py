"""The arbiter page /sedzia (Tabela) and /sedzia/poker: the form, the settled rules' decisions
about a single roll or a poker round as the page shows them, and every bad input shown next to
its control (never a 500). What the rules decide for every case of the tables is asked of them
directly in tests/unit/test_arbiter_decisions.py and tests/unit/test_score_decisions.py.

Assertions read the stable hooks the templates render (`data-field`, `data-column`,
`data-points`, `data-allowed`, `data-flag`, `data-total`, `data-place`...), not the layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient
from unit.arbiter_cases import CASES, GENERAL_50_SIXES, LOWER_FULL, Case

from tracker.i18n import LANGUAGE_COOKIE
from tracker.rules import STANDARD

# These endpoints write nothing: one app for the module.
pytestmark = [
    pytest.mark.shared_app,
    pytest.mark.one_backend("the referee is stateless: it stores nothing"),
]

TABLE = "/sedzia"
POKER = "/sedzia/poker"

VOID_TAGS = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
UPPER_63 = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}


# --- reading the page ---------------------------------------------------------------------


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""


class _Collector(HTMLParser):
    """Every element that has `attribute`, with its attributes and its text (nested included)."""

    def __init__(self, attribute: str) -> None:
        super().__init__(convert_charrefs=True)
        self.attribute = attribute
        self.found: list[Element] = []
        self._open: list[tuple[Element | None, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        element = Element(tag, values) if self.attribute in values else None
        if element is not None:
            self.found.append(element)
        if tag not in VOID_TAGS:
            self._open.append((element, tag))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            _, open_tag = self._open.pop()
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        for element, _ in self._open:
            if element is not None:
                element.text += data


def elements(html: str, attribute: str) -> list[Element]:
    collector = _Collector(attribute)
    collector.feed(html)
    for element in collector.found:
        element.text = " ".join(element.text.split())
    return collector.found


@dataclass
class Page:
    html: str

    def rows(self) -> dict[tuple[int, str], Element]:
        """Result rows by (column, field)."""
        return {
            (int(e.attrs["data-column"]), e.attrs["data-field"]): e
            for e in elements(self.html, "data-field")
        }

    def row(self, field_id: str, column: int = 0) -> Element:
        return self.rows()[(column, field_id)]

    @property
    def flags(self) -> set[str]:
        return {e.attrs["data-flag"] for e in elements(self.html, "data-flag")}

    @property
    def roll_notes(self) -> str:
        return " ".join(e.text for e in elements(self.html, "data-roll-notes"))

    def totals(self) -> dict[tuple[str, str], int]:
        return {
            (e.attrs.get("data-column", "all"), e.attrs["data-total"]): int(e.text)
            for e in elements(self.html, "data-total")
        }

    def error(self, control: str) -> str | None:
        """The error shown next to a control (the element with id `<control>-error`)."""
        by_id = {e.attrs["id"]: e.text for e in elements(self.html, "id")}
        return by_id.get(f"{control}-error")

    def _options(self, name: str) -> list[Element]:
        start = self.html.index(f'<select id="{name}"')
        return elements(self.html[start : self.html.index("</select>", start)], "value")

    def options(self, name: str) -> list[tuple[str, str]]:
        """(value, text) of every option of the select called `name`."""
        return [(o.attrs["value"], o.text) for o in self._options(name)]

    def selected(self, name: str) -> str | None:
        """The selected option of the select called `name`."""
        return next((o.attrs["value"] for o in self._options(name) if "selected" in o.attrs), None)

    @property
    def has_results(self) -> bool:
        return 'id="wynik"' in self.html


def sheet_args(*columns: dict[str, int]) -> dict[str, str]:
    return {
        f"c{i}_{key}": str(value)
        for i, column in enumerate(columns)
        for key, value in column.items()
    }


def get_page(client: FlaskClient, url: str, **args: Any) -> Page:
    response = client.get(f"{url}?{urlencode(args)}" if args else url)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    return Page(response.get_data(as_text=True))


def get_table(client: FlaskClient, variant: str, dice: str, *sheet: dict[str, int], **args: Any):
    return get_page(client, TABLE, variant=variant, dice=dice, **sheet_args(*sheet), **args)


# --- Tabela: the page itself ------------------------------------------------------------


def test_table_tab_renders_a_get_form_with_the_dice_and_variants(client: FlaskClient):
    page = get_page(client, TABLE)

    assert '<a href="/sedzia" aria-current="page">Tabela</a>' in page.html
    assert '<a href="/sedzia/poker">Poker</a>' in page.html
    assert 'method="get"' in page.html
    assert 'name="dice"' in page.html
    assert 'inputmode="numeric"' in page.html
    assert 'pattern="[1-6]{5}"' in page.html
    assert '<label for="dice">Kości</label>' in page.html
    for variant in ("standard", "ordered", "scandinavian", "triple"):
        assert f'name="variant" value="{variant}"' in page.html
    assert "Pola już wypełnione" in page.html
    assert page.html.count('type="button" data-face=') == 6
    assert 'aria-label="Kość 6"' in page.html
    assert not page.has_results


def test_sheet_selects_offer_free_and_every_achievable_value(client: FlaskClient):
    page = get_page(client, TABLE)

    for f in STANDARD.fields:
        assert f'<label for="c0_{f.id}">{f.label}</label>' in page.html
    assert page.options("c0_five_of_a_kind") == [("", "wolne"), ("0", "0"), ("50", "50")]
    sixes = [value for value, _ in page.options("c0_sixes")]
    assert sixes == ["", "0", "6", "12", "18", "24", "30"]
    assert page.selected("c0_extra_bonus") == "0"
    assert '<option value="200">+200</option>' in page.html


def test_triple_has_three_labelled_columns_and_scandinavian_no_extra_bonus(client: FlaskClient):
    triple = get_page(client, TABLE, variant="triple")
    scandinavian = get_page(client, TABLE, variant="scandinavian")

    for multiplier in (1, 2, 3):
        assert f"<legend>Kolumna ×{multiplier}</legend>" in triple.html
    assert 'name="c2_chance"' in triple.html
    assert 'name="c2_extra_bonus"' in triple.html
    assert 'name="c0_two_pairs"' in scandinavian.html
    assert "extra_bonus" not in scandinavian.html


def test_entered_values_are_kept(client: FlaskClient):
    page = get_table(client, "ordered", "12345", {"ones": 3, "twos": 6}, bonus_threshold="42")

    assert page.selected("c0_ones") == "3"
    assert page.selected("c0_twos") == "6"
    assert page.selected("c0_threes") == ""
    assert 'value="12345"' in page.html
    assert 'name="variant" value="ordered" data-submit-on-change checked' in page.html
    assert 'name="bonus_threshold" value="42" data-submit-on-change checked' in page.html


# --- Tabela: the settled rules' decisions about a single roll -----------------------------


# Every case is asked of the rules in tests/unit/test_arbiter_decisions.py; the page renders
# these, one per kind of row: a joker with +100, fields refused, three columns.
ON_THE_PAGE = {
    "joker_with_general_50_earns_plus_100",
    "joker_must_go_to_the_lower_section",
    "triple_large_straight_in_column_3_is_420",
}
PAGE_CASES = [case for case in CASES if case.id in ON_THE_PAGE]


@pytest.mark.parametrize("case", PAGE_CASES, ids=lambda c: c.id)
def test_arbiter_shows_what_the_roll_scores(client: FlaskClient, case: Case):
    page = get_table(client, case.variant, case.dice, *case.sheet, **case.options)

    assert page.has_results
    assert page.flags == case.flags
    rows = page.rows()
    for (column, field_id), expect in case.rows.items():
        row = rows[(column, field_id)]
        where = f"{case.id}: column {column}, {field_id}"
        assert int(row.attrs["data-points"]) == expect.points, where
        assert row.attrs["data-allowed"] == ("true" if expect.allowed else "false"), where
        if expect.extra_bonus is not None:
            assert int(row.attrs["data-extra-bonus"]) == expect.extra_bonus, where
        if expect.gain is not None:
            assert int(row.attrs["data-gain"]) == expect.gain, where
        if expect.best is not None:
            assert row.attrs["data-best"] == ("true" if expect.best else "false"), where
        if expect.says is not None:
            assert expect.says in row.text, where
        if not expect.allowed:
            assert "nie wolno" in row.text, where
    for note in case.notes:
        assert note in page.roll_notes, case.id


def test_rows_keep_table_order_and_list_only_free_fields(client: FlaskClient):
    page = get_table(client, "standard", "33355", {"ones": 3, "chance": 20})

    fields = [f for (_, f) in page.rows()]
    assert fields == [f.id for f in STANDARD.fields if f.id not in ("ones", "chance")]


def test_every_upper_field_is_refused_for_a_joker_while_the_lower_has_room(client: FlaskClient):
    page = get_table(client, "standard", "66666", GENERAL_50_SIXES)

    rows = page.rows()
    upper = [rows[(0, f)] for f in ("ones", "twos", "threes", "fours", "fives")]
    assert all(r.attrs["data-allowed"] == "false" for r in upper)
    lower = [r for (_, f), r in rows.items() if f in LOWER_FULL]
    assert all(r.attrs["data-allowed"] == "true" for r in lower)


def test_results_are_a_labelled_region(client: FlaskClient):
    page = get_table(client, "standard", "66666")

    assert '<section class="results" id="wynik" aria-labelledby="wynik-heading">' in page.html
    assert '<h2 id="wynik-heading">' in page.html
    assert 'aria-label="6-6-6-6-6"' in page.html


# --- Tabela: totals -----------------------------------------------------------------------


def test_totals_of_the_sheet_as_entered(client: FlaskClient):
    page = get_table(client, "standard", "", {**UPPER_63, "chance": 20, "five_of_a_kind": 50})

    totals = page.totals()
    assert totals[("0", "upper")] == 63
    assert totals[("0", "upper_bonus")] == 35
    assert totals[("0", "lower")] == 70
    assert totals[("0", "extra_bonus")] == 0
    assert totals[("all", "overall")] == 168
    assert not page.has_results


def test_totals_use_the_ordered_threshold_42(client: FlaskClient):
    upper_42 = {"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 12}

    at_42 = get_table(client, "ordered", "", upper_42, bonus_threshold="42").totals()
    at_63 = get_table(client, "ordered", "", upper_42, bonus_threshold="63").totals()

    assert at_42[("0", "upper_bonus")] == 35
    assert at_63[("0", "upper_bonus")] == 0


def test_triple_totals_are_multiplied_per_column(client: FlaskClient):
    column = {**GENERAL_50_SIXES, "chance": 20}
    page = get_table(client, "triple", "", column, column, {**column, "extra_bonus": 100})

    totals = page.totals()
    assert [totals[(str(i), "total")] for i in range(3)] == [100, 200, 600]
    assert totals[("2", "extra_bonus")] == 100
    assert totals[("all", "overall")] == 900


# --- Tabela: errors next to their control, everything entered kept --------------------------


# The messages for other bad dice: tests/unit/test_score_decisions.py.
@pytest.mark.parametrize(
    ("dice", "message"),
    [("1237", "Potrzeba dokładnie pięciu kości, podano 4.")],
    ids=["four_dice"],
)
def test_bad_dice_are_shown_next_to_the_dice(client: FlaskClient, dice: str, message: str):
    page = get_table(client, "standard", dice, {"sixes": 18})

    assert page.error("dice") == message
    assert f'value="{dice}"' in page.html
    assert 'aria-invalid="true"' in page.html
    assert page.selected("c0_sixes") == "18"
    assert not page.has_results


def test_a_value_no_roll_gives_is_shown_next_to_its_select(client: FlaskClient):
    page = get_table(client, "standard", "66666", {"ones": 3, "sixes": 7})

    assert page.error("c0_sixes") == (
        "Żaden rzut nie daje 7 pkt w polu Szóstki: wybierz wartość z listy."
    )
    assert page.selected("c0_sixes") == "7"
    assert page.selected("c0_ones") == "3"
    assert '<details class="sheet-details" open>' in page.html
    assert not page.has_results


@pytest.mark.parametrize("value", ["abc", "-6", "6.0", "999999999999999999999"])
def test_nonsense_in_a_select_is_an_error_not_a_crash(client: FlaskClient, value: str):
    page = get_table(client, "standard", "66666", c0_sixes=value)

    assert page.error("c0_sixes") is not None
    assert not page.has_results


def test_ordered_gap_is_shown_next_to_the_empty_field(client: FlaskClient):
    page = get_table(client, "ordered", "12345", {"ones": 3, "threes": 9})

    assert page.error("c0_twos") == (
        "W grze po kolei pola wypełnia się w kolejności tabeli: pole Dwójki jest wolne, "
        "a dalsze są już wypełnione."
    )  # by its label only, not the API's key „Dwójki (twos)”
    assert page.selected("c0_threes") == "9"
    assert not page.has_results


def test_extra_bonus_without_a_general_of_50_is_shown_next_to_the_bonus(client: FlaskClient):
    page = get_table(client, "standard", "66666", {"five_of_a_kind": 0, "extra_bonus": 100})

    assert page.error("c0_extra_bonus") == "Premia za kolejne generały wymaga 50 w polu Generał."
    assert page.selected("c0_extra_bonus") == "100"
    assert not page.has_results


def test_triple_extra_bonus_needs_all_three_generals(client: FlaskClient):
    page = get_table(client, "triple", "66666", {"five_of_a_kind": 50}, {}, {"extra_bonus": 100})

    error = page.error("c2_extra_bonus")
    assert error is not None
    assert "we wszystkich kolumnach" in error


@pytest.mark.parametrize(
    ("args", "control"),
    [
        ({"variant": "yahtzee", "dice": "66666"}, "variant"),
        ({"variant": "poker", "dice": "66666"}, "variant"),
        ({"variant": "ordered", "bonus_threshold": "50", "dice": "66666"}, "bonus_threshold"),
        ({"dice": "66666", "c0_extra_bonus": "150"}, "c0_extra_bonus"),
    ],
    ids=["unknown_variant", "poker_has_no_table", "threshold_50", "bonus_150"],
)
def test_other_bad_choices_are_shown_next_to_their_control(
    client: FlaskClient, args: dict[str, str], control: str
):
    page = get_page(client, TABLE, **args)

    assert page.error(control)
    assert not page.has_results


def test_threshold_is_ignored_outside_gra_po_kolei(client: FlaskClient):
    page = get_table(client, "standard", "66666", bonus_threshold="50")

    assert page.error("bonus_threshold") is None
    assert page.has_results


# --- Poker --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    player: int
    place: int
    winner: bool
    shown: str
    hand: str
    name: str


def get_poker(client: FlaskClient, *hands: str | tuple[str, str], **args: Any) -> Page:
    query: dict[str, Any] = {"hands": len(hands), **args}
    for i, hand in enumerate(hands):
        name, dice = hand if isinstance(hand, tuple) else ("", hand)
        query[f"h{i}_name"] = name
        query[f"h{i}_dice"] = dice
    return get_page(client, POKER, **query)


def ranking(page: Page) -> list[Ranked]:
    return [
        Ranked(
            player=int(e.attrs["data-player"]),
            place=int(e.attrs["data-place"]),
            winner=e.attrs["data-winner"] == "true",
            shown=e.attrs["data-shown"],
            hand=e.attrs["data-hand-kind"],
            name=e.attrs["data-name"],
        )
        for e in elements(page.html, "data-player")
    ]


def verdict(page: Page) -> tuple[str, str]:
    (element,) = elements(page.html, "data-verdict")
    return element.attrs["data-verdict"], element.text


def explanation(page: Page) -> str:
    (element,) = elements(page.html, "data-explanation")
    return element.text


def test_poker_tab_renders_two_empty_hands(client: FlaskClient):
    page = get_page(client, POKER)

    assert '<a href="/sedzia/poker" aria-current="page">Poker</a>' in page.html
    assert 'name="h0_dice"' in page.html
    assert 'name="h1_dice"' in page.html
    assert 'name="h2_dice"' not in page.html.split("<template")[0]
    assert '<label for="h0_name">Imię</label>' in page.html
    assert '<label for="h1_dice">Kości</label>' in page.html
    assert 'placeholder="Gracz 2"' in page.html
    assert "Dodaj gracza" in page.html
    assert not page.has_results


# The other tie-breaks of the rulebook: tests/unit/test_arbiter_decisions.py.
@pytest.mark.parametrize(
    ("winner", "loser", "says"),
    [("55331", "55226", "5-5-3-3-1 wygrywa z 5-5-2-2-6")],
    ids=["two_pairs_lower_pair_decides"],
)
def test_poker_rulebook_tie_breaks(client: FlaskClient, winner: str, loser: str, says: str):
    page = get_poker(client, ("Ola", loser), ("Ala", winner))

    assert verdict(page) == ("win", "Wygrywa Ala")
    assert says in explanation(page)
    first, second = ranking(page)
    assert (first.player, first.place, first.winner, first.name) == (1, 1, True, "Ala")
    assert (second.player, second.place, second.winner) == (0, 2, False)


def test_poker_shows_the_hands_grouped_and_named(client: FlaskClient):
    page = get_poker(client, "13535", "62622")

    by_player = {r.player: r for r in ranking(page)}
    assert by_player[0].shown == "5-5-3-3-1"
    assert by_player[0].hand == "two_pairs"
    assert by_player[1].shown == "2-2-2-6-6"
    assert by_player[1].hand == "full_house"
    assert by_player[1].name == "Gracz 2"
    assert "Dwie pary" in page.html
    assert "Ful" in page.html


def test_poker_draw(client: FlaskClient):
    page = get_poker(client, ("Ala", "22446"), ("Ola", "44226"))

    kind, text = verdict(page)
    assert kind == "draw"
    assert text.startswith("Remis")
    assert text == "Remis Ala i Ola"
    assert explanation(page).startswith("Remis:")
    assert [(r.place, r.winner) for r in ranking(page)] == [(1, False), (1, False)]


def test_three_players_with_a_tie_for_best(client: FlaskClient):
    page = get_poker(client, ("Ala", "66622"), ("Ola", "22666"), ("Ela", "12345"))

    assert verdict(page) == ("draw", "Remis Ala i Ola")
    assert "nikt nie wygrywa rundy" in explanation(page)
    places = {r.name: r.place for r in ranking(page)}
    assert places == {"Ala": 1, "Ola": 1, "Ela": 3}


@pytest.mark.parametrize(
    ("language", "names", "hands"),
    [
        ("pl", "Remis Ala, Ola i Ela", "Remis: 6-6-6-2-2, 6-6-6-2-2 i 6-6-6-2-2 to ful"),
        ("en", "Tie Ala, Ola, and Ela", "Tie: 6-6-6-2-2, 6-6-6-2-2, and 6-6-6-2-2 are"),
    ],
)
def test_a_three_way_draw_lists_names_and_hands_as_a_sentence_does(
    client: FlaskClient, language: str, names: str, hands: str
):
    """ "Ala, Ola i Ela" (CLDR's list, as `and_list` says names everywhere), not "Ala i Ola i
    Ela"; the rules' explanation lists the tied hands the same way."""
    client.set_cookie(LANGUAGE_COOKIE, language)
    page = get_poker(client, ("Ala", "66622"), ("Ola", "22666"), ("Ela", "26626"), ("Ula", "12345"))

    assert verdict(page) == ("draw", names)
    assert explanation(page).startswith(hands)


def test_three_players_with_one_winner(client: FlaskClient):
    page = get_poker(client, "12346", "55553", "66552")

    assert verdict(page) == ("win", "Wygrywa Gracz 2")
    assert [r.player for r in ranking(page)] == [1, 2, 0]


def test_poker_bad_dice_are_shown_next_to_the_hand(client: FlaskClient):
    page = get_poker(client, ("Ala", "12345"), ("Ola", "1237"))

    assert page.error("h1_dice") == "Potrzeba dokładnie pięciu kości, podano 4."
    assert page.error("h0_dice") is None
    assert 'value="Ola"' in page.html
    assert 'value="1237"' in page.html
    assert not page.has_results


def test_poker_needs_two_hands(client: FlaskClient):
    page = get_poker(client, "12345", "")

    assert page.error("h1_dice") == "Podaj kości co najmniej dwóch graczy."
    assert not page.has_results


def test_poker_named_player_without_dice(client: FlaskClient):
    page = get_poker(client, "12345", "66666", ("Ela", ""))

    assert page.error("h2_dice") == "Podaj kości gracza Ela."


def test_poker_empty_rows_are_left_out(client: FlaskClient):
    page = get_poker(client, "12345", "", "66666")

    assert verdict(page) == ("win", "Wygrywa Gracz 3")
    assert len(ranking(page)) == 2


def test_add_player_without_javascript_adds_a_row_and_keeps_the_hands(client: FlaskClient):
    page = get_poker(client, ("Ala", "12345"), ("Ola", "66666"), add="1")

    assert 'name="h2_dice"' in page.html.split("<template")[0]
    assert 'value="Ala"' in page.html
    assert 'value="66666"' in page.html
    assert 'name="hands" value="3"' in page.html
    assert not page.has_results
    assert page.error("h2_dice") is None


@pytest.mark.parametrize(("hands", "rows"), [("1", 2), ("5", 5), ("99", 8), ("x", 2)])
def test_hand_count_is_kept_between_2_and_8(client: FlaskClient, hands: str, rows: int):
    page = get_page(client, POKER, hands=hands)

    form = page.html.split("<template")[0]
    assert form.count('data-hand="') == rows
    assert ("Dodaj gracza" in form) == (rows < 8)
