"""The turn mention: one message in a table's channel that says whose turn it is, posted anew
when it must notify a new person, edited in place otherwise, held back from a person watching
their hand DM, and deleted (stored first, so a restart finishes the job) when nobody's turn is
left. Its requests leave through the outbox."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.app.config import MENTION_WATCHING_AFTER
from bot.discord.outbox import Outbox
from bot.discord.safe_text import pinging
from bot.discord.shown import Posted, Shown
from bot.engine.deal import SeatView
from bot.engine.match import MatchPhase
from bot.engine.match_view import MatchView
from bot.i18n import N_
from bot.service.views import TableView

log = logging.getLogger(__name__)
WAITING = N_("The computer players are playing.")  # the turn mention while no person is to act
# The stored key of a posted message still to be deleted (an old turn mention): `delete:` its
# server, its id. Remembered before anything else takes its place, forgotten once it is gone, so
# a restart that comes first (a crash, an outage) deletes it: the restart of the process serving
# that server (sharded, each touches its own servers' channels only). Not under its table's key:
# it outlives the table.
TO_DELETE = "delete"


class TurnMentions:
    def __init__(
        self,
        outbox: Outbox,
        refuses_dms: Callable[[int], bool],
        mention_watching_after: float = MENTION_WATCHING_AFTER,
    ) -> None:
        """`refuses_dms`: whether Discord lately refused a user a DM (their mention then points
        to `/rummy hand`). `mention_watching_after`: the share of their turn's clock after which
        a person watching their hand DM is mentioned all the same (see `ping_turn`; 0: at once,
        as anyone else)."""
        self.outbox = outbox
        self.bot = outbox.bot
        self.refuses_dms = refuses_dms
        self.mention_watching_after = mention_watching_after

    async def follow(self, table: TableView, shown: Shown, *, urgent: bool) -> bool:
        """The mention brought up to date with the table, under its `mentioning` lock (False: it
        failed for a passing reason, see `Outbox.guard`)."""
        async with shown.mentioning:
            return await self.outbox.guard(table, self.ping_turn(table, shown, urgent=urgent))

    async def ping_turn(
        self, table: TableView, shown: Shown, *, urgent: bool, hold: bool = True, spent: bool = False
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
        table = self.outbox.table(table.id) or table  # as saved now: it may have played on since
        match = table.match if table.status.active else None
        deal = match.deal if match is not None and match.phase is MatchPhase.PLAYING else None
        if match is None or deal is None:
            if shown.ping is not None:
                await self.retire_mention(table.id, table.guild_id, shown, urgent=True)
            return
        user_id = table.seats[deal.turn].user_id
        if (
            hold
            and user_id is not None
            and shown.ping_user != user_id
            and self._watching(shown, user_id, deal)
        ):
            self._mention_later(table, shown, user_id, match)
            if shown.ping is not None:
                await self.retire_mention(table.id, table.guild_id, shown, urgent=False)
            return
        _ = await self.bot.readers.channel(table.guild_id)
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
            hint = _("Use `/rummy hand`.") if self.refuses_dms(user_id) else _("Your hand is in your DMs.")
            words = f"{turn} {hint}"
        if shown.ping_words == words:
            return
        if not urgent and not spent:
            if not shown.ping_later:
                shown.ping_later = True
                self.bot.in_background(self._ping_turn_later(table, shown))
            return
        if not spent:
            await self.outbox.spend_in_channel(shown, urgent=urgent)
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
        sent = await self.outbox.say(table, words, spent=True, ping=user_id)
        if sent is None:
            return
        shown.ping, shown.ping_words, shown.ping_user = sent, words, user_id
        # The old one is stored to delete before the new one takes its place in the store, and
        # deleted outside the lock: the next move's requests go first.
        doomed = None if old is None else (await self.doom(table.guild_id, old), old)
        await self.outbox.remember(f"table:{table.id}:ping", sent.channel.id, sent.id)
        if doomed is not None:
            self.bot.in_background(self.delete_old_ping(shown, *doomed))

    async def _ping_turn_later(self, table: TableView, shown: Shown) -> None:
        """A change of the mention at the table edits' priority (the computer players are
        playing, say): on a busy bot its request waits long, and the table's next moves must
        not wait behind it for the table's lock."""
        try:
            await self.outbox.spend_in_channel(shown, urgent=False)
        finally:
            shown.ping_later = False
        async with shown.mentioning:
            await self.outbox.guard(table, self.ping_turn(table, shown, urgent=False, spent=True))

    def _watching(self, shown: Shown, user_id: int, deal: SeatView) -> bool:
        """Whether the person pressed in their hand DM, or was sent it, within the table's turn
        clock."""
        watched = shown.watched.get(user_id)
        now = self.bot.service.clock.now()
        return (
            self.mention_watching_after > 0
            and watched is not None
            and now - watched <= deal.rules.turn_seconds
        )

    def _mention_later(self, table: TableView, shown: Shown, user_id: int, match: MatchView) -> None:
        """Once per turn: the mention is posted after `mention_watching_after` of the clock now
        running has gone without a press in their DM (each press puts it off anew,
        `_put_mention_off`), unless the turn passed."""
        turn = table.turn_token
        if shown.mention_turn == turn:
            return
        shown.mention_turn, shown.mention_user = turn, user_id
        self._hold_mention(table.id, shown, match)

    def put_mention_off(self, table_id: int, shown: Shown) -> None:
        """The person held back pressed in their DM: they are there now, but may leave before
        their move is done (a pick, a sort), so the mention waits its share of the clock from
        this press instead; a turn that passed needs none."""
        table = self.outbox.table(table_id)
        match = table.match if table is not None else None
        if (
            table is not None
            and match is not None
            and match.deal is not None
            and table.turn_token == shown.mention_turn
        ):
            if shown.mention_later is not None and not shown.mention_later.done():
                self._hold_mention(table_id, shown, match)
        elif shown.mention_later is not None:
            shown.mention_later.cancel()

    def _hold_mention(self, table_id: int, shown: Shown, match: MatchView) -> None:
        """(Re)starts the wait for the held-back mention of `shown.mention_turn`."""
        if shown.mention_later is not None:
            shown.mention_later.cancel()
        delay = self.mention_watching_after * (match.clock_seconds or 0)
        shown.mention_later = asyncio.get_running_loop().create_task(
            self._mention_if_idle(table_id, shown, shown.mention_turn, delay)
        )

    async def _mention_if_idle(self, table_id: int, shown: Shown, turn: str | None, delay: float) -> None:
        await asyncio.sleep(delay)
        async with shown.mentioning:
            table = self.outbox.table(table_id)
            if table is None or table.turn_token != turn:
                return
            shown.mention_posting = True
            try:
                await self.outbox.guard(table, self.ping_turn(table, shown, urgent=True, hold=False))
            finally:
                shown.mention_posting = False

    async def call_off_mention(self, shown: Shown) -> None:
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
        for shown in list(self.outbox.every()):
            await self.call_off_mention(shown)

    async def retire_closed_pings(self, mentions: list[tuple[int, int, int]]) -> None:
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
            old = self.outbox.channel(channel_id).get_partial_message(message_id)
            key = await self.doom(guild_id, old)
            await self.outbox.forget(f"table:{table_id}")
            await self.delete_old_ping(None, key, old)

    async def retire_mention(self, table_id: int, guild_id: int, shown: Shown, *, urgent: bool) -> None:
        """The turn mention goes: stored to delete before it is forgotten as the table's, so that
        a restart that comes first deletes it; deleted now if `urgent`, else in the background
        at the lower priority."""
        old, shown.ping, shown.ping_words, shown.ping_user = shown.ping, None, None, None
        if old is None:
            return
        key = await self.doom(guild_id, old)
        await self.outbox.forget(f"table:{table_id}:ping")
        if urgent:
            await self.delete_old_ping(shown, key, old, urgent=True)
        else:
            self.bot.in_background(self.delete_old_ping(shown, key, old))

    async def doom(self, guild_id: int, message: Posted) -> str:
        """Stores a message of `guild_id`'s as one to delete (see `TO_DELETE`); its key."""
        key = f"{TO_DELETE}:{guild_id}:{message.id}"
        await self.outbox.remember(key, message.channel.id, message.id)
        return key

    async def delete_old_ping(
        self, shown: Shown | None, key: str, old: Posted, *, urgent: bool = False
    ) -> None:
        """Deletes a turn mention that is no longer current (stored under `key`, see
        `TO_DELETE`), and then forgets it; after a failure of Discord's own (an outage) it is
        kept, for the next restart to try again."""
        await self.outbox.spend_in_channel(shown, urgent=urgent)
        try:
            await old.delete()
        except discord.DiscordServerError as error:
            log.warning("could not delete the old turn mention %s: %s", old.id, error)
            return
        except discord.HTTPException:  # gone already, or never to be deleted (its channel is)
            pass
        await self.outbox.forget(key)
