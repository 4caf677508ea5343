"""Export and import: an account's whole history as one JSON file, and its results as CSV.

The JSON export (format `kosci-export`, version 1) holds everything needed to rebuild the
account's games: players, and per game its variant, options, times, seats and every turn ever
written, corrected ones (`undone_at`) included, in the order they were written::

    {"format": "kosci-export", "version": 1, "exported_at": "2025-05-03T18:42:11Z",
     "account": "Kowalscy",
     "players": [{"name": "Ala", "created_at": "…"}],
     "games": [{"uid": "<32 hex digits>", "variant": "standard", "options": {…},
                "started_at": "…", "finished_at": "…" | null, "rematch_of": "<uid>" | null,
                "seats": [{"player": "Ala", "total": 245, "place": 1, "is_winner": true,
                           "upper_bonuses": 1, "generals": 0, "extra_bonuses": 0}, …],
                "turns": [{"seq": 1, "seat": 0, "dice": "66612", "field": "sixes",
                           "column": 0, "points": 18, "extra_bonus": 0,
                           "created_at": "…", "undone_at": null}, …]}]}

Times are UTC, ISO 8601 with a trailing "Z". Seats are listed in seating order. A seat's
figures (for poker, `total` is the round wins) are there for people reading the file; an import
ignores them and derives them again from the turns.

Importing trusts nothing in the file: every game's log is replayed through `tracker.rules` in the
order it was written, undos included, so points that do not match the dice, a turn out of turn,
a turn after the game is over, an unknown field or a value of the wrong type or size refuse the
whole file with a message that says where, before anything is written. Then the import writes in
short transactions of whole games, so that the table's turns are not kept waiting, and it is
idempotent: games are matched by `uid` within the account, players by name with case ignored,
so importing a file again adds only what is missing (an interrupted import is completed so).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .. import rules
from ..extensions import db
from ..models import Account, Game, GameSeat, Player, Turn, name_key, utcnow
from ..rules import moves as _moves
from ..rules.match import MIN_PLAYERS as POKER_MIN_PLAYERS
from . import inputs
from .errors import Conflict, InvalidInput, NotFound, Throttled
from .games import MAX_PLAYERS, MAX_TURNS_PER_GAME
from .players import validate_name

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

FORMAT = "kosci-export"
VERSION = 1
# An account's export outgrows the app's 1 MB request limit after a few hundred games; the
# import endpoints accept files up to this size. The largest takes a few seconds to check and
# write on a 2-core machine, well inside the server's 30 s timeout (docs/benchmarks.md,
# "Import"). A game may hold `games.MAX_TURNS_PER_GAME` turns in force, as in play.
MAX_FILE_BYTES = 32 * 1024 * 1024
DEFAULT_TIMEZONE = "Europe/Warsaw"

REFUSED = "Nic nie zaimportowano."
_UID = re.compile(r"[0-9a-f]{32}")

_TOP_KEYS = frozenset({"format", "version", "exported_at", "account", "players", "games"})
_PLAYER_KEYS = frozenset({"name", "created_at"})
_GAME_KEYS = frozenset(
    {"uid", "variant", "options", "started_at", "finished_at", "rematch_of", "seats", "turns"}
)
_SEAT_KEYS = frozenset(
    {"player", "total", "place", "is_winner", "upper_bonuses", "generals", "extra_bonuses"}
)
_TURN_KEYS = frozenset(
    {
        "seq",
        "seat",
        "dice",
        "field",
        "column",
        "points",
        "extra_bonus",
        "created_at",
        "undone_at",
    }
)


@dataclass(frozen=True)
class ImportResult:
    """What an import created: a second import of the same file creates nothing."""

    games: int
    players: int
    skipped: int = 0  # games of the file the account already had


# --- export --------------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def _account(account_id: int) -> Account:
    account = db.session.get(Account, account_id)
    if account is None:
        raise NotFound("Nie ma takiego konta.")
    return account


# Read what the database holds, not objects this session loaded earlier: the turn path writes
# results with Core statements, which leave such objects as they were.
_FRESH = {"populate_existing": True}


def _games(account_id: int) -> list[Game]:
    """The account's games, oldest first (a rematch comes after its game)."""
    return list(
        db.session.scalars(
            select(Game)
            .where(Game.account_id == account_id)
            .options(selectinload(Game.seats))
            .order_by(Game.started_at, Game.id)
            .execution_options(**_FRESH)
        )
    )


def _turns_by_game(game_ids: list[int]) -> dict[int, list[Turn]]:
    """Every turn of these games, corrected ones included, in the order they were written."""
    result: dict[int, list[Turn]] = {game_id: [] for game_id in game_ids}
    if game_ids:
        query = (
            select(Turn)
            .where(Turn.game_id.in_(game_ids))
            .order_by(Turn.game_id, Turn.id)
            .execution_options(**_FRESH)
        )
        for turn in db.session.scalars(query):
            result[turn.game_id].append(turn)
    return result


