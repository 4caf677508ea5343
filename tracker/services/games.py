"""Games: create, load, write a turn, undo, delete, rematch, for table games and dice poker.

The database keeps the turns; `tracker.rules` turns them into sheets, totals and winners
(`TableGame`) or rounds and round wins (`PokerMatch`). Each write is one transaction, and the
partial unique index on (game, seq) of turns in force makes the database store a turn once even
when two phones send it at the same moment.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .. import rules
from ..extensions import db
from ..models import Game, GameSeat, Player, Turn, utcnow
from ..rules.match import MIN_PLAYERS as POKER_MIN_PLAYERS
from .errors import Conflict, InvalidInput, NotFound
from .players import players_by_names

MAX_PLAYERS = 8
ALREADY_WRITTEN = (
    "Ten ruch został już zapisany (może na innym telefonie). Sprawdź tabelę i graj dalej."
)
GAME_OVER = "Gra jest zakończona: wszystkie tabele są pełne."
MATCH_OVER = "Mecz jest zakończony."


@dataclass
class _View:
    """What every game view has: the stored rows, and the rules' state built from the turns."""

    game: Game
    seats: list[GameSeat]
    turns: list[Turn]  # in force, in order
    log: list[Turn]  # every turn ever written, corrected ones included, in order of writing

    @property
    def state(self) -> rules.TableGame | rules.PokerMatch:
        raise NotImplementedError

    @property
    def names(self) -> list[str]:
        return [s.player.name for s in self.seats]

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def current_seat(self) -> int | None:
        return self.state.current_seat

    @property
    def current_name(self) -> str | None:
        seat = self.current_seat
        return None if seat is None else self.seats[seat].player.name

    @property
    def next_seq(self) -> int:
        return len(self.turns) + 1

    @property
    def winners(self) -> list[str]:
        return [self.seats[i].player.name for i in self.state.winners]


@dataclass
class GameView(_View):
    """A table game as loaded for one request."""

    variant: rules.Variant
    options: rules.Options
    table: rules.TableGame
    is_poker = False

    @property
    def state(self) -> rules.TableGame:
        return self.table


@dataclass
class PokerView(_View):
    """A dice-poker match as loaded for one request."""

    options: rules.PokerOptions
    match: rules.PokerMatch
    is_poker = True

    @property
    def state(self) -> rules.PokerMatch:
        return self.match


AnyView = GameView | PokerView


def parse_variant(variant_id: object) -> rules.Variant:
    try:
        return rules.find_variant(variant_id)
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "variant") from exc


def _parse_options(variant_id: str, raw: Any) -> dict[str, int]:
    try:
        if variant_id == rules.POKER:
            return rules.parse_poker_options(raw or None).as_dict()
        return rules.find_variant(variant_id).parse_options(raw or None).as_dict()
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "options") from exc


def create_game(
    account_id: int,
    variant_id: object,
    names: list[str],
    options: Any = None,
    *,
    shuffle: bool = False,
    rematch_of: int | None = None,
) -> Game:
    if variant_id == rules.POKER:
        least = POKER_MIN_PLAYERS
        variant = rules.POKER
    else:
        least = 1
        variant = parse_variant(variant_id).id
    parsed = _parse_options(variant, options)
    if not isinstance(names, list) or not least <= len(names) <= MAX_PLAYERS:
        raise InvalidInput(f"Przy stole siedzi od {least} do {MAX_PLAYERS} graczy.", "players")
    if not all(isinstance(n, str) for n in names):
        raise InvalidInput("Imiona graczy podaj jako tekst.", "players")
    players = players_by_names(account_id, names)
    if shuffle:
        random.SystemRandom().shuffle(players)
    game = Game(account_id=account_id, variant=variant, options=parsed, rematch_of_id=rematch_of)
    game.seats = [GameSeat(player=p, seat=i) for i, p in enumerate(players)]
    db.session.add(game)
    db.session.commit()
    return game


def get_game(account_id: int, game_id: int) -> Game:
    """The account's game; another account's game is NotFound, like a missing one."""
    game = db.session.get(Game, game_id)
    if game is None or game.account_id != account_id:
        raise NotFound("Nie ma takiej gry.")
    return game


def load(account_id: int, game_id: int) -> AnyView:
    return _build(get_game(account_id, game_id))


