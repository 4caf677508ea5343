"""Numbers and days typed by people (forms, query strings): parsed within what the app can hold.

Whatever arrives is refused with a message (in the request's language) or read as "not
given", never a crash:

- a whole number is read only when it fits a SQLite INTEGER (`MAX_INT`). Its length is checked
  before `int()`, which refuses more than 4,300 digits with a bare ValueError, and a larger
  number would overflow the database driver (OverflowError) as soon as a query used it;
- a day is accepted only when the local midnights that bound it can be computed in any time
  zone: 1 January of year 1 and 31 December 9999 cannot (the UTC instant, or the next day,
  falls outside Python's calendar), so a filter day lies between `FIRST_DAY` and `LAST_DAY`.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from ..i18n import _, current_language
from .errors import InvalidInput

MAX_INT = 2**63 - 1  # the largest integer SQLite stores
_MAX_DIGITS = len(str(MAX_INT))

# UTC offsets stay within a day, so one day's margin at each end of the calendar is enough.
FIRST_DAY = date.min + timedelta(days=1)
LAST_DAY = date.max - timedelta(days=1)


def whole_number(text: str | None, maximum: int = MAX_INT) -> int | None:
    """A whole number from 0 to `maximum` written in ASCII digits (spaces around ignored), else
    None: empty, not a number ("²".isdigit() is true, "-1" and "1.5" are not numbers here) or
    out of range."""
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > _MAX_DIGITS:
        return None
    value = int(text)
    return value if value <= maximum else None


def day_text(day: date) -> str:
    """3.05.2025 in Polish, 2025-05-03 in English."""
    if current_language() == "pl":
        return f"{day.day}.{day:%m}.{day.year:04d}"
    return day.isoformat()


def check_day(day: date, field: str | None = None) -> date:
    """`day` itself when a filter can use it; InvalidInput (for `field`) at the calendar's ends."""
    if FIRST_DAY <= day <= LAST_DAY:
        return day
    raise InvalidInput(
        _(
            "Data %(day)s jest poza zakresem: podaj dzień od %(first)s do %(last)s.",
            day=day_text(day),
            first=day_text(FIRST_DAY),
            last=day_text(LAST_DAY),
        ),
        field,
    )


def local_midnight(day: date, zone: tzinfo) -> datetime:
    """The start of a local calendar day, as stored (naive UTC). `day` must have passed
    `check_day`, or be the day after one that did."""
    return datetime.combine(day, time(), zone).astimezone(UTC).replace(tzinfo=None)
