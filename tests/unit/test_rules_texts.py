"""The rules' sentences as `Text`: each template is formatted with exactly the values it names,
and `str()` is the Polish sentence the rules always said (tracker/rules/text.py)."""

from __future__ import annotations

import re
from itertools import islice

import pytest

from tracker.rules import (
    TABLE_VARIANTS,
    Hand,
    MoveRefused,
    RulesError,
    Text,
    evaluate,
    explain_text,
    find_table_variant,
    parse_dice,
    parse_sheet,
    play,
    rank,
)
from tracker.rules.dice import all_rolls
from tracker.rules_text import points_text

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

SHEETS = {
    "standard": [None, {"five_of_a_kind": 50, "sixes": 30}, {"five_of_a_kind": 0}],
    "ordered": [None, {"ones": 3, "twos": 6}],
    "scandinavian": [None, {"sixes": 24}],
    "triple": [
        None,
        [{"five_of_a_kind": 50, "sixes": 24}, {"five_of_a_kind": 50}, {"five_of_a_kind": 50}],
        [{"five_of_a_kind": 50}, {}, {}],
    ],
}


def nested(text: Text):
    yield text
    for _, value in text.params:
        if isinstance(value, Text):
            yield from nested(value)


def texts_of_the_rules():
    """Every reason and note of every roll on a few sheets of every variant, and the poker
    explanations of a sample of pairs of hands."""
    for variant_id, sheets in SHEETS.items():
        variant = find_table_variant(variant_id)
        for raw in sheets:
            sheet = parse_sheet(variant, raw)
            for dice in all_rolls():
                evaluation = evaluate(variant, sheet, dice)
                yield from evaluation.note_texts
                for p in evaluation.placements:
                    yield from (t for t in (p.reason_text, p.note_text) if t is not None)
    rolls = all_rolls()
    for a in islice(rolls, 0, None, 7):
        for b in islice(rolls, 3, None, 11):
            yield explain_text(a, b)


def test_every_text_names_exactly_the_values_its_template_uses():
    seen = set()
    for text in texts_of_the_rules():
        for part in nested(text):
            if part in seen:
                continue
            seen.add(part)
            assert set(PLACEHOLDER.findall(part.template)) == {k for k, _ in part.params}, part
            # Formatting with a "translation" that keeps the placeholders never fails.
            assert part.format(lambda template: f"<{template}>")
    assert len(seen) > 100


def test_a_text_is_translated_template_by_template_and_lowered_after():
    label = Text("Ful").lowered()
    text = Text("Pole %(field)s jest już wypełnione.", field=label)
    english = {
        "Pole %(field)s jest już wypełnione.": "Field %(field)s is already filled.",
        "Ful": "Full house",
    }

    assert str(text) == "Pole ful jest już wypełnione."
    assert text.format(english.__getitem__) == "Field full house is already filled."
    assert text == Text("Pole %(field)s jest już wypełnione.", field=Text("Ful").lowered())
    assert len({text, Text("Pole %(field)s jest już wypełnione.", field=label)}) == 1


def refusal(variant: str, raw_sheet, dice: str, field: str, column: int = 0) -> RulesError:
    v = find_table_variant(variant)
    with pytest.raises(RulesError) as caught:
        play(v, parse_sheet(v, raw_sheet), parse_dice(dice), field, column)
    return caught.value


def placement_of(variant: str, raw_sheet, dice: str, field: str, column: int = 0):
    v = find_table_variant(variant)
    found = evaluate(v, parse_sheet(v, raw_sheet), parse_dice(dice)).find(field, column)
    assert found is not None
    return found


def dice_error(raw) -> RulesError:
    with pytest.raises(RulesError) as caught:
        parse_dice(raw)
    return caught.value


