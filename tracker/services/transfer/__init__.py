"""Export and import: an account's whole history as one JSON file, and its results as CSV.

The JSON export (format `kosci-export`, version 1) holds everything needed to rebuild the
account's games: players, and per game its variant, options, times, seats and every turn ever
written, corrected ones (`undone_at`) included, in the order they were written::

    {"format": "kosci-export", "version": 1, "exported_at": "2025-05-03T18:42:11Z",
     "account": "Kowalscy",
     "players": [{"name": "Ala", "created_at": "…"}],
     "games": [{"uid": "<32 hex digits>", "variant": "standard", "options": {…},
                "hints": false, "started_at": "…", "finished_at": "…" | null,
                "rematch_of": "<uid>" | null,
                "seats": [{"player": "Ala", "total": 245, "place": 1, "is_winner": true,
                           "upper_bonuses": 1, "generals": 0, "extra_bonuses": 0}, …],
                "turns": [{"seq": 1, "seat": 0, "dice": "66612", "field": "sixes",
                           "column": 0, "points": 18, "extra_bonus": 0,
                           "created_at": "…", "undone_at": null}, …]}]}

Times are UTC, ISO 8601 with a trailing "Z". Seats are listed in seating order. A seat's
figures (for poker, `total` is the round wins) are there for people reading the file; an import
ignores them and derives them again from the turns. `hints` (the table agreed to the hint,
„Podpowiedzi”) is true or false, never true for dice poker; a file written before the option
existed has no such key, and its games are imported without the hint.

Importing trusts nothing in the file: every game's log is replayed through `tracker.rules` in the
order it was written, undos included, so points that do not match the dice, a turn out of turn,
a turn after the game is over, an unknown field or a value of the wrong type or size refuse the
whole file with a message that says where, before anything is written. Then the import writes in
short transactions of whole games, so that the table's turns are not kept waiting, and it is
idempotent: games are matched by `uid` within the account, players by name with case ignored,
so importing a file again adds only what is missing (an interrupted import is completed so). A
player of the file is added for the games written, or when the file has no game of theirs: an
old backup imported after „Ala” became „Alicja” adds no „Ala” without games.
Once the games are written, the finished table games of the file that lack them get their
seat reviews ("who plays best", `services.skill`), judged from the turns like every derived
figure, one short transaction a game: for a couple of seconds before the import answers, the
rest in a background thread once it has (`services.reviewer`); without the advisor they stay
missing (logged) and the import still succeeds.

The package, one module a job:

- `document`: the format, its limits and keys, the checked game handed from reading to writing;
- `export`: the JSON document and the CSV of an account, and how much the account holds;
- `parse`: reading a file, every value checked, every game replayed (`replay`);
- `replay`: a game's log through the rules, undos included, and the figures of its seats;
- `write`: the import itself, the file checked and then written in short transactions;
- `lock`: one import at a time on the server;
- `bgstats`: the finished games as a BG Stats file, and one game as BG Stats' deep link.
"""

from .document import FORMAT, MAX_FILE_BYTES, REFUSED, VERSION
from .export import CSV_HEADER, AccountSize, account_size, export_account, export_csv, export_json
from .lock import BUSY, one_import_at_a_time
from .parse import parse_export_file
from .write import SAME_TIME, ImportResult, import_account

__all__ = [
    "BUSY",
    "CSV_HEADER",
    "FORMAT",
    "MAX_FILE_BYTES",
    "REFUSED",
    "SAME_TIME",
    "VERSION",
    "AccountSize",
    "ImportResult",
    "account_size",
    "export_account",
    "export_csv",
    "export_json",
    "import_account",
    "one_import_at_a_time",
    "parse_export_file",
]
