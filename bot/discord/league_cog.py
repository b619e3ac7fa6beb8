"""The members' `/league` slash commands and the league buttons, and what they share with the
admins' `/league-admin` (bot/discord/league_admin_cog.py). Thin like `/rummy`: each checks what
only Discord knows (who, where, Manage Server), calls the league service and shows its events; a
refusal is a private answer with the service's reason and changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import league_text as text
from bot.discord import limits
from bot.discord.components import channel_of
from bot.i18n import EN, N_, Words
from bot.leagues import LeagueError

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot
    from bot.service import TableEvent
    from bot.service.league_service import LeagueEvent, LeagueRecord, LeagueService

MANAGERS_ONLY = N_("Only members with the Manage Server permission can {action}.")
LEAGUE_OPTION = N_("Which league (leave out when the server has one)")
Interaction = discord.Interaction[Any]
WAITING_NIGHT = N_("Which night (the next one if left out); refused once another night is next")
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


class LeagueCommands:
    """What both league cogs do the same way: find the league, answer privately after the
    checks, show the service's events."""

    bot: RummyBot

    @property
    def service(self) -> LeagueService:
        return self.bot.leagues

    async def answer(
        self, interaction: Interaction, work: Callable[[Words], Awaitable[str]], *, manage: str = ""
    ) -> None:
        """Runs `work` after the checks and answers privately with what it returns, in the asker's
        language (`work` is given their texts); `manage` names the admin action, for commands that
        need Manage Server."""

        async def guarded() -> None:
            if interaction.guild_id is None:
                raise LeagueError("Leagues live in servers: use this in a server channel.")
            if manage and not interaction.permissions.manage_guild:
                raise LeagueError(MANAGERS_ONLY, action=manage)
            await interaction.response.defer(ephemeral=True, thinking=True)
            said = await work(await self.bot.readers.asker(interaction))
            await interaction.followup.send(said, ephemeral=True)

        await self.bot.actions.guarded(interaction, None, guarded)

    async def show(self, events: Sequence[LeagueEvent | TableEvent]) -> None:
        await self.bot.league_presenter.publish(list(events))

    def find(self, interaction: Interaction, league: str | None) -> LeagueRecord:
        assert interaction.guild_id is not None
        record: LeagueRecord = self.service.find(interaction.guild_id, league)
        return record

    @staticmethod
    def upcoming(record: LeagueRecord, _: Words = EN) -> str:
        night = record.league.next_night
        if night is None:
            return _("No night is scheduled.")
        return _("Night {number} is {when}.", number=night.number, when=text.when(night.starts_at))

    @staticmethod
    def league_channel_refusal(interaction: Interaction, channel: Any, _: Words = EN) -> str:
        """Why a league cannot live in `channel` (empty when it can), in `_`'s words: its nights
        need a text channel where the bot posts, opens public threads and talks in them, and
        manages events. The bot's permissions come from the interaction for the channel it was
        used in, else from the cached channel and the bot's member (the interaction only knows its
        own channel). Permissions are named as Discord's English settings name them, as elsewhere."""
        if not isinstance(channel, discord.TextChannel) or channel.is_news():
            return _(
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
            return _(
                "I can't run a league in {channel}: I need {permissions} there.",
                channel=channel.mention,
                permissions=", ".join(missing),
            )
        return ""

    async def league_choices(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The server's leagues whose names contain what was typed, for every `league:` option."""
        if interaction.guild_id is None:
            return []
        names = [record.league.name for record in self.service.leagues(interaction.guild_id)]
        found = [name for name in names if current.lower() in name.lower()][: limits.CHOICES]
        return [app_commands.Choice(name=limits.choice_name(name), value=name) for name in found]


class LeagueCog(
    LeagueCommands, commands.GroupCog, group_name="league", group_description="Scheduled pool-rummy leagues"
):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        super().__init__()

    # ----------------------------------------------------------------- members

    @app_commands.command(name="join", description="Sign up for the league's next night")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def join(self, interaction: Interaction, league: str | None = None) -> None:
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            user = interaction.user
            await self.show(await self.service.join(interaction.guild_id, league, user.id, user.display_name))
            return _("You are signed up.") + " " + self.upcoming(self.find(interaction, league), _)

        await self.answer(interaction, work)

    @app_commands.command(name="leave", description="Take back your sign-up (before the start)")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def leave(self, interaction: Interaction, league: str | None = None) -> None:
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            await self.show(await self.service.leave(interaction.guild_id, league, interaction.user.id))
            return _("You are no longer signed up.")

        await self.answer(interaction, work)

    async def button(self, interaction: Interaction, action: str, league_id: int, night: int) -> None:
        """Join / Leave on an announcement, I'm here on a table's check-in message."""

        async def work(_: Words) -> str:
            self.bot.presses.on_league_message(interaction, league_id, night, action)
            user = interaction.user
            if action == "join":
                events = await self.service.join_by_id(league_id, night, user.id, user.display_name)
                note = _("You are signed up.")
            elif action == "leave":
                events = await self.service.leave_by_id(league_id, night, user.id)
                note = _("You are no longer signed up.")
            else:
                return await self.check_in(interaction, _)
            await self.show(events)
            return note

        await self.answer(interaction, work)

    @app_commands.command(
        name="here", description="Check in at your league table (in its thread), like the I'm here button"
    )
    async def here(self, interaction: Interaction) -> None:
        """For when the check-in message is missing (the bot could not post in the thread)."""

        async def work(_: Words) -> str:
            if self.service.by_table_channel(interaction.channel_id or 0) is None:
                raise LeagueError(
                    "`/league here` checks you in at your league table: use it in your table's thread "
                    "while the table is checking in."
                )
            return await self.check_in(interaction, _)

        await self.answer(interaction, work)

    async def check_in(self, interaction: Interaction, _: Words) -> str:
        """The button and `/league here` check in alike: the service knows the table by channel."""
        events = await self.service.check_in(channel_of(interaction), interaction.user.id)
        await self.show(events)
        return _("You are checked in: the game starts when everyone is here.")

    # ----------------------------------------------------------------- information

    @app_commands.command(name="standings", description="The season's standings as a picture")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def standings(self, interaction: Interaction, league: str | None = None) -> None:
        async def guarded() -> None:
            if interaction.guild_id is None:
                raise LeagueError("Leagues live in servers: use this in a server channel.")
            record = self.find(interaction, league)
            if not record.league.seasons:
                raise LeagueError("{league} has no season yet.", league=record.league.name)
            season = record.league.seasons[-1]
            if not season.counted_nights(provisional=True):
                raise LeagueError(text.no_standings_yet(record.league))
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = await self.bot.league_presenter.standings_file(record, provisional=True)
            await interaction.followup.send(file=file, ephemeral=True)

        await self.bot.actions.guarded(interaction, None, guarded)

    @app_commands.command(name="history", description="The season's nights: results and adjustments")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def history(self, interaction: Interaction, league: str | None = None) -> None:
        async def work(_: Words) -> str:
            record = self.find(interaction, league)
            return limits.message(text.history(record.league, record.names, _))

        await self.answer(interaction, work)

    @app_commands.command(name="me", description="Your season: rank, points night by night, next night")
    @app_commands.describe(league=LEAGUE_OPTION)
    async def me(self, interaction: Interaction, league: str | None = None) -> None:
        async def work(_: Words) -> str:
            record = self.find(interaction, league)
            return limits.message(text.me(record.league, interaction.user.id, _))

        await self.answer(interaction, work)

    # ----------------------------------------------------------------- autocomplete

    @join.autocomplete("league")
    @leave.autocomplete("league")
    @standings.autocomplete("league")
    @history.autocomplete("league")
    @me.autocomplete("league")
    async def league_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.league_choices(interaction, current)
