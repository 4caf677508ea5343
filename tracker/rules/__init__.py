"""The rules of Kości: pure Python, no Flask and no database.

Every caller (the turn screen's pencil marks, the JSON API, the arbiter page, the services that
write turns) asks `evaluate(variant, sheet, dice)` what a roll may score, and writes with `play`.
"""

from .dice import Dice, format_dice, is_five_of_a_kind, parse_dice
from .errors import MoveRefused, RulesError
from .game import TableGame, TurnRecord, places_of, winners_of
from .match import PokerMatch, PokerRound
from .moves import Evaluation, Placement, evaluate, extra_bonus_for, is_joker, play, replay
from .poker import Hand, HandValue, Ranking, classify, compare, explain, rank
from .sheet import (
    Column,
    ColumnTotals,
    Sheet,
    SheetTotals,
    UpperStatus,
    empty_sheet,
    extra_bonus_count,
    is_full,
    parse_sheet,
    sheet_totals,
    upper_status,
)
from .tables import SCANDINAVIAN, STANDARD, Field, Section, Table
from .variants import (
    POKER,
    TABLE_VARIANTS,
    VARIANT_NAMES,
    Options,
    PokerOptions,
    Variant,
    find_variant,
    parse_poker_options,
)

__all__ = [
    "POKER",
    "SCANDINAVIAN",
    "STANDARD",
    "TABLE_VARIANTS",
    "VARIANT_NAMES",
    "Column",
    "ColumnTotals",
    "Dice",
    "Evaluation",
    "Field",
    "Hand",
    "HandValue",
    "MoveRefused",
    "Options",
    "Placement",
    "PokerMatch",
    "PokerOptions",
    "PokerRound",
    "Ranking",
    "RulesError",
    "Section",
    "Sheet",
    "SheetTotals",
    "Table",
    "TableGame",
    "TurnRecord",
    "UpperStatus",
    "Variant",
    "classify",
    "compare",
    "empty_sheet",
    "evaluate",
    "explain",
    "extra_bonus_count",
    "extra_bonus_for",
    "find_variant",
    "format_dice",
    "is_five_of_a_kind",
    "is_full",
    "is_joker",
    "parse_dice",
    "parse_poker_options",
    "parse_sheet",
    "places_of",
    "play",
    "rank",
    "replay",
    "sheet_totals",
    "upper_status",
    "winners_of",
]
