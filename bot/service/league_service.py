"""The league service: scheduled pool-league nights run on the table service, stored, restartable.

The pure core (`bot.leagues`) decides everything about a night; this layer keeps each league in
memory and in the store, and drives one night through its steps on a clock:

sign-up open → reminders → seated at the start (one channel per table through `open_thread`)
→ check-in until a deadline → no-shows marked, each table started with the members present →
each finished pool settled into league points → the next round, or the night finished and the
next one opened.

Every step is idempotent and driven from the stored state (`_advance`), so a tick, a button,
a finished match and a restart all run the same code: whatever the bot was doing when it
stopped, the next pass finds it half done and finishes it. Each step saves the league before
its events are returned; a step that fails (a refusal, a failed save, Discord refusing a thread)
puts the league back as it was saved, so nothing changes and the next pass tries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine.match import Match
from bot.leagues import League, LeagueError, Night, NightStatus, NightTable, Reminder, reminders
from bot.leagues.league import DEFAULT_RULES
from bot.leagues.night import BEFORE_SEATING, SIGNUP_OPEN
from bot.leagues.schedule import local_instant, zone
from bot.service.clock import Clock
from bot.service.league_events import (
    Adjusted,
    AnyEvent,
    CheckedIn,
    CheckIn,
    CheckInTable,
    EventSink,
    LeagueCreated,
    LeagueDamaged,
    LeagueDeleted,
    LeagueEvent,
    LeagueRecord,
    NightChanged,
    NightFinished,
    NightOpen,
    NightReminder,
    SeasonEnded,
    SeasonStarted,
    Signups,
    TableSettled,
    TableStarted,
    ThreadOpener,
)
from bot.service.refusals import saving
from bot.service.service import TableService
from bot.service.table_events import Cancelled, Finished, TableEvent
from bot.store import DamagedRowError, SeatRecord, Store, StoredLeague, StoreError, TableStatus

log = logging.getLogger(__name__)

Pause = Callable[[asyncio.Event, float], Awaitable[None]]  # how the scheduler waits (`run`)

POLL_SECONDS = 30.0  # the scheduler wakes at least this often, so a missed wake-up is not missed long
FIRST_BACKOFF = 1.0  # the scheduler's first wait after a failed pass, doubling up to POLL_SECONDS
# A reminder the running scheduler finds due within this is still sent (it polls, so it is always
# a little late); an older one was due while the bot was down and is skipped.
REMINDER_LATENESS = timedelta(minutes=5)
# How long a table waits for its channel (Discord refusing threads, say) before it is given up
# with no points, so one missing permission cannot hold a whole night open for ever.
THREAD_PATIENCE = timedelta(minutes=30)
NO_THREAD = "I could not open a thread for this table for 30 minutes: it is not played (no points)."
WHEN_FORMAT = "%Y-%m-%d %H:%M"
# What a night published late may have become meanwhile (see `night_published`).
CHANGED = frozenset({NightStatus.POSTPONED, NightStatus.CANCELLED, NightStatus.MISSED})


class LeagueService:
    def __init__(
        self,
        store: Store,
        tables: TableService,
        *,
        open_thread: ThreadOpener,
        clock: Clock | None = None,
        on_events: EventSink | None = None,
        check_in: timedelta = timedelta(minutes=10),
    ) -> None:
        self.store = store
        self.tables = tables
        self.open_thread = open_thread
        self.clock = clock or tables.clock
        self.on_events = on_events
        self.check_in_time = check_in
        self._records: dict[int, LeagueRecord] = {}
        self._damaged: dict[int, StoredLeague] = {}  # rows that cannot be read, set aside (`_set_aside`)
        self._locks: dict[int, asyncio.Lock] = {}
        # (league, night, round, table) -> when opening its channel first failed (since start-up)
        self._thread_trouble: dict[tuple[int, int, int, int], datetime] = {}
        self._creating = asyncio.Lock()  # names are unique per server: one creation at a time
        self._failures = 0  # steps failed since start-up: how the scheduler knows to back off

    # ----------------------------------------------------------------- start-up

    async def load(self) -> list[AnyEvent]:
        """Loads every league and catches up on the downtime. Call after `TableService.resume()`,
        so the league's tables still playing are there to be found."""
        events: list[AnyEvent] = []
        for stored in await self.store.leagues():
            damage = stored.damage
            if damage is None:
                try:
                    self._records[stored.id] = LeagueRecord.from_json(stored.id, stored.state)
                    continue
                except Exception as error:  # whatever the league's own reading makes of the damage
                    damage = str(DamagedRowError.of("league", stored.id, error))
            events += await self._set_aside(stored, damage)
        now = self._now()
        for record in list(self._records.values()):
            async with self._lock(record):
                try:
                    async with self._changing(record):  # reminders due while we were away: never sent
                        for reminder in _unsent(record.league):
                            if reminder.at <= now:
                                record.league.reminder_sent(reminder.key)
                        resumed = self._renew_check_ins(record, now)
                except Exception:  # one broken league must not keep the others from starting
                    log.exception("league %s could not catch up", record.id)
                    continue
                was_open = _unpublished(record)  # one this pass opens is announced by the pass
                advanced = await self._advance(record)
                unpublished = _unpublished(record)
                if was_open is not None and unpublished is not None and unpublished.number == was_open.number:
                    events.append(self._night_open(record, unpublished))
                events += resumed + advanced
        return events

    async def _set_aside(self, stored: StoredLeague, damage: str) -> list[AnyEvent]:
        """One damaged league row must not keep the other leagues from running: it is kept as it
        is, its name stays taken, and it is reported once (logged and marked in the store; its
        channel told, where the damaged row still says which)."""
        self._damaged[stored.id] = stored
        if stored.reported:
            log.warning("league %s (%s) is still set aside: %s", stored.id, stored.name, damage)
            return []
        log.error("league %s (%s) is set aside, kept as it is: %s", stored.id, stored.name, damage)
        try:
            await self.store.mark_league_damaged(stored.id, damage, self.clock.now())
        except StoreError:
            log.exception("league %s: could not be marked damaged (reported again next start)", stored.id)
        channel = _channel_of(stored.state)
        return [LeagueDamaged(stored.id, stored.guild_id, name=stored.name, channel_id=channel)]

    def _renew_check_ins(self, record: LeagueRecord, now: datetime) -> list[LeagueEvent]:
        """The tables still checking in get a fresh window and their CHECK_IN again.

        The check-in event goes out after the save, so a crash in between leaves a thread
        nobody was told to check in to; without this its deadline would pass unseen and every
        member be a no-show. A fresh window, as a restarted table gives a fresh turn deadline:
        the members could not check in while the bot was down. (The caller saves the change.)
        """
        night = record.league.running_night
        waiting = [t for t in night.round_tables() if t.checking_in and not t.everyone_in] if night else []
        if night is None or not waiting:
            return []
        until = now + self.check_in_time
        for table in waiting:
            table.check_in_until = until
        return [self._check_in(record, night, waiting, until, resumed=True)]

    # ----------------------------------------------------------------- looking

    def leagues(self, guild_id: int) -> list[LeagueRecord]:
        return [record for record in self._records.values() if record.league.guild_id == guild_id]

    def find(self, guild_id: int, name: str | None) -> LeagueRecord:
        """The league called `name` (any case) on this server; None when it has only one."""
        records = self.leagues(guild_id)
        if not records:
            for stored in self._damaged.values():  # its only league: a damaged one is said so
                if stored.guild_id == guild_id:
                    self._refuse_damaged(guild_id, name if name and name.strip() else stored.name)
            raise LeagueError("No league here yet. An admin can make one: `/league-admin create`.")
        names = ", ".join(record.league.name for record in records)
        if name is None or not name.strip():
            if len(records) == 1:
                return records[0]
            raise LeagueError(
                "This server has {count} leagues ({names}); say which one.", count=len(records), names=names
            )
        wanted = _folded(name)
        for record in records:
            if _folded(record.league.name) == wanted:
                return record
        self._refuse_damaged(guild_id, name)
        raise LeagueError(
            "This server has no league called '{name}'. Its leagues: {names}.", name=name.strip(), names=names
        )

    def _refuse_damaged(self, guild_id: int, name: str) -> None:
        for stored in self._damaged.values():
            if stored.guild_id == guild_id and _folded(stored.name) == _folded(name):
                raise LeagueError(
                    "{league} is damaged and set aside: nothing in it changes until an admin "
                    "restores or deletes it.",
                    league=stored.name,
                )

    def by_table_channel(self, channel_id: int) -> tuple[LeagueRecord, Night, NightTable] | None:
        """The league table playing (or checking in) in this channel, in the round being played."""
        for record in self._records.values():
            night = record.league.running_night
            if night is None:
                continue
            for table in night.round_tables():
                if table.thread_id == channel_id:
                    return record, night, table
        return None

    # ----------------------------------------------------------------- admin

    async def create(
        self,
        guild_id: int,
        by: int,
        name: str,
        format: str,
        schedule: str,
        timezone: str,
        seats_per_table: int,
        rounds_per_night: int = 1,
        channel_id: int | None = None,
        rules: str = DEFAULT_RULES,
    ) -> list[AnyEvent]:
        """Creates the league and starts its first season, whose first night opens for sign-up."""
        league = League.create(
            guild_id, name, format, schedule, timezone, seats_per_table, rounds_per_night, channel_id, rules
        )
        async with self._creating:
            for other in self.leagues(guild_id):
                if _folded(other.league.name) == _folded(league.name):
                    raise LeagueError(
                        "This server already has a league called {league}.", league=other.league.name
                    )
            self._refuse_damaged(guild_id, league.name)
            season = league.start_season(self._now())
            record = LeagueRecord(self.store.new_league_id(), league)
            stored = StoredLeague(record.id, guild_id, league.name, record.to_json(), None)
            with saving():
                await self.store.create_league(stored, self.clock.now())
            self._records[record.id] = record
        created = LeagueCreated(
            *_of(record),
            name=league.name,
            format=league.format,
            schedule=league.schedule.describe(),
            timezone=league.timezone,
            rules=league.rules,
            by=by,
        )
        started = SeasonStarted(*_of(record), season=season.number, rules=league.rules)
        events: list[AnyEvent] = [created, started]
        async with self._lock(record):
            return events + await self._advance(record)  # opens the first night's sign-up

    async def start_season(
        self, guild_id: int, name: str | None, *, rules: str | None = None, seats_per_table: int | None = None
    ) -> list[AnyEvent]:
        """A new season; `rules` and `seats_per_table` change from it on (never within a season)."""
        record = self.find(guild_id, name)
        async with self._lock(record), self._changing(record):
            season = record.league.start_season(self._now(), rules, seats_per_table)
        event = SeasonStarted(*_of(record), season=season.number, rules=record.league.rules)
        return [event, *await self._advance_locked(record)]

    async def end_season(self, guild_id: int, name: str | None) -> list[LeagueEvent]:
        record = self.find(guild_id, name)
        async with self._lock(record), self._changing(record):
            waiting = record.league.next_night
            season = record.league.end_season(self._now())
        events: list[LeagueEvent] = [SeasonEnded(*_of(record), season=season.number)]
        if waiting is not None:
            events.append(self._night_changed(record, waiting))
        return events

    async def add(
        self, guild_id: int, name: str | None, user_id: int, display_name: str
    ) -> list[LeagueEvent]:
        record = self.find(guild_id, name)
        return await self._signups(record, None, lambda night: night.add(user_id), user_id, display_name)

    async def remove(self, guild_id: int, name: str | None, user_id: int) -> list[LeagueEvent]:
        record = self.find(guild_id, name)
        return await self._signups(record, None, lambda night: night.remove(user_id))

    async def postpone(
        self, guild_id: int, name: str | None, when: str, reason: str, night: int | None = None
    ) -> list[LeagueEvent]:
        """`when` is the league's local wall-clock time, "YYYY-MM-DD HH:MM"; `night`, the night
        the admin saw (see `_still_waiting`)."""
        record = self.find(guild_id, name)
        timezone = record.league.timezone
        try:
            local = datetime.strptime(when.strip(), WHEN_FORMAT)
        except ValueError:
            raise LeagueError(
                "Give the new time as YYYY-MM-DD HH:MM in {timezone} time, e.g. 2026-05-01 20:00.",
                timezone=timezone,
            ) from None
        start = local_instant(local.date(), local.time(), zone(timezone))
        async with self._lock(record), self._changing(record):
            _still_waiting(record.league, night)
            postponed = _waiting(record.league)
            postponed.postpone(start, self._now(), " ".join(reason.split()))
        return [self._night_changed(record, postponed)]

    async def cancel_night(
        self, guild_id: int, name: str | None, reason: str, night: int | None = None
    ) -> list[AnyEvent]:
        """Cancels the waiting night; `night`, the night the admin saw (see `_still_waiting`)."""
        record = self.find(guild_id, name)
        async with self._lock(record):
            async with self._changing(record):
                _still_waiting(record.league, night)
                cancelled = record.league.cancel_night(self._now(), " ".join(reason.split()))
            return [self._night_changed(record, cancelled), *await self._advance(record)]

    async def abandon_table(
        self,
        guild_id: int,
        name: str | None,
        night: int,
        table: int,
        reason: str,
        by: int,
        round: int | None = None,
    ) -> list[AnyEvent]:
        """An admin's way out of a stuck table (a match that cannot be resumed, a table that
        never starts), which would otherwise hold the night, and so the league, open for ever:
        its service table, if one is loaded in its channel, is cancelled, and the league table
        settled with no points and the reason kept. `round`: the round being played."""
        reason = " ".join(reason.split())
        if not reason:
            raise LeagueError("Give a reason for abandoning the table; it is shown with its result.")
        record = self.find(guild_id, name)
        async with self._lock(record):
            events: list[AnyEvent] = []
            await self._settle_finished(record, events)  # a result that came in first stands
            running = record.league.running_night
            if running is None or running.number != night:
                if events:
                    return events + await self._advance(record)
                raise LeagueError("Night {number} is not being played.", number=night)
            round = running.current_round if round is None else round
            stuck = running.table(round, table)
            if stuck.settled:
                if events:
                    return events + await self._advance(record)
                raise LeagueError(
                    "Table {number} of round {round} is already settled.", number=table, round=round
                )
            playing = self.tables.table_in(stuck.thread_id) if stuck.thread_id is not None else None
            if playing is not None:
                events += await self.tables.cancel(playing.record.channel_id, by, can_manage=True)
            async with self._changing(record):
                record.league.abandon_table(round, table, reason)
            events += [self._settled(record, running, stuck, by=by), *self._night_over(record, running)]
            return events + await self._advance(record)

    async def adjust(
        self, guild_id: int, name: str | None, user_id: int, night: int, delta: int, reason: str, by: int
    ) -> list[LeagueEvent]:
        """Corrects a finished night of the current season, or of the one just ended: a result
        is often queried only once the season's last night is over."""
        record = self.find(guild_id, name)
        async with self._lock(record), self._changing(record):
            season = record.league.seasons[-1]
            adjustment = season.adjust(user_id, night, delta, reason, by, self._now())
        return [Adjusted(*_of(record), night, adjustment=adjustment)]

    # ----------------------------------------------------------------- members

    async def join(
        self, guild_id: int, name: str | None, user_id: int, display_name: str
    ) -> list[LeagueEvent]:
        record = self.find(guild_id, name)
        return await self._join(record, None, user_id, display_name)

    async def leave(self, guild_id: int, name: str | None, user_id: int) -> list[LeagueEvent]:
        record = self.find(guild_id, name)
        return await self._leave(record, None, user_id)

    async def join_by_id(
        self, league_id: int, night: int, user_id: int, display_name: str
    ) -> list[LeagueEvent]:
        """The announcement's Join button (its custom id carries the league and the night)."""
        return await self._join(self._record(league_id), night, user_id, display_name)

    async def leave_by_id(self, league_id: int, night: int, user_id: int) -> list[LeagueEvent]:
        return await self._leave(self._record(league_id), night, user_id)

    async def _join(
        self, record: LeagueRecord, number: int | None, user: int, name: str
    ) -> list[LeagueEvent]:
        now = self._now()
        return await self._signups(record, number, lambda night: night.sign_up(user, now), user, name)

    async def _leave(self, record: LeagueRecord, number: int | None, user: int) -> list[LeagueEvent]:
        now = self._now()
        return await self._signups(record, number, lambda night: night.leave(user, now))

    async def _signups(
        self,
        record: LeagueRecord,
        number: int | None,
        change: Callable[[Night], None],
        user: int | None = None,
        display_name: str = "",
    ) -> list[LeagueEvent]:
        """One change to the upcoming night's sign-ups (`number`: the night a button was made for)."""
        async with self._lock(record), self._changing(record):
            night = _waiting(record.league)
            if number is not None and night.number != number:
                raise LeagueError(
                    "Night {number} is no longer open for sign-up; night {open} is.",
                    number=number,
                    open=night.number,
                )
            change(night)
            if user is not None and display_name.strip():
                record.names[user] = display_name.strip()
        return [Signups(*_of(record), night.number, signups=tuple(night.signups))]

    async def check_in(self, channel_id: int, user_id: int) -> list[AnyEvent]:
        """Handles "I'm here" at a league table; when everyone is in, the table starts at once."""
        record = self._table_channel(channel_id)[0]
        async with self._lock(record):
            _, night, table = self._table_channel(channel_id)  # again: the wait may have changed it
            async with self._changing(record):
                night.check_in(table.round, table.number, user_id)
            event = CheckedIn(
                *_of(record),
                night.number,
                round=table.round,
                number=table.number,
                user_id=user_id,
                checked_in=tuple(table.checked_in),
            )
            return [event, *await self._advance(record)]

    def _table_channel(self, channel_id: int) -> tuple[LeagueRecord, Night, NightTable]:
        found = self.by_table_channel(channel_id)
        if found is None:
            raise LeagueError("This channel is not a league table of the round being played.")
        return found

    # ----------------------------------------------------------------- the front end's reports

    async def night_published(
        self, league_id: int, night: int, event_id: int | None = None, message_id: int | None = None
    ) -> list[LeagueEvent]:
        """Remembers the Discord scheduled event and the announcement message of a night; None
        keeps what is stored, so the front end reports each as soon as it has it.

        The front end publishes what a NIGHT_OPEN said; if the night was cancelled, missed or
        postponed before the ids arrived, the NIGHT_CHANGED of that change carried no ids and
        could not be shown, so a NIGHT_CHANGED is returned (with the ids) for it to fix what it
        just created. Only for an id not stored before: a repeated report changes nothing.
        """
        record = self._record(league_id)
        async with self._lock(record), self._changing(record):
            published = record.league.seasons[-1].night(night)  # its season may have ended meanwhile
            new = (event_id is not None and event_id != published.event_id) or (
                message_id is not None and message_id != record.announcement.get(night)
            )
            if event_id is not None:
                published.event_id = event_id
            if message_id is not None:
                record.announcement[night] = message_id
        if new and published.status in CHANGED:
            return [self._night_changed(record, published)]
        return []

    async def table_events(self, events: list[TableEvent]) -> list[AnyEvent]:
        """Settles every league table whose match these events finished."""
        finished = {e.table_id for e in events if isinstance(e.event, Finished | Cancelled)}
        if not finished:  # nearly every publish: no league need be looked at
            return []
        out: list[AnyEvent] = []
        for record in list(self._records.values()):
            night = record.league.running_night
            if night and any(t.table_id in finished for t in night.round_tables()):
                out += await self._advance_locked(record)
        return out

    # ----------------------------------------------------------------- the scheduler

    def unsettled_tables(self) -> set[int]:
        """The service tables that league nights have seated and not settled yet: their matches
        are still to be read to score them (`_settle_finished`), so retention keeps them."""
        return {
            table.table_id
            for record in self._records.values()
            for season in record.league.seasons
            for night in season.nights
            for table in night.tables
            if table.table_id is not None and not table.settled
        }

    def next_wake(self) -> float | None:
        """The earliest reminder, night start or check-in deadline of any league."""
        times = [t for record in self._records.values() for t in _wake_times(record.league)]
        return min(times, default=None)

    async def tick(self) -> list[AnyEvent]:
        """Does whatever is due now, league by league."""
        events: list[AnyEvent] = []
        for record in list(self._records.values()):
            events += await self._advance_locked(record)
        return events

    async def run(self, stop: asyncio.Event, *, pause: Pause | None = None) -> None:
        """The production loop: tick, hand the events on, sleep until the next wake-up.

        After a pass in which a step failed, or with a wake time already past (something due
        that the pass could not do), it backs off, 1 s doubling to `POLL_SECONDS`, instead of
        ticking again at once: a league that cannot move on must not spin the event loop and
        flood the log. `pause` (tests) replaces the wait on `stop`.
        """
        pause = pause or _pause
        backoff = FIRST_BACKOFF
        while not stop.is_set():
            failures = self._failures
            events = await self.tick()
            if events and self.on_events is not None:
                try:
                    await self.on_events(events)
                except Exception:  # a message Discord refused must not stop the scheduler
                    log.exception("league events could not be published")
            wait = POLL_SECONDS
            wake = self.next_wake()
            if wake is not None:
                wait = min(wait, wake - self.clock.now())
            if self._failures != failures or wait <= 0:
                wait, backoff = backoff, min(backoff * 2, POLL_SECONDS)
            else:
                backoff = FIRST_BACKOFF
            await pause(stop, wait)

    # ----------------------------------------------------------------- one pass over a league

    async def _advance_locked(self, record: LeagueRecord) -> list[AnyEvent]:
        async with self._lock(record):
            return await self._advance(record)

    async def _advance(self, record: LeagueRecord) -> list[AnyEvent]:
        """Everything due for this league, in the order a night goes (the lock is held).

        A step that fails is logged and left for the next pass (each step is saved on its own,
        so what went before stands and its events are still returned): the caller's own change
        was accepted, and a Discord or database hiccup must not stop the league or the others.
        """
        events: list[AnyEvent] = []
        steps = (self._settle_finished, self._close_check_ins, self._upcoming, self._open_threads)
        for step in steps:
            try:
                await step(record, events)  # appends as it goes: a failure keeps what went before
            except Exception:
                log.exception(
                    "league %s: %s failed; it is tried again at the next pass", record.id, step.__name__
                )
                self._failures += 1
                break
        return events

    async def _settle_finished(self, record: LeagueRecord, events: list[AnyEvent]) -> None:
        """Settles the night's tables whose match is over (or that were closed before it ended)."""
        night = record.league.running_night
        if night is None:
            return
        for table in night.round_tables():
            if table.table_id is None or table.settled or self._playing(table):
                continue
            # The status first, a plain column: a table set aside as damaged and then cancelled
            # has JSON columns that cannot be read, and needs none of them to be settled.
            status = await self.store.table_status(table.table_id)
            if status is None or status.active:
                continue  # not resumed (the table service logged why); left for someone to look at
            stored = await self.store.table(table.table_id) if status is TableStatus.FINISHED else None
            async with self._changing(record):
                if stored is not None:
                    match = await self._match(table.table_id)
                    seats = [seat.user_id for seat in stored.seats if seat.user_id is not None]
                    record.league.settle_table(table.round, table.number, match, seats)
                else:
                    record.league.abandon_table(table.round, table.number)
            events.append(self._settled(record, night, table))
            events += self._night_over(record, night)

    async def _close_check_ins(self, record: LeagueRecord, events: list[AnyEvent]) -> None:
        """Starts every table whose check-in is over: everyone is in, or the deadline came."""
        night = record.league.running_night
        if night is None:
            return
        now = self._now()
        for table in night.round_tables():
            if not table.check_in_due(now):
                continue
            async with self._changing(record):
                record.league.close_check_in(table.round, table.number)
                started = [] if table.settled else await self._start_table(record, table)
            if table.settled:
                events.append(self._settled(record, night, table))
                events += self._night_over(record, night)
                continue
            begun = TableStarted(
                *_of(record),
                night.number,
                round=table.round,
                number=table.number,
                channel_id=table.thread_id,
                table_id=table.table_id,
                present=tuple(table.present),
                no_shows=tuple(table.no_shows),
            )
            events += [begun, *started]

    async def _start_table(self, record: LeagueRecord, table: NightTable) -> list[TableEvent]:
        """Opens and starts the service's table with the members present; a table opened (or
        started) before a crash cut the league's save short is taken over, not opened twice,
        and a table that is not the league's in its channel is cancelled first."""
        assert table.thread_id is not None
        channel = table.thread_id
        events: list[TableEvent] = []
        playing = self.tables.table_in(channel)
        if playing is not None and playing.record.league_id != record.id:
            # Someone opened a table of their own in the league's thread: it would hold the
            # channel (one table per channel) and wedge the night, so it gives way.
            events += await self.tables.cancel(channel, playing.record.host_id, can_manage=True)
            playing = None
        if playing is None:
            earlier = await self.store.league_table(record.id, channel)
            if earlier is not None:  # its match ended, or cannot be resumed: the settle step looks
                table.table_id = earlier.id
                return events
            seats = [SeatRecord(user, record.name_of(user)) for user in table.present]
            league = record.league
            events += await self.tables.open_table(
                league.guild_id,
                channel,
                seats[0].user_id or 0,
                seats[0].name,
                format=league.format,
                rules=league.table_rules,
                max_seats=len(seats),
                seats=seats,
                league_id=record.id,
            )
            playing = self.tables.table_in(channel)
            assert playing is not None
        if playing.match is None:
            events += await self.tables.start(channel, playing.record.host_id, can_manage=True)
        table.table_id = playing.id
        return events

    async def _upcoming(self, record: LeagueRecord, events: list[AnyEvent]) -> None:
        """The night waited for: its sign-up opened, reminders sent, started or missed."""
        league = record.league
        night = league.next_night
        if night is not None and night.status is NightStatus.SCHEDULED:
            async with self._changing(record):
                night.open_signup()
            events.append(self._night_open(record, night))
        now = self._now()
        for reminder in _unsent(league):
            if reminder.at <= now and now - reminder.at <= REMINDER_LATENESS:
                assert night is not None
                async with self._changing(record):
                    league.reminder_sent(reminder.key)
                told = NightReminder(
                    *_of(record),
                    night.number,
                    key=reminder.key,
                    before=reminder.before,
                    starts_at=night.starts_at,
                    signups=tuple(night.signups),
                )
                events.append(told)
        if night is None:
            return
        async with self._changing(record):
            decision = league.wake(now)  # records reminders too late to send; marks a missed night
            if decision is not None and decision.action == "start":
                league.start_night(now)  # seats it, or cancels it with too few players
        if night.status in (NightStatus.MISSED, NightStatus.CANCELLED):
            events.append(self._night_changed(record, night))
            await self._upcoming(record, events)  # the next night opens at once

    async def _open_threads(self, record: LeagueRecord, events: list[AnyEvent]) -> None:
        """Opens a channel for each table of the round that has none and starts its check-in;
        the tables opened are announced even when Discord refuses a later one."""
        night = record.league.running_night
        waiting = [t for t in night.round_tables() if t.thread_id is None and not t.settled] if night else []
        if night is None or not waiting:
            return
        until = self._now() + self.check_in_time
        opened: list[NightTable] = []
        try:
            for table in waiting:
                if not await self._open_thread(record, night, table, until, events):
                    break  # the league was restored from its save: the next pass sees it afresh
                opened.append(table)
        finally:
            if opened:
                events.append(self._check_in(record, night, opened, until))

    async def _open_thread(
        self, record: LeagueRecord, night: Night, table: NightTable, until: datetime, events: list[AnyEvent]
    ) -> bool:
        """Opens the table's channel; a failure is raised (and retried at the next pass) until
        the table has waited `THREAD_PATIENCE`, then the table is given up and False returned."""
        key = (record.id, night.number, table.round, table.number)
        try:
            async with self._changing(record):
                table.thread_id = await self.open_thread(record, night, table)
                table.check_in_until = until
        except Exception:
            since = self._thread_trouble.setdefault(key, self._now())
            if self._now() - since < THREAD_PATIENCE:
                raise
            night = record.league.active_season().night(night.number)  # the failure restored the save
            table = night.table(table.round, table.number)
            async with self._changing(record):
                record.league.abandon_table(table.round, table.number, NO_THREAD)
            del self._thread_trouble[key]
            events.append(self._settled(record, night, table))
            events += self._night_over(record, night)
            return False
        self._thread_trouble.pop(key, None)
        return True

    # ----------------------------------------------------------------- helpers

    @contextlib.asynccontextmanager
    async def _changing(self, record: LeagueRecord) -> AsyncIterator[None]:
        """A change to a league: saved when the block ends; if anything fails (a refusal, the
        save), the league goes back to what was saved, so nothing changed."""
        before = record.to_json()
        try:
            yield
            after = record.to_json()
            if after != before:
                league = record.league
                stored = StoredLeague(record.id, league.guild_id, league.name, after, _next(league))
                with saving():
                    await self.store.save_league(stored, self.clock.now())
        except BaseException:
            restored = LeagueRecord.from_json(record.id, before)
            record.league, record.names, record.announcement = (
                restored.league,
                restored.names,
                restored.announcement,
            )
            raise

    async def delete(self, guild_id: int, name: str, confirm: str) -> list[AnyEvent]:
        """An admin removes a league for good: one set aside as damaged, or a sound one between
        nights (a night being played must end, or its tables be abandoned, first). `confirm` must
        repeat the name, so a slip of the autocomplete cannot delete the wrong league. The
        DELETED event names the scheduled events of nights still waiting, for Discord to cancel."""
        if _folded(confirm) != _folded(name):
            raise LeagueError("To delete a league, type its name again in `confirm:`.")
        for stored in list(self._damaged.values()):
            if stored.guild_id == guild_id and _folded(stored.name) == _folded(name):
                with saving():
                    await self.store.delete_league(stored.id)
                del self._damaged[stored.id]
                channel = _channel_of(stored.state)
                return [LeagueDeleted(stored.id, guild_id, name=stored.name, channel_id=channel)]
        record = self.find(guild_id, name)
        async with self._lock(record):
            league = record.league
            running = league.running_night
            if running is not None:
                raise LeagueError(
                    "Night {number} of {league} is on. Let it end (or `/league-admin abandon` its "
                    "tables), then delete the league.",
                    number=running.number,
                    league=league.name,
                )
            waiting = [
                night.event_id
                for season in league.seasons
                for night in season.nights
                if night.status in BEFORE_SEATING and night.event_id is not None
            ]
            with saving():
                await self.store.delete_league(record.id)
            del self._records[record.id]
            del self._locks[record.id]  # held here, so it exists; a waiter finds the league gone
        deleted = LeagueDeleted(
            record.id, guild_id, name=league.name, channel_id=league.channel_id, event_ids=tuple(waiting)
        )
        return [deleted]

    def _lock(self, record: LeagueRecord) -> asyncio.Lock:
        return self._locks.setdefault(record.id, asyncio.Lock())

    def _record(self, league_id: int) -> LeagueRecord:
        record = self._records.get(league_id)
        if record is None:
            raise LeagueError("That league no longer exists.")
        return record

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    def _playing(self, table: NightTable) -> bool:
        playing = self.tables.table_in(table.thread_id) if table.thread_id is not None else None
        return playing is not None and playing.id == table.table_id

    async def _match(self, table_id: int) -> Match:
        stored = await self.store.load_match(table_id)
        if stored is None:
            raise LeagueError("Table {table} finished without a match.", table=table_id)
        return Match.restore(stored.snapshot, stored.pending)

    def _night_open(self, record: LeagueRecord, night: Night) -> LeagueEvent:
        return NightOpen(*_of(record), night.number, starts_at=night.starts_at)

    def _check_in(
        self,
        record: LeagueRecord,
        night: Night,
        tables: list[NightTable],
        until: datetime,
        resumed: bool = False,
    ) -> LeagueEvent:
        listed = tuple(  # a table checks in in its own thread: every one here has it
            CheckInTable(t.number, tuple(t.seats), t.thread_id, until)
            for t in tables
            if t.thread_id is not None
        )
        return CheckIn(*_of(record), night.number, round=night.current_round, tables=listed, resumed=resumed)

    def _night_changed(self, record: LeagueRecord, night: Night) -> LeagueEvent:
        return NightChanged(
            *_of(record),
            night.number,
            status=night.status,
            starts_at=night.starts_at,
            reason=night.note,
            event_id=night.event_id,
            message_id=record.announcement.get(night.number),
        )

    def _settled(
        self, record: LeagueRecord, night: Night, table: NightTable, by: int | None = None
    ) -> LeagueEvent:
        return TableSettled(
            *_of(record),
            night.number,
            round=table.round,
            number=table.number,
            placings=tuple(table.placings or ()),
            reason=table.note,
            by=by,
        )

    def _night_over(self, record: LeagueRecord, night: Night) -> list[AnyEvent]:
        if night.status is not NightStatus.FINISHED:
            return []
        return [NightFinished(*_of(record), night.number, points=night.points())]


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    """Waits `seconds`, or less if the scheduler is stopped meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)


def _of(record: LeagueRecord) -> tuple[int, int]:
    """The league and server a league event is about."""
    return record.id, record.league.guild_id


def _channel_of(state: dict[str, Any]) -> int | None:
    """The league channel a damaged league's document still names, if it does."""
    league = state.get("league")
    channel = league.get("channel_id") if isinstance(league, dict) else None
    return channel if isinstance(channel, int) else None


