"""Every request of the table front end leaves through one outbox, which asks `may_send()`
first: once it says no (a process that may no longer speak for its servers), the table message,
the hand DMs and the turn mention send nothing, while the player's own interaction is answered."""

from __future__ import annotations

from test_discord_frontend import make_bot, settle, start_table

from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)


def channel_requests(double, since: int) -> list:
    """Requests to channels (messages posted, edited, deleted; DMs): the outbox's, not the
    answers to interactions, which go to their own webhook routes."""
    return [r for r in double.requests[since:] if r.path.startswith("/channels/")]


async def test_nothing_leaves_the_outbox_while_it_may_not_send(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    users = [double.user("alice"), double.user("bob")]
    table = await start_table(double, bot, *users)
    await settle(bot)
    sending = False
    bot.presenter.outbox.may_send = lambda: sending
    marker = len(double.requests)
    mover = users[table.match.deal.turn]
    picked = await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await settle(bot)
    assert channel_requests(double, marker) == []
    assert double.followups(picked)  # the mover's own command is still answered
    sending = True
    marker = len(double.requests)
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)
    assert channel_requests(double, marker)  # the same front end sends again once it may
