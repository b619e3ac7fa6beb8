"""`/league-admin`: what a server's admins do with its leagues (create, seasons, postpone,
cancel, abandon a stuck table, add or remove members, adjust results). A top-level command of
its own, so Discord hides it from members without Manage Server (`default_permissions`); the
same permission is still checked when a command runs, since a server can grant it to others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import league_text as text
from bot.discord import limits
from bot.discord.info_cog import PRESET_CHOICES
from bot.discord.league_cog import LEAGUE_OPTION, WAITING_NIGHT, Interaction, LeagueCommands, Reason
from bot.discord.safe_text import escaped
from bot.discord.translator import said
from bot.engine.formats import Format
from bot.engine.marks import N_
from bot.i18n import Words
from bot.leagues import LeagueError
from bot.leagues.league import DEFAULT_RULES, POOL_FORMATS
from bot.leagues.schedule import DAY_NAMES, matching_zones, zone
from bot.present.game_words import format_title
from bot.present.rules_options import MOST_SEATS
from bot.service.league_events import LeagueDeleted, LeagueEvent

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot


def pool_title(format: str, _: Words) -> str:
    return format_title(Format(format).spec, _)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class LeagueAdminCog(
    LeagueCommands,
    commands.GroupCog,
    group_name="league-admin",
    group_description="Run this server's pool leagues (Manage Server)",
):
    season = app_commands.Group(name="season", description="Start or end a league's season")

    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        super().__init__()

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
        format=[app_commands.Choice(name=said(pool_title, f), value=f) for f in POOL_FORMATS],
        rules=PRESET_CHOICES,
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
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            refusal = self.league_channel_refusal(interaction, channel or interaction.channel, _)
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
            created = _("**{name}** is created and season 1 is on.", name=escaped(record.league.name))
            return f"{created} {self.upcoming(record, _)}\n" + text.table_rules(record.league, _)

        await self.answer(interaction, work, manage=N_("create a league"))

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
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            events = await self.service.start_season(
                interaction.guild_id,
                league,
                rules=rules.value if rules else None,
                seats_per_table=seats_per_table,
            )
            await self.show(events)
            record = self.find(interaction, league)
            return (
                _("A new season is on.")
                + f" {self.upcoming(record, _)}\n{text.table_rules(record.league, _)}"
            )

        await self.answer(interaction, work, manage=N_("start a season"))

    @season.command(
        name="end", description="End the season; a night not yet seated is cancelled (Manage Server)"
    )
    @app_commands.describe(league=LEAGUE_OPTION)
    async def season_end(self, interaction: Interaction, league: str | None = None) -> None:
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            await self.show(await self.service.end_season(interaction.guild_id, league))
            return _("The season is over; its standings are posted in the league channel.")

        await self.answer(interaction, work, manage=N_("end a season"))

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
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            events = await self.service.postpone(interaction.guild_id, league, when, reason, night=night)
            await self.show(events)
            said = _("Postponed night {number}.", number=events[0].night)
            return f"{said} {self.upcoming(self.find(interaction, league), _)}"

        await self.answer(interaction, work, manage=N_("postpone a night"))

    @app_commands.command(name="cancel", description="Cancel the next night (Manage Server)")
    @app_commands.describe(reason="Shown to members", night=WAITING_NIGHT)
    async def cancel(
        self,
        interaction: Interaction,
        reason: Reason,
        night: app_commands.Range[int, 1, 1000] | None = None,
        league: str | None = None,
    ) -> None:
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            events = await self.service.cancel_night(interaction.guild_id, league, reason, night=night)
            await self.show(events)
            cancelled = next(event for event in events if isinstance(event, LeagueEvent))
            said = _("Cancelled night {number}.", number=cancelled.night)
            return f"{said} {self.upcoming(self.find(interaction, league), _)}"

        await self.answer(interaction, work, manage=N_("cancel a night"))

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

        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            events = await self.service.abandon_table(
                interaction.guild_id, league, night, table, reason, interaction.user.id, round=round
            )
            await self.show(events)
            return _(
                "Table {table} of night {night} is abandoned: no points, reason kept.",
                table=table,
                night=night,
            )

        await self.answer(interaction, work, manage=N_("abandon a table"))

    @app_commands.command(
        name="add", description="Sign a member up for the next night, until seating (Manage Server)"
    )
    async def add(self, interaction: Interaction, member: discord.Member, league: str | None = None) -> None:
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            events = await self.service.add(interaction.guild_id, league, member.id, member.display_name)
            await self.show(events)
            return _("{member} is signed up.", member=member.mention)

        await self.answer(interaction, work, manage=N_("add a player"))

    @app_commands.command(
        name="remove", description="Take a member off the next night, until seating (Manage Server)"
    )
    async def remove(
        self, interaction: Interaction, member: discord.Member, league: str | None = None
    ) -> None:
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            await self.show(await self.service.remove(interaction.guild_id, league, member.id))
            return _("{member} is no longer signed up.", member=member.mention)

        await self.answer(interaction, work, manage=N_("remove a player"))

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
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            events = await self.service.adjust(
                interaction.guild_id, league, member.id, night, points, reason, interaction.user.id
            )
            await self.show(events)
            return _(
                "Recorded: {member} {points} for night {night}.",
                member=member.mention,
                points=f"{points:+d}",
                night=night,
            )

        await self.answer(interaction, work, manage=N_("adjust a result"))

    @app_commands.command(
        name="delete", description="Delete a league for good, a damaged one too (Manage Server)"
    )
    @app_commands.describe(
        league="The league to delete", confirm="Type the league's name again: nothing can bring it back"
    )
    async def delete(self, interaction: Interaction, league: str, confirm: str) -> None:
        async def work(_: Words) -> str:
            assert interaction.guild_id is not None
            events = await self.service.delete(interaction.guild_id, league, confirm)
            await self.show(events)
            deleted = next(event for event in events if isinstance(event, LeagueDeleted))
            return _("Deleted **{name}**.", name=escaped(deleted.name))

        await self.answer(interaction, work, manage=N_("delete a league"))

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
        _ = await self.bot.readers.asker(interaction)
        day = _(DAY_NAMES[local.weekday()])
        name = _(
            "Night {number} · {when}", number=night.number, when=f"{day} {local:%Y-%m-%d %H:%M} {zone_name}"
        )
        return [app_commands.Choice(name=limits.choice_name(name), value=night.number)]

    @create.autocomplete("timezone")
    async def time_zones(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """IANA zone names as the admin types ("kol" offers Asia/Kolkata); what is typed is still
        checked when the league is created."""
        return [
            app_commands.Choice(name=name, value=name) for name in matching_zones(current, limits.CHOICES)
        ]

    @postpone.autocomplete("league")
    @cancel.autocomplete("league")
    @abandon.autocomplete("league")
    @add.autocomplete("league")
    @remove.autocomplete("league")
    @adjust.autocomplete("league")
    @season_start.autocomplete("league")
    @season_end.autocomplete("league")
    @delete.autocomplete("league")
    async def league_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.league_choices(interaction, current)
