"""Stable codes for what the rules say: every refusal reason and note has one beside its text.

Callers decide on the code (`placement.note_code is Code.CROSSING_OUT`), never on the Polish
sentence, which may be reworded. A code's value is its name in lower case, safe to send in JSON.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    # --- refusals: a well-formed move the rules forbid (MoveRefused, Placement.reason_code) ---
    FIELD_FILLED = "field_filled"  # "Pole Ful jest już wypełnione."
    NOT_NEXT_IN_ORDER = "not_next_in_order"  # Gra po kolei: another field is next
    JOKER_MUST_GO_LOWER = "joker_must_go_lower"  # a joker while a lower field is free
    GAME_OVER = "game_over"  # every sheet is full / the match has a winner
    # a correction of an earlier turn (CorrectionRefused) that would change a later decision:
    FIELD_TAKEN_LATER = "field_taken_later"  # a later turn of the seat wrote that field
    LATER_TURN_REFUSED = "later_turn_refused"  # a later turn would break a rule (its code: cause)
    ROUND_RESULT_CHANGES = "round_result_changes"  # poker: a decided round would go otherwise

    # --- input the rules cannot accept (RulesError.code) ---
    BAD_DICE = "bad_dice"  # not five whole numbers from 1 to 6
    BAD_OPTIONS = "bad_options"  # options that are not an object of the variant's known options
    BAD_SHEET = "bad_sheet"  # a sheet no game can reach, or not in the variant's shape
    UNKNOWN_VARIANT = "unknown_variant"
    NO_TABLE_IN_POKER = "no_table_in_poker"  # a table asked of the poker variant
    PLAYER_COUNT = "player_count"  # not between the variant's least and most players
    UNKNOWN_FIELD = "unknown_field"
    UNKNOWN_COLUMN = "unknown_column"
    FIELD_IN_POKER = "field_in_poker"  # poker takes dice only, no field of a table
    NOTHING_TO_UNDO = "nothing_to_undo"
    NO_SUCH_TURN = "no_such_turn"  # a correction of a turn that is not in force
    TURNS_OUT_OF_ORDER = "turns_out_of_order"  # stored turns not in seating order
    FIELD_WRITTEN_TWICE = "field_written_twice"  # stored turns writing one field twice

    # --- notes on one field (Placement.note_code) ---
    CROSSING_OUT = "crossing_out"  # the roll does not fit: the field is crossed out (0)
    JOKER_UPPER_ZERO = "joker_upper_zero"  # lower section full: a joker goes upper for 0
    JOKER_FIXED_POINTS = "joker_fixed_points"  # a joker scores ful 25, strits 30 / 40
    JOKER_SUM = "joker_sum"  # a joker scores the sum of the dice
    FIVE_NOT_YET_JOKER = "five_not_yet_joker"  # five of a kind is not a joker yet: 0 here
    FIVE_NOT_TWO_PAIRS = "five_not_two_pairs"  # pairs need different faces
    FIVE_NEVER_JOKER = "five_never_joker"  # Scandinavian: five of a kind is never a joker
    FOUR_NOT_TWO_PAIRS = "four_not_two_pairs"  # Scandinavian: four of a kind is not two pairs
    SMALL_STRAIGHT_EXACT = "small_straight_exact"  # Scandinavian: exactly 1-2-3-4-5
    LARGE_STRAIGHT_EXACT = "large_straight_exact"  # Scandinavian: exactly 2-3-4-5-6

    # --- notes on the roll as a whole (Evaluation.note_codes) ---
    NO_GENERAL_BONUSES = "no_general_bonuses"  # Scandinavian: no extra bonus, no joker
    EXTRA_BONUS = "extra_bonus"  # +100: another five of a kind with every Generał at 50
    NO_EXTRA_BONUS_GENERAL_ZERO = "no_extra_bonus_general_zero"  # a Generał holds 0
    NO_EXTRA_BONUS_YET = "no_extra_bonus_yet"  # triple: not every Generał is written yet
    JOKER = "joker"  # the roll is a joker
    NOT_JOKER_UPPER_FREE = "not_joker_upper_free"  # Generał taken, the upper field still free
