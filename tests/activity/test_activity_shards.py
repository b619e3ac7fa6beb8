"""The Activity with shards (issue 27): two real `python -m bot` processes, shards 0 and 1 of 2,
on one real PostgreSQL, each serving the Activity on its own port, behind a proxy that maps the
root to shard 0's process and `/shard/1/` to shard 1's, as the README's nginx does. A page for a
table in a server of shard 1 reaches shard 0's process first: it signs in there, is told where
its table is served, connects again under `/shard/1/`, and plays."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from activity_helpers import open_page, sign_in, web_dir
from aiohttp import web
from discord_double import DiscordDouble
from test_sharding_e2e import BotProcess, open_and_start, take_a_turn

pytestmark = pytest.mark.postgres


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def proxy(ports: dict[int, int]) -> web.Application:
    """Discord's URL mapping and the README's nginx in one: `/shard/N/…` to process N's port
    (the prefix dropped), anything else to shard 0's; WebSockets passed through both ways."""

    async def forward(request: web.Request) -> web.StreamResponse:
        path, shard = request.path, 0
        parts = path.split("/", 3)
        if len(parts) > 3 and parts[1] == "shard" and parts[2].isdigit():
            shard, path = int(parts[2]), "/" + parts[3]
        target = f"http://127.0.0.1:{ports[shard]}{path}"
        async with aiohttp.ClientSession() as http:
            if request.headers.get("Upgrade", "").lower() == "websocket":
                outer = web.WebSocketResponse()
                await outer.prepare(request)
                async with http.ws_connect(target) as inner:

                    async def pump(source, sink) -> None:
                        async for message in source:
                            await sink.send_str(message.data)

                    # whichever side ends first, the other is closed with its code
                    ways = [asyncio.create_task(pump(inner, outer)), asyncio.create_task(pump(outer, inner))]
                    await asyncio.wait(ways, return_when=asyncio.FIRST_COMPLETED)
                    await outer.close(code=inner.close_code or 1000)
                    await inner.close()
                    await asyncio.gather(*ways, return_exceptions=True)
                return outer
            async with http.request(request.method, target, data=await request.read()) as answer:
                body = await answer.read()
                return web.Response(status=answer.status, body=body, content_type=answer.content_type)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", forward)
    return app


async def test_a_page_for_the_other_shards_table_is_sent_there_and_plays(postgres_url, tmp_path):
    processes: list[BotProcess] = []
    async with DiscordDouble() as double, aiohttp.ClientSession() as http:
        double.shard_count = 2
        carol, dave = double.user("carol"), double.user("dave")
        double.add_guild("Shard Zero", shard=(0, 2))
        guild = double.add_guild("Shard One", shard=(1, 2))
        one = double.add_channel("one", guild_id=guild)
        ports = {0: free_port(), 1: free_port()}
        runner = web.AppRunner(proxy(ports))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            for shard in (0, 1):
                settings = {
                    "RUMMY_ACTIVITY_CLIENT_SECRET": "fake-client-secret",
                    "RUMMY_ACTIVITY_PORT": str(ports[shard]),
                    "RUMMY_ACTIVITY_WEB": str(web_dir(tmp_path / str(shard))),
                }
                processes.append(
                    BotProcess(double, postgres_url, shard, f"bot-{shard}", tmp_path, settings=settings)
                )
            await asyncio.gather(*(process.ready() for process in processes))
            await double.wait_for(lambda: "rummy" in double.global_commands, timeout=15)
            await open_and_start(double, one, carol, dave)
            await take_a_turn(double, (carol, dave))

            token = await sign_in(double, http, base, carol)  # at the root: shard 0's process
            page, first = await open_page(http, base, token, guild, one)
            assert first == {"type": "elsewhere", "shard": 1}
            while (await page.ws.receive()).type is aiohttp.WSMsgType.TEXT:
                pass
            assert page.ws.close_code == 4004
            page, welcome = await open_page(http, f"{base}/shard/1", token, guild, one)  # as the page does
            assert welcome["type"] == "welcome" and welcome["user_id"] == str(carol.id)
            state = await page.next("state")
            assert len(state["hand"]["cards"]) == 13 and state["table"]["match"]["deal"]["turn_number"] == 2
            if state["table"]["match"]["deal"]["turn"] != state["seat"]:
                await take_a_turn(double, (carol, dave))  # Dave by his DM, relayed to shard 1
                state = await page.state_where(lambda s: s["hand"]["legal"]["pick_closed"], timeout=15)
            picked = await page.move({"kind": "pick", "source": "closed"}, state["hand"]["turn"])
            assert picked["type"] == "done", picked
            state = await page.state_where(lambda s: s["hand"]["picked"], timeout=15)
            assert len(state["hand"]["cards"]) == 14
        finally:
            for process in processes:
                process.kill()
            await runner.cleanup()
        # the channel of shard 1's server heard only from shard 1's process
        assert {r.token for r in double.requests if f"/channels/{one}/" in r.path and r.token} == {"bot-1"}
