"""Reading an export file: the JSON text, then every object and value in it, checked.

Nothing here trusts the file: a value of the wrong type or size, an unknown key, a player
seated twice or a game the rules would not have allowed (`replay.replay_log`) is `Refused`,
said with where it is. The result is what the import writes: the file's players and its games
as `CheckedGame`s, the figures of every seat derived again from the turns.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from ... import rules
from ...i18n import _
from ...jsontext import half_pair_text, lone_surrogate
from ...models import name_key
from ...rules_text import rules_text
from .. import inputs
from ..errors import InvalidInput
from ..games import check_hints
from ..players import validate_name
from .document import (
    FORMAT,
    GAME_KEYS,
    MAX_INT,
    PLAYER_KEYS,
    SEAT_KEYS,
    SHOWN,
    TOP_KEYS,
    TURN_KEYS,
    VERSION,
    CheckedGame,
    CheckedTurn,
    Players,
    Refused,
    refused,
    show,
)
from .replay import replay_log

_UID = re.compile(r"[0-9a-f]{32}")


def parse_export_file(raw: bytes | str) -> object:
    """The JSON document in an uploaded file or request body; InvalidInput when it is none."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidInput(
                refused(_("Plik nie jest tekstem UTF-8, więc nie jest eksportem Kości."))
            ) from exc
    if not raw.strip():
        raise InvalidInput(refused(_("Plik jest pusty.")))
    try:
        document = json.loads(raw)
    except json.JSONDecodeError as exc:
        # exc.msg is Python's own English ("Expecting value"), which no catalog has: what a
        # family needs is whether the file was cut short (a download broken off) or is another
        # file altogether.
        rest = raw[exc.pos :].rstrip()
        # Cut short: the text ends where a value was expected, or inside a string that no
        # quote closes.
        if not rest or (rest[0] == '"' and '"' not in rest[1:]):
            message = _(
                "Plik się urywa (wiersz %(line)d, kolumna %(column)d): to niepełna kopia. "
                "Pobierz eksport jeszcze raz.",
                line=exc.lineno,
                column=exc.colno,
            )
        else:
            message = _(
                "Plik nie jest poprawnym JSON-em (wiersz %(line)d, kolumna %(column)d), więc "
                "nie jest eksportem Kości albo ktoś go zmienił.",
                line=exc.lineno,
                column=exc.colno,
            )
        raise InvalidInput(refused(message)) from exc
    except ValueError as exc:
        # Python reads at most 4,300 digits of a whole number and says so with a bare
        # ValueError; no export holds a number anywhere near that long.
        raise InvalidInput(
            refused(
                _(
                    "Plik zawiera liczbę o tysiącach cyfr: takiej liczby nie ma w żadnym "
                    "eksporcie Kości, więc plik jest uszkodzony albo zmieniony."
                )
            )
        ) from exc
    except RecursionError as exc:
        raise InvalidInput(refused(_("Plik jest zbyt głęboko zagnieżdżony."))) from exc
    found = lone_surrogate(raw, document)
    if found is not None:
        raise InvalidInput(
            refused(_("Plik nie jest tekstem: %(problem)s.", problem=half_pair_text(found)))
        )
    return document


# --- values ----------------------------------------------------------------------------------


def _object(raw: object, keys: frozenset[str], required: Iterable[str]) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise Refused(_("to nie jest obiekt JSON."))
    if not raw.keys() <= keys:
        unknown = sorted(show(k) if not isinstance(k, str) else k for k in set(raw) - keys)
        raise Refused(_("nieznane pola: %(keys)s.", keys=", ".join(unknown))[: 4 * SHOWN])
    missing = [k for k in required if k not in raw]
    if missing:
        raise Refused(_("brak pola %(keys)s.", keys=", ".join(missing)))
    return raw


