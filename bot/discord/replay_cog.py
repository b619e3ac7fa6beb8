"""`/rummy replay` and `/rummy history`, mixed into the `/rummy` group (`RummyCog`). Thin: the
interaction is parsed here, the replay presenter asks the replay service and answers privately."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import limits

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot


class ReplayCommands(commands.Cog):
    """Never added by itself: `RummyCog` inherits these commands into its group."""

    bot: RummyBot

    if TYPE_CHECKING:

        async def run(self, interaction: discord.Interaction[Any], work: Any) -> None: ...

    @app_commands.command(name="replay", description="A finished deal move by move, every hand shown")
    @app_commands.describe(deal="The deal, like 12-3 (your last finished deal in this server if left out)")
    async def replay(self, interaction: discord.Interaction[Any], deal: str | None = None) -> None:
        await self.run(interaction, lambda: self.bot.replay_presenter.open(interaction, deal))

    @replay.autocomplete("deal")
    async def replay_deals(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await self.bot.replay_presenter.choices(interaction, current)
        shown = choices[: limits.CHOICES]
        return [app_commands.Choice(name=limits.choice_name(name), value=value) for name, value in shown]

    @app_commands.command(name="history", description="A player's last deals and matches in this server")
    @app_commands.describe(user="Whose history (yours, if left out)")
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        who = user or interaction.user
        await self.run(interaction, lambda: self.bot.replay_presenter.history(interaction, who))
