"""League schedules: when the nights are, in the league's own time zone, and what to do after downtime.

Admins think in wall-clock time ("every Friday 20:00" in their city), so a schedule is a local
weekday and time, turned into a UTC instant night by night with `zoneinfo`: a Friday 20:00 night
stays at 20:00 local on both sides of a daylight-saving change, even though its UTC instant moves.
Two local times need a rule:

- a time that does not exist (inside the spring-forward gap, e.g. 02:30 in New York on the second
  Sunday of March) moves forward by the length of the gap (03:30), the reading Python's `fold=0`
  gives, so the night is never earlier than announced;
- a time that happens twice (the autumn fall-back hour) takes the first occurrence, so nobody
  waits an extra hour for a night that seemed due.

Everything is stored and compared in UTC; only parsing and display use the zone.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.engine.marks import N_
from bot.leagues.league_error import ScheduleError

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_NAMES = (
    N_("Monday"),
    N_("Tuesday"),
    N_("Wednesday"),
    N_("Thursday"),
    N_("Friday"),
    N_("Saturday"),
    N_("Sunday"),
)
EVERY_WEEK, EVERY_N_WEEKS = N_("every {day} at {time}"), N_("every {weeks} weeks on {day} at {time}")
MAX_EVERY_WEEKS = 8
DEFAULT_REMINDERS: tuple[timedelta, ...] = (timedelta(hours=24), timedelta(minutes=15))
# A night whose start passed while the bot was down still starts if the bot is back within this:
# long enough to ride out a restart or a short outage, short enough that players are still around.
DEFAULT_GRACE = timedelta(minutes=30)

EXAMPLES = '"every Friday 20:00", "every monday 7:30pm" or "every 2 weeks on Sunday 18:00"'

_TIME = r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?\s*(?P<ampm>am|pm)?"
_DAY = r"(?P<day>[a-z]+?)s?"  # "friday" or "fridays"
_PATTERN = re.compile(
    rf"every\s+(?:(?P<weeks>\d+)\s+weeks?\s+on\s+|(?P<other>other)\s+|week\s+on\s+)?{_DAY}"
    rf"\s+(?:at\s+)?{_TIME}"
)


@functools.cache
def _zone_names() -> tuple[str, ...]:
    """Region/City names and UTC: the system's (or the tzdata package's) IANA zones, less the
    aliases and files that are no place a person lives (posixrules, Factory, localtime)."""
    return tuple(
        sorted(n for n in available_timezones() if "/" in n and not n.startswith(("Etc/", "SystemV/")))
    )


def matching_zones(typed: str, limit: int = 25) -> list[str]:
    """Zone names for an autocomplete: those whose name or city starts with what was typed
    ("kol" finds Asia/Kolkata), then those that contain it anywhere; spaces count as _."""
    wanted = typed.strip().lower().replace(" ", "_")
    names = (*_zone_names(), "UTC")
    if not wanted:
        return list(names[:limit])
    starts = [n for n in names if any(part.startswith(wanted) for part in (n.lower(), *n.lower().split("/")))]
    contains = [n for n in names if wanted in n.lower() and n not in starts]
    return (starts + contains)[:limit]


def zone(name: str) -> ZoneInfo:
    """The IANA zone called `name`, refused with a reason players can act on."""
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(
            "I don't know the time zone '{name}'. Try one like Asia/Kolkata or Europe/London.",
            name=name,
        ) from None


def as_utc(instant: datetime) -> datetime:
    """Refuses naive datetimes: a time without a zone is a bug waiting for the next DST change."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError("league times must be timezone-aware")
    return instant.astimezone(UTC)


def local_instant(day: date, at: time, tz: ZoneInfo) -> datetime:
    """The UTC instant of a local wall-clock time (gaps move forward, repeated hours take the first)."""
    return datetime.combine(day, at).replace(tzinfo=tz, fold=0).astimezone(UTC)


