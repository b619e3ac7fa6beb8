"""Service events as Discord messages, composed from parts that each decide one kind of message
and send it through the one outbox (`bot.discord.outbox`): the table message
(`table_message`), each player's hand by DM (`hand_dms`), the turn mention (`turn_mentions`)
and results (`results`); what survives a restart is found again by `restore`.

Every event passes through `visible_events(events, None)` before it reaches the channel, and a
hand message is only ever built from its own seat's view.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.app.config import MENTION_WATCHING_AFTER
from bot.discord.hand_dms import HandDMs
from bot.discord.hands import HandLooks
from bot.discord.leftovers import sweep_mentions
from bot.discord.outbox import Outbox, always
from bot.discord.restore import restore
from bot.discord.results import Results
from bot.discord.shown import Shown
from bot.discord.table_message import TableMessages, damaged_words
from bot.discord.turn_mentions import TurnMentions
from bot.engine.deal import SeatStatus
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
from bot.service import TableEvent, visible_events
from bot.service.table_events import Cancelled, Damaged, Deadline, Finished, Resumed
from bot.service.views import TableView

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)
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
        may_send: Callable[[], bool] = always,
    ) -> None:
        """`request_budget`: the requests per second this process may send Discord (see
        `RequestBudget`; None: no limit of its own, only Discord's). `mention_watching_after`:
        see `TurnMentions`. `may_send`: asked before every request leaves (`Outbox`)."""
        self.bot = bot
        self.republish_concurrency = republish_concurrency
        self.outbox = Outbox(bot, request_budget, may_send)
        self.hands = HandDMs(self.outbox)
        self.mentions = TurnMentions(self.outbox, self.hands.refuses_dms, mention_watching_after)
        self.table_messages = TableMessages(
            self.outbox, mention=self._mention_refresh, closed=self._forget, edit_delay=edit_delay
        )
        self.results = Results(self.outbox)
        # What other parts of the bot ask of the table front end, each answered by its part.
        self.budget = self.outbox.budget
        self.shown = self.outbox.shown
        self.table = self.outbox.table
        self.remember, self.forget = self.outbox.remember, self.outbox.forget
        self.dm_refused = self.hands.dm_refused
        self.layout, self.hand_message = self.hands.layout, self.hands.hand_message
        self.send_hand, self.redraw_hands = self.hands.send_hand, self.hands.redraw_hands
        self.hand_message_id = self.hands.hand_message_id
        self.keep_hand_reply = self.hands.keep_reply
        self.call_off_mentions = self.mentions.call_off_mentions
        messages = self.table_messages
        self.lags, self.behind = messages.lags, messages.behind
        self.busy, self.flush = messages.busy, messages.flush
        self.table_message_id = messages.table_message_id
        self.adopt_table_message = messages.adopt_table_message
        self.schedule_table_refresh = messages.schedule_table_refresh
        self.refresh_table = messages.refresh_table
        self.claim_repost = messages.claim_repost
        self.show_table_through = messages.show_table_through
        self.table_message_parts = messages.table_message_parts
        self.picture_interval, self.edit_interval = messages.picture_interval, messages.edit_interval

    @property
    def edit_delay(self) -> float:
        return self.table_messages.edit_delay

    @edit_delay.setter
    def edit_delay(self, delay: float) -> None:
        self.table_messages.edit_delay = delay

    async def restore(self) -> None:
        """After a restart: what was shown before is found again (`bot.discord.restore`)."""
        await restore(self.outbox, self.hands, self.mentions)

    async def _mention_refresh(self, table: TableView, shown: Shown) -> bool:
        """Each table edit brings the turn mention up to date, at the table edits' priority."""
        return await self.mentions.follow(table, shown, urgent=False)

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

    async def _publish_table(self, table_id: int, events: list[TableEvent], actor: int | None) -> None:
        table = self.outbox.table(table_id)
        if table is None:
            return
        shown = self.outbox.shown(table_id)
        if any(isinstance(event.event, Finished | Cancelled) for event in events):
            shown.closed = True  # its last events are in hand: what is kept for it may go after them
        try:
            await self._show(table, shown, events, actor)
        finally:
            self.schedule_table_refresh(table_id)

    async def _show(
        self, table: TableView, shown: Shown, events: list[TableEvent], actor: int | None
    ) -> None:
        """The events' private side: the hands they change (not `actor`'s) and the turn mention."""
        async with shown.showing:
            hands = await self._note_events(table, shown, events)
            for seat in sorted(hands):
                user_id = table.seats[seat].user_id
                if user_id is not None and user_id != actor:
                    await self.hands.show_hand(table, seat)
        self.bot.in_background(self._mention_turn(table, shown))

    async def _mention_turn(self, table: TableView, shown: Shown) -> None:
        """The turn mention after a publish, beside it: a new mention may wait long for the
        request budget, and the press that published (its own DM's edit comes after) must not.
        One that Discord did not take for a passing reason is tried again, later, with the
        table as it is then (`ping_turn` reads it anew)."""
        failures = 0
        while not await self.mentions.follow(table, shown, urgent=True) and not self.bot.closing:
            failures += 1
            await self.outbox.wait_to_retry(failures)

    async def republish(self, events: list[TableEvent]) -> None:
        """After a restart, what `service.resume()` returned: each table's message, its player to
        act's hand and turn mention (or, set aside, its notice), `republish_concurrency` tables
        at a time, the nearest deadline first. Discord's rate limits, not this loop, set the
        pace (discord.py waits out each route's and the global limit); the bound keeps the
        requests waiting few, so that a player's own command is not queued behind thousands."""
        ordered = sorted(events, key=_urgency)
        await self._in_turns([functools.partial(self._republish_table, event) for event in ordered])

    async def _republish_table(self, event: TableEvent) -> None:
        table = self.outbox.table(event.table_id)
        if table is None:
            return
        shown = self.outbox.shown(table.id)
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
        tables = [self.outbox.table(event.table_id) for event in resumed]
        playing = [table for table in tables if table is not None and table.match is not None]
        await self._in_turns([functools.partial(self.hands.refresh_other_hands, table) for table in playing])

    async def sweep_mentions(self, events: list[TableEvent]) -> None:
        """After a restart, once the resumed tables are shown: each one's leftover turn mentions
        (posted, never stored) deleted (`bot.discord.leftovers`), `republish_concurrency` tables
        at a time."""
        tables = [self.outbox.table(event.table_id) for event in events if isinstance(event.event, Resumed)]
        await self._in_turns(
            [
                functools.partial(self._sweep, table)
                for table in tables
                if table is not None and table.status.active
            ]
        )

    async def _sweep(self, table: TableView) -> None:
        await self.outbox.guard(table, sweep_mentions(self.mentions, table))

    async def _in_turns(self, jobs: list[Callable[[], Awaitable[None]]]) -> None:
        """Runs the jobs in their order, `republish_concurrency` at a time: each worker takes the
        next job as it finishes one, so the first jobs are the first served."""
        waiting = iter(jobs)

        async def worker() -> None:
            for job in waiting:
                await job()

        await asyncio.gather(*(worker() for _ in range(max(1, self.republish_concurrency))))

    async def _note_events(self, table: TableView, shown: Shown, events: list[TableEvent]) -> set[int]:
        """Records what the table message shows (moves, deadlines) and returns the seats whose
        private hand message must change."""
        names = [seat.name for seat in table.seats]
        hands: set[int] = set()
        _ = await self.bot.readers.channel(table.guild_id)
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
                hands.update(_seats_in_deal(table))
            elif isinstance(event, _SEAT_CHANGES):
                hands.add(event.seat)
            elif isinstance(event, DealOver):
                hands.update(seat for seat, _ in enumerate(table.seats))
                await self._close_replies(table)
                await self.outbox.guard(table, self.results.post_result(table))
            elif isinstance(event, Cancelled):  # the deal in progress, if any, ends with no result
                hands.update(seat for seat, _ in enumerate(table.seats))
                await self._close_replies(table)
            elif isinstance(event, Damaged):  # said once: the service sends it once
                notice = "⚠️ " + _("**This table is set aside.** {why}", why=damaged_words(table, _))
                await self.outbox.guard(table, self.outbox.say(table, notice))
        # The DM of the seat to act lists the others' moves since its last turn (`since_turn`):
        # the turn's own events edit it (`Turn`, `Deadline`), but a leave is made out of turn.
        # Only then: an edit for every move would be made at the wrong times (a publish that
        # waited for the lock finds the turn moved on) and paid from the budget, under the lock
        # that the person's own next press waits for (`benchmarks/bot.py` times that offer).
        deal = table.match.deal if table.match is not None else None
        if deal is not None and any(isinstance(e.event, Left) for e in events):
            hands.add(deal.turn)
        return hands

    async def _close_replies(self, table: TableView) -> None:
        """Every seated person's private hand replies of the deal that ended, closed out."""
        for sitter in table.seats:
            if sitter.user_id is not None:
                await self.outbox.guard(table, self.hands.close_replies(table, sitter.user_id))

    async def _forget(self, table: TableView) -> None:
        """A closed table's last edits are done: what was kept for it goes, in memory and stored,
        and its turn mention is deleted (the match is over: nobody's turn)."""
        table_id = table.id
        shown = self.outbox.drop(table_id)
        if shown is not None:
            await self.mentions.call_off_mention(shown)
        if shown is not None and shown.ping is not None:
            await self.mentions.retire_mention(table_id, table.guild_id, shown, urgent=True)
        await self.outbox.forget(f"table:{table_id}")

    def server_language_changed(self, guild_id: int) -> None:
        """The server's posts speak another language now: its open tables' messages are drawn
        again by their usual refresh (moves, picture and turn mention included), and the hand DMs
        of the players who follow the server's language are edited in the background."""
        for table in self.bot.service.views():
            if table.guild_id == guild_id:
                self.schedule_table_refresh(table.id)
                self.bot.in_background(self.hands.in_server_language(table))

    def hand_shown_by_press(
        self, table_id: int, user_id: int, looks: HandLooks | None, press: Interaction | None = None
    ) -> None:
        """The player's hand DM now shows `looks`, through `press` (see `HandDMs.shown_by_press`);
        a press in it also puts off the turn mention held back from them."""
        self.hands.shown_by_press(table_id, user_id, looks, press)
        shown = self.outbox.shown(table_id)
        if press is not None and shown.mention_user == user_id and shown.mention_later is not None:
            self.mentions.put_mention_off(table_id, shown)


def _seats_in_deal(table: TableView) -> list[int]:
    deal = table.match.deal if table.match is not None else None
    if deal is None:
        return []
    return [seat for seat, status in enumerate(deal.statuses) if status is not SeatStatus.SITTING_OUT]


def _urgency(event: TableEvent) -> float:
    """A resumed table's place in the queue: its deadline (the clock's grace after a restart),
    so the player whose time runs out first sees their turn first; a table with none, last."""
    clock = event.event.clock if isinstance(event.event, Resumed) else None
    return clock.deadline if clock is not None and clock.deadline is not None else math.inf


# Events after which their seat's hand message changes: every move, whatever path it came by
# (a button in the DM is shown by its own interaction, and its player is left out as `actor`).


# Events after which their seat's hand message changes: every move, whatever path it came by
# (a button in the DM is shown by its own interaction, and its player is left out as `actor`).
_SEAT_CHANGES = (Picked, Discarded, MissedTurn, Dropped, Left, WrongShow, Turn)
