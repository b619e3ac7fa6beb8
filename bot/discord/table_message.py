"""The table message: one per table, in its channel, edited in place as the table plays (its
words, its picture, its controls), a burst of moves becoming one edit. Its requests leave
through the outbox."""

from __future__ import annotations

import asyncio
import functools
import io
import itertools
import logging
import statistics
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord import limits
from bot.discord.components import behind_view, lobby_view, with_open_button
from bot.discord.outbox import Outbox
from bot.discord.safe_text import seat_names
from bot.discord.shown import Shown
from bot.engine.match import MatchPhase
from bot.i18n import EN, Words
from bot.present.game_words import format_title
from bot.present.rules_options import rules_line
from bot.present.rules_text import wild_words
from bot.present.scene_builders import table_scene
from bot.present.shuffle_proof import seal_line
from bot.service.views import TableView
from render import render_table, table_alt
from render.scenes import TableScene

log = logging.getLogger(__name__)
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
LAGS_KEPT = 10_000  # the latest table edits' lags kept (`lags`)
# When the latest BEHIND_OF table edits were SAY_BEHIND_AFTER seconds behind their tables or more
# (a median: with many busy tables each message waits long for its turn within Discord's
# global limit), a table message says so, and that the players' hand DMs are current.
BEHIND_OF = 50
SAY_BEHIND_AFTER = 10.0


