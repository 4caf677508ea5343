"""Games: create, load, write a turn, undo, delete, rematch, for table games and dice poker.

The database keeps the turns; `tracker.rules` turns them into sheets, totals and winners
(`TableGame`) or rounds and round wins (`PokerMatch`). Each write is one transaction, and the
partial unique index on (game, seq) of turns in force makes the database store a turn once even
when two phones send it at the same moment.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
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


@dataclass(frozen=True)
class PlayerRef:
    id: int
    name: str


@dataclass
class GameRow:
    """A game's row, read with one Core query (the turn path avoids ORM loading costs)."""

    id: int
    account_id: int
    variant: str
    options: dict[str, Any]
    started_at: datetime
    finished_at: datetime | None
    rematch_of_id: int | None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass
class SeatRow:
    id: int
    seat: int
    player: PlayerRef
    total: int
    place: int | None
    is_winner: bool
    upper_bonuses: int
    generals: int
    extra_bonuses: int


@dataclass
class TurnRow:
    id: int
    seq: int
    seat: int
    dice: str
    field: str | None
    column: int | None
    points: int | None
    extra_bonus: int
    created_at: datetime | None = None  # None when read by the turn path, which skips it
    undone_at: datetime | None = None

    @property
    def dice_tuple(self) -> rules.Dice:
        return dice_of(self.dice)


@functools.lru_cache(maxsize=8192)
def dice_of(text: str) -> rules.Dice:
    """The dice stored as five digits, as a tuple (every request turns dozens of them back)."""
    d = [int(ch) for ch in text]
    return (d[0], d[1], d[2], d[3], d[4])


_games = Game.__table__
_seats = GameSeat.__table__
_players = Player.__table__
_turns = Turn.__table__

# Built once: writing a turn runs these on every request.
_GAME_QUERY = select(
    _games.c.id,
    _games.c.account_id,
    _games.c.variant,
    _games.c.options,
    _games.c.started_at,
    _games.c.finished_at,
    _games.c.rematch_of_id,
).where(_games.c.id == bindparam("game_id"), _games.c.account_id == bindparam("account_id"))
_SEATS_QUERY = (
    select(
        _seats.c.id,
        _seats.c.seat,
        _players.c.id.label("player_id"),
        _players.c.name,
        _seats.c.total,
        _seats.c.place,
        _seats.c.is_winner,
        _seats.c.upper_bonuses,
        _seats.c.generals,
        _seats.c.extra_bonuses,
    )
    .join(_players, _players.c.id == _seats.c.player_id)
    .where(_seats.c.game_id == bindparam("game_id"))
    .order_by(_seats.c.seat)
)
# The game and its seats in one statement: the turn path runs it on every request.
_GAME_WITH_SEATS_QUERY = (
    select(*_GAME_QUERY.selected_columns, *_SEATS_QUERY.selected_columns)
    .select_from(_games)
    .join(_seats, _seats.c.game_id == _games.c.id)
    .join(_players, _players.c.id == _seats.c.player_id)
    .where(_games.c.id == bindparam("game_id"), _games.c.account_id == bindparam("account_id"))
    .order_by(_seats.c.seat)
)
# What identifies the turns in force of a game: how many there are and the newest one's id
# (an undo lowers the count; an undo followed by a new turn raises the id).
_IN_FORCE = (_turns.c.game_id == _games.c.id) & _turns.c.undone_at.is_(None)
_TURN_PATH_QUERY = _GAME_WITH_SEATS_QUERY.add_columns(
    select(func.count()).where(_IN_FORCE).scalar_subquery(),
    select(func.max(_turns.c.id)).where(_IN_FORCE).scalar_subquery(),
)
_SEAT_COLUMNS = len(_SEATS_QUERY.selected_columns)

