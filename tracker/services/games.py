"""Games: create, load, write a turn, undo, delete, rematch, for table games and dice poker.

The database keeps the turns; `tracker.rules` turns them into sheets, totals and winners
(`TableGame`) or rounds and round wins (`PokerMatch`).

Every write to a game decides inside the transaction that stores it: its first statement locks
the game's row (`_locked`), and only then is the game read, checked against the rules and
written. Two phones (or worker processes, or servers) writing to one game at the same moment
are therefore served one after the other, and the second decides on what the first wrote: a
turn racing an undo can never leave a gap in the turns. The partial unique index on (game, seq)
of turns in force stays as a last guard.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

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
# The most turns a game may hold, when played and when imported alike (a poker match of many
# drawn rounds could otherwise grow without end, and then no export of it could be imported).
MAX_TURNS_PER_GAME = 5000
ALREADY_WRITTEN = (
    "Ten ruch został już zapisany (może na innym telefonie). Sprawdź tabelę i graj dalej."
)
NO_GAME = "Nie ma takiej gry."
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
    uid: str
    version: int

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
    _games.c.uid,
    _games.c.version,
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
_GAME_COLUMNS = len(_GAME_QUERY.selected_columns)
# The first statement of every write to a game: it takes the lock that the rest of the write is
# decided under (SQLite's write lock, a row lock on PostgreSQL), and changes nothing.
_LOCK_GAME = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"), _games.c.account_id == bindparam("owner_id"))
    .values(version=_games.c.version)
)
_BUMP_VERSION = (
    update(_games).where(_games.c.id == bindparam("game_id")).values(version=_games.c.version + 1)
)
_REMATCH_QUERY = select(_games.c.id).where(_games.c.rematch_of_id == bindparam("game_id"))


@dataclass(frozen=True)
class _CachedTable:
    """A table game's state as this process last built it, and what it was built from."""

    uid: str
    version: int
    variant: str
    player_ids: tuple[int, ...]
    turns: tuple[TurnRow, ...]
    table: rules.TableGame  # never handed out: every hit gets a copy

    def serves(self, game: GameRow, seats: list[SeatRow]) -> bool:
        """Whether this state is the game's as read now: the same game (its uid is never given
        to another), unchanged since (every write raises the version), and, as a check on
        both, the same variant and players."""
        return (
            self.uid == game.uid
            and self.version == game.version
            and self.variant == game.variant
            and self.player_ids == tuple(s.player.id for s in seats)
        )


# Per server process (shared by its threads): the table state of recently played games, by game
# id. It only saves rebuilding a sheet from its turns: every hit is checked against the game's
# row read in the same transaction (`_CachedTable.serves`), so it never answers for another
# game, another process's write or a stale version. Entries go on undo and delete.
_TABLE_CACHE: dict[int, _CachedTable] = {}
_TABLE_CACHE_SIZE = 256


def clear_caches() -> None:
    """Forget every cached table state of this process (tests start each from nothing)."""
    _TABLE_CACHE.clear()


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
_GAME_IDS_QUERY = select(_games.c.id).order_by(_games.c.id)
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
    order = list(range(len(names)))
    if shuffle:
        random.SystemRandom().shuffle(order)

    def attempt() -> Game:
        players = players_by_names(account_id, names)
        game = Game(
            account_id=account_id, variant=variant, options=parsed, rematch_of_id=rematch_of
        )
        game.seats = [GameSeat(player=players[i], seat=seat) for seat, i in enumerate(order)]
        db.session.add(game)
        db.session.commit()
        return game

    return _retry_on_integrity_error(attempt)


def get_game(account_id: int, game_id: int) -> Game:
    """The account's game; another account's game is NotFound, like a missing one."""
    game = db.session.get(Game, game_id)
    if game is None or game.account_id != account_id:
        raise NotFound(NO_GAME)
    return game


def _check_id(game_id: object) -> int:
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        raise NotFound(NO_GAME)
    return game_id


def _read_game(account_id: int, game_id: int) -> tuple[GameRow, list[SeatRow]]:
    rows = (
        db.session.connection()
        .execute(_GAME_WITH_SEATS_QUERY, {"game_id": _check_id(game_id), "account_id": account_id})
        .all()
    )
    if not rows:
        raise NotFound(NO_GAME)
    return GameRow(*rows[0][:_GAME_COLUMNS]), [_seat_row(r[_GAME_COLUMNS:]) for r in rows]


