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
import logging
import math
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.components import lobby_view
from bot.discord.hands import build_hand_message
from bot.discord.shown import Shown
from bot.engine.cards import format_cards
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
    Reshuffled,
    Turn,
    WrongShow,
)
from bot.engine.formats import Format
from bot.engine.match import MatchPhase
from bot.game_words import format_title
from bot.hand_layout import HandLayout
from bot.i18n import EN, Words
from bot.narrate import event_lines
from bot.rules_options import rules_line
from bot.rules_text import wild_words
from bot.scenes import result_scene, standings_scene, table_scene
from bot.service import Table, TableEvent, visible_events
from bot.service.events import Damaged, Deadline, Resumed
from render import render_result, render_standings, render_table

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

log = logging.getLogger(__name__)
DM_REFUSED = 50007
UNKNOWN_CHANNEL = 10003
MESSAGE_LIMIT = 2000
DM_REFUSAL_MEMORY = 24 * 3600.0  # how long a stored refusal is believed after a restart
DM_RETRY = 15 * 60.0  # a refused player's hand is tried by DM again after this (people open their DMs)
# Tables shown at once after a restart (`republish`). Discord answers a request in some 50-100
# ms and allows a bot about 50 a second in all, so a handful in flight already meets that limit:
# more would only queue at discord.py's rate limiter (or draw 429s), ahead of live play.
REPUBLISH_CONCURRENCY = 8