@dataclass(frozen=True)
class Schedule:
    """A weekly (or every-N-weeks) local weekday and time.

    `anchor` is the local date of one night of the schedule; only an every-N-weeks schedule needs
    it, to know which weeks are on. The league sets it to its first night's date.
    """

    weekday: int  # 0 is Monday
    hour: int
    minute: int = 0
    every_weeks: int = 1
    anchor: date | None = None

    @classmethod
    def parse(cls, text: str) -> Schedule:
        words = " ".join(text.lower().replace(",", " ").split())
        found = _PATTERN.fullmatch(words)
        if not found:
            raise ScheduleError(
                "I can't read the schedule '{text}'. Try {examples}.", text=text.strip(), examples=EXAMPLES
            )
        weekday = _weekday(found["day"], text)
        hour, minute = _clock(found["hour"], found["minute"], found["ampm"], text)
        weeks = 2 if found["other"] else int(found["weeks"] or 1)
        if not 1 <= weeks <= MAX_EVERY_WEEKS:
            raise ScheduleError(
                "A league can meet every 1 to {most} weeks, not every {weeks}.",
                most=MAX_EVERY_WEEKS,
                weeks=weeks,
            )
        return cls(weekday, hour, minute, weeks)

    @property
    def time(self) -> time:
        return time(self.hour, self.minute)

    def anchored(self, day: date) -> Schedule:
        if day.weekday() != self.weekday:
            raise ScheduleError(
                "{day} is not a {weekday}.", day=day.isoformat(), weekday=WEEKDAYS[self.weekday].title()
            )
        return replace(self, anchor=day)

    def describe(self) -> str:
        """In English; a front end fills `describe_form()` with its reader's words instead."""
        return self.describe_form().format(**self.describe_values(DAY_NAMES[self.weekday]))

    def describe_form(self) -> str:
        return EVERY_WEEK if self.every_weeks == 1 else EVERY_N_WEEKS

    def describe_values(self, day: str) -> dict[str, object]:
        """The values of `describe_form()`, with the weekday's name (`day`) in the reader's words."""
        return {"day": day, "weeks": self.every_weeks, "time": f"{self.hour:02d}:{self.minute:02d}"}

    def _is_on(self, day: date) -> bool:
        if day.weekday() != self.weekday:
            return False
        if self.every_weeks == 1 or self.anchor is None:
            return True
        return (day - self.anchor).days % (7 * self.every_weeks) == 0

    def next_after(self, after: datetime, tz_name: str) -> datetime:
        """The first night strictly after `after`, as a UTC instant."""
        after = as_utc(after)
        tz = zone(tz_name)
        day = after.astimezone(tz).date()  # gaps only move a night later, never to the day before
        for offset in range(7 * self.every_weeks + 8):
            candidate = day + timedelta(days=offset)
            if self._is_on(candidate):
                start = local_instant(candidate, self.time, tz)
                if start > after:
                    return start
        raise AssertionError("a weekly schedule always has a night within its period")  # pragma: no cover

    def first_night(self, after: datetime, tz_name: str) -> tuple[datetime, Schedule]:
        """The first night after `after`, and this schedule anchored on it (for every-N-weeks)."""
        start = self.next_after(after, tz_name)
        return start, self.anchored(start.astimezone(zone(tz_name)).date())

    def to_json(self) -> dict[str, Any]:
        return {
            "weekday": self.weekday,
            "hour": self.hour,
            "minute": self.minute,
            "every_weeks": self.every_weeks,
            "anchor": self.anchor.isoformat() if self.anchor else None,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Schedule:
        anchor = date.fromisoformat(raw["anchor"]) if raw.get("anchor") else None
        return cls(raw["weekday"], raw["hour"], raw["minute"], raw["every_weeks"], anchor)


def _weekday(word: str, text: str) -> int:
    matches = [index for index, name in enumerate(WEEKDAYS) if len(word) >= 3 and name.startswith(word)]
    if len(matches) != 1:
        raise ScheduleError(
            "'{word}' in '{text}' is not a day of the week. Try {examples}.",
            word=word,
            text=text.strip(),
            examples=EXAMPLES,
        )
    return matches[0]


def _clock(hour_text: str, minute_text: str | None, ampm: str | None, text: str) -> tuple[int, int]:
    hour, minute = int(hour_text), int(minute_text or 0)
    if ampm:
        if not 1 <= hour <= 12:
            raise ScheduleError(
                "'{time}' in '{text}' is not a time of day.", time=f"{hour}{ampm}", text=text.strip()
            )
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    elif minute_text is None:
        raise ScheduleError("Give the time in '{text}' as 20:00 or 8pm.", text=text.strip())
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise ScheduleError("The time in '{text}' is not a time of day.", text=text.strip())
    return hour, minute


# --------------------------------------------------------------------- reminders and restarts


@dataclass(frozen=True)
class Reminder:
    """A reminder `before` a night's start; `key` names it in storage so it is sent once.

    `before` is elapsed time, not wall-clock: across a DST change "24 h before" a 20:00 night
    is 19:00 or 21:00 local the day before, and it is still a day's notice.
    """

    before: timedelta
    at: datetime

    @property
    def key(self) -> str:
        minutes = int(self.before.total_seconds() // 60)
        return f"{minutes // 60}h" if minutes % 60 == 0 else f"{minutes}m"

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before.total_seconds(), "at": self.at.isoformat()}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Reminder:
        return cls(timedelta(seconds=raw["before"]), as_utc(datetime.fromisoformat(raw["at"])))


def reminders(start: datetime, offsets: tuple[timedelta, ...] = DEFAULT_REMINDERS) -> list[Reminder]:
    """A night's reminders, earliest first."""
    start = as_utc(start)
    return sorted((Reminder(before, start - before) for before in offsets), key=lambda r: r.at)


Action = Literal["wait", "start", "missed"]


@dataclass(frozen=True)
class CatchUp:
    """What the scheduler does with its stored next night when it wakes up at `now`.

    `pending` are reminders still to send at their time; `skipped` ones were due while the bot was
    away and are dropped, since "starts in 15 minutes" sent an hour late misleads. On "missed",
    `next_start` is the following night to store and `pending` are its reminders.
    """

    action: Action
    night: datetime
    next_start: datetime
    pending: tuple[Reminder, ...] = ()
    skipped: tuple[Reminder, ...] = field(default=())


def catch_up(
    now: datetime,
    stored_next: datetime,
    grace: timedelta = DEFAULT_GRACE,
    *,
    schedule: Schedule,
    tz_name: str,
    offsets: tuple[timedelta, ...] = DEFAULT_REMINDERS,
    sent: frozenset[str] = frozenset(),
) -> CatchUp:
    """The restart decision; also what a running scheduler asks each time it wakes.

    `sent` holds the keys of reminders already sent for the stored night, so they are neither
    repeated nor counted as skipped.
    """
    now, stored_next = as_utc(now), as_utc(stored_next)
    unsent = [r for r in reminders(stored_next, offsets) if r.key not in sent]
    if now < stored_next:
        pending = tuple(r for r in unsent if r.at >= now)
        skipped = tuple(r for r in unsent if r.at < now)
        return CatchUp("wait", stored_next, stored_next, pending, skipped)
    if now - stored_next <= grace:
        return CatchUp("start", stored_next, stored_next, skipped=tuple(unsent))
    following = schedule.next_after(now, tz_name)
    pending = tuple(r for r in reminders(following, offsets) if r.at >= now)
    return CatchUp("missed", stored_next, following, pending, skipped=tuple(unsent))


def to_iso(instant: datetime | None) -> str | None:
    return as_utc(instant).isoformat() if instant is not None else None


def from_iso(text: str | None) -> datetime | None:
    return as_utc(datetime.fromisoformat(text)) if text is not None else None


def discord_timestamp(instant: datetime, style: str = "F") -> str:
    """Discord shows `<t:…>` in each reader's own time zone, so the stored UTC is all it needs."""
    return f"<t:{int(as_utc(instant).timestamp())}:{style}>"
