"""Coalescing ends with the latest state shown. The request budget against the Discord double
enforcing Discord's rate limits: moves faster than the budget allows are coalesced, no request
is refused, and once the bot is idle every message shows the latest state (the table message
with its picture, each hand DM, the turn mention); without the budget the same moves meet the
double's 429s, so the test can fail. And the table picture, drawn at most once per interval:
edits between keep the old one, and one more edit draws the latest."""

import asyncio

import pytest
from discord_double import DiscordDouble
from test_discord_frontend import drop, make_bot, open_table, settle, start_table
from test_discord_turn_mentions import move_in_dm

from bot.discord.hand_dms import closed_out_words
from bot.engine.match_view import match_view
from bot.i18n import EN
from bot.present.scene_builders import table_scene
from bot.service import ManualClock
from render import render_table

pytest_plugins = ("discord_double.fixtures",)
MOVES = 6  # turns played at once, each a pick and a discard
BUDGET = 5.0  # requests per second the bot may send
LIMIT = 5  # the double's global limit per second: the budget on the wire keeps every request in it


@pytest.mark.parametrize("budget", [BUDGET, None], ids=["budget", "no budget"])
async def test_moves_faster_than_the_budget_show_the_latest_state_without_a_429(
    discord_double: DiscordDouble, bot_runner, tmp_path, budget
):
    double, clock = discord_double, ManualClock()
    limits = double.enforce_limits(global_per_second=LIMIT, per_route=5, route_window=1.0)
    bot = await bot_runner.start(make_bot(tmp_path, clock, request_budget=budget))
    users = [double.user(name) for name in ("alice", "bob", "carol")]
    table = await start_table(double, bot, *users)
    clock.advance(table.match.deal.rules.turn_seconds + 1)  # nobody watches their DM: mentioned
    shown = bot.presenter.shown(table.id)
    table_edits = rf"/channels/{double.channel_id}/messages/{shown.message.id}"
    edits_before = len(double.requests_matching("PATCH", table_edits))

    publishing = []
    for _ in range(MOVES):  # each move shown while the next ones are made, as at a busy table
        deal = table.match.deal
        mover = users[deal.turn]
        for command in ({"command": "pick", "source": "closed"}, {"command": "discard", "card": None}):
            if command["command"] == "discard":
                command["card"] = deal.seats[deal.turn].hand[0].code
            events = await bot.service.play(double.channel_id, mover.id, command)
            publishing.append(asyncio.create_task(bot.presenter.publish(events)))
    await asyncio.gather(*publishing)
    await settle(bot)

    if budget is None:
        assert limits.given  # the double's limit bites: without the budget the bot meets it
        return
    assert limits.given == []
    edits = len(double.requests_matching("PATCH", table_edits)) - edits_before
    assert edits < MOVES  # intermediate states were skipped: fewer edits than turns ...
    message = double.messages[shown.message.id]  # ... and the latest is shown, picture included
    content, _, _ = await bot.presenter.table_message_parts(table.view)
    assert message.content == content
    (picture,) = message.files.values()
    names = [seat.name for seat in table.record.seats]
    assert picture.data == render_table(table_scene(match_view(table.match), names))
    for user in users:
        hand = await bot.presenter.hand_message(table.id, user.id)
        dm = double.messages[shown.hands[user.id].id]
        assert dm.content == hand.content and dm.payload["components"] == hand.view.to_components()
    to_act = users[table.match.deal.turn]
    assert f"<@{to_act.id}>, your turn" in double.messages[shown.ping.id].content


async def test_edits_between_pictures_keep_the_old_one_and_the_last_draws_the_latest(
    discord_double: DiscordDouble, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    bot.presenter.edit_delay = 0.05  # a picture stands 2.5 edit delays: some edits change words only
    users = [double.user(name) for name in ("alice", "bob", "carol")]
    table = await start_table(double, bot, *users)
    shown = bot.presenter.shown(table.id)
    marker = len(double.requests)

    for _ in range(MOVES):
        deal = table.match.deal
        mover = users[deal.turn]
        for command in ({"command": "pick", "source": "closed"}, {"command": "discard", "card": None}):
            if command["command"] == "discard":
                command["card"] = deal.seats[deal.turn].hand[0].code
            await bot.presenter.publish(await bot.service.play(double.channel_id, mover.id, command))
            await asyncio.sleep(0.03)
    await settle(bot)

    edits = [
        r
        for r in double.requests[marker:]
        if r.method == "PATCH" and r.path == f"/channels/{double.channel_id}/messages/{shown.message.id}"
    ]
    assert any("attachments" not in r.body for r in edits)  # words only: the picture was not due
    (picture,) = double.messages[shown.message.id].files.values()
    names = [seat.name for seat in table.record.seats]
    assert picture.data == render_table(table_scene(match_view(table.match), names))  # one more edit drew it


async def test_the_deal_over_edit_of_a_dm_goes_through_its_players_last_press(
    discord_double: DiscordDouble, bot_runner, tmp_path
):
    # An edit through a press's token is outside Discord's global limit; one of the bot's own
    # message is not. A player who never pressed in their DM has no token: theirs is a message edit.
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    lobby, table_id = await open_table(double, bot, alice, bob, fmt="pool-101")
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    table = bot.presenter.table(table_id)
    presser, dropper = (alice, bob) if table.match.deal.turn == 0 else (bob, alice)
    await move_in_dm(double, bot, presser)
    marker = len(double.requests)

    await drop(double, bot, dropper)  # two players: the deal is over
    await settle(bot)

    over = closed_out_words(bot.presenter.table(table_id), EN)  # "Deal 1 is over: ... won. ..."
    assert over.startswith("Deal 1 is over:")
    edits = [r for r in double.requests[marker:] if r.method == "PATCH" and r.body.get("content") == over]
    through = {r.path.split("/")[1] for r in edits if r.path.endswith("/messages/@original")}
    assert through == {"webhooks"} and len(edits) == 2
    (as_message,) = [r for r in edits if r.path.startswith("/channels/")]
    assert as_message.channel_id == double.dm_channels[dropper.id]
    assert double.messages[bot.presenter.hand_message_id(table_id, presser.id)].content == over
