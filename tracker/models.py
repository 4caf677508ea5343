"""Database models. The turns players entered are the source of truth; every figure cached on a
game seat (totals, places, winners) is derived from them by `tracker.rules` and can be
recomputed with `flask --app tracker recompute`."""

from __future__ import annotations

import unicodedata
import uuid
from datetime import UTC, datetime
from typing import Any

from flask_login import UserMixin
from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import Model, login_manager


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_uid() -> str:
    return uuid.uuid4().hex


def name_key(name: str) -> str:
    """The form of a name compared for uniqueness: case, runs of space and the way a letter is
    spelled in Unicode ignored („ë” as one character or as e + combining diaeresis: NFC)."""
    return unicodedata.normalize(
        "NFC", unicodedata.normalize("NFC", " ".join(name.split())).casefold()
    )


class Account(UserMixin, Model):
    """A household or club: everything else belongs to one account."""

    __tablename__ = "accounts"
    # Ids are never used twice: a browser still signed in to a deleted account must not find
    # itself signed in to the next account created.
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    name_key: Mapped[str] = mapped_column(String(60), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The language the account chose for its pages ("pl", "en"; None: the browser's own choice,
    # else Polish). tracker/i18n.py.
    language: Mapped[str | None] = mapped_column(String(8))

    @property
    def session_key(self) -> str | None:
        """Not a column: the key of the browser session this object was signed in with or
        loaded for (`tracker.services.accounts`), None when it was loaded another way."""
        return getattr(self, "_session_key", None)

    @session_key.setter
    def session_key(self, key: str | None) -> None:
        self._session_key = key

    def get_id(self) -> str:
        """What Flask-Login keeps in the session cookie and the remember cookie: the account and
        its browser session, `"<id>:<key>"`. The user loader accepts it only while that session
        is open (`accounts.account_for_session`), so signing out, "sign out everywhere" and a
        password change end every copy of the cookies. An account signed in without a session
        of its own (sign-up) gets one here."""
        if self.session_key is None:
            from .services import accounts  # the services import the models

            self.session_key = accounts.open_session(self.id)
        return f"{self.id}:{self.session_key}"


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("account_id", "name_key"),
        # Never used twice: a trash entry's seats and a merge keep player ids
        # (`services.trash`, `PlayerMerge`), which must never point at a player added later.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    # At most 30 characters as people count them, but an emoji family is one character of five
    # code points: room for 120 (tracker.services.players.NAME_CODE_POINTS).
    name: Mapped[str] = mapped_column(String(120))
    name_key: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Game(Model):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_account_started", "account_id", "started_at"),
        Index("ix_games_account_finished", "account_id", "finished_at"),
        # An export names each game by its uid, so importing the same file again finds the games
        # it already brought in. Unique per account: one file may go into several accounts.
        UniqueConstraint("account_id", "uid"),
        # One rematch per game, however often "Rewanż" is tapped and on however many phones.
        Index("uq_games_rematch_of_id", "rematch_of_id", unique=True),
        # Ids are never used twice: a phone still showing a deleted game must not write into
        # the next game created, nor a cache judge that game from the old one's state.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    uid: Mapped[str] = mapped_column(String(32), default=new_uid)  # uuid4, 32 hex digits
    variant: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Set when the last sheet is full (or the poker match is won); derived, recomputable.
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    rematch_of_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), default=None
    )
    # Raised by every write to the game (a turn, an undo, a recomputation): the state of the
    # game in one number, for caches and for phones that follow the game.
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    # The table agreed to the hint („Podpowiedzi”) when the game started: the turn screen marks
    # the best field (tracker/advisor). Never for dice poker; kept by the rematch.
    hints: Mapped[bool] = mapped_column(default=False, server_default="0")

    seats: Mapped[list[GameSeat]] = relationship(
        back_populates="game",
        order_by="GameSeat.seat",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class GameSeat(Model):
    """A player at a game, in seating order (seat 0 starts)."""

    __tablename__ = "game_seats"
    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        UniqueConstraint("game_id", "player_id"),
        # Statistics read every seat of the games they cover: with this index they never touch
        # the table (docs/benchmarks.md, "Statistics").
        Index(
            "ix_game_seats_results",
            "game_id",
            "player_id",
            "seat",
            "is_winner",
            "total",
            "generals",
            "upper_bonuses",
            "extra_bonuses",
            "place",  # head-to-head by places: the nemeses (tracker/services/stats/dice.py)
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="RESTRICT"), index=True
    )
    seat: Mapped[int]
    # Cached results, derived from the turns (see module docstring). For poker, `total` is the
    # number of round wins.
    total: Mapped[int] = mapped_column(default=0)
    place: Mapped[int | None] = mapped_column(default=None)
    is_winner: Mapped[bool] = mapped_column(default=False)
    # Cached for statistics (table games): columns that earned the upper bonus, five of a kind
    # rolled, extra Generał bonuses earned.
    upper_bonuses: Mapped[int] = mapped_column(default=0, server_default="0")
    generals: Mapped[int] = mapped_column(default=0, server_default="0")
    extra_bonuses: Mapped[int] = mapped_column(default=0, server_default="0")

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")


