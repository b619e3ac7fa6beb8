"""The `/rummy` slash commands. Thin: each one checks what only Discord knows (who, where,
permissions), calls the service through `Actions`, and answers privately unless the answer is
the table itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import limits
from bot.discord.components import channel_of
from bot.discord.info_cog import PRESET_CHOICES, InfoCommands
from bot.discord.presses import message_link
from bot.discord.replay_cog import ReplayCommands
from bot.discord.translator import said
from bot.engine.cards import parse_cards
from bot.engine.commands import Command, Discard, Pick, Rejoin, Source, Split
from bot.engine.errors import RummyError
from bot.engine.formats import Format
from bot.present.game_words import format_title
from bot.present.rules_options import MOST_SEATS, preset, with_turn_seconds
from bot.service.refusals import TableDamagedError
from bot.service.views import TableView

if TYPE_CHECKING:
    from bot.discord.actions import Actions
    from bot.discord.bot import RummyBot

FORMAT_CHOICES = [app_commands.Choice(name=said(format_title, f.spec), value=f.value) for f in Format]
# What the bot needs where a table plays: to see the channel, post in it, attach the pictures,
# and read its latest messages (a turn mention left over from a crash is found there).
VIEWING, ATTACHING = ("view_channel", "View Channel"), ("attach_files", "Attach Files")
READING = ("read_message_history", "Read Message History")
TABLE_NEEDS = dict((VIEWING, ATTACHING, READING))
POSTING = {
    False: ("send_messages", "Send Messages"),
    True: ("send_messages_in_threads", "Send Messages in Threads"),
}


def missing_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """The permissions the bot lacks in this channel for a table: checked before opening one, so
    a table is never opened where its messages cannot be posted."""
    posting = POSTING[isinstance(interaction.channel, discord.Thread)]
    needed = [VIEWING, posting, ATTACHING, READING]
    return [label for flag, label in needed if not getattr(interaction.app_permissions, flag)]


class RummyCog(
    InfoCommands,
    ReplayCommands,
    commands.GroupCog,
    group_name="rummy",
    group_description="Indian 13-card Rummy tables",
):
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def actions(self) -> Actions:
        return self.bot.actions

    def here(self, interaction: discord.Interaction[Any], *, damaged_too: bool = False) -> TableView:
        """The channel's table; one set aside as damaged only for a cancel."""
        table = self.bot.service.view_in(channel_of(interaction))
        if table is None:
            raise RummyError("There is no table in this channel. Open one with `/rummy new`.")
        if table.damage is not None and not damaged_too:
            raise TableDamagedError()
        return table

    async def run(self, interaction: discord.Interaction[Any], work: Any) -> None:
        await self.actions.guarded(interaction, None, work)

    # ----------------------------------------------------------------- lobby

    @app_commands.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        format="Points, Deals or Pool",
        rules="Whose rules (the server's default preset if left out)",
        seats="Most players (as many as the rules seat if left out)",
        point_value="Chips per point (Points format)",
        turn_seconds="Seconds per turn, instead of the rules' clock (both clocks with two)",
    )
    @app_commands.choices(format=FORMAT_CHOICES, rules=PRESET_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        format: app_commands.Choice[str],
        rules: app_commands.Choice[str] | None = None,
        seats: app_commands.Range[int, 2, MOST_SEATS] | None = None,
        point_value: app_commands.Range[int, 1, 1000] = 1,
        turn_seconds: app_commands.Range[int, 10, 120] | None = None,
    ) -> None:
        async def work() -> None:
            if interaction.guild_id is None:
                raise RummyError("Tables live in server channels, not in DMs.")
            server = await self.bot.preferences.server(interaction.guild_id)
            chosen = preset(rules.value if rules else server.default_preset)
            if turn_seconds is not None:
                chosen = with_turn_seconds(chosen, turn_seconds)
            if self.bot.leagues.by_table_channel(channel_of(interaction)) is not None:
                # A casual table here would take the league table's channel and wedge its night.
                raise RummyError(
                    "This thread is a league table: its game starts on its own once everyone has "
                    "checked in (`/league here`). Open a casual table in another channel."
                )
            if missing := missing_permissions(interaction):
                raise RummyError(
                    "I can't run a table in this channel: I need {permissions} here. "
                    "Ask an admin to allow it, or open the table in another channel.",
                    permissions=", ".join(missing),
                )
            await interaction.response.defer(thinking=True)
            events = await self.bot.service.open_table(
                interaction.guild_id,
                channel_of(interaction),
                interaction.user.id,
                interaction.user.display_name,
                format=format.value,
                rules=chosen,
                point_value=point_value,
                max_seats=seats,
            )
            table = self.here(interaction)
            content, files, view = await self.bot.presenter.table_message_parts(table)
            message = await interaction.edit_original_response(content=content, attachments=files, view=view)
            # Later edits go through the channel, not the interaction, whose token expires in 15 minutes.
            await self.bot.presenter.adopt_table_message(table.id, channel_of(interaction), message.id)
            await self.bot.presenter.publish(events)

        await self.run(interaction, work)

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(
            interaction, lambda: self.actions.lobby(interaction, self.here(interaction).id, "join")
        )

    @app_commands.command(
        name="leave", description="Leave this channel's table (a middle drop during a match)"
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(
            interaction, lambda: self.actions.lobby(interaction, self.here(interaction).id, "leave")
        )

    @app_commands.command(name="start", description="Start the match (host or Manage Server)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self.run(
            interaction, lambda: self.actions.lobby(interaction, self.here(interaction).id, "start")
        )

    @app_commands.command(name="cancel", description="Cancel this channel's table (host or Manage Server)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            self.here(interaction, damaged_too=True)
            await interaction.response.defer(ephemeral=True, thinking=True)
            events = await self.bot.service.cancel(
                channel_of(interaction), interaction.user.id, can_manage=interaction.permissions.manage_guild
            )
            await self.bot.presenter.publish(events)
            _ = await self.bot.readers.asker(interaction)
            await interaction.followup.send(_("The table is cancelled."), ephemeral=True)

        await self.run(interaction, work)

    @app_commands.command(
        name="rejoin", description="Pool: come back after elimination (once, between deals)"
    )
    async def rejoin(self, interaction: discord.Interaction[Any]) -> None:
        await self.game(interaction, Rejoin)

    @app_commands.command(name="split", description="Pool: agree to end and share the pool (2 or 3 left)")
    async def split(self, interaction: discord.Interaction[Any]) -> None:
        await self.game(interaction, Split)

    @app_commands.command(name="table", description="Post the table again at the bottom of the channel")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = self.here(interaction)
            _ = await self.bot.readers.asker(interaction)
            reposted = self.bot.presenter.claim_repost(table.id, self.bot.repost_seconds)
            if reposted is None:
                await interaction.response.send_message(_("Here it is."), ephemeral=True)
                await self.bot.presenter.refresh_table(table.id, repost=True)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            latest = await asyncio.shield(reposted) or self.bot.presenter.table_message_id(table.id)
            if latest is None:
                said = _("The table was posted again just now: it is below in this channel.")
            else:
                link = message_link(table.guild_id, table.channel_id, latest)
                said = _("The table was posted again just now: {link}", link=link)
            await interaction.followup.send(said, ephemeral=True)

        await self.run(interaction, work)

    # ----------------------------------------------------------------- playing

    @app_commands.command(name="hand", description="See your hand privately, with its buttons")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = self.here(interaction)
            self.actions.seat_of(table, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            _ = await self.bot.readers.asker(interaction)
            await self.actions.send_private_hand(interaction, table, _("There is no deal in progress."))

        await self.run(interaction, work)

    @app_commands.command(name="pick", description="Pick from the closed deck or the open pile")
    @app_commands.choices(
        source=[
            app_commands.Choice(name="closed deck", value="closed"),
            app_commands.Choice(name="open pile", value="open"),
        ]
    )
    async def pick(self, interaction: discord.Interaction[Any], source: app_commands.Choice[str]) -> None:
        await self.game(interaction, lambda seat: Pick(seat, Source(source.value)))

    @app_commands.command(name="discard", description="Discard a card from your hand")
    @app_commands.describe(card="The card, like 10H, or its number in your hand")
    async def discard(self, interaction: discord.Interaction[Any], card: str) -> None:
        async def work() -> None:
            layout, _ = await self.actions.followed_layout(self.here(interaction), interaction.user.id)
            if card.strip().isdigit():
                chosen = layout.card_at(int(card))
            else:
                named = parse_cards(card)
                if len(named) != 1:
                    raise RummyError("Name one card, like 10H, or its number in your hand.")
                chosen = named[0]
            await self.game(interaction, lambda seat: Discard(seat, chosen))

        await self.run(interaction, work)

    @discard.autocomplete("card")
    async def discard_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.bot.service.view_in(channel_of(interaction))
        if table is None:
            return []
        try:
            layout, _ = await self.actions.followed_layout(table, interaction.user.id)
        except RummyError:
            return []
        choices = [
            app_commands.Choice(name=f"{position}: {card.pretty}", value=card.code)
            for position, card in enumerate(layout.cards, start=1)
            if current.upper() in card.code or current in str(position)
        ]
        return choices[: limits.CHOICES]

    @app_commands.command(
        name="drop", description="Drop out of this deal (costs what this table's rules say; you confirm)"
    )
    async def drop(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            await self.actions.asks.ask_drop(interaction, self.here(interaction), None)

        await self.run(interaction, work)

    @app_commands.command(name="declare", description="Show your hand as grouped (you confirm first)")
    async def declare(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            await self.actions.asks.ask_declare(interaction, self.here(interaction), None)

        await self.run(interaction, work)

    @app_commands.command(name="group", description="Arrange your cards: numbers, groups split by /")
    @app_commands.describe(groups="For example: 1 2 3 / 4 5 6 7 / 8 9 10  (or 'auto' for the suggestion)")
    async def group(self, interaction: discord.Interaction[Any], groups: str) -> None:
        async def work() -> None:
            table = self.here(interaction)
            layout, hand = await self.actions.followed_layout(table, interaction.user.id)
            if groups.strip().lower() == "auto":
                layout.custom = False
            else:
                layout.regroup(groups, hand.seen.hand)
            await interaction.response.defer(ephemeral=True, thinking=True)
            _ = await self.bot.readers.asker(interaction)
            await self.actions.send_private_hand(interaction, table, _("There is no deal in progress."))

        await self.run(interaction, work)

    async def game(self, interaction: discord.Interaction[Any], make: Callable[[int], Command]) -> None:
        """Plays the command `make` builds for the player's seat, then shows their hand privately."""

        async def work() -> None:
            table = self.here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            events = await self.actions.play(interaction, table, make, None)
            await self.bot.presenter.publish(events)  # their hand DM too: it must not show the old turn
            self.actions.seat_of(table, interaction.user.id)
            _ = await self.bot.readers.asker(interaction)
            await self.actions.send_private_hand(interaction, table, _("Done."))

        await self.run(interaction, work)
