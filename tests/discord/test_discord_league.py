"""Scheduled pool leagues on Discord, end to end: the real discord.py client against the Discord
double, a real SQLite file, the real table and league services on a `ManualClock`. Admins create
and run leagues, members sign up, a night is seated into threads, checked in and played to the
end by the clock acting for the seats, and a restart in the middle of a night resumes it."""

from __future__ import annotations

import asyncio
import io
import re
from datetime import UTC, datetime, timedelta

import discord
from discord_double import DiscordDouble
from PIL import Image
from test_discord_frontend import answer, make_bot, settle

from bot.discord.bot import RummyBot
from bot.leagues import NightStatus
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)

# Monday 2 March 2026, 12:00 UTC: the league's first Friday 20:00 in Kolkata is 6 March, 14:30 UTC.
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
FIRST_NIGHT = datetime(2026, 3, 6, 14, 30, tzinfo=UTC)
MEMBER = discord.Permissions(send_messages=True, use_application_commands=True).value
LEAGUE = {
    "name": "Friday Pool",
    "format": "pool-61",
    "schedule": "every Friday 20:00",
    "timezone": "Asia/Kolkata",
    "seats_per_table": 3,
}


async def start(double: DiscordDouble, bot_runner, tmp_path, clock: ManualClock) -> RummyBot:
    bot: RummyBot = await bot_runner.start(make_bot(tmp_path, clock))
    return bot


async def league_with(
    double: DiscordDouble, bot_runner, tmp_path, *members: str
) -> tuple[RummyBot, ManualClock]:
    """A bot on a clock at NOW with the league created and `members` signed up for night 1."""
    clock = ManualClock(NOW.timestamp())
    bot = await start(double, bot_runner, tmp_path, clock)
    await create_league(double, bot)
    if members:
        await sign_up(double, bot, *members)
    return bot, clock


async def create_league(double: DiscordDouble, bot: RummyBot, **changes: object) -> str:
    ix = await double.slash_command(
        double.user("alice"), "league-admin create", options={**LEAGUE, **changes}
    )
    words = await answer(double, ix)
    await settle(bot)
    return words


def announcement(double: DiscordDouble, night: int = 1):
    return next(
        m
        for m in reversed(double.messages_to(double.channel_id))
        if any(cid.startswith("rummy:league:join:") and cid.endswith(f":{night}") for cid in m.custom_ids())
    )


def button_of(message, action: str) -> str:
    return next(cid for cid in message.custom_ids() if cid.startswith(f"rummy:league:{action}:"))


def channel_text(double: DiscordDouble, channel_id: int | None = None) -> str:
    return "\n".join(m.content for m in double.messages_to(channel_id or double.channel_id))


async def at(bot: RummyBot, clock: ManualClock, instant: datetime) -> None:
    """Moves the clock to `instant` and lets the league scheduler and the table clocks act, as
    their production loops would, showing what they did."""
    clock.time = instant.timestamp()
    await bot.league_presenter.publish(await bot.leagues.tick())
    await bot.service.fire_due()
    await settle(bot)


async def sign_up(double: DiscordDouble, bot: RummyBot, *names: str) -> None:
    for name in names:
        await double.slash_command(double.user(name), "league join")
        await settle(bot)


def only_league(bot: RummyBot, double: DiscordDouble):
    (record,) = bot.leagues.leagues(double.guild_id)
    return record


# --------------------------------------------------------------------- creating a league


