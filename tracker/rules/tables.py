"""Score tables as data: each field knows its section, its scorer and its joker score.

A table is a tuple of fields in the order printed on the paper sheet. Scorers take the five
dice and return the points an *ordinary* roll writes in the field (0 when it does not fit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from .codes import Code
from .dice import Dice, all_rolls, counts
from .text import N_, Text


class Section(StrEnum):
    UPPER = "upper"
    LOWER = "lower"


Scorer = Callable[[Dice], int]


@dataclass(frozen=True)
class Misfit:
    """A roll that looks as if it fits a field but writes 0 there, and the note that says why."""

    test: Callable[[Dice], bool]
    code: Code
    note: Text


@dataclass(frozen=True)
class Field:
    id: str
    label: str
    section: Section
    score: Scorer
    hint: str
    # Points a joker writes here; None: a joker scores as an ordinary roll (sum of the dice).
    joker_points: int | None = None
    face: int | None = None  # the face counted by an upper field
    # Rolls a player might expect to fit, when they write 0 here: the first that matches explains.
    misfits: tuple[Misfit, ...] = ()
    # The ordinary score of each roll met so far (a scorer is a pure function of the dice).
    _scores: dict[tuple[int, ...], int] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def label_text(self) -> Text:
        """The label, for a sentence that names the field (translated where shown)."""
        return Text(self.label)

    @property
    def hint_text(self) -> Text:
        """What the field scores, translatable (an upper field's hint names its face)."""
        if self.section is Section.UPPER and self.face is not None:
            return Text(UPPER_HINT, face=self.face)
        return Text(self.hint)

    def points(self, dice: Dice) -> int:
        """What an ordinary roll writes here (`score`), remembered per roll."""
        key = dice if type(dice) is tuple else tuple(dice)
        found = self._scores.get(key)
        if found is None:
            found = self._scores[key] = self.score(dice)
        return found


@dataclass(frozen=True)
class Table:
    id: str
    fields: tuple[Field, ...]
    upper_bonus: int
    by_id: dict[str, Field] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {f.id: f for f in self.fields})

    @cached_property
    def field_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.fields)

    @cached_property
    def upper_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.section is Section.UPPER)

    @cached_property
    def upper_ids(self) -> frozenset[str]:
        return frozenset(f.id for f in self.upper_fields)

    @cached_property
    def lower_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.section is Section.LOWER)

    @cached_property
    def achievable(self) -> dict[str, frozenset[int]]:
        """Every value a field can hold: ordinary scores of all 252 rolls, joker scores, 0."""
        result: dict[str, frozenset[int]] = {}
        for f in self.fields:
            values = {0} | {f.score(roll) for roll in all_rolls()}
            if f.joker_points is not None:
                values.add(f.joker_points)
            result[f.id] = frozenset(values)
        return result

    @cached_property
    def max_points(self) -> dict[str, int]:
        return {fid: max(values) for fid, values in self.achievable.items()}


# --- scorers ---------------------------------------------------------------------------


def _upper(face: int) -> Scorer:
    def score(dice: Dice) -> int:
        return face * dice.count(face)

    return score


def _sum_if_of_a_kind(n: int) -> Scorer:
    """Standard table: at least n equal dice score the sum of all five."""

    def score(dice: Dice) -> int:
        return sum(dice) if max(counts(dice).values()) >= n else 0

    return score


def _only_of_a_kind(n: int) -> Scorer:
    """Scandinavian table: only the n equal dice count ("liczą się tylko kości z układu")."""

    def score(dice: Dice) -> int:
        matches = [face for face, c in counts(dice).items() if c >= n]
        return n * max(matches) if matches else 0

    return score


def _is_full_house(dice: Dice) -> bool:
    # Exactly 3 + 2 of two different values: five of a kind is not a full house.
    return sorted(counts(dice).values()) == [2, 3]


def _fixed_if(points: int, test: Callable[[Dice], bool]) -> Scorer:
    def score(dice: Dice) -> int:
        return points if test(dice) else 0

    return score


