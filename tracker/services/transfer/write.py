"""The import: check the whole file, then write what the account lacks in short transactions.

Games are written in batches of whole games (`BATCH_ROWS`), each one transaction, with a pause
after each so that the table's turns get the write lock in between. Games are matched by `uid`
within the account and players by name with case ignored, so importing a file again adds only
what is missing (an interrupted import is completed so). Then the file's finished table games
that have no seat reviews get them (`skill.review_games`: each judged outside any transaction,
stored in one of its own), the games just written and any an interrupted import left without:
for `REVIEW_SECONDS` while the import answers, the rest by the background reviewer
(`services.reviewer`) once it has answered.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, exists, insert, select, update
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...i18n import N_, _, gettext, ngettext
from ...models import Game, GameSeat, Player, SeatReview, Turn, utcnow
from ...rules import VARIANTS
from .. import audit, reviewer, skill
from ..errors import Conflict, InvalidInput
from .document import CheckedGame, Players, Refused, refused
from .export import require_account
from .parse import parse_document

# Games are written in batches of about this many rows, each batch one short transaction: SQLite
# has one write lock, and a phone's turn waits for it (at most the busy timeout). A batch of
# 4,000 rows holds it for tens of milliseconds (docs/benchmarks.md, "Import").
BATCH_ROWS = 4000
# After each batch the import leaves the write lock free for as long as it held it, so the
# turns of the table get in between batches.
PAUSE_RATIO = 1.0
# How long the import reviews the games it wrote before it answers (app config
# `KOSCI_IMPORT_REVIEW_SECONDS` overrides it): a game takes 10–70 ms to judge, so the 4,000
# finished games of the largest file would keep the phone waiting a minute and more for
# figures it does not show. What is left is reviewed in the background (docs/benchmarks.md,
# "Import").
REVIEW_SECONDS = 1.0

logger = logging.getLogger(__name__)

SAME_TIME = N_(
    "W tym samym czasie zapisano te same gry (może trwał drugi import). Spróbuj jeszcze raz: "
    "gry, które już są na koncie, zostaną pominięte."
)  # translated where it is said

_games_table = Game.__table__
_seats_table = GameSeat.__table__
_turns_table = Turn.__table__
_players_table = Player.__table__
_reviews_table = SeatReview.__table__

_SET_REMATCH = (
    update(_games_table)
    .where(_games_table.c.id == bindparam("game_id"))
    .values(rematch_of_id=bindparam("target_id"))
)
# The account's finished table games without seat reviews (uid, id): of these, the file's
# games are reviewed after an import.
_UNREVIEWED = (
    select(_games_table.c.uid, _games_table.c.id)
    .where(
        _games_table.c.account_id == bindparam("account_id"),
        _games_table.c.finished_at.is_not(None),
        _games_table.c.variant.in_(sorted(v.id for v in VARIANTS.values() if v.kind == "table")),
        ~exists().where(_reviews_table.c.game_id == _games_table.c.id),
    )
    .order_by(_games_table.c.id)
)


@dataclass(frozen=True)
class ImportResult:
    """What an import created: a second import of the same file creates nothing."""

    games: int
    players: int
    skipped: int = 0  # games of the file the account already had
    reviewed: int = 0  # finished table games given their seat reviews ("who plays best")
    review_pending: int = 0  # finished table games left to the background reviewer


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

    Once the games are written, the file's finished table games without seat reviews get them,
    one short transaction a game (`_review`): for `REVIEW_SECONDS` before the import answers,
    the rest in the background. Should the advisor be unavailable, they stay without (logged:
    `flask --app tracker advisor recompute`, the next start of `serve` or importing the file
    again fills them in), and the import has succeeded all the same.

    `timings`, when given, receives the seconds spent checking (`validate`), writing (`write`)
    and reviewing before the answer (`review`).
    """
    began = time.perf_counter()
    require_account(account_id)
    try:
        players, parsed = parse_document(data)
    except Refused as exc:
        raise InvalidInput(refused(exc.message)) from exc
    known, has_rematch = _games_of(account_id)
    db.session.rollback()  # end the read: no snapshot is held while writing in batches
    new = [g for g in parsed if g.uid not in known]
    try:
        _check_rematches(parsed, known, has_rematch)
        ordered = _rematches_last(parsed, new)
    except Refused as exc:
        raise InvalidInput(refused(exc.message)) from exc
    skipped = len(parsed) - len(new)
    uids = {g.uid for g in parsed}
    players = _players_to_write(players, parsed, new)
    del parsed, new
    checked = time.perf_counter()
    games_written, players_written = write_games(account_id, players, ordered, known)
    written = time.perf_counter()
    audit.record(
        audit.IMPORT,
        account_id,
        f"gry: {games_written}, gracze: {players_written}, pominięte: {skipped}",
        commit=True,
    )
    reviewed, pending = _review(account_id, uids)
    if timings is not None:
        timings["validate"] = checked - began
        timings["write"] = written - checked
        timings["review"] = time.perf_counter() - written
    return ImportResult(
        games=games_written,
        players=players_written,
        skipped=skipped,
        reviewed=reviewed,
        review_pending=pending,
    )


