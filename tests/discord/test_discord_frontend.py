"""The Discord front end end to end: the real discord.py client against the Discord double,
with a real SQLite file and the real table service; several users play through slash commands,
buttons and menus."""

import io
import re

import pytest
from discord_double import DiscordDouble
from discord_double.records import walk_components
from PIL import Image

from bot.app import runtime
from bot.discord.bot import RummyBot
from bot.engine.match import Match
from bot.engine.match_view import match_view
from bot.i18n import words
from bot.present.hand_layout import HandLayout
from bot.present.scene_builders import hand_scene
from bot.service import ManualClock, ServiceSettings, TableService, seeded, simple_policy
from bot.service.table_limits import DEFAULT_LIMITS
from render import render_hand

pytest_plugins = ("discord_double.fixtures",)


def make_bot(tmp_path, clock, policy=simple_policy, limits=DEFAULT_LIMITS, **options):
    def service(store, on_events):
        return TableService(
            store,
            clock=clock,
            random_source=seeded(11),
            policy=policy,
            settings=ServiceSettings(computer_delay_seconds=0.0, limits=limits),
            on_events=on_events,
        )

    return RummyBot(tmp_path / "rummy.db", service_factory=service, edit_delay=0, **options)


def table_id_of(message) -> int:
    for custom_id in message.custom_ids():
        found = re.match(r"rummy:lobby:(\d+):", custom_id)
        if found:
            return int(found[1])
    raise AssertionError(f"no lobby button on {message.custom_ids()}")


def hand_message(double: DiscordDouble, user):
    """The user's latest private hand message (a DM, or else an ephemeral reply)."""
    candidates = [
        m
        for m in double.dms_to(user) + double.ephemerals_to(user)
        if any(cid.startswith("rummy:hand:") for cid in m.custom_ids())
    ]
    assert candidates, f"{user} has no hand message"
    return max(candidates, key=lambda m: m.id)


def result_posts(double: DiscordDouble) -> list:
    """The deals' result posts in the table's channel, first first: each carries its picture."""
    channel = double.messages_to(double.channel_id)
    return [m for m in channel if any(f.filename == "result.png" for f in m.files.values())]


def result_post(double: DiscordDouble):
    posts = result_posts(double)
    assert posts, "no result was posted"
    return posts[-1]


def button(message, action: str) -> str:
    return next(
        cid for cid in message.custom_ids() if cid.startswith("rummy:hand:") and cid.endswith(":" + action)
    )


def select_id(message) -> str:
    return next(cid for cid in message.custom_ids() if cid.startswith("rummy:discard:"))


def first_option(message) -> str:
    from discord_double.records import walk_components

    for component in walk_components(message.payload.get("components", [])):
        if component.get("custom_id", "").startswith("rummy:discard:"):
            return component["options"][0]["value"]
    raise AssertionError("no discard menu")


def own_hand_pictures(match, seats: dict[int, int], language: str = "en") -> dict[int, set[bytes]]:
    """Every picture each user's own hand could have had: rendered at every step of the match."""
    raw = match.to_json()
    pictures: dict[int, set[bytes]] = {user: set() for user in seats}
    for steps in range(1, len(raw["log"]) + 1):
        state = Match.replay({**raw, "log": raw["log"][:steps]})
        if state.deal is None:
            continue
        for user, seat in seats.items():
            scene = hand_scene(match_view(state), state.deal.view(seat), HandLayout(), _=words(language))
            pictures[user].add(render_hand(scene))
    return pictures


async def open_table(double, bot, host, *others, fmt="points"):
    ix = await double.slash_command(host, "rummy new", options={"format": fmt})
    await double.wait_for(lambda: double.original_response(ix).custom_ids())
    lobby = double.original_response(ix)
    table_id = table_id_of(lobby)
    for user in others:
        await double.press_button(user, lobby, f"rummy:lobby:{table_id}:join")
        await settle(bot)
    return lobby, table_id