def _build(game: Game, *, verify: bool = False) -> AnyView:
    """The view of a game from its stored turns. `verify` replays every turn through the rules
    (recomputing the points written) instead of trusting the stored points."""
    seats = list(game.seats)
    log = list(db.session.scalars(select(Turn).where(Turn.game_id == game.id).order_by(Turn.id)))
    turns = sorted((t for t in log if t.undone_at is None), key=lambda t: t.seq)
    if game.variant == rules.POKER:
        poker_options = rules.parse_poker_options(game.options)
        match = rules.PokerMatch.replay(len(seats), (t.dice_tuple for t in turns), poker_options)
        return PokerView(game, seats, turns, log, poker_options, match)
    variant = rules.find_variant(game.variant)
    options = variant.parse_options(game.options)
    if verify:
        table = rules.TableGame(variant, len(seats), options)
        for turn in turns:
            placement = table.play(turn.dice_tuple, turn.field or "", turn.column or 0)
            turn.points = placement.points
            turn.extra_bonus = placement.extra_bonus
    else:
        table = rules.TableGame.restore(
            variant,
            len(seats),
            (
                rules.TurnRecord(
                    t.seat, t.dice_tuple, t.field or "", t.column or 0, t.points or 0, t.extra_bonus
                )
                for t in turns
            ),
            options,
        )
    return GameView(game, seats, turns, log, variant, options, table)


def _check_expected(view: AnyView, expected_seq: int | None, player: str | None) -> None:
    if expected_seq is not None and expected_seq != view.next_seq:
        raise Conflict(ALREADY_WRITTEN)
    if player is not None:
        current = view.current_name
        if current is None:
            raise Conflict(MATCH_OVER if view.is_poker else GAME_OVER)
        if player.casefold() != current.casefold():
            raise Conflict(f"Teraz jest kolej gracza {current}, nie {player}.", "player")


def record_turn(
    account_id: int,
    game_id: int,
    dice: object,
    field: object = None,
    column: object = None,
    *,
    expected_seq: int | None = None,
    player: str | None = None,
) -> AnyView:
    """Write the current player's turn (a table field, or a poker hand). InvalidInput for
    malformed input, Conflict for a move the rules refuse or a turn already written (stale
    phone, retried request)."""
    view = load(account_id, game_id)
    _check_expected(view, expected_seq, player)
    if view.finished:
        raise Conflict(MATCH_OVER if view.is_poker else GAME_OVER)
    try:
        parsed = rules.parse_dice(dice)
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "dice") from exc
    seat = view.current_seat
    assert seat is not None
    turn = Turn(game_id=view.game.id, seq=view.next_seq, seat=seat, dice="".join(map(str, parsed)))
    if isinstance(view, PokerView):
        if field is not None or column is not None:
            raise InvalidInput("W pokerze kościanym podaje się tylko kości, bez pola tabeli.")
        view.match.play(parsed)
    else:
        column = _table_column(view, column)
        if not isinstance(field, str):
            raise InvalidInput("Podaj pole tabeli.", "field")
        try:
            placement = view.table.play(parsed, field, column)
        except rules.MoveRefused as exc:
            raise Conflict(str(exc), "field") from exc
        except rules.RulesError as exc:
            raise InvalidInput(str(exc), "field") from exc
        turn.field, turn.column = field, column
        turn.points, turn.extra_bonus = placement.points, placement.extra_bonus
    db.session.add(turn)
    _cache_results(view)
    try:
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise Conflict(ALREADY_WRITTEN) from exc
    view.turns.append(turn)
    view.log.append(turn)
    return view


def _table_column(view: GameView, column: object) -> int:
    if column is None:
        if view.variant.columns > 1:
            raise InvalidInput("W kościach potrójnych podaj kolumnę (0, 1 albo 2).", "column")
        return 0
    if isinstance(column, bool) or not isinstance(column, int):
        raise InvalidInput("Kolumna musi być liczbą całkowitą.", "column")
    return column