def export_account(account_id: int) -> dict[str, Any]:
    """The account's whole history as the JSON document described in the module docstring."""
    account = _account(account_id)
    players = db.session.scalars(
        select(Player)
        .where(Player.account_id == account_id)
        .order_by(Player.id)
        .execution_options(**_FRESH)
    )
    games = _games(account_id)
    turns = _turns_by_game([g.id for g in games])
    uids = {g.id: g.uid for g in games}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _iso(utcnow()),
        "account": account.name,
        "players": [{"name": p.name, "created_at": _iso(p.created_at)} for p in players],
        "games": [
            {
                "uid": game.uid,
                "variant": game.variant,
                "options": dict(game.options or {}),
                "started_at": _iso(game.started_at),
                "finished_at": _iso(game.finished_at),
                "rematch_of": uids.get(game.rematch_of_id) if game.rematch_of_id else None,
                "seats": [
                    {
                        "player": seat.player.name,
                        "total": seat.total,
                        "place": seat.place,
                        "is_winner": seat.is_winner,
                        "upper_bonuses": seat.upper_bonuses,
                        "generals": seat.generals,
                        "extra_bonuses": seat.extra_bonuses,
                    }
                    for seat in game.seats
                ],
                "turns": [
                    {
                        "seq": t.seq,
                        "seat": t.seat,
                        "dice": t.dice,
                        "field": t.field,
                        "column": t.column,
                        "points": t.points,
                        "extra_bonus": t.extra_bonus,
                        "created_at": _iso(t.created_at),
                        "undone_at": _iso(t.undone_at),
                    }
                    for t in turns[game.id]
                ],
            }
            for game in games
        ],
    }


def export_json(account_id: int) -> str:
    """`export_account` as compact UTF-8 JSON text (Polish letters as they are)."""
    return json.dumps(export_account(account_id), ensure_ascii=False, separators=(",", ":"))


CSV_HEADER = (
    "Data",
    "Wariant",
    "Gracz",
    "Punkty",
    "Wygrane rundy",
    "Miejsce",
    "Zwycięzca",
    "Zakończona",
    "Gra",
)
# A cell starting with one of these is a formula to Excel: a player named "=HYPERLINK(…)"
# must stay a name.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def export_csv(account_id: int, *, timezone: str = DEFAULT_TIMEZONE) -> str:
    """One row per player per game, oldest game first, for a spreadsheet.

    Starts with a byte order mark and separates cells with semicolons: that is what Excel in
    Polish settings opens directly, Polish letters included (with commas it puts a whole row in
    one cell). Dates are local (`timezone`), as the table saw the clock. Points for a table
    game, round wins for dice poker; place and winner stay empty while a game is unfinished.
    """
    _account(account_id)
    zone = ZoneInfo(timezone)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for game in _games(account_id):
        local = game.started_at.replace(tzinfo=UTC).astimezone(zone)
        poker = game.variant == rules.POKER
        for seat in game.seats:
            writer.writerow(
                (
                    f"{local:%Y-%m-%d %H:%M}",
                    rules.VARIANT_NAMES.get(game.variant, game.variant),
                    _cell(seat.player.name),
                    "" if poker else seat.total,
                    seat.total if poker else "",
                    seat.place if game.finished and seat.place is not None else "",
                    ("tak" if seat.is_winner else "nie") if game.finished else "",
                    "tak" if game.finished else "nie",
                    game.uid,
                )
            )
    return out.getvalue()


# --- import: reading the file ----------------------------------------------------------------


def parse_export_file(raw: bytes | str) -> object:
    """The JSON document in an uploaded file or request body; InvalidInput when it is none."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidInput(
                f"{REFUSED} Plik nie jest tekstem UTF-8, więc nie jest eksportem Kości."
            ) from exc
    if not raw.strip():
        raise InvalidInput(f"{REFUSED} Plik jest pusty.")
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{REFUSED} Plik nie jest poprawnym JSON-em (wiersz {exc.lineno}, kolumna "
            f"{exc.colno}): {exc.msg}."
        ) from exc
    except ValueError as exc:
        # Python reads at most 4,300 digits of a whole number and says so with a bare
        # ValueError; no export holds a number anywhere near that long.
        raise InvalidInput(
            f"{REFUSED} Plik zawiera liczbę o tysiącach cyfr: takiej liczby nie ma w żadnym "
            "eksporcie Kości, więc plik jest uszkodzony albo zmieniony."
        ) from exc
    except RecursionError as exc:
        raise InvalidInput(f"{REFUSED} Plik jest zbyt głęboko zagnieżdżony.") from exc


class _Refused(Exception):
    """A problem found in the file; `where` is added by the caller that knows it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _show(value: object) -> str:
    """A value of the file as the message quotes it: short, whatever its size (Python will not
    even write out an integer of more than 4,300 digits)."""
    if isinstance(value, int) and abs(value) > _MAX_INT:
        return f"liczba o ok. {int(abs(value).bit_length() * 0.30103) + 1} cyfrach"
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


_SHOWN = 60
_MAX_INT = 2**63 - 1  # the largest integer SQLite stores