async def test_a_member_cannot_create_a_league_and_an_admin_publishes_its_first_night(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await start(double, bot_runner, tmp_path, ManualClock(NOW.timestamp()))
    bob = double.user("bob")
    double.set_permissions(bob, MEMBER)
    refused = await double.slash_command(bob, "league-admin create", options=LEAGUE)
    assert "Manage Server" in await answer(double, refused)
    assert refused.ephemeral or double.followups(refused)[-1].ephemeral
    assert bot.leagues.leagues(double.guild_id) == [] and double.scheduled_events == {}
    # Discord shows /league-admin only to Manage Server (0x20) and never in DMs; /league to all
    admin, members = double.global_commands["league-admin"], double.global_commands["league"]
    assert int(admin["default_member_permissions"]) == 32 and members["default_member_permissions"] is None
    assert admin.get("contexts") == [0] or admin.get("dm_permission") is False
    assert {o["name"] for o in admin["options"]} >= {"create", "season", "postpone", "adjust", "abandon"}
    assert {o["name"] for o in members["options"]} == {"join", "leave", "here", "standings", "history", "me"}

    bad = await create_league(double, bot, timezone="Mars/Olympus")
    assert "time zone" in bad and double.scheduled_events == {}

    words = await create_league(double, bot)
    assert "Friday Pool" in words and f"<t:{int(FIRST_NIGHT.timestamp())}" in words
    (event,) = double.scheduled_events.values()
    assert datetime.fromisoformat(event["scheduled_start_time"]) == FIRST_NIGHT
    assert datetime.fromisoformat(event["scheduled_end_time"]) > FIRST_NIGHT
    assert event["entity_type"] == 3 and event["entity_metadata"]["location"] == "#general"
    assert event["name"] == "Friday Pool · Night 1"
    assert "/league join" in event["description"] and "1st 10" in event["description"]
    assert f"<#{double.channel_id}>" in event["description"]
    post = announcement(double)
    assert f"<t:{int(FIRST_NIGHT.timestamp())}:F>" in post.content
    record = only_league(bot, double)
    night = record.league.next_night
    assert night.event_id == int(event["id"]) and record.announcement[1] == post.id

    again = await create_league(double, bot)
    assert "already" in again.lower() and len(double.scheduled_events) == 1


# --------------------------------------------------------------------- signing up


async def test_members_sign_up_by_command_and_button_and_are_reminded_once(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path)
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    await sign_up(double, bot, "alice")
    post = announcement(double)
    await double.press_button(bob, post, button_of(post, "join"))
    await settle(bot)
    twice = await double.press_button(bob, post, button_of(post, "join"))
    assert "already signed up" in await answer(double, twice)
    await double.press_button(carol, post, button_of(post, "join"))
    await double.press_button(carol, post, button_of(post, "leave"))
    await settle(bot)
    night = only_league(bot, double).league.next_night
    assert night.signups == [alice.id, bob.id]
    post = double.message(post.id)
    assert f"<@{alice.id}>, <@{bob.id}>" in post.content and f"<@{carol.id}>" not in post.content

    def reminders() -> list[str]:
        return [m.content for m in double.messages_to(double.channel_id) if m.content.startswith("⏰")]

    await at(bot, clock, FIRST_NIGHT - timedelta(hours=24))
    await at(bot, clock, FIRST_NIGHT - timedelta(hours=23))
    assert len(reminders()) == 1 and f"<@{alice.id}>, <@{bob.id}>" in reminders()[0]
    await at(bot, clock, FIRST_NIGHT - timedelta(minutes=15))
    await at(bot, clock, FIRST_NIGHT - timedelta(minutes=14))
    assert len(reminders()) == 2
    late = await double.press_button(carol, post, button_of(post, "leave"))
    assert "not signed up" in await answer(double, late)


# --------------------------------------------------------------------- admin tools


async def test_postponing_edits_the_event_and_cancelling_cancels_it(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot, _ = await league_with(double, bot_runner, tmp_path)
    bob = double.user("bob")
    double.set_permissions(bob, MEMBER)
    options = {"when": "2026-03-07 21:00", "reason": "Holi"}
    refused = await double.slash_command(bob, "league-admin postpone", options=options)
    assert "Manage Server" in await answer(double, refused)
    (event,) = double.scheduled_events.values()
    assert datetime.fromisoformat(event["scheduled_start_time"]) == FIRST_NIGHT

    done = await double.slash_command(double.user("alice"), "league-admin postpone", options=options)
    assert "Postponed" in await answer(double, done)
    await settle(bot)
    moved = datetime(2026, 3, 7, 15, 30, tzinfo=UTC)  # 21:00 in Kolkata
    assert datetime.fromisoformat(event["scheduled_start_time"]) == moved
    assert datetime.fromisoformat(event["scheduled_end_time"]) > moved
    assert "postponed" in channel_text(double) and "Holi" in channel_text(double)
    assert "Postponed" in announcement(double).content

    done = await double.slash_command(
        double.user("alice"), "league-admin cancel", options={"reason": "Server move"}
    )
    await answer(double, done)
    await settle(bot)
    assert event["status"] == 4
    assert "cancelled" in channel_text(double) and "Server move" in channel_text(double)
    record = only_league(bot, double)
    assert record.league.seasons[-1].night(1).status is NightStatus.CANCELLED


# --------------------------------------------------------------------- a night


def thread_ids(double: DiscordDouble) -> list[int]:
    return [
        rec.channel_id
        for rec in double.requests_matching("POST", r"/channels/\d+/threads")
        if rec.status < 300
    ]


def check_in_message(double: DiscordDouble, thread_id: int):
    return next(
        m for m in double.messages_to(thread_id) if any("rummy:league:here:" in c for c in m.custom_ids())
    )


async def check_in(double: DiscordDouble, bot: RummyBot, thread_id: int, *names: str) -> None:
    """The members press I'm here in their table's thread, one after the other."""
    for name in names:
        message = check_in_message(double, thread_id)
        await double.press_button(double.user(name), message, button_of(message, "here"))
        await settle(bot)


async def play_out(double: DiscordDouble, bot: RummyBot, clock: ManualClock, *, steps: int = 400) -> None:
    """Lets the clock run the night: every seat's turn times out (three in a row are a drop), the
    next deal starts on its own, and check-in deadlines pass, until the night is over."""
    for _ in range(steps):
        record = only_league(bot, double)
        if record.league.seasons[-1].night(1).status is NightStatus.FINISHED:
            return
        await at(bot, clock, datetime.fromtimestamp(clock.now() + 100, UTC))
    raise AssertionError("the night did not finish")


def tables_of(bot: RummyBot, double: DiscordDouble):
    return only_league(bot, double).league.seasons[-1].night(1).round_tables()


async def test_a_night_is_seated_in_threads_checked_in_played_out_and_scored(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    double.add_user("erin")
    bot, clock = await league_with(double, bot_runner, tmp_path)
    names = ("alice", "bob", "carol", "dave", "erin")
    await sign_up(double, bot, *names)
    users = {double.user(name).id: double.user(name) for name in names}
    early = await answer(double, await double.slash_command(double.user("alice"), "league standings"))
    assert "standings appear once night 1" in early  # not an empty chart

    await at(bot, clock, FIRST_NIGHT)
    playing = await answer(double, await double.slash_command(double.user("alice"), "league standings"))
    assert "No table of night 1 has finished yet" in playing
    (event,) = double.scheduled_events.values()
    assert event["status"] == 2  # the Discord event is live while the night is played
    threads = thread_ids(double)
    tables = tables_of(bot, double)
    assert sorted(len(t.seats) for t in tables) == [2, 3] and len(threads) == 2
    assert {t.thread_id for t in tables} == set(threads)
    posted = double.message(only_league(bot, double).announcement[1])
    assert "Sign-up is closed" in posted.content and posted.custom_ids() == []
    for table in tables:
        added = double.requests_matching("PUT", rf"/channels/{table.thread_id}/thread-members/\d+")
        assert sorted(int(rec.path.rsplit("/", 1)[1]) for rec in added) == sorted(table.seats)
        assert double.channels[table.thread_id]["parent_id"] == str(double.channel_id)
        message = check_in_message(double, table.thread_id)
        assert all(f"<@{user}>" in message.content for user in table.seats)

    three, two = sorted(tables, key=lambda t: -len(t.seats))
    for user in three.seats:  # everyone at the table of three comes: it starts at once
        message = check_in_message(double, three.thread_id)
        await double.press_button(users[user], message, button_of(message, "here"))
        await settle(bot)
    assert bot.service.table_in(three.thread_id).match is not None
    assert "The game starts" in channel_text(double, three.thread_id)
    here, absent = two.seats
    message = check_in_message(double, two.thread_id)
    await double.press_button(users[here], message, button_of(message, "here"))
    await settle(bot)
    assert "Waiting for: " + f"<@{absent}>" in double.message(message.id).content
    stranger = next(u for u in three.seats)
    refused = await double.press_button(users[stranger], message, button_of(message, "here"), check=False)
    assert "not" in (await answer(double, refused)).lower()

    await play_out(double, bot, clock)
    night = only_league(bot, double).league.seasons[-1].night(1)
    two = night.table(1, two.number)
    assert [p.user_id for p in two.placings if p.no_show] == [absent]  # a walkover for the one who came
    assert [(p.user_id, p.points, p.won) for p in two.placings if not p.no_show] == [(here, 10, True)]
    three = night.table(1, three.number)
    # 10 for the winner, 6 + 4 for the others (shared when they went out together)
    assert three.placings[0].won and three.placings[0].points == 10
    assert sum(p.points for p in three.placings) == 20 and not any(p.no_show for p in three.placings)
    assert event["status"] == 3
    league_channel = channel_text(double)
    assert league_channel.count("is over.**") == 2 and "no-show" in league_channel
    (post,) = [m for m in double.messages_to(double.channel_id) if "league-standings.png" in str(m.files)]
    picture = next(f for f in post.files.values() if f.filename == "league-standings.png")
    image = Image.open(io.BytesIO(picture.data))
    assert image.format == "PNG" and image.width > 400
    image.save(tmp_path / "league-standings.png")

    asked = await double.slash_command(double.user("alice"), "league standings")
    await double.wait_for(lambda: double.followups(asked))
    private = double.followups(asked)[-1]
    assert private.ephemeral and picture.data == next(iter(private.files.values())).data
    winner = users[three.placings[0].user_id]
    me = await answer(double, await double.slash_command(winner, "league me"))
    assert "Rank 1" in me or "Rank 2" in me
    assert "Night 1: #1 (10 pts)" in me
    history = await answer(double, await double.slash_command(double.user("alice"), "league history"))
    assert "Night 1" in history and "finished" in history and "no-show" in history


async def test_a_restart_in_the_middle_of_a_night_resumes_it(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path)
    alice, bob = double.user("alice"), double.user("bob")
    await sign_up(double, bot, "alice", "bob")
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    message = check_in_message(double, table.thread_id)
    await double.press_button(alice, message, button_of(message, "here"))
    await settle(bot)

    # Down during the check-in: the new bot takes over, and the old button still works.
    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    await double.press_button(bob, message, button_of(message, "here"))
    await settle(bot)
    playing = bot.service.table_in(table.thread_id)
    assert playing is not None and playing.match is not None and playing.record.league_id is not None
    # The restarted bot still knew the check-in message: it says who came and loses its button.
    assert "In:" in double.messages[message.id].content and not double.messages[message.id].custom_ids()
    for _ in range(6):  # some turns time out
        await at(bot, clock, datetime.fromtimestamp(clock.now() + 100, UTC))
    played = len(playing.match.log)
    assert played > 0

    # Down in the middle of the game: the table and the night resume and are played out.
    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    assert len(bot.service.table_in(table.thread_id).match.log) == played
    await play_out(double, bot, clock)
    placings = tables_of(bot, double)[0].placings
    assert sorted(p.points for p in placings) == [6, 10]
    assert len(thread_ids(double)) == 1  # no table was seated twice
    assert any("league-standings.png" in str(m.files) for m in double.messages_to(double.channel_id))


async def test_missing_permissions_are_said_in_the_channel_and_do_not_stop_the_league(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    clock = ManualClock(NOW.timestamp())
    bot = await start(double, bot_runner, tmp_path, clock)
    forbidden = {"message": "Missing Permissions", "code": 50013}
    double.inject("POST", r"/guilds/\d+/scheduled-events", 403, forbidden)
    await create_league(double, bot)
    assert double.scheduled_events == {} and "Manage Events" in channel_text(double)
    assert only_league(bot, double).league.next_night.event_id is None
    await sign_up(double, bot, "alice", "bob")  # the announcement went out all the same
    assert "<@" in announcement(double).content

    refusal = double.inject("POST", r"/channels/\d+/threads", 403, forbidden, times=None)
    await at(bot, clock, FIRST_NIGHT)
    await at(bot, clock, FIRST_NIGHT + timedelta(minutes=1))
    assert channel_text(double).count("Create Public Threads") == 1
    assert thread_ids(double) == []
    refusal.times = 0  # the admin gives the permission: the next pass opens the thread
    await at(bot, clock, FIRST_NIGHT + timedelta(minutes=2))
    (table,) = tables_of(bot, double)
    assert table.thread_id in thread_ids(double) and check_in_message(double, table.thread_id)


# --------------------------------------------------------------------- check-in is never lost


async def test_closing_waits_for_a_league_pass_in_flight_and_shows_what_it_did(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path, "alice", "bob")
    clock.time = FIRST_NIGHT.timestamp()
    leagues, tick = bot.leagues, bot.leagues.tick

    async def slow_tick() -> list:
        """The scheduler's pass is still seating the night when the process is asked to stop."""
        await bot._stop.wait()
        await asyncio.sleep(0.05)
        return await tick()

    leagues.tick = slow_tick
    (old, scheduler) = bot._timers[1], asyncio.create_task(leagues.run(bot._stop))
    old.cancel()
    bot._timers[1] = scheduler
    await asyncio.sleep(0)
    await bot_runner.stop(bot)
    (table,) = tables_of(bot, double)
    assert check_in_message(double, table.thread_id)  # posted before the HTTP session closed


async def test_a_check_in_announced_again_edits_its_message_with_the_fresh_deadline(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path, "alice", "bob")
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    message = check_in_message(double, table.thread_id)
    alice = double.user("alice")
    await double.press_button(alice, message, button_of(message, "here"))
    await settle(bot)

    # Down for five minutes: on waking the service announces the check-in again, with a fresh window.
    clock.time = (FIRST_NIGHT + timedelta(minutes=5)).timestamp()
    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    fresh = FIRST_NIGHT + timedelta(minutes=15)
    await double.wait_for(lambda: f"<t:{int(fresh.timestamp())}:R>" in double.message(message.id).content)
    posted = [m for m in double.messages_to(table.thread_id) if m.custom_ids()]
    assert [m.id for m in posted] == [message.id]  # the same message, not a second one
    edited = double.message(message.id)
    assert f"<t:{int(fresh.timestamp())}:R>" in edited.content and f"In: <@{alice.id}>" in edited.content
    assert button_of(edited, "here")


async def test_a_thread_that_refuses_the_check_in_is_told_in_the_league_channel_and_here_checks_in(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path, "alice", "bob")
    forbidden = {"message": "Missing Permissions", "code": 50013}
    double.inject("POST", rf"/channels/(?!{double.channel_id})\d+/messages", 403, forbidden)
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    assert not [m for m in double.messages_to(table.thread_id) if m.custom_ids()]
    said = channel_text(double)
    assert f"<#{table.thread_id}>" in said and "`/league here`" in said
    assert all(f"<@{user}>" in said.rsplit("⚠️", 1)[1] for user in table.seats)

    alice = double.user("alice")
    elsewhere = await double.slash_command(alice, "league here")
    assert "your table's thread" in await answer(double, elsewhere)
    assert double.followups(elsewhere)[-1].ephemeral
    for name in ("alice", "bob"):
        ix = await double.slash_command(double.user(name), "league here", channel=table.thread_id)
        assert "checked in" in await answer(double, ix)
        await settle(bot)
    playing = bot.service.table_in(table.thread_id)
    assert playing is not None and playing.match is not None


async def test_rummy_new_in_a_league_table_thread_is_refused_privately(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path, "alice", "bob")
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    stranger = double.user("carol")
    options = {"format": "pool-61"}
    ix = await double.slash_command(stranger, "rummy new", options=options, channel=table.thread_id)
    assert "league table" in await answer(double, ix) and ix.ephemeral
    assert bot.service.table_in(table.thread_id) is None


# --------------------------------------------------------------------- Discord's limits


async def test_a_crowded_night_keeps_its_announcement_and_reminder_within_discords_limit(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    crowd = [double.add_user(f"member{n}") for n in range(80)]
    bot, clock = await league_with(double, bot_runner, tmp_path)
    for member in crowd[:-1]:
        joined = await bot.leagues.join(double.guild_id, None, member.id, member.name)
        await bot.league_presenter.publish(joined)
    post = announcement(double)
    await double.press_button(crowd[-1], post, button_of(post, "join"))  # the edit Discord must accept
    await settle(bot)
    post = double.message(post.id)
    assert "Signed up (80)" in post.content and len(post.content) <= 2000
    assert f"<@{crowd[0].id}>" in post.content and re.search(r"> and \d+ more\n", post.content)
    edits = double.requests_matching("PATCH", r"/channels/\d+/messages/\d+")
    assert edits and all(rec.status < 300 for rec in edits)

    await at(bot, clock, FIRST_NIGHT - timedelta(hours=24))
    (reminder,) = [m.content for m in double.messages_to(double.channel_id) if m.content.startswith("⏰")]
    assert len(reminder) <= 2000 and reminder.endswith("Not in yet? `/league join`.")
    assert re.search(r"> and \d+ more\. Not in", reminder)


async def test_an_event_created_for_a_night_cancelled_meanwhile_is_cancelled_too(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    clock = ManualClock(NOW.timestamp())
    bot = await start(double, bot_runner, tmp_path, clock)
    alice = double.user("alice")
    # The league is created but its night not yet published when an admin cancels that night.
    opening = await bot.leagues.create(
        double.guild_id,
        alice.id,
        "Friday Pool",
        "pool-61",
        "every Friday 20:00",
        "Asia/Kolkata",
        3,
        1,
        double.channel_id,
    )
    cancel = await double.slash_command(
        alice, "league-admin cancel", options={"reason": "Hall booked", "night": 1}
    )
    assert "Cancelled night 1" in await answer(double, cancel)
    await settle(bot)
    await bot.league_presenter.publish(opening)
    await settle(bot)
    record = only_league(bot, double)
    first = record.league.seasons[-1].night(1)
    assert first.status is NightStatus.CANCELLED and first.event_id is not None
    assert double.scheduled_events[first.event_id]["status"] == 4  # cancelled on Discord too
    assert "Cancelled" in double.message(record.announcement[1]).content


async def test_a_cancel_submitted_twice_cancels_one_night_and_names_it(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot, _ = await league_with(double, bot_runner, tmp_path)
    alice = double.user("alice")
    offered = await double.autocomplete(alice, "league-admin cancel", focused="night", options={"night": 1})
    assert [choice["value"] for choice in offered] == [1]
    assert offered[0]["name"] == "Night 1 · Friday 2026-03-06 20:00 Asia/Kolkata"  # the league's own time
    options = {"reason": "Hall booked", "night": 1}
    first, second = await double.at_once(
        double.slash_command(alice, "league-admin cancel", options=options),
        double.slash_command(alice, "league-admin cancel", options=options),
    )
    words = sorted([await answer(double, first), await answer(double, second)])
    await settle(bot)
    assert words[0].startswith("Cancelled night 1.") and "Night 1 is no longer waiting" in words[1]
    nights = only_league(bot, double).league.seasons[-1].nights
    assert [n.status for n in nights[:2]] == [NightStatus.CANCELLED, NightStatus.SIGNUP]

    postponed = await double.slash_command(
        alice, "league-admin postpone", options={"when": "2026-03-14 21:00", "reason": "Holi"}
    )
    assert (await answer(double, postponed)).startswith("Postponed night 2.")


async def test_an_admin_abandons_a_stuck_table_and_the_night_ends(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path, "alice", "bob")
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    await check_in(double, bot, table.thread_id, "alice", "bob")
    assert bot.service.table_in(table.thread_id).match is not None
    options = {"night": 1, "table": table.number, "reason": "The game is stuck"}
    bob = double.user("bob")
    double.set_permissions(bob, MEMBER)
    refused = await double.slash_command(bob, "league-admin abandon", options=options)
    assert "Manage Server" in await answer(double, refused)

    done = await double.slash_command(double.user("alice"), "league-admin abandon", options=options)
    assert "abandoned" in await answer(double, done)
    await settle(bot)
    night = only_league(bot, double).league.seasons[-1].night(1)
    assert night.status is NightStatus.FINISHED and night.table(1, table.number).settled
    assert bot.service.table_in(table.thread_id) is None
    assert all("The game is stuck" in channel_text(double, where) for where in (None, table.thread_id))
    again = await double.slash_command(double.user("alice"), "league-admin abandon", options=options)
    assert "not being played" in await answer(double, again)


async def test_create_refuses_a_thread_and_a_channel_where_the_bot_lacks_what_a_league_needs(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await start(double, bot_runner, tmp_path, ManualClock(NOW.timestamp()))
    alice = double.user("alice")
    thread = await bot.get_channel(double.channel_id).create_thread(
        name="chat", type=discord.ChannelType.public_thread
    )
    in_thread = await double.slash_command(alice, "league-admin create", options=LEAGUE, channel=thread.id)
    assert "text channel" in await answer(double, in_thread)
    assert double.followups(in_thread)[-1].ephemeral

    no_threads = discord.Permissions.all()
    no_threads.create_public_threads = no_threads.send_messages_in_threads = False
    double.set_app_permissions(double.channel_id, no_threads.value)
    refused = await create_league(double, bot)
    assert "Create Public Threads, Send Messages in Threads" in refused
    assert bot.leagues.leagues(double.guild_id) == [] and double.scheduled_events == {}
    double.set_app_permissions(double.channel_id, discord.Permissions.all().value)
    assert "is created" in await create_league(double, bot)


async def test_a_league_channel_turned_into_a_forum_is_told_not_asserted(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path, "alice", "bob")
    data = double.channels[double.channel_id]
    await double.dispatch("CHANNEL_DELETE", dict(data))
    data.update(type=15, available_tags=[], default_reaction_emoji=None)  # a forum now
    await double.dispatch("CHANNEL_CREATE", dict(data))
    for _ in range(200):  # the gateway event reaches the bot's cache
        if isinstance(bot.get_channel(double.channel_id), discord.ForumChannel):
            break
        await asyncio.sleep(0.01)
    await at(bot, clock, FIRST_NIGHT)
    await at(bot, clock, FIRST_NIGHT + timedelta(minutes=1))
    assert channel_text(double).count("no longer a text channel") == 1 and thread_ids(double) == []


async def test_the_time_zone_is_offered_as_the_admin_types_and_checked(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await start(double, bot_runner, tmp_path, ManualClock(NOW.timestamp()))
    alice = double.user("alice")
    offered = await double.autocomplete(
        alice, "league-admin create", focused="timezone", options={"timezone": "kol"}
    )
    assert offered[0]["value"] == "Asia/Kolkata"
    london = await double.autocomplete(
        alice, "league-admin create", focused="timezone", options={"timezone": "london"}
    )
    assert [choice["value"] for choice in london] == ["Europe/London"]
    words = await create_league(double, bot, timezone="Mars/Olympus_Mons")
    assert "I don't know the time zone" in words and not bot.leagues.leagues(double.guild_id)


async def test_an_admin_deletes_a_league_between_nights_and_its_event_is_cancelled(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot, _ = await league_with(double, bot_runner, tmp_path, "bob")
    alice, bob = double.user("alice"), double.user("bob")
    event_id = only_league(bot, double).league.next_night.event_id
    assert event_id is not None
    slip = await double.slash_command(
        alice, "league-admin delete", options={"league": "Friday Pool", "confirm": "x"}
    )
    assert "type its name again" in await answer(double, slip)
    double.set_permissions(bob, MEMBER)
    member = {"league": "Friday Pool", "confirm": "Friday Pool"}
    assert "Manage Server" in await answer(
        double, await double.slash_command(bob, "league-admin delete", options=member)
    )
    assert bot.leagues.leagues(double.guild_id)
    deleted = await double.slash_command(alice, "league-admin delete", options=member)
    assert "Deleted **Friday Pool**" in await answer(double, deleted)
    await settle(bot)
    assert bot.leagues.leagues(double.guild_id) == []
    assert bot.leagues._locks == {}  # nothing of the league lingers in memory
    assert double.scheduled_events[event_id]["status"] == 4  # cancelled on Discord too
    public = [m for m in double.messages_to(double.channel_id) if m.to_user is None]
    assert "was deleted by an admin" in public[-1].content
    bot = await bot_runner.restart(bot, make_bot(tmp_path, ManualClock(NOW.timestamp())))
    assert bot.leagues.leagues(double.guild_id) == []  # gone from the database, not just memory


async def test_a_channel_named_to_discords_limit_still_gets_its_nights_event(
    discord_double, bot_runner, tmp_path
):
    # Discord takes channel names and event locations of up to 100 characters: "#" + name is cut
    double = discord_double
    name = "r" * 100
    double.channels[double.channel_id]["name"] = name
    await league_with(double, bot_runner, tmp_path)
    (event,) = double.scheduled_events.values()
    assert event["entity_metadata"]["location"] == "#" + name[:98] + "…"  # cut where Discord stops


async def test_a_league_table_closed_by_a_command_is_settled_at_once(discord_double, bot_runner, tmp_path):
    """The league service hears every batch the table service saves (subscribed where the bot
    is built), so a league table cancelled by `/rummy cancel` is settled by that command, not
    at the league scheduler's next wake (the clock does not move here)."""
    double = discord_double
    bot, clock = await league_with(double, bot_runner, tmp_path, "alice", "bob")
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    await check_in(double, bot, table.thread_id, "alice", "bob")
    cancelled = await double.slash_command(double.user("alice"), "rummy cancel", channel=table.thread_id)
    assert "cancel" in (await answer(double, cancelled)).lower()
    await settle(bot)
    night = only_league(bot, double).league.seasons[-1].night(1)
    assert night.table(1, table.number).settled and night.status is NightStatus.FINISHED
