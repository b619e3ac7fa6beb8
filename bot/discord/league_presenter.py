"""League events as Discord: a scheduled event and an announcement per night, reminders, a thread
per table with its check-in, results, and the standings picture when a night ends.

The league service decides; this only shows. A Discord call that fails (the bot lacks Manage
Events or Create Public Threads, a message was deleted) is logged and, where members would
otherwise wonder, said in the league channel: it never stops the night.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import league_text as text
from bot.discord import limits
from bot.discord.league_components import league_view
from bot.discord.safe_text import escaped, pinging
from bot.i18n import N_, Words
from bot.leagues import Night, NightStatus, NightTable
from bot.present.game_words import format_title
from bot.present.scene_builders import league_standings_scene
from bot.service import TableEvent
from bot.service.league_events import (
    Adjusted,
    CheckedIn,
    CheckIn,
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
)
from render import render_standings, standings_alt

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

log = logging.getLogger(__name__)
NO_EVENTS = N_("I could not publish the Discord event for {title} (I need the Manage Events permission).")
NO_THREADS = N_(
    "I could not open a thread for {title}, table {number} (I need the Create Public Threads "
    "permission). I keep trying: the table checks in as soon as its thread opens."
)

NOT_TEXT = N_(
    "I cannot open table threads in <#{channel}>: it is no longer a text channel. An admin can make "
    "it one again; the tables check in as soon as their threads open."
)


class LeaguePresenter:
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        # table channel -> its check-in message (stored as checkin:<channel>, so a restart edits it)
        self.check_ins: dict[int, discord.PartialMessage | discord.Message] = {}
        # Tables whose thread Discord refused: the service tries again on every pass (so the night
        # goes on once the permission is given); the channel is told once, not every pass.
        self.refused_threads: set[tuple[int, int, int, int]] = set()

    # ----------------------------------------------------------------- events in

    async def publish(self, events: list[LeagueEvent | TableEvent]) -> None:
        """Table events go to the table presenter (which hands them on to the league service);
        league events are shown here, each on its own so one failure hides nothing else."""
        tables = [event for event in events if isinstance(event, TableEvent)]
        if tables:
            await self.bot.presenter.publish(tables)
        for event in events:
            if isinstance(event, TableEvent):
                continue
            try:
                # A league set aside or deleted has no record to show it by.
                if isinstance(event, LeagueDamaged):
                    _ = await self.bot.readers.channel(event.guild_id)
                    await self.say(event.channel_id, text.damaged(event.name, _))
                elif isinstance(event, LeagueDeleted):
                    await self._cancel_events(event.guild_id, list(event.event_ids))
                    _ = await self.bot.readers.channel(event.guild_id)
                    await self.say(event.channel_id, text.deleted(event.name, _))
                else:
                    await self._show(self.record(event.guild_id, event.league_id), event)
            except discord.HTTPException as error:
                log.warning("league %s: Discord refused %s: %s", event.league_id, event.kind, error)
            except Exception:
                log.exception("league %s: could not show %s", event.league_id, event.kind)

    async def words(self, record: LeagueRecord) -> Words:
        """The league's posts are channel posts: in its server's language."""
        return await self.bot.readers.channel(record.league.guild_id)

    def record(self, guild_id: int, league_id: int) -> LeagueRecord:
        return next(r for r in self.bot.leagues.leagues(guild_id) if r.id == league_id)

    @staticmethod
    def night(record: LeagueRecord, number: int | None) -> Night:
        """The event's night: night numbers count within a season, and events name the latest."""
        season = record.league.seasons[-1]
        return season.night(number) if number is not None else season.nights[-1]

    # ----------------------------------------------------------------- where things go

    async def say(
        self, channel_id: int | None, content: str, *, ping: Iterable[int] = (), **extra: Any
    ) -> discord.Message | None:
        """Posts in a league's channel or thread, pinging the members `ping` only."""
        if channel_id is None:
            return None
        channel = self.bot.get_partial_messageable(channel_id)
        return await channel.send(limits.message(content), allowed_mentions=pinging(ping), **extra)

    async def _guild(self, guild_id: int) -> discord.Guild:
        return self.bot.get_guild(guild_id) or await self.bot.fetch_guild(guild_id)

    async def _scheduled_event(self, record: LeagueRecord, night: Night) -> discord.ScheduledEvent | None:
        if night.event_id is None:
            return None
        guild = await self._guild(record.league.guild_id)
        try:
            return await guild.fetch_scheduled_event(night.event_id)
        except discord.NotFound:
            return None

    async def _cancel_events(self, guild_id: int, event_ids: list[int]) -> None:
        """Cancels a deleted league's scheduled events (one already gone or over is left be)."""
        if not event_ids:
            return
        guild = await self._guild(guild_id)
        for event_id in event_ids:
            try:
                event = await guild.fetch_scheduled_event(event_id)
                await event.cancel()
            except (discord.NotFound, ValueError):
                continue

    async def _change_event(
        self, record: LeagueRecord, night: Night, change: Callable[[discord.ScheduledEvent], Awaitable[Any]]
    ) -> None:
        """Edits the night's scheduled event; one whose status no longer allows it is left alone."""
        event = await self._scheduled_event(record, night)
        if event is None:
            return
        try:
            await change(event)
        except ValueError as error:  # discord.py refuses a status change the event's status forbids
            log.info("league %s night %s: event left as it is: %s", record.id, night.number, error)

    async def _edit_announcement(self, record: LeagueRecord, night: Night) -> None:
        message_id = record.announcement.get(night.number)
        if message_id is None or record.league.channel_id is None:
            return
        channel = self.bot.get_partial_messageable(record.league.channel_id)
        view = self._announcement_view(record, night, await self.words(record))
        await channel.get_partial_message(message_id).edit(
            content=text.announcement(record.league, night, await self.words(record)),
            view=view,
            allowed_mentions=pinging(night.signups),  # an edit notifies nobody: its mentions stay live
        )

    async def _location(self, channel_id: int | None) -> str:
        """A scheduled event's location is plain text on Discord (a `<#id>` mention shows raw), so
        it names the channel; its description still links it."""
        if channel_id is None:
            return "this server"
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        return limits.event_location(f"#{getattr(channel, 'name', channel_id)}")

    @staticmethod
    def _announcement_view(record: LeagueRecord, night: Night, _: Words) -> discord.ui.View | None:
        if night.status in (NightStatus.SCHEDULED, NightStatus.SIGNUP, NightStatus.POSTPONED):
            return league_view(record.id, night.number, "join", "leave", _=_)
        return None

    # ----------------------------------------------------------------- the night before it starts

    async def _night_open(self, record: LeagueRecord, event: LeagueEvent) -> None:
        """Publishes the night: the scheduled event, then the announcement, each id reported to
        the service as soon as it exists (each step on its own, so one failing loses nothing of
        the other). A night changed meanwhile comes back as a NIGHT_CHANGED, shown at once to fix
        what was just created."""
        league, night = record.league, self.night(record, event.night)
        leagues = self.bot.leagues
        _ = await self.words(record)

        async def scheduled_event() -> list[LeagueEvent]:
            try:
                guild = await self._guild(league.guild_id)
                created = await guild.create_scheduled_event(
                    name=text.event_name(league, night, _),
                    start_time=night.starts_at,
                    end_time=text.night_end(league, night),
                    entity_type=discord.EntityType.external,
                    privacy_level=discord.PrivacyLevel.guild_only,
                    location=await self._location(league.channel_id),
                    description=text.event_description(league, night, _),
                )
            except discord.HTTPException as error:
                log.warning("league %s: could not create the scheduled event: %s", record.id, error)
                await self.say(league.channel_id, _(NO_EVENTS, title=text.night_title(league, night, _)))
                return []
            return await leagues.night_published(record.id, night.number, event_id=created.id)

        async def posted_announcement() -> list[LeagueEvent]:
            view = self._announcement_view(record, night, _) or discord.utils.MISSING
            announced = text.announcement(league, night, _)
            message = await self.say(league.channel_id, announced, view=view, ping=night.signups)
            if message is None:
                return []
            return await leagues.night_published(record.id, night.number, message_id=message.id)

        changed: dict[tuple[str, int | None], LeagueEvent] = {}
        for step in (scheduled_event, posted_announcement):
            try:
                changed |= {(str(found.kind), found.night): found for found in await step()}
            except Exception:
                log.exception("league %s night %s: %s failed", record.id, night.number, step.__name__)
        await self.publish(list(changed.values()))  # one change shown once, with both ids known

    async def _signups(self, record: LeagueRecord, event: LeagueEvent) -> None:
        await self._edit_announcement(record, self.night(record, event.night))

    async def _reminder(self, record: LeagueRecord, event: LeagueEvent) -> None:
        _ = await self.words(record)
        night = self.night(record, event.night)
        await self.say(record.league.channel_id, text.reminder(record.league, night, _), ping=night.signups)

    async def _night_changed(self, record: LeagueRecord, event: NightChanged) -> None:
        league, night = record.league, self.night(record, event.night)
        _ = await self.words(record)
        if night.status is NightStatus.POSTPONED:
            starts = event.starts_at
            description = text.event_description(league, night, _)
            end = text.night_end(league, night)
            await self._change_event(
                record,
                night,
                lambda found: found.edit(start_time=starts, end_time=end, description=description),
            )
        else:
            await self._change_event(record, night, lambda found: found.cancel())
        await self._edit_announcement(record, night)
        await self.say(league.channel_id, text.night_changed(league, night, event.reason, event.starts_at, _))

    # ----------------------------------------------------------------- the night itself

    async def open_thread(self, record: LeagueRecord, night: Night, table: NightTable) -> int:
        """The `ThreadOpener` the league service calls at seating: a public thread in the league
        channel, its members added (a member the bot cannot add still sees it, being public)."""
        league = record.league
        assert league.channel_id is not None
        _ = await self.words(record)
        channel = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(league.channel_id)
        if not isinstance(channel, discord.TextChannel):  # changed since /league-admin create checked it
            log.error("league %s: channel %s is not a text channel: no thread opens", record.id, channel.id)
            await self._refused_once(record, night, table, _(NOT_TEXT, channel=league.channel_id))
            raise TypeError(f"league channel {channel.id} is not a text channel")
        if night.rounds > 1:
            name = _(
                "Night {night} · Round {round} · Table {table}",
                night=night.number,
                round=table.round,
                table=table.number,
            )
        else:
            name = _("Night {night} · Table {table}", night=night.number, table=table.number)
        try:
            thread = await channel.create_thread(
                name=limits.thread_name(name),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440,
            )
        except discord.HTTPException:
            words = _(NO_THREADS, title=text.night_title(league, night, _), number=table.number)
            await self._refused_once(record, night, table, words)
            raise
        for user_id in table.seats:
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException as error:
                log.warning("league %s: could not add %s to %s: %s", record.id, user_id, name, error)
        return thread.id

    async def _refused_once(self, record: LeagueRecord, night: Night, table: NightTable, words: str) -> None:
        """Says why a table's thread cannot open, once per table: the service retries every pass."""
        key = (record.id, night.number, table.round, table.number)
        if key not in self.refused_threads:
            self.refused_threads.add(key)
            await self.say(record.league.channel_id, words)

    async def _check_in(self, record: LeagueRecord, event: CheckIn) -> None:
        night = self.night(record, event.night)
        if event.round == 1:
            await self._change_event(record, night, lambda found: found.start())
            await self._edit_announcement(record, night)
        for opened in event.tables:
            table = night.table(event.round, opened.number)
            try:
                await self._show_check_in(record, night, table, opened.until)
            except discord.HTTPException as error:
                log.warning("league %s: no check-in message in %s: %s", record.id, table.thread_id, error)
                refused = text.check_in_refused(opened.channel_id, table.seats, await self.words(record))
                await self.say(record.league.channel_id, refused, ping=table.seats)

    async def _show_check_in(
        self, record: LeagueRecord, night: Night, table: NightTable, until: datetime | None
    ) -> None:
        """Edits the table's check-in message when there is one (the service announces a check-in
        again after a restart, with a fresh deadline), else posts it and remembers it."""
        assert table.thread_id is not None
        _ = await self.words(record)
        content = text.check_in(table.seats, until, table.checked_in, _)
        view = league_view(record.id, night.number, "here", _=_)
        known = self.check_ins.get(table.thread_id)
        if known is not None:
            try:
                edited = await known.edit(content=content, view=view, allowed_mentions=pinging(table.seats))
                self.check_ins[table.thread_id] = edited
                return
            except discord.NotFound:  # deleted meanwhile: a new one is posted
                pass
        sent = await self.say(table.thread_id, content, view=view, ping=table.seats)
        assert sent is not None
        self.check_ins[table.thread_id] = sent
        await self.bot.presenter.remember(f"checkin:{table.thread_id}", table.thread_id, sent.id)

    async def restore(self) -> None:
        """After a restart, the check-in messages still open are edited again as members come."""
        for key, (channel_id, message_id) in (await self.bot.store.posted_messages()).items():
            if key.startswith("checkin:"):
                channel = self.bot.get_partial_messageable(channel_id)
                self.check_ins[channel_id] = channel.get_partial_message(message_id)

    async def _checked_in(self, record: LeagueRecord, event: CheckedIn) -> None:
        """Says who is in on the check-in message, so the table sees whom it waits for."""
        night = self.night(record, event.night)
        table = night.table(event.round, event.number)
        message = self.check_ins.get(table.thread_id or 0)
        if message is None:
            return
        content = text.check_in(table.seats, table.check_in_until, event.checked_in, await self.words(record))
        edited = await message.edit(content=content, allowed_mentions=pinging(table.seats))
        self.check_ins[table.thread_id or 0] = edited

    async def _table_started(self, record: LeagueRecord, event: TableStarted) -> None:
        message = self.check_ins.pop(event.channel_id or 0, None)
        await self.bot.presenter.forget(f"checkin:{event.channel_id}")
        if message is not None:
            await message.edit(view=None)
        line = text.table_started(event.present, event.no_shows, await self.words(record))
        await self.say(event.channel_id, line, ping=event.present)  # the game is on: its players

    async def _table_settled(self, record: LeagueRecord, event: TableSettled) -> None:
        night = self.night(record, event.night)
        table = night.table(event.round, event.number)
        found = list(event.placings)
        _ = await self.words(record)
        words = text.table_settled(table.round, table.number, found, record.names, event.reason, _)
        if table.thread_id is not None:
            await self.say(table.thread_id, words)
        await self.say(record.league.channel_id, f"**{text.night_title(record.league, night, _)}** · {words}")

    async def _night_finished(self, record: LeagueRecord, event: LeagueEvent) -> None:
        night = self.night(record, event.night)
        await self._change_event(record, night, lambda found: found.end())
        await self._edit_announcement(record, night)
        _ = await self.words(record)
        content = _(
            "🏁 **{title}** is over. Season standings:", title=text.night_title(record.league, night, _)
        )
        await self.say(record.league.channel_id, content, file=await self.standings_file(record))

    async def standings_file(self, record: LeagueRecord, *, provisional: bool = False) -> discord.File:
        """The season's standings picture: each member's points night by night, and the total;
        `provisional` adds the night being played, as far as its settled tables go."""
        season = record.league.seasons[-1]
        _ = await self.words(record)
        title = _("{league} · season {number}", league=record.league.name, number=season.number)
        if provisional and season.counted_nights(True) != season.finished_nights():
            title += " · " + _("provisional")
        scene = league_standings_scene(season, record.names, title=title, provisional=provisional, _=_)
        png = await self.bot.pictures.draw(render_standings, scene)
        return discord.File(
            io.BytesIO(png), filename="league-standings.png", description=standings_alt(scene)
        )

    # ----------------------------------------------------------------- league notes

    async def _created(self, record: LeagueRecord, event: LeagueEvent) -> None:
        league = record.league
        _ = await self.words(record)
        created = _(
            "🏆 **{name}** is a new league: {format}, {schedule} ({timezone}). Nights are announced here.",
            name=escaped(league.name),
            format=format_title(league.format.spec, _),
            schedule=text.schedule_words(league.schedule, _),
            timezone=league.timezone,
        )
        await self.say(league.channel_id, created + "\n" + text.table_rules(league, _))

    async def _season(self, record: LeagueRecord, event: LeagueEvent) -> None:
        """A new season says when its first night is; an ended one shows its final standings."""
        season = record.league.seasons[-1]
        _ = await self.words(record)
        name, number = escaped(record.league.name), season.number
        if isinstance(event, SeasonStarted):
            head = _("**{name}**: season {number} is on.", name=name, number=number)
            await self.say(record.league.channel_id, f"{head}\n{text.table_rules(record.league, _)}")
        else:
            file = await self.standings_file(record)
            over = _("**{name}**: season {number} is over. Final standings:", name=name, number=number)
            await self.say(record.league.channel_id, over, file=file)

    async def _adjusted(self, record: LeagueRecord, event: Adjusted) -> None:
        change = event.adjustment
        who = text.member(record.names, change.user_id)
        _ = await self.words(record)
        said = _(
            "✏️ **{league}**, night {night}: {who} {points} points (by {by}). Reason: {reason}",
            league=escaped(record.league.name),
            night=change.night,
            who=who,
            points=f"{change.delta:+d}",
            by=text.mention(change.by),
            reason=escaped(change.reason),
        )
        await self.say(record.league.channel_id, said)

    async def _show(self, record: LeagueRecord, event: LeagueEvent) -> None:
        match event:
            case LeagueCreated():
                await self._created(record, event)
            case SeasonStarted() | SeasonEnded():
                await self._season(record, event)
            case NightOpen():
                await self._night_open(record, event)
            case Signups():
                await self._signups(record, event)
            case NightReminder():
                await self._reminder(record, event)
            case NightChanged():
                await self._night_changed(record, event)
            case CheckIn():
                await self._check_in(record, event)
            case CheckedIn():
                await self._checked_in(record, event)
            case TableStarted():
                await self._table_started(record, event)
            case TableSettled():
                await self._table_settled(record, event)
            case NightFinished():
                await self._night_finished(record, event)
            case Adjusted():
                await self._adjusted(record, event)
