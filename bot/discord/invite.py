"""The link that adds the bot to a server (`python -m bot invite`), asking for exactly the
permissions the front end checks before it acts: a table's channel (`cog.TABLE_NEEDS`, and
posting in a thread where a table plays in one) and a league's channel
(`league_cog.LEAGUE_CHANNEL_NEEDS`). Nothing else is used: the bot only edits and deletes its own
messages (no Manage Messages), reads a table channel's latest messages only to find its own
leftover turn mentions after a crash (Read Message History) and mentions people by name (no
Mention Everyone)."""

from __future__ import annotations

import discord

from bot.discord.cog import POSTING, TABLE_NEEDS
from bot.discord.league_cog import LEAGUE_CHANNEL_NEEDS

SCOPES = ("bot", "applications.commands")


def needed_permissions() -> discord.Permissions:
    flags = {*TABLE_NEEDS, *(flag for flag, _ in POSTING.values()), *LEAGUE_CHANNEL_NEEDS}
    return discord.Permissions(**dict.fromkeys(flags, True))


def invite_url(client_id: int) -> str:
    return discord.utils.oauth_url(client_id, permissions=needed_permissions(), scopes=SCOPES)


async def application_id(token: str) -> int:
    """The id of the application whose bot token this is, as Discord answers at login
    (`discord.LoginFailure` for a token it refuses)."""
    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(token)
        assert client.application_id is not None  # set by login from the application's own answer
        return client.application_id
