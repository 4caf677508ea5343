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
a turn after the game is over or an unknown field refuse the whole file with a message that says
where. The import is one transaction (all or nothing) and idempotent: games are matched by `uid`
within the account, players by name with case ignored.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .. import rules
from ..extensions import db
from ..models import Account, Game, GameSeat, Player, Turn, name_key, utcnow
from ..rules.match import MIN_PLAYERS as POKER_MIN_PLAYERS
from .errors import Conflict, InvalidInput, NotFound
from .games import MAX_PLAYERS, GameView, PokerView, _cache_results
from .players import validate_name

FORMAT = "kosci-export"
VERSION = 1
# An account's export outgrows the app's 1 MB request limit after a few hundred games; the
# import endpoints accept files up to this size.
MAX_FILE_BYTES = 32 * 1024 * 1024
# Far more than any real game writes (a triple game of 8 has 312 turns), small enough that a
# hostile file cannot keep the server replaying for long.
MAX_TURNS_PER_GAME = 5000
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
    except RecursionError as exc:
        raise InvalidInput(f"{REFUSED} Plik jest zbyt głęboko zagnieżdżony.") from exc


class _Refused(Exception):
    """A problem found in the file; `where` is added by the caller that knows it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _object(raw: object, keys: frozenset[str], required: Iterable[str]) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise _Refused("to nie jest obiekt JSON.")
    unknown = sorted(map(str, set(raw) - keys))
    if unknown:
        raise _Refused(f"nieznane pola: {', '.join(unknown)}.")
    missing = [k for k in required if k not in raw]
    if missing:
        raise _Refused(f"brak pola {', '.join(missing)}.")
    return dict(raw)


def _int(raw: object, name: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise _Refused(f"pole {name} musi być liczbą całkowitą, a jest {raw!r}.")
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
            f"pole {name} ({raw!r}) nie jest czasem w formacie ISO 8601, "
            'np. "2025-05-03T18:42:11Z".'
        ) from exc
    return moment


@dataclass
class _Turn:
    index: int  # position in the file's log: the order of writing
    seq: int
    seat: int
    dice: rules.Dice
    field: str | None
    column: int | None
    points: int | None
    extra_bonus: int
    created_at: datetime
    undone_at: datetime | None

    @property
    def undone(self) -> bool:
        return self.undone_at is not None

    @property
    def dice_text(self) -> str:
        return "".join(map(str, self.dice))


@dataclass
class _Game:
    uid: str
    variant: str
    options: dict[str, int]
    started_at: datetime
    finished_at: datetime | None
    rematch_of: str | None
    players: list[str]  # name keys, in seating order
    turns: list[_Turn]  # the whole log, in the order of writing
    state: rules.TableGame | rules.PokerMatch  # after the turns in force


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
                raise _Refused(f"{data['name']!r}: {exc.message}") from exc
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
                f"opcja {key}={value!r} nie obowiązuje w wariancie {rules.VARIANT_NAMES[variant]}."
            )
    return parsed


def _parse_turn(raw: object, index: int, poker: bool) -> _Turn:
    data = _object(raw, _TURN_KEYS, ("seq", "seat", "dice", "created_at"))
    seq = _int(data["seq"], "seq")
    if seq < 1:
        raise _Refused(f"numer ruchu (seq) musi być dodatni, a jest {seq}.")
    seat = _int(data["seat"], "seat")
    dice_raw = data["dice"]
    if not isinstance(dice_raw, str | list):
        raise _Refused('kości (dice) podaj jako pięć cyfr od 1 do 6, np. "66612".')
    try:
        dice = rules.parse_dice(dice_raw)
    except rules.RulesError as exc:
        raise _Refused(f"kości {dice_raw!r}: {exc}") from exc
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
    return _Turn(index, seq, seat, dice, field_id, column, points, extra_bonus, created, undone)


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
        if turn.seat != seat:
            written = names[turn.seat] if 0 <= turn.seat < len(names) else f"miejsce {turn.seat}"
            raise _Refused(
                f"ruch zapisano graczowi {written}, a według kolejności przy stole "
                f"była kolej gracza {names[seat]}."
            )
        self._before.append(self._snapshot())
        if isinstance(state, rules.PokerMatch):
            state.play(turn.dice)
        else:
            try:
                placement = state.play(turn.dice, turn.field or "", turn.column or 0)
            except rules.RulesError as exc:
                self._before.pop()
                raise _Refused(f"{exc}") from exc
            label = state.variant.table.by_id[placement.field].label
            if (turn.points, turn.extra_bonus) != (placement.points, placement.extra_bonus):
                written = f"{turn.points} pkt" + (
                    f" (+{turn.extra_bonus})" if turn.extra_bonus else ""
                )
                right = f"{placement.points} pkt" + (
                    f" (+{placement.extra_bonus})" if placement.extra_bonus else ""
                )
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


def _replay(
    variant: str, options: dict[str, int], names: list[str], log: list[_Turn]
) -> rules.TableGame | rules.PokerMatch:
    """Read the log as it was written; every turn must be one the rules allowed then."""
    replay = _Replay(variant, options, len(names))
    for turn in log:
        round_ = (turn.seq - 1) // len(names) + 1
        where = f"ruch nr {turn.seq} (kolejka {round_}, pozycja {turn.index + 1} w pliku)"
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
                    f"po ruchu nr {len(replay.stack)} przychodzi ruch nr {turn.seq}: "
                    "brakuje ruchów pomiędzy."
                )
            replay.push(turn, names)
        except _Refused as exc:
            raise _Refused(f"{where}: {exc.message}") from exc
    while replay.stack and replay.stack[-1].undone:  # taken back at the end
        replay.pop()
    for turn in replay.stack:
        if turn.undone:
            raise _Refused(
                f"ruch {turn.seq} jest oznaczony jako cofnięty, ale po nim zostały ruchy "
                "w mocy; cofnąć można tylko ostatni ruch."
            )
    return replay.state


def _parse_game(
    raw: object, number: int, players: Mapping[str, tuple[str, datetime | None]]
) -> _Game:
    where = f"Gra nr {number}"
    try:
        data = _object(raw, _GAME_KEYS, ("uid", "variant", "started_at", "seats", "turns"))
        uid = data["uid"]
        if not isinstance(uid, str) or not _UID.fullmatch(uid):
            raise _Refused(f"uid gry musi mieć 32 znaki szesnastkowe (0–9, a–f), a jest {uid!r}.")
        variant = data["variant"]
        if not isinstance(variant, str) or variant not in rules.VARIANT_NAMES:
            known = ", ".join(rules.VARIANT_NAMES)
            raise _Refused(f"nieznany wariant {variant!r}. Znane warianty: {known}.")
        started = _time(data["started_at"], "started_at")
        assert started is not None
        where = f"{where} z {started.day}.{started:%m.%Y}, {rules.VARIANT_NAMES[variant]}"
        options = _parse_options(variant, data.get("options"))
        finished = _time(data.get("finished_at"), "finished_at", optional=True)
        rematch_of = data.get("rematch_of")
        if rematch_of is not None and (not isinstance(rematch_of, str) or rematch_of == uid):
            raise _Refused("pole rematch_of musi być uid innej gry albo null.")
        keys = _parse_seats(data["seats"], variant, players)
        names = [players[k][0] for k in keys]
        where = f"{where}, gracze: {', '.join(names)}"
        log = _parse_log(data["turns"], poker=variant == rules.POKER)
        state = _replay(variant, options, names, log)
    except _Refused as exc:
        raise _Refused(f"{where} – {exc.message}") from exc
    return _Game(uid, variant, options, started, finished, rematch_of, keys, log, state)


def _parse_log(raw: object, *, poker: bool) -> list[_Turn]:
    if not isinstance(raw, list):
        raise _Refused("pole turns musi być listą ruchów.")
    if len(raw) > MAX_TURNS_PER_GAME:
        raise _Refused(f"ponad {MAX_TURNS_PER_GAME} ruchów w jednej grze.")
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
    keys = []
    for number, item in enumerate(raw, 1):
        try:
            data = _object(item, _SEAT_KEYS, ("player",))
        except _Refused as exc:
            raise _Refused(f"miejsce nr {number}: {exc.message}") from exc
        name = data["player"]
        key = name_key(name) if isinstance(name, str) else None
        if key is None or key not in players:
            raise _Refused(f"miejsce nr {number}: gracza {name!r} nie ma na liście graczy pliku.")
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
            f"Nieobsługiwana wersja pliku eksportu: {version!r}. Ta wersja aplikacji czyta "
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
    games = [_parse_game(raw, number, players) for number, raw in enumerate(games_raw, 1)]
    uids = [g.uid for g in games]
    seen: set[str] = set()
    for number, uid in enumerate(uids, 1):
        if uid in seen:
            raise _Refused(f"Gra nr {number}: uid {uid} ma już inna gra w tym pliku.")
        seen.add(uid)
    return players, games


# --- import: writing -------------------------------------------------------------------------


def import_account(account_id: int, data: object) -> ImportResult:
    """Bring an export's players and games into the account: all of it, or nothing.

    InvalidInput (with what is wrong and where) when the file is not a valid export; Conflict
    when the same games were written meanwhile (a second import running at the same time).
    """
    _account(account_id)
    try:
        players, parsed = _parse_document(data)
    except _Refused as exc:
        raise InvalidInput(f"{REFUSED} {exc.message}") from exc
    known = {
        uid: game_id
        for uid, game_id in db.session.execute(
            select(Game.uid, Game.id).where(Game.account_id == account_id)
        )
    }
    in_file = {g.uid for g in parsed}
    for number, g in enumerate(parsed, 1):
        if g.rematch_of and g.rematch_of not in in_file and g.rematch_of not in known:
            raise InvalidInput(
                f"{REFUSED} Gra nr {number}: to rewanż gry {g.rematch_of}, której nie ma ani "
                "w pliku, ani na koncie."
            )
    try:
        new = [g for g in parsed if g.uid not in known]
        result = _write(account_id, players, new, known)
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        raise Conflict(
            f"{REFUSED} W tym samym czasie zapisano te same gry (może trwał drugi import). "
            "Spróbuj jeszcze raz."
        ) from exc
    except BaseException:
        db.session.rollback()
        raise
    return replace(result, skipped=len(parsed) - len(new))


def _write(
    account_id: int,
    players: Mapping[str, tuple[str, datetime | None]],
    new: list[_Game],
    known: Mapping[str, int],
) -> ImportResult:
    """Add the players the account lacks and the games it lacks; flushed, not committed."""
    by_key = {
        p.name_key: p
        for p in db.session.scalars(select(Player).where(Player.account_id == account_id))
    }
    created_players = 0
    for key, (name, created_at) in players.items():
        if key not in by_key:
            by_key[key] = Player(
                account_id=account_id, name=name, name_key=key, created_at=created_at or utcnow()
            )
            db.session.add(by_key[key])
            created_players += 1

    rows: list[tuple[_Game, Game]] = []
    for g in new:
        game = Game(
            account_id=account_id,
            uid=g.uid,
            variant=g.variant,
            options=g.options,
            started_at=g.started_at,
            finished_at=_finished_at(g),
        )
        game.seats = [GameSeat(player=by_key[key], seat=i) for i, key in enumerate(g.players)]
        db.session.add(game)
        rows.append((g, game))
    db.session.flush()

    ids = {**known, **{game.uid: game.id for _, game in rows}}
    log_rows = []
    for g, game in rows:
        if g.rematch_of:
            game.rematch_of_id = ids[g.rematch_of]
        log_rows.extend(
            {
                "game_id": game.id,
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
        # The cached figures come from the rules' state after the turns in force (the replay
        # that checked them), never from the seats in the file.
        _cache_results(_view(game, g.state))
    if log_rows:
        # In the order of writing, so the ids keep the log's order; one executemany, not an
        # ORM object per turn (an export holds tens of thousands).
        db.session.execute(insert(Turn), log_rows)
    db.session.flush()
    return ImportResult(games=len(rows), players=created_players)


def _finished_at(game: _Game) -> datetime | None:
    """When the game ended: as the file says, else when its last turn in force was written."""
    if not game.state.finished:
        return None
    if game.finished_at is not None:
        return game.finished_at
    in_force = [t for t in game.turns if not t.undone]
    return in_force[-1].created_at if in_force else game.started_at


def _view(game: Game, state: rules.TableGame | rules.PokerMatch) -> GameView | PokerView:
    """The services' view of an imported game, in the state its replay ended in. Only what
    `_cache_results` reads is there: its turns are written in bulk, not loaded."""
    seats = list(game.seats)
    if isinstance(state, rules.PokerMatch):
        return PokerView(game, seats, [], [], state.options, state)
    return GameView(game, seats, [], [], state.variant, state.options, state)
