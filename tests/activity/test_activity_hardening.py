"""What a hostile or broken page, or a failing Discord, must not do to the Activity's server: lock
another user out by naming them, crash a connection's handler or flood the log with malformed
messages, or spend the store and the presenter with a flood of messages on an open page."""

import logging
import socket

import aiohttp
import pytest
from activity_helpers import activity_bot, open_page, sign_in
from test_discord_frontend import start_table

from bot.activity.limits import Bucket, Limits
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


def test_a_bucket_allows_a_burst_then_its_rate():
    now = [0.0]
    bucket = Bucket(2.0, 3, clock=lambda: now[0])
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5  # one refilled
    assert bucket.allow() and not bucket.allow()
    now[0] = 100.0  # never more than the burst
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]


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


@pytest.mark.parametrize(
    "hello",
    [
        {"type": "hello", "access_token": "junk", "user_id": ["x"]},
        {"type": "hello", "access_token": "junk", "user_id": {"a": 1}},
        {"type": "hello", "access_token": "junk", "user_id": "12ab"},
        "[" * 15000,  # nested deeper than the JSON reader goes
    ],
    ids=["list", "object", "not-digits", "deep"],
)
async def test_a_malformed_hello_is_refused(discord_double, bot_runner, tmp_path, http, hello):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    base = f"http://127.0.0.1:{bot.activity_port}"
    if isinstance(hello, dict):
        hello = {**hello, "guild_id": str(double.guild_id), "channel_id": str(double.channel_id)}
    asked = len(double.requests_matching("GET", "/users/@me"))
    ws, answer = await raw_hello(http, base, hello)
    assert answer.type is aiohttp.WSMsgType.TEXT and '"refused"' in answer.data, answer
    assert await closed_with(ws) == 4003
    assert len(double.requests_matching("GET", "/users/@me")) == asked


async def test_deeply_nested_messages_are_ignored_without_a_traceback(
    discord_double, bot_runner, tmp_path, http, caplog
):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    await start_table(double, bot, alice, bob)
    base = f"http://127.0.0.1:{bot.activity_port}"
    page, welcome = await open_page(
        http, base, await sign_in(double, http, base, alice), double.guild_id, double.channel_id
    )
    assert welcome["type"] == "welcome"
    with caplog.at_level(logging.WARNING, logger="bot.activity"):
        for _ in range(3):
            await page.ws.send_str('{"type": "move", "id": "deep", "move": ' + "[" * 15000)
        answer = await page.lobby("join")  # the connection still answers, in order
    assert answer["type"] == "refused"  # Alice already sits at the table
    assert not [record for record in caplog.records if record.name.startswith("bot.activity")]
    assert not any(frame.get("id") == "deep" for frame in page.frames)


def closed_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


async def test_a_hello_discord_cannot_answer_closes_with_1011_and_one_line(
    discord_double, bot_runner, tmp_path, http, caplog
):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    base = f"http://127.0.0.1:{bot.activity_port}"
    token = await sign_in(double, http, base, double.user("alice"))
    bot.activity_server.oauth.api_base = f"http://127.0.0.1:{closed_port()}"  # Discord unreachable
    with caplog.at_level(logging.WARNING, logger="bot.activity"):
        page, refused = await open_page(http, base, token, double.guild_id, double.channel_id)
        assert refused["type"] == "refused" and await closed_with(page.ws) == 1011
    lines = [record for record in caplog.records if record.name.startswith("bot.activity")]
    assert len(lines) == 1 and lines[0].exc_info is None, lines


async def test_a_member_discord_refuses_to_show_closes_with_1011(discord_double, bot_runner, tmp_path, http):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    base = f"http://127.0.0.1:{bot.activity_port}"
    dave = double.user("dave")
    assert bot.get_guild(double.guild_id).get_member(dave.id) is None  # so it is fetched
    double.inject("GET", rf"/guilds/{double.guild_id}/members/{dave.id}", 400, {"message": "no", "code": 0})
    page, refused = await open_page(
        http, base, await sign_in(double, http, base, dave), double.guild_id, double.channel_id
    )
    assert refused["type"] == "refused" and await closed_with(page.ws) == 1011


async def test_a_page_sending_too_fast_is_closed_saying_why(discord_double, bot_runner, tmp_path, http):
    double = discord_double
    limits = Limits(messages_per_second=0.001, message_burst=3)  # no refill within the test
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), limits=limits))
    alice = double.user("alice")
    await double.slash_command(alice, "rummy new", options={"format": "points"})
    await bot.idle()
    base = f"http://127.0.0.1:{bot.activity_port}"
    carol = double.user("carol")
    page, welcome = await open_page(
        http, base, await sign_in(double, http, base, carol), double.guild_id, double.channel_id
    )
    assert welcome["type"] == "welcome"
    for action in ("join", "leave", "join"):
        assert (await page.lobby(action))["type"] == "done"
    await page.ws.send_json({"type": "lobby", "id": "fourth", "action": "leave"})
    refused = await page.next("refused")
    assert "Too many moves too fast" in refused["text"] and refused.get("id") is None
    assert await closed_with(page.ws) == 4029
    assert bot.service.view_in(double.channel_id).seat_of(carol.id) is not None  # the fourth not played
