"""Which language each reader gets (issue 15):

- an answer only the asker sees (ephemeral) and a DM: the user's own choice
  (`/rummy settings scope:user language:`), else their Discord app's language (`interaction.locale`,
  remembered so that a DM the bot sends unasked, a hand or a reminder, follows it too), else, for a
  user the bot has never seen, the server's;
- a channel post: the server's choice (`/rummy settings scope:server language:`), else the server's
  Discord locale (`guild_locale`, which Discord sets for Community servers only), else English.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import RummyError
from bot.i18n import Words, language_of, words

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot


class Readers:
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    async def asker(self, interaction: discord.Interaction[Any], guild_id: int | None = None) -> Words:
        """The texts for whoever made this interaction; their app's language is remembered.
        `guild_id`: the server of the table it acts on, for a press in a DM (which has none), so
        that the answer speaks as the DM itself does (`user`)."""
        user_id = interaction.user.id
        seen = await self.seen(interaction)
        mine = await self.bot.preferences.user(user_id)
        if mine.language or seen:
            return words(mine.language or seen)
        return await self.channel(interaction.guild_id or guild_id, interaction.guild_locale)

    async def seen(self, interaction: discord.Interaction[Any]) -> str | None:
        """The language of the asker's Discord app, if it is one of ours: remembered, so that
        the DMs the bot sends them unasked follow it too."""
        seen = language_of(str(interaction.locale))
        if seen is not None:
            # Best effort: a disk that takes no write must not keep the answer (often the very
            # refusal saying so) from being given; the app's language is seen again next time.
            with contextlib.suppress(RummyError):
                await self.bot.preferences.saw_language(interaction.user.id, seen)
        return seen

    async def user(self, user_id: int, guild_id: int | None) -> Words:
        """The texts of a DM to this user, sent from a table or league of server `guild_id`: the
        one answer for their hand DM, whether the presenter edits it or their press in it does."""
        own = await self._own(user_id)
        return words(own) if own else await self.channel(guild_id)

    async def follows_server(self, user_id: int) -> bool:
        """Whether this user's DMs speak the language of the server they come from (`user`)."""
        return await self._own(user_id) is None

    async def _own(self, user_id: int) -> str | None:
        """The user's own language: their choice, else their Discord app's when it is one of ours."""
        mine = await self.bot.preferences.user(user_id)
        return mine.language or mine.seen_language

    async def channel(self, guild_id: int | None, guild_locale: object = None) -> Words:
        """The texts of a post in a channel of server `guild_id`."""
        if guild_id is None:
            return words(None)
        server = await self.bot.preferences.server(guild_id)
        if server.language:
            return words(server.language)
        if guild_locale is None and (guild := self.bot.get_guild(guild_id)) is not None:
            guild_locale = guild.preferred_locale
        return words(language_of(str(guild_locale)) if guild_locale else None)
