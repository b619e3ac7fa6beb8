"""Who is mentioned when, and the request budget on the wire, acting as users through the
Discord double. A person who pressed in their hand DM within the table's turn clock sees their
turn there: the channel mention (two requests against Discord's global limit) waits until a
share of their clock has gone without a move; an idle person is mentioned at once. And every
request Discord counts is held until it fits in the budget, whoever made it."""

from __future__ import annotations

import asyncio

import pytest
from discord_double import DiscordDouble
from test_discord_frontend import button, first_option, hand_message, make_bot, select_id, settle, start_table

from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)


def mentions_of(double: DiscordDouble, user) -> list:
    """The live channel messages telling `user` it is their turn."""
    return [
        m for m in double.messages_to(double.channel_id) if m.content.startswith(f"<@{user.id}>, your turn")
    ]


async def move_in_dm(double: DiscordDouble, bot, user) -> None:
    """`user` picks from the closed deck and throws their first card, pressing in their DM."""
    hand = hand_message(double, user)
    await double.press_button(user, hand, button(hand, "closed"))
    await settle(bot)
    hand = hand_message(double, user)
    await double.select(user, hand, select_id(hand), [first_option(hand)])
    await settle(bot)


async def test_a_person_who_just_pressed_in_their_dm_is_not_mentioned_and_an_idle_one_is(
    discord_double: DiscordDouble, bot_runner, tmp_path
):
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    first, second = (alice, bob) if table.match.deal.turn == 0 else (bob, alice)
    assert mentions_of(double, first) == []  # their new hand DM, just sent, notified them

    clock.advance(table.match.deal.rules.turn_seconds + 1)  # both idle since (the clock's bank
    await move_in_dm(double, bot, first)  # keeps it first's turn): first moves in their DM
    (mention,) = mentions_of(double, second)  # second is idle: mentioned at once, a new message
    await move_in_dm(double, bot, second)

    assert table.match.deal.turn == [alice, bob].index(first)
    assert mentions_of(double, first) == []  # first pressed moments ago: their DM shows it ...
    dm = hand_message(double, first)
    assert button(dm, "closed") and "your turn" in dm.content.lower()
    assert mentions_of(double, second) == [] and mention.id in double.deleted_messages  # ... and
    # the mention of second, whose turn is over, went


async def test_a_person_watching_their_dm_is_mentioned_once_their_share_of_the_clock_went_by(
    discord_double: DiscordDouble, bot_runner, tmp_path
):
    double = discord_double
    share = 0.01  # of the points clock's 30 s: mentioned after 0.3 s without a move
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), mention_watching_after=share))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    first, second = (alice, bob) if table.match.deal.turn == 0 else (bob, alice)
    await move_in_dm(double, bot, first)
    await move_in_dm(double, bot, second)  # first's turn again: they pressed moments ago
    assert mentions_of(double, first) == []

    await double.wait_for(lambda: mentions_of(double, first), timeout=5)  # they did not move
    assert table.match.deal.turn == [alice, bob].index(first)  # still their turn, as mentioned


async def test_a_press_in_the_dm_puts_the_held_back_mention_off_and_an_idle_person_is_mentioned(
    discord_double: DiscordDouble, bot_runner, tmp_path
):
    """A press that is not a whole move (a pick) shows the person is there, but not that they
    stay: the mention waits its share of the clock from that press, and then comes, rather than
    never (their turn would otherwise run out on the clock with no mention at all)."""
    double = discord_double
    share = 0.05  # of the points clock's 30 s: 1.5 s without a press
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), mention_watching_after=share))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    first = (alice, bob)[table.match.deal.turn]
    hand = hand_message(double, first)
    shown = bot.presenter.shown(table.id)
    held = shown.mention_later  # the wait from their new hand DM
    assert held is not None and not held.done()
    picked = asyncio.get_running_loop().time()
    await double.press_button(first, hand, button(hand, "closed"))  # a pick: still their turn
    await settle(bot)
    assert held.cancelled() and shown.mention_later is not held  # the wait starts again

    await double.wait_for(lambda: mentions_of(double, first), timeout=5)  # idle since the pick
    waited = asyncio.get_running_loop().time() - picked
    assert waited >= share * table.match.deal.rules.turn_seconds  # counted from the press
    assert table.match.deal.turn == [alice, bob].index(first)


