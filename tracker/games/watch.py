"""The turn screen of a phone that only watches (a „watch” invitation, `tracker.guests`): the
game as it stands, whose turn it is and the last turn, without the dice pad or any button that
writes. It follows the game like every game screen (static/js/live.js swaps it when a turn is
written on another phone). The end of a game is the same end screen everyone sees."""

from __future__ import annotations

from flask import render_template

from ..services.games import GameView
from . import poker
from .turn import full_sheet, last_turn_text


def render(view: GameView) -> str:
    last = view.turns[-1] if view.turns else None
    if view.is_poker:
        return render_template(
            "games/watch.html",
            view=view,
            target=poker.target_text(view.options.target_wins),
            rounds=[poker.round_card(view, r) for r in reversed(view.match.rounds)],
            last_turn=str(poker.hand_text(view, last)) if last else None,
        )
    return render_template(
        "games/watch.html",
        view=view,
        paper=full_sheet(view),
        last_turn=last_turn_text(view),
    )
