"""BG Stats (Board Game Stats, bgstatsapp.com): the account's finished games as a file BG Stats
reads, and one finished game as BG Stats' `createPlay` deep link ("Wyślij do BG Stats").

Where the formats come from:

- The file is the shape BG Stats itself writes (`BGStatsExport.json`, and its shared "play
  files"): `players`, `locations`, `games` and `plays`, each object with a `uuid` and an integer
  `id` that the others refer to (`gameRefId`, `locationRefId`, `playerRefId`). Read off three real
  exports published on GitHub: michaelgao8/board-game-stats-shiny `BGStatsExport.json` (2021),
  gz97/board-games-analysis `BGStatsExport.json` (BG Stats v5.3.1) and Deniedpluto/BoardGamePlays
  `BGStatsExport.json` (v6.14.2); tests/data/bgstats/export.schema.json is built from them. What
  those files show and this module keeps: dates "YYYY-MM-DD HH:MM:SS" in local time; a score is a
  string ("92"); `rank` 1-based (0: not set); `seatOrder` 1-based (0: not set; BG Stats writes
  1, 2, 3 when the order is known); `startPlayer` true for the one who began; `winner` for every
  tied winner; `newPlayer` on a player's first play of the game; `durationMin` a whole number.
- The deep link is documented by BG Stats: https://www.bgstatsapp.com/support/
  push-plays-to-bg-stats-from-other-apps-or-websites/ — `https://app.bgstatsapp.com/
  createPlay.html?data=<url-encoded JSON>` with `sourceName`, `sourcePlayId`, `playDate`,
  `durationMin`, `board`, `game` {`name`, `bggId`, `highestWins`, `noPoints`, `sourceGameId`} and
  `players` [{`name`, `score`, `winner`, `rank`, `startPlayer`, `sourcePlayerId`, `role`}].
  BG Stats matches the game by its BGG id: Yahtzee is https://boardgamegeek.com/boardgame/2243.

Stable identities, so that a second export or a second tap updates BG Stats instead of adding a
copy: every uuid is a uuid5 in one fixed namespace, of the game's `uid` for a play (a game keeps
its uid through a Kości export and import too) and of the player's name as the app compares names
(`name_key`: case and spacing ignored, the way an import matches players) for a player. A renamed
player is therefore a new player to BG Stats; an id would survive a rename but not a move to
another server, and names are what BG Stats' own import dialog matches anyway.

The variant goes in `board` under its Polish name ("Generał", "Poker kościany bez tabeli"): BG
Stats shows `board` next to the game in its lists and filters by it, so the name people say at
the table reads best there (an identifier such as "standard" would mean nothing). It stays Polish
whatever language the page or the API client asks for: BG Stats groups and filters plays by the
exact `board` text, and a second export or a second tap updates the same plays (same uuids), so
a `board` that followed the language would rename a family's plays to and fro whenever someone
with the other language exported, and split one variant into two boards in BG Stats' filters.
The file is the same, byte for byte, for everyone of the account; the rest of it is names and
numbers, and `about` is BG Stats' own English sentence. All variants
are one game, "Kości" on BGG's Yahtzee, highest score wins; in dice poker the score is the rounds
won (the app's results: a poker seat's total is its round wins).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

from ... import rules
from ...models import Game, name_key
from ..game_view import GameView
from .export import DEFAULT_TIMEZONE, require_account
from .export import _games as account_games

# Never change: every uuid the export and the link have ever given is derived from it.
NAMESPACE = uuid.UUID("5d0c6a0e-2f8b-5a36-9c61-0b4a6f1d2e73")
SOURCE_NAME = "Kości"  # i18n: not shown (the app's name, in every language)
GAME_NAME = "Kości"  # i18n: not shown (the app's name, in every language)
BGG_ID = 2243  # Yahtzee, https://boardgamegeek.com/boardgame/2243/yahtzee
BGG_NAME = "Yahtzee"
BGG_YEAR = 1956
LINK = "https://app.bgstatsapp.com/createPlay.html"
# The sentence BG Stats puts at the top of the play files it shares.
ABOUT = (
    "This is a Play file that can be read by Board Game Stats. If you see this text, try to use "
    "a share, export or open-in function to open it with Board Game Stats."
)
GAME_ID = 1  # the file's one game
LOCATION_ID = 1  # the file's one location: the app, as BG Stats sets it for a deep link
NEVER = "2000-01-01 00:00:00"  # the game's and location's date in a file without plays


@dataclass(frozen=True)
class PlaySeat:
    """One player's result, as BG Stats records it."""

    name: str
    score: int  # points; in dice poker, rounds won
    rank: int  # the place, 1 for the winners
    winner: bool


