"""`/rummy`'s information commands (rules, help, settings, standings, stats, verify), mixed into
the `/rummy` group (`RummyCog`) as the replay commands are. Thin: each reads a view or a setting
and answers privately."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import limits
from bot.discord.components import channel_of
from bot.discord.help_text import help_text
from bot.discord.safe_text import escaped
from bot.discord.translator import said
from bot.engine.errors import RummyError
from bot.engine.formats import Format
from bot.engine.rules import Rules
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Words
from bot.present.rules_options import preset, preset_summary, rules_line
from bot.present.rules_text import describe_rules
from bot.present.scene_builders import standings_scene
from bot.present.shuffle_proof import how_to_verify, read_reveal, typed_shuffle, verify_words
from bot.service.preferences import Deck
from bot.service.views import TableView
from render import render_standings, standings_alt

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot


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


class InfoCommands(commands.Cog):
    """Never added by itself: `RummyCog` inherits these commands into its group."""

    bot: RummyBot

    if TYPE_CHECKING:

        async def run(self, interaction: discord.Interaction[Any], work: Any) -> None: ...

        def here(self, interaction: discord.Interaction[Any], *, damaged_too: bool = False) -> TableView: ...

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
