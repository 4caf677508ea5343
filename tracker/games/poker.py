"""Playing a dice-poker match: the screens built from `PokerMatch`, and writing a hand.

A match has the same URLs as a table game; `views.py` keeps the routes and hands a poker match
over to the functions here. Nothing here names or ranks a hand: `tracker.rules` does
(`classify`, `PokerMatch`); this module only arranges what the rules say for the screen.

What a round decided is derived from the stored hands, never carried in a flash: the screen after
the last hand of a round shows the result, and so does a reload or another phone.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import rules
from ..guests import rematch_to_follow
from ..i18n import _, ngettext
from ..rules import PokerRound
from ..rules_text import rules_text
from ..services.games import GameView
from ..services.transfer import bgstats
from ..store.rows import TurnRow
from ..web import and_list, local_zone


@dataclass(frozen=True)
class HandRow:
    """One player's hand in a round, as the screen shows it."""

    name: str
    shown: str  # the dice grouped as players read the hand: "5-5-5-2-2"
    label: str  # "Ful"
    hand_id: str  # "full_house"
    place: int | None  # 1 = best, equal hands share a place; None while the round is open
    wins: bool  # the round's single best hand
    ties: bool  # one of several equal best hands: the round is a draw


@dataclass(frozen=True)
class RoundCard:
    """A round as the screens tell it: its hands, who won it and why."""

    number: int
    hands: tuple[HandRow, ...]  # in seating order while open, best first once decided
    complete: bool
    winners: tuple[str, ...]  # the round's winner; empty for a draw or an open round
    explanation: str  # one sentence from the rules core, translated; empty while open
    waiting: tuple[str, ...]  # who has not entered a hand yet (open round only)

    @property
    def verdict(self) -> str:
        """ "Rundę wygrywa Ala", "Remis – nikt nie wygrywa rundy", or "" while open."""
        if not self.complete:
            return ""
        if self.winners:
            return _("Rundę wygrywa %(name)s", name=self.winners[0])
        return _("Remis – nikt nie wygrywa rundy")


@dataclass(frozen=True)
class HandText:
    """A stored hand as the flash, the log and the undo button say it: "Ala – Ful 5-5-5-2-2".
    The dice are kept apart so a button can keep them on one line."""

    who: str  # "Ala – Ful"
    shown: str  # "5-5-5-2-2"

    def __str__(self) -> str:
        return f"{self.who} {self.shown}"


@dataclass(frozen=True)
class Standing:
    place: int
    name: str
    wins: int
    winner: bool


def target_text(target_wins: int) -> str:
    """How far the match goes, as the screen says it: "do 1 wygranej", "do 3 wygranych"."""
    return ngettext("do %(num)d wygranej", "do %(num)d wygranych", target_wins)


def hand_text(view: GameView, turn: TurnRow) -> HandText:
    value = rules.classify(turn.dice_tuple)
    return HandText(
        f"{view.seats[turn.seat].player.name} – {rules_text(value.hand.label)}", value.shown
    )


def round_card(view: GameView, round_: PokerRound) -> RoundCard:
    names = view.names
    ranking = round_.ranking
    if ranking is None:
        rows = tuple(
            HandRow(
                names[seat],
                hand.shown,
                rules_text(hand.hand.label),
                hand.hand.id,
                None,
                False,
                False,
            )
            for seat, hand in round_.hands
        )
        entered = {seat for seat, _ in round_.hands}
        waiting = tuple(name for seat, name in enumerate(names) if seat not in entered)
        return RoundCard(round_.number, rows, False, (), "", waiting)
    decided = []
    for ranked in sorted(ranking.hands, key=lambda r: (r.place, r.index)):
        seat, hand = round_.hands[ranked.index]
        best = ranked.place == 1
        decided.append(
            HandRow(
                names[seat],
                hand.shown,
                rules_text(hand.hand.label),
                hand.hand.id,
                ranked.place,
                wins=best and not ranking.draw,
                ties=best and ranking.draw,
            )
        )
    winners = tuple(names[seat] for seat in round_.winners or ())
    return RoundCard(
        round_.number, tuple(decided), True, winners, rules_text(round_.explanation_text), ()
    )


def last_result(view: GameView) -> RoundCard | None:
    """The round just decided, while nobody has entered a hand of the next one yet."""
    match = view.match
    if match.rounds and match.current_round is None:
        return round_card(view, match.rounds[-1])
    return None