class Turn(Model):
    """One written turn: the dice entered and the field chosen. Undo marks it, never deletes it."""

    __tablename__ = "turns"
    __table_args__ = (
        # Two phones writing the same turn at the same moment: the database stores it once.
        Index(
            "uq_turns_game_seq_in_force",
            "game_id",
            "seq",
            unique=True,
            sqlite_where=text("undone_at IS NULL"),
            postgresql_where=text("undone_at IS NULL"),
        ),
        # A player's per-field figures from the turns in force, without touching the table.
        # Not partial: without ANALYZE statistics SQLite would rather use the unique index
        # above, which reads every player's turns of a game (twice as slow, measured).
        Index("ix_turns_by_seat", "game_id", "seat", "undone_at", "field", "points"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int]  # 1-based position among the turns in force
    seat: Mapped[int]
    dice: Mapped[str] = mapped_column(String(5))  # five digits, as entered: "66616"
    field: Mapped[str | None] = mapped_column(String(20), default=None)  # None in poker
    column: Mapped[int | None] = mapped_column(default=None)
    points: Mapped[int | None] = mapped_column(default=None)
    extra_bonus: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)


class SeatReview(Model):
    """One seat's play in a finished table game judged against optimal solitaire play
    (`tracker.advisor.review_game`): the expected points its choices gave away, and its luck.
    Derived from the turns: stored by the turn that ends the game, dropped by the undo that
    reopens it, rewritten by a correction, recomputable (`flask --app tracker advisor
    recompute`). Missing where the advisor had no table for the variant when the game ended."""

    __tablename__ = "seat_reviews"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int]
    # The seat's player (as `game_seats` says; a merge of players moves both).
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="RESTRICT"), index=True
    )
    turns: Mapped[int]  # turns judged
    loss: Mapped[float]  # expected points given away by the choices, in all (0 or more)
    luck: Mapped[float]  # total − expected_start + loss: the dice above (+) or below (−) par
    expected_start: Mapped[float]  # an empty sheet's expected final total
    total: Mapped[int]  # the points the seat ended with
    exact: Mapped[bool]  # false for Kości potrójne, which the advisor only approximates
    computed_at: Mapped[datetime] = mapped_column(default=utcnow)


class ApiToken(Model):
    """A bearer token for the game API. Only its SHA-256 is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(
        String(12)
    )  # shown on the account page to tell tokens apart
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class LoginFailure(Model):
    """A failed sign-in, kept a short while to slow down password guessing."""

    __tablename__ = "login_failures"
    # Sign-in is slowed down per (name, address) and per address (services/accounts.py).
    __table_args__ = (Index("ix_login_failures_addr_name_at", "remote_addr", "name_key", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name_key: Mapped[str] = mapped_column(String(60), index=True)
    remote_addr: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class AccountSession(Model):
    """A browser signed in to an account (its session cookie and remember cookie both name it).
    Signing out closes it; "sign out everywhere", a password change or reset close the account's
    others. Only the SHA-256 of its key is stored."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class AuditEvent(Model):
    """What happened to an account's security and data, for the person who runs the server
    (`flask --app tracker audit`). Never a password, a token or a session key."""

    __tablename__ = "audit_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True, default=None
    )
    event: Mapped[str] = mapped_column(String(40))
    remote_addr: Mapped[str] = mapped_column(String(64), default="")
    detail: Mapped[str] = mapped_column(String(300), default="")


class Invite(Model):
    """A one-time code that lets one new account sign up when `KOSCI_SIGNUP=invite`. Made by a
    signed-in account (`/konto`) or by `flask --app tracker create-invite` (no account). Only the
    SHA-256 of the code is stored; it is shown once."""

    __tablename__ = "invites"

    id: Mapped[int] = mapped_column(primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True, default=None
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None] = mapped_column(default=None)
    used_by_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), default=None
    )
    used_by: Mapped[Account | None] = relationship(foreign_keys=[used_by_account_id], lazy="joined")


