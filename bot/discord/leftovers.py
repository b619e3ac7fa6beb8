"""After a restart: turn mentions the bot posted but never stored (the process killed between
posting one and remembering it) are found among the channel's latest messages and deleted, so
that none outlives its turn; the table's current mention is kept. The one read of a channel's
history the bot makes (Read Message History, asked for by the invite link and checked before a
table opens)."""

from __future__ import annotations

import re

import discord

from bot.discord.shown import Posted
from bot.discord.turn_mentions import WAITING, TurnMentions
from bot.i18n import EN, Words
from bot.service.views import TableView

SWEEP_DEPTH = 50  # the channel's latest messages looked through (one request)
_USER, _WHEN = "\x00", "\x01"  # stand-ins for a mention's person and time while its words are matched


def turn_mention_words(_: Words) -> re.Pattern[str]:
    """What a turn mention says in `_`'s words, at its start (`TurnMentions.ping_turn` words it)."""
    forms = [
        _("{user}, your turn (ends {when}).", user=_USER, when=_WHEN),
        _("{user}, your turn.", user=_USER),
        _(WAITING),
    ]
    escaped = (re.escape(form) for form in forms)
    alternatives = (
        form.replace(re.escape(_USER), r"<@!?\d+>").replace(re.escape(_WHEN), r"<t:\d+:R>")
        for form in escaped
    )
    return re.compile("|".join(f"(?:{form})" for form in alternatives))


async def sweep_mentions(mentions: TurnMentions, table: TableView) -> None:
    """Deletes the bot's turn mentions among the table channel's latest `SWEEP_DEPTH` messages
    but the table's current one (in the server's words or English: the server may have changed
    its language). Read under the table's `mentioning` lock, so that a mention posted meanwhile
    is the current one; each leftover is stored to delete first (`TurnMentions.doom`)."""
    outbox, bot = mentions.outbox, mentions.bot
    me = bot.user
    if me is None:
        return
    shown = outbox.shown(table.id)
    said = [turn_mention_words(EN), turn_mention_words(await bot.readers.channel(table.guild_id))]
    leftovers: list[Posted] = []
    async with shown.mentioning:
        await outbox.spend(urgent=False)
        current = shown.ping.id if shown.ping is not None else None
        try:
            async for message in outbox.channel(table.channel_id).history(limit=SWEEP_DEPTH):
                if (
                    message.author.id == me.id
                    and message.id != current
                    and any(words.match(message.content) for words in said)
                ):
                    leftovers.append(message)
        except discord.Forbidden:  # no Read Message History (an older invite): nothing to sweep
            return
    for old in leftovers:
        key = await mentions.doom(table.guild_id, old)
        await mentions.delete_old_ping(shown, key, old)
