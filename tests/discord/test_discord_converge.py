"""Issue #23, "stale messages": what Discord did not take for a passing reason (its own 5xx once
discord.py gave up on it) is tried again until the channel and the DMs show the latest state,
acting as users through the Discord double."""

from __future__ import annotations

import time

import pytest
from discord_double.records import walk_components
from test_discord_frontend import drop, hand_message, make_bot, settle, start_table

from bot.discord.leftovers import turn_mention_words
from bot.discord.turn_mentions import WAITING
from bot.i18n import words
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)
# 503 is one of Discord's own troubles that discord.py does not retry itself: it gives up at once.
OUTAGE = {"message": "Service Unavailable", "code": 0}


async def one_turn(double, table, users) -> object:
    """The player to act picks and discards with slash commands; returns the player to act then."""
    mover = users[table.match.deal.turn]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await double.wait_for(lambda: users[table.match.deal.turn] != mover)
    return users[table.match.deal.turn]


async def test_the_table_message_shows_the_latest_turn_once_discord_takes_edits_again(
    discord_double, bot_runner, tmp_path
):
    failures = 4  # more than one move's edits: only trying again shows the latest turn
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    bot.presenter.outbox.retry_first = 0.05
    users = [double.user("alice"), double.user("bob")]
    table = await start_table(double, bot, *users)
    message_id = bot.presenter.table_message_id(table.id)
    outage = double.inject(
        "PATCH", rf"/channels/{double.channel_id}/messages/{message_id}", 503, OUTAGE, times=failures
    )
    started = time.monotonic()
    to_act = await one_turn(double, table, users)

    await double.wait_for(lambda: f"Turn: <@{to_act.id}>" in double.messages[message_id].content)
    assert outage.times == 0, "every injected outage was met"
    print(f"converged after {failures} 5xx in {time.monotonic() - started:.2f} s")
    await settle(bot)
    assert f"Turn: <@{to_act.id}>" in double.messages[message_id].content


async def test_the_hand_dm_and_the_mention_reach_the_player_to_act_once_discord_recovers(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), mention_watching_after=0))
    bot.presenter.outbox.retry_first = 0.05
    users = [double.user("alice"), double.user("bob")]
    table = await start_table(double, bot, *users)
    waiting = users[1 - table.match.deal.turn]
    dm = hand_message(double, waiting)
    dm_outage = double.inject("PATCH", rf"/channels/{dm.channel_id}/messages/{dm.id}", 503, OUTAGE, times=3)
    post_outage = double.inject("POST", rf"/channels/{double.channel_id}/messages", 503, OUTAGE, times=3)

    assert await one_turn(double, table, users) == waiting
    await double.wait_for(lambda: "Your turn" in double.messages[dm.id].content)
    await double.wait_for(
        lambda: any(f"<@{waiting.id}>, your turn" in m.content for m in double.messages_to(double.channel_id))
    )
    assert dm_outage.times == 0 and post_outage.times == 0


def live_components(message) -> list[str]:
    """Whatever a player could still press or choose on a message (Sort included)."""
    return [
        c.get("custom_id", "")
        for c in walk_components(message.payload.get("components", []))
        if c.get("type") in (2, 3) and not c.get("disabled")
    ]


