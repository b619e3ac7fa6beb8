"""Service events as Discord messages: one table message per table, edited in place; each
player's hand by DM (or, where DMs are refused, a pointer to `/rummy hand`); results.

Every event passes through `visible_events(events, None)` before it reaches the channel, and a
hand message is only ever built from its own seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import itertools
import logging
import math
import statistics
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot.app.config import MENTION_WATCHING_AFTER
from bot.discord import limits
from bot.discord.budget import RequestBudget
from bot.discord.components import behind_view, lobby_view, with_open_button
from bot.discord.hands import HandLooks, HandMessage, build_hand_message
from bot.discord.safe_text import escaped, pinging, seat_names
from bot.discord.shown import Posted, Shown, move_lines
from bot.engine.deal import Deal, SeatStatus
from bot.engine.errors import RummyError
from bot.engine.events import (
    DealOver,
    DealStarted,
    Dealt,
    Discarded,
    Dropped,
    Event,
    Left,
    MissedTurn,
    Picked,
    Turn,
    WrongShow,
)
from bot.engine.formats import Format
from bot.engine.match import MatchPhase
from bot.i18n import EN, N_, Words
from bot.present.game_words import format_title
from bot.present.hand_layout import HandLayout
from bot.present.rules_options import rules_line
from bot.present.rules_text import wild_words
from bot.present.scene_builders import result_scene, standings_scene, table_scene
from bot.present.shuffle_proof import paid_line, reveal_file, reveal_name, seal_line
from bot.service import LiveTable, TableEvent, visible_events
from bot.service.table_events import Cancelled, Damaged, Deadline, Finished, Resumed
from render import render_result, render_standings, render_table, result_alt, standings_alt, table_alt
from render.scenes import TableScene

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)
DM_REFUSED = 50007
UNKNOWN_CHANNEL = 10003
DM_REFUSAL_MEMORY = 24 * 3600.0  # how long a stored refusal is believed after a restart
DM_RETRY = 15 * 60.0  # a refused player's hand is tried by DM again after this (people open their DMs)
# A press's token lets the bot edit the pressed message for 15 minutes; a little less, to be safe.
PRESS_EDITS_FOR = 14 * 60.0
# The table picture is drawn again at most once per table per interval: PICTURE_DELAYS edit
# delays (2 s at the default 0.8), or longer when more tables are busy, so that all of them
# together draw at most PICTURES_PER_SECOND (each costs some milliseconds of the one core the
# bot runs on). Edits in between change the words only; one more brings the picture up to date
# when it is due. Without an edit delay (tests) every edit draws it.
PICTURE_DELAYS = 2.5
PICTURES_PER_SECOND = 20.0
# Likewise each table message is edited at most once per edit delay, or less often when more
# tables are busy, so that all of them together send at most EDITS_PER_SECOND: without a
# request budget (tests, a flat-out benchmark) they would go as fast as the edit delay lets
# them, 125 a second at 100 busy tables, more than Discord allows a bot in all (50) and each a
# request's CPU. With a budget, it paces them too (the urgent requests first).
EDITS_PER_SECOND = 40.0
CHANNEL_EVERY = 1.0  # seconds between requests in one channel (Discord: 5 per 5 s)
LAGS_KEPT = 10_000  # the latest table edits' lags kept (`lags`)
# When the latest BEHIND_OF table edits were SAY_BEHIND_AFTER seconds behind their tables or more
# (a median: with many busy tables each message waits long for its turn within Discord's
# global limit), a table message says so, and that the players' hand DMs are current.
BEHIND_OF = 50
SAY_BEHIND_AFTER = 10.0
WAITING = N_("The computer players are playing.")  # the turn mention while no person is to act
# The stored key of a posted message still to be deleted (an old turn mention): `delete:` its
# server, its id. Remembered before anything else takes its place, forgotten once it is gone, so
# a restart that comes first (a crash, an outage) deletes it: the restart of the process serving
# that server (sharded, each touches its own servers' channels only). Not under its table's key:
# it outlives the table.
TO_DELETE = "delete"
# Tables shown at once after a restart (`republish`). Discord answers a request in some 50-100
# ms and allows a bot about 50 a second in all, so a handful in flight already meets that limit:
# more would only queue behind the request budget, ahead of live play.
REPUBLISH_CONCURRENCY = 8


class Presenter:
    def __init__(
        self,
        bot: RummyBot,
        edit_delay: float = 0.8,
        republish_concurrency: int = REPUBLISH_CONCURRENCY,
        request_budget: float | None = None,
        mention_watching_after: float = MENTION_WATCHING_AFTER,
    ) -> None:
        """`request_budget`: the requests per second this process may send Discord (see
        `RequestBudget`; None: no limit of its own, only Discord's). `mention_watching_after`:
        the share of their turn's clock after which a person watching their hand DM is
        mentioned all the same (see `_ping_turn`; 0: at once, as anyone else)."""
        self.bot = bot
        self.mention_watching_after = mention_watching_after
        self.edit_delay = edit_delay  # bursts of moves become one table edit (rate limits)
        self.republish_concurrency = republish_concurrency
        self.budget = RequestBudget(request_budget)
        self.dm_refused: dict[int, float] = {}  # user -> when Discord last refused them a DM
        # user -> their DM channel's id: a new hand DM is then one request, where discord.py may
        # need two more (the user, whom it keeps only while referenced, and the DM channel, of
        # which it keeps the latest 128)
        self.dm_channels: dict[int, int] = {}
        self._shown: dict[int, Shown] = {}
        self._refreshing: set[int] = set()  # the tables whose message a refresh task is editing
        self._lags: deque[float] = deque(maxlen=LAGS_KEPT)  # seconds from a change to its edit

    # ----------------------------------------------------------------- lookups

    def shown(self, table_id: int) -> Shown:
        """What is kept for this table, made on first use."""
        return self._shown.setdefault(table_id, Shown())

    def keep(self, table: LiveTable) -> None:
        """Remembers the table object, for showing its last events once the service lets it go."""
        self.shown(table.id).table = table

    def table(self, table_id: int) -> LiveTable | None:
        table = self.bot.service.table(table_id)
        if table is not None:
            self.keep(table)
            return table
        shown = self._shown.get(table_id)
        return shown.table if shown is not None else None

    def layout(self, table_id: int, user_id: int) -> HandLayout:
        return self.shown(table_id).layout(user_id)

    def hand_shown_by_press(
        self, table_id: int, user_id: int, looks: HandLooks | None, press: Interaction | None = None
    ) -> None:
        """The player's hand DM was edited through `press`, a press in it, to `looks` (None: to
        something else, or not known), so the next edit compares with that: a picture the press
        already sent is not drawn and sent again. The press is kept: until its token expires,
        the presenter edits the DM through it, which Discord does not count against the bot's
        global limit. Called under the table's `showing` lock, as the presenter's own edits
        are, so what is noted is what the DM shows."""
        shown = self.shown(table_id)
        if looks is None:
            shown.hand_looks.pop(user_id, None)
        else:
            shown.hand_looks[user_id] = looks
        if press is not None:
            shown.presses[user_id] = (press, asyncio.get_running_loop().time() + PRESS_EDITS_FOR)
            shown.watched[user_id] = self.bot.service.clock.now()
            if shown.mention_user == user_id and shown.mention_later is not None:
                self._put_mention_off(table_id, shown)

    def lags(self) -> list[float]:
        """How stale the latest table messages were when edited: seconds from the first change
        not yet shown to the edit that showed it (`benchmarks/bot.py` prints them)."""
        return list(self._lags)

    def behind(self) -> float:
        """How far table messages have lately run behind their tables (the median of the last
        `BEHIND_OF` edits), in seconds."""
        latest = list(itertools.islice(reversed(self._lags), BEHIND_OF))
        return statistics.median(latest) if latest else 0.0

    def deadline_for(self, table_id: int, seat: int) -> float | None:
        return self.shown(table_id).deadline_for(seat)

    def table_message_id(self, table_id: int) -> int | None:
        """The message that shows the table now (None: none known)."""
        shown = self._shown.get(table_id)
        return shown.message.id if shown is not None and shown.message is not None else None

    def hand_message_id(self, table_id: int, user_id: int) -> int | None:
        shown = self._shown.get(table_id)
        message = shown.hands.get(user_id) if shown is not None else None
        return message.id if message is not None else None

    # ----------------------------------------------------------------- what survives a restart

    async def restore(self) -> None:
        """After a restart: the table messages, hand DMs and turn mentions of the resumed tables
        are found again (their old buttons already work; an old mention is deleted when the
        next one is posted), old mentions whose deletion was cut short are deleted, and recent DM
        refusals are not retried."""
        store = self.bot.store
        active = {table.id for table in self.bot.service.tables()}
        posted = await store.posted_messages()
        doomed = {message_id for key, (_, message_id) in posted.items() if key.startswith(TO_DELETE + ":")}
        ownership = self.bot.ownership
        left: list[tuple[int, int, int]] = []  # the mentions of tables not resumed here
        for key, (channel_id, message_id) in posted.items():
            parts = key.split(":")
            if parts[0] == TO_DELETE:  # its deletion was cut short: the process serving it deletes it
                if ownership is None or ownership.shards.owns(int(parts[1])):
                    old = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
                    self.bot.in_background(self._delete_old_ping(None, key, old))
                continue
            if parts[0] != "table":
                continue
            if int(parts[1]) not in active:
                if parts[2:] == ["ping"] and message_id not in doomed:
                    left.append((int(parts[1]), channel_id, message_id))
                continue
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            shown = self.shown(int(parts[1]))
            if len(parts) == 2:
                shown.message = message
            elif parts[2] == "hand":
                shown.hands[int(parts[3])] = message
                self.dm_channels[int(parts[3])] = channel_id
            elif parts[2] == "ping" and message_id not in doomed:  # it names whoever is to act
                shown.ping, shown.ping_user = message, _to_act(self.bot.service.table(int(parts[1])))
        if left:
            self.bot.in_background(self._retire_closed_pings(left))
        now = self.bot.service.clock.now()
        for user_id in await store.dm_refusals(now - DM_REFUSAL_MEMORY):
            self.dm_refused.setdefault(user_id, now)

    async def adopt_table_message(self, table_id: int, channel_id: int, message_id: int) -> None:
        """The message that shows this table from now on (the lobby a command posted, say)."""
        channel = self.bot.get_partial_messageable(channel_id)
        self.shown(table_id).message = channel.get_partial_message(message_id)
        await self.remember(f"table:{table_id}", channel_id, message_id)

    async def remember(self, key: str, channel_id: int, message_id: int) -> None:
        """Best effort: a message not remembered is posted anew after a restart, nothing worse."""
        try:
            await self.bot.store.remember_message(key, channel_id, message_id, self.bot.service.clock.now())
        except Exception:
            log.exception("could not remember message %s", key)

    async def _forget(self, table: LiveTable) -> None:
        """A closed table's last edits are done: what was kept for it goes, in memory and stored,
        and its turn mention is deleted (the match is over: nobody's turn)."""
        table_id = table.id
        shown = self._shown.pop(table_id, None)
        if shown is not None:
            await self._call_off_mention(shown)
        if shown is not None and shown.ping is not None:
            await self._retire_mention(table_id, table.record.guild_id, shown, urgent=True)
        await self.forget(f"table:{table_id}")

    async def forget(self, key: str) -> None:
        try:
            await self.bot.store.forget_messages(key)
        except Exception:
            log.exception("could not forget message %s", key)

    # ----------------------------------------------------------------- events in

    async def publish(self, events: list[TableEvent], actor: int | None = None) -> None:
        """Reacts to what happened. `actor` is the user whose own interaction already shows
        them their new hand, so they are not sent a second copy."""
        by_table: dict[int, list[TableEvent]] = defaultdict(list)
        for event in events:
            by_table[event.table_id].append(event)
        for table_id, table_events in by_table.items():
            try:
                await self._publish_table(table_id, table_events, actor)
            except Exception:
                log.exception("table %s: could not show events", table_id)
        await self._to_leagues(events)

    async def _to_leagues(self, events: list[TableEvent]) -> None:
        """Every batch of table events passes here once, whatever path it took (a command, a
        button, a timer), so the league service sees each one: a finished league table is
        settled from it, and what that leads to (results, the next round) is shown."""
        leagues = getattr(self.bot, "leagues", None)
        if leagues is None or not events:
            return
        try:
            more = await leagues.table_events(events)
        except Exception:
            log.exception("the league service could not take %d table event(s)", len(events))
            return
        if more:
            await self.bot.league_presenter.publish(more)

    async def _publish_table(self, table_id: int, events: list[TableEvent], actor: int | None) -> None:
        table = self.table(table_id)
        if table is None:
            return
        shown = self.shown(table_id)
        if any(isinstance(event.event, Finished | Cancelled) for event in events):
            shown.closed = True  # its last events are in hand: what is kept for it may go after them
        try:
            await self._show(table, shown, events, actor)
        finally:
            self.schedule_table_refresh(table_id)

    async def _show(
        self, table: LiveTable, shown: Shown, events: list[TableEvent], actor: int | None
    ) -> None:
        """The events' private side: the hands they change (not `actor`'s) and the turn mention."""
        async with shown.showing:
            hands = await self._note_events(table, shown, events)
            for seat in sorted(hands):
                user_id = table.record.seats[seat].user_id
                if user_id is not None and user_id != actor:
                    await self._guard(table, self.send_hand(table, seat))
        self.bot.in_background(self._mention_turn(table, shown))

    async def _mention_turn(self, table: LiveTable, shown: Shown) -> None:
        """The turn mention after a publish, beside it: a new mention may wait long for the
        request budget, and the press that published (its own DM's edit comes after) must not."""
        async with shown.mentioning:
            await self._guard(table, self._ping_turn(table, shown, urgent=True))

    # ----------------------------------------------------------------- after a restart

    async def republish(self, events: list[TableEvent]) -> None:
        """After a restart, what `service.resume()` returned: each table's message, its player to
        act's hand and turn mention (or, set aside, its notice), `republish_concurrency` tables
        at a time, the nearest deadline first. Discord's rate limits, not this loop, set the
        pace (discord.py waits out each route's and the global limit); the bound keeps the
        requests waiting few, so that a player's own command is not queued behind thousands."""
        ordered = sorted(events, key=_urgency)
        await self._in_turns([functools.partial(self._republish_table, event) for event in ordered])
        await self._to_leagues(events)

    async def _republish_table(self, event: TableEvent) -> None:
        table = self.table(event.table_id)
        if table is None:
            return
        shown = self.shown(table.id)
        try:
            await self._show(table, shown, [event], None)
        except Exception:
            log.exception("table %s: could not show it again", table.id)
        self.schedule_table_refresh(table.id, at_once=True)  # its edit counts against the bound
        if shown.refresh is not None:
            await asyncio.wait([shown.refresh])

    async def refresh_hands(self, events: list[TableEvent]) -> None:
        """After a restart, once every resumed table and the players to act are shown: every
        other seated person's hand DM, so none still shows a move from before;
        `republish_concurrency` tables at a time, as `republish` shows them."""
        await self.flush()  # the table messages first
        resumed = [event for event in sorted(events, key=_urgency) if isinstance(event.event, Resumed)]
        tables = [self.table(event.table_id) for event in resumed]
        playing = [table for table in tables if table is not None and table.match is not None]
        await self._in_turns([functools.partial(self._refresh_other_hands, table) for table in playing])

    async def _refresh_other_hands(self, table: LiveTable) -> None:
        deal = table.match.deal if table.match is not None else None
        shown = self.shown(table.id)
        async with shown.showing:
            for seat, sitter in enumerate(table.record.seats):
                if sitter.user_id is not None and (deal is None or seat != deal.turn):
                    await self._guard(table, self.send_hand(table, seat))

    async def _in_turns(self, jobs: list[Callable[[], Awaitable[None]]]) -> None:
        """Runs the jobs in their order, `republish_concurrency` at a time: each worker takes the
        next job as it finishes one, so the first jobs are the first served."""
        waiting = iter(jobs)

        async def worker() -> None:
            for job in waiting:
                await job()

        await asyncio.gather(*(worker() for _ in range(max(1, self.republish_concurrency))))

    async def _note_events(self, table: LiveTable, shown: Shown, events: list[TableEvent]) -> set[int]:
        """Records what the table message shows (moves, deadlines) and returns the seats whose
        private hand message must change."""
        names = [seat.name for seat in table.record.seats]
        hands: set[int] = set()
        _ = await self.bot.readers.channel(table.record.guild_id)
        for table_event in visible_events(events, None):
            event = table_event.event
            if isinstance(event, DealStarted):
                shown.moves.clear()
                shown.layouts.clear()  # last deal's groups mean nothing now
            if isinstance(event, Event):
                shown.note_move(event, names)
                shown.note_deal_event(event)
            clock = event.clock if isinstance(event, Resumed) else event
            if isinstance(clock, Deadline) and clock.deadline:
                shown.deadline = (clock.seat, float(clock.deadline))
                if clock.seat is not None:
                    hands.add(clock.seat)
            if isinstance(event, Dealt):
                hands.update(self._seats_in_deal(table))
            elif isinstance(event, _SEAT_CHANGES):
                hands.add(event.seat)
            elif isinstance(event, DealOver):
                hands.update(seat for seat, _ in enumerate(table.record.seats))
                await self._guard(table, self._post_result(table))
            elif isinstance(event, Damaged):  # said once: the service sends it once
                notice = "⚠️ " + _("**This table is set aside.** {why}", why=damaged_words(table, _))
                await self._guard(table, self.say(table, notice))
        # The DM of the seat to act lists the others' moves since its last turn (`since_turn`):
        # the turn's own events edit it (`Turn`, `Deadline`), but a leave is made out of turn.
        # Only then: an edit for every move would be made at the wrong times (a publish that
        # waited for the lock finds the turn moved on) and paid from the budget, under the lock
        # that the person's own next press waits for (`benchmarks/bot.py` times that offer).
        deal = table.match.deal if table.match is not None else None
        if deal is not None and any(isinstance(e.event, Left) for e in events):
            hands.add(deal.turn)
        return hands

    def _seats_in_deal(self, table: LiveTable) -> list[int]:
        deal = table.match.deal if table.match else None
        if deal is None:
            return []
        return [seat for seat, state in enumerate(deal.seats) if state.status is not SeatStatus.SITTING_OUT]

    async def _guard(self, table: LiveTable, step: Coroutine[Any, Any, Any]) -> None:
        """One failed Discord call (a missing permission, an outage) must not stop the rest of
        what the table shows; a deleted channel closes its table."""
        if not self.bot.may_send():  # past its shard lease: nothing more is shown from here
            return step.close()
        try:
            await step
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                await self._channel_gone(table)
            else:
                log.warning("table %s: %s", table.id, error)
        except discord.HTTPException as error:
            log.warning("table %s: Discord refused a message: %s", table.id, error)

    async def _channel_gone(self, table: LiveTable) -> None:
        log.warning("table %s: its channel is gone; closing the table", table.id)
        with contextlib.suppress(RummyError):
            await self.bot.service.cancel(table.record.channel_id, table.record.host_id, can_manage=True)
        self.shown(table.id).closed = True  # nowhere to show that it closed

    async def _spend_in_channel(self, shown: Shown | None, *, urgent: bool) -> None:
        """Waits for a request in a table's channel: its turn there, at most one every
        `CHANNEL_EVERY` seconds (Discord lets a channel have 5 messages sent or edited in 5 s;
        past that discord.py holds the request back after the budget was spent for it, and then
        lets several go at once, over the global limit), then a token from the budget. Without
        a budget nothing is paced (tests)."""
        if shown is not None and self.budget.rate is not None:
            now = asyncio.get_running_loop().time()
            turn = max(now, shown.channel_free_at)
            shown.channel_free_at = turn + CHANNEL_EVERY
            if turn > now:
                await asyncio.sleep(turn - now)
        await self.budget.spend(urgent=urgent)

    # ----------------------------------------------------------------- hands

    async def send_hand(self, table: LiveTable, seat: int) -> None:
        """Edits the player's hand DM in place, or sends one; a refused DM is remembered and the
        player is told in the channel to use `/rummy hand`. Nothing is sent when nothing the
        player sees would change, and the picture is drawn and sent again only when the hand it
        shows changed: a move by someone else is a text-only edit."""
        user_id = table.record.seats[seat].user_id
        now = self.bot.service.clock.now()
        if user_id is None or now - self.dm_refused.get(user_id, -DM_RETRY) < DM_RETRY:
            return
        message = await self.hand_message(table, seat, user_id)
        shown = self.shown(table.id)
        existing = shown.hands.get(user_id)
        before = shown.hand_looks.pop(user_id, None)
        if message is None:  # the deal is over: the old controls must not look live
            if existing is not None:
                _ = await self.bot.readers.user(user_id, table.record.guild_id)
                over = _("This deal is over: see the result in the channel.")
                press = self._live_press(shown, user_id)
                if press is not None:
                    with contextlib.suppress(discord.HTTPException):
                        await press.edit_original_response(content=over, view=None)
                        return
                    shown.presses.pop(user_id, None)
                await self.budget.spend(urgent=True)
                with contextlib.suppress(discord.NotFound):
                    await existing.edit(content=over, view=None)
            return
        looks = message.looks()
        try:
            if existing is not None:
                with contextlib.suppress(discord.NotFound):
                    await self._edit_hand(table, seat, shown, user_id, existing, message, before)
                    return
            view = message.view or discord.utils.MISSING
            file = await message.file(self.bot.pictures)
            dm = await self._dm_channel(user_id)
            await self.budget.spend(urgent=True)
            sent = await dm.send(content=message.content, file=file, view=view)
            self.dm_channels[user_id] = sent.channel.id
            shown.hands[user_id] = sent
            shown.watched[user_id] = now  # a new DM notifies them
            shown.hand_looks[user_id] = looks
            await self.remember(f"table:{table.id}:hand:{user_id}", sent.channel.id, sent.id)
            if self.dm_refused.pop(user_id, None) is not None:  # they opened their DMs
                await self.bot.store.allow_dms(user_id)
        except discord.Forbidden as error:
            if error.code != DM_REFUSED:
                raise
            known = user_id in self.dm_refused
            self.dm_refused[user_id] = now
            with contextlib.suppress(Exception):
                await self.bot.store.refuse_dms(user_id, now)
            if known:  # told already when they were first refused
                return
            here = await self.bot.readers.channel(table.record.guild_id)
            await self.say(
                table,
                here(
                    "{user}, I can't send you direct messages (your privacy settings block them). "
                    "Use `/rummy hand` here to see your cards privately.",
                    user=f"<@{user_id}>",
                ),
                ping=user_id,
            )

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """Where the user's DMs go: the channel known from an earlier DM, else the user's own
        (fetched, and the DM channel opened, each a request, if discord.py does not have it)."""
        known = self.dm_channels.get(user_id)
        if known is not None:
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        user = self.bot.get_user(user_id)
        if user is None:
            await self.budget.spend(urgent=True)
            user = await self.bot.fetch_user(user_id)
        if user.dm_channel is None:  # opening the DM channel is a request of its own
            await self.budget.spend(urgent=True)
        return user

    def _live_press(self, shown: Shown, user_id: int) -> Interaction | None:
        """The user's last press in their hand DM, while its token can still edit the DM."""
        press, until = shown.presses.get(user_id, (None, 0.0))
        if press is not None and asyncio.get_running_loop().time() >= until:
            shown.presses.pop(user_id, None)
            return None
        return press

    async def hand_message(self, table: LiveTable, seat: int, user_id: int) -> HandMessage | None:
        """The hand DM as `user_id` reads it: their deck colours, their language (`Readers.user`),
        built here for the presenter's edits and their own presses alike."""
        settings = await self.bot.preferences.user(user_id)
        _ = await self.bot.readers.user(user_id, table.record.guild_id)
        layout = self.layout(table.id, user_id)
        deadline = self.deadline_for(table.id, seat)
        since = move_lines(self.shown(table.id).since_turn(seat), seat_names(table.record.seats), _)
        return await build_hand_message(table, seat, layout, deadline, settings.four_colour, _, since)

    async def _edit_hand(
        self,
        table: LiveTable,
        seat: int,
        shown: Shown,
        user_id: int,
        existing: Posted,
        message: HandMessage,
        before: HandLooks | None,
    ) -> None:
        """Edits the hand DM to the latest `message`, if it would change what the player sees:
        through their last press in it while its token lasts (outside Discord's global limit),
        else as a message edit the request budget allows. A move made while waiting for the
        budget is shown by this edit (the message is built again once it may go)."""
        press = self._live_press(shown, user_id)
        spent = press is not None  # nothing to spend: a press's edits are outside the limit
        while True:
            looks = message.looks()
            if before is not None and before == looks:
                shown.hand_looks[user_id] = looks
                return
            redraw = before is None or before[1] != looks[1]
            if spent:
                break
            turn = table.turn_token()
            await self.budget.spend(urgent=True)
            spent = True
            if table.turn_token() == turn:
                break
            latest = await self.hand_message(table, seat, user_id)
            if latest is None:
                return
            message = latest
        attachments = [await message.file(self.bot.pictures)] if redraw else discord.utils.MISSING
        if press is not None:
            try:
                await press.edit_original_response(
                    content=message.content, attachments=attachments, view=message.view
                )
                shown.hand_looks[user_id] = looks
                return
            except discord.HTTPException:  # the token expired early, or the press is gone
                shown.presses.pop(user_id, None)
                await self.budget.spend(urgent=True)
        await existing.edit(content=message.content, attachments=attachments, view=message.view)
        shown.hand_looks[user_id] = looks

    async def redraw_hands(self, user_id: int) -> None:
        """The player's hand DMs drawn again at every table they sit at (their deck changed)."""
        for table in self.bot.service.tables():
            seat = table.seat_of(user_id)
            if seat is not None:
                await self._guard(table, self.send_hand(table, seat))

    def server_language_changed(self, guild_id: int) -> None:
        """The server's posts speak another language now: its open tables' messages are drawn
        again by their usual refresh (moves, picture and turn mention included), and the hand DMs
        of the players who follow the server's language are edited in the background."""
        for table in self.bot.service.tables():
            if table.record.guild_id == guild_id:
                self.schedule_table_refresh(table.id)
                self.bot.in_background(self._hands_in_server_language(table))

    async def _hands_in_server_language(self, table: LiveTable) -> None:
        async with self.shown(table.id).showing:
            for seat, sitter in enumerate(table.record.seats):
                if sitter.user_id is not None and await self.bot.readers.follows_server(sitter.user_id):
                    await self._guard(table, self.send_hand(table, seat))

    async def _ping_turn(
        self, table: LiveTable, shown: Shown, *, urgent: bool, hold: bool = True, spent: bool = False
    ) -> None:
        """One mention in the channel says whose turn it is. Discord notifies a person only of a
        mention in a new message, never of one an edit adds: so a person's turn that the mention
        does not already name is posted anew (and the old mention deleted after, at the table
        edits' lower priority), while a change of its words for the same person (the deadline
        after a restart, the DM hint) and "the computer players are playing" are edits in place.
        It is deleted while it is nobody's turn (between deals, once the match is over; stored,
        so a restart finds it). A person's turn is shown at once (`urgent`, from `publish`);
        that the computer players are playing is left to the table's refresh loop, so a turn
        that comes back to the person before it runs costs no edit at all. Called under the
        table's `mentioning` lock: two publishes never replace one mention twice.

        A person who pressed in their hand DM within the table's turn clock, or was sent it anew
        (which Discord notifies), is watching it, and sees their turn there (edited through
        their press, outside Discord's global limit): with `hold` their mention, two requests
        against the limit, is held back until `mention_watching_after` of their clock has gone
        without a press in the DM (`_mention_later`), and a mention naming someone else is
        deleted meanwhile, at the lower priority. A change at that priority waits for its request
        outside the lock (`_ping_turn_later`), and comes back `spent`."""
        match = table.match
        live = table.record.status.active and match is not None and match.phase is MatchPhase.PLAYING
        deal = match.deal if live and match is not None else None
        if deal is None:
            if shown.ping is not None:
                await self._retire_mention(table.id, table.record.guild_id, shown, urgent=True)
            return
        user_id = table.record.seats[deal.turn].user_id
        if (
            hold
            and user_id is not None
            and shown.ping_user != user_id
            and self._watching(shown, user_id, deal)
        ):
            self._mention_later(table, shown, user_id, deal)
            if shown.ping is not None:
                await self._retire_mention(table.id, table.record.guild_id, shown, urgent=False)
            return
        _ = await self.bot.readers.channel(table.record.guild_id)
        if user_id is None:
            if urgent or shown.ping is None:
                return
            words = _(WAITING)
        else:
            deadline = shown.deadline_for(deal.turn)
            user = f"<@{user_id}>"
            turn = (
                _("{user}, your turn (ends {when}).", user=user, when=f"<t:{int(deadline)}:R>")
                if deadline
                else _("{user}, your turn.", user=user)
            )
            hint = _("Use `/rummy hand`.") if user_id in self.dm_refused else _("Your hand is in your DMs.")
            words = f"{turn} {hint}"
        if shown.ping_words == words:
            return
        if not urgent and not spent:
            if not shown.ping_later:
                shown.ping_later = True
                self.bot.in_background(self._ping_turn_later(table, shown))
            return
        if not spent:
            await self._spend_in_channel(shown, urgent=urgent)
        if shown.ping is not None and (user_id is None or shown.ping_user == user_id):
            try:  # an edit notifies nobody; the person it names stays the one it may name
                await shown.ping.edit(
                    content=words, allowed_mentions=pinging([] if user_id is None else [user_id])
                )
                shown.ping_words = words
                if user_id is None:  # it names nobody now: their next turn is a new mention
                    shown.ping_user = None
                return
            except discord.NotFound:
                shown.ping = None
        if user_id is None:
            return
        old = shown.ping
        sent = await self.say(table, words, spent=True, ping=user_id)
        if sent is None:
            return
        shown.ping, shown.ping_words, shown.ping_user = sent, words, user_id
        # The old one is stored to delete before the new one takes its place in the store, and
        # deleted outside the lock: the next move's requests go first.
        doomed = None if old is None else (await self._doom(table.record.guild_id, old), old)
        await self.remember(f"table:{table.id}:ping", sent.channel.id, sent.id)
        if doomed is not None:
            self.bot.in_background(self._delete_old_ping(shown, *doomed))

    async def _ping_turn_later(self, table: LiveTable, shown: Shown) -> None:
        """A change of the mention at the table edits' priority (the computer players are
        playing, say): on a busy bot its request waits long, and the table's next moves must
        not wait behind it for the table's lock."""
        try:
            await self._spend_in_channel(shown, urgent=False)
        finally:
            shown.ping_later = False
        async with shown.mentioning:
            await self._guard(table, self._ping_turn(table, shown, urgent=False, spent=True))

    def _watching(self, shown: Shown, user_id: int, deal: Deal) -> bool:
        """Whether the person pressed in their hand DM, or was sent it, within the table's turn
        clock."""
        watched = shown.watched.get(user_id)
        now = self.bot.service.clock.now()
        return (
            self.mention_watching_after > 0
            and watched is not None
            and now - watched <= deal.rules.turn_seconds
        )

    def _mention_later(self, table: LiveTable, shown: Shown, user_id: int, deal: Deal) -> None:
        """Once per turn: the mention is posted after `mention_watching_after` of the clock now
        running has gone without a press in their DM (each press puts it off anew,
        `_put_mention_off`), unless the turn passed."""
        turn = table.turn_token()
        if shown.mention_turn == turn:
            return
        shown.mention_turn, shown.mention_user = turn, user_id
        self._hold_mention(table.id, shown, deal)

    def _put_mention_off(self, table_id: int, shown: Shown) -> None:
        """The person held back pressed in their DM: they are there now, but may leave before
        their move is done (a pick, a sort), so the mention waits its share of the clock from
        this press instead; a turn that passed needs none."""
        table = self.table(table_id)
        deal = table.match.deal if table is not None and table.match is not None else None
        if table is not None and deal is not None and table.turn_token() == shown.mention_turn:
            if shown.mention_later is not None and not shown.mention_later.done():
                self._hold_mention(table_id, shown, deal)
        elif shown.mention_later is not None:
            shown.mention_later.cancel()

    def _hold_mention(self, table_id: int, shown: Shown, deal: Deal) -> None:
        """(Re)starts the wait for the held-back mention of `shown.mention_turn`."""
        if shown.mention_later is not None:
            shown.mention_later.cancel()
        delay = self.mention_watching_after * deal.clock_seconds
        shown.mention_later = asyncio.get_running_loop().create_task(
            self._mention_if_idle(table_id, shown, shown.mention_turn, delay)
        )

    async def _mention_if_idle(self, table_id: int, shown: Shown, turn: str | None, delay: float) -> None:
        await asyncio.sleep(delay)
        async with shown.mentioning:
            table = self.table(table_id)
            if table is None or table.turn_token() != turn:
                return
            shown.mention_posting = True
            try:
                await self._guard(table, self._ping_turn(table, shown, urgent=True, hold=False))
            finally:
                shown.mention_posting = False

    async def _call_off_mention(self, shown: Shown) -> None:
        """No held-back mention is posted; one already being posted is let finish, so that it is
        stored as the table's mention (cut short, it would be left in the channel for good)."""
        task = shown.mention_later
        if task is None or task.done():
            return
        if not shown.mention_posting:
            task.cancel()
        await asyncio.wait([task])  # its end, whichever: a failure of Discord's is logged in it

    async def call_off_mentions(self) -> None:
        """At shutdown: no held-back mention is posted (after a restart each turn is shown again)."""
        for shown in list(self._shown.values()):
            await self._call_off_mention(shown)

    async def _retire_closed_pings(self, mentions: list[tuple[int, int, int]]) -> None:
        """After a restart, the stored mentions (table id, channel, message) of tables that were
        not resumed here: those of tables closed before the process could delete them (a crash
        right after the close was saved) are deleted, with what was kept for those tables, by
        the process serving their server. Tables still open belong to another shard: left alone."""
        ownership = self.bot.ownership
        for table_id, channel_id, message_id in mentions:
            status = await self.bot.store.table_status(table_id)  # plain columns: read even if damaged
            guild_id = await self.bot.store.table_guild(table_id)
            if status is None or status.active or guild_id is None:
                continue
            if ownership is not None and not ownership.shards.owns(guild_id):
                continue
            old = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            key = await self._doom(guild_id, old)
            await self.forget(f"table:{table_id}")
            await self._delete_old_ping(None, key, old)

    async def _retire_mention(self, table_id: int, guild_id: int, shown: Shown, *, urgent: bool) -> None:
        """The turn mention goes: stored to delete before it is forgotten as the table's, so that
        a restart that comes first deletes it; deleted now if `urgent`, else in the background
        at the lower priority."""
        old, shown.ping, shown.ping_words, shown.ping_user = shown.ping, None, None, None
        if old is None:
            return
        key = await self._doom(guild_id, old)
        await self.forget(f"table:{table_id}:ping")
        if urgent:
            await self._delete_old_ping(shown, key, old, urgent=True)
        else:
            self.bot.in_background(self._delete_old_ping(shown, key, old))

    async def _doom(self, guild_id: int, message: Posted) -> str:
        """Stores a message of `guild_id`'s as one to delete (see `TO_DELETE`); its key."""
        key = f"{TO_DELETE}:{guild_id}:{message.id}"
        await self.remember(key, message.channel.id, message.id)
        return key

    async def _delete_old_ping(
        self, shown: Shown | None, key: str, old: Posted, *, urgent: bool = False
    ) -> None:
        """Deletes a turn mention that is no longer current (stored under `key`, see
        `TO_DELETE`), and then forgets it; after a failure of Discord's own (an outage) it is
        kept, for the next restart to try again."""
        await self._spend_in_channel(shown, urgent=urgent)
        try:
            await old.delete()
        except discord.DiscordServerError as error:
            log.warning("could not delete the old turn mention %s: %s", old.id, error)
            return
        except discord.HTTPException:  # gone already, or never to be deleted (its channel is)
            pass
        await self.forget(key)

    # ----------------------------------------------------------------- the table message

    def schedule_table_refresh(self, table_id: int, *, at_once: bool = False) -> None:
        """Marks the table message out of date; one task per table edits it until it is current,
        so a burst of moves becomes one edit and a move during an edit is never lost. `at_once`:
        no burst to wait for (a restart's), if no edit is under way already."""
        shown = self.shown(table_id)
        if not shown.dirty:
            shown.dirty, shown.dirty_since = True, asyncio.get_running_loop().time()
        if shown.refresh is None or shown.refresh.done():
            wait = 0.0 if at_once else self.edit_interval()
            shown.refresh = asyncio.get_running_loop().create_task(self._refresh_loop(table_id, shown, wait))
            self._refreshing.add(table_id)
            shown.refresh.add_done_callback(functools.partial(self._refreshed, table_id))

    def _refreshed(self, table_id: int, task: asyncio.Task[None]) -> None:
        """A refresh task ended: its table is no longer being edited, unless another one took
        over meanwhile (its callback runs some time after it ends)."""
        shown = self._shown.get(table_id)
        if shown is None or shown.refresh is task:
            self._refreshing.discard(table_id)

    async def _refresh_loop(self, table_id: int, shown: Shown, first_wait: float) -> None:
        """Edits the table message until it shows the latest state, picture included. Each edit
        waits `edit_interval` (the first `first_wait`) and then its turn in the request budget,
        behind every urgent request: the busier the bot, the longer the wait, and every move made
        meanwhile is shown by that one edit. The state is read only once the edit may go, so the
        last edit always shows the latest state; the turn mention is brought up to date with it.
        A picture not yet due (`picture_interval`) is left as it was, and drawn by one more edit
        once it is due."""
        table = None
        loop = asyncio.get_running_loop()
        wait = first_wait
        while shown.dirty or shown.picture_behind:
            if not shown.dirty:  # only the picture is behind: edit when it is due
                wait = max(wait, shown.picture_due - loop.time())
            if wait > 0:
                await asyncio.sleep(wait)
            wait = self.edit_interval()
            await self._spend_in_channel(shown, urgent=False)
            table = self.table(table_id)
            # a press on the message may have shown it meanwhile (`show_table_through`)
            shown_by_press = not (shown.dirty or shown.picture_behind)
            if shown.dirty:
                self._lags.append(loop.time() - shown.dirty_since)
            shown.dirty = False
            try:
                if table is not None:
                    async with shown.mentioning:
                        await self._guard(table, self._ping_turn(table, shown, urgent=False))
                    if not shown_by_press:
                        await self._guard(table, self._show_table(table))
            except Exception:
                log.exception("table %s: could not update the table message", table_id)
            if table is None or not table.record.status.active:
                shown.picture_behind = False  # a closed table's last edit drew it
        if table is not None and not table.record.status.active and shown.closed:
            await self._forget(table)

    def picture_interval(self) -> float:
        """How long a table picture stands before it is drawn again: longer as more tables
        are being edited at once."""
        if not self.edit_delay:
            return 0.0
        return max(PICTURE_DELAYS * self.edit_delay, len(self._refreshing) / PICTURES_PER_SECOND)

    def edit_interval(self) -> float:
        """How long a table message stands before it is edited again: the edit delay, longer
        as more tables are being edited at once."""
        if not self.edit_delay:
            return 0.0
        return max(self.edit_delay, len(self._refreshing) / EDITS_PER_SECOND)

    def busy(self) -> bool:
        """Whether a table message is being edited (its task not done: `_refreshing` learns of
        an end a moment later, from the task's callback)."""
        return any(s.refresh is not None and not s.refresh.done() for s in self._shown.values())

    async def flush(self) -> None:
        """Waits for pending table edits (tests, and before shutting down)."""
        while pending := [
            s.refresh for s in self._shown.values() if s.refresh is not None and not s.refresh.done()
        ]:
            await asyncio.gather(*pending, return_exceptions=True)

    def claim_repost(self, table_id: int, every: float) -> asyncio.Future[int | None] | None:
        """Whether `/rummy table` may post the table message again: at most once per table (a
        channel holds one) in `every` seconds, so that a flood of commands posts it once. None: it
        may, and this is its time; else the repost made within that time, whose result is the
        fresh message's id once it is posted (`refresh_table`)."""
        shown = self.shown(table_id)
        now = self.bot.service.clock.now()
        if shown.reposted is not None and now < shown.reposted_at + every:
            return shown.reposted
        shown.reposted_at, shown.reposted = now, asyncio.get_running_loop().create_future()
        return None

    async def refresh_table(self, table_id: int, repost: bool = False) -> None:
        """The table message brought up to date now, outside its refresh loop (`/rummy table`
        posts it again below the chat with `repost`, after `claim_repost`)."""
        table = self.table(table_id)
        if table is None:
            return
        try:
            await self._spend_in_channel(self._shown.get(table_id), urgent=True)
            await self._show_table(table, repost)
        finally:
            reposted = self.shown(table_id).reposted
            if repost and reposted is not None and not reposted.done():
                reposted.set_result(self.table_message_id(table_id))

    async def _show_table(self, table: LiveTable, repost: bool = False) -> None:
        """Edits the table message (one request, already spent), or posts it anew if it is gone.
        The picture is drawn only if what it shows changed and it is due (`picture_interval`),
        or the message is posted anew; else the edit keeps the picture it has."""
        shown = self.shown(table.id)
        async with shown.editing:
            await self._edit_table(table, shown, repost)

    async def _edit_table(self, table: LiveTable, shown: Shown, repost: bool) -> None:
        message = shown.message if not repost else None
        now = asyncio.get_running_loop().time()
        scene = await self.picture_scene(table)
        changed = not shown.picture_known or scene != shown.picture_scene
        draw = changed and (message is None or not table.record.status.active or now >= shown.picture_due)
        content, files, view = await self.table_message_parts(table, scene if draw else None)
        if message is not None:
            try:
                await message.edit(content=content, attachments=_pictured(files, draw), view=view)
                self._drawn(shown, scene, draw, now)
                return
            except discord.NotFound:
                await self._spend_in_channel(shown, urgent=True)
            if not draw:  # posted anew: with its picture
                content, files, view = await self.table_message_parts(table, scene)
                draw = True
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        sent = await channel.send(content=content, files=files, view=view or discord.utils.MISSING)
        self._drawn(shown, scene, draw, now)
        await self.adopt_table_message(table.id, channel.id, sent.id)

    async def show_table_through(self, table: LiveTable, press: discord.Interaction[Any]) -> bool:
        """The table message brought up to date by a press on it (already deferred), through the
        press, outside Discord's global limit and the request budget: anyone watching the
        channel of a busy bot sees the table as it is now, picture included, whatever the
        table edits' turn in the budget. False if the press is on an older table message."""
        shown = self._shown.get(table.id)
        if shown is None or press.message is None:
            return False
        async with shown.editing:  # (a repost may have taken the message's place meanwhile)
            if shown.message is None or press.message.id != shown.message.id:
                return False
            shown.dirty = False  # a move from now on is shown by the next edit
            try:
                now = asyncio.get_running_loop().time()
                scene = await self.picture_scene(table)
                draw = not shown.picture_known or scene != shown.picture_scene
                content, files, view = await self.table_message_parts(table, scene if draw else None)
                await press.edit_original_response(
                    content=content, attachments=_pictured(files, draw), view=view
                )
            except Exception:
                self.schedule_table_refresh(table.id)  # the usual edit shows it, in its turn
                raise
            self._drawn(shown, scene, draw, now)
        return True

    def _drawn(self, shown: Shown, scene: TableScene | None, drawn: bool, now: float) -> None:
        """Notes what the table message's picture shows after an edit: `scene` if it was drawn;
        else whether it is behind the latest, and when it may be drawn again."""
        if drawn:
            shown.picture_scene, shown.picture_due = scene, now + self.picture_interval()
            shown.picture_known = True
        shown.picture_behind = not shown.picture_known or scene != shown.picture_scene

    async def picture_scene(self, table: LiveTable) -> TableScene | None:
        """What the table message's picture shows, in the channel's language (None: it has none,
        a lobby or a damaged table)."""
        if table.damage is not None or table.match is None:
            return None
        _ = await self.bot.readers.channel(table.record.guild_id)
        return table_scene(table.match, [seat.name for seat in table.record.seats], _=_)

    async def table_message_parts(
        self, table: LiveTable, scene: TableScene | None = None
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """The table message's words, its picture of `scene` (none without it) and controls."""
        record = table.record
        match = table.match
        shown = self.shown(table.id)
        _ = await self.bot.readers.channel(record.guild_id)
        if table.damage is not None:
            state = damaged_words(table, _) if record.status.active else _("*This table is closed.*")
            return _("**This table is set aside.** {why}", why=state), [], None
        spec = Format(record.format).spec
        rules = _("Rules: {rules} · all of them: `/rummy rules`", rules=rules_line(spec, table.rules, _))
        if match is None:
            seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(seat_names(record.seats)))
            heading = _(
                "**{format}** · lobby · {seated}/{seats} seated · host {host}",
                format=format_title(spec, _),
                seated=len(record.seats),
                seats=record.max_seats,
                host=f"<@{record.host_id}>",
            )
            invite = _("Join, add computer players, then the host starts (and may change the rules first).")
            content = f"{heading}\n{rules}\n{seats}\n{invite}"
            if not record.status.active:
                return limits.message(content + "\n" + _("*This table is closed.*")), [], None
            return limits.message(content), [], lobby_view(table.id, _)
        names = seat_names(record.seats)
        number = len(match.finished_deals) + (1 if match.deal else 0)
        lines = [_("**{format}** · deal {number}", format=format_title(match.spec, _), number=number), rules]
        if match.phase is MatchPhase.OVER:
            lines.append(_("**The match is over.**"))
        elif not record.status.active:
            lines.append(_("**This table was cancelled.**"))
        elif match.deal is not None:
            deal = match.deal
            seat = deal.turn
            deadline = shown.deadline_for(seat)
            user_id = record.seats[seat].user_id
            who = f"<@{user_id}>" if user_id else names[seat]
            wild = wild_words(deal.wild_rank, _)
            if deadline:
                lines.append(
                    _("Turn: {who}, ends {when} · {wild}", who=who, when=f"<t:{int(deadline)}:R>", wild=wild)
                )
            else:
                lines.append(_("Turn: {who} · {wild}", who=who, wild=wild))
            lines.append(seal_line(deal.commitment, _))
        else:
            deadline = shown.deadline_for(None)
            if deadline:
                lines.append(_("The next deal starts {when}.", when=f"<t:{int(deadline)}:R>"))
            else:
                lines.append(_("The next deal starts soon."))
        if moves := shown.move_lines(names, _):
            lines.append("\n".join(f"› {line}" for line in moves))
        behind = self.behind()
        view = None
        if match.deal is not None and record.status.active and behind >= SAY_BEHIND_AFTER:
            lines.append(
                _(
                    "*The bot is busy: this message runs about {seconds} s behind the table. "
                    "Each player's hand DM is current.*",
                    seconds=round(behind),
                )
            )
            view = behind_view(table.id, _)  # a press shows it now (`show_table_through`)
        if self.bot.activity_server is not None and record.status.active:  # the Activity is served
            view = with_open_button(view, table.id, _)
        content = limits.message("\n".join(lines))
        if scene is None:
            return content, [], view
        png = await self.bot.pictures.draw(render_table, scene)
        picture = discord.File(io.BytesIO(png), filename="table.png", description=table_alt(scene))
        return content, [picture], view

    # ----------------------------------------------------------------- results

    async def _post_result(self, table: LiveTable) -> None:
        """The deal's result picture, with the shuffle reveal anyone can check against the
        commitment published when the deal started; at the end of a match, the standings too.
        Drawn now, while this deal is the last one finished, and sent beside the publish
        (`_send_result`): its requests may wait long for the budget under load, and the table's
        `showing` lock, which a person's own press waits for, must not wait with them."""
        match = table.match
        if match is None or not match.finished_deals:
            return
        names = [seat.name for seat in table.record.seats]
        _ = await self.bot.readers.channel(table.record.guild_id)
        result = result_scene(match, names, _=_)
        png = await self.bot.pictures.draw(render_result, result)
        deal = match.finished_deals[-1]
        reveal = [paid_line(deal, [escaped(name) for name in names], _)]
        proof = reveal_file(deal, _).encode()
        files = [discord.File(io.BytesIO(png), filename="result.png", description=result_alt(result))]
        files.append(discord.File(io.BytesIO(proof), filename=reveal_name(deal.number)))
        if match.phase is MatchPhase.OVER:
            if match.winner is not None:
                winner = escaped(names[match.winner])
                over = _("🏆 **The match is over: {winner} wins.**", winner=winner)
            else:
                over = _("🏆 **The match is over: a shared pool.**")
            reveal.insert(0, over)
            scene = standings_scene(match, names, _)
            standings = await self.bot.pictures.draw(render_standings, scene)
            said = standings_alt(scene)
            files.append(discord.File(io.BytesIO(standings), filename="standings.png", description=said))
        chunks = limits.message_chunks(reveal)
        self.bot.in_background(self._send_result(table, self.shown(table.id), chunks, files))

    async def _send_result(
        self, table: LiveTable, shown: Shown, chunks: list[str], files: list[discord.File]
    ) -> None:
        """Posts a result drawn by `_post_result`, after the table's results before it."""
        async with shown.resulting:
            await self._guard(table, self._send_chunks(table, shown, chunks, files))

    async def _send_chunks(
        self, table: LiveTable, shown: Shown, chunks: list[str], files: list[discord.File]
    ) -> None:
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        await self._spend_in_channel(shown, urgent=True)
        await channel.send(content=chunks[0], files=files)
        for chunk in chunks[1:]:
            await self._spend_in_channel(shown, urgent=True)
            await channel.send(content=chunk)

    async def say(
        self, table: LiveTable, text: str, *, spent: bool = False, ping: int | None = None
    ) -> discord.Message | None:
        """Posts `text` in the table's channel (`spent`: its request was already taken from the
        budget), pinging the person `ping` only (see `safe_text`)."""
        if not spent:
            await self._spend_in_channel(self._shown.get(table.id), urgent=True)
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        try:
            return await channel.send(
                limits.message(text), allowed_mentions=pinging([] if ping is None else [ping])
            )
        except discord.NotFound:
            return None


def _pictured(files: list[discord.File], drawn: bool) -> list[discord.File]:
    """An edit's attachments: the picture drawn for it, else none given, so the one the message
    has stays (`MISSING` leaves a message's attachments as they are)."""
    return files if drawn else discord.utils.MISSING


def _to_act(table: LiveTable | None) -> int | None:
    """The person whose turn it is at `table` (None: a computer player's, or nobody's)."""
    match = table.match if table is not None else None
    deal = match.deal if match is not None else None
    return table.record.seats[deal.turn].user_id if table is not None and deal is not None else None


def _urgency(event: TableEvent) -> float:
    """A resumed table's place in the queue: its deadline (the clock's grace after a restart),
    so the player whose time runs out first sees their turn first; a table with none, last."""
    clock = event.event.clock if isinstance(event.event, Resumed) else None
    return clock.deadline if clock is not None and clock.deadline is not None else math.inf


# Events after which their seat's hand message changes: every move, whatever path it came by
# (a button in the DM is shown by its own interaction, and its player is left out as `actor`).
_SEAT_CHANGES = (Picked, Discarded, MissedTurn, Dropped, Left, WrongShow, Turn)


def damaged_words(table: LiveTable, _: Words = EN) -> str:
    """Why a table set aside cannot go on, and who can close it: at a league table a member with
    Manage Server only (the league seats and ends its tables, so its host is refused)."""
    why = _("Its saved game is damaged, so it cannot go on; it is kept as it was for an admin to look at.")
    if table.record.league_id is not None:
        return why + " " + _("A member with Manage Server can close it with `/rummy cancel`.")
    return why + " " + _("The host or a member with Manage Server can close it with `/rummy cancel`.")
