"""The history filter: a GET form, so bookmarks and the back button keep the filter."""

from __future__ import annotations

import re
from datetime import date, timedelta, tzinfo
from typing import Any

from wtforms import Form, SelectField, StringField

from ..rules import VARIANT_NAMES
from ..services import InvalidInput
from ..services.history import HistoryFilters
from ..services.inputs import check_day, local_midnight

BAD_DATE = "Nieprawidłowa data. Wpisz ją jako RRRR-MM-DD (np. 2025-05-03) albo 3.05.2025."
# A browser without a date picker sends what was typed: the Polish way is accepted too.
_ISO_DAY = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_POLISH_DAY = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")


def parse_day(text: str | None) -> date | None:
    """A calendar day typed or picked; None when empty; ValueError when it is no date,
    InvalidInput when it lies at the very ends of the calendar (see `check_day`)."""
    text = (text or "").strip()
    if not text:
        return None
    if match := _ISO_DAY.fullmatch(text):
        year, month, day = match.groups()
    elif match := _POLISH_DAY.fullmatch(text):
        day, month, year = match.groups()
    else:
        raise ValueError(text)
    return check_day(date(int(year), int(month), int(day)))


class HistoryFilterForm(Form):
    """Variant, player and a range of days (both included), in the query string."""

    wariant = SelectField("Wariant", validate_choice=False)
    gracz = SelectField("Gracz", validate_choice=False)
    od = StringField("Od dnia", render_kw={"type": "date", "autocomplete": "off"})
    do = StringField("Do dnia", render_kw={"type": "date", "autocomplete": "off"})

    def __init__(self, formdata: Any, players: list[tuple[int, str]]) -> None:
        super().__init__(formdata)
        self.wariant.choices = [("", "Wszystkie warianty"), *VARIANT_NAMES.items()]
        self.gracz.choices = [("", "Wszyscy gracze"), *((str(i), n) for i, n in players)]

    def to_filters(self, zone: tzinfo) -> HistoryFilters | None:
        """The filters asked for, or None with the errors next to their fields."""
        variant = self.wariant.data or None
        if variant is not None and variant not in VARIANT_NAMES:
            self.wariant.errors = ["Nie ma takiego wariantu. Wybierz jeden z listy."]
        player = self.gracz.data or None
        known = {value for value, _ in self.gracz.choices if value}  # type: ignore[union-attr]
        if player is not None and player not in known:
            self.gracz.errors = ["Nie ma takiego gracza na tym koncie. Wybierz z listy."]
        days: list[date | None] = []
        for field in (self.od, self.do):
            try:
                days.append(parse_day(field.data))
            except ValueError:
                field.errors = [BAD_DATE]
                days.append(None)
            except InvalidInput as exc:
                field.errors = [exc.message]
                days.append(None)
        first, last = days
        if first and last and first > last:
            self.do.errors = ["Data „do” jest wcześniejsza niż data „od”. Popraw jedną z nich."]
        if any(f.errors for f in self):
            return None
        return HistoryFilters(
            variant=variant,
            player_id=int(player) if player else None,
            started_from=local_midnight(first, zone) if first else None,
            # The last day is included: games started before the next local midnight.
            started_until=local_midnight(last + timedelta(days=1), zone) if last else None,
        )

    def query(self) -> dict[str, str]:
        """The filter as query arguments, empty ones left out (for the pager's links)."""
        return {f.name: f.data for f in self if f.data}

    @property
    def active(self) -> bool:
        return bool(self.query())