@pytest.mark.parametrize("ending", ["drops", "cancel"])
async def test_a_match_that_ends_leaves_no_hand_dm_or_hand_reply_live(
    discord_double, bot_runner, tmp_path, ending
):
    """Issue #23: once the match is over, no hand says "Your turn" and none has a live control,
    whoever's turn it was and however each player saw their hand (DM, `/rummy hand`)."""
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), mention_watching_after=0))
    users = [double.user(name) for name in ("alice", "bob", "carol")]
    table = await start_table(double, bot, *users)
    for user in users:
        await double.slash_command(user, "rummy hand")
    await settle(bot)
    if ending == "cancel":  # by the host
        await double.slash_command(users[0], "rummy cancel")
        await settle(bot)
        assert bot.service.view_in(double.channel_id) is None
    else:  # the player to act drops, twice: the last one left wins the match
        for _ in range(2):
            await drop(double, bot, users[table.match.deal.turn])
            await settle(bot)
        assert table.match.phase == "over"
    said = "was cancelled, so this deal is over" if ending == "cancel" else "Deal 1 is over: "
    winner = None if ending == "cancel" else table.match.winners[-1]
    for user in users:
        (dm,) = double.dms_to(user)  # their hand DM, closed out
        assert said in dm.content, (user.name, dm.content)
        if winner is not None:
            assert f"{table.record.seats[winner].name} won" in dm.content
        for message in double.dms_to(user) + double.ephemerals_to(user):
            if (
                any(cid.startswith("rummy:hand:") for cid in message.custom_ids())
                or "turn" in message.content
            ):
                assert "Your turn" not in message.content, (user.name, message.content)
                assert not live_components(message), (user.name, message.content)


async def test_a_turn_mention_posted_but_never_stored_is_deleted_once_the_bot_is_back(
    discord_double, bot_runner, tmp_path
):
    """Issue #23: the process killed between posting a turn mention and storing its id leaves it
    in the channel, unknown to the store; the bot back finds it among the channel's latest
    messages and deletes it, leaving the one current mention and everything else."""
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock, mention_watching_after=0))
    users = [double.user(name) for name in ("alice", "bob", "carol")]
    table = await start_table(double, bot, *users)
    (leftover,) = live_mentions(double)
    # What the store holds when the kill came right after the post: no mention of the table's.
    await bot.store.forget_messages(f"table:{table.id}:ping")
    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock, mention_watching_after=0))
    await settle(bot)

    (current,) = live_mentions(double)
    to_act = users[bot.service.table_in(double.channel_id).match.deal.turn]
    assert current.id != leftover.id and f"<@{to_act.id}>, your turn" in current.content
    assert list(double.deleted_messages) == [leftover.id]
    assert double.requests_matching("GET", rf"/channels/{double.channel_id}/messages")


def live_mentions(double) -> list:
    """The turn mentions in the channel ("<@id>, your turn")."""
    return [m for m in double.messages_to(double.channel_id) if ", your turn" in m.content]


@pytest.mark.parametrize("language", ["en", "hi"])
def test_a_turn_mention_is_known_by_its_words_in_the_servers_language(language):
    _ = words(language)
    said = turn_mention_words(_)
    assert said.match(_("{user}, your turn (ends {when}).", user="<@12>", when="<t:1700000090:R>") + " …")
    assert said.match(_("{user}, your turn.", user="<@12>"))
    assert said.match(_(WAITING))
    assert not said.match(_("**This table is set aside.** {why}", why="…"))


async def test_a_long_wait_to_try_again_ends_once_discord_answers_another_request(
    discord_double, bot_runner, tmp_path
):
    """The table message's edit keeps failing until its wait to try again is long; Discord then
    recovers, and the next request that goes through (a hand DM's, after a move) ends that wait:
    the channel catches up at once, not at the end of it."""
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    bot.presenter.outbox.retry_first = 0.05  # the 8th wait is 0.05 * 2**7 = 6.4 s
    users = [double.user("alice"), double.user("bob")]
    table = await start_table(double, bot, *users)
    message_id = bot.presenter.table_message_id(table.id)
    path = rf"/channels/{double.channel_id}/messages/{message_id}"
    outage = double.inject("PATCH", path, 503, OUTAGE, times=None)
    mover = users[table.match.deal.turn]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})

    def failed() -> int:
        return sum(r.status == 503 for r in double.requests_matching("PATCH", path))

    await double.wait_for(lambda: failed() >= 8, timeout=15)

    outage.times = 0  # Discord answers again
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    to_act = users[table.match.deal.turn]
    assert to_act != mover
    await double.wait_for(lambda: f"Turn: <@{to_act.id}>" in double.messages[message_id].content, timeout=4)