def _players_to_write(
    players: Players, parsed: list[CheckedGame], new: list[CheckedGame]
) -> Players:
    """The file's players an import may add: those of the games it writes, and those that have
    no game in the file at all (a player added on „Gracze” and never played). A player of only
    games the account has already is left out: after „Ala” was renamed „Alicja”, importing an
    old backup would otherwise add an „Ala” without a single game."""
    in_games = {key for g in parsed for key in g.players}
    needed = {key for g in new for key in g.players}
    return {key: value for key, value in players.items() if key in needed or key not in in_games}


def _review(account_id: int, uids: set[str]) -> tuple[int, int]:
    """Give the file's finished table games that lack them their seat reviews, one game a
    transaction (`skill.review_games`), for `REVIEW_SECONDS` at most, and queue the rest for
    the background reviewer; how many games got them, and how many the reviewer has to do. A
    game the reviewer has queued already (an earlier import of the same file) is left to it.

    The games are in already, so nothing here fails the import: a game the advisor cannot
    judge is logged by `skill`, and any other failure is logged and leaves the games after it
    to the background."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    budget = float(app.config.get("KOSCI_IMPORT_REVIEW_SECONDS", REVIEW_SECONDS))
    deadline = time.perf_counter() + budget
    reviewed = unavailable = 0
    game_ids: list[int] = []
    queued_before = 0  # of the file's games, already queued for the reviewer
    tried = 0  # of game_ids, from the first
    try:
        rows = db.session.execute(_UNREVIEWED, {"account_id": account_id}).all()
        db.session.rollback()  # end the read
        queued = reviewer.pending(app)
        for uid, game_id in rows:
            if uid not in uids:
                continue
            if game_id in queued:
                queued_before += 1
            else:
                game_ids.append(game_id)
        while tried < len(game_ids) and time.perf_counter() < deadline:
            tried += 1
            done = skill.review_games([game_ids[tried - 1]], only_missing=True)
            reviewed += done.reviewed
            unavailable += done.unavailable
    except Exception:
        db.session.rollback()
        logger.exception(
            "Import into account %s: reviewing its games stopped after %s; the rest are left "
            "to the background.",
            account_id,
            reviewed,
        )
    if unavailable:
        logger.warning(
            "Import into account %s: %s finished table games left without a review (advisor "
            "unavailable).",
            account_id,
            unavailable,
        )
    later = game_ids[tried:]
    if later:
        reviewer.review_later(app, later)
    return reviewed, queued_before + len(later)


def _games_of(account_id: int) -> tuple[dict[str, int], set[int]]:
    """The account's games (uid → id), and the ids of those that already have a rematch."""
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
    return known, has_rematch