async def start_table(double, bot, host, *others):
    """Opens a table, seats the others and has the host start the match; returns the table."""
    lobby, table_id = await open_table(double, bot, host, *others)
    await double.press_button(host, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    return bot.service.table_in(double.channel_id)


async def answer(double: DiscordDouble, ix) -> str:
    """The bot's private words to an interaction: its reply, or its first follow-up."""
    text = (ix.response_data or {}).get("content") or ""
    if text:
        return text
    await double.wait_for(lambda: double.followups(ix))
    return double.followups(ix)[-1].content


async def settle(bot):
    await bot.idle()


async def drop(double: DiscordDouble, bot, user) -> None:
    """`/rummy drop`, then its confirmation: a drop asks first what it costs (issue 26)."""
    ask = await double.slash_command(user, "rummy drop")
    question = double.original_response(ask)
    confirm = next(cid for cid in question.custom_ids() if cid.startswith("rummy:dropok:"))
    await double.press_button(user, question, confirm)


async def test_a_points_match_played_with_buttons_menus_and_slash_commands(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob = double.user("alice"), double.user("bob")
    await start_table(double, bot, alice, bob)
    stranger = await double.slash_command(double.user("carol"), "rummy drop")
    assert "not seated" in await answer(double, stranger)
    await settle(bot)
    # During the deal, anyone can copy its whole seal; the table message shows its start.
    how = await answer(double, await double.slash_command(double.user("carol"), "rummy verify"))
    sealed = re.search(r"sealed with `([0-9a-f]{64})`", how)[1]

    table = bot.service.table_in(double.channel_id)
    match = table.match
    first = match.deal.turn
    players = {0: alice, 1: bob}
    mover, waiter = players[first], players[1 - first]
    hand = hand_message(double, mover)
    assert "Your turn" in hand.content
    await double.press_button(mover, hand, button(hand, "closed"))
    await settle(bot)
    hand = hand_message(double, mover)
    assert "Discard a card" in hand.content
    await double.select(mover, hand, select_id(hand), [first_option(hand)])
    await settle(bot)
    assert match.deal.turn == 1 - first
    waiting = hand_message(double, waiter)
    assert "Your turn" in waiting.content

    await drop(double, bot, waiter)
    await settle(bot)
    assert table.match.phase == "over" and table.match.winner == first
    public = double.messages_to(double.channel_id)
    assert result_posts(double)
    stats = await double.slash_command(alice, "rummy stats")
    expected = "1 of 1 matches won" if first == 0 else "0 of 1 matches won"
    assert expected in await answer(double, stats)

    # One table message, edited in place with the table image; the result posted with the reveal.
    table_posts = [m for m in public if any(f.filename == "table.png" for f in m.files.values())]
    assert len(table_posts) == 1
    edits = double.requests_matching("PATCH", rf"/channels/{double.channel_id}/messages/{table_posts[0].id}")
    assert edits
    result = result_post(double)
    assert "The match is over" in result.content and "wins deal 1" in result.content
    assert any(f.filename == "standings.png" for f in result.files.values())
    assert "salt" not in result.content and len(result.content) < 300  # the reveal is a file
    reveal = next(aid for aid, f in result.files.items() if f.filename == "deal-1-shuffle.txt")
    commitment = re.search(r"^commitment: ([0-9a-f]{64})$", result.files[reveal].data.decode(), re.M)[1]
    published = [
        m for m in double.requests_matching("PATCH") if commitment[:32] in str(m.json or m.payload_json)
    ]
    assert published, "the seal was shown before the reveal"
    assert not [m for m in double.requests_matching("PATCH") if commitment in str(m.json or m.payload_json)]
    assert commitment == sealed
    check = await double.slash_command(
        alice, "rummy verify", options={"file": reveal, "commitment": commitment[:32]}
    )
    said = await answer(double, check)
    assert "✅ the deal's deck" in said and "the seal you copied" in said and "❌" not in said

    # Privacy, over every request the bot made: each hand image a user received is exactly the
    # picture of their own hand at some moment of the match, and none went to the channel.
    own_pictures = own_hand_pictures(table.match, {alice.id: 0, bob.id: 1})
    hands_seen = 0
    for audience, file, _request in double.deliveries():
        if file.filename.endswith(".txt"):  # a shuffle's reveal, public
            assert audience is None and file.filename.endswith("-shuffle.txt")
            continue
        Image.open(io.BytesIO(file.data)).verify()
        if file.filename == "hand.png":
            assert audience in own_pictures and file.data in own_pictures[audience]
            hands_seen += 1
    assert hands_seen >= 4
    assert not any(f.filename == "hand.png" for f in double.public_files())


async def test_closed_dms_fall_back_to_a_private_hand_in_the_channel(discord_double, bot_runner, tmp_path):
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob = double.user("alice"), double.user("bob")
    double.close_dms(bob)
    await start_table(double, bot, alice, bob)
    channel_text = " ".join(m.content for m in double.messages_to(double.channel_id))
    assert f"<@{bob.id}>, I can't send you direct messages" in channel_text
    assert bob.id in bot.presenter.dm_refused
    sent_before = len(double.requests_matching("POST", r"/channels/\d+/messages"))
    ix = await double.slash_command(bob, "rummy hand")
    await double.wait_for(lambda: double.followups(ix))
    private = double.followups(ix)[-1]
    assert private.ephemeral and private.to_user == bob.id
    assert any(cid.startswith("rummy:hand:") for cid in private.custom_ids())
    assert any(f.filename == "hand.png" for f in private.files.values())
    # Bob's refusal is remembered: no further DM attempts to him.
    later_dm_attempts = [
        r
        for r in double.requests_matching("POST", r"/channels/\d+/messages")[sent_before:]
        if r.to_user == bob.id
    ]
    assert later_dm_attempts == []
    # A quarter of an hour later Bob has opened his DMs: his hand is tried there again, and
    # once it arrives the refusal is forgotten (and not announced twice meanwhile).
    clock.advance(16 * 60)
    double.open_dms(bob)
    table = bot.service.table_in(double.channel_id)
    for _ in range(2):  # a move each way: Bob's hand is refreshed when he acts or is to act
        mover = alice if table.match.deal.turn == 0 else bob
        await double.slash_command(mover, "rummy pick", options={"source": "closed"})
        await settle(bot)
        await double.slash_command(mover, "rummy discard", options={"card": "1"})
        await settle(bot)
    assert any(f.filename == "hand.png" for m in double.dms_to(bob) for f in m.files.values())
    assert bob.id not in bot.presenter.dm_refused
    assert await bot.store.dm_refusals(since=0.0) == set()
    channel_text = " ".join(m.content for m in double.messages_to(double.channel_id))
    assert channel_text.count("I can't send you direct messages") == 1


async def test_buttons_work_after_a_restart_and_stale_or_double_presses_are_refused(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob = double.user("alice"), double.user("bob")
    await start_table(double, bot, alice, bob)
    first = bot.service.table_in(double.channel_id).match.deal.turn
    mover = {0: alice, 1: bob}[first]
    hand = hand_message(double, mover)
    stale = hand.snapshot()
    tables_before = table_posts(double)

    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    # Two presses of the same button at once: one pick happens, the other is refused.
    first_press, second_press = await double.at_once(
        double.press_button(mover, hand, button(hand, "closed")),
        double.press_button(mover, hand, button(hand, "closed")),
    )
    await settle(bot)
    table = bot.service.table_in(double.channel_id)
    assert len(table.match.deal.seats[first].hand) == 14
    assert table.match.deal.phase == "discard"
    await double.wait_for(lambda: double.followups(first_press) or double.followups(second_press))
    answers = [m.content for ix in (first_press, second_press) for m in double.followups(ix)]
    assert len(answers) == 1 and "already" in answers[0], answers

    # The restarted bot edits the same table message and hand DM rather than posting new ones.
    assert hand_message(double, mover).id == hand.id
    assert table_posts(double) == tables_before and len(tables_before) == 1
    hand = hand_message(double, mover)
    await double.select(mover, hand, select_id(hand), [first_option(hand)])
    await settle(bot)
    assert table.match.deal.turn == 1 - first
    # The old rendering of the hand still shows its buttons: pressing one is refused privately.
    ix = await double.press_button(mover, stale, _custom(stale, "closed"), check=False)
    refusal = await answer(double, ix)
    assert "earlier turn" in refusal
    assert len(table.match.deal.seats[first].hand) == 13


def table_posts(double) -> list[int]:
    public = double.messages_to(double.channel_id)
    return [m.id for m in public if any(f.filename == "table.png" for f in m.files.values())]


def _custom(snapshot: dict, action: str) -> str:
    from discord_double.records import walk_components

    for component in walk_components(snapshot.get("components", [])):
        cid = component.get("custom_id", "")
        if cid.startswith("rummy:hand:") and cid.endswith(":" + action):
            return cid
    raise AssertionError("no such button")


@pytest.mark.parametrize("command", ["rules", "table"])
async def test_information_commands_answer(discord_double, bot_runner, tmp_path, command):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    await open_table(double, bot, alice, bob)
    ix = await double.slash_command(alice, f"rummy {command}")
    await settle(bot)
    assert ix.callback is not None


async def start_against_a_computer(double, bot, user):
    """`user` opens a table, seats a computer player and starts; returns the table."""
    lobby, table_id = await open_table(double, bot, user)
    await double.press_button(user, lobby, f"rummy:lobby:{table_id}:computer")
    await settle(bot)
    await double.press_button(user, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    return bot.service.table_in(double.channel_id)


async def test_the_lobby_seats_an_easy_or_a_strong_computer_player(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice = double.user("alice")
    lobby, table_id = await open_table(double, bot, alice)
    buttons = {
        c["custom_id"]: c["label"] for c in walk_components(lobby.payload["components"]) if "label" in c
    }
    assert buttons[f"rummy:lobby:{table_id}:easy"] == "Add easy computer"
    assert buttons[f"rummy:lobby:{table_id}:computer"] == "Add strong computer"  # the id older lobbies carry
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:easy")
    await settle(bot)
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:computer")
    await settle(bot)
    seats = bot.service.table_in(double.channel_id).record.seats
    assert [seat.computer for seat in seats] == [None, "easy", "strong"]


async def test_one_person_plays_against_a_computer_player(discord_double, bot_runner, tmp_path):
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice = double.user("alice")
    table = await start_against_a_computer(double, bot, alice)
    assert table.record.seats[1].computer
    for _ in range(3):  # whoever starts, after a few moves it is alice's turn with live buttons
        if table.match.deal.turn == 1:
            while table.match.deal.turn == 1:  # a pick, then a discard, each when its time comes
                clock.advance(5)
                await bot.service.fire_due()
            await settle(bot)
        else:
            hand = hand_message(double, alice)
            await double.press_button(alice, hand, button(hand, "closed"))
            await settle(bot)
            hand = hand_message(double, alice)
            await double.select(alice, hand, select_id(hand), [first_option(hand)])
            await settle(bot)
    assert len(table.match.log) >= 4
    moves = " ".join(m.content for m in double.messages_to(double.channel_id))
    assert "Computer 1" in moves


async def test_two_users_taking_the_last_seat_at_once_seat_one(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    ix = await double.slash_command(alice, "rummy new", options={"format": "points", "seats": 2})
    await double.wait_for(lambda: double.original_response(ix).custom_ids())
    lobby = double.original_response(ix)
    join = f"rummy:lobby:{table_id_of(lobby)}:join"
    presses = await double.at_once(
        double.press_button(bob, lobby, join), double.press_button(carol, lobby, join)
    )
    await settle(bot)
    seats = [seat.name for seat in bot.service.table_in(double.channel_id).record.seats]
    assert len(seats) == 2 and seats[0] == "alice"
    answers = [await answer(double, press) for press in presses]
    assert sorted("full" in text for text in answers) == [False, True], answers


async def test_a_wrong_show_is_confirmed_first_and_its_cards_stay_private(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    table = await start_table(double, bot, alice, bob, carol)
    seat = table.match.deal.turn
    mover = {0: alice, 1: bob, 2: carol}[seat]
    hand = hand_message(double, mover)
    assert any(cid.endswith(":declare") for cid in hand.custom_ids())
    await double.press_button(mover, hand, button(hand, "closed"))
    await settle(bot)
    hand = hand_message(double, mover)
    ask = await double.press_button(mover, hand, button(hand, "declare"))
    prompt = double.original_response(ask)
    assert prompt.ephemeral and "A wrong show costs you 80 points." in prompt.content
    assert "This is a wrong show" in prompt.content  # a random hand: the player is warned first
    confirm = next(cid for cid in prompt.custom_ids() if cid.startswith("rummy:declare:"))
    done = await double.press_button(mover, prompt, confirm)
    await settle(bot)
    assert "Declared." in await answer(double, done)
    assert table.match.deal.seats[seat].status == "wrong_show"
    public = " ".join(m.content for m in double.messages_to(double.channel_id))
    assert "declared wrongly (80 points)" in public
    held = {card.pretty for card in table.match.deal.seats[seat].hand}
    log_lines = [line for line in public.split("›") if "declared wrongly" in line]
    assert log_lines and not any(card in line for line in log_lines for card in held)


async def test_slash_commands_pick_group_and_discard_by_number_with_autocomplete(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    seat = table.match.deal.turn
    mover, other = {0: (alice, bob), 1: (bob, alice)}[seat]
    offered = await double.autocomplete(other, "rummy discard", focused="card", options={"card": ""})
    theirs = {card.code for card in table.match.deal.seats[1 - seat].hand}
    assert offered and {choice["value"] for choice in offered} <= theirs  # only your own cards
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await settle(bot)
    grouped = await double.slash_command(mover, "rummy group", options={"groups": "1 2 3 / 4 5"})
    await settle(bot)
    layout = bot.presenter.layout(table.id, mover.id)
    assert layout.custom and [len(g) for g in layout.groups][:2] == [3, 2]
    assert double.followups(grouped)[-1].ephemeral
    first_card = layout.cards[0]
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)
    assert table.match.deal.open_card == first_card and table.match.deal.turn == 1 - seat
    bad = await double.slash_command(other, "rummy discard", options={"card": "99"})
    assert "no card number 99" in await answer(double, bad)
    early = await double.slash_command(other, "rummy discard", options={"card": "2"})
    assert "Pick a card first" in await answer(double, early)


async def test_the_production_wiring_opens_and_starts_a_table(discord_double, bot_runner, tmp_path):
    """The bot as `python -m bot` builds it: system clock, system random source, real AI
    thinking in worker processes, pictures drawn in worker processes of their own (each hand
    picture still exactly its own player's hand), stopped with the bot."""
    double = discord_double
    bot = await bot_runner.start(RummyBot(tmp_path / "rummy.db", edit_delay=0, picture_workers=True))
    painters = [bot.pictures.hands.worker, bot.pictures.others.worker]
    assert bot.service.thinkers is not None and None not in painters
    painters = [process for painter in painters for process in painter.processes]
    alice = double.user("alice")
    # A pool: the computer (real randomness) may drop at once, which would end a Points match
    # and close the table before it is read; a pool plays on.
    lobby, table_id = await open_table(double, bot, alice, fmt="pool-101")
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:computer")
    await settle(bot)
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    table = bot.service.table_in(double.channel_id)
    assert table.match is not None and table.record.seats[1].computer
    hands = [f.data for f in double.files_sent_to(alice) if f.filename == "hand.png"]
    assert hands and set(hands) <= own_hand_pictures(table.match, {alice.id: 0})[alice.id]
    await bot_runner.stop(bot)
    assert not any(painter.is_alive() for painter in painters)


async def test_the_long_running_bot_tunes_the_collector_once_its_tables_are_resumed(
    discord_double, bot_runner, tmp_path, monkeypatch
):
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    await start_table(double, bot, double.user("alice"), double.user("bob"))
    tables_when_tuned = []
    monkeypatch.setattr(runtime, "tune_gc", lambda: tables_when_tuned.append(len(restarted.service.tables())))
    restarted = make_bot(tmp_path, clock, tune_gc=True)
    await bot_runner.restart(bot, restarted)
    # Before resuming (no collection walks the tables as they are made), and after: the resumed
    # table is frozen with the rest of start-up.
    assert tables_when_tuned == [0, 1]


async def test_the_drop_button_says_what_it_costs_and_drops_only_when_confirmed(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    first = table.match.deal.turn
    mover = alice if first == 0 else bob
    mover_hand = hand_message(double, mover)
    ask = await double.press_button(mover, mover_hand, button(mover_hand, "drop"))
    question = double.original_response(ask)
    assert question.ephemeral and "20 points" in question.content and "first drop" in question.content
    assert table.match.deal.phase != "over"  # asking changed nothing

    confirm = next(cid for cid in question.custom_ids() if cid.startswith("rummy:dropok:"))
    await double.press_button(mover, question, confirm)
    await settle(bot)
    assert table.match.phase == "over" and table.match.winner == 1 - first
    await bot.presenter.flush()  # the closed table's last edits, then its state is let go
    assert table.id not in bot.presenter.outbox._shown
    assert not [key for key in await bot.store.posted_messages() if key.startswith(f"table:{table.id}")]
    again = await double.press_button(mover, question, confirm)  # a double click
    assert "This table has closed." in await answer(double, again)


async def test_no_table_opens_where_the_bot_cannot_post_its_pictures(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    everything = (1 << 53) - 1
    double.set_app_permissions(double.channel_id, everything & ~(1 << 15))  # no Attach Files
    ix = await double.slash_command(double.user("alice"), "rummy new", options={"format": "points"})
    refusal = await answer(double, ix)
    assert "Attach Files" in refusal and "Send Messages" not in refusal
    assert bot.service.table_in(double.channel_id) is None
    double.set_app_permissions(double.channel_id, everything)
    await open_table(double, bot, double.user("alice"))
    assert bot.service.table_in(double.channel_id) is not None


async def test_help_says_what_to_do_next_from_where_the_reader_stands(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    double.set_permissions(bob, 0)  # a member without Manage Server
    nothing_here = await answer(double, await double.slash_command(bob, "rummy help"))
    assert "`/rummy new`" in nothing_here and "admins" not in nothing_here.lower()
    assert "`/rummy replay`" in nothing_here and "`/rummy history`" in nothing_here
    assert "/league-admin" not in nothing_here and "`/rummy cancel`" not in nothing_here
    lobby, table_id = await open_table(double, bot, alice)
    hosting = await answer(double, await double.slash_command(alice, "rummy help"))
    assert "You host this table" in hosting and "For admins (Manage Server)" in hosting
    assert "press **Join**" in await answer(double, await double.slash_command(bob, "rummy help"))
    await double.press_button(bob, lobby, f"rummy:lobby:{table_id}:join")
    await settle(bot)
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    deal = bot.service.table_in(double.channel_id).match.deal
    to_act, waiting = (alice, bob) if deal.turn == 0 else (bob, alice)
    assert "Your turn: pick a card" in await answer(double, await double.slash_command(to_act, "rummy help"))
    waiting_help = await answer(double, await double.slash_command(waiting, "rummy help"))
    assert f"It's {to_act.name}'s turn." in waiting_help


async def test_slash_commands_are_synced_only_when_they_changed(discord_double, bot_runner, tmp_path):
    double = discord_double
    clock = ManualClock()
    syncs = lambda: len(double.requests_matching("PUT", r"/applications/\d+/commands"))  # noqa: E731
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    assert syncs() == 1
    assert {"rummy", "league"} <= set(double.global_commands)
    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    assert syncs() == 1  # the same commands: nothing sent
    changed = make_bot(tmp_path, clock)

    @changed.tree.command(name="ping", description="A command this version adds")
    async def ping(interaction) -> None:  # pragma: no cover - only its definition is synced
        await interaction.response.send_message("pong")

    bot = await bot_runner.restart(bot, changed)
    assert syncs() == 2 and "ping" in double.global_commands


async def test_a_refusal_names_the_player_to_wait_for_not_a_seat_number(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    to_act, waiting = (alice, bob) if table.match.deal.turn == 0 else (bob, alice)
    early = await double.slash_command(waiting, "rummy pick", options={"source": "closed"})
    words = await answer(double, early)
    assert words == f"It's {to_act.name}'s turn." and "seat" not in words


async def test_declare_from_the_suggested_layout_never_finishes_with_the_open_card_just_taken(
    discord_double, bot_runner, tmp_path
):
    # 000: the card taken from the open pile cannot go into the finish slot. The suggested layout
    # puts the solver's discard last, and here that is the AS just taken: the Declare button must
    # still offer the valid show (another finish card), not a wrong one.
    from deal_helpers import stacked_deal

    from bot.engine import Rules

    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    hand = "2S 3S 4S 2C 3C 4C 5C 7D 8D 9D 9C 9H 9S"
    other = "5S 6S 7S 8S 5H 6H 7H 8H 3H 10C JC QC 2D"
    table.match.deal = stacked_deal(Rules(), [hand, other], "AS", "6D")  # alice (seat 0) to act
    await bot.presenter.send_hand(table.publish(), 0)  # as the service shows a change it saved
    mine = hand_message(double, alice)
    await double.press_button(alice, mine, button(mine, "open"))
    await settle(bot)
    mine = hand_message(double, alice)
    ask = await double.press_button(alice, mine, button(mine, "declare"))
    prompt = double.original_response(ask)
    assert "It is a valid show." in prompt.content and "**A♠** as the finish" not in prompt.content
    confirm = next(cid for cid in prompt.custom_ids() if cid.startswith("rummy:declare:"))
    await double.press_button(alice, prompt, confirm)
    await settle(bot)
    assert table.match.winners == [0]


async def test_a_deal_pruned_from_the_database_still_verifies_from_what_was_published(
    discord_double, bot_runner, tmp_path
):
    """Retention deletes a finished match's log and deals (their reveals) after the days kept;
    `/rummy verify` checks what the channel was shown, so an old deal still verifies, and the
    statistics are as they were."""
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock, keep_days=90))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    mover = (alice, bob)[table.match.deal.turn]
    await drop(double, bot, mover)
    await settle(bot)
    result = result_post(double)
    reveal = next(f for f in result.files.values() if f.filename.endswith("-shuffle.txt"))
    options = {"reveal": " ".join(reveal.data.decode().splitlines())}  # pasted: one line
    before = await answer(double, await double.slash_command(alice, "rummy stats"))

    clock.advance(91 * 86_400)
    pruned = await bot.retention.prune()
    assert pruned.matches == 1 and await bot.store.command_log(table.match_id) == []
    assert await bot.store.pruned_at(table.match_id) == clock.now()
    check = await double.slash_command(alice, "rummy verify", options=options)
    assert "✅ the deal's deck" in await answer(double, check)
    assert await answer(double, await double.slash_command(alice, "rummy stats")) == before
