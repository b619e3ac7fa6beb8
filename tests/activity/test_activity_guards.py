"""What keeps the Activity's server safe (issue 27): sign-ins and hellos, each of which asks
Discord, counted per address and per user; open pages capped per user and per table; and a
process past its shard lease answering no page at all, so that they reconnect to its successor."""

import aiohttp
import pytest
from activity_helpers import activity_bot, open_page, sign_in
from test_discord_frontend import start_table

from bot.activity.limits import Limits, Window
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def closed_with(page) -> int | None:
    while (await page.ws.receive()).type is aiohttp.WSMsgType.TEXT:
        pass
    return page.ws.close_code


def test_a_window_counts_tries_per_key_and_forgets_them_after_it():
    now = [0.0]
    window = Window(2, 60.0, clock=lambda: now[0])
    assert window.allow("a") and window.allow("a") and not window.allow("a")
    assert window.allow("b")  # another key counts apart
    now[0] = 60.0
    assert window.allow("a")  # the first two left the window


async def test_hellos_and_sign_ins_are_counted_per_user_and_per_address(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    limits = Limits(per_address=6, per_user=2, window_seconds=600.0)
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), limits=limits))
    await start_table(double, bot, double.user("alice"), double.user("bob"))
    base = f"http://127.0.0.1:{bot.activity_port}"
    alice = double.user("alice")
    token = await sign_in(double, http, base, alice)  # the address's first of six
    for _ in range(2):
        page, welcome = await open_page(
            http, base, token, double.guild_id, double.channel_id, user_id=alice.id
        )
        assert welcome["type"] == "welcome"
        await page.ws.close()
    page, refused = await open_page(http, base, token, double.guild_id, double.channel_id, user_id=alice.id)
    # (counted once Discord said whose the token is: an id the page only claims counts for no one)
    assert refused["type"] == "refused" and "Too many sign-ins" in refused["text"]
    assert await closed_with(page) == 4029
    # another user from the same address still may, until the address's own count is spent
    bob = double.user("bob")
    page, welcome = await open_page(
        http, base, await sign_in(double, http, base, bob), double.guild_id, double.channel_id
    )
    assert welcome["type"] == "welcome"
    # six tries from this address: two sign-ins, four hellos (the refused one too)
    async with http.post(f"{base}/api/token", json={"code": double.authorization_code(bob)}) as answer:
        assert answer.status == 429 and "Too many" in (await answer.json())["error"]


async def test_open_pages_are_capped_per_user_and_per_table(discord_double, bot_runner, tmp_path, http):
    double = discord_double
    limits = Limits(pages_per_user=1, pages_per_table=2)
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), limits=limits))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    await start_table(double, bot, alice, bob)
    base = f"http://127.0.0.1:{bot.activity_port}"
    tokens = {user.id: await sign_in(double, http, base, user) for user in (alice, bob, carol)}
    first, _ = await open_page(http, base, tokens[alice.id], double.guild_id, double.channel_id)
    second, refused = await open_page(http, base, tokens[alice.id], double.guild_id, double.channel_id)
    assert refused["type"] == "refused" and "too many pages open" in refused["text"]
    assert await closed_with(second) == 4029
    _kept, _ = await open_page(http, base, tokens[bob.id], double.guild_id, double.channel_id)
    _, refused = await open_page(http, base, tokens[carol.id], double.guild_id, double.channel_id)
    assert refused["type"] == "refused" and "Too many pages watch this table" in refused["text"]
    await first.ws.close()  # one closed: Carol's comes in, and Alice's first is still counted out
    await bot.idle()
    _, welcome = await open_page(http, base, tokens[carol.id], double.guild_id, double.channel_id)
    assert welcome["type"] == "welcome"
    assert len(bot.activity_server._viewers[double.channel_id]) == 2


async def test_a_process_past_its_lease_answers_no_page_and_closes_them_saying_why(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    server = bot.activity_server
    assert server.may_serve == bot.may_send  # the bot's own lease clock, as its Discord requests
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    table = await start_table(double, bot, alice, bob)
    base = f"http://127.0.0.1:{bot.activity_port}"
    mover = alice if table.seat_of(alice.id) == table.match.deal.turn else bob
    tokens = {user.id: await sign_in(double, http, base, user) for user in (alice, bob, carol)}
    pages = {}
    for user in (mover, carol):
        pages[user.id], _ = await open_page(http, base, tokens[user.id], double.guild_id, double.channel_id)
        await pages[user.id].next("state")
    leased = [True]
    server.may_serve = lambda: leased[0]
    leased[0] = False  # the lease clock ran out: another process may run the shard now
    played = len(table.match.log)
    await pages[mover.id].ws.send_json(
        {"type": "move", "id": "late", "turn": None, "move": {"kind": "pick", "source": "closed"}}
    )
    for page in pages.values():
        while True:
            message = await page.ws.receive()
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            assert '"moved"' in message.data, message.data  # no state, no answer: only why
        assert page.ws.close_code == 4005
    assert len(table.match.log) == played
    page, moved = await open_page(http, base, tokens[alice.id], double.guild_id, double.channel_id)
    assert moved["type"] == "moved" and await closed_with(page) == 4005
    async with http.post(f"{base}/api/token", json={"code": double.authorization_code(bob)}) as answer:
        assert answer.status == 503
