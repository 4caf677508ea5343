"""The forms of the games pages. They parse and check input shape; the services decide."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, Field, FieldList, HiddenField, StringField
from wtforms.validators import ValidationError

from ..forms import PageForm
from ..models import name_key
from ..rules import POKER, TABLE_VARIANTS
from ..rules.match import MIN_PLAYERS as POKER_MIN_PLAYERS
from ..rules.variants import DEFAULT_TARGET_WINS, TARGET_WINS_RANGE
from ..services import InvalidInput
from ..services.games import MAX_PLAYERS
from ..services.players import NAME_MAX, validate_name

DEFAULT_ROWS = 2
# The thresholds Gra po kolei offers, from the variant itself ("63", "42").
BONUS_THRESHOLDS = tuple(str(t) for t in TABLE_VARIANTS["ordered"].bonus_thresholds)
TARGET_WINS = tuple(str(n) for n in TARGET_WINS_RANGE)  # "1" … "9"


def player_name(form: PageForm, field: Field) -> None:
    """An empty row is ignored; a filled one must be a name the players service accepts."""
    if not (field.data or "").strip():
        field.data = ""
        return
    try:
        field.data = validate_name(field.data)
    except InvalidInput as exc:
        raise ValidationError(exc.message) from exc


class NewGameForm(PageForm):
    # Radio cards in the template; plain strings here, checked in `validate` in Polish.
    variant = StringField("Wariant", default="standard")
    bonus_threshold = StringField("Próg premii za górną część", default=BONUS_THRESHOLDS[0])
    target_wins = StringField("Do ilu wygranych rund", default=str(DEFAULT_TARGET_WINS))
    players = FieldList(
        StringField("Gracz", validators=[player_name]),
        min_entries=DEFAULT_ROWS,
    )
    shuffle = BooleanField("Losuj, kto zaczyna")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players_error: str | None = None  # about the players as a whole (none, too many)

    @property
    def names(self) -> list[str]:
        """The names in seating order, empty rows left out."""
        return [entry.data for entry in self.players.entries if (entry.data or "").strip()]

    @property
    def is_poker(self) -> bool:
        return self.variant.data == POKER

    @property
    def options(self) -> dict[str, int] | None:
        """Options for the service: only Gra po kolei lets players lower the threshold; dice
        poker is played to the number of round wins agreed before the game."""
        if self.variant.data == "ordered" and self.bonus_threshold.data in BONUS_THRESHOLDS:
            return {"bonus_threshold": int(self.bonus_threshold.data)}
        if self.is_poker and self.target_wins.data in TARGET_WINS:
            return {"target_wins": int(self.target_wins.data)}
        return None

    def add_row(self) -> None:
        if len(self.players.entries) < MAX_PLAYERS:
            self.players.append_entry()

    def validate(self, extra_validators: Any = None) -> bool:
        valid = super().validate(extra_validators)
        if self.variant.data not in TABLE_VARIANTS and not self.is_poker:
            self.variant.errors.append("Wybierz jeden z wariantów.")
            valid = False
        if self.variant.data == "ordered" and self.bonus_threshold.data not in BONUS_THRESHOLDS:
            self.bonus_threshold.errors.append("Próg premii może wynosić 63 albo 42.")
            valid = False
        if self.is_poker and self.target_wins.data not in TARGET_WINS:
            self.target_wins.errors.append(
                f"Wybierz, do ilu wygranych rund gracie: od {TARGET_WINS[0]} do {TARGET_WINS[-1]}."
            )
            valid = False
        seen: dict[str, int] = {}
        for number, entry in enumerate(self.players.entries, start=1):
            if not entry.data or entry.errors:
                continue
            key = name_key(entry.data)
            if key in seen:
                entry.errors.append(f"Ten gracz już siedzi przy stole (gracz {seen[key]}).")
                valid = False
            else:
                seen[key] = number
        names = self.names
        if not names and not any(e.errors for e in self.players.entries):
            self.players_error = "Wpisz imię co najmniej jednego gracza."
        if (
            self.is_poker
            and len(names) < POKER_MIN_PLAYERS
            and not any(e.errors for e in self.players.entries)
        ):
            # Round wins need somebody to beat: "Rundę wygrywa najwyższy układ".
            self.players_error = "W pokera gra się co najmniej we dwoje: wpisz imiona dwóch graczy."
        elif len(names) > MAX_PLAYERS:
            self.players_error = f"Przy stole siedzi najwyżej {MAX_PLAYERS} graczy."
        if self.players_error:
            valid = False
        return valid


class RenameForm(PageForm):
    """One player's inline rename; each row of the players page has its own prefix."""

    name = StringField("Imię", render_kw={"maxlength": NAME_MAX, "autocapitalize": "words"})


class TurnForm(PageForm):
    """Writing a turn: the dice, the field tapped, its column, and the turn number the phone saw.

    Hidden fields are read as text and checked in the view: a phone never sends anything else,
    so a malformed value is a bad request, not something a player has to correct.
    """

    dice = HiddenField()
    field = HiddenField()
    column = HiddenField(default="0")
    seq = HiddenField()
    confirm = HiddenField()


class SeqForm(PageForm):
    """A button that acts on the game as the phone saw it (undo): carries the turn number."""

    seq = HiddenField()