class TableMessages:
    def __init__(
        self,
        outbox: Outbox,
        *,
        mention: Callable[[TableView, Shown], Awaitable[bool]],
        closed: Callable[[TableView], Awaitable[None]],
        edit_delay: float = 0.8,
    ) -> None:
        """`mention`: brings the table's turn mention up to date with each edit (False: it failed
        for a passing reason, see `Outbox.guard`); `closed`: lets go of a closed table once its
        last edit is done."""
        self.outbox = outbox
        self.bot = outbox.bot
        self.mention = mention
        self.closed = closed
        self.edit_delay = edit_delay  # bursts of moves become one table edit (rate limits)
        self._refreshing: set[int] = set()  # the tables whose message a refresh task is editing
        self._lags: deque[float] = deque(maxlen=LAGS_KEPT)  # seconds from a change to its edit

    def lags(self) -> list[float]:
        """How stale the latest table messages were when edited: seconds from the first change
        not yet shown to the edit that showed it (`benchmarks/bot.py` prints them)."""
        return list(self._lags)

    def behind(self) -> float:
        """How far table messages have lately run behind their tables (the median of the last
        `BEHIND_OF` edits), in seconds."""
        latest = list(itertools.islice(reversed(self._lags), BEHIND_OF))
        return statistics.median(latest) if latest else 0.0

    def table_message_id(self, table_id: int) -> int | None:
        """The message that shows the table now (None: none known)."""
        shown = self.outbox.known(table_id)
        return shown.message.id if shown is not None and shown.message is not None else None

    async def adopt_table_message(self, table_id: int, channel_id: int, message_id: int) -> None:
        """The message that shows this table from now on (the lobby a command posted, say)."""
        channel = self.bot.get_partial_messageable(channel_id)
        self.outbox.shown(table_id).message = channel.get_partial_message(message_id)
        await self.outbox.remember(f"table:{table_id}", channel_id, message_id)

    def schedule_table_refresh(self, table_id: int, *, at_once: bool = False) -> None:
        """Marks the table message out of date; one task per table edits it until it is current,
        so a burst of moves becomes one edit and a move during an edit is never lost. `at_once`:
        no burst to wait for (a restart's), if no edit is under way already."""
        shown = self.outbox.shown(table_id)
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
        shown = self.outbox.known(table_id)
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
        failures = 0  # edits running that Discord did not take (an outage): tried again, later
        while shown.dirty or shown.picture_behind:
            if not shown.dirty:  # only the picture is behind: edit when it is due
                wait = max(wait, shown.picture_due - loop.time())
            if wait > 0:
                await asyncio.sleep(wait)
            wait = self.edit_interval()
            await self.outbox.spend_in_channel(shown, urgent=False)
            table = self.outbox.table(table_id)
            # a press on the message may have shown it meanwhile (`show_table_through`)
            shown_by_press = not (shown.dirty or shown.picture_behind)
            if shown.dirty:
                self._lags.append(loop.time() - shown.dirty_since)
            shown.dirty = False
            done = True
            try:
                if table is not None:
                    done = await self.mention(table, shown)
                    if not shown_by_press:
                        done = await self.outbox.guard(table, self._show_table(table)) and done
            except Exception:
                log.exception("table %s: could not update the table message", table_id)
            if not done and not self.bot.closing:  # (a restart shows the table again)
                failures += 1
                shown.dirty = True  # the next try reads the state anew: never an older one
                await self.outbox.wait_to_retry(failures)
                wait = 0.0
            else:
                failures = 0
            if table is None or not table.status.active:
                shown.picture_behind = False  # a closed table's last edit drew it
        if table is not None and not table.status.active and shown.closed:
            await self.closed(table)

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
        return any(s.refresh is not None and not s.refresh.done() for s in self.outbox.every())

    async def flush(self) -> None:
        """Waits for pending table edits (tests, and before shutting down)."""
        while pending := [
            s.refresh for s in self.outbox.every() if s.refresh is not None and not s.refresh.done()
        ]:
            await asyncio.gather(*pending, return_exceptions=True)

    def claim_repost(self, table_id: int, every: float) -> asyncio.Future[int | None] | None:
        """Whether `/rummy table` may post the table message again: at most once per table (a
        channel holds one) in `every` seconds, so that a flood of commands posts it once. None: it
        may, and this is its time; else the repost made within that time, whose result is the
        fresh message's id once it is posted (`refresh_table`)."""
        shown = self.outbox.shown(table_id)
        now = self.bot.service.clock.now()
        if shown.reposted is not None and now < shown.reposted_at + every:
            return shown.reposted
        shown.reposted_at, shown.reposted = now, asyncio.get_running_loop().create_future()
        return None

    async def refresh_table(self, table_id: int, repost: bool = False) -> None:
        """The table message brought up to date now, outside its refresh loop (`/rummy table`
        posts it again below the chat with `repost`, after `claim_repost`)."""
        table = self.outbox.table(table_id)
        if table is None:
            return
        try:
            await self.outbox.spend_in_channel(self.outbox.known(table_id), urgent=True)
            await self._show_table(table, repost)
        finally:
            reposted = self.outbox.shown(table_id).reposted
            if repost and reposted is not None and not reposted.done():
                reposted.set_result(self.table_message_id(table_id))

    async def _show_table(self, table: TableView, repost: bool = False) -> None:
        """Edits the table message (one request, already spent), or posts it anew if it is gone.
        The picture is drawn only if what it shows changed and it is due (`picture_interval`),
        or the message is posted anew; else the edit keeps the picture it has."""
        shown = self.outbox.shown(table.id)
        async with shown.editing:
            await self._edit_table(table, shown, repost)

    async def _edit_table(self, table: TableView, shown: Shown, repost: bool) -> None:
        message = shown.message if not repost else None
        now = asyncio.get_running_loop().time()
        scene = await self.picture_scene(table)
        changed = not shown.picture_known or scene != shown.picture_scene
        draw = changed and (message is None or not table.status.active or now >= shown.picture_due)
        content, files, view = await self.table_message_parts(table, scene if draw else None)
        if message is not None:
            try:
                await message.edit(content=content, attachments=_pictured(files, draw), view=view)
                self._drawn(shown, scene, draw, now)
                return
            except discord.NotFound:
                await self.outbox.spend_in_channel(shown, urgent=True)
            if not draw:  # posted anew: with its picture
                content, files, view = await self.table_message_parts(table, scene)
                draw = True
        channel = self.outbox.channel(table.channel_id)
        sent = await channel.send(content=content, files=files, view=view or discord.utils.MISSING)
        self._drawn(shown, scene, draw, now)
        await self.adopt_table_message(table.id, channel.id, sent.id)

    async def show_table_through(self, table: TableView, press: discord.Interaction[Any]) -> bool:
        """The table message brought up to date by a press on it (already deferred), through the
        press, outside Discord's global limit and the request budget: anyone watching the
        channel of a busy bot sees the table as it is now, picture included, whatever the
        table edits' turn in the budget. False if the press is on an older table message."""
        shown = self.outbox.known(table.id)
        if shown is None or press.message is None:
            return False
        async with shown.editing:  # (a repost may have taken the message's place meanwhile)
            if shown.message is None or press.message.id != shown.message.id:
                return False
            shown.dirty = False  # a move from now on is shown by the next edit
            # read anew: a move saved while the press was deferred is shown, never the older state
            table = self.outbox.table(table.id) or table
            try:
                now = asyncio.get_running_loop().time()
                scene = await self.picture_scene(table)
                draw = not shown.picture_known or scene != shown.picture_scene
                content, files, view = await self.table_message_parts(table, scene if draw else None)
                self.outbox.check()
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

    async def picture_scene(self, table: TableView) -> TableScene | None:
        """What the table message's picture shows, in the channel's language (None: it has none,
        a lobby or a damaged table)."""
        if table.damage is not None or table.match is None:
            return None
        _ = await self.bot.readers.channel(table.guild_id)
        return table_scene(table.match, [seat.name for seat in table.seats], _=_)

    async def table_message_parts(
        self, table: TableView, scene: TableScene | None = None
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """The table message's words, its picture of `scene` (none without it) and controls."""
        match = table.match
        shown = self.outbox.shown(table.id)
        _ = await self.bot.readers.channel(table.guild_id)
        if table.damage is not None:
            state = damaged_words(table, _) if table.status.active else _("*This table is closed.*")
            return _("**This table is set aside.** {why}", why=state), [], None
        spec = table.spec
        rules = _("Rules: {rules} · all of them: `/rummy rules`", rules=rules_line(spec, table.rules, _))
        if match is None:
            seats = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(seat_names(table.seats)))
            heading = _(
                "**{format}** · lobby · {seated}/{seats} seated · host {host}",
                format=format_title(spec, _),
                seated=len(table.seats),
                seats=table.max_seats,
                host=f"<@{table.host_id}>",
            )
            invite = _("Join, add computer players, then the host starts (and may change the rules first).")
            content = f"{heading}\n{rules}\n{seats}\n{invite}"
            if not table.status.active:
                return limits.message(content + "\n" + _("*This table is closed.*")), [], None
            return limits.message(content), [], lobby_view(table.id, _)
        names = seat_names(table.seats)
        number = len(match.finished_deals) + (1 if match.deal else 0)
        lines = [_("**{format}** · deal {number}", format=format_title(match.spec, _), number=number), rules]
        if match.phase is MatchPhase.OVER:
            lines.append(_("**The match is over.**"))
        elif not table.status.active:
            lines.append(_("**This table was cancelled.**"))
        elif match.deal is not None:
            deal = match.deal
            seat = deal.turn
            deadline = shown.deadline_for(seat)
            user_id = table.seats[seat].user_id
            who = f"<@{user_id}>" if user_id else names[seat]
            wild = wild_words(deal.wild_rank, _)
            if deadline:
                lines.append(
                    _("Turn: {who}, ends {when} · {wild}", who=who, when=f"<t:{int(deadline)}:R>", wild=wild)
                )
            else:
                lines.append(_("Turn: {who} · {wild}", who=who, wild=wild))
            if match.commitment is not None:  # always, with a deal in progress
                lines.append(seal_line(match.commitment, _))
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
        if match.deal is not None and table.status.active and behind >= SAY_BEHIND_AFTER:
            lines.append(
                _(
                    "*The bot is busy: this message runs about {seconds} s behind the table. "
                    "Each player's hand DM is current.*",
                    seconds=round(behind),
                )
            )
            view = behind_view(table.id, _)  # a press shows it now (`show_table_through`)
        if self.bot.activity_server is not None and table.status.active:  # the Activity is served
            view = with_open_button(view, table.id, _)
        content = limits.message("\n".join(lines))
        if scene is None:
            return content, [], view
        png = await self.bot.pictures.draw(render_table, scene)
        picture = discord.File(io.BytesIO(png), filename="table.png", description=table_alt(scene))
        return content, [picture], view


def _pictured(files: list[discord.File], drawn: bool) -> list[discord.File]:
    """An edit's attachments: the picture drawn for it, else none given, so the one the message
    has stays (`MISSING` leaves a message's attachments as they are)."""
    return files if drawn else discord.utils.MISSING


def damaged_words(table: TableView, _: Words = EN) -> str:
    """Why a table set aside cannot go on, and who can close it: at a league table a member with
    Manage Server only (the league seats and ends its tables, so its host is refused)."""
    why = _("Its saved game is damaged, so it cannot go on; it is kept as it was for an admin to look at.")
    if table.league_id is not None:
        return why + " " + _("A member with Manage Server can close it with `/rummy cancel`.")
    return why + " " + _("The host or a member with Manage Server can close it with `/rummy cancel`.")