def undo_last_turn(account_id: int, game_id: int, *, expected_seq: int | None = None) -> AnyView:
    """Take back the last turn in force. It stays in the log, marked as corrected."""
    view = load(account_id, game_id)
    if expected_seq is not None and expected_seq != view.next_seq:
        raise Conflict(
            "Stan gry zmienił się na innym telefonie. Sprawdź tabelę i spróbuj ponownie."
        )
    if not view.turns:
        raise Conflict("Nie ma czego cofać: to początek gry.")
    last = view.turns[-1]
    result = db.session.execute(
        update(Turn).where(Turn.id == last.id, Turn.undone_at.is_(None)).values(undone_at=utcnow())
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        db.session.rollback()
        raise Conflict("Ten ruch został już cofnięty (może na innym telefonie).")
    db.session.expire_all()
    view = load(account_id, game_id)
    _cache_results(view)
    db.session.commit()
    return view


def _cache_results(view: AnyView) -> None:
    """Store the derived results on the seats (recomputable from the turns, see `recompute_all`):
    totals (round wins in poker), places and winners once the game is over, and for statistics
    the upper bonuses, five of a kind rolled and extra Generał bonuses."""
    state = view.state
    scores = tuple(view.match.round_wins) if isinstance(view, PokerView) else view.table.scores
    places = rules.places_of(scores)
    winners = set(state.winners)
    for seat in view.seats:
        seat.total = scores[seat.seat]
        seat.place = places[seat.seat] if state.finished else None
        seat.is_winner = seat.seat in winners
        if isinstance(view, GameView):
            totals = view.table.totals(seat.seat)
            seat.upper_bonuses = sum(1 for c in totals.columns if c.upper_bonus)
            seat.extra_bonuses = sum(c.extra_bonus for c in totals.columns) // 100
            seat.generals = sum(
                1
                for t in view.table.turns
                if t.seat == seat.seat and rules.is_five_of_a_kind(t.dice)
            )
    if state.finished and view.game.finished_at is None:
        view.game.finished_at = utcnow()
    elif not state.finished:
        view.game.finished_at = None


def delete_game(account_id: int, game_id: int) -> None:
    game = get_game(account_id, game_id)
    db.session.delete(game)
    db.session.commit()


def rematch(account_id: int, game_id: int) -> Game:
    """Same players and variant; the next player in the seating starts."""
    game = get_game(account_id, game_id)
    if not game.finished:
        raise Conflict("Rewanż można zagrać po zakończeniu gry.")
    names = [s.player.name for s in game.seats]
    names = names[1:] + names[:1]
    return create_game(account_id, game.variant, names, game.options, rematch_of=game.id)


def list_games(account_id: int, *, finished: bool | None = None) -> list[Game]:
    query = select(Game).where(Game.account_id == account_id)
    if finished is True:
        query = query.where(Game.finished_at.is_not(None))
    elif finished is False:
        query = query.where(Game.finished_at.is_(None))
    return list(db.session.scalars(query.order_by(Game.started_at.desc(), Game.id.desc())))


@dataclass(frozen=True)
class GameSummary:
    """A game as a list shows it: the variant, who sits at the table, how far the game got."""

    game: Game
    variant_name: str
    names: list[str]
    turns_played: int  # turns in force
    round: int  # 1-based round (kolejka), as `TableGame.round` counts it
    rounds: int | None  # turns per player; None for a poker match
    winners: list[str]  # from the cached results; empty until the game is over


def summaries(
    account_id: int, *, finished: bool | None = None, limit: int | None = None
) -> list[GameSummary]:
    """The account's games, newest first, with their progress; two queries, not one per game."""
    query = (
        select(Game)
        .where(Game.account_id == account_id)
        .options(selectinload(Game.seats))
        .order_by(Game.started_at.desc(), Game.id.desc())
    )
    if finished is True:
        query = query.where(Game.finished_at.is_not(None))
    elif finished is False:
        query = query.where(Game.finished_at.is_(None))
    if limit is not None:
        query = query.limit(limit)
    games = list(db.session.scalars(query))
    played: dict[int, int] = {}
    if games:
        played = {
            game_id: count
            for game_id, count in db.session.execute(
                select(Turn.game_id, func.count())
                .where(Turn.game_id.in_([g.id for g in games]), Turn.undone_at.is_(None))
                .group_by(Turn.game_id)
            )
        }
    result = []
    for game in games:
        players = max(len(game.seats), 1)
        turns = played.get(game.id, 0)
        # A poker match has no fixed number of rounds: `rounds` is None there.
        rounds = None if game.variant == rules.POKER else rules.find_variant(game.variant).turns
        current = turns // players + 1
        result.append(
            GameSummary(
                game=game,
                variant_name=rules.VARIANT_NAMES[game.variant],
                names=[s.player.name for s in game.seats],
                turns_played=turns,
                round=current if rounds is None else min(current, rounds),
                rounds=rounds,
                winners=[s.player.name for s in game.seats if s.is_winner and game.finished],
            )
        )
    return result


def recompute_all() -> int:
    """Replay every game's turns through the rules and rewrite all cached figures.

    Returns the number of games recomputed. Points written in each turn are recomputed from the
    dice too, so a corrected rule reaches every stored game.
    """
    count = 0
    for game in db.session.scalars(select(Game)):
        _cache_results(_build(game, verify=True))
        count += 1
    db.session.commit()
    return count


__all__ = [
    "GameSummary",
    "AnyView",
    "GameView",
    "PokerView",
    "Player",
    "create_game",
    "delete_game",
    "get_game",
    "list_games",
    "load",
    "rematch",
    "record_turn",
    "recompute_all",
    "summaries",
    "undo_last_turn",
]