# Per server process: the table state of recently played games, keyed by game id, valid while
# the key above is unchanged. Checked against the database on every request, so several
# processes (and several phones) never see a stale sheet; it only saves rebuilding it.
_TABLE_CACHE: dict[int, tuple[tuple[int, int | None], list[TurnRow], rules.TableGame]] = {}
_TABLE_CACHE_SIZE = 256

_TURN_COLUMNS = (
    _turns.c.id,
    _turns.c.seq,
    _turns.c.seat,
    _turns.c.dice,
    _turns.c.field,
    _turns.c.column,
    _turns.c.points,
    _turns.c.extra_bonus,
    _turns.c.created_at,
    _turns.c.undone_at,
)
_LOG_QUERY = (
    select(*_TURN_COLUMNS).where(_turns.c.game_id == bindparam("game_id")).order_by(_turns.c.id)
)
# The turn path needs neither timestamps (parsing them is a real share of a request) nor the
# corrected turns.
_TURNS_IN_FORCE_QUERY = (
    select(*_TURN_COLUMNS[:8])
    .where(_turns.c.game_id == bindparam("game_id"), _turns.c.undone_at.is_(None))
    .order_by(_turns.c.seq)
)
_GAME_BY_ID_QUERY = select(*_GAME_QUERY.selected_columns).where(_games.c.id == bindparam("game_id"))
_ALL_GAMES_QUERY = select(*_GAME_QUERY.selected_columns).order_by(_games.c.id)
_INSERT_TURN = insert(_turns)
_UPDATE_SEAT = (
    update(_seats)
    .where(_seats.c.id == bindparam("seat_id"))
    .values(
        total=bindparam("total"),
        place=bindparam("place"),
        is_winner=bindparam("is_winner"),
        upper_bonuses=bindparam("upper_bonuses"),
        generals=bindparam("generals"),
        extra_bonuses=bindparam("extra_bonuses"),
    )
)
_UPDATE_FINISHED = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"))
    .values(finished_at=bindparam("finished_at"))
)


@dataclass
class _View:
    """What every game view has: the stored rows, and the rules' state built from the turns."""

    game: GameRow
    seats: list[SeatRow]
    turns: list[TurnRow]  # in force, in order
    log: list[TurnRow]  # every turn ever written, corrected ones included, in order of writing

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


def load(account_id: int, game_id: int, *, log: bool = True) -> AnyView:
    """The account's game with its turns; NotFound for another account's or a missing game.
    `log=False` skips the corrected turns (the turn path does not need them)."""
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        raise NotFound("Nie ma takiej gry.")
    conn = db.session.connection()
    rows = conn.execute(
        _GAME_WITH_SEATS_QUERY, {"game_id": game_id, "account_id": account_id}
    ).all()
    if not rows:
        raise NotFound("Nie ma takiej gry.")
    game = GameRow(*rows[0][:7])
    seats = [_seat_row(r[7:]) for r in rows]
    return _build(game, seats, log=log)


def _load_for_turn(account_id: int, game_id: int) -> AnyView:
    """`load(..., log=False)` for writing a turn, reusing this process's table state when the
    turns in force have not changed since it was built."""
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        raise NotFound("Nie ma takiej gry.")
    rows = (
        db.session.connection()
        .execute(_TURN_PATH_QUERY, {"game_id": game_id, "account_id": account_id})
        .all()
    )
    if not rows:
        raise NotFound("Nie ma takiej gry.")
    game = GameRow(*rows[0][:7])
    seats = [_seat_row(r[7 : 7 + _SEAT_COLUMNS]) for r in rows]
    key = (rows[0][-2], rows[0][-1])
    cached = _TABLE_CACHE.get(game.id)
    if cached is not None and cached[0] == key and game.variant != rules.POKER:
        variant = rules.find_variant(game.variant)
        turns = list(cached[1])
        return GameView(
            game, seats, turns, list(turns), variant, cached[2].options, cached[2].copy()
        )
    return _build(game, seats, log=False)


