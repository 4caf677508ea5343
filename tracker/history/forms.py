"""The history filter: a GET form, so bookmarks and the back button keep the filter.

The form offers the choices and says which one is not on the list; the days and their order are
read by `tracker.services.filters`, the statistics' parser, in its `typed` dialect (a browser
without a date picker sends what was typed, so the Polish 3.05.2025 is accepted too).
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from wtforms import Form, SelectField, StringField

from ..i18n import _, lazy_gettext
from ..rules import VARIANT_NAMES
from ..rules_text import rules_text
from ..services.filters import FROM, TO, GameFilter, InvalidFilter, read_filter
from ..web import HISTORY_FINISHED, HISTORY_UNFINISHED, UNKNOWN_VARIANT_CHOICE


class HistoryFilterForm(Form):
    """Variant, player, whether the game is over and a range of days (both included), in the
    query string."""

    wariant = SelectField(lazy_gettext("Wariant"), validate_choice=False)
    gracz = SelectField(lazy_gettext("Gracz"), validate_choice=False)
    stan = SelectField(lazy_gettext("Stan gry"), validate_choice=False)
    od = StringField(lazy_gettext("Od dnia"), render_kw={"type": "date", "autocomplete": "off"})
    do = StringField(lazy_gettext("Do dnia"), render_kw={"type": "date", "autocomplete": "off"})

    def __init__(self, formdata: Any, players: list[tuple[int, str]]) -> None:
        super().__init__(formdata)
        self.wariant.choices = [
            ("", _("Wszystkie warianty")),
            *((id_, rules_text(name)) for id_, name in VARIANT_NAMES.items()),
        ]
        self.gracz.choices = [("", _("Wszyscy gracze")), *((str(i), n) for i, n in players)]
        self.stan.choices = [
            ("", _("Wszystkie gry")),
            (HISTORY_UNFINISHED, _("W toku")),
            (HISTORY_FINISHED, _("Zakończone")),
        ]
        self.known_players = {str(i) for i, _ in players}  # the values of `gracz` but "all"

    def to_filter(self, zone: tzinfo) -> GameFilter | None:
        """The filter asked for, or None with the errors next to their fields."""
        variant = self.wariant.data or None
        if variant is not None and variant not in VARIANT_NAMES:
            self.wariant.errors = [_(UNKNOWN_VARIANT_CHOICE)]
            variant = None
        player = self.gracz.data or None
        known = self.known_players
        if player is not None and player not in known:
            self.gracz.errors = [_("Nie ma takiego gracza na tym koncie. Wybierz z listy.")]
        if self.stan.data not in ("", None, HISTORY_UNFINISHED, HISTORY_FINISHED):
            self.stan.errors = [_("Wybierz stan gry z listy.")]
        chosen = None
        try:
            chosen = read_filter(
                variant=variant,
                since=self.od.data,
                until=self.do.data,
                player_ids=[int(player)] if player in known else [],
                zone=zone,
                typed=True,
            )
        except InvalidFilter as exc:
            fields = {FROM: self.od, TO: self.do}
            for name, message in exc.errors.items():
                fields[name].errors = [message]
        if any(f.errors for f in self):
            return None
        return chosen

    def finished(self) -> bool | None:
        """Only finished games (True), only unfinished ones (False), or both (None)."""
        return {HISTORY_UNFINISHED: False, HISTORY_FINISHED: True}.get(self.stan.data or "")

    def query(self) -> dict[str, str]:
        """The filter as query arguments, empty ones left out (for the pager's links)."""
        return {f.name: f.data for f in self if f.data}

    @property
    def active(self) -> bool:
        return bool(self.query())
