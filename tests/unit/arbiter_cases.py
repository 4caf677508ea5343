"""The arbiter's table of single rolls (the settled rules' decisions), as data: what each free
field of each column scores, whether the rules allow it, and what the roll as a whole earns.

tests/unit/test_arbiter_decisions.py asks the rules for every case; tests/integration/
test_arbiter.py renders a few on the page /sedzia, which shows the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LOWER_FULL = {
    "three_of_a_kind": 0,
    "four_of_a_kind": 0,
    "full_house": 0,
    "small_straight": 0,
    "large_straight": 0,
    "chance": 0,
}
GENERAL_50_SIXES = {"five_of_a_kind": 50, "sixes": 30}


@dataclass(frozen=True)
class Expect:
    points: int
    allowed: bool = True
    extra_bonus: int | None = None
    gain: int | None = None
    best: bool | None = None
    says: str | None = None  # the field's note or the reason it is refused


@dataclass(frozen=True)
class Case:
    id: str
    variant: str
    dice: str
    sheet: tuple[dict[str, int], ...]
    rows: dict[tuple[int, str], Expect]
    flags: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)


REFUSED_UPPER = "Joker musi trafić do wolnego pola dolnej części"

CASES = [
    Case(
        "joker_with_general_50_earns_plus_100",
        "standard",
        "66666",
        (GENERAL_50_SIXES,),
        {
            (0, "full_house"): Expect(25, extra_bonus=100, gain=125, says="ful liczy się za 25"),
            (0, "small_straight"): Expect(30, extra_bonus=100),
            (0, "large_straight"): Expect(40, extra_bonus=100, gain=140, best=True),
            (0, "chance"): Expect(30, extra_bonus=100, best=False),
        },
        flags=frozenset({"joker", "extra-bonus"}),
        notes=("+100: kolejny generał", "Joker (6-6-6-6-6)"),
    ),
    Case(
        "joker_with_general_0_earns_no_plus_100",
        "standard",
        "66666",
        ({"five_of_a_kind": 0, "sixes": 30},),
        {
            (0, "full_house"): Expect(25, extra_bonus=0, gain=25),
            (0, "large_straight"): Expect(40, extra_bonus=0, gain=40),
        },
        flags=frozenset({"joker"}),
        notes=("Bez premii +100: premię daje tylko 50 w polu Generał, a tu jest 0.",),
    ),
    Case(
        "plus_100_also_when_written_as_0",
        "standard",
        "66666",
        ({"five_of_a_kind": 50},),
        {
            (0, "full_house"): Expect(0, extra_bonus=100, gain=100),
            (0, "ones"): Expect(0, extra_bonus=100, gain=100),
            (0, "sixes"): Expect(30, extra_bonus=100, gain=130),
        },
        flags=frozenset({"extra-bonus"}),
        notes=("także za 0", "To nie joker: pole Szóstki jest wolne"),
    ),
    Case(
        "five_sixes_with_sixes_free_are_no_joker_so_no_full_house",
        "standard",
        "66666",
        ({"five_of_a_kind": 0},),
        {
            (0, "full_house"): Expect(
                0,
                extra_bonus=0,
                says="Pięć jednakowych to nie ful: jako zwykły rzut daje tu 0. Jokerem byłby "
                "dopiero, gdy pola Generał i Szóstki są zajęte.",
            ),
            (0, "large_straight"): Expect(0),
            (0, "sixes"): Expect(30, best=True),
        },
        notes=("To nie joker",),
    ),
    Case(
        "joker_must_go_to_the_lower_section",
        "standard",
        "66666",
        ({"five_of_a_kind": 0, "sixes": 30},),
        {
            (0, "ones"): Expect(0, allowed=False, extra_bonus=0, says=REFUSED_UPPER),
            (0, "twos"): Expect(0, allowed=False),
            (0, "fives"): Expect(0, allowed=False),
            (0, "three_of_a_kind"): Expect(30),
        },
        flags=frozenset({"joker"}),
    ),
    Case(
        "lower_section_full_so_the_joker_goes_to_the_upper_as_0",
        "standard",
        "66666",
        ({**LOWER_FULL, **GENERAL_50_SIXES},),
        {
            (0, "ones"): Expect(0, extra_bonus=100, gain=100, says="Dolna część jest pełna"),
            (0, "fives"): Expect(0, extra_bonus=100),
        },
        flags=frozenset({"joker", "extra-bonus"}),
    ),
    Case(
        "ordered_only_the_next_field",
        "ordered",
        "33345",
        ({"ones": 3, "twos": 6},),
        {
            (0, "threes"): Expect(9, best=True),
            (0, "fours"): Expect(
                4, allowed=False, says="Gra po kolei: teraz wpisujesz do pola Trójki."
            ),
            (0, "chance"): Expect(18, allowed=False),
        },
    ),
    Case(
        "ordered_bonus_threshold_42",
        "ordered",
        "66662",
        ({"ones": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10},),
        {(0, "sixes"): Expect(24, gain=59)},
        options={"bonus_threshold": "42"},
    ),
    Case(
        "scandinavian_full_house_is_two_pairs_16",
        "scandinavian",
        "33355",
        ({},),
        {
            (0, "pair"): Expect(10),
            (0, "two_pairs"): Expect(16),
            (0, "three_of_a_kind"): Expect(9),
            (0, "full_house"): Expect(19),
        },
    ),
    Case(
        "scandinavian_small_straight_is_exactly_1_to_5",
        "scandinavian",
        "12345",
        ({},),
        {(0, "small_straight"): Expect(15), (0, "large_straight"): Expect(0)},
    ),
    Case(
        "scandinavian_2_to_6_is_no_small_straight",
        "scandinavian",
        "23456",
        ({},),
        {
            (0, "small_straight"): Expect(0, says="dokładnie 1-2-3-4-5"),
            (0, "large_straight"): Expect(20),
        },
    ),
    Case(
        "scandinavian_no_joker_and_no_plus_100",
        "scandinavian",
        "66666",
        (GENERAL_50_SIXES,),
        {
            (0, "full_house"): Expect(0, extra_bonus=0, says="generał nie jest jokerem"),
            (0, "ones"): Expect(0, allowed=True, extra_bonus=0),
            (0, "four_of_a_kind"): Expect(24),
        },
        notes=("nie dają premii i nie są jokerami",),
    ),
    Case(
        "triple_large_straight_in_column_3_is_420",
        "triple",
        "66666",
        (GENERAL_50_SIXES, GENERAL_50_SIXES, GENERAL_50_SIXES),
        {
            (2, "large_straight"): Expect(40, extra_bonus=100, gain=420, best=True),
            (1, "large_straight"): Expect(40, extra_bonus=100, gain=280, best=False),
            (0, "large_straight"): Expect(40, extra_bonus=100, gain=140),
            (2, "ones"): Expect(0, allowed=False, says=REFUSED_UPPER),
        },
        flags=frozenset({"joker", "extra-bonus"}),
        notes=("Premię mnoży się tak jak kolumnę",),
    ),
    Case(
        "triple_no_plus_100_while_a_general_is_0",
        "triple",
        "66666",
        (GENERAL_50_SIXES, GENERAL_50_SIXES, {"five_of_a_kind": 0, "sixes": 30}),
        {(2, "large_straight"): Expect(40, extra_bonus=0, gain=120)},
        flags=frozenset({"joker"}),
        notes=("Bez premii +100: premię daje tylko 50 w polu Generał we wszystkich kolumnach.",),
    ),
    Case(
        "triple_no_plus_100_or_joker_until_all_three_generals_are_filled",
        "triple",
        "66666",
        (GENERAL_50_SIXES, GENERAL_50_SIXES, {}),
        {
            (2, "five_of_a_kind"): Expect(50, extra_bonus=0, gain=150, best=True),
            (0, "full_house"): Expect(0, extra_bonus=0, says="we wszystkich trzech kolumnach"),
        },
        notes=("dopiero, gdy we wszystkich trzech polach Generał jest 50",),
    ),
]