def _expire_game(game_id: int) -> None:
    """Writes on the turn path go through Core: a `Game` this session already holds (read by
    `get_game`) must read `finished_at` again rather than keep the old value."""
    game = db.session.identity_map.get(db.session.identity_key(Game, game_id))
    if game is not None:
        db.session.expire(game, ["finished_at"])


def _remember_table(view: AnyView) -> None:
    if isinstance(view, GameView) and view.turns:
        if len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
            _TABLE_CACHE.clear()
        key = (len(view.turns), max(t.id for t in view.turns))
        _TABLE_CACHE[view.game.id] = (key, list(view.turns), view.table.copy())


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(r[0], r[1], PlayerRef(r[2], r[3]), *r[4:])


def _build(
    game: GameRow, seats: list[SeatRow] | None = None, *, verify: bool = False, log: bool = True
) -> AnyView:
    """The view of a game from its stored turns. `verify` replays every turn through the rules
    (recomputing the points written) instead of trusting the stored points."""
    conn = db.session.connection()
    if seats is None:
        seats = [_seat_row(r) for r in conn.execute(_SEATS_QUERY, {"game_id": game.id})]
    if log:
        all_turns = [TurnRow(*r) for r in conn.execute(_LOG_QUERY, {"game_id": game.id})]
        turns = sorted((t for t in all_turns if t.undone_at is None), key=lambda t: t.seq)
    else:
        turns = [TurnRow(*r) for r in conn.execute(_TURNS_IN_FORCE_QUERY, {"game_id": game.id})]
        all_turns = list(turns)
    if game.variant == rules.POKER:
        poker_options = rules.parse_poker_options(game.options)
        match = rules.PokerMatch.replay(len(seats), (t.dice_tuple for t in turns), poker_options)
        return PokerView(game, seats, turns, all_turns, poker_options, match)
    variant = rules.find_variant(game.variant)
    options = variant.parse_options(game.options)
    if verify:
        table = rules.TableGame(variant, len(seats), options)
        for turn in turns:
            placement = table.play(turn.dice_tuple, turn.field or "", turn.column or 0)
            if (turn.points, turn.extra_bonus) != (placement.points, placement.extra_bonus):
                turn.points, turn.extra_bonus = placement.points, placement.extra_bonus
                conn.execute(
                    update(_turns)
                    .where(_turns.c.id == turn.id)
                    .values(points=turn.points, extra_bonus=turn.extra_bonus)
                )
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
    return GameView(game, seats, turns, all_turns, variant, options, table)


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
    view = _load_for_turn(account_id, game_id)
    _check_expected(view, expected_seq, player)
    if view.finished:
        raise Conflict(MATCH_OVER if view.is_poker else GAME_OVER)
    try:
        parsed = rules.parse_dice(dice)
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "dice") from exc
    seat = view.current_seat
    assert seat is not None
    turn = TurnRow(
        id=0,
        seq=view.next_seq,
        seat=seat,
        dice="".join(map(str, parsed)),
        field=None,
        column=None,
        points=None,
        extra_bonus=0,
        created_at=utcnow(),
        undone_at=None,
    )
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
    conn = db.session.connection()
    try:
        result = conn.execute(
            _INSERT_TURN,
            {
                "game_id": view.game.id,
                "seq": turn.seq,
                "seat": turn.seat,
                "dice": turn.dice,
                "field": turn.field,
                "column": turn.column,
                "points": turn.points,
                "extra_bonus": turn.extra_bonus,
                "created_at": turn.created_at,
            },
        )
        turn.id = result.inserted_primary_key[0]
        _cache_results(view, {seat})
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise Conflict(ALREADY_WRITTEN) from exc
    _expire_game(view.game.id)
    view.turns.append(turn)
    view.log.append(turn)
    _remember_table(view)
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
    result = db.session.connection().execute(
        update(_turns)
        .where(_turns.c.id == last.id, _turns.c.undone_at.is_(None))
        .values(undone_at=utcnow())
    )
    if result.rowcount == 0:
        db.session.rollback()
        raise Conflict("Ten ruch został już cofnięty (może na innym telefonie).")
    view = load(account_id, game_id)
    _cache_results(view)
    db.session.commit()
    _expire_game(game_id)
    return view


