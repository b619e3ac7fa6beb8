"""Safe in any server (issue 23), tried as a hostile member would, through the Discord double:
no message pings more than it means to, what members typed reads as typed, and nothing the bot
sends breaks Discord's documented limits."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from discord_double import DiscordDouble
from test_discord_frontend import answer, make_bot, open_table, settle
from test_discord_league import (
    FIRST_NIGHT,
    LEAGUE,
    NOW,
    announcement,
    at,
    button_of,
    check_in_message,
    tables_of,
)

from bot.discord.safe_text import escaped
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)

MENTION = re.compile(r"<@!?(\d+)>")


def hostile(double: DiscordDouble, who: str) -> str:
    """A display name that tries every trick a name can: a mass ping, a role ping, a masked link
    and markdown."""
    return f"{who} @everyone <@&{double.guild_id}> [gift](https://x.example) **bold**"


def sent_words(double: DiscordDouble) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Every message the bot sent or edited with words in it (in a channel, a DM, an answer to
    an interaction): the request and the message's JSON."""
    for request in double.requests:
        body = request.body
        message = body.get("data") if isinstance(body, dict) and request.path.endswith("/callback") else body
        if isinstance(message, dict) and message.get("content"):
            yield request, message


def pinged(message: dict[str, Any]) -> set[int]:
    """Whom a message may ping, checked to be no role, no @everyone, and only users it mentions."""
    allowed = message.get("allowed_mentions")
    assert allowed is not None, f"no allowed_mentions on {message['content']!r}"
    assert allowed["parse"] == [] and not allowed.get("roles"), allowed
    users = {int(user) for user in allowed.get("users", [])}
    assert users <= {int(user) for user in MENTION.findall(message["content"])}, message["content"]
    return users


def reads_as_typed(content: str, name: str) -> bool:
    """The hostile name shown escaped, and none of its tricks left to work."""
    unescaped_link = re.search(r"(?<!\\)\[gift\]\(", content)
    return escaped(name) in content and "@everyone" not in content and unescaped_link is None


# --------------------------------------------------------------------- mentions and names


async def test_a_name_full_of_tricks_pings_nobody_and_reads_as_typed_in_every_table_post(
    discord_double, bot_runner, tmp_path
):
    # issue 23: mentions are opt-in; a turn mention and the closed-DMs note ping their person only
    double, clock = discord_double, ManualClock()
    eve, mal = double.add_user(hostile(double, "eve")), double.add_user(hostile(double, "mal"))
    double.close_dms(mal)
    bot = await bot_runner.start(make_bot(tmp_path, clock, mention_watching_after=0))
    lobby, table_id = await open_table(double, bot, eve, mal)
    assert reads_as_typed(lobby.content, eve.name) and reads_as_typed(lobby.content, mal.name)
    await double.press_button(eve, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    table = bot.service.table(table_id)
    mover = (eve, mal)[table.match.deal.turn]
    await double.slash_command(mover, "rummy drop")  # a first drop ends the deal, and the match
    await settle(bot)
    assert table.match.phase == "over"

    posts = [m.content for m in double.messages_to(double.channel_id)]
    result = next(post for post in posts if post.startswith("🏆"))
    winner = mal if mover is eve else eve
    assert reads_as_typed(result, winner.name)
    assert reads_as_typed(double.message(lobby.id).content, mover.name)  # "… drops" in its moves
    assert all("@everyone" not in post and f"<@&{double.guild_id}>" not in post for post in posts)
    pings = [(message["content"], pinged(message)) for _, message in sent_words(double)]
    assert any(f"<@{eve.id}>" in content for content, _ in pings)  # the lobby names its host: no ping
    assert any(users == {mal.id} and "direct messages" in content for content, users in pings)
    turn = [(content, users) for content, users in pings if ">, your turn" in content]
    assert turn and all(users == {int(MENTION.match(content)[1])} for content, users in turn)
    others = [
        users
        for content, users in pings
        if "direct messages" not in content and ">, your turn" not in content
    ]
    assert not any(others)


async def test_league_posts_ping_their_members_only_and_show_names_and_reasons_as_typed(
    discord_double, bot_runner, tmp_path
):
    # issue 23: league reminders and check-ins ping their members; names and reasons escaped;
    # an abandoned table's members have no placing (it said "#None")
    double = discord_double
    eve = double.add_user(hostile(double, "eve"))
    clock = ManualClock(NOW.timestamp())
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    name = f"@everyone <@&{double.guild_id}> **L**"
    created = await double.slash_command(
        double.user("alice"), "league-admin create", options={**LEAGUE, "name": name}
    )
    await answer(double, created)
    await settle(bot)
    posted = announcement(double)
    await double.press_button(eve, posted, button_of(posted, "join"))
    await double.slash_command(double.user("bob"), "league join")
    await settle(bot)
    await at(bot, clock, FIRST_NIGHT - timedelta(hours=24))  # the day before: a reminder
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    for who in (eve, double.user("bob")):
        message = check_in_message(double, table.thread_id)
        await double.press_button(who, message, button_of(message, "here"))
        await settle(bot)
    reason = "stuck [here](https://x.example) @everyone"
    options = {"night": 1, "table": table.number, "reason": reason}
    await answer(
        double, await double.slash_command(double.user("alice"), "league-admin abandon", options=options)
    )
    await settle(bot)

    members = {eve.id, double.user("bob").id}
    league_posts = [
        (message, pinged(message))
        for request, message in sent_words(double)
        if request.channel_id in (double.channel_id, table.thread_id)
    ]
    reminders = [users for message, users in league_posts if message["content"].startswith("⏰")]
    check_ins = [users for message, users in league_posts if message["content"].startswith("🎴")]
    assert reminders and all(users == members for users in reminders)
    assert check_ins and all(users == members for users in check_ins)
    words = "\n".join(message["content"] for message, _ in league_posts)
    assert escaped(name) in words and escaped(reason) in words and reads_as_typed(words, eve.name)
    assert "#None" not in words and "no placing" in words
    assert "@everyone" not in words.replace(escaped(name), "").replace(escaped(reason), "")
    events = list(double.scheduled_events.values())  # night 1, then night 2 once it ended
    assert events and all(event["name"].startswith(name) for event in events)  # plain text there


async def test_a_league_in_a_channel_with_a_100_character_name_still_gets_its_scheduled_event(
    discord_double, bot_runner, tmp_path
):
    # issue 23: the event's location was "#" + the channel's name, 101 characters
    double = discord_double
    long_named = double.add_channel("c" * 100)
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(NOW.timestamp())))
    ix = await double.slash_command(
        double.user("alice"), "league-admin create", options=LEAGUE, channel=long_named
    )
    assert "is created" in await answer(double, ix)
    await settle(bot)
    (event,) = double.scheduled_events.values()
    location = event["entity_metadata"]["location"]
    assert len(location) <= 100 and location.startswith("#ccc") and location.endswith("…")
    assert len(event["name"]) <= 100 and len(event["description"]) <= 1000
