"""The `/league` slash commands and the league buttons. Thin like `/rummy`: each checks what only
Discord knows (who, where, Manage Server), calls the league service and shows its events; a
refusal is a private answer with the service's reason and changes nothing.

Admin commands are subcommands of `/league`, as the issue names them. Discord ignores
`default_permissions` on subcommands (it applies to a whole top-level command, which would hide
`/league join` from members too), so Manage Server is checked here, at run time.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import league_text as text
from bot.discord.cog import PRESET_CHOICES
from bot.leagues import LeagueError
from bot.leagues.league import DEFAULT_RULES, POOL_FORMATS
from bot.leagues.schedule import matching_zones, zone
from bot.rules_options import MOST_SEATS

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot
    from bot.service.leagues import LeagueEvent, LeagueRecord

MANAGERS_ONLY = "Only members with the Manage Server permission can {action}."
LEAGUE_OPTION = "Which league (leave out when the server has one)"
Interaction = discord.Interaction[Any]
WAITING_NIGHT = "Which night (the next one if left out); refused once another night is next"
# What the bot needs in a league channel: the announcement, a thread per table, the check-in in it,
# and the night's scheduled event.
LEAGUE_CHANNEL_NEEDS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "manage_events": "Manage Events",
}
# An admin's reason is shown in league messages: bounded so they stay within Discord's 2,000 characters.
Reason = app_commands.Range[str, 1, 300]


class LeagueCog(commands.GroupCog, group_name="league", group_description="Scheduled pool-rummy leagues"):
    season = app_commands.Group(name="season", description="Start or end a league's season")

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        super().__init__()

    # ----------------------------------------------------------------- plumbing

    @property
    def service(self) -> Any:
        return self.bot.leagues

    async def answer(
        self, interaction: Interaction, work: Callable[[], Awaitable[str]], *, manage: str = ""
    ) -> None:
        """Runs `work` after the checks and answers privately with what it returns; `manage` names
        the admin action, for commands that need Manage Server."""

        async def guarded() -> None:
            if interaction.guild_id is None:
                raise LeagueError("Leagues live in servers: use this in a server channel.")
            if manage and not interaction.permissions.manage_guild:
                raise LeagueError(MANAGERS_ONLY.format(action=manage))
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(await work(), ephemeral=True)

        await self.bot.actions.guarded(interaction, None, guarded)

    async def show(self, events: list[LeagueEvent]) -> None:
        await self.bot.league_presenter.publish(list(events))

    def find(self, interaction: Interaction, league: str | None) -> LeagueRecord:
        assert interaction.guild_id is not None
        record: LeagueRecord = self.service.find(interaction.guild_id, league)
        return record

    @staticmethod
    def upcoming(record: LeagueRecord) -> str:
        night = record.league.next_night
        if night is None:
            return "No night is scheduled."
        return f"Night {night.number} is {text.when(night.starts_at)}."

    @app_commands.command(
        name="create", description="Create a pool league and start its first season (Manage Server)"
    )
    @app_commands.describe(
        name="The league's name",
        format="Pool 101, 201 or 61",
        schedule='When nights are, e.g. "every Friday 20:00" or "every 2 weeks on Sunday 18:00"',
        timezone="IANA time zone of the schedule, e.g. Asia/Kolkata or Europe/London",
        seats_per_table="Most players at one table (up to what the rules seat)",
        rounds_per_night="Rounds of tables per night (1 to 5)",
        channel="Where nights are announced and table threads open (this channel if left out)",
        rules="Whose rules the tables play (standard if left out); fixed for a season",
    )
    @app_commands.choices(
        format=[app_commands.Choice(name=f, value=f) for f in POOL_FORMATS], rules=PRESET_CHOICES
    )
    async def create(
        self,
        interaction: Interaction,
        name: str,
        format: app_commands.Choice[str],
        schedule: str,
        timezone: str,
        seats_per_table: app_commands.Range[int, 2, MOST_SEATS],
        rounds_per_night: app_commands.Range[int, 1, 5] = 1,
        channel: discord.TextChannel | None = None,
        rules: app_commands.Choice[str] | None = None,
    ) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            refusal = self.league_channel_refusal(interaction, channel or interaction.channel)
            if refusal:
                raise LeagueError(refusal)
            events = await self.service.create(
                interaction.guild_id,
                interaction.user.id,
                name,
                format.value,
                schedule,
                timezone,
                seats_per_table,
                rounds_per_night,
                channel.id if channel else interaction.channel_id,
                rules.value if rules else DEFAULT_RULES,
            )
            await self.show(events)
            record = self.find(interaction, name)
            return (
                f"**{record.league.name}** is created and season 1 is on. {self.upcoming(record)}\n"
                + text.table_rules(record.league)
            )

        await self.answer(interaction, work, manage="create a league")

    @staticmethod
    def league_channel_refusal(interaction: Interaction, channel: Any) -> str:
        """Why a league cannot live in `channel` (empty when it can): its nights need a text
        channel where the bot posts, opens public threads and talks in them, and manages events.
        The bot's permissions come from the interaction for the channel it was used in, else from
        the cached channel and the bot's member (the interaction only knows its own channel)."""
        if not isinstance(channel, discord.TextChannel) or channel.is_news():
            return (
                "A league needs a text channel for its announcements and table threads (not a thread, "
                "forum, voice or announcement channel): use the command there or choose one with `channel:`."
            )
        allowed = (
            interaction.app_permissions
            if channel.id == interaction.channel_id
            else channel.permissions_for(channel.guild.me)
        )
        missing = [label for flag, label in LEAGUE_CHANNEL_NEEDS.items() if not getattr(allowed, flag)]
        if missing:
            return f"I can't run a league in {channel.mention}: I need {', '.join(missing)} there."
        return ""

    @season.command(name="start", description="Start a new season (Manage Server)")
    @app_commands.describe(
        league=LEAGUE_OPTION,
        rules="The rules from this season on (the last season's if left out)",
        seats_per_table="Most players at one table from this season on (unchanged if left out)",
    )
    @app_commands.choices(rules=PRESET_CHOICES)
    async def season_start(
        self,
        interaction: Interaction,
        league: str | None = None,
        rules: app_commands.Choice[str] | None = None,
        seats_per_table: app_commands.Range[int, 2, MOST_SEATS] | None = None,
    ) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            events = await self.service.start_season(
                interaction.guild_id,
                league,
                rules=rules.value if rules else None,
                seats_per_table=seats_per_table,
            )
            await self.show(events)
            record = self.find(interaction, league)
            return f"A new season is on. {self.upcoming(record)}\n{text.table_rules(record.league)}"

        await self.answer(interaction, work, manage="start a season")

    @season.command(
        name="end", description="End the season; a night not yet seated is cancelled (Manage Server)"
    )
    @app_commands.describe(league=LEAGUE_OPTION)
    async def season_end(self, interaction: Interaction, league: str | None = None) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            await self.show(await self.service.end_season(interaction.guild_id, league))
            return "The season is over; its standings are posted in the league channel."

        await self.answer(interaction, work, manage="end a season")

    # ----------------------------------------------------------------- members

    @app_commands.command(name="join", description="Sign up for the league's next night")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def join(self, interaction: Interaction, league: str | None = None) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            user = interaction.user
            await self.show(await self.service.join(interaction.guild_id, league, user.id, user.display_name))
            return f"You are signed up. {self.upcoming(self.find(interaction, league))}"

        await self.answer(interaction, work)

    @app_commands.command(name="leave", description="Take back your sign-up (before the start)")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def leave(self, interaction: Interaction, league: str | None = None) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            await self.show(await self.service.leave(interaction.guild_id, league, interaction.user.id))
            return "You are no longer signed up."

        await self.answer(interaction, work)

    async def button(self, interaction: Interaction, action: str, league_id: int, night: int) -> None:
        """Join / Leave on an announcement, I'm here on a table's check-in message."""

        async def work() -> str:
            user = interaction.user
            if action == "join":
                events = await self.service.join_by_id(league_id, night, user.id, user.display_name)
                note = "You are signed up."
            elif action == "leave":
                events = await self.service.leave_by_id(league_id, night, user.id)
                note = "You are no longer signed up."
            else:
                return await self.check_in(interaction)
            await self.show(events)
            return note

        await self.answer(interaction, work)

    @app_commands.command(
        name="here", description="Check in at your league table (in its thread), like the I'm here button"
    )
    async def here(self, interaction: Interaction) -> None:
        """For when the check-in message is missing (the bot could not post in the thread)."""

        async def work() -> str:
            if self.service.by_table_channel(interaction.channel_id or 0) is None:
                raise LeagueError(
                    "`/league here` checks you in at your league table: use it in your table's thread "
                    "while the table is checking in."
                )
            return await self.check_in(interaction)

        await self.answer(interaction, work)

    async def check_in(self, interaction: Interaction) -> str:
        """The button and `/league here` check in alike: the service knows the table by channel."""
        events = await self.service.check_in(interaction.channel_id, interaction.user.id)
        await self.show(events)
        return "You are checked in: the game starts when everyone is here."

    # ----------------------------------------------------------------- information

    @app_commands.command(name="standings", description="The season's standings as a picture")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def standings(self, interaction: Interaction, league: str | None = None) -> None:
        async def guarded() -> None:
            if interaction.guild_id is None:
                raise LeagueError("Leagues live in servers: use this in a server channel.")
            record = self.find(interaction, league)
            if not record.league.seasons:
                raise LeagueError(f"{record.league.name} has no season yet.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = await self.bot.league_presenter.standings_file(record)
            await interaction.followup.send(file=file, ephemeral=True)

        await self.bot.actions.guarded(interaction, None, guarded)

    @app_commands.command(name="history", description="The season's nights: results and adjustments")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def history(self, interaction: Interaction, league: str | None = None) -> None:
        async def work() -> str:
            record = self.find(interaction, league)
            return _fit(text.history(record.league, record.names))

        await self.answer(interaction, work)

    @app_commands.command(name="me", description="Your season: rank, points night by night, next night")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def me(self, interaction: Interaction, league: str | None = None) -> None:
        async def work() -> str:
            record = self.find(interaction, league)
            return _fit(text.me(record.league, interaction.user.id))

        await self.answer(interaction, work)

    # ----------------------------------------------------------------- admin tools

    @app_commands.command(name="postpone", description="Move the next night to another time (Manage Server)")
    @app_commands.describe(
        when="New local start, YYYY-MM-DD HH:MM in the league's time zone",
        reason="Shown to members",
        night=WAITING_NIGHT,
    )
    async def postpone(
        self,
        interaction: Interaction,
        when: str,
        reason: Reason,
        night: app_commands.Range[int, 1, 1000] | None = None,
        league: str | None = None,
    ) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            events = await self.service.postpone(interaction.guild_id, league, when, reason, night=night)
            await self.show(events)
            return f"Postponed night {events[0].night}. {self.upcoming(self.find(interaction, league))}"

        await self.answer(interaction, work, manage="postpone a night")

    @app_commands.command(name="cancel", description="Cancel the next night (Manage Server)")
    @app_commands.describe(reason="Shown to members", night=WAITING_NIGHT)
    async def cancel(
        self,
        interaction: Interaction,
        reason: Reason,
        night: app_commands.Range[int, 1, 1000] | None = None,
        league: str | None = None,
    ) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            events = await self.service.cancel_night(interaction.guild_id, league, reason, night=night)
            await self.show(events)
            return f"Cancelled night {events[0].night}. {self.upcoming(self.find(interaction, league))}"

        await self.answer(interaction, work, manage="cancel a night")

    @app_commands.command(
        name="abandon", description="Give up a stuck table of the night: no points, a reason (Manage Server)"
    )
    @app_commands.describe(
        night="The night being played",
        table="The table's number (in its thread's name)",
        reason="Shown with the table's result",
        round="The round (the one being played if left out)",
    )
    async def abandon(
        self,
        interaction: Interaction,
        night: app_commands.Range[int, 1, 1000],
        table: app_commands.Range[int, 1, 1000],
        reason: Reason,
        round: app_commands.Range[int, 1, 5] | None = None,
        league: str | None = None,
    ) -> None:
        """For a table that cannot go on (a match that cannot be resumed, a table that never
        starts), which would otherwise keep the night from ending."""

        async def work() -> str:
            assert interaction.guild_id is not None
            events = await self.service.abandon_table(
                interaction.guild_id, league, night, table, reason, interaction.user.id, round=round
            )
            await self.show(events)
            return f"Table {table} of night {night} is abandoned: no points, reason kept."

        await self.answer(interaction, work, manage="abandon a table")

    @app_commands.command(
        name="add", description="Sign a member up for the next night, until seating (Manage Server)"
    )
    async def add(self, interaction: Interaction, member: discord.Member, league: str | None = None) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            events = await self.service.add(interaction.guild_id, league, member.id, member.display_name)
            await self.show(events)
            return f"{member.mention} is signed up."

        await self.answer(interaction, work, manage="add a player")

    @app_commands.command(
        name="remove", description="Take a member off the next night, until seating (Manage Server)"
    )
    async def remove(
        self, interaction: Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            await self.show(await self.service.remove(interaction.guild_id, league, member.id))
            return f"{member.mention} is no longer signed up."

        await self.answer(interaction, work, manage="remove a player")

    @app_commands.command(
        name="adjust", description="Correct a member's points for a night, with a reason (Manage Server)"
    )
    @app_commands.describe(
        night="The night's number",
        points="Points to add (negative to take away)",
        reason="Kept in the history",
    )
    async def adjust(
        self,
        interaction: Interaction,
        member: discord.Member,
        night: app_commands.Range[int, 1, 1000],
        points: app_commands.Range[int, -1000, 1000],
        reason: Reason,
        league: str | None = None,
    ) -> None:
        async def work() -> str:
            assert interaction.guild_id is not None
            events = await self.service.adjust(
                interaction.guild_id, league, member.id, night, points, reason, interaction.user.id
            )
            await self.show(events)
            return f"Recorded: {member.mention} {points:+d} for night {night}."

        await self.answer(interaction, work, manage="adjust a result")

    # ----------------------------------------------------------------- autocomplete

    @postpone.autocomplete("night")
    @cancel.autocomplete("night")
    async def waiting_night(self, interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
        """Offers the night waiting to be played, so the admin's command names it."""
        if interaction.guild_id is None:
            return []
        league = getattr(interaction.namespace, "league", None)
        try:
            record = self.find(interaction, league)
        except LeagueError:
            return []
        night = record.league.next_night
        if night is None:
            return []
        zone_name = record.league.timezone
        local = night.starts_at.astimezone(zone(zone_name))
        name = f"Night {night.number} · {local:%a %Y-%m-%d %H:%M} {zone_name}"
        return [app_commands.Choice(name=name, value=night.number)]

    @create.autocomplete("timezone")
    async def time_zones(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """IANA zone names as the admin types ("kol" offers Asia/Kolkata); what is typed is still
        checked when the league is created."""
        return [app_commands.Choice(name=name, value=name) for name in matching_zones(current)]

    @join.autocomplete("league")
    @leave.autocomplete("league")
    @standings.autocomplete("league")
    @history.autocomplete("league")
    @me.autocomplete("league")
    @postpone.autocomplete("league")
    @cancel.autocomplete("league")
    @abandon.autocomplete("league")
    @add.autocomplete("league")
    @remove.autocomplete("league")
    @adjust.autocomplete("league")
    @season_start.autocomplete("league")
    @season_end.autocomplete("league")
    async def league_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        names = [record.league.name for record in self.service.leagues(interaction.guild_id)]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:25]


def _fit(words: str, limit: int = 2000) -> str:
    """Discord's message limit; the newest lines matter least in a history read top-down."""
    return words if len(words) <= limit else words[: limit - 1] + "…"