def match_score(view: GameView) -> str:
    """The score as players say it, the most round wins first: "3:1:0"."""
    return ":".join(str(wins) for wins in sorted(view.match.round_wins, reverse=True))


def standings(view: GameView) -> list[Standing]:
    wins = view.match.round_wins
    places = rules.places_of(wins)
    winners = set(view.match.winners)
    order = sorted(range(len(wins)), key=lambda seat: (places[seat], seat))
    return [Standing(places[s], view.names[s], wins[s], s in winners) for s in order]


def reopened_round(view: GameView) -> int | None:
    """The round whose result an undo takes back with the last hand (it decided that round)."""
    last_round = view.match.rounds[-1] if view.match.rounds else None
    return last_round.number if last_round is not None and last_round.complete else None


def _undo_context(view: GameView) -> dict[str, object]:
    """The undo button names the hand it takes back, and the round result it takes with it."""
    last = view.turns[-1] if view.turns else None
    return {
        "last_hand": hand_text(view, last) if last else None,
        "reopens_round": reopened_round(view),
    }


def _context(view: GameView) -> dict[str, object]:
    return {
        "view": view,
        "match": view.match,
        "target": target_text(view.options.target_wins),
        **_undo_context(view),
    }


# --- the screens ---------------------------------------------------------------------------


def render_match(
    view: GameView, dice_text: str, *, fragment: bool = False, dice_error: str | None = None
) -> str:
    """The turn screen of the player whose hand is next, or the end of the match.

    With dice (from the pad, the typed input or a hand just undone) it names the hand and
    offers to write it; `fragment` is that part alone, for turn.js.
    """
    if view.finished:
        return render_finished(view)
    hand = None
    if dice_text and dice_error is None:
        try:
            hand = rules.classify(rules.parse_dice(dice_text))
        except rules.RulesError as exc:
            dice_error = rules_text(exc)
    context = {
        **_context(view),
        "dice_text": dice_text,
        "dice_error": dice_error,
        "hand": hand,
        "dice": "".join(map(str, hand.dice)) if hand else "",
    }
    if fragment:
        return render_template("games/_poker_hand.html", **context)
    open_round = view.match.current_round
    return render_template(
        "games/poker.html",
        **context,
        result=last_result(view),
        current=round_card(view, open_round) if open_round else None,
    )


def render_finished(view: GameView) -> str:
    return render_template(
        "games/poker_finished.html",
        **_context(view),
        winner=and_list(view.winners),
        score=match_score(view),
        standings=standings(view),
        rounds=[round_card(view, r) for r in reversed(view.match.rounds)],
        bgstats_link=bgstats.view_link(view, timezone=local_zone().key),
        rematch_id=rematch_to_follow(view.id),  # a guest phone follows the family's „Rewanż”
    )


def render_history(view: GameView) -> str:
    """Przebieg meczu: every round, newest first, and every hand written, undone ones too."""
    return render_template(
        "games/poker_history.html",
        **_context(view),
        rounds=[round_card(view, r) for r in reversed(view.match.rounds)],
        log=[(turn, hand_text(view, turn)) for turn in reversed(view.log)],
    )


# --- writing and taking back a hand --------------------------------------------------------


def _to_match(game_id: int) -> Response:
    return redirect(url_for("games.play", game_id=game_id), code=303)


def written(after: GameView) -> Response:
    """After a hand is written: back to the match, with `say_written`."""
    say_written(after)
    return _to_match(after.game.id)


def say_written(after: GameView) -> None:
    """The flash for the last hand written. While the round goes on, it names the hand; after
    the round's last hand, the round's result on the screen says it all."""
    if after.match.current_round is not None:
        # "written": the match's screen puts the undo of this hand next to the message.
        flash(_("Zapisano: %(turn)s", turn=str(hand_text(after, after.turns[-1]))), "written")


def undo_message(before: GameView, after: GameView) -> str:
    """The flash after an undo: the hand taken back and, across a round's end, its result."""
    hand = str(hand_text(before, before.turns[-1]))
    reopens = reopened_round(before)
    if reopens is not None:
        return _(
            "Cofnięto: %(hand)s i wynik rundy %(round)d. Znów kolej: %(name)s. Kości zostały – "
            "popraw je i zapisz układ.",
            hand=hand,
            round=reopens,
            name=after.current_name,
        )
    return _(
        "Cofnięto: %(hand)s. Znów kolej: %(name)s. Kości zostały – popraw je i zapisz układ.",
        hand=hand,
        name=after.current_name,
    )