def load(account_id: int, game_id: int, *, log: bool = True) -> AnyView:
    """The account's game with its turns; NotFound for another account's or a missing game.
    `log=False` skips the corrected turns (the turn path does not need them)."""
    game, seats = _read_game(account_id, game_id)
    return _build(game, seats, log=log)


def _load_for_turn(account_id: int, game_id: int) -> AnyView:
    """`load(..., log=False)` for writing a turn, reusing this process's table state when it
    is provably this game's current state."""
    game, seats = _read_game(account_id, game_id)
    cached = _TABLE_CACHE.get(game.id)
    if cached is not None and cached.serves(game, seats):
        turns = list(cached.turns)
        variant = rules.find_variant(game.variant)
        table = cached.table.copy()
        return GameView(game, seats, turns, list(turns), variant, table.options, table)
    return _build(game, seats, log=False)


def _expire_game(game_id: int) -> None:
    """Writes on the turn path go through Core: a `Game` this session already holds (read by
    `get_game`) must read `finished_at` and `version` again rather than keep the old values."""
    game = db.session.identity_map.get(db.session.identity_key(Game, game_id))
    if game is not None:
        db.session.expire(game, ["finished_at", "version"])


def _remember_table(view: AnyView) -> None:
    if isinstance(view, GameView) and view.turns:
        if len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
            _TABLE_CACHE.clear()
        _TABLE_CACHE[view.game.id] = _CachedTable(
            uid=view.game.uid,
            version=view.game.version,
            variant=view.game.variant,
            player_ids=tuple(s.player.id for s in view.seats),
            turns=tuple(view.turns),
            table=view.table.copy(),
        )


@contextmanager
def _locked(account_id: int, game_id: object) -> Iterator[None]:
    """A write to one game: lock its row first (NotFound if the account has no such game),
    then let the caller read, check and write; commit when the caller commits, roll back on
    any error. See the module docstring."""
    game_id = _check_id(game_id)
    try:
        locked = db.session.connection().execute(
            _LOCK_GAME, {"game_id": game_id, "owner_id": account_id}
        )
        if locked.rowcount == 0:
            raise NotFound(NO_GAME)
        yield
    except BaseException:
        db.session.rollback()
        raise


def _bump_version(view: AnyView) -> None:
    """Record, in the write's transaction, that the game changed."""
    db.session.connection().execute(_BUMP_VERSION, {"game_id": view.game.id})
    view.game.version += 1


T = TypeVar("T")


def _retry_on_integrity_error(attempt: Callable[[], T], attempts: int = 3) -> T:
    """Run a write that may lose a race on a unique key (two phones creating the same new
    player at once): the loser rolls back and tries again, and then finds the winner's row."""
    for remaining in range(attempts - 1, -1, -1):
        try:
            return attempt()
        except IntegrityError:
            db.session.rollback()
            if not remaining:
                raise Conflict(
                    "Ktoś właśnie zmienił te same dane na innym telefonie. Spróbuj ponownie."
                ) from None
    raise AssertionError("unreachable")


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(r[0], r[1], PlayerRef(r[2], r[3]), *r[4:])


def _build(game: GameRow, seats: list[SeatRow] | None = None, *, log: bool = True) -> AnyView:
    """The view of a game from its stored turns (trusting the points stored with them)."""
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


