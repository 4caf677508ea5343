"""The export document: its format, version and size limit, the keys each object may hold, and
the shape a checked game takes between reading the file and writing it (`CheckedGame`).

`Refused` is a problem found in the file; each reader adds where it found it, and the import
turns the whole sentence into one `InvalidInput`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...i18n import N_, _, gettext
from ...rules import Dice

FORMAT = "kosci-export"
VERSION = 1
# An account's export outgrows the app's 1 MB request limit after a few hundred games; the
# import endpoints accept files up to this size. The largest takes about ten seconds to check
# and write on a 2-core machine; judging its finished table games afterwards (the seat reviews)
# takes about 23 ms a game, some 90 s more for the largest (docs/benchmarks.md, "Import").
# A game may hold `games.MAX_TURNS_PER_GAME` turns in force, as in play.
MAX_FILE_BYTES = 32 * 1024 * 1024

REFUSED = N_("Nic nie zaimportowano.")  # translated where it is said (`refused`)

TOP_KEYS = frozenset({"format", "version", "exported_at", "account", "players", "games"})
PLAYER_KEYS = frozenset({"name", "created_at"})
GAME_KEYS = frozenset(
    {
        "uid",
        "variant",
        "options",
        "hints",
        "started_at",
        "finished_at",
        "rematch_of",
        "seats",
        "turns",
    }
)
SEAT_KEYS = frozenset(
    {"player", "total", "place", "is_winner", "upper_bonuses", "generals", "extra_bonuses"}
)
TURN_KEYS = frozenset(
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

SHOWN = 60  # the longest value a message quotes
MAX_INT = 2**63 - 1  # the largest integer SQLite stores

# name key → (name, created_at): the file's players, as `parse.parse_players` reads them.
Players = dict[str, tuple[str, datetime | None]]


class Refused(Exception):
    """A problem found in the file; `where` is added by the caller that knows it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def at(self, where: str, separator: str = ": ") -> Refused:
        """The same problem, said with where it was found first."""
        return Refused(f"{where}{separator}{self.message}")


def refused(message: str) -> str:
    """The import's answer to a file it refuses: nothing imported, and why."""
    return f"{gettext(REFUSED)} {message}"


def show(value: object) -> str:
    """A value of the file as the message quotes it: short, whatever its size (Python will not
    even write out an integer of more than 4,300 digits)."""
    if isinstance(value, int) and abs(value) > MAX_INT:
        digits = int(abs(value).bit_length() * 0.30103) + 1
        return _("liczba o ok. %(digits)d cyfrach", digits=digits)
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def iso(moment: datetime | None) -> str | None:
    """A stored (naive UTC) time as the file writes it: "2025-05-03T18:42:11Z"."""
    return None if moment is None else moment.isoformat() + "Z"


@dataclass(slots=True)
class CheckedTurn:
    """One entry of a game's log, its values checked (whether the rules allowed it is the
    replay's question)."""

    index: int  # position in the file's log: the order of writing
    seq: int
    seat: int
    dice: Dice
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
class CheckedGame:
    """A game of the file, checked: what will be written, nothing else (the rules' state it was
    checked with is gone, only the figures derived from it are kept)."""

    uid: str
    variant: str
    options: dict[str, int]
    started_at: datetime
    finished_at: datetime | None  # None while the game is unfinished, whatever the file says
    rematch_of: str | None
    players: list[str]  # name keys, in seating order
    turns: list[CheckedTurn]  # the whole log, in the order of writing
    figures: list[dict[str, Any]]  # per seat: what `results.store_results` would store
    hints: bool = False  # the table agreed to the hint („Podpowiedzi”): never in dice poker
