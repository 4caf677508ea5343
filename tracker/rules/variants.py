"""Variants as data: which table, how many columns with which multipliers, and a few switches.

The poker variant has no table; it is a variant all the same (`PokerVariant`), so that every
variant id, name, kind and player limit is known in one registry (`VARIANTS`, `find_variant`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Literal

from .codes import Code
from .errors import RulesError
from .tables import SCANDINAVIAN, STANDARD, Table
from .text import N_, Text

DEFAULT_BONUS_THRESHOLD = 63
POKER = "poker"  # the poker variant's id
MAX_PLAYERS = 8
DEFAULT_TARGET_WINS = 3
TARGET_WINS_RANGE = range(1, 10)


@dataclass(frozen=True)
class Options:
    """Options agreed before a table game. Only `ordered` may lower the bonus threshold to 42."""

    bonus_threshold: int = DEFAULT_BONUS_THRESHOLD

    def as_dict(self) -> dict[str, int]:
        return {"bonus_threshold": self.bonus_threshold}


@dataclass(frozen=True)
class PokerOptions:
    target_wins: int = DEFAULT_TARGET_WINS

    def as_dict(self) -> dict[str, int]:
        return {"target_wins": self.target_wins}


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    table: Table
    multipliers: tuple[int, ...] = (1,)
    # Gra po kolei: each turn writes the next free field in table order.
    fixed_order: bool = False
    # Scandinavian: "Kolejne generały nie dają premii i nie są jokerami."
    joker: bool = True
    extra_bonus: int = 100
    bonus_thresholds: tuple[int, ...] = (DEFAULT_BONUS_THRESHOLD,)
    kind: Literal["table"] = "table"
    min_players: int = 1
    max_players: int = MAX_PLAYERS

    # Asked a dozen times a turn (whether the game is over, whose turn it is): worked out once.
    @cached_property
    def columns(self) -> int:
        return len(self.multipliers)

    @property
    def max_total(self) -> int:
        """The best total without extra Generał bonuses: every field at its maximum, the upper
        bonus in every column, each column times its multiplier (375 on the standard table)."""
        table = self.table
        column = sum(table.max_points.values()) + table.upper_bonus
        return column * sum(self.multipliers)

    def check_players(self, count: int) -> None:
        """RulesError unless `count` players may sit at a table of this variant."""
        _check_players(self, count)

    @cached_property
    def turns(self) -> int:
        """Turns per player: every field of every column once."""
        return len(self.table.fields) * self.columns

    def parse_options(self, raw: object = None) -> Options:
        """Validate options sent by a client.

        `bonus_threshold` must be 63 or 42. Only a variant that offers a lower threshold
        (`ordered`, as the rulebook says: "Część graczy obniża wtedy próg premii do 42") applies
        it; the other table variants keep 63 and report the options actually in force.
        """
        if raw is None:
            return Options()
        if not isinstance(raw, Mapping):
            raise _bad_options(Text(N_('Opcje podaj jako obiekt, np. {"bonus_threshold": 42}.')))
        unknown = sorted(set(raw) - {"bonus_threshold"})
        if unknown:
            raise _bad_options(
                Text(
                    N_("Nieznana opcja dla wariantu %(variant)s: %(options)s."),
                    variant=self.id,
                    options=", ".join(unknown),
                )
            )
        threshold = raw.get("bonus_threshold", DEFAULT_BONUS_THRESHOLD)
        # 42.0 == 42, but a threshold is a whole number of points: reject floats, as target_wins.
        if (
            isinstance(threshold, bool)
            or not isinstance(threshold, int)
            or threshold not in (63, 42)
        ):
            raise _bad_options(Text(N_("Próg premii (bonus_threshold) może wynosić 63 albo 42.")))
        if threshold not in self.bonus_thresholds:
            return Options()
        return Options(bonus_threshold=threshold)


STANDARD_VARIANT = Variant("standard", N_("Kości (tabela polska)"), STANDARD)
ORDERED = Variant(
    "ordered",
    N_("Gra po kolei"),
    STANDARD,
    fixed_order=True,
    bonus_thresholds=(63, 42),
)
SCANDINAVIAN_VARIANT = Variant(
    "scandinavian", N_("Tabela skandynawska"), SCANDINAVIAN, joker=False, extra_bonus=0
)
TRIPLE = Variant("triple", N_("Kości potrójne"), STANDARD, multipliers=(1, 2, 3))


@dataclass(frozen=True)
class PokerVariant:
    """Poker kościany bez tabeli: hands compared in rounds, to `target_wins` round wins."""

    id: str = POKER
    name: str = N_("Poker kościany bez tabeli")
    kind: Literal["poker"] = "poker"
    min_players: int = 2  # a round is won against someone
    max_players: int = MAX_PLAYERS
    turns: None = None  # no table: a match has no fixed number of turns

    def parse_options(self, raw: object = None) -> PokerOptions:
        return parse_poker_options(raw)

    def check_players(self, count: int) -> None:
        """RulesError unless `count` players may sit at a table of this variant."""
        _check_players(self, count)


AnyVariant = Variant | PokerVariant

POKER_VARIANT = PokerVariant()

# Every variant, in the order players are offered them.
VARIANTS: Mapping[str, AnyVariant] = MappingProxyType(
    {v.id: v for v in (STANDARD_VARIANT, ORDERED, SCANDINAVIAN_VARIANT, TRIPLE, POKER_VARIANT)}
)

TABLE_VARIANTS: dict[str, Variant] = {v.id: v for v in VARIANTS.values() if isinstance(v, Variant)}

VARIANT_NAMES: dict[str, str] = {v.id: v.name for v in VARIANTS.values()}


def _unknown_variant(variant_id: object, known: Iterable[str]) -> RulesError:
    """The refusal of an unknown variant, naming the variants the caller accepts."""
    return RulesError(
        Text(
            N_("Nieznany wariant %(variant)s. Znane warianty: %(known)s."),
            variant=repr(variant_id),
            known=", ".join(known),
        ),
        Code.UNKNOWN_VARIANT,
    )


def find_variant(variant_id: object) -> AnyVariant:
    """The variant with this id (poker included); RulesError (a ValueError) for anything else,
    naming every variant a game may be started in, poker too."""
    if not isinstance(variant_id, str) or variant_id not in VARIANTS:
        raise _unknown_variant(variant_id, VARIANTS)
    return VARIANTS[variant_id]


def find_table_variant(variant_id: object) -> Variant:
    """The table variant with this id; RulesError for poker (it has no table) and the rest
    (naming only the table variants: poker is no answer where a table is asked for)."""
    if not isinstance(variant_id, str) or variant_id not in VARIANTS:
        raise _unknown_variant(variant_id, TABLE_VARIANTS)
    variant = VARIANTS[variant_id]
    if not isinstance(variant, Variant):
        raise RulesError(
            Text(N_("Poker kościany nie ma tabeli: układy porównuje się w rundach.")),
            Code.NO_TABLE_IN_POKER,
        )
    return variant


def _bad_options(text: Text) -> RulesError:
    return RulesError(text, Code.BAD_OPTIONS)


def _check_players(variant: AnyVariant, count: int) -> None:
    if isinstance(count, bool) or not variant.min_players <= count <= variant.max_players:
        raise RulesError(
            Text(
                N_("Przy stole siedzi od %(least)d do %(most)d graczy."),
                least=variant.min_players,
                most=variant.max_players,
            ),
            Code.PLAYER_COUNT,
        )


def parse_poker_options(raw: object = None) -> PokerOptions:
    if raw is None:
        return PokerOptions()
    if not isinstance(raw, Mapping):
        raise _bad_options(Text(N_('Opcje podaj jako obiekt, np. {"target_wins": 3}.')))
    unknown = sorted(set(raw) - {"target_wins"})
    if unknown:
        raise _bad_options(
            Text(N_("Nieznana opcja pokera: %(options)s."), options=", ".join(unknown))
        )
    target = raw.get("target_wins", DEFAULT_TARGET_WINS)
    if isinstance(target, bool) or not isinstance(target, int) or target not in TARGET_WINS_RANGE:
        raise _bad_options(Text(N_("Liczba wygranych rund (target_wins) musi być od 1 do 9.")))
    return PokerOptions(target_wins=target)