class Presenter:
    def __init__(
        self, bot: RummyBot, edit_delay: float = 0.8, republish_concurrency: int = REPUBLISH_CONCURRENCY
    ) -> None:
        self.bot = bot
        self.edit_delay = edit_delay  # bursts of moves become one table edit (rate limits)
        self.republish_concurrency = republish_concurrency
        self.dm_refused: dict[int, float] = {}  # user -> when Discord last refused them a DM
        self._shown: dict[int, Shown] = {}

    # ----------------------------------------------------------------- lookups

    def shown(self, table_id: int) -> Shown:
        """What is kept for this table, made on first use."""
        return self._shown.setdefault(table_id, Shown())

    def keep(self, table: Table) -> None:
        """Remembers the table object, for showing its last events once the service lets it go."""
        self.shown(table.id).table = table

    def table(self, table_id: int) -> Table | None:
        table = self.bot.service.table(table_id)
        if table is not None:
            self.keep(table)
            return table
        shown = self._shown.get(table_id)
        return shown.table if shown is not None else None

    def layout(self, table_id: int, user_id: int) -> HandLayout:
        return self.shown(table_id).layout(user_id)

    def hand_edited_elsewhere(self, table_id: int, user_id: int) -> None:
        """The player's hand message was edited through an interaction (a press in their DM):
        what it was last sent as is no longer what it shows, so the next edit sends it whole."""
        self.shown(table_id).hand_looks.pop(user_id, None)

    def deadline_for(self, table_id: int, seat: int) -> float | None:
        return self.shown(table_id).deadline_for(seat)

    def hand_message_id(self, table_id: int, user_id: int) -> int | None:
        shown = self._shown.get(table_id)
        message = shown.hands.get(user_id) if shown is not None else None
        return message.id if message is not None else None

    # ----------------------------------------------------------------- what survives a restart

    async def restore(self) -> None:
        """After a restart: the table messages, hand DMs and turn mentions of the resumed tables
        are found again (their old buttons already work; an old mention is deleted when the
        next one is posted), and recent DM refusals are not retried."""
        store = self.bot.store
        active = {table.id for table in self.bot.service.tables()}
        for key, (channel_id, message_id) in (await store.posted_messages()).items():
            parts = key.split(":")
            if parts[0] != "table" or int(parts[1]) not in active:
                continue
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            shown = self.shown(int(parts[1]))
            if len(parts) == 2:
                shown.message = message
            elif parts[2] == "hand":
                shown.hands[int(parts[3])] = message
            elif parts[2] == "ping":
                shown.ping = message
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

    async def _forget(self, table_id: int) -> None:
        """A closed table's last edits are done: what was kept for it goes, in memory and stored,
        and its turn mention is deleted (the match is over: nobody's turn)."""
        shown = self._shown.pop(table_id, None)
        if shown is not None and shown.ping is not None:
            with contextlib.suppress(discord.HTTPException):
                await shown.ping.delete()
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
        try:
            await self._show(table, shown, events, actor)
        finally:
            self.schedule_table_refresh(table_id)

    async def _show(self, table: Table, shown: Shown, events: list[TableEvent], actor: int | None) -> None:
        """The events' private side: the hands they change (not `actor`'s) and the turn mention."""
        async with shown.showing:
            hands = await self._note_events(table, shown, events)
            for seat in sorted(hands):
                user_id = table.record.seats[seat].user_id
                if user_id is not None and user_id != actor:
                    await self._guard(table, self.send_hand(table, seat))
            await self._guard(table, self._ping_turn(table, shown))

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

    async def _refresh_other_hands(self, table: Table) -> None:
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

    async def _note_events(self, table: Table, shown: Shown, events: list[TableEvent]) -> set[int]:
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
                shown.moves.extend(line for line in event_lines(event, -1, names, _) if line.strip("─ "))
            clock = event.clock if isinstance(event, Resumed) else event
            if isinstance(clock, Deadline) and clock.deadline:
                shown.deadline = (clock.seat, float(clock.deadline))
                if clock.seat is not None:
                    hands.add(clock.seat)
            if isinstance(event, Dealt):
                hands.update(self._seats_in_deal(table))
            elif isinstance(event, _SEAT_CHANGES):
                hands.add(event.seat)
            elif isinstance(event, Reshuffled):
                shown.moves.append(
                    _("New closed deck committed: {commitment}", commitment=f"`{event.commitment}`")
                )
            elif isinstance(event, DealOver):
                hands.update(seat for seat, _ in enumerate(table.record.seats))
                await self._guard(table, self._post_result(table))
            elif isinstance(event, Damaged):  # said once: the service sends it once
                notice = "⚠️ " + _("**This table is set aside.** {why}", why=damaged_words(table, _))
                await self._guard(table, self.say(table, notice))
        return hands

    def _seats_in_deal(self, table: Table) -> list[int]:
        deal = table.match.deal if table.match else None
        if deal is None:
            return []
        return [seat for seat, state in enumerate(deal.seats) if state.status is not SeatStatus.SITTING_OUT]

    async def _guard(self, table: Table, step: Awaitable[Any]) -> None:
        """One failed Discord call (a missing permission, an outage) must not stop the rest of
        what the table shows; a deleted channel closes its table."""
        try:
            await step
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                await self._channel_gone(table)
            else:
                log.warning("table %s: %s", table.id, error)
        except discord.HTTPException as error:
            log.warning("table %s: Discord refused a message: %s", table.id, error)

    async def _channel_gone(self, table: Table) -> None:
        log.warning("table %s: its channel is gone; closing the table", table.id)
        with contextlib.suppress(RummyError):
            await self.bot.service.cancel(table.record.channel_id, table.record.host_id, can_manage=True)

    # ----------------------------------------------------------------- hands

    async def send_hand(self, table: Table, seat: int) -> None:
        """Edits the player's hand DM in place, or sends one; a refused DM is remembered and the
        player is told in the channel to use `/rummy hand`."""
        user_id = table.record.seats[seat].user_id
        now = self.bot.service.clock.now()
        if user_id is None or now - self.dm_refused.get(user_id, -DM_RETRY) < DM_RETRY:
            return
        settings = await self.bot.preferences.user(user_id)
        _ = await self.bot.readers.user(user_id, table.record.guild_id)
        message = await build_hand_message(
            table,
            seat,
            self.layout(table.id, user_id),
            self.deadline_for(table.id, seat),
            settings.four_colour,
            _,
        )
        shown = self.shown(table.id)
        hands = shown.hands
        existing = hands.get(user_id)
        before = shown.hand_looks.pop(user_id, None)
        if message is None:  # the deal is over: the old controls must not look live
            if existing is not None:
                with contextlib.suppress(discord.NotFound):
                    await existing.edit(
                        content=_("This deal is over: see the result in the channel."), view=None
                    )
            return
        looks = message.looks()
        try:
            if existing is not None:
                with contextlib.suppress(discord.NotFound):
                    # Nothing is sent when nothing the player sees would change, and the picture
                    # is drawn and sent again only when the hand it shows changed.
                    if before is not None and before[1] == looks[1]:
                        if before != looks:
                            await existing.edit(content=message.content, view=message.view)
                    else:
                        attachments = [await message.file()]
                        await existing.edit(
                            content=message.content, attachments=attachments, view=message.view
                        )
                    shown.hand_looks[user_id] = looks
                    return
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            view = message.view or discord.utils.MISSING
            sent = await user.send(content=message.content, file=await message.file(), view=view)
            hands[user_id] = sent
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
            )

    async def redraw_hands(self, user_id: int) -> None:
        """The player's hand DMs drawn again at every table they sit at (their deck changed)."""
        for table in self.bot.service.tables():
            seat = table.seat_of(user_id)
            if seat is not None:
                await self._guard(table, self.send_hand(table, seat))

    async def _ping_turn(self, table: Table, shown: Shown) -> None:
        """A mention when a person's turn starts; the previous one is deleted, so the channel
        has one live mention at most (stored, so a restart deletes it too), and none while it
        is nobody's turn (between deals, once the match is over). Called under the table's
        `showing` lock: two publishes never replace one mention twice."""
        match = table.match
        live = table.record.status.active and match is not None and match.phase is MatchPhase.PLAYING
        deal = match.deal if live and match is not None else None
        token = table.turn_token() if deal is not None else None
        if shown.ping is not None and shown.ping_token == token and token is not None:
            return
        if shown.ping is not None:
            previous, shown.ping = shown.ping, None
            with contextlib.suppress(discord.HTTPException):
                await previous.delete()
            await self.forget(f"table:{table.id}:ping")
        user_id = table.record.seats[deal.turn].user_id if deal is not None else None
        if deal is None or user_id is None:
            return
        deadline = shown.deadline_for(deal.turn)
        _ = await self.bot.readers.channel(table.record.guild_id)
        user = f"<@{user_id}>"
        turn = (
            _("{user}, your turn (ends {when}).", user=user, when=f"<t:{int(deadline)}:R>")
            if deadline
            else _("{user}, your turn.", user=user)
        )
        hint = _("Use `/rummy hand`.") if user_id in self.dm_refused else _("Your hand is in your DMs.")
        sent = await self.say(table, f"{turn} {hint}")
        if sent is not None:
            shown.ping, shown.ping_token = sent, token
            await self.remember(f"table:{table.id}:ping", sent.channel.id, sent.id)

    # ----------------------------------------------------------------- the table message

    def schedule_table_refresh(self, table_id: int, *, at_once: bool = False) -> None:
        """Marks the table message out of date; one task per table edits it until it is current,
        so a burst of moves becomes one edit and a move during an edit is never lost. `at_once`:
        no burst to wait for (a restart's), if no edit is under way already."""
        shown = self.shown(table_id)
        shown.dirty = True
        if shown.refresh is None or shown.refresh.done():
            wait = 0.0 if at_once else self.edit_delay
            shown.refresh = asyncio.get_running_loop().create_task(self._refresh_loop(table_id, shown, wait))

    async def _refresh_loop(self, table_id: int, shown: Shown, wait: float) -> None:
        table = None
        while shown.dirty:
            if wait:
                await asyncio.sleep(wait)
            wait = self.edit_delay
            shown.dirty = False
            table = self.table(table_id)
            try:
                if table is not None:
                    await self._guard(table, self.refresh_table(table_id))
            except Exception:
                log.exception("table %s: could not update the table message", table_id)
        if table is not None and not table.record.status.active:
            await self._forget(table_id)

    def busy(self) -> bool:
        return any(s.refresh is not None and not s.refresh.done() for s in self._shown.values())

    async def flush(self) -> None:
        """Waits for pending table edits (tests, and before shutting down)."""
        while pending := [
            s.refresh for s in self._shown.values() if s.refresh is not None and not s.refresh.done()
        ]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def refresh_table(self, table_id: int, repost: bool = False) -> None:
        table = self.table(table_id)
        if table is None:
            return
        content, files, view = await self.table_message_parts(table)
        message = self.shown(table_id).message
        if message is not None and not repost:
            try:
                await message.edit(content=content, attachments=files, view=view)
                return
            except discord.NotFound:
                pass
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        sent = await channel.send(content=content, files=files, view=view or discord.utils.MISSING)
        await self.adopt_table_message(table_id, channel.id, sent.id)

    async def table_message_parts(
        self, table: Table
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:
        record = table.record
        match = table.match
        shown = self.shown(table.id)
        _ = await self.bot.readers.channel(record.guild_id)
        if table.damage is not None:
            state = damaged_words(table, _) if record.status.active else _("*This table is closed.*")
            return _("**This table is set aside.** {why}", why=state), [], None
        spec = Format(record.format).spec
        rules = _("Rules: {rules}", rules=rules_line(spec, table.rules, _))
        if match is None:
            seats = "\n".join(f"{i + 1}. {seat.name}" for i, seat in enumerate(record.seats))
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
                return content + "\n" + _("*This table is closed.*"), [], None
            return content, [], lobby_view(table.id, _)
        names = [seat.name for seat in record.seats]
        png = await asyncio.to_thread(render_table, table_scene(match, names, _=_))
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
            lines.append(_("Shuffle commitment: {commitment}", commitment=f"`{deal.commitment}`"))
        else:
            deadline = shown.deadline_for(None)
            if deadline:
                lines.append(_("The next deal starts {when}.", when=f"<t:{int(deadline)}:R>"))
            else:
                lines.append(_("The next deal starts soon."))
        if shown.moves:
            lines.append("\n".join(f"› {line}" for line in shown.moves))
        return "\n".join(lines), [discord.File(io.BytesIO(png), filename="table.png")], None

    # ----------------------------------------------------------------- results

    async def _post_result(self, table: Table) -> None:
        """The deal's result picture, with the shuffle reveal anyone can check against the
        commitment published when the deal started; at the end of a match, the standings too."""
        match = table.match
        if match is None or not match.finished_deals:
            return
        names = [seat.name for seat in table.record.seats]
        _ = await self.bot.readers.channel(table.record.guild_id)
        png = await asyncio.to_thread(render_result, result_scene(match, names, _=_))
        record = match.finished_deals[-1]
        deal = Deal.from_json(record)
        reveal = [
            _(
                "**Deal {number} result.** Shuffle reveal (check with `/rummy verify`):",
                number=len(match.finished_deals),
            ),
            _(
                "commitment {commitment} · salt {salt}",
                commitment=f"`{deal.commitment}`",
                salt=f"`{deal.salt}`",
            ),
            _("order: {order}", order=f"`{format_cards(deal.shoe)}`"),
        ]
        reveal += [
            _("reshuffle {number} order: {order}", number=n, order=f"`{format_cards(order)}`")
            for n, order in enumerate(deal.reshuffles, start=1)
        ]
        files = [discord.File(io.BytesIO(png), filename="result.png")]
        if match.phase is MatchPhase.OVER:
            if match.winner is not None:
                over = _("🏆 **The match is over: {winner} wins.**", winner=names[match.winner])
            else:
                over = _("🏆 **The match is over: a shared pool.**")
            reveal.insert(0, over)
            scene = standings_scene(match, names, _)
            standings = await asyncio.to_thread(render_standings, scene)
            files.append(discord.File(io.BytesIO(standings), filename="standings.png"))
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        chunks = message_chunks(reveal)
        await channel.send(content=chunks[0], files=files)
        for chunk in chunks[1:]:
            await channel.send(content=chunk)

    async def say(self, table: Table, text: str) -> discord.Message | None:
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        try:
            return await channel.send(text)
        except discord.NotFound:
            return None


def _urgency(event: TableEvent) -> float:
    """A resumed table's place in the queue: its deadline (the clock's grace after a restart),
    so the player whose time runs out first sees their turn first; a table with none, last."""
    clock = event.event.clock if isinstance(event.event, Resumed) else None
    return clock.deadline if clock is not None and clock.deadline is not None else math.inf


# Events after which their seat's hand message changes: every move, whatever path it came by
# (a button in the DM is shown by its own interaction, and its player is left out as `actor`).
_SEAT_CHANGES = (Picked, Discarded, MissedTurn, Dropped, Left, WrongShow, Turn)


def damaged_words(table: Table, _: Words = EN) -> str:
    """Why a table set aside cannot go on, and who can close it: at a league table a member with
    Manage Server only (the league seats and ends its tables, so its host is refused)."""
    why = _("Its saved game is damaged, so it cannot go on; it is kept as it was for an admin to look at.")
    if table.record.league_id is not None:
        return why + " " + _("A member with Manage Server can close it with `/rummy cancel`.")
    return why + " " + _("The host or a member with Manage Server can close it with `/rummy cancel`.")


def message_chunks(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines packed into messages under Discord's length limit, never splitting a line."""
    chunks: list[str] = [""]
    for line in lines:
        if chunks[-1] and len(chunks[-1]) + 1 + len(line) > limit:
            chunks.append("")
        chunks[-1] = f"{chunks[-1]}\n{line}" if chunks[-1] else line[:limit]
    return chunks