def _has_small_straight(dice: Dice) -> bool:
    faces = set(dice)
    return any({a, a + 1, a + 2, a + 3} <= faces for a in (1, 2, 3))


def _has_large_straight(dice: Dice) -> bool:
    return set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def _five_of_a_kind(dice: Dice) -> bool:
    return len(set(dice)) == 1


def _exactly_four_of_a_kind(dice: Dice) -> bool:
    return max(counts(dice).values()) == 4


def _is_run(*faces: int) -> Callable[[Dice], bool]:
    def test(dice: Dice) -> bool:
        return sorted(dice) == list(faces)

    return test


def _never_a_joker(label: str) -> Misfit:
    """Scandinavian: "Kolejne generały nie dają premii i nie są jokerami." """
    return Misfit(
        _five_of_a_kind,
        Code.FIVE_NEVER_JOKER,
        Text(
            N_(
                "Pięć jednakowych to nie %(field)s; "
                "w tabeli skandynawskiej generał nie jest jokerem."
            ),
            field=Text(label).lowered(),
        ),
    )


def _chance(dice: Dice) -> int:
    return sum(dice)


def _pair(dice: Dice) -> int:
    pairs = [face for face, c in counts(dice).items() if c >= 2]
    return 2 * max(pairs) if pairs else 0


def _two_pairs(dice: Dice) -> int:
    # Two pairs of *different* values: 3-3-3-5-5 gives 16, four of a kind gives 0.
    pairs = sorted((face for face, c in counts(dice).items() if c >= 2), reverse=True)
    return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0


def _sum_if_full_house(dice: Dice) -> int:
    return sum(dice) if _is_full_house(dice) else 0


UPPER_HINT = N_("suma oczek na kościach z %(face)d")
_UPPER_LABELS = (
    ("ones", N_("Jedynki")),
    ("twos", N_("Dwójki")),
    ("threes", N_("Trójki")),
    ("fours", N_("Czwórki")),
    ("fives", N_("Piątki")),
    ("sixes", N_("Szóstki")),
)


def _upper_fields() -> tuple[Field, ...]:
    return tuple(
        Field(
            id=fid,
            label=label,
            section=Section.UPPER,
            score=_upper(face),
            hint=UPPER_HINT % {"face": face},
            face=face,
        )
        for face, (fid, label) in enumerate(_UPPER_LABELS, start=1)
    )


STANDARD = Table(
    id="standard",
    upper_bonus=35,
    fields=(
        *_upper_fields(),
        Field(
            "three_of_a_kind",
            N_("Trzy jednakowe"),
            Section.LOWER,
            _sum_if_of_a_kind(3),
            N_("co najmniej 3 jednakowe: suma wszystkich kości"),
        ),
        Field(
            "four_of_a_kind",
            N_("Cztery jednakowe"),
            Section.LOWER,
            _sum_if_of_a_kind(4),
            N_("co najmniej 4 jednakowe: suma wszystkich kości"),
        ),
        Field(
            "full_house",
            N_("Ful"),
            Section.LOWER,
            _fixed_if(25, _is_full_house),
            N_("3 jednakowe i 2 inne jednakowe: 25"),
            joker_points=25,
        ),
        Field(
            "small_straight",
            N_("Mały strit"),
            Section.LOWER,
            _fixed_if(30, _has_small_straight),
            N_("4 kolejne liczby: 30"),
            joker_points=30,
        ),
        Field(
            "large_straight",
            N_("Duży strit"),
            Section.LOWER,
            _fixed_if(40, _has_large_straight),
            N_("1-2-3-4-5 albo 2-3-4-5-6: 40"),
            joker_points=40,
        ),
        Field(
            "five_of_a_kind",
            N_("Generał"),
            Section.LOWER,
            _fixed_if(50, _five_of_a_kind),
            N_("5 jednakowych: 50"),
        ),
        Field(
            "chance",
            N_("Szansa"),
            Section.LOWER,
            _chance,
            N_("dowolny rzut: suma wszystkich kości"),
        ),
    ),
)

