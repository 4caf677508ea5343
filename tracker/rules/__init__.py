"""The rules of Kości: pure Python, no Flask and no database.

Every caller (the turn screen's pencil marks, the JSON API, the arbiter page, the services that
write turns) asks `evaluate(variant, sheet, dice)` what a roll may score, and writes with `play`.
Whole games, table or poker, are a `GameState` (`start_game`, `restore_game`, `replay_game`):
play a turn, undo it, whose turn, who won, each seat's figures; an earlier turn is corrected
with `correct_turn` when that changes no later decision. Every variant, poker included,
is in one registry (`VARIANTS`, `find_variant`), and what the rules say carries a `Code`
beside its Polish sentence, which is also a `Text` the presentation layer translates
(`tracker.rules_text`).
"""

from .codes import Code
from .corrections import (
    Correction,
    CorrectionChoice,
    CorrectionRefused,
    Rescored,
    correct_turn,
    correction_choices,
)
from .dice import Dice, format_dice, is_five_of_a_kind, parse_dice
from .errors import MoveRefused, RulesError
from .game import TableGame
from .match import PokerMatch, PokerRound
from .moves import (
    Evaluation,
    Move,
    Placement,
    Verdict,
    allowed_moves,
    evaluate,
    extra_bonus_for,
    is_joker,
    judge_move,
    next_in_order,
    play,
    replay,
    write_move,
)
from .poker import Hand, HandValue, Ranking, classify, compare, explain, explain_text, rank
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
from .start import AnyOptions, Game, replay_game, restore_game, start_game
from .state import GameState, SeatFigures, TurnRecord, places_of, winners_of
from .tables import SCANDINAVIAN, STANDARD, Field, Misfit, Section, Table
from .text import Text
from .variants import (
    POKER,
    POKER_VARIANT,
    TABLE_VARIANTS,
    VARIANT_NAMES,
    VARIANTS,
    AnyVariant,
    Options,
    PokerOptions,
    PokerVariant,
    Variant,
    find_table_variant,
    find_variant,
    parse_poker_options,
)

__all__ = [
    "POKER",
    "POKER_VARIANT",
    "SCANDINAVIAN",
    "STANDARD",
    "TABLE_VARIANTS",
    "VARIANTS",
    "VARIANT_NAMES",
    "AnyOptions",
    "AnyVariant",
    "Code",
    "Column",
    "ColumnTotals",
    "Correction",
    "CorrectionChoice",
    "CorrectionRefused",
    "Dice",
    "Evaluation",
    "Field",
    "Game",
    "GameState",
    "Hand",
    "HandValue",
    "Misfit",
    "Move",
    "MoveRefused",
    "Options",
    "Placement",
    "PokerMatch",
    "PokerOptions",
    "PokerRound",
    "PokerVariant",
    "Ranking",
    "Rescored",
    "RulesError",
    "SeatFigures",
    "Section",
    "Sheet",
    "SheetTotals",
    "Table",
    "TableGame",
    "Text",
    "TurnRecord",
    "UpperStatus",
    "Variant",
    "Verdict",
    "allowed_moves",
    "classify",
    "compare",
    "correct_turn",
    "correction_choices",
    "empty_sheet",
    "evaluate",
    "explain",
    "explain_text",
    "extra_bonus_count",
    "extra_bonus_for",
    "find_table_variant",
    "find_variant",
    "format_dice",
    "is_five_of_a_kind",
    "is_full",
    "is_joker",
    "judge_move",
    "next_in_order",
    "parse_dice",
    "parse_poker_options",
    "parse_sheet",
    "places_of",
    "play",
    "rank",
    "replay",
    "replay_game",
    "restore_game",
    "sheet_totals",
    "start_game",
    "upper_status",
    "winners_of",
    "write_move",
]