@dataclass(frozen=True)
class Play:
    """A finished game as BG Stats sees a play. Seats in seating order: seat 0 began."""

    uid: str
    variant: str
    started_at: datetime  # UTC, naive, as stored
    finished_at: datetime
    seats: tuple[PlaySeat, ...]


def play_uuid(uid: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"play:{uid}"))


def player_uuid(name: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"player:{name_key(name)}"))


GAME_UUID = str(uuid.uuid5(NAMESPACE, "game:kosci"))
LOCATION_UUID = str(uuid.uuid5(NAMESPACE, "location:kosci"))


def board(variant: str) -> str:
    return rules.VARIANT_NAMES.get(variant, variant)


def local_time(at: datetime, zone: ZoneInfo) -> str:
    """A stored UTC time as BG Stats writes dates: local, "2025-05-03 19:30:00"."""
    return f"{at.replace(tzinfo=UTC).astimezone(zone):%Y-%m-%d %H:%M:%S}"


def duration_min(play: Play) -> int:
    """Whole minutes from the first to the last turn's end, rounded (0 if the clock went back)."""
    seconds = (play.finished_at - play.started_at).total_seconds()
    return max(0, round(seconds / 60))


def play_of_view(view: GameView) -> Play:
    """The play of a finished game as loaded for its end screen: the rules' figures."""
    state = view.state
    assert state.finished, "only a finished game is a play"
    winners = set(state.winners)
    places = state.places
    return Play(
        uid=view.game.uid,
        variant=view.game.variant,
        started_at=view.game.started_at,
        finished_at=view.game.finished_at or view.game.started_at,
        seats=tuple(
            PlaySeat(
                name=seat.player.name,
                score=state.seat_figures(seat.seat).total,
                rank=places[seat.seat],
                winner=seat.seat in winners,
            )
            for seat in view.seats
        ),
    )


def play_of_game(game: Game) -> Play:
    """The play of a finished game from the results cached on its seats."""
    assert game.finished_at is not None, "only a finished game is a play"
    return Play(
        uid=game.uid,
        variant=game.variant,
        started_at=game.started_at,
        finished_at=game.finished_at,
        seats=tuple(
            PlaySeat(
                name=seat.player.name,
                score=seat.total,
                rank=seat.place or 0,
                winner=seat.is_winner,
            )
            for seat in game.seats
        ),
    )


# --- the deep link -------------------------------------------------------------------------


def link_data(play: Play, *, timezone: str = DEFAULT_TIMEZONE) -> dict[str, Any]:
    """The JSON the `createPlay` link carries (BG Stats' documented fields, see the module
    docstring). `sourcePlayId` is the play's uuid, the same as in the file: sending the game
    again, or exporting it later, updates the play in BG Stats instead of adding one."""
    zone = ZoneInfo(timezone)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_uuid(play.uid),
        "playDate": local_time(play.started_at, zone),
        "durationMin": duration_min(play),
        "board": board(play.variant),
        "game": {
            "name": GAME_NAME,
            "bggId": BGG_ID,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": "kosci",
        },
        "players": [
            {
                "name": seat.name,
                "score": seat.score,
                "winner": seat.winner,
                "rank": seat.rank,
                "startPlayer": index == 0,
                "sourcePlayerId": player_uuid(seat.name),
                "role": "",
            }
            for index, seat in enumerate(play.seats)
        ],
    }


def play_link(play: Play, *, timezone: str = DEFAULT_TIMEZONE) -> str:
    """BG Stats' `createPlay` deep link for one finished game. The https form: it opens the
    app where BG Stats is installed, and BG Stats' page about it elsewhere (`bgstats://` would
    do nothing at all there)."""
    data = json.dumps(link_data(play, timezone=timezone), ensure_ascii=False, separators=(",", ":"))
    return f"{LINK}?data={quote(data, safe='')}"


