"""Replaying a game's log through the rules, in the order it was written, undos included.

Every turn must be one the rules allowed when it was written: in turn, before the game was
over, with the points the dice give. The game is a `rules.GameState` whatever its kind: a turn
is played with `play_turn` and taken back with `undo`, and the figures each seat's row caches
come from `seat_figures`, exactly as play derives them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ... import rules
from ..games import MAX_TURNS_PER_GAME
from ..results import seat_results
from .document import SHOWN, CheckedTurn, Refused, show

# A turn after the end, in the game's own words.
_OVER = {
    "table": "gra była już zakończona, a w pliku jest jeszcze ten ruch.",
    "poker": "mecz był już zakończony, a w pliku jest jeszcze ten ruch.",
}


@dataclass(frozen=True)
class Replayed:
    """What a game's log comes to."""

    finished: bool
    in_force: list[CheckedTurn]  # the turns not taken back, in order
    figures: list[dict[str, Any]]  # per seat: what `results.store_results` would store


class _Replay:
    """A game's rules state while its log is read in the order it was written.

    `push` plays a turn on the turns in force before it, exactly as `games.record_turn` did when
    it was written; `pop` takes the last one back, as an undo did (the rules' own `undo`: no
    replay, however long the game).
    """

    def __init__(self, variant: rules.AnyVariant, options: dict[str, int], names: list[str]):
        self.state: rules.Game = rules.start_game(
            variant, len(names), variant.parse_options(options)
        )
        self.names = names
        self.stack: list[CheckedTurn] = []  # the turns in force, as the file has them

    def push(self, turn: CheckedTurn) -> None:
        state = self.state
        seat = state.current_seat
        if seat is None:
            raise Refused(_OVER[state.variant.kind])
        if len(self.stack) >= MAX_TURNS_PER_GAME:
            # The same limit as play (`games.record_turn`): a game that could be played can be
            # imported, and no other.
            raise Refused(
                f"gra ma już {MAX_TURNS_PER_GAME} ruchów w mocy, najwięcej, ile można zapisać."
            )
        if turn.seat != seat:
            names = self.names
            written = (
                names[turn.seat] if 0 <= turn.seat < len(names) else f"miejsce {show(turn.seat)}"
            )
            raise Refused(
                f"ruch zapisano graczowi {written}, a według kolejności przy stole "
                f"była kolej gracza {names[seat]}."
            )
        try:
            record = state.play_turn(turn.dice, turn.field, turn.column or 0)
        except rules.RulesError as exc:
            raise Refused(f"{exc}"[: 4 * SHOWN]) from exc
        self.stack.append(turn)
        # A table turn carries the points written; a poker hand carries none.
        if turn.points is not None and (turn.points, turn.extra_bonus) != (
            record.points,
            record.extra_bonus,
        ):
            raise Refused(_wrong_points(state, turn, record))

    def pop(self) -> CheckedTurn:
        self.state.undo()
        return self.stack.pop()

    def figures(self) -> list[dict[str, Any]]:
        """Per seat, the cached results `results.store_results` stores for this state: totals
        (round wins in poker), places and winners once the game is over, upper bonuses, five of
        a kind rolled and extra Generał bonuses. A test checks that `results.recompute_all` changes
        nothing."""
        return [seat_results(self.state, seat) for seat in range(self.state.players)]


def _wrong_points(state: rules.Game, turn: CheckedTurn, record: rules.TurnRecord) -> str:
    """The file's points are not what the rules give for the dice."""
    label = rules.find_table_variant(state.variant.id).table.by_id[record.field or ""].label
    written = f"{show(turn.points)} pkt" + (
        f" (+{show(turn.extra_bonus)})" if turn.extra_bonus else ""
    )
    right = f"{record.points} pkt" + (f" (+{record.extra_bonus})" if record.extra_bonus else "")
    return (
        f"w polu {label} zapisano {written}, a zasady dają za "
        f"{rules.format_dice(turn.dice)} {right}. Plik zmieniono albo jest uszkodzony."
    )


def replay_log(
    variant: rules.AnyVariant, options: dict[str, int], names: list[str], log: list[CheckedTurn]
) -> Replayed:
    """Read the log as it was written; every turn must be one the rules allowed then."""
    replay = _Replay(variant, options, names)
    for turn in log:
        try:
            # A turn written as number `seq` found `seq - 1` turns in force: any later ones had
            # been taken back by then.
            while len(replay.stack) >= turn.seq:
                taken_back = replay.pop()
                if not taken_back.undone:
                    raise Refused(
                        f"ruch nr {turn.seq} występuje dwa razy, a wcześniejszy nie jest "
                        "oznaczony jako cofnięty (undone_at)."
                    )
            if len(replay.stack) != turn.seq - 1:
                raise Refused(
                    f"po ruchu nr {len(replay.stack)} przychodzi ruch nr {show(turn.seq)}: "
                    "brakuje ruchów pomiędzy."
                )
            replay.push(turn)
        except Refused as exc:
            round_ = (turn.seq - 1) // len(names) + 1
            where = (
                f"ruch nr {show(turn.seq)} (kolejka {show(round_)}, "
                f"pozycja {turn.index + 1} w pliku)"
            )
            raise exc.at(where) from exc
    while replay.stack and replay.stack[-1].undone:  # taken back at the end
        replay.pop()
    for turn in replay.stack:
        if turn.undone:
            raise Refused(
                f"ruch {turn.seq} jest oznaczony jako cofnięty, ale po nim zostały ruchy "
                "w mocy; cofnąć można tylko ostatni ruch."
            )
    return Replayed(replay.state.finished, replay.stack, replay.figures())
