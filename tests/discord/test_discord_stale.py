"""Nothing stale: what each player sees on Discord after a restart, after a move made with a slash
command, after a drop that ends the match, and the "your turn" mentions, acting as users through
the Discord double."""

from __future__ import annotations

import asyncio
import logging

import pytest
from discord_double.records import walk_components
from test_discord_frontend import (
    button,
    drop,
    first_option,
    hand_message,
    make_bot,
    open_table,
    select_id,
    settle,
    start_against_a_computer,
    start_table,
)

from bot.discord.bot import RummyBot
from bot.service import ManualClock, ServiceSettings, TableService, seeded, simple_policy

pytest_plugins = ("discord_double.fixtures",)
# These tests follow the turn mention itself: every person is mentioned at once, not held back
# while they watch their hand DM (`test_discord_turn_mentions`).
AT_ONCE = {"mention_watching_after": 0}


def live_controls(message) -> list[str]:
    """What a player could still press or choose on a message (Sort only rearranges)."""
    return [
        c["custom_id"]
        for c in walk_components(message.payload.get("components", []))
        if "custom_id" in c and not c.get("disabled") and not c["custom_id"].endswith(":sort")
    ]


def discard_options(message) -> int:
    for component in walk_components(message.payload.get("components", [])):
        if component.get("custom_id", "").startswith("rummy:discard:") and not component.get("disabled"):
            return len(component["options"])
    return 0


def live_mentions(double) -> list:
    """The turn mentions in the channel ("<@id>, your turn"; a private hand there says "Not your turn")."""
    return [m for m in double.messages_to(double.channel_id) if ", your turn" in m.content]


async def three_players(double, bot_runner, tmp_path, clock):
    bot = await bot_runner.start(make_bot(tmp_path, clock, **AT_ONCE))
    users = [double.user(name) for name in ("alice", "bob", "carol")]
    table = await start_table(double, bot, *users)
    return bot, table, users


async def test_after_a_restart_every_seated_players_dm_shows_their_current_hand(
    discord_double, bot_runner, tmp_path
):
    double, clock = discord_double, ManualClock()
    bot, table, users = await three_players(double, bot_runner, tmp_path, clock)
    channel = double.channel_id
    seat = table.match.deal.turn
    mover = users[seat]
    # A whole turn saved, and the bot stopped before any DM showed it (a crash, an outage).
    await bot.service.play(channel, mover.id, {"command": "pick", "source": "closed"})
    card = table.match.deal.seats[seat].hand[0].code
    await bot.service.play(channel, mover.id, {"command": "discard", "card": card})
    assert "Your turn" in hand_message(double, mover).content  # what the mover's DM still says
    marker = len(double.requests)

    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    await settle(bot)
    table = bot.service.table_in(channel)
    deal = table.match.deal
    to_act = users[deal.turn]
    for seat, user in enumerate(users):
        dm = hand_message(double, user)
        assert len(double.dms_to(user)) == 1  # edited in place, not sent again
        if user is to_act:
            assert "Your turn" in dm.content and live_controls(dm)
        else:  # the last mover included: no old "Discard a card", no live controls
            assert "Not your turn yet" in dm.content and not live_controls(dm), (seat, dm.content)
    # Table message and the player to act first; the others' DMs after.
    edits = [r for r in double.requests[marker:] if r.method == "PATCH" and "/messages/" in r.path]
    table_edit = next(i for i, r in enumerate(edits) if r.channel_id == channel)
    order = [r.to_user for r in edits if r.to_user is not None]
    assert order[0] == to_act.id and set(order[1:]) == {u.id for u in users} - {to_act.id}
    assert table_edit < next(i for i, r in enumerate(edits) if r.to_user not in (None, to_act.id))


async def test_a_move_made_with_a_slash_command_brings_the_players_dm_up_to_date(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot, table, users = await three_players(double, bot_runner, tmp_path, ManualClock())
    mover = users[table.match.deal.turn]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await settle(bot)
    dm = double.dms_to(mover)[-1]
    assert "Discard a card" in dm.content
    assert not [cid for cid in live_controls(dm) if cid.endswith((":closed", ":open"))]  # no old Pick
    assert discard_options(dm) == 14
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)
    dm = double.dms_to(mover)[-1]
    assert "Not your turn yet" in dm.content and not live_controls(dm)


