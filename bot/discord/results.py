"""A deal's result in the table's channel: its picture, the shuffle reveal anyone can check
against the commitment published when the deal started, and at the end of a match the
standings. Its requests leave through the outbox."""

from __future__ import annotations

import io

import discord

from bot.discord import limits
from bot.discord.outbox import Outbox
from bot.discord.safe_text import escaped
from bot.discord.shown import Shown
from bot.engine.match import MatchPhase
from bot.present.scene_builders import result_scene, standings_scene
from bot.present.shuffle_proof import paid_line, reveal_file, reveal_name
from bot.service.views import TableView
from render import render_result, render_standings, result_alt, standings_alt


class Results:
    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.bot = outbox.bot

    async def post_result(self, table: TableView) -> None:
        """The deal's result picture, with the shuffle reveal anyone can check against the
        commitment published when the deal started; at the end of a match, the standings too.
        Drawn now, while this deal is the last one finished, and sent beside the publish
        (`_send_result`): its requests may wait long for the budget under load, and the table's
        `showing` lock, which a person's own press waits for, must not wait with them."""
        match = table.match
        if match is None or not match.finished_deals:
            return
        names = [seat.name for seat in table.seats]
        _ = await self.bot.readers.channel(table.guild_id)
        result = result_scene(match, names, _=_)
        png = await self.bot.pictures.draw(render_result, result)
        deal = match.finished_deals[-1]
        reveal = [paid_line(deal, [escaped(name) for name in names], _)]
        proof = reveal_file(deal, _).encode()
        files = [discord.File(io.BytesIO(png), filename="result.png", description=result_alt(result))]
        files.append(discord.File(io.BytesIO(proof), filename=reveal_name(deal.number)))
        if match.phase is MatchPhase.OVER:
            if match.winner is not None:
                winner = escaped(names[match.winner])
                over = _("🏆 **The match is over: {winner} wins.**", winner=winner)
            else:
                over = _("🏆 **The match is over: a shared pool.**")
            reveal.insert(0, over)
            scene = standings_scene(match, names, _)
            standings = await self.bot.pictures.draw(render_standings, scene)
            said = standings_alt(scene)
            files.append(discord.File(io.BytesIO(standings), filename="standings.png", description=said))
        chunks = limits.message_chunks(reveal)
        self.bot.in_background(self._send_result(table, self.outbox.shown(table.id), chunks, files))

    async def _send_result(
        self, table: TableView, shown: Shown, chunks: list[str], files: list[discord.File]
    ) -> None:
        """Posts a result drawn by `_post_result`, after the table's results before it."""
        async with shown.resulting:
            await self.outbox.guard(table, self._send_chunks(table, shown, chunks, files))

    async def _send_chunks(
        self, table: TableView, shown: Shown, chunks: list[str], files: list[discord.File]
    ) -> None:
        channel = self.outbox.channel(table.channel_id)
        await self.outbox.spend_in_channel(shown, urgent=True)
        await channel.send(content=chunks[0], files=files)
        for chunk in chunks[1:]:
            await self.outbox.spend_in_channel(shown, urgent=True)
            await channel.send(content=chunk)
