"""The table service: one table per channel, every command applied under the table's lock and
saved before anyone hears of it, turn clocks that survive restarts, computer players.

Front ends call these methods and turn the returned events into messages (each seat seeing only
`visible_events(events, seat)`). Events the service causes on its own (a clock running out, a
computer player's move, the next deal starting) are handed to `on_events`: in production by
`run()`, which acts for each table as soon as it is due, and in tests (on a manual clock) by
`fire_due()`, which acts for every due table at once and also returns them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import inspect
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec

from bot.engine import ai
from bot.engine.commands import (
    PLAYER_COMMANDS,
    BadCommandError,
    Command,
    Leave,
    NextDeal,
    SeatCommand,
    Split,
    Timeout,
    parse_command,
)
from bot.engine.deal import Deal, SeatView
from bot.engine.errors import IllegalActionError, RummyError
from bot.engine.events import DealOver, DealStarted, Event, Reshuffled
from bot.engine.formats import Format
from bot.engine.match import Match, MatchPhase
from bot.engine.rules import MIN_PLAYERS, Rules
from bot.i18n import N_
from bot.service.clock import Clock, SystemClock, Timing, TurnClock
from bot.service.computer import Policy, think
from bot.service.inputs import BadInputError, checked_id, checked_text
from bot.service.live_table import LiveTable
from bot.service.observer import ServiceObserver, Unobserved
from bot.service.pacing import Pacer
from bot.service.randomness import RandomSource, system_random
from bot.service.recording import STANDING_EVENTS, standing_rows, stats_deltas
from bot.service.refusals import (
    CannotSaveError,
    HandedOverError,
    SavingStoppedError,
    ServiceError,
    ShuttingDownError,
    StaleCommandError,
    TableDamagedError,
    saving,
)
from bot.service.table_events import (
    Cancelled,
    CancelReason,
    Damaged,
    Finished,
    Joined,
    LeftTable,
    MatchStarted,
    Resumed,
    RulesChanged,
    TableEvent,
    TableOpened,
)
from bot.service.table_limits import DEFAULT_LIMITS, TableLimits, TableQuota
from bot.service.thinkers import Thinkers, ThinkersBroken
from bot.service.views import HandView, TableView
from bot.store import (
    LOG_TAIL,
    ActiveTable,
    ChannelBusyError,
    CommandRecord,
    DamagedRowError,
    SeatRecord,
    Store,
    StoreError,
    TableRecord,
    TableStatus,
)

log = logging.getLogger(__name__)
# A match's snapshot is saved at least every this many commands (a restart replays the rest),
# and always after these events: what they drew at random is in no command (see `_command_record`).
SNAPSHOT_EVERY = 16
SNAPSHOT_EVENTS: frozenset[type[Event]] = frozenset({DealStarted, Reshuffled, DealOver})

RULE_FIELDS = frozenset(field.name for field in dataclasses.fields(Rules)) - {"preset"}
COMPUTER_LEVELS = ("easy", "strong")
EventSink = Callable[[list[TableEvent]], Awaitable[None]]
# Hears every batch of events the service saves, whatever caused it (a person's command, with
# the user who sent it; a clock; a restart): see `TableService.listen`.
Listener = Callable[[Sequence[TableEvent], int | None], None]
Params = ParamSpec("Params")
Door = Callable[Concatenate["TableService", Params], Coroutine[Any, Any, list[TableEvent]]]


def announced(actor: str) -> Callable[[Door[Params]], Door[Params]]:
    """A door of the service whose events every listener hears, with the user named by its
    `actor` parameter, as soon as the change is saved: nothing is awaited between the end of a
    door's work under its table's lock and this, so listeners hear one table's batches in the
    order they were saved."""

    def wrap(door: Door[Params]) -> Door[Params]:
        signature = inspect.signature(door)

        @functools.wraps(door)
        async def announcing(
            service: TableService, *args: Params.args, **kwargs: Params.kwargs
        ) -> list[TableEvent]:
            events = await door(service, *args, **kwargs)
            who = signature.bind(service, *args, **kwargs).arguments.get(actor)
            service._emit(events, who if type(who) is int else None)
            return events

        return announcing

    return wrap


# How many tables closed lately keep their last views (`view`): the front ends' last edits of a
# closed table read it in the moments after it closes, and keep what they read.
CLOSED_VIEWS_KEPT = 256


@dataclass(frozen=True)
class ServiceSettings:
    between_deals_seconds: float = 15.0
    computer_delay_seconds: float = 1.5
    grace_seconds: float = 20.0
    timer_poll_seconds: float = 0.5
    # The service's own steps (computer players, timeouts, next deals) wait while the event loop
    # runs later than this, so that people's presses are served first (`bot.service.pacing`);
    # None: they never wait.
    yield_when_late_seconds: float | None = 0.005
    # How many tables a member and a server may take (`bot.service.table_limits`).
    limits: TableLimits = DEFAULT_LIMITS


class TableService:
    """`policy` decides for computer seats (`bot.engine.ai.decide` unless given). With
    `thinkers` (see `bot.app.runtime.start_thinkers`) it runs there, so that one table's thinking
    never holds up the event loop and every other table's commands; the policy must then be a
    module-level function, which a worker process can be sent by name. `observer` hears of every
    command saved and every computer player's decision (the bot's metrics)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        random_source: RandomSource = system_random,
        policy: Policy | None = None,
        thinkers: Thinkers | None = None,
        settings: ServiceSettings | None = None,
        on_events: EventSink | None = None,
        observer: ServiceObserver | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.random_source = random_source
        self.policy: Policy = policy or ai.decide
        self.thinkers = thinkers
        self.settings = settings or ServiceSettings()
        self.on_events = on_events
        self.observer: ServiceObserver = observer or Unobserved()
        self.stopping = False  # set by `shut_down`: every new command is refused
        self._tables: dict[int, LiveTable] = {}
        self._listeners: list[Listener] = []
        self._closed: dict[int, TableView] = {}  # the last views of tables closed lately, oldest first
        self._by_channel: dict[int, LiveTable] = {}
        self._quota = TableQuota(self.settings.limits)
        # `run`'s: set to look at the deadlines again before `_look_at` (the clock's time), as
        # when a command sets a sooner deadline than it is sleeping until
        self._look = asyncio.Event()
        self._look_at = -math.inf

    # ----------------------------------------------------------------- start-up

    async def resume(self) -> list[TableEvent]:
        """Loads every open or playing table. Deadlines that passed while the bot was down
        become fresh short ones (see `TurnClock.give_grace`). A table whose rows cannot be
        resumed is set aside (see `_set_aside`); every other one plays on."""
        now = self.clock.now()
        events = []
        async for batch in self.store.active_table_batches():
            events += await self._resume_batch(batch, now)
        self._emit(events, None)
        return events

    async def _resume_batch(self, batch: list[ActiveTable], now: float) -> list[TableEvent]:
        events = []
        for active in batch:
            damage = active.damage
            if damage is None:
                try:
                    table = LiveTable.restore(active)
                except DamagedRowError as error:
                    damage = str(error)
                else:
                    if table.clock is not None:
                        table.clock.give_grace(now, self._timing(table), table.computers())
                    table.publish()
                    self._register(table)
                    resumed = Resumed(table.clock.announce() if table.clock else None)
                    events.append(TableEvent(table.id, resumed))
                    continue
            events += await self._set_aside(active, damage)
        return events

    async def _set_aside(self, active: ActiveTable, damage: str) -> list[TableEvent]:
        """A damaged table is kept as it is in the database and holds its channel, refusing every
        command but a cancel (host or Manage Server). It is logged at every start, and marked in
        the store the first time, when its channel is told (the DAMAGED event): only once."""
        record = active.table
        table = LiveTable.set_aside(active, damage)
        table.publish()
        self._register(table)
        if active.reported:
            log.warning("table %s in channel %s is still set aside: %s", table.id, record.channel_id, damage)
            return []
        log.error("table %s in channel %s is set aside as it is: %s", table.id, record.channel_id, damage)
        try:
            await self.store.mark_damaged(table.id, damage, self.clock.now())
        except StoreError:
            log.exception("table %s: could not be marked damaged (reported again next start)", table.id)
        return [TableEvent(table.id, Damaged(record.channel_id))]

    # ----------------------------------------------------------------- listening

    def listen(self, listener: Listener) -> None:
        """`listener` hears every batch of events saved from now on, with the user whose command
        caused it (None for the clock's, a computer player's, or a restart's). It is called at
        once, before the service goes on: it must only take note or hand the work on (a task,
        a queue), never wait, and never call the service back there."""
        self._listeners.append(listener)

    def _emit(self, events: Sequence[TableEvent], actor: int | None) -> None:
        if not events:
            return
        for listener in self._listeners:
            try:
                listener(events, actor)
            except Exception:
                log.exception("a listener failed on %d event(s)", len(events))

    # ----------------------------------------------------------------- looking

    def table_in(self, channel_id: int) -> LiveTable | None:
        return self._by_channel.get(channel_id) if type(channel_id) is int else None

    def tables(self) -> list[LiveTable]:
        return list(self._tables.values())

    def table(self, table_id: int) -> LiveTable | None:
        """The open or playing table with this id."""
        return self._tables.get(table_id)

    def view(self, table_id: int) -> TableView | None:
        """The table as last saved: an open or playing one, or one that closed lately (its last
        state, for the front ends' last edits)."""
        table = self._tables.get(table_id)
        return table.view if table is not None else self._closed.get(table_id)

    def view_in(self, channel_id: int) -> TableView | None:
        """The view of the table in this channel, open or playing."""
        table = self.table_in(channel_id)
        return table.view if table is not None else None

    def views(self) -> list[TableView]:
        """Every open or playing table's view."""
        return [table.view for table in self._tables.values() if table.view is not None]

    async def hand(self, table_id: int, user_id: int) -> HandView | None:
        """The user's own view of the deal in progress at this table: None if they are not
        seated there, or no deal is being played. Read under the table's lock, so that it never
        shows a move still being saved; read at once when none is (a computer player thinking
        holds the lock, and a person's own hand must not wait for it)."""
        table = self._tables.get(table_id)
        if table is None:
            return None
        if not table.ahead:
            return self._hand_of(table, user_id)
        async with table.lock:
            return self._hand_of(table, user_id)

    def _hand_of(self, table: LiveTable, user_id: int) -> HandView | None:
        seat = table.seat_of(user_id)
        return table.hand(seat) if seat is not None and table.id in self._tables else None

    async def hand_to_drop(self, table_id: int, user_id: int) -> HandView:
        """The user's own view of the deal, once the engine agrees that they may drop now (its
        refusal, an `IllegalActionError`, otherwise): a front end asks this before it offers the
        drop at its price (`legal.drop_cost`)."""
        return await self._hand_that_may(table_id, user_id, lambda deal, seat: deal.verify_drop(seat))

    async def hand_to_declare(self, table_id: int, user_id: int) -> HandView:
        """The user's own view of the deal, once a show is open to them now (the engine's refusal
        otherwise: whose turn it is, or pick first): a front end asks this before it shows the
        grouping it would declare and asks to confirm."""
        return await self._hand_that_may(table_id, user_id, _verify_show_open)

    async def _hand_that_may(
        self, table_id: int, user_id: int, verify: Callable[[Deal, int], None]
    ) -> HandView:
        """Asked under the table's lock, on the deal as saved; refused at once when nothing can
        be saved, so no move is offered that cannot happen."""
        if self.store.lost is not None:
            raise SavingStoppedError() from self.store.lost
        table = self._tables.get(table_id)
        if table is None:
            raise RummyError("You are not playing a deal at this table.")
        async with table.lock:
            seat = table.seat_of(user_id)
            hand = table.hand(seat) if seat is not None and table.id in self._tables else None
            deal = table.match.deal if hand is not None and table.match is not None else None
            if deal is None or hand is None:
                raise RummyError("You are not playing a deal at this table.")
            verify(deal, hand.seat)
            return hand

    # ----------------------------------------------------------------- the lobby

    @announced("host_id")
    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        *,
        format: Format | str = Format.POINTS,
        rules: Rules | None = None,
        point_value: int = 1,
        max_seats: int | None = None,
        seats: list[SeatRecord] | None = None,
        league_id: int | None = None,
    ) -> list[TableEvent]:
        """Opens a lobby with the host seated; a league opens its tables with `seats` (the
        members present, host first) and its `league_id`, and then starts them itself."""
        guild_id, channel_id = checked_id(guild_id, "server"), checked_id(channel_id, "channel")
        host_id, host_name = checked_id(host_id, "user"), checked_text(host_name, "name") or "?"
        if type(point_value) is not int or not (max_seats is None or type(max_seats) is int):
            raise BadInputError("The point value and the seats are whole numbers.")
        if not isinstance(format, str) or not (rules is None or isinstance(rules, Rules)):
            raise BadInputError("That is not a format and rules I know.")
        try:
            format, rules = Format(format), rules or Rules()
        except ValueError:
            raise ServiceError("There is no format '{format}'.", format=format) from None
        limit = rules.max_players if max_seats is None else max_seats
        if not MIN_PLAYERS <= limit <= rules.max_players:
            most = rules.max_players
            raise ServiceError(
                "A table on the {preset} rules seats {least} to {most} players.",
                preset=rules.preset,
                least=MIN_PLAYERS,
                most=most,
            )
        if point_value < 1:
            raise ServiceError("The point value must be at least 1 chip.")
        seats = seats or [SeatRecord(host_id, host_name)]
        if len(seats) > limit:
            raise ServiceError("This table seats at most {limit} players.", limit=limit)
        if self.stopping:
            raise ShuttingDownError()
        if channel_id in self._by_channel:
            if self._by_channel[channel_id].damage is not None:
                raise TableDamagedError()
            raise ServiceError("This channel already has a table: join it, or ask its host to cancel it.")
        now = self.clock.now()
        members = league_id is None  # a league seats its own tables
        if members:
            self._quota.check_open(self._tables.values(), guild_id, host_id, now)
        record = TableRecord(
            id=self.store.new_table_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            format=format.value,
            rules=rules.to_json(),
            point_value=point_value,
            host_id=host_id,
            max_seats=limit,
            seats=list(seats),
            league_id=league_id,
            created_at=now,
        )
        table = LiveTable(record, rules)
        self._register(table)  # before awaiting, so a second open in this channel is refused at once
        if members:  # likewise counted at once, so that opens at the same moment meet the limits
            self._quota.opened(host_id, now)
        try:
            async with table.lock:
                with saving():
                    await self.store.create_table(record, record.created_at)
                table.publish()
        except BaseException as error:
            self._unregister(table)
            if members:
                self._quota.unopened(host_id, now)
            if isinstance(error, ChannelBusyError):
                raise ServiceError(str(error)) from error
            raise
        return [TableEvent(table.id, TableOpened(format, host_id, limit, point_value))]

    @announced("user_id")
    async def join(self, channel_id: int, user_id: int, name: str) -> list[TableEvent]:
        user_id, name = checked_id(user_id, "user"), checked_text(name, "name") or "?"
        return await self._sit(channel_id, SeatRecord(user_id, name))

    @announced("by_user")
    async def add_computer(self, channel_id: int, by_user: int, level: str = "easy") -> list[TableEvent]:
        if level not in COMPUTER_LEVELS:
            raise ServiceError("Computer players are {levels}.", levels=" or ".join(COMPUTER_LEVELS))
        table = self._table(channel_id)
        if table.seat_of(by_user) is None:
            raise ServiceError("Only a seated player can add a computer player.")
        number = sum(1 for seat in table.record.seats if seat.computer) + 1
        return await self._sit(channel_id, SeatRecord(None, f"Computer {number} ({level})", level))

    async def _sit(self, channel_id: int, sitter: SeatRecord) -> list[TableEvent]:
        table = self._table(channel_id)
        _refuse_league(table, N_("This is a league table: its seats are the members who checked in."))
        async with table.lock:
            record = table.record
            if record.status is not TableStatus.OPEN:
                raise ServiceError("This table has already started.")
            if sitter.user_id is not None and table.seat_of(sitter.user_id) is not None:
                raise StaleCommandError("You are already seated at this table.")
            if len(record.seats) >= record.max_seats:
                raise ServiceError("This table is full ({count} seats).", count=record.max_seats)
            if sitter.user_id is not None:  # checked and seated at once: two joins meet the limit
                self._quota.check_seat(self._tables.values(), sitter.user_id)
            record.seats.append(sitter)
            await self._save_table(table, lambda: record.seats.remove(sitter))
            seat = len(record.seats) - 1
        return [TableEvent(table.id, Joined(seat, sitter))]

    @announced("user_id")
    async def leave(self, channel_id: int, user_id: int) -> list[TableEvent]:
        """Before the start, frees the seat; during a match, leaves it (a middle drop, and out)."""
        received = time.perf_counter()
        table = self._table(channel_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            if table.record.status is TableStatus.PLAYING:
                return await self._apply(table, Leave(seat), None, received)
            _refuse_league(table, N_("This is a league table: it starts as soon as its members are seated."))
            record = table.record
            sitter = record.seats.pop(seat)
            old_host = record.host_id
            humans = [s for s in record.seats if s.user_id is not None]
            if not humans:
                record.status = TableStatus.CANCELLED
            elif user_id == record.host_id:
                record.host_id = humans[0].user_id or record.host_id

            def undo() -> None:
                record.seats.insert(seat, sitter)
                record.host_id, record.status = old_host, TableStatus.OPEN

            await self._save_table(table, undo)
            events = [TableEvent(table.id, LeftTable(seat, user_id))]
            if record.status is TableStatus.CANCELLED:
                self._unregister(table)
                events.append(TableEvent(table.id, Cancelled(reason=CancelReason.EMPTY)))
            return events

    @announced("user_id")
    async def change_rules(
        self, channel_id: int, user_id: int, changes: Mapping[str, Any]
    ) -> list[TableEvent]:
        """The host changes the table's rules before the start. Refused, changing nothing, for
        anyone else, once the match has started, at a league table (it plays its season's rules)
        and for rules that cannot seat who is already seated. Saved before it is announced."""
        table = self._table(channel_id)
        _refuse_league(table, N_("This is a league table: it plays its season's rules."))
        if not isinstance(changes, Mapping) or not all(isinstance(name, str) for name in changes):
            raise BadInputError("Rule changes are options by name.")
        unknown = set(changes) - RULE_FIELDS
        if unknown:
            raise ServiceError("There is no rule option {options}.", options=", ".join(sorted(unknown)))
        async with table.lock:
            record = table.record
            if table.id not in self._tables or not record.status.active:
                raise StaleCommandError("This table has closed.")
            if user_id != record.host_id:
                raise ServiceError("Only the host can change this table's rules.")
            if record.status is not TableStatus.OPEN:
                raise StaleCommandError("The match has started: its rules no longer change.")
            before = table.rules
            try:  # a RulesError for options that do not go together
                after = before.replace(**changes)
            except (TypeError, ValueError):  # a value of the wrong kind (a forged menu value)
                raise BadInputError("That value does not fit that rule option.") from None
            if len(record.seats) > after.max_players:
                most, seated = after.max_players, len(record.seats)
                raise ServiceError(
                    "These rules seat at most {most} players; {seated} are seated.", most=most, seated=seated
                )
            old_seats = record.max_seats
            table.set_rules(after)
            # A table that seats as many as its rules allow keeps doing so; a smaller one stays small.
            full = old_seats == before.max_players
            record.max_seats = after.max_players if full else min(old_seats, after.max_players)

            def undo() -> None:
                table.set_rules(before)
                record.max_seats = old_seats

            await self._save_table(table, undo)
        return [TableEvent(table.id, RulesChanged(tuple(after.changed_options()), record.max_seats))]

    @announced("user_id")
    async def start(self, channel_id: int, user_id: int, *, can_manage: bool = False) -> list[TableEvent]:
        table = self._table(channel_id)
        async with table.lock:
            record = table.record
            refusal = N_("Only the host or a member with Manage Server can start this table.")
            self._verify_host(table, user_id, can_manage, refusal)
            if record.status is not TableStatus.OPEN:
                raise StaleCommandError("This table has already started.")
            if len(record.seats) < MIN_PLAYERS:
                raise ServiceError("A match needs at least {players} players.", players=MIN_PLAYERS)
            try:
                match, engine_events = Match.start(
                    record.format,
                    len(record.seats),
                    self.random_source(table.id, 1),
                    rules=table.rules,
                    point_value=record.point_value,
                )
            except RummyError as error:
                raise ServiceError(str(error)) from error
            now = self.clock.now()
            clock = TurnClock.new(len(record.seats), self._timing(table))
            clock.follow(match, now, self._timing(table), table.computers())
            match_id = self.store.new_match_id()
            record.status = TableStatus.PLAYING
            first = self._command_record(table, match, match_id, engine_events, clock, now, None)
            try:
                with saving():
                    await self.store.start_match(record, first)
            except BaseException:
                record.status = TableStatus.OPEN
                raise
            table.match, table.match_id, table.clock = match, match_id, clock
            table.snapshot_seq = len(match.log)
            table.publish()
        events = [TableEvent(table.id, MatchStarted(tuple(record.seats)))]
        return events + self._wrap(table, engine_events, announce=True)

    @announced("user_id")
    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool = False) -> list[TableEvent]:
        """Closes the table, playing or not: a damaged one too (its rows are kept as they are)."""
        table = self._table(channel_id, damaged_too=True)
        async with table.lock:
            refusal = N_("Only the host or a member with Manage Server can cancel this table.")
            self._verify_host(table, user_id, can_manage, refusal)
            if not can_manage:
                only_admins = N_("This is a league table: a member with Manage Server can cancel it.")
                _refuse_league(table, only_admins)
            before = table.record.status
            table.record.status, table.ahead = TableStatus.CANCELLED, True
            try:
                with saving():
                    now, damaged = self.clock.now(), table.damage is not None
                    await self.store.cancel_table(table.record, table.match_id, now, damaged=damaged)
            except BaseException:
                table.record.status, table.ahead = before, False
                raise
            table.publish()
            self._unregister(table)
        return [TableEvent(table.id, Cancelled(by=user_id))]

    # ----------------------------------------------------------------- game commands

    @announced("user_id")
    async def play(
        self,
        channel_id: int,
        user_id: int,
        command: Command | Mapping[str, object],
        *,
        turn: str | None = None,
        command_id: str | None = None,
    ) -> list[TableEvent]:
        """A player's game command: typed (its seat must be the player's), or as data without a
        seat (the player's is filled in) and checked field by field (`parse_command`). `turn` is
        the token of the turn the button was made for (`LiveTable.turn_token()`); `command_id` makes
        a retried command harmless. A stale or malformed command is refused with a reason and
        changes nothing."""
        received = time.perf_counter()
        channel_id, user_id = checked_id(channel_id, "channel"), checked_id(user_id, "user")
        turn, command_id = checked_text(turn, "turn"), checked_text(command_id, "command id")
        table = self._table(channel_id)
        async with table.lock:
            seat = self._seat(table, user_id)
            if isinstance(command, Command):
                if getattr(command, "seat", seat) != seat:
                    raise ServiceError("That is not your seat.")
            elif isinstance(command, Mapping):
                command = parse_command({**command, "seat": seat})
            else:
                raise BadCommandError("A command must be a set of named fields.")
            if type(command) not in PLAYER_COMMANDS:
                raise ServiceError("'{command}' is not a command you can play.", command=command.NAME)
            if table.match is None:
                raise ServiceError("The match has not started yet.")
            if command_id is not None and command_id in table.command_ids:
                raise StaleCommandError("That was already done.")
            if turn is not None and turn != table.turn_token():
                raise StaleCommandError("That button is from an earlier turn: use the latest message.")
            events = await self._apply(table, command, command_id, received)
            if isinstance(command, Split):
                events += await self._computers_agree_to_split(table)
            return events

    async def _computers_agree_to_split(self, table: LiveTable) -> list[TableEvent]:
        """Computer players never block a split that every person left in the pool wants: they
        are there to fill seats, not to hold people to a pool they would rather share."""
        match = table.match
        assert match is not None
        left = [seat for seat in match.remaining() if seat not in match.split_votes]
        computers = table.computers()
        if not left or not match.can_split() or any(seat not in computers for seat in left):
            return []
        events: list[TableEvent] = []
        for seat in left:
            events += await self._apply(table, Split(seat), None)
        return events

    async def _apply(
        self, table: LiveTable, entry: Command, command_id: str | None, received: float | None = None
    ) -> list[TableEvent]:
        """Applies one command (the table's lock is held), saves it, then reports it. `received`:
        when a player's command reached the service (`time.perf_counter()`), else now."""
        received = time.perf_counter() if received is None else received
        match, clock = table.match, table.clock
        assert match is not None and clock is not None and table.match_id is not None
        rng = self.random_source(table.id, len(match.log) + 1)
        match.rng = rng
        if match.deal is not None:
            match.deal.rng = rng
        seq = len(match.log)
        engine_events = match.apply(entry)  # refuses, changing nothing, if illegal
        table.ahead = True  # until it is saved (`publish`) or memory is put back (`_reload`)
        try:
            now = self.clock.now()
            if len(match.log) != seq + 1:
                raise AssertionError(f"the engine logged {len(match.log) - seq} entries for one command")
            announce = clock.follow(match, now, self._timing(table), table.computers())
            if match.phase is MatchPhase.OVER:
                table.record.status = TableStatus.FINISHED
            record = self._command_record(table, match, table.match_id, engine_events, clock, now, command_id)
            await self._save(record)
            if record.snapshot is not None:
                table.snapshot_seq = record.seq
            table.publish()
        except BaseException:
            await self._reload(table)  # memory ran ahead of the database: go back to what is saved
            raise
        if command_id is not None:
            table.command_ids.add(command_id)
        if announce and clock.deadline is not None and clock.deadline < self._look_at:
            self._look.set()  # a computer player's turn now, say: `run` need not sleep on
        events = self._wrap(table, engine_events, announce)
        if match.phase is MatchPhase.OVER:
            self._unregister(table)
            events.append(TableEvent(table.id, Finished(match.winner)))
        self.observer.command_saved(entry.NAME, time.perf_counter() - received)
        return events

    async def _save(self, record: CommandRecord) -> None:
        """Saves a command; if the caller stops waiting (a front end's task cancelled), waits
        for the save to end before passing the cancel on, so that the reload that follows reads
        the database as it will stay, never a moment before the write lands."""
        with saving():
            save = self.store.queue_command(record)
            try:
                await asyncio.shield(save)
            except asyncio.CancelledError:
                await asyncio.wait([save])
                if not save.cancelled() and save.exception() is not None:  # nobody else hears of it
                    log.error(
                        "a command was not saved (its sender had stopped waiting)", exc_info=save.exception()
                    )
                raise

    def _command_record(
        self,
        table: LiveTable,
        match: Match,
        match_id: int,
        events: list[Event],
        clock: TurnClock,
        now: float,
        command_id: str | None,
    ) -> CommandRecord:
        record = table.record
        kinds = {type(event) for event in events}
        over = match.phase is MatchPhase.OVER
        first = len(match.log) == 1  # the start: the table row and the standings are new too
        # A snapshot is what a command costs most to save, so it is saved only where replaying
        # the commands since the last one could not rebuild the match (`Match.restore`): after
        # anything drawn at random, at a deal's and the match's end, and every so often to keep
        # a restart's replay short.
        snapshot_due = (
            first
            or over
            or bool(kinds & SNAPSHOT_EVENTS)
            or len(match.log) - table.snapshot_seq >= SNAPSHOT_EVERY
        )
        return CommandRecord(
            match_id=match_id,
            seq=len(match.log),
            command=match.log[-1].to_json(),
            events=[event.to_json() for event in events],
            snapshot=match.state_json() if snapshot_due else None,
            log_tail=[command.to_json() for command in match.log[-LOG_TAIL:]] if snapshot_due else [],
            clock=clock.to_json(),
            at=now,
            command_id=command_id,
            finished_deal=match.finished_deals[-1].to_json() if DealOver in kinds else None,
            standings=standing_rows(match, record.seats) if kinds & STANDING_EVENTS or first else None,
            stats=stats_deltas(match, events, record.seats, record.guild_id),
            match_over=over,
            table=record if over or first else None,
        )

    # ----------------------------------------------------------------- clocks and computers

    def next_deadline(self) -> float | None:
        deadlines = [t.clock.deadline for t in self._tables.values() if t.clock and t.clock.deadline]
        return min(deadlines, default=None)

    async def fire_due(self) -> list[TableEvent]:
        """Acts wherever a deadline has passed: the next deal starts, a computer player moves,
        or the clock plays for an absent player (the engine's timeout). Every due table acts
        once, all at once (their saves share commits), and the events are handed on together:
        what a test on a manual clock wants. The production loop is `run`."""
        if not self._may_fire():
            return []
        now = self.clock.now()
        due = [t for t in self._tables.values() if t.clock and t.clock.due(now)]
        results = await asyncio.gather(*(self._fire_safely(table, now) for table in due))
        events = [event for result in results for event in result]
        if events and self.on_events is not None:
            await self.on_events(events)
        return events

    def _may_fire(self) -> bool:
        """False once nothing can be saved, or no more will be."""
        return self.store.lost is None and not self.stopping

    async def _fire_safely(self, table: LiveTable, now: float) -> list[TableEvent]:
        """`_fire`, with one table's failure kept from the others' clocks; its events announced."""
        try:
            events = await self._fire(table, now)
            self._emit(events, None)
            return events
        except (CannotSaveError, SavingStoppedError, HandedOverError):
            return []  # the store logged it; the clock tries again at its next pass
        except Exception:
            log.exception("table %s: the clock could not act", table.id)
            return []

    async def _fire(self, table: LiveTable, now: float) -> list[TableEvent]:
        async with table.lock:
            match, clock = table.match, table.clock
            if match is None or clock is None or not clock.due(now) or table.id not in self._tables:
                return []  # a command got in first
            if match.deal is None:
                return await self._apply(table, NextDeal(), None)
            seat = match.deal.turn
            sitter = table.record.seats[seat]
            if sitter.computer:
                rng = self.random_source(table.id, -len(match.log))
                try:
                    # The lock stays held while it thinks, so no command changes the deal
                    # meanwhile; the decision is judged against the live deal all the same.
                    decision = await self.decide(sitter.computer, match.deal.view(seat), rng)
                    if not isinstance(decision, SeatCommand) or decision.seat != seat:
                        raise IllegalActionError("a command for another seat: {decision}", decision=decision)
                    return await self._apply(table, decision, None)
                except IllegalActionError:
                    log.warning("table %s: computer player proposed an illegal move", table.id)
            return await self._apply(table, Timeout(seat), None)

    async def decide(self, level: str, view: SeatView, rng: random.Random) -> Command:
        """What a computer player of `level` plays from `view`, thought out in `thinkers` when
        the service has them. If their processes have died, it thinks here from then on (and
        says so once): a table must never stall for want of a worker."""
        # The OS's generator cannot travel to a worker: a seed drawn from it here does (see
        # `think`), so that a seeded table plays the same in a worker as on the loop.
        seed = rng.getrandbits(64)
        asked = time.perf_counter()
        decision = await self._think(level, view, seed)
        self.observer.computer_thought(level, time.perf_counter() - asked)
        return decision

    async def _think(self, level: str, view: SeatView, seed: int) -> Command:
        thinkers = self.thinkers
        if thinkers is not None:
            try:
                return await thinkers.run(think, self.policy, level, view, seed)
            except ThinkersBroken:
                if self.thinkers is thinkers:
                    log.exception("computer players' worker processes died: thinking on the event loop")
                    self.thinkers = None
        return think(self.policy, level, view, seed)

    async def run(self, stop: asyncio.Event) -> None:
        """The production timer loop. Each due table acts in a task of its own (`_drive`), so
        that no table waits for another's thinking or saving (concurrent saves still share
        commits), and a computer player's move follows the last one at once. It sleeps until
        the next deadline of a table not acting, at most a poll interval (a deadline set
        meanwhile is not missed by long), and looks again at once when a command sets a sooner
        deadline (a person's move handing the turn to a computer player) or a table is done
        acting. While the event loop runs late, the tables' steps start at a lower rate
        (`Pacer`), so that people's presses are served first. On `stop` it returns once the
        steps under way are done."""
        acting: dict[int, asyncio.Task[None]] = {}

        def done(table: LiveTable) -> Callable[[asyncio.Task[None]], None]:
            def forget(_: asyncio.Task[None]) -> None:
                acting.pop(table.id, None)
                # Its next deadline is one this loop has not seen. One still due could not act
                # (the database is away, say): it is tried again at the next look, not at once.
                if table.clock is None or not table.clock.due(self.clock.now()):
                    self._look.set()

            return forget

        async def stopped() -> None:
            await stop.wait()
            self._look.set()

        watcher = asyncio.create_task(stopped())
        late = self.settings.yield_when_late_seconds
        pacer = Pacer(late) if late is not None else None
        pacing = asyncio.create_task(pacer.watch(stop)) if pacer is not None else None
        try:
            while not stop.is_set():
                self._look.clear()
                now = self.clock.now()
                wait = self.settings.timer_poll_seconds
                for table in self._tables.values():
                    deadline = table.clock.deadline if table.clock is not None else None
                    if deadline is None or table.id in acting:
                        continue
                    if deadline > now:
                        wait = min(wait, deadline - now)
                    elif self._may_fire():
                        acting[table.id] = asyncio.create_task(self._drive(table, pacer, stop))
                        acting[table.id].add_done_callback(done(table))
                self._look_at = now + wait
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._look.wait(), timeout=wait)
        finally:
            self._look_at = -math.inf
            watcher.cancel()
            if pacing is not None:
                pacing.cancel()  # which lets every step waiting for it go
            await asyncio.gather(*acting.values(), return_exceptions=True)

    async def _drive(self, table: LiveTable, pacer: Pacer | None, stop: asyncio.Event) -> None:
        """Acts for one table while it is due (a computer player's pick, then its discard, then
        the next computer player's turn if it has no delay), handing each step's events on; each
        step waits for its turn in `pacer`. Once `stop` is set it begins no step: one still due
        is left for the next start, as a table that falls due after the stop is (a pacer that
        held many back must not let them all begin at once as the bot shuts down)."""
        while self._may_fire() and table.clock is not None and table.clock.due(self.clock.now()):
            if pacer is not None:
                await pacer.step()
            if stop.is_set():
                return
            events = await self._fire_safely(table, self.clock.now())
            if not events:  # a command got in first, or it failed: `run` looks again
                return
            if self.on_events is not None:
                await self.on_events(events)

    async def shut_down(self) -> None:
        """Takes no more commands (each is refused, changing nothing: `ShuttingDownError`) and
        returns once every command already taken is saved, so that the store can be closed under
        nobody. A command already waiting for its table's lock was taken: it goes first, since a
        lock serves whoever waited first."""
        self.stopping = True
        for table in list(self._tables.values()):
            async with table.lock:
                pass

    # ----------------------------------------------------------------- helpers

    def _timing(self, table: LiveTable) -> Timing:
        rules = table.rules
        return Timing(
            turn_seconds=rules.turn_seconds,
            discard_seconds=rules.discard_seconds,
            extra_seconds=rules.extra_time_seconds,
            between_deals=self.settings.between_deals_seconds,
            computer_delay=self.settings.computer_delay_seconds,
            grace=self.settings.grace_seconds,
        )

    def _wrap(self, table: LiveTable, engine_events: list[Event], announce: bool) -> list[TableEvent]:
        events = [TableEvent(table.id, event) for event in engine_events]
        if announce and table.clock is not None and table.clock.deadline is not None:
            events.append(TableEvent(table.id, table.clock.announce()))
        return events

    def _table(self, channel_id: int, *, damaged_too: bool = False) -> LiveTable:
        table = self._by_channel.get(checked_id(channel_id, "channel"))
        if self.stopping:
            raise ShuttingDownError()
        if table is None:
            raise ServiceError("There is no table in this channel.")
        if table.damage is not None and not damaged_too:
            raise TableDamagedError()
        return table

    def _seat(self, table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(checked_id(user_id, "user"))
        if seat is None:
            raise ServiceError("You are not seated at this table.")
        if table.id not in self._tables:
            raise StaleCommandError("This table has closed.")
        return seat

    def _verify_host(self, table: LiveTable, user_id: int, can_manage: bool, refusal: str) -> None:
        if table.id not in self._tables or not table.record.status.active:
            raise StaleCommandError("This table has closed.")
        if user_id != table.record.host_id and not can_manage:
            raise ServiceError(refusal)

    async def _save_table(self, table: LiveTable, undo: Callable[[], None]) -> None:
        try:
            with saving():
                await self.store.update_table(table.record, self.clock.now())
        except BaseException:
            undo()
            raise
        table.publish()

    async def _reload(self, table: LiveTable) -> None:
        stored = await self.store.load_match(table.id)
        record = await self.store.table(table.id)
        if stored is None or record is None:
            self._unregister(table)
            return
        table.set_record(record)
        table.match = Match.restore(stored.snapshot, stored.pending)
        table.snapshot_seq = stored.seq - len(stored.pending)
        table.clock = TurnClock.from_json(stored.clock)
        table.command_ids = stored.command_ids
        table.publish()
        if record.status.active:
            self._register(table)
        else:
            self._unregister(table)

    def _register(self, table: LiveTable) -> None:
        self._tables[table.id] = table
        self._by_channel[table.record.channel_id] = table

    def _unregister(self, table: LiveTable) -> None:
        self._tables.pop(table.id, None)
        if self._by_channel.get(table.record.channel_id) is table:
            del self._by_channel[table.record.channel_id]
        if table.view is not None:
            self._closed[table.id] = table.view
            while len(self._closed) > CLOSED_VIEWS_KEPT:
                del self._closed[next(iter(self._closed))]


def _refuse_league(table: LiveTable, why: str) -> None:
    """League tables are seated and started by the league, never by their members."""
    if table.record.league_id is not None:
        raise ServiceError(why)


def _verify_show_open(deal: Deal, seat: int) -> None:
    """Refuses as a show now would be refused (whose turn it is, or pick first) unless one is
    open to `seat`: a 13-card show with no finish card is refused for exactly those reasons."""
    if not deal.can_declare(seat):
        deal.verify_declare(seat, (), None)