def _cache_results(view: AnyView, seats: set[int] | None = None) -> None:
    """Store the derived results on the seats (recomputable from the turns, see `recompute_all`):
    totals (round wins in poker), places and winners once the game is over, and for statistics
    the upper bonuses, five of a kind rolled and extra Generał bonuses. Only changed rows are
    written, in the caller's transaction. `seats` limits the work to the seats whose sheet
    changed, unless the game has just ended (places and winners concern everyone)."""
    state = view.state
    everyone = seats is None or state.finished or view.game.finished_at is not None
    if isinstance(view, PokerView):
        scores = tuple(view.match.round_wins)
    elif everyone:
        scores = view.table.scores
    else:  # only the seats that changed are looked at: price only their sheets
        scores = tuple(
            view.table.totals(i).total if i in seats else 0  # type: ignore[operator]
            for i in range(len(view.seats))
        )
    places = rules.places_of(scores)
    winners = set(state.winners)
    generals = [0] * len(view.seats)
    if isinstance(view, GameView):
        for t in view.table.turns:
            if (everyone or t.seat in seats) and rules.is_five_of_a_kind(t.dice):  # type: ignore[operator]
                generals[t.seat] += 1
    changed = []
    for seat in view.seats:
        if not everyone and seat.seat not in seats:  # type: ignore[operator]
            continue
        figures = {
            "total": scores[seat.seat],
            "place": places[seat.seat] if state.finished else None,
            "is_winner": seat.seat in winners,
            "upper_bonuses": 0,
            "generals": 0,
            "extra_bonuses": 0,
        }
        if isinstance(view, GameView):
            totals = view.table.totals(seat.seat)
            figures["upper_bonuses"] = sum(1 for c in totals.columns if c.upper_bonus)
            figures["extra_bonuses"] = rules.extra_bonus_count(
                view.variant, view.table.sheets[seat.seat]
            )
            figures["generals"] = generals[seat.seat]
        if any(getattr(seat, key) != value for key, value in figures.items()):
            for key, value in figures.items():
                setattr(seat, key, value)
            changed.append({"seat_id": seat.id, **figures})
    conn = db.session.connection()
    if changed:
        conn.execute(_UPDATE_SEAT, changed)
    finished_at = view.game.finished_at
    if state.finished and finished_at is None:
        finished_at = utcnow()
    elif not state.finished:
        finished_at = None
    if finished_at != view.game.finished_at:
        view.game.finished_at = finished_at
        conn.execute(_UPDATE_FINISHED, {"game_id": view.game.id, "finished_at": finished_at})


def refresh_results(game_id: int) -> AnyView:
    """Replay one game's turns through the rules and rewrite its cached figures, in the caller's
    transaction: for code that writes turns in bulk, such as an import."""
    row = db.session.connection().execute(_GAME_BY_ID_QUERY, {"game_id": game_id}).one()
    view = _build(GameRow(*row), verify=True, log=False)
    _cache_results(view)
    return view


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


def turns_played(game_ids: list[int]) -> dict[int, int]:
    """Turns in force per game, for a list of games, in one query (games with none are absent)."""
    if not game_ids:
        return {}
    return {
        game_id: count
        for game_id, count in db.session.execute(
            select(Turn.game_id, func.count())
            .where(Turn.game_id.in_(game_ids), Turn.undone_at.is_(None))
            .group_by(Turn.game_id)
        )
    }


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
    played = turns_played([g.id for g in games])
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
    rows = db.session.connection().execute(_ALL_GAMES_QUERY).all()
    for row in rows:
        _cache_results(_build(GameRow(*row), verify=True, log=False))
    db.session.commit()
    return len(rows)


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
    "refresh_results",
    "summaries",
    "turns_played",
    "undo_last_turn",
]