def _folded(name: str) -> str:
    return " ".join(name.split()).casefold()


def _waiting(league: League) -> Night:
    """The night sign-ups and admin tools act on, or why there is none."""
    night = league.next_night
    if night is not None:
        return night
    running = league.running_night
    if running is not None:
        raise LeagueError(
            "Night {number} has started; ask an admin if you cannot play.", number=running.number
        )
    raise LeagueError("{league} has no season running; an admin can start one.", league=league.name)


def _still_waiting(league: League, number: int | None) -> None:
    """Refuses an admin's change meant for night `number` once another night is waiting: the
    waiting night moves on as soon as one is cancelled, so a double submit, or two admins at
    once, would otherwise cancel (or postpone) the night after it too. None: no check."""
    if number is None:
        return
    waiting = league.next_night
    if waiting is None or waiting.number != number:
        if waiting is not None:
            raise LeagueError(
                "Night {number} is no longer waiting: night {next} is next.",
                number=number,
                next=waiting.number,
            )
        raise LeagueError("Night {number} is no longer waiting: no night is waiting.", number=number)


def _unpublished(record: LeagueRecord) -> Night | None:
    """The night open for sign-up that the front end never reported publishing (the bot went
    down between saving it and creating its Discord event and announcement)."""
    night = record.league.next_night
    if night is None or night.status not in SIGNUP_OPEN:
        return None
    if night.event_id is not None or night.number in record.announcement:
        return None
    return night


def _unsent(league: League) -> list[Reminder]:
    night = league.next_night
    if night is None:
        return []
    return [
        r for r in reminders(night.starts_at, league.reminder_offsets) if r.key not in night.reminders_sent
    ]


def _wake_times(league: League) -> list[float]:
    times = [r.at.timestamp() for r in _unsent(league)]
    if league.next_night is not None:
        times.append(league.next_night.starts_at.timestamp())
    night = league.running_night
    for table in night.round_tables() if night else []:
        if table.checking_in and table.check_in_until is not None:
            times.append(table.check_in_until.timestamp())
    return times


def _next(league: League) -> float | None:
    return min(_wake_times(league), default=None)