def _check_rematches(
    parsed: list[CheckedGame], known: Mapping[str, int], has_rematch: set[int]
) -> None:
    """Refuses a rematch of a game that is nowhere, and two rematches of one game (a game has
    at most one), in the file or with the account's."""
    number = {g.uid: n for n, g in enumerate(parsed, 1)}
    claimed: dict[str, str] = {}
    for g in parsed:
        if g.rematch_of is None:
            continue
        if g.rematch_of not in number and g.rematch_of not in known:
            raise Refused(
                _(
                    "Gra nr %(number)d: to rewanż gry %(uid)s, której nie ma ani w pliku, "
                    "ani na koncie.",
                    number=number[g.uid],
                    uid=g.rematch_of,
                )
            )
        if g.rematch_of in claimed:
            raise Refused(
                _(
                    "Gra nr %(number)d: to drugi rewanż gry %(uid)s (pierwszy to gra "
                    "nr %(first)d), a gra ma najwyżej jeden rewanż.",
                    number=number[g.uid],
                    uid=g.rematch_of,
                    first=number[claimed[g.rematch_of]],
                )
            )
        claimed[g.rematch_of] = g.uid
        if g.uid not in known and known.get(g.rematch_of) in has_rematch:
            raise Refused(
                _(
                    "Gra nr %(number)d: to rewanż gry %(uid)s, która ma już na koncie "
                    "inny rewanż, a gra ma najwyżej jeden.",
                    number=number[g.uid],
                    uid=g.rematch_of,
                )
            )


def _rematches_last(parsed: list[CheckedGame], new: list[CheckedGame]) -> list[CheckedGame]:
    """The new games in the order of the file, except that a rematch comes after its game (the
    link is written with the game). Refuses rematches that go round in a circle."""
    number = {g.uid: n for n, g in enumerate(parsed, 1)}
    pending = {g.uid: g for g in new}
    ordered: list[CheckedGame] = []
    placed: set[str] = set()
    for g in new:
        chain: list[CheckedGame] = []
        on_chain: set[str] = set()
        current: CheckedGame | None = g
        while current is not None and current.uid not in placed:
            if current.uid in on_chain:
                raise Refused(
                    _(
                        "Gra nr %(number)d: rewanże w pliku zataczają koło (gra jest "
                        "rewanżem swojego rewanżu).",
                        number=number[current.uid],
                    )
                )
            chain.append(current)
            on_chain.add(current.uid)
            current = pending.get(current.rematch_of) if current.rematch_of else None
        for item in reversed(chain):
            ordered.append(item)
            placed.add(item.uid)
    return ordered


def write_games(
    account_id: int, players: Players, new: list[CheckedGame], known: Mapping[str, int]
) -> tuple[int, int]:
    """Add the players the account lacks (one transaction), then the new games in batches;
    how many games and players were written."""
    player_ids, players_written = _write_players(account_id, players)
    ids = dict(known)
    written = 0
    batch: list[CheckedGame] = []
    rows = 0
    for g in new:
        batch.append(g)
        rows += 1 + len(g.players) + len(g.turns)
        if rows >= BATCH_ROWS:
            written += _write_batch(account_id, batch, ids, player_ids, written)
            batch, rows = [], 0
    if batch:
        written += _write_batch(account_id, batch, ids, player_ids, written)
    return written, players_written


# How often the players are written again when another write (a game started on a phone with a
# new name) added one of them meanwhile: each time, what was added is found, not added again.
PLAYER_ATTEMPTS = 3


def _write_players(account_id: int, players: Players) -> tuple[dict[str, int], int]:
    """Add the players the account lacks; every player's id by name key, and how many were
    added. A player another write added meanwhile is taken as found (the unique key refuses
    the second one, and the players are read again), not a reason to refuse the file."""
    attempt = 1
    while True:
        try:
            return _add_missing_players(account_id, players)
        except IntegrityError as exc:
            db.session.rollback()
            if attempt == PLAYER_ATTEMPTS:
                raise Conflict(refused(gettext(SAME_TIME))) from exc
            attempt += 1
        except BaseException:
            db.session.rollback()
            raise


def _player_keys(account_id: int) -> set[str]:
    return set(
        db.session.scalars(
            select(_players_table.c.name_key).where(_players_table.c.account_id == account_id)
        )
    )