class SignupAttempt(Model):
    """A sign-up form sent (accepted or not) from an address, kept an hour to limit sign-ups
    per address (`KOSCI_SIGNUP_PER_HOUR`)."""

    __tablename__ = "signup_attempts"
    __table_args__ = (Index("ix_signup_attempts_addr_at", "remote_addr", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    remote_addr: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class GameInvitation(Model):
    """A link that lets a phone follow one game without the family's password („Dołącz
    telefon”): to write its turns (`play`) or only to watch it (`watch`), and nothing else of
    the account. Only the SHA-256 of its token is stored; the link is shown once, to the
    browser that made it. It ends when revoked, a few hours after its game ends, or at
    `expires_at` (a hard cap for a game never finished), whichever comes first
    (`tracker.services.invitations`)."""

    __tablename__ = "game_invitations"
    __table_args__ = (CheckConstraint("mode IN ('play', 'watch')", name="mode"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    mode: Mapped[str] = mapped_column(String(5))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class PlayerMerge(Model):
    """Two players merged into one („Połącz”): kept so that a wrong choice can be undone
    („Cofnij połączenie”, `services.players.undo_merge`). The merged-away player is gone; the
    merge keeps their name and the games whose seats moved to the target, which is all an undo
    needs to give those seats (and their reviews) back to a player of that name again."""

    __tablename__ = "player_merges"
    __table_args__ = (
        Index("ix_player_merges_account_merged", "account_id", "merged_at"),
        # Never used twice: an old page's „Cofnij” must not undo another merge.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    source_name: Mapped[str] = mapped_column(String(120))
    source_created_at: Mapped[datetime]
    # The merged-away player's id (None for merges made before it was kept): a trash entry's
    # seat of that player comes back to the target, and undoing a later merge of the target
    # makes this a merge into the player back.
    source_id: Mapped[int | None] = mapped_column(default=None)
    # No foreign key: the target may itself be merged away later, and the undo then says so.
    target_id: Mapped[int]
    game_ids: Mapped[list[int]] = mapped_column(JSON)  # the games whose seat moved
    merged_at: Mapped[datetime] = mapped_column(default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)


class DeletedGame(Model):
    """A game deleted by its account, kept for `services.trash.KEEP_DAYS` so that a wrong tap
    on „Usuń grę” can be undone („Kosz”). The game itself is gone (seats, turns, reviews and
    invitations with it; its live invitations are kept in `invitations`): `document` is the
    game as the export writes it (a `kosci-export` document of one game and its players), and
    restoring replays it through the rules like an import, so nothing derived is kept here.
    `player_ids` are the seats' players as they were, so that a player renamed since still gets
    the game back; `rematch_uid` is the game that was its rematch, linked again on restore.
    Entries older than `KEEP_DAYS` are removed."""

    __tablename__ = "deleted_games"
    __table_args__ = (
        Index("ix_deleted_games_account_deleted", "account_id", "deleted_at"),
        Index("ix_deleted_games_account_game", "account_id", "game_id"),
        # A guest phone knows its game's id, not the account (services.trash.keeps_invitation).
        Index("ix_deleted_games_game", "game_id"),
        # Never used twice: an old page's „Przywróć” must not restore another game.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    uid: Mapped[str] = mapped_column(String(32))
    # The id the game had (None for entries from before the column): a phone still on its page
    # is told it was deleted, or led to the game it was restored as; a merge of one of its
    # players follows the game to its new id on restore, and an undone one gives its seat back.
    game_id: Mapped[int | None] = mapped_column(default=None)
    variant: Mapped[str] = mapped_column(String(20))
    names: Mapped[list[str]] = mapped_column(JSON)  # the seats' names, in seating order
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    deleted_at: Mapped[datetime] = mapped_column(default=utcnow)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    player_ids: Mapped[list[int]] = mapped_column(JSON)
    rematch_uid: Mapped[str | None] = mapped_column(String(32), default=None)
    # The game's live invitations when it was deleted (`services.trash.keep`: mode, token
    # digest, made, hard cap), made again for the restored game: a joined phone plays on.
    invitations: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    # Set when it was restored (and to which game): a second phone tapping „Przywróć” on the
    # same entry is told so, and led to the game, instead of getting it twice.
    restored_at: Mapped[datetime | None] = mapped_column(default=None)
    restored_game_id: Mapped[int | None] = mapped_column(default=None)


@login_manager.user_loader
def _load_account(user_id: str) -> Account | None:
    from .services import accounts  # the services import the models

    return accounts.account_for_session(user_id)
