"""The Activity's server end to end (issue 27): the real bot serving it against the Discord double,
a real SQLite file, pages' live connections signed in through the double's OAuth2. A page's
moves go through the same service door as buttons; each connection sees only what its user
may: a seat its own hand, anyone else the spectator's table."""

import aiohttp
import pytest
from activity_helpers import activity_bot, cards_in, open_page, sign_in
from test_discord_frontend import button, first_option, hand_message, select_id, start_table

from bot.activity.limits import LIMITS, Limits
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def started(double, bot_runner, tmp_path, limits=LIMITS):
    """Alice and Bob at a table in the double's channel, the match started."""
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), limits=limits))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    return bot, table, f"http://127.0.0.1:{bot.activity_port}"


async def test_a_seated_player_gets_their_own_hand_and_a_spectator_no_hidden_card(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    bot, table, base = await started(double, bot_runner, tmp_path)
    alice, carol = double.user("alice"), double.user("carol")
    page, welcome = await open_page(
        http, base, await sign_in(double, http, base, alice), double.guild_id, double.channel_id
    )
    assert welcome == {"type": "welcome", "user_id": str(alice.id), "language": "en"}
    state = await page.next("state")
    seat = table.seat_of(alice.id)
    hand = await bot.service.hand(table.id, alice.id)
    assert state["seat"] == seat
    assert state["hand"]["cards"] == [card.code for card in hand.seen.hand]
    # the solver's grouping of exactly those cards comes first
    assert sorted(c for g in state["hand"]["suggested"] for c in g) == sorted(state["hand"]["cards"])
    assert state["table"]["match"]["deal"]["hand_sizes"] == list(hand.seen.hand_sizes)
    assert state["table"]["rules"]["middle_drop"] == table.match.rules.middle_drop

    watcher, _ = await open_page(
        http, base, await sign_in(double, http, base, carol), double.guild_id, double.channel_id
    )
    seen = await watcher.next("state")
    assert seen["hand"] is None and seen["seat"] is None
    # Alice at her page and Bob by his DM buttons each play a turn (a pick from the closed deck,
    # which only the picker may see, then a discard); the spectator's page follows, and never
    # holds a hidden card
    bob = double.user("bob")
    deal = table.match.deal
    for _ in range(2):
        if deal.turn == seat:
            state = await page.state_where(lambda s: s["hand"]["legal"]["pick_closed"])
            assert (await page.move({"kind": "pick", "source": "closed"}, state["hand"]["turn"]))[
                "type"
            ] == "done"
            state = await page.state_where(lambda s: s["hand"]["picked"])
            kept = state["hand"]["picked"]  # kept: seen by Alice alone
            throw = {
                "kind": "discard",
                "card": next(c for c in state["hand"]["legal"]["discards"] if c != kept),
            }
            assert (await page.move(throw, state["hand"]["turn"]))["type"] == "done"
        else:
            dm = hand_message(double, bob)
            await double.press_button(bob, dm, button(dm, "closed"))
            await bot.idle()
            dm = hand_message(double, bob)
            await double.select(bob, dm, select_id(dm), [first_option(dm)])
        await bot.idle()
    assert deal.turn_number == 3
    await watcher.state_where(lambda s: s["table"]["match"]["deal"]["turn_number"] == deal.turn_number)
    public = {card.code for card in deal.open_pile} | {card.code for _, card in deal.discards}
    public |= {deal.cut_joker.code} if deal.cut_joker else set()
    assert cards_in(watcher.frames) <= public
    hidden = {card.code for seat_ in deal.seats for card in seat_.hand} - public
    assert not any(code in frame for frame in watcher.raw for code in (f'"{c}"' for c in hidden))


async def test_moves_from_the_page_reach_the_dm_player_and_a_retry_is_applied_once(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    bot, table, base = await started(double, bot_runner, tmp_path)
    alice, bob = double.user("alice"), double.user("bob")
    page, _ = await open_page(
        http, base, await sign_in(double, http, base, alice), double.guild_id, double.channel_id
    )
    state = await page.next("state")
    if table.match.deal.turn != state["seat"]:  # Bob first: he picks and discards by his DM
        dm = hand_message(double, bob)
        await double.press_button(bob, dm, button(dm, "closed"))
        await bot.idle()
        dm = hand_message(double, bob)
        await double.select(bob, dm, select_id(dm), [first_option(dm)])
        await bot.idle()
        state = await page.state_where(lambda s: s["hand"]["legal"]["pick_closed"])
    before = len(table.match.log)
    turn = state["hand"]["turn"]
    picked = await page.move({"kind": "pick", "source": "closed"}, turn, client_id="pick-1")
    assert picked == {"type": "done", "id": "pick-1"}
    again = await page.move({"kind": "pick", "source": "closed"}, turn, client_id="pick-1")
    assert again["type"] == "refused" and "already done" in again["text"]
    assert len(table.match.log) == before + 1  # once, never twice
    state = await page.state_where(lambda s: s["hand"] and s["hand"]["legal"]["discards"])
    card = state["hand"]["legal"]["discards"][0]
    discarded = await page.move({"kind": "discard", "card": card}, state["hand"]["turn"])
    assert discarded["type"] == "done"
    await bot.idle()
    # Bob's DM is now his turn, with the card Alice threw on the open pile
    dm = hand_message(double, bob)
    assert button(dm, "open") and table.match.deal.open_card.code == card
    # a move out of turn is refused in the player's words, and changes nothing
    late = await page.move({"kind": "pick", "source": "open"}, state["hand"]["turn"])
    assert late["type"] == "refused" and late["text"]
    state = await page.state_where(lambda s: s["table"]["match"]["deal"]["turn"] != s["seat"])
    assert state["table"]["match"]["deal"]["open_card"] == card


async def test_a_drop_from_the_page_ends_the_deal_and_every_page_sees_the_result(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    _, _, base = await started(double, bot_runner, tmp_path)
    alice = double.user("alice")
    page, _ = await open_page(
        http, base, await sign_in(double, http, base, alice), double.guild_id, double.channel_id
    )
    state = await page.next("state")
    turn_of = state["table"]["match"]["deal"]["turn"]
    player = alice if turn_of == state["seat"] else double.user("bob")
    if player is not alice:
        page, _ = await open_page(
            http, base, await sign_in(double, http, base, player), double.guild_id, double.channel_id
        )
        state = await page.next("state")
    cost = state["hand"]["legal"]["drop_cost"]
    assert cost == state["table"]["rules"]["first_drop"]  # costs come from the table's rules
    dropped = await page.move({"kind": "drop"}, state["hand"]["turn"])
    assert dropped["type"] == "done", dropped
    over = await page.state_where(lambda s: s["table"]["match"]["history"])
    assert over["table"]["match"]["history"][0][state["seat"]] == cost
    assert {event["kind"] for event in over["events"]} >= {"dropped"}


async def test_a_forged_token_a_forged_channel_and_a_stranger_are_refused(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    bot, _, base = await started(double, bot_runner, tmp_path)
    alice = double.user("alice")
    async with http.post(f"{base}/api/token", json={"code": "made-up"}) as answer:
        assert answer.status == 401
    forged, refused = await open_page(http, base, "not-a-token", double.guild_id, double.channel_id)
    assert refused["type"] == "refused" and "Sign-in failed" in refused["text"]
    assert (await forged.ws.receive()).type is aiohttp.WSMsgType.CLOSE and forged.ws.close_code == 4003
    token = await sign_in(double, http, base, alice)
    bob = double.user("bob")
    _, refused = await open_page(http, base, token, double.guild_id, double.channel_id, user_id=bob.id)
    assert refused["type"] == "refused"  # Alice's token on a page that says it is Bob's
    _, welcome = await open_page(http, base, token, double.guild_id, double.channel_id, user_id=alice.id)
    assert welcome["type"] == "welcome"
    other_guild = double.add_guild("elsewhere")
    elsewhere = double.add_channel("elsewhere", guild_id=other_guild)
    for guild_id, channel_id in (
        (double.guild_id, 424242424242),  # no such channel
        (double.guild_id, elsewhere),  # another server's channel claimed for this one
    ):
        _, refused = await open_page(http, base, token, guild_id, channel_id)
        assert refused["type"] == "refused" and "cannot see that channel" in refused["text"]
    stranger = double.add_user("stranger", member=False)
    _, refused = await open_page(
        http, base, await sign_in(double, http, base, stranger), double.guild_id, double.channel_id
    )
    assert refused["type"] == "refused"
    assert not bot.activity_server._viewers  # nobody refused is left watching


async def test_a_page_that_reconnects_gets_the_current_view_in_its_language(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    bot, table, base = await started(double, bot_runner, tmp_path)
    bob = double.user("bob")
    double.set_locale(bob, "hi")
    token = await sign_in(double, http, base, bob)
    page, welcome = await open_page(http, base, token, double.guild_id, double.channel_id)
    assert welcome["language"] == "hi"
    first = await page.next("state")
    await page.ws.close()
    if table.match.deal.turn == first["seat"]:
        page, _ = await open_page(http, base, token, double.guild_id, double.channel_id)
        await page.next("state")
        await page.move({"kind": "pick", "source": "closed"}, first["hand"]["turn"])
        await page.ws.close()
    page, _ = await open_page(http, base, token, double.guild_id, double.channel_id)
    again = await page.next("state")
    assert again["hand"]["cards"] == [c.code for c in (await bot.service.hand(table.id, bob.id)).seen.hand]
    late = await page.move({"kind": "pick", "source": "closed"}, "stale-turn")
    assert late["type"] == "refused" and late["text"] != ""


def test_without_a_built_web_client_the_bot_says_so_in_one_line_and_exits_2(tmp_path, capsys):
    from bot.__main__ import main

    env = tmp_path / ".env"
    env.write_text(
        "DISCORD_TOKEN=not-a-real-token\n"
        "RUMMY_ACTIVITY_CLIENT_SECRET=secret\n"
        f"RUMMY_ACTIVITY_WEB={tmp_path / 'nothing'}\n"
        f"RUMMY_DB_PATH={tmp_path / 'rummy.db'}\n"
    )
    assert main(["run", "--env-file", str(env)]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "npm ci && npm run build" in said


async def test_open_the_table_on_the_table_message_launches_the_activity(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    _, table, _ = await started(double, bot_runner, tmp_path)
    opener = f"rummy:table:{table.id}:open"
    await double.wait_for(
        lambda: any(opener in m.custom_ids() for m in double.messages_to(double.channel_id))
    )
    message = next(m for m in double.messages_to(double.channel_id) if opener in m.custom_ids())
    pressed = await double.press_button(double.user("carol"), message, opener)  # anyone in the channel
    assert pressed.response_type == 12 and double.activity_launches == [pressed]


async def test_a_sync_keeps_discords_entry_point_command(discord_double, bot_runner, tmp_path):
    """Discord makes a "Launch" command (PRIMARY_ENTRY_POINT) for an app with an Activity; a bulk
    overwrite deletes every command it leaves out, so the bot's sync sends it back."""
    double = discord_double
    double.global_commands["launch"] = {
        "id": str(double.snowflake()),
        "application_id": str(double.application_id),
        "version": str(double.snowflake()),
        "type": 4,
        "name": "launch",
        "description": "",
        "handler": 2,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }
    await bot_runner.start(activity_bot(tmp_path, ManualClock()))
    assert len(double.requests_matching("PUT", r"/applications/\d+/commands")) == 1
    assert {"rummy", "launch"} <= set(double.global_commands)
    assert double.global_commands["launch"]["type"] == 4 and double.global_commands["launch"]["handler"] == 2


async def test_a_page_whose_table_another_shard_serves_is_sent_there(
    discord_double, bot_runner, tmp_path, http
):
    """With shards, the page connects again under /shard/N/, which the proxy routes to process N."""
    double = discord_double
    bot, _, base = await started(double, bot_runner, tmp_path)
    bot.activity_server.elsewhere = lambda guild_id: 1 if guild_id == double.guild_id else None
    token = await sign_in(double, http, base, double.user("alice"))
    page, moved = await open_page(http, base, token, double.guild_id, double.channel_id)
    assert moved == {"type": "elsewhere", "shard": 1}
    assert (await page.ws.receive()).type is aiohttp.WSMsgType.CLOSE and page.ws.close_code == 4004


async def test_every_move_reaches_the_other_players_page(discord_double, bot_runner, tmp_path, http):
    """Each pick and discard, played as fast as a page sends them, shows on the other page (how
    soon is a figure for a benchmark, not a test)."""
    double = discord_double
    unmetered = Limits(messages_per_second=1000.0, message_burst=1000)  # moves as fast as a machine can
    _, table, base = await started(double, bot_runner, tmp_path, unmetered)
    pages = {}
    for user in (double.user("alice"), double.user("bob")):
        token = await sign_in(double, http, base, user)
        page, _ = await open_page(http, base, token, double.guild_id, double.channel_id)
        pages[table.seat_of(user.id)] = page
        await page.next("state")
    for _ in range(12):
        mover = table.match.deal.turn
        page, other = pages[mover], pages[1 - mover]
        state = await page.state_where(lambda s: s["hand"]["legal"]["pick_closed"])
        assert (await page.move({"kind": "pick", "source": "closed"}, state["hand"]["turn"]))[
            "type"
        ] == "done"
        await other.state_where(lambda s, mover=mover: s["table"]["match"]["deal"]["has_picked"][mover])
        state = await page.state_where(lambda s: s["hand"]["picked"])
        discard = {"kind": "discard", "card": state["hand"]["picked"]}
        assert (await page.move(discard, state["hand"]["turn"]))["type"] == "done"
        await other.state_where(lambda s, mover=mover: s["table"]["match"]["deal"]["turn"] != mover)


async def test_a_declaration_from_the_page_is_judged_as_a_buttons_is(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    _, table, base = await started(double, bot_runner, tmp_path)
    seat = table.match.deal.turn
    user = next(u for u in (double.user("alice"), double.user("bob")) if table.seat_of(u.id) == seat)
    page, _ = await open_page(
        http, base, await sign_in(double, http, base, user), double.guild_id, double.channel_id
    )
    state = await page.next("state")
    await page.move({"kind": "pick", "source": "closed"}, state["hand"]["turn"])
    state = await page.state_where(lambda s: s["hand"]["legal"]["declare"])
    groups = state["hand"]["suggested"]
    wrong = state["hand"]["legal"]["wrong_show_cost"]
    declared = await page.move({"kind": "declare", "groups": groups, "finish": None}, state["hand"]["turn"])
    assert declared["type"] == "done", declared
    over = await page.state_where(lambda s: s["table"]["match"]["history"])
    shown = {event["kind"] for event in over["events"]}
    assert shown & {"declared", "wrong_show"}
    if "wrong_show" in shown:  # a hand seldom shows at its first pick: the table's cost is paid
        assert over["table"]["match"]["history"][0][seat] == wrong
    # a group naming a card the player does not hold is refused, changing nothing
    refused = await page.move({"kind": "declare", "groups": [["QS", "QS", "QS"]]}, state["hand"]["turn"])
    assert refused["type"] == "refused"


async def test_a_move_retried_after_a_bot_restart_is_applied_once(discord_double, bot_runner, tmp_path, http):
    double = discord_double
    bot, table, base = await started(double, bot_runner, tmp_path)
    seat = table.match.deal.turn
    user = next(u for u in (double.user("alice"), double.user("bob")) if table.seat_of(u.id) == seat)
    token = await sign_in(double, http, base, user)
    page, _ = await open_page(http, base, token, double.guild_id, double.channel_id)
    state = await page.next("state")
    pick = {"kind": "pick", "source": "closed"}
    assert (await page.move(pick, state["hand"]["turn"], client_id="once"))["type"] == "done"
    await bot.idle()
    played = len(table.match.log)
    bot = await bot_runner.restart(bot, activity_bot(tmp_path, ManualClock()))
    base = f"http://127.0.0.1:{bot.activity_port}"
    while (await page.ws.receive()).type is aiohttp.WSMsgType.TEXT:
        pass  # the states sent before: then the old process closed the connection
    page, _ = await open_page(http, base, token, double.guild_id, double.channel_id)  # as the page does
    again = await page.next("state")
    assert again["hand"]["picked"] is not None  # the view as it is now: the pick was kept
    retried = await page.move(pick, state["hand"]["turn"], client_id="once")
    assert retried["type"] == "refused"
    assert len(bot.service.table(table.id).match.log) == played


async def test_the_page_asks_how_its_groups_and_its_declaration_are_judged(
    discord_double, bot_runner, tmp_path, http
):
    double = discord_double
    _, table, base = await started(double, bot_runner, tmp_path)
    seat = table.match.deal.turn
    user = next(u for u in (double.user("alice"), double.user("bob")) if table.seat_of(u.id) == seat)
    page, _ = await open_page(
        http, base, await sign_in(double, http, base, user), double.guild_id, double.channel_id
    )
    state = await page.next("state")
    groups = state["hand"]["suggested"]
    await page.ws.send_json({"type": "judge", "id": "j1", "groups": groups})
    judged = await page.next("judged")
    assert judged["id"] == "j1" and judged["groups"] == groups and len(judged["kinds"]) == len(groups)
    # before a pick, the rules allow no declaration: refused in words, as the button's is
    await page.ws.send_json({"type": "judge", "id": "j2", "groups": groups, "declare": True})
    assert (await page.next_answer())["type"] == "refused"
    await page.move({"kind": "pick", "source": "closed"}, state["hand"]["turn"])
    state = await page.state_where(lambda s: s["hand"]["legal"]["declare"])
    await page.ws.send_json(
        {"type": "judge", "id": "j3", "groups": state["hand"]["suggested"], "declare": True}
    )
    verdict = await page.next("judged")
    held = [*(c for g in verdict["groups"] for c in g), verdict["finish"]]
    assert sorted(held) == sorted(state["hand"]["cards"])  # thirteen shown, one to finish with
    assert verdict["valid"] or verdict["reason"]  # what to fix first, when it is not valid
    # groups that are not the hand are refused, and nothing was played meanwhile
    await page.ws.send_json({"type": "judge", "id": "j4", "groups": [["QS"]]})
    assert (await page.next_answer())["type"] == "refused"
    assert table.match.deal.turn == seat
