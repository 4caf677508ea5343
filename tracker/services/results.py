"""Results derived from a game's turns and cached on its rows: the seats' totals, places,
winners and statistics figures, when the game ended, and the version every write raises. All
recomputable from the turns: `recompute_all` (`flask --app tracker recompute`) does it."""

from __future__ import annotations

from typing import Any

from .. import rules
from ..extensions import db
from ..models import utcnow
from ..store import cache
from ..store import games as store
from ..store.rows import TurnRow
from .game_view import GameView, build


def bump_version(view: GameView) -> None:
    store.bump_version(view.game.id)
    view.game.version += 1


def seat_results(state: rules.GameState, seat: int) -> dict[str, Any]:
    """The results cached on one seat, as the game's state gives them: the rules' figures
    (total or round wins, upper bonuses, five of a kind rolled, extra Generał bonuses), and its
    place and whether it won once the game is over."""
    figures = state.seat_figures(seat)
    return {
        "total": figures.total,
        "place": state.places[seat] if state.finished else None,
        "is_winner": seat in state.winners,
        "upper_bonuses": figures.upper_bonuses,
        "generals": figures.generals,
        "extra_bonuses": figures.extra_bonuses,
    }


def store_results(view: GameView, seats: set[int] | None = None) -> bool:
    """Store the results derived from the turns on the seats (the rules' `seat_figures`: total
    or round wins, upper bonuses, five of a kind rolled, extra Generał bonuses), places and
    winners once the game is over, and when it ended. Only changed rows are written, in the
    caller's transaction; the answer says whether any was. `seats` limits the work to the
    seats whose sheet changed, unless the game has just ended (places concern everyone)."""
    changed = _changed_seats(view, seats)
    store.update_seats(changed)
    return _store_finished(view) or bool(changed)


def store_turn(view: GameView, turn: TurnRow) -> None:
    """Write a turn just played (already in `view`, its id set here) with the results it
    changed, as `store_results(view, {turn.seat})` would store them (its seat's; in poker,
    whoever won the round it ended), in the caller's
    transaction: its row and its seat's figures go together (`store.insert_turn`)."""
    turn.id = store.insert_turn(view.game.id, turn, _changed_seats(view, {turn.seat}))
    _store_finished(view)


def store_turn_at_version(view: GameView, turn: TurnRow) -> bool:
    """`store_turn` for a turn decided on this process's state of the game without its lock
    (`game_view.cached_for_turn`): the game is locked and the turn written only if the game is
    still at the version before `view.game`'s. Whether it was; if not, nothing was written."""
    before = view.game.at_version(view.game.version - 1)
    # A turn that does not end the game is the write's whole work: nothing else changes.
    turn_id = store.insert_turn_at_version(
        before, turn, _changed_seats(view, {turn.seat}), whole=not view.state.finished
    )
    if turn_id is None:
        return False
    turn.id = turn_id
    _store_finished(view)
    return True


def _changed_seats(view: GameView, seats: set[int] | None) -> list[dict[str, Any]]:
    """The seats whose cached results differ from the state's (all of them, or `seats` unless
    the game has just ended), updated on `view`; as rows for `store.update_seats`. In dice
    poker every seat is looked at: a round's last hand gives the round, and its win, to
    whichever player had the best hand."""
    state = view.state
    everyone = seats is None or state.finished or view.game.finished or view.is_poker
    changed = []
    for seat in view.seats:
        if not everyone and seat.seat not in (seats or ()):
            continue
        values = seat_results(state, seat.seat)
        if any(getattr(seat, key) != value for key, value in values.items()):
            for key, value in values.items():
                setattr(seat, key, value)
            changed.append({"seat_id": seat.id, **values})
    return changed


def _store_finished(view: GameView) -> bool:
    """Store when the game ended (or that it has not, any more); whether that changed."""
    state = view.state
    finished_at = view.game.finished_at if state.finished else None
    if state.finished and finished_at is None:
        finished_at = utcnow()
    if finished_at != view.game.finished_at:
        view.game.finished_at = finished_at
        store.set_finished(view.game.id, finished_at)
        return True
    return False


def _refresh(game_id: int) -> GameView:
    """Replay one game's turns through the rules (rewriting the points stored with a turn where
    the rules now say otherwise) and rewrite its cached results, in the caller's transaction."""
    view = build(*store.read_game_by_id(game_id), log=False)
    replayed = rules.start_game(view.variant, len(view.seats), view.options)
    rewritten = False
    for turn in view.turns:
        record = replayed.play_turn(turn.dice_tuple, turn.field, turn.column or 0)
        points = None if view.is_poker else record.points
        if (turn.points, turn.extra_bonus) != (points, record.extra_bonus):
            turn.points, turn.extra_bonus = points, record.extra_bonus
            store.rewrite_points(turn)
            rewritten = True
    view.state = replayed
    if store_results(view) or rewritten:
        bump_version(view)
    return view


def recompute_all() -> int:
    """Replay every game's turns through the rules and rewrite all cached figures; the number
    of games recomputed. A corrected rule reaches every stored game this way."""
    game_ids = store.game_ids()
    for game_id in game_ids:
        _refresh(game_id)
    db.session.commit()
    cache.clear()
    return len(game_ids)
