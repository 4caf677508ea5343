"""The forms of the games pages. They parse and check input shape; the services decide."""

from __future__ import annotations

from collections import Counter
from typing import Any

from wtforms import BooleanField, Field, FieldList, HiddenField, SelectField, StringField
from wtforms.validators import ValidationError

from ..forms import PageForm, add_error
from ..i18n import _, lazy_gettext
from ..models import name_key
from ..rules import TABLE_VARIANTS, VARIANTS, AnyVariant
from ..rules.variants import DEFAULT_TARGET_WINS, TARGET_WINS_RANGE
from ..rules_text import rules_text
from ..services import InvalidInput
from ..services.players import NAME_CODE_POINTS, validate_name

DEFAULT_ROWS = 2
# The thresholds a variant lets the table choose between ("63", "42": Gra po kolei's).
BONUS_THRESHOLDS = tuple(
    str(t) for t in max((v.bonus_thresholds for v in TABLE_VARIANTS.values()), key=len)
)
TARGET_WINS = tuple(str(n) for n in TARGET_WINS_RANGE)  # "1" … "9"
# As many rows as the most generous variant seats.
MAX_PLAYERS = max(v.max_players for v in VARIANTS.values())


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
    variant = StringField(lazy_gettext("Wariant"), default="standard")
    bonus_threshold = StringField(
        lazy_gettext("Próg premii za górną część"), default=BONUS_THRESHOLDS[0]
    )
    target_wins = StringField(
        lazy_gettext("Do ilu wygranych rund"), default=str(DEFAULT_TARGET_WINS)
    )
    players = FieldList(
        StringField(lazy_gettext("Gracz"), validators=[player_name]),
        min_entries=DEFAULT_ROWS,
    )
    shuffle = BooleanField(lazy_gettext("Losuj, kto zaczyna"))
    hints = BooleanField(lazy_gettext("Podpowiedzi (najlepsze pole według optymalnej gry)"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players_error: str | None = None  # about the players as a whole (none, too many)

    # A name input's maxlength is the browser's guard only: it counts UTF-16 units (an emoji is
    # two or more); the players service counts characters as people do and says when a name is
    # too long.
    name_maxlength = NAME_CODE_POINTS

    @property
    def seat_limits(self) -> dict[str, str]:
        """Variant id → "od 1 do 8 graczy", on each variant's card."""
        return {
            v.id: _("od %(least)d do %(most)d graczy", least=v.min_players, most=v.max_players)
            for v in VARIANTS.values()
        }

    @property
    def seat_limits_hint(self) -> str:
        return seat_limits_hint()

    @property
    def names(self) -> list[str]:
        """The names in seating order, empty rows left out."""
        return [name for entry in self.players.entries if (name := entry.data) and name.strip()]

    @property
    def chosen(self) -> AnyVariant | None:
        return VARIANTS.get(self.variant.data or "")

    @property
    def is_poker(self) -> bool:
        return self.chosen is not None and self.chosen.kind == "poker"

    @property
    def thresholds(self) -> tuple[str, ...]:
        """The thresholds the chosen variant lets the table choose; () when it offers one."""
        chosen = self.chosen
        if chosen is None or chosen.kind != "table" or len(chosen.bonus_thresholds) < 2:
            return ()
        return tuple(str(t) for t in chosen.bonus_thresholds)

    @property
    def options(self) -> dict[str, int] | None:
        """Options for the service: a lower threshold where the variant offers one (Gra po
        kolei); dice poker is played to the number of round wins agreed before the game."""
        if self.bonus_threshold.data in self.thresholds:
            return {"bonus_threshold": int(self.bonus_threshold.data)}
        if self.is_poker and self.target_wins.data in TARGET_WINS:
            return {"target_wins": int(self.target_wins.data)}
        return None

    @property
    def hints_chosen(self) -> bool:
        """The hint, where the variant has fields to choose: dice poker has none, so a box
        ticked before the poker card was chosen (and then hidden with the rest) is ignored."""
        return bool(self.hints.data) and self.chosen is not None and not self.is_poker

    def add_row(self) -> None:
        if len(self.players.entries) < MAX_PLAYERS:
            self.players.append_entry()

    def validate(self, extra_validators: Any = None) -> bool:
        valid = super().validate(extra_validators)
        chosen = self.chosen
        if chosen is None:
            add_error(self.variant, _("Wybierz jeden z wariantów."))
            valid = False
        if self.thresholds and self.bonus_threshold.data not in self.thresholds:
            add_error(
                self.bonus_threshold,
                _(
                    "Próg premii może wynosić %(first)s albo %(second)s.",
                    first=self.thresholds[0],
                    second=self.thresholds[-1],
                ),
            )
            valid = False
        if self.is_poker and self.target_wins.data not in TARGET_WINS:
            add_error(
                self.target_wins,
                _(
                    "Wybierz, do ilu wygranych rund gracie: od %(least)s do %(most)s.",
                    least=TARGET_WINS[0],
                    most=TARGET_WINS[-1],
                ),
            )
            valid = False
        seen: dict[str, int] = {}
        for number, entry in enumerate(self.players.entries, start=1):
            if not entry.data or entry.errors:
                continue
            key = name_key(entry.data)
            if key in seen:
                add_error(
                    entry,
                    _("Ten gracz już siedzi przy stole (gracz %(number)d).", number=seen[key]),
                )
                valid = False
            else:
                seen[key] = number
        names = self.names
        if not names and not any(e.errors for e in self.players.entries):
            self.players_error = _("Wpisz imię co najmniej jednego gracza.")
        least = chosen.min_players if chosen else 1
        most = chosen.max_players if chosen else MAX_PLAYERS
        if least > 1 and len(names) < least and not any(e.errors for e in self.players.entries):
            # Dice poker: round wins need somebody to beat ("Rundę wygrywa najwyższy układ").
            self.players_error = _(
                "W pokera gra się co najmniej we dwoje: wpisz imiona dwóch graczy."
            )
        elif len(names) > most:
            self.players_error = too_many_players(chosen, len(names)) if chosen else None
        if self.players_error:
            valid = False
        return valid


def seat_limits(variant: AnyVariant) -> str:
    """The variant's player limits, from the rules: "Kości potrójne: od 1 do 8 graczy"."""
    return _(
        "%(variant)s: od %(least)d do %(most)d graczy",
        variant=rules_text(variant.name),
        least=variant.min_players,
        most=variant.max_players,
    )


def too_many_players(variant: AnyVariant, count: int) -> str:
    return _(
        "Za dużo graczy: %(count)d. %(limits)s przy jednym stole. Przy większej grupie "
        "zagrajcie w dwie osobne gry.",
        count=count,
        limits=seat_limits(variant),
    )


def seat_limits_hint() -> str:
    """The limits of every variant in one sentence, for the new-game form: "Od 1 do 8
    graczy; Poker kościany bez tabeli: od 2 do 8." (the limits most variants share first)."""
    limits = [(v.min_players, v.max_players) for v in VARIANTS.values()]
    common = Counter(limits).most_common(1)[0][0]
    others = [
        _(
            "%(variant)s: od %(least)d do %(most)d",
            variant=rules_text(v.name),
            least=v.min_players,
            most=v.max_players,
        )
        for v, limit in zip(VARIANTS.values(), limits, strict=True)
        if limit != common
    ]
    first = _("Od %(least)d do %(most)d graczy przy stole", least=common[0], most=common[1])
    return "; ".join([first, *others]) + "."


class RenameForm(PageForm):
    """One player's inline rename; each row of the players page has its own prefix."""

    name = StringField(
        lazy_gettext("Imię"), render_kw={"maxlength": NAME_CODE_POINTS, "autocapitalize": "words"}
    )


class MergeForm(PageForm):
    """Merge the player into another: the one chosen keeps their name, and gets the games."""

    target = SelectField(lazy_gettext("Połącz z graczem"), coerce=str, validate_choice=False)


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