BUDGET = 10.0  # the bot's share of requests per second, and the double's global limit: a
# request is counted from leaving until a second after its answer, so none is over it, however
# the double's time to read a burst spreads its arrivals


@pytest.mark.parametrize("budget", [BUDGET, None], ids=["budget", "no budget"])
async def test_requests_outside_the_presenter_are_held_on_the_wire_within_the_budget(
    discord_double: DiscordDouble, bot_runner, tmp_path, budget
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), request_budget=budget))
    limits = double.enforce_limits(global_per_second=int(BUDGET), per_route=100, route_window=1.0)
    channel = bot.get_partial_messageable(double.channel_id)
    posts = int(2 * BUDGET) + 1  # at once: two seconds' share and one more

    await asyncio.gather(*(channel.send(f"post {n}") for n in range(posts)))

    if budget is None:
        assert limits.given  # all at once meet the double's limit
        return
    assert limits.given == []
    sent = sorted(r.at for r in double.requests if r.method == "POST" and r.path.endswith("/messages"))
    assert len(sent) == posts and sent[-1] - sent[0] >= 2.0  # spread over two seconds and more


async def test_while_requests_are_held_on_the_wire_the_budget_still_lets_urgent_ones_first(
    discord_double: DiscordDouble, bot_runner, tmp_path
):
    """A request is counted from leaving until a second after its answer, so the wire lets
    fewer through in a second than the budget hands out: under load requests pile up there, in
    the order they came. A table edit given its token then goes before a hand DM or mention
    asked for later, and the queue grows. The budget hands out no token while requests are held
    on the wire, so what waits, waits in its queue, urgent first."""
    double = discord_double
    budget = 2.0  # requests per second: two at once fill the wire for a second
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), request_budget=budget))
    await bot.presenter.budget.spend(urgent=True)  # what start-up sent has left the wire
    posted: list[str] = []
    two_answered = asyncio.Event()

    async def send(words: str, *, urgent: bool | None) -> None:
        if urgent is not None:  # the presenter's way: a token first
            await bot.presenter.budget.spend(urgent=urgent)
        # each in a channel of its own: discord.py holds none back for another's route
        await bot.get_partial_messageable(double.add_channel(words)).send(words)
        posted.append(words)
        if len(posted) == 2:
            two_answered.set()

    filling = [asyncio.create_task(send(f"other {n}", urgent=None)) for n in range(3)]
    await two_answered.wait()  # the third is held on the wire for a second
    edit = asyncio.create_task(send("table edit", urgent=False))
    while not bot.presenter.budget.waiting:  # the edit asked for its token first
        await asyncio.sleep(0)
    dm = asyncio.create_task(send("urgent", urgent=True))
    await asyncio.gather(*filling, edit, dm)

    assert posted.index("urgent") < posted.index("table edit")


async def test_a_held_back_mention_called_off_while_it_is_being_posted_is_still_kept(
    discord_double: DiscordDouble, bot_runner, tmp_path
):
    """Shutdown calls the held-back mentions off; one already on its way to Discord must still
    be stored as the table's mention, or nothing ever deletes it: a mention naming someone
    whose turn it no longer is, left in the channel for good."""
    double = discord_double
    share = 0.01  # of the points clock's 30 s: mentioned after 0.3 s
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), mention_watching_after=share))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    first = (alice, bob)[table.match.deal.turn]

    (mention,) = await double.wait_for(lambda: mentions_of(double, first))  # Discord has it ...
    await bot.presenter.call_off_mentions()  # ... while the bot waits for the answer
    await settle(bot)

    shown = bot.presenter.shown(table.id)
    assert shown.ping is not None and shown.ping.id == mention.id