def _object(raw: object, keys: frozenset[str], required: Iterable[str]) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise _Refused("to nie jest obiekt JSON.")
    if not raw.keys() <= keys:
        unknown = sorted(_show(k) if not isinstance(k, str) else k for k in set(raw) - keys)
        raise _Refused(f"nieznane pola: {', '.join(unknown)}."[: 4 * _SHOWN])
    missing = [k for k in required if k not in raw]
    if missing:
        raise _Refused(f"brak pola {', '.join(missing)}.")
    return raw


def _int(raw: object, name: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise _Refused(f"pole {name} musi być liczbą całkowitą, a jest {_show(raw)}.")
    if abs(raw) > _MAX_INT:
        raise _Refused(f"pole {name} ma wartość spoza zakresu: {_show(raw)}.")
    return raw


def _time(raw: object, name: str, *, optional: bool = False) -> datetime | None:
    """A stored time: ISO 8601, UTC ("2025-05-03T18:42:11Z"); naive, as the database keeps it."""
    if raw is None and optional:
        return None
    if not isinstance(raw, str):
        raise _Refused(f'pole {name} musi być czasem, np. "2025-05-03T18:42:11Z".')
    try:
        moment = datetime.fromisoformat(raw)
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError) as exc:  # OverflowError: year 1 or 9999 moved to UTC
        raise _Refused(
            f"pole {name} ({_show(raw)}) nie jest czasem w formacie ISO 8601, "
            'np. "2025-05-03T18:42:11Z".'
        ) from exc
    if not inputs.FIRST_DAY <= moment.date() <= inputs.LAST_DAY:
        # Shown in local time, a moment at the calendar's very end would overflow every page.
        raise _Refused(f"pole {name} ({_show(raw)}) leży poza zakresem dat.")
    return moment


@dataclass(slots=True)
class _Turn:
    index: int  # position in the file's log: the order of writing
    seq: int
    seat: int
    dice: rules.Dice
    dice_text: str
    field: str | None
    column: int | None
    points: int | None
    extra_bonus: int
    created_at: datetime
    undone_at: datetime | None

    @property
    def undone(self) -> bool:
        return self.undone_at is not None


@dataclass(slots=True)
class _Game:
    """A game of the file, checked: what will be written, nothing else (the rules' state it was
    checked with is gone, only the figures derived from it are kept)."""

    uid: str
    variant: str
    options: dict[str, int]
    started_at: datetime
    finished_at: datetime | None  # None while the game is unfinished, whatever the file says
    rematch_of: str | None
    players: list[str]  # name keys, in seating order
    turns: list[_Turn]  # the whole log, in the order of writing
    figures: list[dict[str, Any]]  # per seat: what `games._cache_results` would store


def _parse_players(raw: object) -> dict[str, tuple[str, datetime | None]]:
    """name key → (name, created_at)."""
    if not isinstance(raw, list):
        raise _Refused("Pole players musi być listą graczy.")
    players: dict[str, tuple[str, datetime | None]] = {}
    for number, item in enumerate(raw, 1):
        try:
            data = _object(item, _PLAYER_KEYS, ("name",))
            if not isinstance(data["name"], str):
                raise _Refused("imię musi być tekstem.")
            try:
                name = validate_name(data["name"])
            except InvalidInput as exc:
                raise _Refused(f"{_show(data['name'])}: {exc.message}") from exc
            created = _time(data.get("created_at"), "created_at", optional=True)
        except _Refused as exc:
            raise _Refused(f"Gracz nr {number} na liście graczy: {exc.message}") from exc
        key = name_key(name)
        if key in players:
            raise _Refused(f"Gracz {name} jest na liście graczy dwa razy.")
        players[key] = (name, created)
    return players


def _parse_options(variant: str, raw: object) -> dict[str, int]:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise _Refused("opcje gry (options) muszą być obiektem.")
    try:
        if variant == rules.POKER:
            parsed = rules.parse_poker_options(raw or None).as_dict()
        else:
            parsed = rules.find_variant(variant).parse_options(raw or None).as_dict()
    except rules.RulesError as exc:
        raise _Refused(str(exc)) from exc
    # The rules quietly keep 63 when a variant offers no lower threshold; a file must not claim
    # options the game was not played with.
    for key, value in raw.items():
        if parsed.get(key) != value:
            raise _Refused(
                f"opcja {key}={_show(value)} nie obowiązuje w wariancie "
                f"{rules.VARIANT_NAMES[variant]}."
            )
    return parsed


# Dice as the file writes them ("66612") → checked tuple: a file repeats the same few thousand.
_DICE: dict[str, rules.Dice] = {}


def _dice(raw: object) -> tuple[rules.Dice, str]:
    if isinstance(raw, str):
        found = _DICE.get(raw)
        if found is not None:
            return found, raw
    if not isinstance(raw, str | list) or (
        isinstance(raw, list) and any(isinstance(d, int) and abs(d) > _MAX_INT for d in raw)
    ):
        raise _Refused('kości (dice) podaj jako pięć cyfr od 1 do 6, np. "66612".')
    try:
        dice = rules.parse_dice(raw)
    except rules.RulesError as exc:
        raise _Refused(f"kości {_show(raw)}: {exc}") from exc
    text = "".join(map(str, dice))
    if raw == text:
        _DICE[text] = dice  # at most 6**5 entries
    return dice, text