@pytest.mark.parametrize("path", ["confirmed button", "slash command"])
async def test_a_drop_that_ends_the_match_leaves_no_live_controls_in_the_droppers_dm(
    discord_double, bot_runner, tmp_path, path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    dropper = (alice, bob)[table.match.deal.turn]
    dms = {user: hand_message(double, user).id for user in (alice, bob)}
    if path == "slash command":
        await drop(double, bot, dropper)
    else:
        hand = hand_message(double, dropper)
        ask = await double.press_button(dropper, hand, button(hand, "drop"))
        question = double.original_response(ask)
        confirm = next(cid for cid in question.custom_ids() if cid.startswith("rummy:dropok:"))
        await double.press_button(dropper, question, confirm)
    await settle(bot)
    assert table.match.phase == "over"
    for user, dm_id in dms.items():
        dm = double.messages[dm_id]
        assert "over" in dm.content and not live_controls(dm), (user.name, dm.content)


@pytest.mark.parametrize(("fmt", "after"), [("points", "over"), ("pool-101", "between_deals")])
async def test_the_turn_mention_goes_when_nobodys_turn_is_left(
    discord_double, bot_runner, tmp_path, fmt, after
):
    """A drop by one of two players ends the deal: the match (Points) or the deal (Pool)."""
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), **AT_ONCE))
    alice, bob = double.user("alice"), double.user("bob")
    lobby, table_id = await open_table(double, bot, alice, bob, fmt=fmt)
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    table = bot.presenter.table(table_id)
    assert len(live_mentions(double)) == 1
    await drop(double, bot, (alice, bob)[table.match.deal.turn])
    await settle(bot)
    assert bot.presenter.table(table_id).match.phase == after and live_mentions(double) == []


async def test_after_a_restart_the_old_turn_mention_is_found_and_edited_leaving_one(
    discord_double, bot_runner, tmp_path
):
    double, clock = discord_double, ManualClock()
    bot, _, users = await three_players(double, bot_runner, tmp_path, clock)
    (before,) = live_mentions(double)
    edits = len(double.requests_matching("PATCH", rf"/channels/\d+/messages/{before.id}"))
    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock, **AT_ONCE))
    await settle(bot)
    (after,) = live_mentions(double)
    assert after.id == before.id and not double.deleted_messages
    assert len(double.requests_matching("PATCH", rf"/channels/\d+/messages/{before.id}")) == edits + 1
    to_act = users[bot.service.table_in(double.channel_id).match.deal.turn]
    assert f"<@{to_act.id}>, your turn" in after.content


async def test_each_persons_turn_is_a_new_mention_so_discord_notifies_them_and_the_old_one_goes(
    discord_double, bot_runner, tmp_path
):
    # Discord notifies a user of a mention in a new message only, never of one added by an edit.
    double = discord_double
    bot, table, users = await three_players(double, bot_runner, tmp_path, ManualClock())
    (before,) = live_mentions(double)
    mover = users[table.match.deal.turn]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    card = table.match.deal.seats[table.match.deal.turn].hand[0].code
    await double.slash_command(mover, "rummy discard", options={"card": card})
    await settle(bot)
    (after,) = live_mentions(double)
    to_act = users[table.match.deal.turn]
    assert after.id != before.id and after.content.startswith(f"<@{to_act.id}>, your turn")
    assert before.id in double.deleted_messages


async def test_two_publishes_for_one_table_at_once_leave_one_mention_and_no_error(
    discord_double, bot_runner, tmp_path, caplog
):
    double = discord_double
    bot, table, users = await three_players(double, bot_runner, tmp_path, ManualClock())
    mover = users[table.match.deal.turn]
    await bot.service.play(double.channel_id, mover.id, {"command": "pick", "source": "closed"})
    card = table.match.deal.seats[table.match.deal.turn].hand[0].code
    events = await bot.service.play(double.channel_id, mover.id, {"command": "discard", "card": card})
    # Editing the mention is slow (Discord rate-limits it once): the second publish comes to the
    # mention while the first still waits on that edit.
    (before,) = live_mentions(double)
    double.rate_limit("PATCH", rf"/channels/{double.channel_id}/messages/{before.id}", retry_after=0.2)
    with caplog.at_level(logging.ERROR):
        await asyncio.gather(bot.presenter.publish(events), bot.presenter.publish(events))
        await settle(bot)
    assert not [r for r in caplog.records if "could not show events" in r.getMessage()]
    (mention,) = live_mentions(double)
    assert f"<@{users[table.match.deal.turn].id}>, your turn" in mention.content


