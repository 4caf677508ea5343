"""Table games: create, load, write a turn, undo, delete, rematch.

The database keeps the turns; `tracker.rules.TableGame` turns them into sheets, totals and
winners. Each write is one transaction, and the partial unique index on (game, seq) of turns in
force makes the database store a turn once even when two phones send it at the same moment.
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
from .errors import Conflict, InvalidInput, NotFound
from .players import players_by_names

MAX_PLAYERS = 8
ALREADY_WRITTEN = (
    "Ten ruch został już zapisany (może na innym telefonie). Sprawdź tabelę i graj dalej."
)


@dataclass
class GameView:
    """A table game as loaded for one request: the stored rows plus what the rules derive."""

    game: Game
    variant: rules.Variant
    options: rules.Options
    seats: list[GameSeat]
    turns: list[Turn]  # in force, in order
    log: list[Turn]  # every turn ever written, corrected ones included, in order of writing
    table: rules.TableGame

    @property
    def names(self) -> list[str]:
        return [s.player.name for s in self.seats]

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def current_seat(self) -> int | None:
        return self.table.current_seat

    @property
    def current_name(self) -> str | None:
        seat = self.current_seat
        return None if seat is None else self.seats[seat].player.name

    @property
    def next_seq(self) -> int:
        return len(self.turns) + 1

    @property
    def winners(self) -> list[str]:
        return [self.seats[i].player.name for i in self.table.winners]


def parse_variant(variant_id: object) -> rules.Variant:
    try:
        return rules.find_variant(variant_id)
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "variant") from exc


def options_of(variant: rules.Variant, raw: Any) -> rules.Options:
    try:
        return variant.parse_options(raw or None)
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
    variant = parse_variant(variant_id)
    parsed = options_of(variant, options)
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_PLAYERS:
        raise InvalidInput(f"Przy stole siedzi od 1 do {MAX_PLAYERS} graczy.", "players")
    if not all(isinstance(n, str) for n in names):
        raise InvalidInput("Imiona graczy podaj jako tekst.", "players")
    players = players_by_names(account_id, names)
    if shuffle:
        random.SystemRandom().shuffle(players)
    game = Game(
        account_id=account_id,
        variant=variant.id,
        options=parsed.as_dict(),
        rematch_of_id=rematch_of,
    )
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


def load(account_id: int, game_id: int) -> GameView:
    game = get_game(account_id, game_id)
    variant = rules.find_variant(game.variant)
    options = variant.parse_options(game.options)
    seats = list(game.seats)
    log = list(db.session.scalars(select(Turn).where(Turn.game_id == game.id).order_by(Turn.id)))
    turns = sorted((t for t in log if t.undone_at is None), key=lambda t: t.seq)
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
    return GameView(game, variant, options, seats, turns, log, table)


def _check_expected(view: GameView, expected_seq: int | None, player: str | None) -> None:
    if expected_seq is not None and expected_seq != view.next_seq:
        raise Conflict(ALREADY_WRITTEN)
    if player is not None:
        current = view.current_name
        if current is None:
            raise Conflict("Gra jest zakończona: wszystkie tabele są pełne.")
        if player.casefold() != current.casefold():
            raise Conflict(f"Teraz jest kolej gracza {current}, nie {player}.", "player")


def record_turn(
    account_id: int,
    game_id: int,
    dice: object,
    field: object,
    column: object = None,
    *,
    expected_seq: int | None = None,
    player: str | None = None,
) -> GameView:
    """Write the current player's turn. InvalidInput for malformed input, Conflict for a move the
    rules refuse or a turn already written (stale phone, retried request)."""
    view = load(account_id, game_id)
    _check_expected(view, expected_seq, player)
    if view.finished:
        raise Conflict("Gra jest zakończona: wszystkie tabele są pełne.")
    try:
        parsed = rules.parse_dice(dice)
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "dice") from exc
    if column is None:
        if view.variant.columns > 1:
            raise InvalidInput("W kościach potrójnych podaj kolumnę (0, 1 albo 2).", "column")
        column = 0
    if isinstance(column, bool) or not isinstance(column, int):
        raise InvalidInput("Kolumna musi być liczbą całkowitą.", "column")
    if not isinstance(field, str):
        raise InvalidInput("Podaj pole tabeli.", "field")
    seat = view.current_seat
    assert seat is not None
    try:
        placement = view.table.play(parsed, field, column)
    except rules.MoveRefused as exc:
        raise Conflict(str(exc), "field") from exc
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "field") from exc
    db.session.add(
        Turn(
            game_id=view.game.id,
            seq=view.next_seq,
            seat=seat,
            dice="".join(map(str, parsed)),
            field=field,
            column=column,
            points=placement.points,
            extra_bonus=placement.extra_bonus,
        )
    )
    _cache_results(view)
    try:
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise Conflict(ALREADY_WRITTEN) from exc
    return load(account_id, game_id)


def undo_last_turn(account_id: int, game_id: int, *, expected_seq: int | None = None) -> GameView:
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


def _cache_results(view: GameView) -> None:
    """Store the derived totals, places and winners on the seats (recomputable from turns)."""
    table = view.table
    scores = table.scores
    places = rules.places_of(scores)
    winners = set(table.winners)
    for seat in view.seats:
        seat.total = scores[seat.seat]
        seat.place = places[seat.seat] if table.finished else None
        seat.is_winner = seat.seat in winners
    if table.finished and view.game.finished_at is None:
        view.game.finished_at = utcnow()
    elif not table.finished:
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
    rounds: int  # turns per player
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
        variant = rules.find_variant(game.variant)
        players = max(len(game.seats), 1)
        turns = played.get(game.id, 0)
        result.append(
            GameSummary(
                game=game,
                variant_name=variant.name,
                names=[s.player.name for s in game.seats],
                turns_played=turns,
                round=min(turns // players + 1, variant.turns),
                rounds=variant.turns,
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
        variant = rules.find_variant(game.variant)
        options = variant.parse_options(game.options)
        turns = list(
            db.session.scalars(
                select(Turn)
                .where(Turn.game_id == game.id, Turn.undone_at.is_(None))
                .order_by(Turn.seq)
            )
        )
        table = rules.TableGame(variant, len(game.seats), options)
        for turn in turns:
            placement = table.play(turn.dice_tuple, turn.field or "", turn.column or 0)
            turn.points = placement.points
            turn.extra_bonus = placement.extra_bonus
        view = GameView(game, variant, options, list(game.seats), turns, turns, table)
        _cache_results(view)
        count += 1
    db.session.commit()
    return count


__all__ = [
    "GameSummary",
    "GameView",
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
