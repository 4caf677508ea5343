"""The review of a table game: every turn's choice against optimal solitaire play.

Read-only use cases over `tracker.advisor`: load the account's game, hand its turns in force to
the advisor, return what it says with the game's seats and turn numbers. Nothing is stored: a
review is derived from the turns whenever it is asked for (a corrected turn changes it at once).

The advisor's figures are for optimal *solitaire* play (the most points on average, not the best
chance to beat the others); `triple` is valued approximately (`GameReview.exact` is false) and
every figure shown of it must say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .. import advisor, rules
from ..advisor import Advice, AdvisorUnavailable, MoveAdvice, SeatReview
from ..i18n import N_, gettext
from ..rules import Code
from . import game_view
from .errors import Conflict, ServiceError

# Shown through `gettext` (in the language of the request).
NO_REVIEW_IN_POKER = N_("Poker kościany nie ma przeglądu gry: w nim nie wybiera się pól tabeli.")
ADVISOR_MISSING = N_(
    "Tabele oczekiwanych punktów dla tego wariantu nie są zbudowane "
    "(flask --app tracker advisor build)."
)


class NoReviewInPoker(Conflict):
    """Dice poker has no field to choose, so nothing to review or advise."""

    code = Code.NO_TABLE_IN_POKER.value


class AdvisorMissing(ServiceError):
    """The advisor's tables are missing or do not match the rules (a broken installation)."""

    status = 503
    code = "advisor_unavailable"


@dataclass(frozen=True)
class ReviewedTurn:
    """One turn in force of one player, as the advisor judged it."""

    seq: int  # the game's turn number (1-based, among the turns in force)
    number: int  # the player's own turn number (1-based): the round it was played in
    dice: rules.Dice
    field: str
    column: int
    points: int  # written in the field (unmultiplied), as stored
    expected_before: float  # the sheet's expected final total before the roll
    expected_after: float  # … after writing the dice where the player did
    best: tuple[MoveAdvice, ...]  # the best moves for these dice (within EQUAL_WITHIN)
    loss: float  # expected points given away (0.0 when within EQUAL_WITHIN of the best)
    luck: float  # the best move's expected minus the expectation before the roll
    total: int  # the points on the player's sheet after the turn
    extra_bonus: int = 0  # +100 for a further Generał, unmultiplied, as stored

    @property
    def chose_best(self) -> bool:
        return self.loss == 0.0


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    name: str
    seat_review: SeatReview
    turns: tuple[ReviewedTurn, ...]

    @property
    def exact(self) -> bool:
        return self.seat_review.exact

    @property
    def expected_start(self) -> float:
        return self.seat_review.expected_start

    @property
    def expected_now(self) -> float:
        return self.seat_review.expected_now

    @property
    def total(self) -> int:
        return self.seat_review.total

    @property
    def loss(self) -> float:
        return self.seat_review.loss

    @property
    def loss_per_turn(self) -> float:
        return self.seat_review.loss_per_turn

    @property
    def luck(self) -> float:
        return self.seat_review.luck

    @property
    def best_choices(self) -> int:
        return sum(1 for t in self.turns if t.chose_best)


@dataclass(frozen=True)
class GameReview:
    game_id: int
    variant: rules.Variant
    options: rules.Options
    started_at: datetime
    finished: bool
    players: tuple[PlayerReview, ...]
    etag: str = ""  # the game's uid and version, as its other screens follow it (live.js)

    @property
    def exact(self) -> bool:
        return advisor.is_exact(self.variant)


def review_of(account_id: int, game_id: int) -> GameReview:
    """The review of the account's table game, finished or not (a game without turns reviews
    fine: every player's review is empty). NotFound for another account's or a missing game;
    NoReviewInPoker for a dice-poker match."""
    view = game_view.load(account_id, game_id, log=False)
    variant = view.variant
    if view.is_poker or not isinstance(variant, rules.Variant):
        raise NoReviewInPoker(gettext(NO_REVIEW_IN_POKER))
    options: rules.Options = view.options
    turns = [(t.seat, t.dice_tuple, t.field or "", t.column or 0) for t in view.turns]
    try:
        seats = advisor.review_game(variant, options, len(view.seats), turns)
    except AdvisorUnavailable as exc:
        raise AdvisorMissing(gettext(ADVISOR_MISSING)) from exc
    stored = [[t for t in view.turns if t.seat == seat] for seat in range(len(view.seats))]
    players = tuple(
        PlayerReview(
            seat=seat.seat,
            name=seat.player.name,
            seat_review=review,
            turns=tuple(
                ReviewedTurn(
                    seq=row.seq,
                    number=number,
                    dice=judged.dice,
                    field=judged.field,
                    column=judged.column,
                    points=row.points or 0,
                    expected_before=judged.expected_before,
                    expected_after=judged.expected_after,
                    best=judged.best,
                    loss=judged.loss,
                    luck=judged.luck,
                    total=judged.total,
                    extra_bonus=row.extra_bonus or 0,
                )
                for number, (row, judged) in enumerate(
                    zip(stored[seat.seat], review.turns, strict=True), 1
                )
            ),
        )
        for seat, review in zip(sorted(view.seats, key=lambda s: s.seat), seats, strict=True)
    )
    return GameReview(
        game_id,
        variant,
        options,
        view.game.started_at,
        view.finished,
        players,
        etag=view.game.stamp,
    )


def advise(
    variant: rules.Variant,
    sheet: rules.Sheet,
    dice: rules.Dice | None,
    options: rules.Options | None,
) -> Advice:
    """`advisor.advise` for the JSON API, a missing table answered as a service error."""
    if not advisor.supports(variant):
        raise NoReviewInPoker(gettext(NO_REVIEW_IN_POKER))
    try:
        return advisor.advise(variant, sheet, dice, options)
    except AdvisorUnavailable as exc:
        raise AdvisorMissing(gettext(ADVISOR_MISSING)) from exc
