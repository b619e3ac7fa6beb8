"""Slash commands' descriptions in the reader's Discord language, shown in Discord's own menus.

discord.py asks a `Translator` for every text of a command when it syncs them; Discord then
shows each user the description in their app's language. Command, group and option names are
never translated (issue 15): a command reads the same in every language, so help texts and
players can name it. A text with no translation answers None, and Discord shows the English.

A text built from figures (a choice's name: "Pool 101", a preset's line) cannot be a catalog's
key; `said` carries, beside its English, how to say it in any language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from bot.discord import limits
from bot.i18n import EN, ENGLISH, Words, language_of, words

T = TypeVar("T")

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
        say = string.extras.get("say")
        translated = say(words(language)) if say is not None else words(language)(string.message)
        return translated if translated != string.message else None


def said(say: Callable[[T, Words], str], subject: T) -> locale_str:
    """A choice's name, `say(subject, _)`, in English and, through `CommandTranslator`, in each
    reader's words."""
    return locale_str(limits.choice_name(say(subject, EN)), say=lambda _: limits.choice_name(say(subject, _)))
