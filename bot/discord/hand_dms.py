"""Each player's hand by DM: edited in place (through their last press in it while its token
lasts), sent anew where none is known, and, where Discord refuses DMs, a pointer to `/rummy
hand` in the channel. A hand DM is only ever built from its own seat's view
(`TableService.hand`). Its requests leave through the outbox."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.hands import HandLooks, HandMessage, build_hand_message
from bot.discord.outbox import Outbox
from bot.discord.safe_text import seat_names
from bot.discord.shown import Posted, Shown, move_lines
from bot.i18n import Words
from bot.present.hand_layout import HandLayout
from bot.service.views import TableView

Interaction = discord.Interaction[Any]

DM_REFUSED = 50007
DM_REFUSAL_MEMORY = 24 * 3600.0  # how long a stored refusal is believed after a restart
DM_RETRY = 15 * 60.0  # a refused player's hand is tried by DM again after this (people open their DMs)
# A press's token lets the bot edit the pressed message for 15 minutes; a little less, to be safe.
PRESS_EDITS_FOR = 14 * 60.0


class HandDMs:
    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.bot = outbox.bot
        self.dm_refused: dict[int, float] = {}  # user -> when Discord last refused them a DM
        # user -> their DM channel's id: a new hand DM is then one request, where discord.py may
        # need two more (the user, whom it keeps only while referenced, and the DM channel, of
        # which it keeps the latest 128)
        self.dm_channels: dict[int, int] = {}

    def refuses_dms(self, user_id: int) -> bool:
        return user_id in self.dm_refused

    def shown_by_press(
        self, table_id: int, user_id: int, looks: HandLooks | None, press: Interaction | None = None
    ) -> None:
        """The player's hand DM was edited through `press`, a press in it, to `looks` (None: to
        something else, or not known), so the next edit compares with that: a picture the press
        already sent is not drawn and sent again. The press is kept: until its token expires,
        the DM is edited through it, which Discord does not count against the bot's global
        limit. Called under the table's `showing` lock, as the other edits of the DM are, so
        what is noted is what the DM shows."""
        shown = self.outbox.shown(table_id)
        if looks is None:
            shown.hand_looks.pop(user_id, None)
        else:
            shown.hand_looks[user_id] = looks
        if press is not None:
            shown.presses[user_id] = (press, asyncio.get_running_loop().time() + PRESS_EDITS_FOR)
            shown.watched[user_id] = self.bot.service.clock.now()

    def layout(self, table_id: int, user_id: int) -> HandLayout:
        return self.outbox.shown(table_id).layout(user_id)

    def hand_message_id(self, table_id: int, user_id: int) -> int | None:
        shown = self.outbox.known(table_id)
        message = shown.hands.get(user_id) if shown is not None else None
        return message.id if message is not None else None

    async def send_hand(self, table: TableView, seat: int) -> None:
        """Edits the player's hand DM in place, or sends one; a refused DM is remembered and the
        player is told in the channel to use `/rummy hand`. Nothing is sent when nothing the
        player sees would change, and the picture is drawn and sent again only when the hand it
        shows changed: a move by someone else is a text-only edit."""
        user_id = table.seats[seat].user_id
        now = self.bot.service.clock.now()
        if user_id is None or now - self.dm_refused.get(user_id, -DM_RETRY) < DM_RETRY:
            return
        message = await self.hand_message(table.id, user_id)
        shown = self.outbox.shown(table.id)
        existing = shown.hands.get(user_id)
        before = shown.hand_looks.pop(user_id, None)
        if message is None:  # the deal is over: the old controls must not look live
            if existing is not None:
                _ = await self.bot.readers.user(user_id, table.guild_id)
                over = closed_out_words(table, _)
                press = self._live_press(shown, user_id)
                if press is not None:
                    self.outbox.check()
                    with contextlib.suppress(discord.HTTPException):
                        await press.edit_original_response(content=over, view=None)
                        return
                    shown.presses.pop(user_id, None)
                await self.outbox.spend(urgent=True)
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
            await self.outbox.spend(urgent=True)
            sent = await dm.send(content=message.content, file=file, view=view)
            self.dm_channels[user_id] = sent.channel.id
            shown.hands[user_id] = sent
            shown.watched[user_id] = now  # a new DM notifies them
            shown.hand_looks[user_id] = looks
            await self.outbox.remember(f"table:{table.id}:hand:{user_id}", sent.channel.id, sent.id)
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
            here = await self.bot.readers.channel(table.guild_id)
            await self.outbox.say(
                table,
                here(
                    "{user}, I can't send you direct messages (your privacy settings block them). "
                    "Use `/rummy hand` here to see your cards privately.",
                    user=f"<@{user_id}>",
                ),
                ping=user_id,
            )

    def keep_reply(self, table_id: int, user_id: int, edit: Callable[..., Awaitable[object]]) -> None:
        """A private hand reply (`/rummy hand`, or a press in one), edited by `edit` through its
        interaction's token: closed out when its deal ends (`close_replies`), while the token
        can still edit it."""
        until = asyncio.get_running_loop().time() + PRESS_EDITS_FOR
        self.outbox.shown(table_id).hand_replies.setdefault(user_id, []).append((edit, until))

    async def close_replies(self, table: TableView, user_id: int) -> None:
        """The user's private hand replies of the deal that ended say so, with no control left:
        those still within their token's time; the older ones Discord no longer lets the bot
        edit, and each press on them is answered that the deal is over."""
        shown = self.outbox.shown(table.id)
        now = asyncio.get_running_loop().time()
        live = [edit for edit, until in shown.hand_replies.pop(user_id, []) if now < until]
        if not live:
            return
        _ = await self.bot.readers.user(user_id, table.guild_id)
        over = closed_out_words(table, _)
        for edit in live:
            self.outbox.check()  # outside the global limit: the interaction's own token
            with contextlib.suppress(discord.HTTPException):
                await edit(content=over, attachments=[], view=None)

    async def show_hand(self, table: TableView, seat: int) -> None:
        """`send_hand`, guarded by the outbox; a hand DM that Discord did not take for a passing
        reason (an outage) is sent again in the background until it shows the latest hand."""
        user_id = table.seats[seat].user_id
        if not await self.outbox.guard(table, self.send_hand(table, seat)) and user_id is not None:
            shown = self.outbox.shown(table.id)
            if user_id not in shown.hand_retries:
                shown.hand_retries.add(user_id)
                self.bot.in_background(self._send_again(table.id, user_id, shown))

    async def _send_again(self, table_id: int, user_id: int, shown: Shown) -> None:
        """Tries the user's hand DM again, waiting longer after each failure, with the table as
        it is then, until Discord takes it (or the player left, or the bot is stopping)."""
        failures = 1
        try:
            while not self.bot.closing:
                await self.outbox.wait_to_retry(failures)
                table = self.outbox.table(table_id)
                seat = table.seat_of(user_id) if table is not None else None
                if table is None or seat is None:
                    return
                async with shown.showing:
                    if await self.outbox.guard(table, self.send_hand(table, seat)):
                        return
                failures += 1
        finally:
            shown.hand_retries.discard(user_id)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """Where the user's DMs go: the channel known from an earlier DM, else the user's own
        (fetched, and the DM channel opened, each a request, if discord.py does not have it)."""
        known = self.dm_channels.get(user_id)
        if known is not None:
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        user = self.bot.get_user(user_id)
        if user is None:
            await self.outbox.spend(urgent=True)
            user = await self.bot.fetch_user(user_id)
        if user.dm_channel is None:  # opening the DM channel is a request of its own
            await self.outbox.spend(urgent=True)
        return user

    def _live_press(self, shown: Shown, user_id: int) -> Interaction | None:
        """The user's last press in their hand DM, while its token can still edit the DM."""
        press, until = shown.presses.get(user_id, (None, 0.0))
        if press is not None and asyncio.get_running_loop().time() >= until:
            shown.presses.pop(user_id, None)
            return None
        return press

    async def hand_message(self, table_id: int, user_id: int) -> HandMessage | None:
        """The hand DM as `user_id` reads it: their own view of the deal (`TableService.hand`),
        their deck colours, their language (`Readers.user`), built here for the presenter's edits
        and their own presses alike. None when they have no hand to see."""
        hand = await self.bot.service.hand(table_id, user_id)
        table = self.outbox.table(table_id)  # saved with the hand, or later
        if hand is None or table is None:
            return None
        settings = await self.bot.preferences.user(user_id)
        _ = await self.bot.readers.user(user_id, table.guild_id)
        layout = self.layout(table_id, user_id)
        deadline = self.outbox.shown(table_id).deadline_for(hand.seat)
        since = move_lines(self.outbox.shown(table_id).since_turn(hand.seat), seat_names(table.seats), _)
        return await build_hand_message(table, hand, layout, deadline, settings.four_colour, _, since)

    async def _edit_hand(
        self,
        table: TableView,
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
            version = self.outbox.version_now(table.id)
            await self.outbox.spend(urgent=True)
            spent = True
            if self.outbox.version_now(table.id) == version:  # (a pick keeps the turn's token)
                break
            latest = await self.hand_message(table.id, user_id)
            if latest is None:
                return
            message = latest
        attachments = [await message.file(self.bot.pictures)] if redraw else discord.utils.MISSING
        if press is not None:
            self.outbox.check()
            try:
                await press.edit_original_response(
                    content=message.content, attachments=attachments, view=message.view
                )
                shown.hand_looks[user_id] = looks
                return
            except discord.HTTPException:  # the token expired early, or the press is gone
                shown.presses.pop(user_id, None)
                await self.outbox.spend(urgent=True)
        await existing.edit(content=message.content, attachments=attachments, view=message.view)
        shown.hand_looks[user_id] = looks

    async def redraw_hands(self, user_id: int) -> None:
        """The player's hand DMs drawn again at every table they sit at (their deck changed)."""
        for table in self.bot.service.views():
            seat = table.seat_of(user_id)
            if seat is not None:
                await self.show_hand(table, seat)

    async def in_server_language(self, table: TableView) -> None:
        async with self.outbox.shown(table.id).showing:
            for seat, sitter in enumerate(table.seats):
                if sitter.user_id is not None and await self.bot.readers.follows_server(sitter.user_id):
                    await self.show_hand(table, seat)

    async def refresh_other_hands(self, table: TableView) -> None:
        deal = table.match.deal if table.match is not None else None
        shown = self.outbox.shown(table.id)
        async with shown.showing:
            for seat, sitter in enumerate(table.seats):
                if sitter.user_id is not None and (deal is None or seat != deal.turn):
                    await self.show_hand(table, seat)


def closed_out_words(table: TableView, _: Words) -> str:
    """What a hand of a deal that ended says instead: which deal, and who won it (or that the
    table was cancelled, ending it with no winner)."""
    match = table.match
    if match is None or len(match.winners) < match.deal_number:
        return _("This table was cancelled, so this deal is over.")
    return _(
        "Deal {number} is over: {name} won. See the result in the channel.",
        number=match.deal_number,
        name=seat_names(table.seats)[match.winners[-1]],
    )