def _int(raw: object, name: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise Refused(
            _(
                "pole %(key)s musi być liczbą całkowitą, a jest %(value)s.",
                key=name,
                value=show(raw),
            )
        )
    if abs(raw) > MAX_INT:
        raise Refused(
            _("pole %(key)s ma wartość spoza zakresu: %(value)s.", key=name, value=show(raw))
        )
    return raw


def _time(raw: object, name: str, *, optional: bool = False) -> datetime | None:
    """A stored time: ISO 8601, UTC ("2025-05-03T18:42:11Z"); naive, as the database keeps it."""
    if raw is None and optional:
        return None
    if not isinstance(raw, str):
        raise Refused(_('pole %(key)s musi być czasem, np. "2025-05-03T18:42:11Z".', key=name))
    try:
        moment = datetime.fromisoformat(raw)
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError) as exc:  # OverflowError: year 1 or 9999 moved to UTC
        raise Refused(
            _(
                "pole %(key)s (%(value)s) nie jest czasem w formacie ISO 8601, "
                'np. "2025-05-03T18:42:11Z".',
                key=name,
                value=show(raw),
            )
        ) from exc
    if not inputs.FIRST_DAY <= moment.date() <= inputs.LAST_DAY:
        # Shown in local time, a moment at the calendar's very end would overflow every page.
        raise Refused(
            _("pole %(key)s (%(value)s) leży poza zakresem dat.", key=name, value=show(raw))
        )
    return moment


def _required_time(raw: object, name: str) -> datetime:
    moment = _time(raw, name)
    assert moment is not None
    return moment


# Dice as the file writes them ("66612") → checked tuple: a file repeats the same few thousand.
_DICE: dict[str, rules.Dice] = {}


def _dice(raw: object) -> tuple[rules.Dice, str]:
    if isinstance(raw, str):
        found = _DICE.get(raw)
        if found is not None:
            return found, raw
    if not isinstance(raw, str | list) or (
        isinstance(raw, list) and any(isinstance(d, int) and abs(d) > MAX_INT for d in raw)
    ):
        raise Refused(_('kości (dice) podaj jako pięć cyfr od 1 do 6, np. "66612".'))
    try:
        dice = rules.parse_dice(raw)
    except rules.RulesError as exc:
        raise Refused(
            _("kości %(dice)s: %(problem)s", dice=show(raw), problem=rules_text(exc))
        ) from exc
    text = "".join(map(str, dice))
    if raw == text:
        _DICE[text] = dice  # at most 6**5 entries
    return dice, text


# --- players, options, seats, turns ----------------------------------------------------------


def parse_players(raw: object) -> Players:
    """name key → (name, created_at)."""
    if not isinstance(raw, list):
        raise Refused(_("Pole players musi być listą graczy."))
    players: Players = {}
    for number, item in enumerate(raw, 1):
        try:
            data = _object(item, PLAYER_KEYS, ("name",))
            if not isinstance(data["name"], str):
                raise Refused(_("imię musi być tekstem."))
            try:
                name = validate_name(data["name"])
            except InvalidInput as exc:
                raise Refused(f"{show(data['name'])}: {exc.message}") from exc
            created = _time(data.get("created_at"), "created_at", optional=True)
        except Refused as exc:
            raise exc.at(_("Gracz nr %(number)d na liście graczy", number=number)) from exc
        key = name_key(name)
        if key in players:
            raise Refused(_("Gracz %(name)s jest na liście graczy dwa razy.", name=name))
        players[key] = (name, created)
    return players


def _parse_options(variant: rules.AnyVariant, raw: object) -> dict[str, int]:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise Refused(_("opcje gry (options) muszą być obiektem."))
    try:
        parsed = variant.parse_options(raw or None).as_dict()
    except rules.RulesError as exc:
        raise Refused(rules_text(exc)) from exc
    # The rules quietly keep 63 when a variant offers no lower threshold; a file must not claim
    # options the game was not played with.
    for key, value in raw.items():
        if parsed.get(key) != value:
            option = f"{key}={show(value)}"
            raise Refused(
                _(
                    "opcja %(option)s nie obowiązuje w wariancie %(variant)s.",
                    option=option,
                    variant=rules_text(variant.name),
                )
            )
    return parsed