def _replay_points(view: GameView) -> bool:
    """Replay every turn through the rules, rewriting the points stored with a turn where the
    rules now say otherwise (a corrected rule). Whether anything was rewritten."""
    table = rules.TableGame(view.variant, len(view.seats), view.options)
    rewritten = False
    for turn in view.turns:
        placement = table.play(turn.dice_tuple, turn.field or "", turn.column or 0)
        if (turn.points, turn.extra_bonus) != (placement.points, placement.extra_bonus):
            turn.points, turn.extra_bonus = placement.points, placement.extra_bonus
            db.session.connection().execute(
                update(_turns)
                .where(_turns.c.id == turn.id)
                .values(points=turn.points, extra_bonus=turn.extra_bonus)
            )
            rewritten = True
    view.table = table
    return rewritten


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
    phone, retried request: `expected_seq` is the seq the client expects the turn to get)."""
    try:
        parsed = rules.parse_dice(dice)
    except rules.RulesError as exc:
        raise InvalidInput(str(exc), "dice") from exc
    with _locked(account_id, game_id):
        view = _load_for_turn(account_id, game_id)
        _write_turn(view, parsed, field, column, expected_seq, player)
    _expire_game(view.game.id)
    _remember_table(view)
    return view


def _write_turn(
    view: AnyView,
    parsed: rules.Dice,
    field: object,
    column: object,
    expected_seq: int | None,
    player: str | None,
) -> None:
    """Check the turn against the game as read under the lock, then store it and commit."""
    _check_expected(view, expected_seq, player)
    if view.finished:
        raise Conflict(MATCH_OVER if view.is_poker else GAME_OVER)
    if len(view.turns) >= MAX_TURNS_PER_GAME:
        raise Conflict(f"Gra ma już {MAX_TURNS_PER_GAME} ruchów: więcej nie można zapisać.")
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
        _bump_version(view)
        db.session.commit()
    except IntegrityError as exc:  # cannot happen under the lock; the index guards anyway
        raise Conflict(ALREADY_WRITTEN) from exc
    view.turns.append(turn)
    view.log.append(turn)


def _table_column(view: GameView, column: object) -> int:
    if column is None:
        if view.variant.columns > 1:
            raise InvalidInput("W kościach potrójnych podaj kolumnę (0, 1 albo 2).", "column")
        return 0
    if isinstance(column, bool) or not isinstance(column, int):
        raise InvalidInput("Kolumna musi być liczbą całkowitą.", "column")
    return column


def undo_last_turn(account_id: int, game_id: int, *, expected_seq: int | None = None) -> AnyView:
    """Take back the last turn in force. It stays in the log, marked as corrected.
    `expected_seq` is the seq the next turn would get on the client's screen: a phone that has
    not seen the latest turn cannot take it back by mistake."""
    with _locked(account_id, game_id):
        view = load(account_id, game_id)
        if expected_seq is not None and expected_seq != view.next_seq:
            raise Conflict(
                "Stan gry zmienił się na innym telefonie. Sprawdź tabelę i spróbuj ponownie."
            )
        if not view.turns:
            raise Conflict("Nie ma czego cofać: to początek gry.")
        last = view.turns[-1]
        db.session.connection().execute(
            update(_turns).where(_turns.c.id == last.id).values(undone_at=utcnow())
        )
        _TABLE_CACHE.pop(view.game.id, None)
        view = load(account_id, game_id)
        _cache_results(view)
        _bump_version(view)
        db.session.commit()
    _expire_game(view.game.id)
    return view


def _cache_results(view: AnyView, seats: set[int] | None = None) -> bool:
    """Store the derived results on the seats (recomputable from the turns, see `recompute_all`):
    totals (round wins in poker), places and winners once the game is over, and for statistics
    the upper bonuses, five of a kind rolled and extra Generał bonuses. Only changed rows are
    written, in the caller's transaction; the answer says whether any was. `seats` limits the
    work to the seats whose sheet changed, unless the game has just ended (places and winners
    concern everyone)."""
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
        return True
    return bool(changed)


def refresh_results(game_id: int) -> AnyView:
    """Replay one game's turns through the rules and rewrite its cached figures, in the caller's
    transaction: for code that writes turns in bulk, such as an import."""
    row = db.session.connection().execute(_GAME_BY_ID_QUERY, {"game_id": game_id}).one()
    view = _build(GameRow(*row), log=False)
    rewritten = isinstance(view, GameView) and _replay_points(view)
    if _cache_results(view) or rewritten:
        _bump_version(view)
    return view


def delete_game(account_id: int, game_id: int) -> None:
    with _locked(account_id, game_id):
        game = get_game(account_id, game_id)
        db.session.delete(game)
        db.session.commit()
    _TABLE_CACHE.pop(game_id, None)


def rematch(account_id: int, game_id: int) -> Game:
    """Same players and variant; the next player in the seating starts. A game has one
    rematch: asked again (a second tap, another phone on the same end screen), the answer is
    the rematch already started."""
    with _locked(account_id, game_id):
        existing = db.session.scalar(_REMATCH_QUERY, {"game_id": game_id})
        if existing is not None:
            db.session.commit()
            return get_game(account_id, existing)
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
    game_ids = db.session.connection().execute(_GAME_IDS_QUERY).scalars().all()
    for game_id in game_ids:
        refresh_results(game_id)
    db.session.commit()
    _TABLE_CACHE.clear()
    return len(game_ids)


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