def _add_missing_players(account_id: int, players: Players) -> tuple[dict[str, int], int]:
    """One try of `_write_players`: IntegrityError when a player was added meanwhile."""
    existing = _player_keys(account_id)
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
    player_ids: dict[str, int] = dict(
        db.session.execute(
            select(_players_table.c.name_key, _players_table.c.id).where(
                _players_table.c.account_id == account_id
            )
        ).all()
    )
    db.session.commit()
    return player_ids, len(missing)


def _write_batch(
    account_id: int,
    batch: list[CheckedGame],
    ids: dict[str, int],
    player_ids: Mapping[str, int],
    written_before: int,
) -> int:
    """Write whole games in one transaction, commit, then leave the write lock free a while."""
    began = time.perf_counter()
    try:
        new_ids = _insert_games(account_id, batch, ids)
        ids.update(new_ids)
        seat_rows, turn_rows = _seat_and_turn_rows(batch, new_ids, player_ids)
        db.session.execute(insert(_seats_table), seat_rows)
        if turn_rows:
            db.session.execute(insert(_turns_table), turn_rows)
        db.session.commit()
    except IntegrityError as exc:
        db.session.rollback()
        if written_before:  # the batches before stay: whole games, skipped next time
            stopped = ngettext(
                "Zaimportowano %(num)d grę pliku i przerwano.",
                "Zaimportowano %(num)d gier pliku i przerwano.",
                written_before,
            )
            raise Conflict(f"{stopped} {gettext(SAME_TIME)}") from exc
        raise Conflict(refused(gettext(SAME_TIME))) from exc
    except BaseException:
        db.session.rollback()
        raise
    held = time.perf_counter() - began
    if PAUSE_RATIO:
        time.sleep(held * PAUSE_RATIO)
    return len(batch)


def _insert_games(
    account_id: int, batch: list[CheckedGame], ids: Mapping[str, int]
) -> dict[str, int]:
    """Insert the batch's game rows, rematch links included; their ids by uid."""
    db.session.execute(
        insert(_games_table),
        [
            {
                "account_id": account_id,
                "uid": g.uid,
                "variant": g.variant,
                "options": g.options,
                "hints": g.hints,
                "started_at": g.started_at,
                "finished_at": g.finished_at,
                "rematch_of_id": ids.get(g.rematch_of) if g.rematch_of else None,
            }
            for g in batch
        ],
    )
    uids = [g.uid for g in batch]
    new_ids: dict[str, int] = dict(
        db.session.execute(
            select(_games_table.c.uid, _games_table.c.id).where(
                _games_table.c.account_id == account_id, _games_table.c.uid.in_(uids)
            )
        ).all()
    )
    # A rematch of a game of the same batch: its link once both have ids.
    late = [
        {"game_id": new_ids[g.uid], "target_id": new_ids[g.rematch_of]}
        for g in batch
        if g.rematch_of and g.rematch_of in new_ids
    ]
    if late:
        db.session.execute(_SET_REMATCH, late)
    return new_ids


def write_game(
    account_id: int, game: CheckedGame, player_ids: Mapping[str, int], parent_id: int | None
) -> int:
    """Write one checked game in the caller's transaction, without committing: its row (a
    rematch of the game `parent_id`, or of none), its seats and its whole log; the new id.
    `player_ids` gives a player of the account for each of the game's name keys. For a game
    brought back from the trash (`services.trash`); an import writes in batches."""
    known = {game.rematch_of: parent_id} if game.rematch_of and parent_id is not None else {}
    new_ids = _insert_games(account_id, [game], known)
    seat_rows, turn_rows = _seat_and_turn_rows([game], new_ids, player_ids)
    db.session.execute(insert(_seats_table), seat_rows)
    if turn_rows:
        db.session.execute(insert(_turns_table), turn_rows)
    return new_ids[game.uid]


def _seat_and_turn_rows(
    batch: list[CheckedGame], game_ids: Mapping[str, int], player_ids: Mapping[str, int]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    seat_rows: list[dict[str, Any]] = []
    turn_rows: list[dict[str, Any]] = []
    for g in batch:
        game_id = game_ids[g.uid]
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
    return seat_rows, turn_rows
