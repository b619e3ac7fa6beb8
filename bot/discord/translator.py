"""Slash commands' descriptions in the reader's Discord language, shown in Discord's own menus.

discord.py asks a `Translator` for every text of a command when it syncs them; Discord then
shows each user the description in their app's language. Command, group and option names are
never translated (issue 15): a command reads the same in every language, so help texts and
players can name it. A text with no translation answers None, and Discord shows the English.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from bot.i18n import ENGLISH, language_of, words

NAMES = (
    TranslationContextLocation.command_name,
    TranslationContextLocation.group_name,
    TranslationContextLocation.parameter_name,
)


class CommandTranslator(app_commands.Translator):
    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        language = language_of(locale.value)
        if context.location in NAMES or language in (None, ENGLISH):
            return None
        translated = words(language)(string.message)
        return translated if translated != string.message else None
