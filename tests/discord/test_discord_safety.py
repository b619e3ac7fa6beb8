"""Safe in any server (issue 23), tried as a hostile member would, through the Discord double:
no message pings more than it means to, what members typed reads as typed, a press counts only
where its component belongs, old prompts are refused before they ask, floods and one member's
greed meet their limits, and nothing the bot sends breaks Discord's documented limits."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from discord_double import DiscordDouble
from test_discord_frontend import (
    answer,
    button,
    drop,
    hand_message,
    make_bot,
    open_table,
    settle,
    table_id_of,
)
from test_discord_league import (
    FIRST_NIGHT,
    LEAGUE,
    NOW,
    announcement,
    at,
    button_of,
    check_in_message,
    only_league,
    tables_of,
)
from test_discord_replay import forged_press, played_deal, replay_button

from bot.discord.safe_text import escaped
from bot.service import ManualClock
from bot.service.table_limits import TableLimits
from bot.store import TableStatus

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
    await drop(double, bot, mover)  # a first drop ends the deal, and the match
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


# --------------------------------------------------------------------- presses where they belong


def elsewhere(double: DiscordDouble) -> int:
    """A channel of another server, where a hostile member crafts presses."""
    return double.add_channel("far", guild_id=double.add_guild("elsewhere"))


async def refused(double: DiscordDouble, ix) -> str:
    said = await answer(double, ix)
    assert ix.ephemeral or double.followups(ix)[-1].ephemeral
    return said


async def test_lobby_buttons_and_the_rules_editor_pressed_from_another_server_change_nothing(
    discord_double, bot_runner, tmp_path
):
    # issue 23: a crafted press from another server seated a non-member, added a computer player
    # and (an admin there) started the table
    double = discord_double
    far = elsewhere(double)
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    lobby, table_id = await open_table(double, bot, alice, bob)
    table = bot.service.table(table_id)
    for who, action in ((carol, "join"), (bob, "computer"), (carol, "start"), (alice, "start")):
        custom_id = f"rummy:lobby:{table_id}:{action}"
        ix = await double.press_button(who, forged_press(lobby, custom_id, far), custom_id, check=False)
        assert "does not belong" in await refused(double, ix)
        await settle(bot)
    assert [seat.name for seat in table.record.seats] == ["alice", "bob"]
    assert table.record.status is TableStatus.OPEN

    opened = await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:rules")
    editor = double.original_response(opened)
    assert editor.ephemeral
    rules = dict(table.record.rules)
    menu = next(c for c in editor.custom_ids() if c.startswith("rummy:rules:"))
    crafted = {**editor.snapshot(), "id": str(editor.id + 10_000), "channel_id": str(far)}
    ix = await double.select(alice, crafted, menu, ["first_drop"], check=False)
    assert "does not belong" in await refused(double, ix)
    value = f"rummy:ruleval:{table_id}:first_drop"
    crafted["components"] = [{"type": 1, "components": [{"type": 3, "custom_id": value, "options": []}]}]
    ix = await double.select(alice, crafted, value, ["10"], check=False)
    assert "does not belong" in await refused(double, ix)
    assert table.record.rules == rules


async def test_a_press_on_a_message_that_is_not_the_tables_is_refused(discord_double, bot_runner, tmp_path):
    # issue 23: the pressed message must be the table's own (a hand's controls: a private one)
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    lobby, table_id = await open_table(double, bot, alice)
    join = f"rummy:lobby:{table_id}:join"
    other = await double.press_button(bob, forged_press(lobby, join, double.channel_id), join, check=False)
    assert f"/{double.channel_id}/{lobby.id}" in await refused(double, other)  # the latest one
    assert bot.service.table(table_id).seat_of(bob.id) is None
    await double.press_button(bob, lobby, join)
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    table = bot.service.table(table_id)
    mover = (alice, bob)[table.match.deal.turn]
    pick = button(hand_message(double, mover), "closed")
    before = table.match.to_json()
    in_public = await double.press_button(
        mover, forged_press(lobby, pick, double.channel_id), pick, check=False
    )
    assert "does not belong" in await refused(double, in_public)
    assert table.match.to_json() == before


async def test_replay_buttons_act_only_on_a_replays_own_private_frame(discord_double, bot_runner, tmp_path):
    # issue 23: a replay id on the live table message turned it into a replay frame
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    await played_deal(double, bot, alice, bob)
    ix = await double.slash_command(alice, "rummy replay")
    await settle(bot)
    frame = double.original_response(ix)
    step = replay_button(frame, "next")
    lobby, _ = await open_table(double, bot, alice, bob)  # a live table message
    shown = double.message(lobby.id).snapshot()
    on_table = {**shown, "components": forged_press(lobby, step, double.channel_id)["components"]}
    data = {"custom_id": step, "component_type": 2}
    crafted = await double._send_interaction(
        3, alice, double.channel_id, data, message=on_table, wait=True, timeout=5.0
    )
    assert "does not belong" in await refused(double, crafted)
    await settle(bot)
    assert double.message(lobby.id).content == shown["content"] and table_id_of(double.message(lobby.id))
    far = await double.press_button(alice, forged_press(frame, step, elsewhere(double)), step, check=False)
    assert "members of the deal's server" in await refused(double, far)


async def test_league_buttons_pressed_from_another_server_sign_up_nobody(
    discord_double, bot_runner, tmp_path
):
    # issue 23: Join / Leave signed up and removed non-members through a crafted press
    double = discord_double
    far = elsewhere(double)
    clock = ManualClock(NOW.timestamp())
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    await answer(
        double, await double.slash_command(double.user("alice"), "league-admin create", options=LEAGUE)
    )
    await settle(bot)
    posted = announcement(double)
    bob = double.user("bob")
    for action in ("join", "leave"):
        custom_id = button_of(posted, action)
        ix = await double.press_button(bob, forged_press(posted, custom_id, far), custom_id, check=False)
        assert "does not belong" in await refused(double, ix)
    elsewhere_here = forged_press(posted, button_of(posted, "join"), double.channel_id)
    ix = await double.press_button(bob, elsewhere_here, button_of(posted, "join"), check=False)
    assert "does not belong" in await refused(double, ix)  # not the announcement itself
    await settle(bot)
    assert only_league(bot, double).league.seasons[-1].night(1).signups == []
    await double.press_button(bob, posted, button_of(posted, "join"))
    await settle(bot)
    assert only_league(bot, double).league.seasons[-1].night(1).signups == [bob.id]


# --------------------------------------------------------------------- old prompts


async def test_a_drop_or_declare_from_an_earlier_turns_reply_is_refused_before_it_asks(
    discord_double, bot_runner, tmp_path
):
    # issue 23: an old Drop opened a live "Drop out of this deal? It costs 20 points" prompt
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    lobby, table_id = await open_table(double, bot, alice, bob, carol)
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    table = bot.service.table(table_id)
    mover = {0: alice, 1: bob, 2: carol}[table.match.deal.turn]
    asked = await double.slash_command(mover, "rummy hand")
    await double.wait_for(lambda: double.followups(asked))
    old = double.followups(asked)[-1]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)
    assert table.match.deal.turn != {alice: 0, bob: 1, carol: 2}[mover]
    before = table.match.to_json()
    for action in ("drop", "declare"):  # Declare greyed out there: as a client that sends it anyway
        ix = await double.press_button(mover, old, button(old, action), check=action == "drop")
        said = await refused(double, ix)
        assert "earlier turn" in said and "Drop out of this deal" not in said
    assert not [m for m in double.ephemerals_to(mover) if "Drop out of this deal" in m.content]
    assert table.match.to_json() == before


# --------------------------------------------------------------------- floods and limits


async def test_a_flood_of_table_commands_posts_the_table_once_and_points_to_it(
    discord_double, bot_runner, tmp_path
):
    # issue 23: /rummy table 10 times in a second posted 10 table messages
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, dave = double.user("alice"), double.user("dave")
    lobby, table_id = await open_table(double, bot, alice)
    posted = lambda: double.requests_matching("POST", rf"/channels/{double.channel_id}/messages")  # noqa: E731
    before = len(posted())
    flood = await double.at_once(*(double.slash_command(dave, "rummy table") for _ in range(10)))
    await settle(bot)
    assert len(posted()) == before + 1
    fresh = bot.presenter.table_message_id(table_id)
    said = [await answer(double, ix) for ix in flood]
    assert all(ix.ephemeral for ix in flood) and said.count("Here it is.") == 1
    assert all(f"/{double.channel_id}/{fresh}" in words for words in said if words != "Here it is.")
    old = await double.press_button(dave, lobby, f"rummy:lobby:{table_id}:join")
    assert f"/{double.channel_id}/{fresh}" in await refused(double, old)  # the older table message
    clock.advance(10)
    await double.slash_command(dave, "rummy table")
    await settle(bot)
    assert len(posted()) == before + 2


async def test_a_member_sits_at_three_tables_and_opens_five_in_ten_minutes(
    discord_double, bot_runner, tmp_path
):
    # issue 23: one member sat at 20 lobbies at once and opened 30 tables in 30 channels in 2 s
    double, clock = discord_double, ManualClock()
    channels = [double.add_channel(f"table-{n}") for n in range(4)]
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob, dave = double.user("alice"), double.user("bob"), double.user("dave")
    for channel in channels[:3]:
        await double.slash_command(alice, "rummy new", options={"format": "points"}, channel=channel)
        await settle(bot)
    double.set_locale(alice, "hi")
    fourth = await double.slash_command(alice, "rummy new", options={"format": "points"}, channel=channels[3])
    assert "आपकी 3 टेबलों पर सीट है" in await refused(double, fourth)
    await double.slash_command(bob, "rummy new", options={"format": "points"}, channel=channels[3])
    await settle(bot)
    joined = await double.slash_command(alice, "rummy join", channel=channels[3])
    assert "3 टेबलों" in await refused(double, joined)
    assert bot.service.table_in(channels[3]).seat_of(alice.id) is None

    here = double.channel_id
    for _ in range(5):  # opened and left (an empty lobby closes): no seat held, but counted
        await double.slash_command(dave, "rummy new", options={"format": "points"})
        await settle(bot)
        await double.slash_command(dave, "rummy leave")
        await settle(bot)
    sixth = await double.slash_command(dave, "rummy new", options={"format": "points"})
    assert "You opened 5 tables in 10 minutes" in await refused(double, sixth)
    assert bot.service.table_in(here) is None
    clock.advance(600)
    await double.slash_command(dave, "rummy new", options={"format": "points"})
    await settle(bot)
    assert bot.service.table_in(here) is not None


async def test_a_server_holds_its_limit_of_open_tables_and_another_server_is_not_counted(
    discord_double, bot_runner, tmp_path
):
    # issue 23: at most so many open tables per server (50 by default; 2 here)
    double, clock = discord_double, ManualClock()
    channels = [double.add_channel(f"table-{n}") for n in range(3)]
    far = elsewhere(double)
    limits = TableLimits(seats_per_member=None, opens_per_member=None, tables_per_server=2)
    bot = await bot_runner.start(make_bot(tmp_path, clock, limits=limits))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    for who, channel in zip((alice, bob), channels, strict=False):
        await double.slash_command(who, "rummy new", options={"format": "points"}, channel=channel)
        await settle(bot)
    third = await double.slash_command(carol, "rummy new", options={"format": "points"}, channel=channels[2])
    assert "This server has its most open tables (2)" in await refused(double, third)
    assert bot.service.table_in(channels[2]) is None
    await double.slash_command(carol, "rummy new", options={"format": "points"}, channel=far)
    await settle(bot)
    assert bot.service.table_in(far) is not None
