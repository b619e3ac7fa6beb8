"""The `/rummy` slash commands. Thin: each one checks what only Discord knows (who, where,
permissions), calls the service through `Actions`, and answers privately unless the answer is
the table itself.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import limits
from bot.discord.components import channel_of
from bot.discord.help_text import help_text
from bot.discord.presses import message_link
from bot.discord.replay_cog import ReplayCommands
from bot.discord.safe_text import escaped
from bot.discord.translator import said
from bot.engine.cards import parse_cards
from bot.engine.commands import Command, Discard, Drop, Pick, Rejoin, Source, Split
from bot.engine.errors import RummyError
from bot.engine.formats import Format
from bot.engine.rules import Rules
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Words
from bot.present.game_words import format_title
from bot.present.rules_options import MOST_SEATS, preset, preset_summary, rules_line, with_turn_seconds
from bot.present.rules_text import describe_rules
from bot.present.scene_builders import standings_scene
from bot.present.shuffle_proof import how_to_verify, read_reveal, typed_shuffle, verify_words
from bot.service.preferences import Deck
from bot.service.refusals import TableDamagedError
from bot.service.views import TableView
from render import render_standings, standings_alt

if TYPE_CHECKING:
    from bot.discord.actions import Actions
    from bot.discord.bot import RummyBot

FORMAT_CHOICES = [app_commands.Choice(name=said(format_title, f.spec), value=f.value) for f in Format]


def preset_choice(name: str, _: Words) -> str:
    """A preset with its one line (Discord shows a choice's name, at most 100 characters)."""
    return f"{name} · {preset_summary(name, _)}"


PRESET_CHOICES = [
    app_commands.Choice(name=said(preset_choice, name), value=name) for name in Rules.PRESET_NAMES
]
DECK_WORDS = {
    Deck.TWO_COLOUR: N_("two colours: red and black"),
    Deck.FOUR_COLOUR: N_("four colours: one a suit"),
}


def deck_words(deck: Deck, _: Words) -> str:
    return _(DECK_WORDS[deck])


DECK_CHOICES = [app_commands.Choice(name=said(deck_words, deck), value=deck.value) for deck in Deck]
LANGUAGE_CHOICES = [app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES]
SCOPE_CHOICES = [
    app_commands.Choice(name="user: your own settings", value="user"),
    app_commands.Choice(name="server: this server's defaults (Manage Server)", value="server"),
]
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
    ReplayCommands, commands.GroupCog, group_name="rummy", group_description="Indian 13-card Rummy tables"
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
        await self.game(interaction, Drop)

    @app_commands.command(name="declare", description="Show your hand as grouped (you confirm first)")
    async def declare(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            await self.actions.ask_declare(interaction, self.here(interaction), None)

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

    # ----------------------------------------------------------------- information

    @app_commands.command(name="rules", description="This table's rules in plain words")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = self.bot.service.view_in(channel_of(interaction))
            _ = await self.bot.readers.asker(interaction)
            if table is None:
                server = await self.bot.preferences.server(interaction.guild_id or 0)
                name = server.default_preset
                text = describe_rules(Format.POINTS.spec, preset(name), _=_)
                text = (
                    _("No table here; these are the {name} rules, this server's default.", name=name)
                    + "\n"
                    + text
                )
            else:
                spec = table.spec
                text = describe_rules(spec, table.rules, table.point_value, _)
                text = _("**Rules**: {rules}", rules=rules_line(spec, table.rules, _)) + "\n" + text
            first, *more = limits.message_chunks(text.split("\n"))  # whole, over as many messages as it takes
            await interaction.response.send_message(first, ephemeral=True)
            for chunk in more:
                await interaction.followup.send(chunk, ephemeral=True)

        await self.run(interaction, work)

    @app_commands.command(name="help", description="What to do next, and the commands worth knowing")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = self.bot.service.view_in(channel_of(interaction))
            admin = interaction.guild_id is not None and interaction.permissions.manage_guild
            text = help_text(
                table, interaction.user.id, admin=admin, _=await self.bot.readers.asker(interaction)
            )
            await interaction.response.send_message(text, ephemeral=True)

        await self.run(interaction, work)

    @app_commands.command(name="settings", description="Your own settings, or this server's (Manage Server)")
    @app_commands.describe(
        scope="user: your own; server: this server's defaults",
        deck="How your cards look in your hand pictures (scope:user)",
        rules="The rules preset /rummy new plays here when it names none (scope:server)",
        language="Your answers and DMs (scope:user), or this server's channel posts (scope:server)",
    )
    @app_commands.choices(
        scope=SCOPE_CHOICES, deck=DECK_CHOICES, rules=PRESET_CHOICES, language=LANGUAGE_CHOICES
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        scope: app_commands.Choice[str],
        deck: app_commands.Choice[str] | None = None,
        rules: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        """One command for every setting: a player's own hold their deck and language, a
        server's the default rules and the language of its channel posts."""

        async def work() -> None:
            preferences = self.bot.preferences
            lines = []
            if scope.value == "user":
                if rules is not None:
                    raise RummyError("`rules:` is a server setting: use `scope:server`.")
                user_id = interaction.user.id
                mine = await preferences.user(user_id)
                if language is not None:
                    mine = await preferences.set_language(user_id, language.value)
                if deck is not None:
                    mine = await preferences.set_deck(user_id, deck.value)
                if deck is not None or language is not None:
                    await self.bot.presenter.redraw_hands(user_id)
                _ = await self.bot.readers.asker(interaction)
                if deck is not None or language is not None:
                    lines.append(_("Saved."))
                lines.append(_("Your hand pictures use the **{deck}** deck.", deck=mine.deck.value))
                if mine.language:
                    lines.append(_("I answer you in {language}.", language=LANGUAGE_NAMES[mine.language]))
                else:
                    lines.append(_("I answer you in your Discord app's language."))
            else:
                if interaction.guild_id is None:
                    raise RummyError("A server's settings are changed in one of its channels.")
                if deck is not None:
                    raise RummyError("`deck:` is your own setting: use `scope:user`.")
                server = await preferences.server(interaction.guild_id)
                can_manage = interaction.permissions.manage_guild
                if rules is not None:
                    server = await preferences.set_default_rules(
                        interaction.guild_id, rules.value, can_manage=can_manage
                    )
                if language is not None:
                    server = await preferences.set_server_language(
                        interaction.guild_id, language.value, can_manage=can_manage
                    )
                    self.bot.presenter.server_language_changed(interaction.guild_id)
                _ = await self.bot.readers.asker(interaction)
                if rules is not None or language is not None:
                    lines.append(_("Saved."))
                lines.append(
                    _(
                        "New tables here play the **{rules}** rules unless `/rummy new rules:` names others.",
                        rules=server.default_preset,
                    )
                )
                if server.language:
                    lines.append(
                        _("Tables here post in {language}.", language=LANGUAGE_NAMES[server.language])
                    )
                else:
                    lines.append(_("Tables here post in the server's Discord language."))
            await interaction.response.send_message("\n".join(lines), ephemeral=True)

        await self.run(interaction, work)

    @app_commands.command(name="standings", description="This table's standings, deal by deal")
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            table = self.here(interaction)
            if table.match is None:
                raise RummyError("The match has not started yet.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            names = [seat.name for seat in table.seats]
            _ = await self.bot.readers.asker(interaction)
            scene = standings_scene(table.match, names, _)
            png = await self.bot.pictures.draw(render_standings, scene)
            file = discord.File(io.BytesIO(png), filename="standings.png", description=standings_alt(scene))
            await interaction.followup.send(file=file, ephemeral=True)

        await self.run(interaction, work)

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.describe(user="Whose record (you, if left out)")
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        async def work() -> None:
            if interaction.guild_id is None:
                raise RummyError("Statistics are kept per server: ask in a server channel.")
            who = user or interaction.user
            stats = await self.bot.store.user_stats(interaction.guild_id, who.id)
            _ = await self.bot.readers.asker(interaction)
            best = f"{stats.best_pool_finish}" if stats.best_pool_finish is not None else _("none yet")
            text = _(
                "**{name}**: {matches_won} of {matches} matches won, {deals_won} of {deals} deals won; "
                "{drops} drops, {wrong_shows} wrong shows; {chips} chips; best pool finish: {best}.",
                name=escaped(who.display_name),
                matches_won=stats.matches_won,
                matches=stats.matches_played,
                deals_won=stats.deals_won,
                deals=stats.deals_played,
                drops=stats.drops,
                wrong_shows=stats.wrong_shows,
                chips=f"{stats.chips_won:+,}",
                best=best,
            )
            await interaction.response.send_message(text, ephemeral=True)

        await self.run(interaction, work)

    @app_commands.command(name="verify", description="Check that a deal's shuffle was fixed before the deal")
    @app_commands.describe(
        file="The .txt file from the deal's result post",
        reveal="Or paste that file's text",
        commitment="The seal from the table message (or a commitment to check salt and order against)",
        salt="Revealed at the end (without a file)",
        order="The revealed deck order (without a file)",
        reshuffle="For a reshuffled deck: its number (1, 2…); leave out for the deal's own deck",
    )
    async def verify_shuffle(
        self,
        interaction: discord.Interaction[Any],
        file: discord.Attachment | None = None,
        reveal: str | None = None,
        commitment: str | None = None,
        salt: str | None = None,
        order: str | None = None,
        reshuffle: app_commands.Range[int, 0, 99] = 0,
    ) -> None:
        async def work() -> None:
            _ = await self.bot.readers.asker(interaction)
            if file is not None or reveal:
                text = (await file.read()).decode(errors="replace") if file is not None else reveal or ""
                answer = verify_words(read_reveal(text), commitment, _)
            elif commitment and salt and order:
                answer = verify_words([typed_shuffle(commitment, salt, order, reshuffle)], None, _)
            else:
                table = self.bot.service.view_in(channel_of(interaction))
                match = table.match if table is not None else None
                answer = how_to_verify(match.commitment if match is not None else None, _)
            await interaction.response.send_message(limits.message(answer), ephemeral=True)

        await self.run(interaction, work)