@pytest.mark.parametrize(
    ("text", "polish"),
    [
        pytest.param(
            lambda: refusal("standard", {"full_house": 25}, "22333", "full_house").text,
            "Pole Ful jest już wypełnione.",
            id="field filled",
        ),
        pytest.param(
            lambda: (
                placement_of(
                    "standard", {"five_of_a_kind": 50, "sixes": 30}, "66666", "ones"
                ).reason_text
            ),
            "Joker musi trafić do wolnego pola dolnej części; górną część można skreślić "
            "dopiero, gdy dolna jest pełna.",
            id="joker must go lower",
        ),
        pytest.param(
            lambda: placement_of("ordered", None, "11111", "twos").reason_text,
            "Gra po kolei: teraz wpisujesz do pola Jedynki.",
            id="not next in order",
        ),
        pytest.param(
            lambda: dice_error("1234").text,
            "Potrzeba dokładnie pięciu kości, podano 4.",
            id="four dice",
        ),
        pytest.param(
            lambda: dice_error([1, 2, 3, 4, 7]).text,
            "Kość ma oczka od 1 do 6, a nie 7.",
            id="a die of 7",
        ),
        pytest.param(
            lambda: dice_error([1, 2, 3, 4, "x"]).text,
            "Kość musi być liczbą całkowitą od 1 do 6, a nie 'x'.",
            id="a die that is no number",
        ),
        pytest.param(
            lambda: placement_of("standard", None, "12346", "full_house").note_text,
            "Rzut tu nie pasuje: skreślasz pole (0).",
            id="crossing out",
        ),
        pytest.param(
            lambda: placement_of("standard", None, "55555", "full_house").note_text,
            "Pięć jednakowych to nie ful: jako zwykły rzut daje tu 0. Jokerem byłby dopiero, "
            "gdy pola Generał i Piątki są zajęte.",
            id="five of a kind not yet a joker",
        ),
        pytest.param(
            lambda: evaluate(
                find_table_variant("standard"),
                parse_sheet(find_table_variant("standard"), {"five_of_a_kind": 50}),
                parse_dice("44444"),
            ).note_texts[0],
            "+100: kolejny generał, bo w polu Generał jest 50 – premia należy się wszędzie, "
            "gdzie wpiszesz rzut, także za 0.",
            id="+100 note",
        ),
        pytest.param(
            lambda: evaluate(
                find_table_variant("triple"),
                parse_sheet(find_table_variant("triple"), [{"five_of_a_kind": 50}, {}, {}]),
                parse_dice("44444"),
            ).note_texts[0],
            "Bez premii +100: w kościach potrójnych premia należy się dopiero, gdy we "
            "wszystkich trzech polach Generał jest 50.",
            id="no +100 yet in triple",
        ),
        pytest.param(
            lambda: rank([parse_dice("55331"), parse_dice("55226")]).explanation_text,
            "5-5-3-3-1 wygrywa z 5-5-2-2-6: oba układy to dwie pary; wyższa para jest taka sama "
            "(piątki), więc decyduje niższa para: trójki są wyższe niż dwójki.",
            id="poker two pairs",
        ),
        pytest.param(
            lambda: rank([parse_dice("23456")] * 3).explanation_text,
            # A list as a sentence says it (CLDR's "a, b i c"), not "a i b i c".
            "Remis: 2-3-4-5-6, 2-3-4-5-6 i 2-3-4-5-6 to strit z tymi samymi kośćmi, "
            "więc nikt nie wygrywa rundy.",
            id="poker three-way tie",
        ),
        pytest.param(lambda: Hand.FULL_HOUSE.label_text, "Ful", id="poker hand name"),
    ],
)
def test_the_text_says_the_polish_sentence_the_rules_always_said(text, polish: str):
    assert str(text()) == polish


def test_an_error_keeps_its_code_and_gives_its_text_as_the_message():
    error = refusal("standard", {"full_house": 25}, "22333", "full_house")

    assert isinstance(error, MoveRefused)
    assert str(error) == str(error.text)
    assert error.text.template == "Pole %(field)s jest już wypełnione."


def test_every_variant_name_and_field_label_is_a_plain_marked_text():
    for variant in TABLE_VARIANTS.values():
        assert "%" not in variant.name
        for f in variant.table.fields:
            assert str(f.label_text) == f.label
            assert str(f.hint_text) == f.hint


@pytest.mark.parametrize(
    ("points", "extra_bonus", "text"),
    [
        (25, 0, "25"),
        (0, 0, "0"),
        (30, 100, "30 (+100)"),
        (0, 100, "0 (+100)"),
        ("25 pkt", 100, "25 pkt (+100)"),
    ],
)
def test_points_are_said_one_way_with_a_further_generals_bonus(
    points: object, extra_bonus: int, text: str
) -> None:
    assert points_text(points, extra_bonus) == text