def view_link(view: GameView, *, timezone: str = DEFAULT_TIMEZONE) -> str:
    """The deep link of a finished game's end screen."""
    return play_link(play_of_view(view), timezone=timezone)


# --- the file ------------------------------------------------------------------------------


def export_bgstats(account_id: int, *, timezone: str = DEFAULT_TIMEZONE) -> dict[str, Any]:
    """The account's finished games (table variants and dice poker) as a BG Stats file.

    Unfinished games stay out: BG Stats records plays that ended. Players get ids 1, 2, … in
    the order they first played, oldest game first, so the same games give the same file.
    """
    require_account(account_id)
    zone = ZoneInfo(timezone)
    games = [g for g in account_games(account_id) if g.finished_at is not None]
    players: dict[str, dict[str, Any]] = {}  # name_key -> the file's player
    plays: list[dict[str, Any]] = []
    for game in games:
        play = play_of_game(game)
        scores = []
        for index, (seat, row) in enumerate(zip(play.seats, game.seats, strict=True)):
            key = name_key(seat.name)
            new = key not in players
            if new:
                players[key] = {
                    "uuid": player_uuid(seat.name),
                    "id": len(players) + 1,
                    "name": seat.name,
                    "isAnonymous": False,
                    "modificationDate": local_time(row.player.created_at, zone),
                    "bggUsername": "",
                }
            scores.append(
                {
                    "score": str(seat.score),
                    "winner": seat.winner,
                    "newPlayer": new,
                    "startPlayer": index == 0,
                    "playerRefId": players[key]["id"],
                    "rank": seat.rank,
                    "seatOrder": index + 1,
                    "role": "",
                }
            )
        finished = local_time(play.finished_at, zone)
        plays.append(
            {
                "uuid": play_uuid(play.uid),
                "modificationDate": finished,
                "entryDate": finished,
                "playDate": local_time(play.started_at, zone),
                "usesTeams": False,
                "durationMin": duration_min(play),
                "ignored": False,
                "manualWinner": False,
                "rounds": 0,
                "bggId": 0,
                "importPlayId": 0,
                "locationRefId": LOCATION_ID,
                "gameRefId": GAME_ID,
                "board": board(play.variant),
                "rating": 0,
                "nemestatsId": 0,
                "scoringSetting": 0,
                "playerScores": scores,
                "expansionPlays": [],
            }
        )
    # The game and the location change when a play does: dated by the newest play.
    latest: str = max((p["modificationDate"] for p in plays), default=NEVER)
    return {
        "about": ABOUT,
        "players": list(players.values()),
        "locations": [
            {
                "uuid": LOCATION_UUID,
                "id": LOCATION_ID,
                "name": SOURCE_NAME,
                "modificationDate": latest,
            }
        ],
        "games": [_game_entry(latest)],
        "plays": plays,
    }


def _game_entry(modified: str) -> dict[str, Any]:
    """The file's one game, with the keys every game in BG Stats' own exports has."""
    return {
        "uuid": GAME_UUID,
        "id": GAME_ID,
        "name": GAME_NAME,
        "modificationDate": modified,
        "cooperative": False,
        "highestWins": True,
        "noPoints": False,
        "usesTeams": False,
        "bggName": BGG_NAME,
        "bggYear": BGG_YEAR,
        "bggId": BGG_ID,
        "designers": "",
        "isBaseGame": 1,
        "isExpansion": 0,
        "rating": 0,
        "minPlayerCount": min(v.min_players for v in rules.VARIANTS.values()),
        "maxPlayerCount": max(v.max_players for v in rules.VARIANTS.values()),
        "minPlayTime": 30,
        "maxPlayTime": 30,
        "minAge": 8,
        "preferredImage": 0,
        "previouslyPlayedAmount": 0,
        "copies": [],
    }


def export_bgstats_json(account_id: int, *, timezone: str = DEFAULT_TIMEZONE) -> str:
    """`export_bgstats` as UTF-8 JSON text (Polish letters as they are)."""
    return json.dumps(export_bgstats(account_id, timezone=timezone), ensure_ascii=False)
