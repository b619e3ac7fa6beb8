"""The lobby, Pool's split and what every page may see, through the page's live connection
(issue 27): the same service doors as the lobby's buttons and the slash commands, with the same
checks, and never a hidden card on a page that is not its holder's."""

import aiohttp
import pytest
from activity_helpers import activity_bot, hidden_cards_in, open_page, sign_in
from test_discord_frontend import hand_message, open_table, start_table

from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)
VIEW_CHANNEL, SEND_MESSAGES = 1 << 10, 1 << 11


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def page_of(double, http, base, user):
    page, welcome = await open_page(
        http, base, await sign_in(double, http, base, user), double.guild_id, double.channel_id
    )
    assert welcome["type"] == "welcome", welcome
    await page.next("state")
    return page


def seats(state):
    return [seat["name"] for seat in state["table"]["seats"]]


async def test_the_lobby_at_the_page_goes_through_the_lobby_buttons_doors_and_checks(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    # members see the channel and write in it, and no more: no Manage Server
    double.roles[double.guild_id]["permissions"] = str(VIEW_CHANNEL | SEND_MESSAGES)
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    await open_table(double, bot, alice)
    base = f"http://127.0.0.1:{bot.activity_port}"
    hers, his, watcher = [await page_of(double, http, base, user) for user in (alice, bob, carol)]
    state = await his.state_where(lambda s: s["table"])
    assert state["table"]["status"] == "open" and state["table"]["match"] is None
    assert state["table"]["host_id"] == str(alice.id) and len(seats(state)) == 1
    # only the host (or a member with Manage Server) starts, only a seated player adds a computer
    assert "host" in (await his.lobby("start"))["text"]
    assert (await his.lobby("easy"))["type"] == "refused"
    assert (await his.lobby("join"))["type"] == "done"
    assert (await his.lobby("join"))["type"] == "refused"  # seated already: once
    await his.state_where(lambda s: s["seat"] == 1)
    assert (await watcher.lobby("strong"))["type"] == "refused"  # Carol is not seated
    assert (await his.lobby("strong"))["type"] == "done"
    state = await hers.state_where(lambda s: len(seats(s)) == 3)
    assert state["table"]["seats"][2]["computer"] == "strong"
    assert (await his.lobby("leave"))["type"] == "done"
    await watcher.state_where(lambda s: len(seats(s)) == 2)
    assert (await his.lobby("join"))["type"] == "done"
    assert (await his.lobby("dance"))["type"] == "refused"
    assert (await hers.lobby("start"))["type"] == "done"
    state = await his.state_where(lambda s: s["hand"])
    assert len(state["hand"]["cards"]) == 13
    # a match's seat is not left by the lobby's button (`/rummy leave` says what it costs)
    assert "already started" in (await his.lobby("leave"))["text"]
    await bot.idle()
    assert bot.service.view_in(double.channel_id).seat_of(bob.id) == 2  # after the computer
    assert hand_message(double, alice)  # the Discord side follows: Alice's hand came by DM
    for frame in watcher.frames:
        assert hidden_cards_in(frame, None) == []


async def test_a_pool_split_between_deals_from_the_page(discord_double, bot_runner, tmp_path, http):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    lobby, table_id = await open_table(double, bot, alice, bob, fmt="pool-101")
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await bot.idle()
    base = f"http://127.0.0.1:{bot.activity_port}"
    pages = {user.id: await page_of(double, http, base, user) for user in (alice, bob)}
    table = bot.service.view_in(double.channel_id)
    # a split is agreed between deals: during one, the engine refuses it in words
    early = await pages[alice.id].move({"kind": "split"}, None)
    assert early["type"] == "refused" and "between deals" in early["text"]
    mover = table.seats[table.match.deal.turn].user_id
    state = await pages[mover].state_where(lambda s: s["hand"])
    assert (await pages[mover].move({"kind": "drop"}, state["hand"]["turn"]))["type"] == "done"
    between = await pages[alice.id].state_where(lambda s: s["table"]["match"]["history"])
    assert between["table"]["match"]["can_split"] and between["table"]["clock"]["seat"] is None
    assert (await pages[alice.id].move({"kind": "rejoin"}, None))["type"] == "refused"  # nobody is out
    assert (await pages[alice.id].move({"kind": "split"}, None))["type"] == "done"
    await pages[bob.id].state_where(lambda s: s["table"]["match"]["split_votes"] == [between["seat"]])
    assert (await pages[bob.id].move({"kind": "split"}, None))["type"] == "done"
    over = await pages[alice.id].state_where(lambda s: s["table"]["match"]["phase"] == "over")
    assert over["table"]["status"] == "finished"


async def test_no_page_but_its_holders_ever_gets_a_hidden_card(discord_double, bot_runner, tmp_path, http):
    """Every frame an opponent's and a spectator's page receive is read field by field: through
    picks from the closed deck, a refused move, a reconnect, a show and the deal's result."""
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    await start_table(double, bot, alice, bob)
    table = bot.service.view_in(double.channel_id)
    base = f"http://127.0.0.1:{bot.activity_port}"
    pages = {user.id: await page_of(double, http, base, user) for user in (alice, bob, carol)}
    seen = {user.id: [] for user in (alice, bob, carol)}
    for _ in range(3):  # three turns, each a closed pick and a discard
        view = bot.service.view_in(double.channel_id)
        mover = view.seats[view.match.deal.turn].user_id
        other = bob.id if mover == alice.id else alice.id
        page = pages[mover]
        state = await page.state_where(lambda s: s["hand"] and s["hand"]["legal"]["pick_closed"])
        # the other player tries to move out of turn: refused, with no card in the refusal
        assert (await pages[other].move({"kind": "pick", "source": "closed"}, None))["type"] == "refused"
        await page.move({"kind": "pick", "source": "closed"}, state["hand"]["turn"])
        state = await page.state_where(lambda s: s["hand"]["picked"])
        throw = next(card for card in state["hand"]["legal"]["discards"] if card != state["hand"]["picked"])
        await page.move({"kind": "discard", "card": throw}, state["hand"]["turn"])
        await bot.idle()
    # Carol's page drops and reconnects: the current table, still no hidden card
    seen[carol.id] += pages[carol.id].frames
    await pages[carol.id].ws.close()
    pages[carol.id] = await page_of(double, http, base, carol)
    view = bot.service.view_in(double.channel_id)
    mover = view.seats[view.match.deal.turn].user_id
    state = await pages[mover].state_where(lambda s: s["hand"] and s["hand"]["legal"]["pick_closed"])
    await pages[mover].move({"kind": "pick", "source": "closed"}, state["hand"]["turn"])
    state = await pages[mover].state_where(lambda s: s["hand"]["legal"]["declare"])
    shown = await pages[mover].move(
        {"kind": "declare", "groups": state["hand"]["suggested"], "finish": None}, state["hand"]["turn"]
    )
    assert shown["type"] == "done"
    for page in pages.values():
        await page.state_where(lambda s: s["table"]["match"]["history"])
    for user in (alice, bob, carol):
        seen[user.id] += pages[user.id].frames
    assert seen[carol.id] and seen[alice.id] and seen[bob.id]
    for frame in seen[carol.id]:
        assert hidden_cards_in(frame, None) == [], frame
    for user in (alice, bob):
        own = table.seat_of(user.id)
        for frame in seen[user.id]:
            assert hidden_cards_in(frame, own) == [], frame
    # the check can fail: the holder's own frames do name their hand
    assert any(hidden_cards_in(frame, None) for frame in seen[alice.id])
