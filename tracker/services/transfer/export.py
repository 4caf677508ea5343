"""Export: the account's whole history as the JSON document (`document.FORMAT`), its results as
CSV for a spreadsheet, and how much the account holds (for the page that offers both)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from ... import rules
from ...extensions import db
from ...i18n import N_, _, gettext
from ...models import Account, Game, Player, utcnow
from ...rules_text import rules_text
from ...store.games import turn_logs
from ...store.rows import TurnRow
from ..errors import NotFound
from .document import FORMAT, VERSION, iso

DEFAULT_TIMEZONE = "Europe/Warsaw"

# Read what the database holds, not objects this session loaded earlier: the turn path writes
# results with Core statements, which leave such objects as they were.
_FRESH = {"populate_existing": True}


def require_account(account_id: int) -> Account:
    account = db.session.get(Account, account_id)
    if account is None:
        raise NotFound(_("Nie ma takiego konta."))
    return account


@dataclass(frozen=True)
class AccountSize:
    """How many games and players the account holds."""

    games: int
    players: int


def account_size(account_id: int) -> AccountSize:
    games = db.session.scalar(select(func.count(Game.id)).where(Game.account_id == account_id))
    players = db.session.scalar(
        select(func.count(Player.id)).where(Player.account_id == account_id)
    )
    return AccountSize(games=games or 0, players=players or 0)


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


def _game_entry(game: Game, turns: list[TurnRow], uids: dict[int, str]) -> dict[str, Any]:
    return {
        "uid": game.uid,
        "variant": game.variant,
        "options": dict(game.options or {}),
        "hints": game.hints,
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
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
                "created_at": iso(t.created_at),
                "undone_at": iso(t.undone_at),
            }
            for t in turns
        ],
    }


def export_account(account_id: int) -> dict[str, Any]:
    """The account's whole history as the JSON document described in the package docstring."""
    account = require_account(account_id)
    players = db.session.scalars(
        select(Player)
        .where(Player.account_id == account_id)
        .order_by(Player.id)
        .execution_options(**_FRESH)
    )
    games = _games(account_id)
    turns = turn_logs([g.id for g in games])
    uids = {g.id: g.uid for g in games}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(utcnow()),
        "account": account.name,
        "players": [{"name": p.name, "created_at": iso(p.created_at)} for p in players],
        "games": [_game_entry(game, turns[game.id], uids) for game in games],
    }


def game_document(game: Game) -> dict[str, Any]:
    """One game as a document of the export's format: the game, with its whole log, and the
    players of its seats. Importing it (or restoring it from the trash, `services.trash`)
    brings the game back as it was."""
    uids: dict[int, str] = {}
    if game.rematch_of_id is not None:
        parent = db.session.scalar(select(Game.uid).where(Game.id == game.rematch_of_id))
        if parent is not None:
            uids[game.rematch_of_id] = parent
    turns = turn_logs([game.id])
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(utcnow()),
        "players": [
            {"name": seat.player.name, "created_at": iso(seat.player.created_at)}
            for seat in game.seats
        ],
        "games": [_game_entry(game, turns[game.id], uids)],
    }


def export_json(account_id: int) -> str:
    """`export_account` as compact UTF-8 JSON text (Polish letters as they are)."""
    return json.dumps(export_account(account_id), ensure_ascii=False, separators=(",", ":"))


# The first row and the yes/no cells are in the language of whoever downloads the file (it is
# for their spreadsheet); an import reads only the JSON.
CSV_HEADER = (
    N_("Data"),
    N_("Wariant"),
    N_("Gracz"),
    N_("Punkty"),
    N_("Wygrane rundy"),
    N_("Miejsce"),
    N_("Zwycięzca"),
    N_("Zakończona"),
    N_("Gra"),
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
    require_account(account_id)
    zone = ZoneInfo(timezone)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow([gettext(name) for name in CSV_HEADER])
    yes, no = gettext("tak"), gettext("nie")  # once, not per row
    names = {v: rules_text(name) for v, name in rules.VARIANT_NAMES.items()}
    for game in _games(account_id):
        local = game.started_at.replace(tzinfo=UTC).astimezone(zone)
        poker = game.variant == rules.POKER
        for seat in game.seats:
            writer.writerow(
                (
                    f"{local:%Y-%m-%d %H:%M}",
                    names.get(game.variant, game.variant),
                    _cell(seat.player.name),
                    "" if poker else seat.total,
                    seat.total if poker else "",
                    seat.place if game.finished and seat.place is not None else "",
                    (yes if seat.is_winner else no) if game.finished else "",
                    yes if game.finished else no,
                    game.uid,
                )
            )
    return out.getvalue()