async def test_the_lobby_heading_names_the_format_as_players_know_it(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    lobby, _ = await open_table(double, bot, double.user("alice"), fmt="pool-101")
    await settle(bot)
    heading = lobby.content.splitlines()[0]
    assert heading.startswith("**Pool 101** · lobby") and "pool-101" not in lobby.content


def bot_thinking_for(tmp_path, clock, seconds: float) -> RummyBot:
    """A bot whose computer players take `seconds` to move (the tests' usual bot takes none)."""

    def service(store, on_events):
        settings = ServiceSettings(computer_delay_seconds=seconds)
        return TableService(
            store,
            clock=clock,
            random_source=seeded(11),
            policy=simple_policy,
            settings=settings,
            on_events=on_events,
        )

    return RummyBot(tmp_path / "rummy.db", service_factory=service, edit_delay=0, **AT_ONCE)


async def test_a_computer_players_turn_resumes_promptly_after_a_restart(discord_double, bot_runner, tmp_path):
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(bot_thinking_for(tmp_path, clock, 1.5))
    alice = double.user("alice")
    table = await start_against_a_computer(double, bot, alice)
    if table.match.deal.turn == 0:  # alice moves, so that it is the computer's turn
        await double.slash_command(alice, "rummy pick", options={"source": "closed"})
        await double.slash_command(alice, "rummy discard", options={"card": "1"})
        await settle(bot)
    assert table.match.deal.turn == 1
    moves = len(table.match.log)

    clock.advance(600)  # the bot was down for ten minutes
    bot = await bot_runner.restart(bot, bot_thinking_for(tmp_path, clock, 1.5))
    table = bot.service.table_in(double.channel_id)
    assert table.clock.deadline == clock.now() + 1.5  # its usual moment, not the 20 s grace
    clock.advance(1.5)
    await bot.service.fire_due()
    assert len(table.match.log) > moves  # it played


async def computer_plays_until_alice(bot, clock, table):
    while table.match.deal.turn == 1:  # its pick, then its discard, each after its delay
        clock.advance(1.5)
        await bot.service.fire_due()
        await settle(bot)


async def test_a_persons_turn_after_the_computers_played_is_a_new_mention_not_an_edit(
    discord_double, bot_runner, tmp_path
):
    # While the computer plays, the mention says so (an edit); the person's turn then needs a
    # new message, or Discord does not notify them.
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(bot_thinking_for(tmp_path, clock, 1.5))
    alice = double.user("alice")
    table = await start_against_a_computer(double, bot, alice)
    await computer_plays_until_alice(bot, clock, table)
    (before,) = live_mentions(double)
    await double.slash_command(alice, "rummy pick", options={"source": "closed"})
    await double.slash_command(alice, "rummy discard", options={"card": "1"})
    await settle(bot)
    assert table.match.deal.turn == 1 and "computer players are playing" in double.message(before.id).content
    await computer_plays_until_alice(bot, clock, table)
    (after,) = live_mentions(double)
    assert after.id != before.id and after.content.startswith(f"<@{alice.id}>, your turn")
    assert before.id in double.deleted_messages


async def test_a_hand_dm_is_drawn_again_only_when_the_hand_in_it_changed(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    mover, other = {0: (alice, bob), 1: (bob, alice)}[table.match.deal.turn]
    waiting = hand_message(double, other)
    picture = waiting.payload["attachments"]
    hand = hand_message(double, mover)
    await double.press_button(mover, hand, button(hand, "closed"))
    await settle(bot)
    hand = hand_message(double, mover)
    await double.select(mover, hand, select_id(hand), [first_option(hand)])
    await settle(bot)
    # Their turn: new words and live buttons over the same cards, so the same picture, not a new one.
    edits = double.requests_matching("PATCH", rf"/channels/\d+/messages/{waiting.id}")
    assert edits and not any(edit.files for edit in edits)
    now = double.message(waiting.id)
    assert "Your turn" in now.content and now.payload["attachments"] == picture
    assert button(now, "closed")


@pytest.mark.parametrize("concurrency", [1, 3])
async def test_after_a_restart_tables_are_shown_again_the_nearest_deadline_first(
    discord_double, bot_runner, tmp_path, concurrency
):
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock, **AT_ONCE))
    alice, bob = double.user("alice"), double.user("bob")
    channels = [double.add_channel(f"table-{n}") for n in range(3)]
    for channel in channels:  # started 10 s apart: their deadlines in this order...
        await bot.service.open_table(double.guild_id, channel, alice.id, "alice")
        await bot.service.join(channel, bob.id, "bob")
        await bot.service.start(channel, alice.id)
        clock.advance(10)
    first = bot.service.table_in(channels[0])
    mover = (alice, bob)[first.match.deal.turn]
    await bot.service.play(channels[0], mover.id, {"command": "pick", "source": "closed"})
    card = first.match.deal.seats[first.match.deal.turn].hand[0].code
    await bot.service.play(channels[0], mover.id, {"command": "discard", "card": card})  # ...but this one's
    marker = len(double.requests)

    restarted = make_bot(tmp_path, clock, republish_concurrency=concurrency, **AT_ONCE)
    bot = await bot_runner.restart(bot, restarted)
    await settle(bot)
    posts = [r for r in double.requests[marker:] if r.method == "POST" and r.channel_id in channels]
    shown = list(dict.fromkeys(r.channel_id for r in posts))  # each channel where it was first posted to
    assert sorted(shown) == sorted(channels)
    if concurrency == 1:  # one table at a time: exactly in the order their clocks run out
        assert shown == [channels[1], channels[2], channels[0]]
    for channel in channels:  # every table message posted anew, with its turn mention
        assert any(m.files for m in double.messages_to(channel))
        assert any(", your turn" in m.content for m in double.messages_to(channel))