def _parse_turn(raw: object, index: int, poker: bool) -> _Turn:
    data = _object(raw, _TURN_KEYS, ("seq", "seat", "dice", "created_at"))
    seq = _int(data["seq"], "seq")
    if seq < 1:
        raise _Refused(f"numer ruchu (seq) musi być dodatni, a jest {_show(seq)}.")
    seat = _int(data["seat"], "seat")
    dice, dice_text = _dice(data["dice"])
    field_id = data.get("field")
    column = data.get("column")
    points = data.get("points")
    extra_bonus = data.get("extra_bonus", 0)
    if poker:
        if field_id is not None or column is not None or points is not None or extra_bonus:
            raise _Refused(
                "w pokerze kościanym ruch to tylko kości: pola field, column, points "
                "i extra_bonus muszą być puste."
            )
        extra_bonus = 0
    else:
        if not isinstance(field_id, str):
            raise _Refused("brak pola tabeli (field).")
        column = 0 if column is None else _int(column, "column")
        if points is None:
            raise _Refused("brak zapisanych punktów (points).")
        points = _int(points, "points")
        extra_bonus = _int(extra_bonus, "extra_bonus")
    created = _time(data["created_at"], "created_at")
    assert created is not None
    undone = _time(data.get("undone_at"), "undone_at", optional=True)
    return _Turn(
        index, seq, seat, dice, dice_text, field_id, column, points, extra_bonus, created, undone
    )


class _Replay:
    """A game's rules state while its log is read in the order it was written.

    `push` plays a turn on the turns in force before it, exactly as `games.record_turn` did when
    it was written; `pop` takes the last one back, as an undo did. Each push keeps what the
    state looked like before it, so a pop costs no replay however long the game.
    """

    def __init__(self, variant: str, options: dict[str, int], players: int) -> None:
        self.state: rules.TableGame | rules.PokerMatch
        if variant == rules.POKER:
            self.state = rules.PokerMatch(players, rules.parse_poker_options(options))
        else:
            found = rules.find_variant(variant)
            self.state = rules.TableGame(found, players, found.parse_options(options))
        self.stack: list[_Turn] = []
        self._before: list[Any] = []

    def push(self, turn: _Turn, names: list[str]) -> None:
        state = self.state
        seat = state.current_seat
        if seat is None:
            if isinstance(state, rules.PokerMatch):
                raise _Refused("mecz był już zakończony, a w pliku jest jeszcze ten ruch.")
            raise _Refused("gra była już zakończona, a w pliku jest jeszcze ten ruch.")
        if len(self.stack) >= MAX_TURNS_PER_GAME:
            # The same limit as play (`games.record_turn`): a game that could be played can be
            # imported, and no other.
            raise _Refused(
                f"gra ma już {MAX_TURNS_PER_GAME} ruchów w mocy, najwięcej, ile można zapisać."
            )
        if turn.seat != seat:
            written = (
                names[turn.seat] if 0 <= turn.seat < len(names) else f"miejsce {_show(turn.seat)}"
            )
            raise _Refused(
                f"ruch zapisano graczowi {written}, a według kolejności przy stole "
                f"była kolej gracza {names[seat]}."
            )
        self._before.append(self._snapshot())
        if isinstance(state, rules.PokerMatch):
            state.play(turn.dice)
        else:
            try:
                points, extra_bonus = _play_table(
                    state, seat, turn.dice, turn.field or "", turn.column or 0
                )
            except rules.RulesError as exc:
                self._before.pop()
                raise _Refused(f"{exc}"[: 4 * _SHOWN]) from exc
            label = state.variant.table.by_id[turn.field or ""].label
            if (turn.points, turn.extra_bonus) != (points, extra_bonus):
                written = f"{_show(turn.points)} pkt" + (
                    f" (+{_show(turn.extra_bonus)})" if turn.extra_bonus else ""
                )
                right = f"{points} pkt" + (f" (+{extra_bonus})" if extra_bonus else "")
                raise _Refused(
                    f"w polu {label} zapisano {written}, a zasady dają za "
                    f"{rules.format_dice(turn.dice)} {right}. Plik zmieniono albo jest "
                    "uszkodzony."
                )
        self.stack.append(turn)

    def pop(self) -> _Turn:
        self._restore(self._before.pop())
        return self.stack.pop()

    def _snapshot(self) -> Any:
        state = self.state
        if isinstance(state, rules.TableGame):
            # Sheets are immutable tuples: keeping them is keeping the whole state.
            return (tuple(state.sheets), len(state.turns))
        last = state.rounds[-1] if state.rounds else None
        return (
            len(state.rounds),
            len(last.hands) if last else 0,
            last.ranking if last else None,
            list(state.round_wins),
        )

    def _restore(self, snapshot: Any) -> None:
        state = self.state
        if isinstance(state, rules.TableGame):
            sheets, turns = snapshot
            state.sheets = list(sheets)
            state._totals.clear()
            del state.turns[turns:]
            return
        rounds, hands, ranking, wins = snapshot
        # A push only ever appends a round or a hand to the last round and decides it.
        del state.rounds[rounds:]
        if rounds:
            last = state.rounds[-1]
            del last.hands[hands:]
            last.ranking = ranking
        state.round_wins = wins