SCANDINAVIAN = Table(
    id="scandinavian",
    upper_bonus=50,
    fields=(
        *_upper_fields(),
        Field(
            "pair",
            N_("Para"),
            Section.LOWER,
            _pair,
            N_("najwyższa para: suma tych 2 kości"),
        ),
        Field(
            "two_pairs",
            N_("Dwie pary"),
            Section.LOWER,
            _two_pairs,
            N_("2 pary o różnych oczkach: suma tych 4 kości"),
            misfits=(
                Misfit(
                    _five_of_a_kind,
                    Code.FIVE_NOT_TWO_PAIRS,
                    Text(N_("Pięć jednakowych to nie dwie pary: pary muszą mieć różne oczka.")),
                ),
                Misfit(
                    _exactly_four_of_a_kind,
                    Code.FOUR_NOT_TWO_PAIRS,
                    Text(N_("Cztery jednakowe to nie dwie pary: pary muszą mieć różne oczka.")),
                ),
            ),
        ),
        Field(
            "three_of_a_kind",
            N_("Trzy jednakowe"),
            Section.LOWER,
            _only_of_a_kind(3),
            N_("3 jednakowe: suma tych 3 kości"),
        ),
        Field(
            "four_of_a_kind",
            N_("Cztery jednakowe"),
            Section.LOWER,
            _only_of_a_kind(4),
            N_("4 jednakowe: suma tych 4 kości"),
        ),
        Field(
            "small_straight",
            N_("Mały strit"),
            Section.LOWER,
            _fixed_if(15, _is_run(1, 2, 3, 4, 5)),
            N_("dokładnie 1-2-3-4-5: 15"),
            misfits=(
                _never_a_joker(N_("Mały strit")),
                Misfit(
                    _is_run(2, 3, 4, 5, 6),
                    Code.SMALL_STRAIGHT_EXACT,
                    Text(N_("Mały strit w tabeli skandynawskiej to dokładnie 1-2-3-4-5.")),
                ),
                # Four in a row (1-2-3-4-6, 3-4-5-6-6): the Polish table's small straight.
                Misfit(
                    _has_small_straight,
                    Code.SMALL_STRAIGHT_EXACT,
                    Text(
                        N_(
                            "Cztery kolejne to za mało: mały strit w tabeli skandynawskiej "
                            "to dokładnie 1-2-3-4-5."
                        )
                    ),
                ),
            ),
        ),
        Field(
            "large_straight",
            N_("Duży strit"),
            Section.LOWER,
            _fixed_if(20, _is_run(2, 3, 4, 5, 6)),
            N_("dokładnie 2-3-4-5-6: 20"),
            misfits=(
                _never_a_joker(N_("Duży strit")),
                Misfit(
                    _is_run(1, 2, 3, 4, 5),
                    Code.LARGE_STRAIGHT_EXACT,
                    Text(N_("Duży strit w tabeli skandynawskiej to dokładnie 2-3-4-5-6.")),
                ),
            ),
        ),
        Field(
            "full_house",
            N_("Ful"),
            Section.LOWER,
            _sum_if_full_house,
            N_("3 jednakowe i 2 inne jednakowe: suma wszystkich kości"),
            misfits=(_never_a_joker(N_("Ful")),),
        ),
        Field(
            "chance",
            N_("Szansa"),
            Section.LOWER,
            _chance,
            N_("dowolny rzut: suma wszystkich kości"),
        ),
        Field(
            "five_of_a_kind",
            N_("Generał"),
            Section.LOWER,
            _fixed_if(50, _five_of_a_kind),
            N_("5 jednakowych: 50"),
        ),
    ),
)

# Every field id any table knows, for telling "unknown field" from "not on this table".
ALL_FIELD_IDS = frozenset(STANDARD.field_ids) | frozenset(SCANDINAVIAN.field_ids)