def _parse_seats(raw: object, variant: rules.AnyVariant, players: Players) -> list[str]:
    if not isinstance(raw, list):
        raise Refused(_("pole seats musi być listą miejsc przy stole."))
    least, most = variant.min_players, variant.max_players
    if not least <= len(raw) <= most:
        raise Refused(
            _(
                "przy stole siedzi od %(least)d do %(most)d graczy, a w pliku %(seats)d.",
                least=least,
                most=most,
                seats=len(raw),
            )
        )
    keys: list[str] = []
    for number, item in enumerate(raw, 1):
        try:
            data = _object(item, SEAT_KEYS, ("player",))
        except Refused as exc:
            raise exc.at(_("miejsce nr %(number)d", number=number)) from exc
        name = data["player"]
        key = name_key(name) if isinstance(name, str) else None
        if key is None or key not in players:
            raise Refused(
                _(
                    "miejsce nr %(number)d: gracza %(name)s nie ma na liście graczy pliku.",
                    number=number,
                    name=show(name),
                )
            )
        if key in keys:
            raise Refused(_("gracz %(name)s siedzi przy stole dwa razy.", name=players[key][0]))
        keys.append(key)
    return keys


def _parse_turn(raw: object, index: int, table: bool) -> CheckedTurn:
    """One entry of the log. A table turn names a field and the points written there; a poker
    turn is only a hand of dice."""
    data = _object(raw, TURN_KEYS, ("seq", "seat", "dice", "created_at"))
    seq = _int(data["seq"], "seq")
    if seq < 1:
        raise Refused(_("numer ruchu (seq) musi być dodatni, a jest %(seq)s.", seq=show(seq)))
    seat = _int(data["seat"], "seat")
    dice, dice_text = _dice(data["dice"])
    field_id = data.get("field")
    column = data.get("column")
    points = data.get("points")
    extra_bonus = data.get("extra_bonus", 0)
    if table:
        if not isinstance(field_id, str):
            raise Refused(_("brak pola tabeli (field)."))
        column = 0 if column is None else _int(column, "column")
        if points is None:
            raise Refused(_("brak zapisanych punktów (points)."))
        points = _int(points, "points")
        extra_bonus = _int(extra_bonus, "extra_bonus")
    else:
        if field_id is not None or column is not None or points is not None or extra_bonus:
            raise Refused(
                _(
                    "w pokerze kościanym ruch to tylko kości: pola field, column, points "
                    "i extra_bonus muszą być puste."
                )
            )
        extra_bonus = 0
    created = _required_time(data["created_at"], "created_at")
    undone = _time(data.get("undone_at"), "undone_at", optional=True)
    return CheckedTurn(
        index, seq, seat, dice, dice_text, field_id, column, points, extra_bonus, created, undone
    )


def _parse_log(raw: object, *, table: bool) -> list[CheckedTurn]:
    if not isinstance(raw, list):
        raise Refused(_("pole turns musi być listą ruchów."))
    log = []
    for index, item in enumerate(raw):
        try:
            log.append(_parse_turn(item, index, table))
        except Refused as exc:
            raise exc.at(_("pozycja %(number)d w dzienniku ruchów", number=index + 1)) from exc
    return log


# --- games and the whole document ------------------------------------------------------------


def _uid(raw: object) -> str:
    if not isinstance(raw, str) or not _UID.fullmatch(raw):
        raise Refused(
            _(
                "uid gry musi mieć 32 znaki szesnastkowe (0–9, a–f), a jest %(value)s.",
                value=show(raw),
            )
        )
    return raw


def _variant(raw: object) -> rules.AnyVariant:
    if not isinstance(raw, str) or raw not in rules.VARIANTS:
        known = ", ".join(rules.VARIANTS)
        raise Refused(
            _(
                "nieznany wariant %(value)s. Znane warianty: %(known)s.",
                value=show(raw),
                known=known,
            )
        )
    return rules.VARIANTS[raw]