def _play_table(
    state: rules.TableGame, seat: int, dice: rules.Dice, field_id: str, column: int
) -> tuple[int, int]:
    """`state.play(dice, field_id, column)` without pricing the move: the points and extra bonus
    written. `rules.play` judges the one field with `_context` and `_judge`, then prices the
    move for the player (two totals of the sheet: over half of a replay's time), which an import
    does not need. So the usual case is judged here by those same two functions; anything else
    (an unknown field or column, a filled field, a move the rules refuse) goes to `state.play`,
    which refuses it with the rules' own message."""
    variant = state.variant
    sheet = state.sheets[seat]
    found = variant.table.by_id.get(field_id)
    if (
        found is not None
        and type(column) is int
        and 0 <= column < variant.columns
        and not sheet[column].is_filled(field_id)
    ):
        context = _moves._context(variant, sheet, dice)
        points, bonus, reason, _ = _moves._judge(variant, sheet, dice, found, column, context)
        if reason is None:
            written = sheet[column].write(field_id, points, bonus)
            state.sheets[seat] = sheet[:column] + (written,) + sheet[column + 1 :]
            state._totals.pop(seat, None)
            state.turns.append(rules.TurnRecord(seat, dice, field_id, column, points, bonus))
            return points, bonus
    placement = state.play(dice, field_id, column)
    return placement.points, placement.extra_bonus


def _replay(
    variant: str, options: dict[str, int], names: list[str], log: list[_Turn]
) -> tuple[rules.TableGame | rules.PokerMatch, list[_Turn]]:
    """Read the log as it was written; every turn must be one the rules allowed then. The
    state after the turns in force, and those turns."""
    replay = _Replay(variant, options, len(names))
    for turn in log:
        try:
            # A turn written as number `seq` found `seq - 1` turns in force: any later ones had
            # been taken back by then.
            while len(replay.stack) >= turn.seq:
                taken_back = replay.pop()
                if not taken_back.undone:
                    raise _Refused(
                        f"ruch nr {turn.seq} występuje dwa razy, a wcześniejszy nie jest "
                        "oznaczony jako cofnięty (undone_at)."
                    )
            if len(replay.stack) != turn.seq - 1:
                raise _Refused(
                    f"po ruchu nr {len(replay.stack)} przychodzi ruch nr {_show(turn.seq)}: "
                    "brakuje ruchów pomiędzy."
                )
            replay.push(turn, names)
        except _Refused as exc:
            round_ = (turn.seq - 1) // len(names) + 1
            where = (
                f"ruch nr {_show(turn.seq)} (kolejka {_show(round_)}, "
                f"pozycja {turn.index + 1} w pliku)"
            )
            raise _Refused(f"{where}: {exc.message}") from exc
    while replay.stack and replay.stack[-1].undone:  # taken back at the end
        replay.pop()
    for turn in replay.stack:
        if turn.undone:
            raise _Refused(
                f"ruch {turn.seq} jest oznaczony jako cofnięty, ale po nim zostały ruchy "
                "w mocy; cofnąć można tylko ostatni ruch."
            )
    return replay.state, replay.stack


def _figures(state: rules.TableGame | rules.PokerMatch, seats: int) -> list[dict[str, Any]]:
    """Per seat, the cached results `games._cache_results` stores for this state: totals (round
    wins in poker), places and winners once the game is over, upper bonuses, five of a kind
    rolled and extra Generał bonuses. A test checks that `recompute_all` changes nothing."""
    if isinstance(state, rules.PokerMatch):
        scores: tuple[int, ...] = tuple(state.round_wins)
    else:
        scores = state.scores
    places = rules.places_of(scores)
    winners = set(state.winners)
    generals = [0] * seats
    if isinstance(state, rules.TableGame):
        for t in state.turns:
            if rules.is_five_of_a_kind(t.dice):
                generals[t.seat] += 1
    figures = []
    for seat in range(seats):
        row = {
            "total": scores[seat],
            "place": places[seat] if state.finished else None,
            "is_winner": seat in winners,
            "upper_bonuses": 0,
            "generals": 0,
            "extra_bonuses": 0,
        }
        if isinstance(state, rules.TableGame):
            totals = state.totals(seat)
            row["upper_bonuses"] = sum(1 for c in totals.columns if c.upper_bonus)
            row["extra_bonuses"] = rules.extra_bonus_count(state.variant, state.sheets[seat])
            row["generals"] = generals[seat]
        figures.append(row)
    return figures


