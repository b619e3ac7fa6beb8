"""The Activity's hooks into the Discord front end: who may see a channel (from the guild's
permissions, as Discord computes them), and the server made with the bot's service, its
presenter and the application's OAuth2 client (`bot.activity`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import discord
import discord.http

from bot.activity import ActivityServer, DiscordOAuth
from bot.activity.limits import LIMITS, Limits
from bot.service import TableEvent
from bot.store.shards import shard_of
from render.fonts import FONT_DIR

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActivitySettings:
    """`RUMMY_ACTIVITY_*`: the application's client secret, where to serve, the built client."""

    client_secret: str
    host: str
    port: int
    web_dir: Path
    limits: Limits = LIMITS  # how often a page may sign in, how many may be open


def web_client_missing(web_dir: Path) -> str | None:
    """Why the built web client cannot be served, in a line for the admin; None if it can."""
    if (web_dir / "index.html").is_file():
        return None
    return (
        f"RUMMY_ACTIVITY_CLIENT_SECRET is set but the web client is not built ({web_dir / 'index.html'} "
        "is missing): run `npm ci && npm run build` in web/ (or set RUMMY_ACTIVITY_WEB)."
    )


async def permissions(
    bot: discord.Client, user_id: int, guild_id: int, channel_id: int
) -> discord.Permissions:
    """The user's permissions in the channel, which must be one of this process's servers' (a
    forged id, or another shard's channel, has none), as Discord computes them for a member."""
    channel = bot.get_channel(channel_id)
    if not isinstance(channel, discord.abc.GuildChannel) or channel.guild.id != guild_id:
        return discord.Permissions.none()
    member = channel.guild.get_member(user_id)
    if member is None:
        try:
            member = await channel.guild.fetch_member(user_id)
        except (discord.NotFound, discord.Forbidden):
            return discord.Permissions.none()
    return channel.permissions_for(member)


async def may_view(bot: discord.Client, user_id: int, guild_id: int, channel_id: int) -> bool:
    """Whether the user may see the channel."""
    return (await permissions(bot, user_id, guild_id, channel_id)).view_channel


async def start_activity(bot: RummyBot, settings: ActivitySettings) -> tuple[ActivityServer, int]:
    """Serves the Activity on the bot's loop; returns the server and its port."""
    assert bot.application_id is not None  # known once logged in, before `setup_hook`
    oauth = DiscordOAuth(discord.http.Route.BASE, bot.application_id, settings.client_secret)

    async def check(user_id: int, guild_id: int, channel_id: int) -> bool:
        return await may_view(bot, user_id, guild_id, channel_id)

    async def manager(user_id: int, guild_id: int, channel_id: int) -> bool:
        """Manage Server, as the lobby's Start button reads it from the press."""
        return (await permissions(bot, user_id, guild_id, channel_id)).manage_guild

    def published(events: list[TableEvent]) -> None:
        bot.in_background(bot.presenter.publish(events))

    def elsewhere(guild_id: int) -> int | None:
        shards = bot.ownership.shards if bot.ownership is not None else None
        return None if shards is None or shards.owns(guild_id) else shard_of(guild_id, shards.count)

    server = ActivityServer(
        bot.service,
        oauth,
        may_view=check,
        published=published,
        web_dir=settings.web_dir,
        fonts_dir=FONT_DIR,
        elsewhere=elsewhere,
        may_manage=manager,
        may_serve=bot.may_send,  # a process past its shard leases answers no page
        limits=settings.limits,
    )
    port = await server.serve(settings.host, settings.port)
    log.info("the Activity on http://%s:%d/", settings.host, port)
    return server, port
