"""Replaying a game's log through the rules, in the order it was written, undos included.

Every turn must be one the rules allowed when it was written: in turn, before the game was
over, with the points the dice give. A turn corrected later (`services.corrections`: taken back
at the very moment its correction with the same number was written) is replaced in place, the
later turns kept, as the correction did; the points a turn carries are those the rules give it
when it leaves the turns in force (taken back or replaced) or at the end, since a correction
rewrites the points of the later turns it changes.

The game is a `rules.GameState` whatever its kind: a turn is played with `play_turn` and taken
back with `undo`, and the figures each seat's row caches come from `seat_figures`, exactly as
play derives them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ... import rules
from ...i18n import N_, _, gettext
from ...rules_text import points_text, rules_text
from ..games import MAX_TURNS_PER_GAME
from ..results import seat_results
from .document import SHOWN, CheckedTurn, Refused, show

# A turn after the end, in the game's own words (translated where it is said).
_OVER = {
    "table": N_("gra była już zakończona, a w pliku jest jeszcze ten ruch."),
    "poker": N_("mecz był już zakończony, a w pliku jest jeszcze ten ruch."),
}


class _AtTurn(Refused):
    """A problem that already says which turn of the file it is about."""


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
    replay, however long the game); `correct` replaces one, as `corrections.correct_turn` did.
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
            raise Refused(gettext(_OVER[state.variant.kind]))
        if len(self.stack) >= MAX_TURNS_PER_GAME:
            # The same limit as play (`games.record_turn`): a game that could be played can be
            # imported, and no other.
            raise Refused(
                _(
                    "gra ma już %(most)d ruchów w mocy, najwięcej, ile można zapisać.",
                    most=MAX_TURNS_PER_GAME,
                )
            )
        if turn.seat != seat:
            raise Refused(
                _(
                    "ruch zapisano graczowi %(name)s, a według kolejności przy stole była kolej "
                    "gracza %(due)s.",
                    name=self._name(turn.seat),
                    due=self.names[seat],
                )
            )
        try:
            state.play_turn(turn.dice, turn.field, turn.column or 0)
        except rules.RulesError as exc:
            raise Refused(rules_text(exc)[: 4 * SHOWN]) from exc
        self.stack.append(turn)

    def pop(self) -> CheckedTurn:
        self.check_points(len(self.stack) - 1)
        self.state.undo()
        return self.stack.pop()

    def correct(self, turn: CheckedTurn) -> None:
        """Replace the turn in force with the same number, keeping the later ones."""
        index = turn.seq - 1
        self.check_points(index)
        state = self.state
        try:
            correction = rules.correct_turn(
                state.variant,
                state.players,
                state.options,
                state.turns,
                index,
                turn.dice,
                turn.field,
                turn.column or 0,
            )
        except rules.RulesError as exc:
            raise Refused(rules_text(exc)[: 4 * SHOWN]) from exc
        if turn.seat != correction.after.seat:
            raise Refused(
                _(
                    "poprawka ruchu zapisana graczowi %(name)s, a ruch był gracza %(owner)s.",
                    name=self._name(turn.seat),
                    owner=self.names[correction.after.seat],
                )
            )
        self.state = correction.state
        self.stack[index] = turn

    def check_points(self, index: int) -> None:
        """A table turn carries the points written; a poker hand carries none."""
        turn = self.stack[index]
        record = self.state.turns[index]
        if turn.points is not None and (turn.points, turn.extra_bonus) != (
            record.points,
            record.extra_bonus,
        ):
            where = _where(turn, len(self.names))
            raise _AtTurn(f"{where}: {_wrong_points(self.state, turn, record)}")

    def _name(self, seat: int) -> str:
        names = self.names
        return names[seat] if 0 <= seat < len(names) else _("miejsce %(seat)s", seat=show(seat))

    def figures(self) -> list[dict[str, Any]]:
        """Per seat, the cached results `results.store_results` stores for this state: totals
        (round wins in poker), places and winners once the game is over, upper bonuses, five of
        a kind rolled and extra Generał bonuses. A test checks that `results.recompute_all` changes
        nothing."""
        return [seat_results(self.state, seat) for seat in range(self.state.players)]


def _wrong_points(state: rules.Game, turn: CheckedTurn, record: rules.TurnRecord) -> str:
    """The file's points are not what the rules give for the dice."""
    label = rules.find_table_variant(state.variant.id).table.by_id[record.field or ""].label
    bonus = turn.extra_bonus and show(turn.extra_bonus)
    written = points_text(_("%(points)s pkt", points=show(turn.points)), bonus)
    right = points_text(_("%(points)s pkt", points=record.points), record.extra_bonus)
    return _(
        "w polu %(field)s zapisano %(written)s, a zasady dają za %(dice)s %(right)s. "
        "Plik zmieniono albo jest uszkodzony.",
        field=rules_text(label),
        written=written,
        dice=rules.format_dice(turn.dice),
        right=right,
    )


def _where(turn: CheckedTurn, players: int) -> str:
    round_ = (turn.seq - 1) // players + 1
    return _(
        "ruch nr %(seq)s (kolejka %(round)s, pozycja %(position)d w pliku)",
        seq=show(turn.seq),
        round=show(round_),
        position=turn.index + 1,
    )


def _corrects(stack: list[CheckedTurn], turn: CheckedTurn) -> bool:
    """Whether `turn` is the correction of the turn in force with its number: that turn was
    taken back at the very moment `turn` was written (`services.corrections`)."""
    if not 1 <= turn.seq <= len(stack):
        return False
    replaced = stack[turn.seq - 1]
    return replaced.undone_at is not None and replaced.undone_at == turn.created_at


def replay_log(
    variant: rules.AnyVariant, options: dict[str, int], names: list[str], log: list[CheckedTurn]
) -> Replayed:
    """Read the log as it was written; every turn must be one the rules allowed then."""
    replay = _Replay(variant, options, names)
    for turn in log:
        try:
            if _corrects(replay.stack, turn):
                replay.correct(turn)
                continue
            # A turn written as number `seq` found `seq - 1` turns in force: any later ones had
            # been taken back by then.
            while len(replay.stack) >= turn.seq:
                taken_back = replay.pop()
                if not taken_back.undone:
                    raise Refused(
                        _(
                            "ruch nr %(seq)d występuje dwa razy, a wcześniejszy nie jest "
                            "oznaczony jako cofnięty (undone_at).",
                            seq=turn.seq,
                        )
                    )
            if len(replay.stack) != turn.seq - 1:
                raise Refused(
                    _(
                        "po ruchu nr %(before)d przychodzi ruch nr %(seq)s: brakuje ruchów "
                        "pomiędzy.",
                        before=len(replay.stack),
                        seq=show(turn.seq),
                    )
                )
            replay.push(turn)
        except _AtTurn:
            raise  # it names its own turn (the points of a turn read earlier)
        except Refused as exc:
            raise exc.at(_where(turn, len(names))) from exc
    while replay.stack and replay.stack[-1].undone:  # taken back at the end
        replay.pop()
    for turn in replay.stack:
        if turn.undone:
            raise Refused(
                _(
                    "ruch %(seq)d jest oznaczony jako cofnięty, ale po nim zostały ruchy "
                    "w mocy; cofnąć można tylko ostatni ruch.",
                    seq=turn.seq,
                )
            )
    for index in range(len(replay.stack)):
        replay.check_points(index)
    return Replayed(replay.state.finished, replay.stack, replay.figures())