def _parse_game(
    raw: object, number: int, players: Mapping[str, tuple[str, datetime | None]]
) -> _Game:
    where = f"Gra nr {number}"
    try:
        data = _object(raw, _GAME_KEYS, ("uid", "variant", "started_at", "seats", "turns"))
        uid = data["uid"]
        if not isinstance(uid, str) or not _UID.fullmatch(uid):
            raise _Refused(
                f"uid gry musi mieć 32 znaki szesnastkowe (0–9, a–f), a jest {_show(uid)}."
            )
        variant = data["variant"]
        if not isinstance(variant, str) or variant not in rules.VARIANT_NAMES:
            known = ", ".join(rules.VARIANT_NAMES)
            raise _Refused(f"nieznany wariant {_show(variant)}. Znane warianty: {known}.")
        started = _time(data["started_at"], "started_at")
        assert started is not None
        where = f"{where} z {started.day}.{started:%m.%Y}, {rules.VARIANT_NAMES[variant]}"
        options = _parse_options(variant, data.get("options"))
        finished = _time(data.get("finished_at"), "finished_at", optional=True)
        rematch_of = data.get("rematch_of")
        if rematch_of is not None and (
            not isinstance(rematch_of, str) or not _UID.fullmatch(rematch_of) or rematch_of == uid
        ):
            raise _Refused("pole rematch_of musi być uid innej gry albo null.")
        keys = _parse_seats(data["seats"], variant, players)
        names = [players[k][0] for k in keys]
        where = f"{where}, gracze: {', '.join(names)}"
        log = _parse_log(data["turns"], poker=variant == rules.POKER)
        state, in_force = _replay(variant, options, names, log)
    except _Refused as exc:
        raise _Refused(f"{where} – {exc.message}") from exc
    if not state.finished:
        finished = None
    elif finished is None:  # as the file says, else when its last turn in force was written
        finished = in_force[-1].created_at if in_force else started
    figures = _figures(state, len(keys))
    return _Game(uid, variant, options, started, finished, rematch_of, keys, log, figures)


def _parse_log(raw: object, *, poker: bool) -> list[_Turn]:
    if not isinstance(raw, list):
        raise _Refused("pole turns musi być listą ruchów.")
    log = []
    for index, item in enumerate(raw):
        try:
            log.append(_parse_turn(item, index, poker))
        except _Refused as exc:
            raise _Refused(f"pozycja {index + 1} w dzienniku ruchów: {exc.message}") from exc
    return log


def _parse_seats(
    raw: object, variant: str, players: Mapping[str, tuple[str, datetime | None]]
) -> list[str]:
    if not isinstance(raw, list):
        raise _Refused("pole seats musi być listą miejsc przy stole.")
    least = POKER_MIN_PLAYERS if variant == rules.POKER else 1
    if not least <= len(raw) <= MAX_PLAYERS:
        raise _Refused(
            f"przy stole siedzi od {least} do {MAX_PLAYERS} graczy, a w pliku {len(raw)}."
        )
    keys: list[str] = []
    for number, item in enumerate(raw, 1):
        try:
            data = _object(item, _SEAT_KEYS, ("player",))
        except _Refused as exc:
            raise _Refused(f"miejsce nr {number}: {exc.message}") from exc
        name = data["player"]
        key = name_key(name) if isinstance(name, str) else None
        if key is None or key not in players:
            raise _Refused(
                f"miejsce nr {number}: gracza {_show(name)} nie ma na liście graczy pliku."
            )
        if key in keys:
            raise _Refused(f"gracz {players[key][0]} siedzi przy stole dwa razy.")
        keys.append(key)
    return keys


def _parse_document(data: object) -> tuple[dict[str, tuple[str, datetime | None]], list[_Game]]:
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _Refused(
            'To nie jest plik eksportu Kości (brak "format": "kosci-export"). '
            "Wybierz plik pobrany jako „Pobierz wszystko (JSON)”."
        )
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise _Refused(
            f"Nieobsługiwana wersja pliku eksportu: {_show(version)}. Ta wersja aplikacji czyta "
            f"wersję {VERSION}."
        )
    try:
        _object(data, _TOP_KEYS, ("players", "games"))
    except _Refused as exc:
        raise _Refused(f"Plik eksportu: {exc.message}") from exc
    players = _parse_players(data["players"])
    games_raw = data["games"]
    if not isinstance(games_raw, list):
        raise _Refused("Pole games musi być listą gier.")
    games: list[_Game] = []
    seen: set[str] = set()
    for number, raw in enumerate(games_raw, 1):
        game = _parse_game(raw, number, players)
        if game.uid in seen:
            raise _Refused(f"Gra nr {number}: uid {game.uid} ma już inna gra w tym pliku.")
        seen.add(game.uid)
        games.append(game)
    return players, games


# --- import: writing -------------------------------------------------------------------------