def _hints(variant: rules.AnyVariant, raw: object) -> bool:
    """Whether the table agreed to the hint: true or false (a file written before the option
    existed has no such key: false), and never for dice poker, as when a game is started."""
    try:
        check_hints(variant, raw)
    except InvalidInput as exc:
        raise Refused(exc.message) from exc
    return raw is True


def _rematch_of(raw: object, uid: str) -> str | None:
    if raw is not None and (not isinstance(raw, str) or not _UID.fullmatch(raw) or raw == uid):
        raise Refused(_("pole rematch_of musi być uid innej gry albo null."))
    return raw


def parse_game(raw: object, number: int, players: Players) -> CheckedGame:
    """Game number `number` of the file, checked and replayed through the rules."""
    # What the file says of the game so far: a refusal names the game by it (said only then).
    variant: rules.AnyVariant | None = None
    started: datetime | None = None
    names: list[str] | None = None
    try:
        data = _object(raw, GAME_KEYS, ("uid", "variant", "started_at", "seats", "turns"))
        uid = _uid(data["uid"])
        variant = _variant(data["variant"])
        started = _required_time(data["started_at"], "started_at")
        options = _parse_options(variant, data.get("options"))
        hints = _hints(variant, data.get("hints", False))
        finished = _time(data.get("finished_at"), "finished_at", optional=True)
        rematch_of = _rematch_of(data.get("rematch_of"), uid)
        keys = _parse_seats(data["seats"], variant, players)
        names = [players[k][0] for k in keys]
        log = _parse_log(data["turns"], table=variant.kind == "table")
        replayed = replay_log(variant, options, names, log)
    except Refused as exc:
        raise exc.at(_game_named(number, variant, started, names), " – ") from exc
    if not replayed.finished:
        finished = None
    elif finished is None:  # as the file says, else when its last turn in force was written
        finished = replayed.in_force[-1].created_at if replayed.in_force else started
    return CheckedGame(
        uid, variant.id, options, started, finished, rematch_of, keys, log, replayed.figures, hints
    )


def _game_named(
    number: int,
    variant: rules.AnyVariant | None,
    started: datetime | None,
    names: list[str] | None,
) -> str:
    """ "Gra nr 6 z 1.06.2025, Kości (tabela polska), gracze: Ola, Ala": as much as was read."""
    if variant is None or started is None:
        return _("Gra nr %(number)d", number=number)
    day = inputs.day_text(started.date())  # 1.06.2025; 2025-06-01 in English
    if names is None:
        return _(
            "Gra nr %(number)d z %(day)s, %(variant)s",
            number=number,
            day=day,
            variant=rules_text(variant.name),
        )
    return _(
        "Gra nr %(number)d z %(day)s, %(variant)s, gracze: %(names)s",
        number=number,
        day=day,
        variant=rules_text(variant.name),
        names=", ".join(names),
    )


def parse_document(data: object) -> tuple[Players, list[CheckedGame]]:
    """The file's players and games, every game checked; Refused at the first problem."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise Refused(
            _(
                'To nie jest plik eksportu Kości (brak "format": "kosci-export"). '
                "Wybierz plik pobrany jako „Pobierz wszystko (JSON)”."
            )
        )
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise Refused(
            _(
                "Nieobsługiwana wersja pliku eksportu: %(version)s. Ta wersja aplikacji czyta "
                "wersję %(supported)d.",
                version=show(version),
                supported=VERSION,
            )
        )
    try:
        _object(data, TOP_KEYS, ("players", "games"))
    except Refused as exc:
        raise exc.at(_("Plik eksportu")) from exc
    players = parse_players(data["players"])
    games_raw = data["games"]
    if not isinstance(games_raw, list):
        raise Refused(_("Pole games musi być listą gier."))
    games: list[CheckedGame] = []
    seen: set[str] = set()
    for number, raw in enumerate(games_raw, 1):
        game = parse_game(raw, number, players)
        if game.uid in seen:
            raise Refused(
                _(
                    "Gra nr %(number)d: uid %(uid)s ma już inna gra w tym pliku.",
                    number=number,
                    uid=game.uid,
                )
            )
        seen.add(game.uid)
        games.append(game)
    return players, games
