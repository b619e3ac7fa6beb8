"""What a hostile or broken page must not do to the Activity's server: lock another user out by
naming them."""

import aiohttp
import pytest
from activity_helpers import activity_bot, open_page, sign_in
from test_discord_frontend import start_table

from bot.activity.limits import Limits
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    while (await ws.receive()).type is aiohttp.WSMsgType.TEXT:
        pass
    return ws.close_code


async def raw_hello(
    http, base: str, hello: object
) -> tuple[aiohttp.ClientWebSocketResponse, aiohttp.WSMessage]:
    """A connection that said `hello` (any JSON, or text as it is), with the server's first answer."""
    ws = await http.ws_connect(f"{base}/api/live")
    await (ws.send_str(hello) if isinstance(hello, str) else ws.send_json(hello))
    return ws, await ws.receive(timeout=5)


async def test_hellos_naming_another_user_do_not_lock_them_out(discord_double, bot_runner, tmp_path, http):
    double = discord_double
    limits = Limits(per_address=300, per_user=2, window_seconds=600.0)
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), limits=limits))
    alice, bob = double.user("alice"), double.user("bob")
    await start_table(double, bot, alice, bob)
    base = f"http://127.0.0.1:{bot.activity_port}"
    ids = {"guild_id": str(double.guild_id), "channel_id": str(double.channel_id)}
    for _ in range(limits.per_user + 3):  # junk tokens naming Alice: Discord says they are no one's
        ws, answer = await raw_hello(
            http, base, {"type": "hello", "access_token": "junk", "user_id": str(alice.id), **ids}
        )
        assert answer.type is aiohttp.WSMsgType.TEXT and "refused" in answer.data
        assert await closed_with(ws) == 4003
    bobs = await sign_in(double, http, base, bob)  # Bob's own token, naming Alice
    ws, answer = await raw_hello(
        http, base, {"type": "hello", "access_token": bobs, "user_id": str(alice.id), **ids}
    )
    assert await closed_with(ws) == 4003
    token = await sign_in(double, http, base, alice)
    _page, welcome = await open_page(http, base, token, double.guild_id, double.channel_id, user_id=alice.id)
    assert welcome["type"] == "welcome"