# Games are written in batches of about this many rows, each batch one short transaction: SQLite
# has one write lock, and a phone's turn waits for it (at most the busy timeout). A batch of
# 4,000 rows holds it for tens of milliseconds (docs/benchmarks.md, "Import").
BATCH_ROWS = 4000
# After each batch the import leaves the write lock free for as long as it held it, so the
# turns of the table get in between batches.
PAUSE_RATIO = 1.0

_games_table = Game.__table__
_seats_table = GameSeat.__table__
_turns_table = Turn.__table__
_players_table = Player.__table__

BUSY = (
    "Na tym serwerze trwa już inny import. Poczekaj, aż się skończy, i spróbuj jeszcze raz "
    "(zwykle to kilka sekund)."
)
_LOCAL_IMPORT = threading.Lock()  # where processes cannot lock a file (Windows: waitress threads)


@contextmanager
def one_import_at_a_time(lock_dir: str | os.PathLike[str]) -> Iterator[None]:
    """Run one import at a time on this server, across its worker processes; Throttled (429)
    at once when another is running. Two imports would otherwise keep two workers busy: on
    the default two, no phone's turn would be served until one ended."""
    if fcntl is None:  # pragma: no cover - Windows
        if not _LOCAL_IMPORT.acquire(blocking=False):
            raise Throttled(BUSY)
        try:
            yield
        finally:
            _LOCAL_IMPORT.release()
        return
    os.makedirs(lock_dir, exist_ok=True)
    fd = os.open(os.path.join(lock_dir, "import.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise Throttled(BUSY) from exc
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def import_account(
    account_id: int, data: object, *, timings: dict[str, float] | None = None
) -> ImportResult:
    """Bring an export's players and games into the account.

    The whole file is checked first, every game replayed through the rules, without touching the
    database: InvalidInput (with what is wrong and where) when it is not a valid export, and
    nothing changes. Then the players the account lacks are written, and the games it lacks in
    short transactions of whole games (`BATCH_ROWS`): a game is never half-written, and should
    the import stop midway (the server stopped), importing the same file again adds the games
    still missing. Conflict when the same games were written meanwhile by another import; the
    games written before it stay, and importing again completes the file.

    `timings`, when given, receives the seconds spent checking (`validate`) and writing (`write`).
    """
    began = time.perf_counter()
    _account(account_id)
    try:
        players, parsed = _parse_document(data)
    except _Refused as exc:
        raise InvalidInput(f"{REFUSED} {exc.message}") from exc
    known: dict[str, int] = {}
    has_rematch: set[int] = set()
    for uid, game_id, rematch_of_id in db.session.execute(
        select(_games_table.c.uid, _games_table.c.id, _games_table.c.rematch_of_id).where(
            _games_table.c.account_id == account_id
        )
    ):
        known[uid] = game_id
        if rematch_of_id is not None:
            has_rematch.add(rematch_of_id)
    db.session.rollback()  # end the read: no snapshot is held while writing in batches
    new = [g for g in parsed if g.uid not in known]
    try:
        ordered = _write_order(parsed, new, known, has_rematch)
    except _Refused as exc:
        raise InvalidInput(f"{REFUSED} {exc.message}") from exc
    skipped = len(parsed) - len(new)
    del parsed, new
    checked = time.perf_counter()
    games_written, players_written = _write(account_id, players, ordered, known)
    if timings is not None:
        timings["validate"] = checked - began
        timings["write"] = time.perf_counter() - checked
    return ImportResult(games=games_written, players=players_written, skipped=skipped)


def _write_order(
    parsed: list[_Game], new: list[_Game], known: Mapping[str, int], has_rematch: set[int]
) -> list[_Game]:
    """The new games in the order of the file, except that a rematch comes after its game (the
    link is written with the game). Refuses a rematch of a game that is nowhere, two rematches
    of one game (a game has at most one) and rematches that go round in a circle."""
    number = {g.uid: n for n, g in enumerate(parsed, 1)}
    in_file = {g.uid: g for g in parsed}
    claimed: dict[str, str] = {}
    for g in parsed:
        if g.rematch_of is None:
            continue
        if g.rematch_of not in in_file and g.rematch_of not in known:
            raise _Refused(
                f"Gra nr {number[g.uid]}: to rewanż gry {g.rematch_of}, której nie ma ani "
                "w pliku, ani na koncie."
            )
        if g.rematch_of in claimed:
            raise _Refused(
                f"Gra nr {number[g.uid]}: to drugi rewanż gry {g.rematch_of} (pierwszy to gra "
                f"nr {number[claimed[g.rematch_of]]}), a gra ma najwyżej jeden rewanż."
            )
        claimed[g.rematch_of] = g.uid
        if g.uid not in known and known.get(g.rematch_of) in has_rematch:
            raise _Refused(
                f"Gra nr {number[g.uid]}: to rewanż gry {g.rematch_of}, która ma już na koncie "
                "inny rewanż, a gra ma najwyżej jeden."
            )
    pending = {g.uid: g for g in new}
    ordered: list[_Game] = []
    placed: set[str] = set()
    for g in new:
        chain: list[_Game] = []
        on_chain: set[str] = set()
        current: _Game | None = g
        while current is not None and current.uid not in placed:
            if current.uid in on_chain:
                raise _Refused(
                    f"Gra nr {number[current.uid]}: rewanże w pliku zataczają koło (gra jest "
                    "rewanżem swojego rewanżu)."
                )
            chain.append(current)
            on_chain.add(current.uid)
            current = pending.get(current.rematch_of) if current.rematch_of else None
        for item in reversed(chain):
            ordered.append(item)
            placed.add(item.uid)
    return ordered


def _write(
    account_id: int,
    players: Mapping[str, tuple[str, datetime | None]],
    new: list[_Game],
    known: Mapping[str, int],
) -> tuple[int, int]:
    """Add the players the account lacks (one transaction), then the new games in batches;
    how many games and players were written."""
    try:
        existing = set(
            db.session.scalars(
                select(_players_table.c.name_key).where(_players_table.c.account_id == account_id)
            )
        )
        missing = [
            {
                "account_id": account_id,
                "name": name,
                "name_key": key,
                "created_at": created_at or utcnow(),
            }
            for key, (name, created_at) in players.items()
            if key not in existing
        ]
        if missing:
            db.session.execute(insert(_players_table), missing)
        player_ids = dict(
            db.session.execute(
                select(_players_table.c.name_key, _players_table.c.id).where(
                    _players_table.c.account_id == account_id
                )
            ).all()
        )
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise Conflict(f"{REFUSED} {SAME_TIME}") from exc
    except BaseException:
        db.session.rollback()
        raise
    ids = dict(known)
    written = 0
    batch: list[_Game] = []
    rows = 0
    for g in new:
        batch.append(g)
        rows += 1 + len(g.players) + len(g.turns)
        if rows >= BATCH_ROWS:
            written += _write_batch(account_id, batch, ids, player_ids, written)
            batch, rows = [], 0
    if batch:
        written += _write_batch(account_id, batch, ids, player_ids, written)
    return written, len(missing)


SAME_TIME = (
    "W tym samym czasie zapisano te same gry (może trwał drugi import). Spróbuj jeszcze raz: "
    "gry, które już są na koncie, zostaną pominięte."
)

_SET_REMATCH = (
    update(_games_table)
    .where(_games_table.c.id == bindparam("game_id"))
    .values(rematch_of_id=bindparam("target_id"))
)


def _write_batch(
    account_id: int,
    batch: list[_Game],
    ids: dict[str, int],
    player_ids: Mapping[str, int],
    written_before: int,
) -> int:
    """Write whole games in one transaction, commit, then leave the write lock free a while."""
    began = time.perf_counter()
    try:
        db.session.execute(
            insert(_games_table),
            [
                {
                    "account_id": account_id,
                    "uid": g.uid,
                    "variant": g.variant,
                    "options": g.options,
                    "started_at": g.started_at,
                    "finished_at": g.finished_at,
                    "rematch_of_id": ids.get(g.rematch_of) if g.rematch_of else None,
                }
                for g in batch
            ],
        )
        uids = [g.uid for g in batch]
        new_ids = dict(
            db.session.execute(
                select(_games_table.c.uid, _games_table.c.id).where(
                    _games_table.c.account_id == account_id, _games_table.c.uid.in_(uids)
                )
            ).all()
        )
        ids.update(new_ids)
        # A rematch of a game of the same batch: its link once both have ids.
        late = [
            {"game_id": new_ids[g.uid], "target_id": new_ids[g.rematch_of]}
            for g in batch
            if g.rematch_of and g.rematch_of in new_ids
        ]
        if late:
            db.session.execute(_SET_REMATCH, late)
        seat_rows = []
        turn_rows = []
        for g in batch:
            game_id = new_ids[g.uid]
            for seat, (key, figures) in enumerate(zip(g.players, g.figures, strict=True)):
                seat_rows.append(
                    {"game_id": game_id, "player_id": player_ids[key], "seat": seat, **figures}
                )
            # In the order of writing, so the ids keep the log's order.
            turn_rows.extend(
                {
                    "game_id": game_id,
                    "seq": t.seq,
                    "seat": t.seat,
                    "dice": t.dice_text,
                    "field": t.field,
                    "column": t.column,
                    "points": t.points,
                    "extra_bonus": t.extra_bonus,
                    "created_at": t.created_at,
                    "undone_at": t.undone_at,
                }
                for t in g.turns
            )
        db.session.execute(insert(_seats_table), seat_rows)
        if turn_rows:
            db.session.execute(insert(_turns_table), turn_rows)
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        if written_before:  # the batches before stay: whole games, skipped next time
            raise Conflict(
                f"Zaimportowano {written_before} gier pliku i przerwano. {SAME_TIME}"
            ) from exc
        raise Conflict(f"{REFUSED} {SAME_TIME}") from exc
    except BaseException:
        db.session.rollback()
        raise
    held = time.perf_counter() - began
    if PAUSE_RATIO:
        time.sleep(held * PAUSE_RATIO)
    return len(batch)
