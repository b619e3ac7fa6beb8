"""Tables and players choosing rules on Discord, end to end: the real discord.py client against the
Discord double, a real SQLite file, the real table service. Each preset plays a deal; the host's
Rules editor changes an option that then decides a move; settings per user and per server."""

from __future__ import annotations

import io

import discord
import pytest
from discord_double import DiscordDouble
from PIL import Image
from test_discord_frontend import (
    answer,
    button,
    first_option,
    hand_message,
    make_bot,
    result_post,
    select_id,
    settle,
    table_id_of,
)

from bot.engine.cards import parse_cards
from bot.engine.commands import Command, Drop
from bot.engine.deal import Phase, SeatView
from bot.engine.match_view import match_view
from bot.engine.rules import Rules
from bot.present.hand_layout import HandLayout
from bot.present.scene_builders import hand_scene
from bot.service import ManualClock, simple_policy
from render import render_hand

pytest_plugins = ("discord_double.fixtures",)
MEMBER = discord.Permissions(send_messages=True, use_application_commands=True).value


def dropping_policy(level: str, view: SeatView, rng) -> Command:
    """Computer players who drop at their first chance, so a deal ends whoever they sit with."""
    if view.phase is Phase.PICK and view.rules.drops_allowed:
        return Drop(view.seat)
    return simple_policy(level, view, rng)


async def new_table(double: DiscordDouble, bot, host, channel: int | None = None, **options):
    ix = await double.slash_command(
        host, "rummy new", options={"format": "points", **options}, channel=channel
    )
    await double.wait_for(lambda: double.original_response(ix) and double.original_response(ix).custom_ids())
    await settle(bot)
    lobby = double.original_response(ix)
    return lobby, table_id_of(lobby)


async def press(double, bot, user, message, custom_id: str, **options):
    ix = await double.press_button(user, message, custom_id, **options)
    await settle(bot)
    return ix


async def choose(double, bot, user, message, custom_id: str, value: str, **options):
    ix = await double.select(user, message, custom_id, [value], **options)
    await settle(bot)
    return ix


def editor_ids(message) -> tuple[str, str | None]:
    ids = message.custom_ids()
    option = next(cid for cid in ids if cid.startswith("rummy:rules:"))
    value = next((cid for cid in ids if cid.startswith("rummy:ruleval:")), None)
    return option, value


async def play_until_over(double, bot, clock, table, host) -> None:
    """The host picks and discards on their turns; the computer players act when the clock says."""
    for _ in range(200):
        if table.match.phase == "over" or table.match.deal is None:
            return
        if table.match.deal.turn == 0:
            hand = hand_message(double, host)
            await press(double, bot, host, hand, button(hand, "closed"))
            hand = hand_message(double, host)
            await choose(double, bot, host, hand, select_id(hand), first_option(hand))
        else:
            clock.advance(5)
            await bot.service.fire_due()
            await settle(bot)
    raise AssertionError("the deal did not end")


# 000/002 standard seats 2-6, 001 octro 2-5, 003 the app 2-5, 004 home up to ten (3 packs from 7).
@pytest.mark.parametrize(("preset", "computers"), [("standard", 2), ("octro", 2), ("app", 1), ("home", 6)])
async def test_a_table_on_each_preset_plays_a_deal_to_the_end(
    discord_double, bot_runner, tmp_path, preset, computers
):
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock, policy=dropping_policy))
    alice = double.user("alice")
    lobby, table_id = await new_table(double, bot, alice, rules=preset)
    rules = Rules.PRESETS[preset]
    shown = double.message(lobby.id).content
    assert f"Rules: {preset} · " in shown and "players" not in shown.split("Rules:")[1].split("\n")[0]
    for _ in range(computers):
        await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:computer")
    await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:start")
    table = bot.service.table_in(double.channel_id)
    match = table.match
    assert match.rules == rules and table.record.max_seats == rules.max_players
    assert len(match.deal.shoe) == rules.decks_for(computers + 1) * 52 + rules.printed_jokers_for(
        computers + 1
    )

    await play_until_over(double, bot, clock, table, alice)
    assert match.phase == "over" and match.winner == 0
    (deal,) = match.finished_deals
    dropped = [seat for seat in deal.seats if seat.outcome == "first_drop"]
    assert dropped and all(seat.points == rules.first_drop for seat in dropped)  # the preset's cost
    result = result_post(double)
    picture = next(f for f in result.files.values() if f.filename == "result.png")
    Image.open(io.BytesIO(picture.data)).verify()
    assert f"Rules: {preset}" in double.message(lobby.id).content


async def test_the_host_changes_the_first_drop_in_the_lobby_and_the_drop_charges_it(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob = double.user("alice"), double.user("bob")
    lobby, table_id = await new_table(double, bot, alice)
    await press(double, bot, bob, lobby, f"rummy:lobby:{table_id}:join")
    table = bot.service.table_in(double.channel_id)

    refused = await press(double, bot, bob, lobby, f"rummy:lobby:{table_id}:rules")
    assert "Only the host" in await answer(double, refused) and refused.ephemeral

    opened = await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:rules")
    editor = double.original_response(opened)
    assert editor.ephemeral and editor.to_user == alice.id and "Rules**: standard" in editor.content
    option_id, _ = editor_ids(editor)
    await choose(double, bot, alice, editor, option_id, "first_drop")
    editor = double.message(editor.id)
    _, value_id = editor_ids(editor)
    assert value_id is not None and "First drop** is 20" in editor.content
    # A value nobody offered (a crafted payload) is refused and changes nothing.
    crafted = await choose(double, bot, alice, editor, value_id, "7", check=False)
    assert "not one of the choices" in await answer(double, crafted)
    # Someone else's hand on the host's editor is refused too.
    intruder = await choose(double, bot, bob, editor, value_id, "0", check=False)
    assert "Only the host" in await answer(double, intruder)
    assert table.rules.first_drop == 20

    await choose(double, bot, alice, editor, value_id, "10")
    assert table.rules.first_drop == 10 and table.rules.preset == "standard"
    stored = await bot.store.table(table.id)
    assert stored.rules["first_drop"] == 10  # saved before it was shown
    assert "Rules: standard (changed: first drop 10)" in double.message(lobby.id).content
    assert "changed: first drop 10" in double.message(editor.id).content

    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock))
    table = bot.service.table_in(double.channel_id)
    assert table.rules.first_drop == 10  # a restart keeps the lobby's rules

    await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:start")
    match = table.match
    assert match.rules.first_drop == 10
    late = await choose(double, bot, alice, editor, value_id, "20")
    assert "no longer change" in await answer(double, late) and table.rules.first_drop == 10

    first = match.deal.turn
    mover = (alice, bob)[first]
    hand = hand_message(double, mover)
    ask = await press(double, bot, mover, hand, button(hand, "drop"))
    question = double.original_response(ask)
    assert "costs **10 points**" in question.content  # 000: first drop; here the host's 10
    confirm = next(cid for cid in question.custom_ids() if cid.startswith("rummy:dropok:"))
    await press(double, bot, mover, question, confirm)
    assert match.phase == "over" and match.winner == 1 - first
    assert match.finished_deals[-1].seats[first].points == 10


async def test_a_pool_table_shows_and_charges_its_own_drops_whatever_the_preset(
    discord_double, bot_runner, tmp_path
):
    # pool-61-notes: Pool 61 drops cost 15 / 30 whatever the preset's Points drops (home: 10 / 40)
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice = double.user("alice")
    lobby, table_id = await new_table(double, bot, alice, format="pool-61", rules="home")
    assert "drops 15/30" in double.message(lobby.id).content
    opened = await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:rules")
    editor = double.original_response(opened)
    offered = [
        o["value"] for c in editor.payload["components"] for s in c["components"] for o in s["options"]
    ]
    # pool-61-notes: Pool 61 charges 60 for a wrong show whatever the preset, so the editor does
    # not offer it (a change would show as made and charge nothing); Pool 101 charges the rules'.
    assert "first_drop" not in offered and "wrong_show" not in offered
    # A crafted value for an option the editor does not offer here is refused, changing nothing.
    table = bot.service.table_in(double.channel_id)
    for key, value in (("first_drop", "0"), ("wrong_show", "160")):
        custom_id = f"rummy:ruleval:{table_id}:{key}"
        forged = editor.snapshot()  # a message carrying that menu, as only a forged client sends
        forged["id"] = str(int(forged["id"]) + 10_000)
        menu = {"type": 3, "custom_id": custom_id, "options": [{"label": value, "value": value}]}
        forged["components"] = [{"type": 1, "components": [menu]}]
        crafted = await choose(double, bot, alice, forged, custom_id, value, check=False)
        assert "not offered" in await answer(double, crafted)
    assert table.rules == Rules.PRESETS["home"] and "changed" not in double.message(lobby.id).content

    other = double.add_channel("second")
    lobby, table_id = await new_table(double, bot, alice, channel=other, format="pool-101")
    opened = await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:rules")
    editor = double.original_response(opened)
    offered = [
        o["value"] for c in editor.payload["components"] for s in c["components"] for o in s["options"]
    ]
    assert "first_drop" not in offered and "wrong_show" in offered


async def test_settings_user_four_colour_deck_draws_their_hand_in_four_colours(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    lobby, table_id = await new_table(double, bot, alice)
    await press(double, bot, bob, lobby, f"rummy:lobby:{table_id}:join")
    await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:start")
    match = bot.service.table_in(double.channel_id).match

    def picture(seat: int, four_colour: bool) -> bytes:
        return render_hand(hand_scene(match_view(match), match.deal.view(seat), HandLayout(), four_colour))

    def latest_hand(user) -> bytes:
        return [f.data for f in double.files_sent_to(user) if f.filename == "hand.png"][-1]

    assert latest_hand(alice) == picture(0, False)
    mixed = await double.slash_command(alice, "rummy settings", options={"scope": "user", "rules": "octro"})
    assert "server setting" in await answer(double, mixed)
    chosen = await double.slash_command(
        alice, "rummy settings", options={"scope": "user", "deck": "four-colour"}
    )
    assert "four-colour" in await answer(double, chosen)
    await settle(bot)
    # Her deck, beside the language her Discord app was last seen in (for DMs she did not ask for).
    assert (await bot.store.user_settings(alice.id)) == {"deck": "four-colour", "seen_language": "en"}
    assert latest_hand(alice) == picture(0, True) != picture(0, False)  # her DM, drawn again at once
    assert latest_hand(bob) == picture(1, False)  # everyone else keeps the two-colour deck

    asked = await double.slash_command(alice, "rummy hand")
    await double.wait_for(lambda: double.followups(asked))
    private = double.followups(asked)[-1]
    assert next(iter(private.files.values())).data == picture(0, True)
    bot = await bot_runner.restart(bot, make_bot(tmp_path, ManualClock()))
    again = await double.slash_command(alice, "rummy settings", options={"scope": "user"})
    assert "**four-colour**" in await answer(double, again)  # kept across a restart


async def test_the_server_default_preset_is_what_rummy_new_plays(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    double.set_permissions(bob, MEMBER)
    refused = await double.slash_command(bob, "rummy settings", options={"scope": "server", "rules": "home"})
    assert "Manage Server" in await answer(double, refused)
    assert await bot.store.guild_settings(double.guild_id) == {}

    saved = await double.slash_command(alice, "rummy settings", options={"scope": "server", "rules": "octro"})
    assert "**octro**" in await answer(double, saved)
    looked = await double.slash_command(bob, "rummy settings", options={"scope": "server"})
    assert "**octro**" in await answer(double, looked)  # anyone may read them
    told = await double.slash_command(bob, "rummy rules")
    assert "octro rules, this server's default" in await answer(double, told)

    lobby, _ = await new_table(double, bot, alice)
    table = bot.service.table_in(double.channel_id)
    assert table.rules == Rules.PRESETS["octro"] and table.record.max_seats == 5
    assert "Rules: octro ·" in double.message(lobby.id).content
    asked = await double.slash_command(bob, "rummy rules")
    await settle(bot)
    words = asked.response_data["content"] + "".join(m.content for m in double.followups(asked))
    assert words.startswith("**Rules**: octro") and "one joker per impure sequence" in words
    assert "Fair shuffle" in words  # the whole text, over as many messages as it takes

    # An explicit choice wins over the default; turn_seconds sets both of the app's clocks (003).
    other = double.add_channel("second")
    await new_table(double, bot, bob, channel=other, rules="app", turn_seconds=45)
    app = bot.service.table_in(other)
    assert (app.rules.preset, app.rules.turn_seconds, app.rules.discard_seconds) == ("app", 45, 45)
    third = double.add_channel("third")
    seven = await double.slash_command(
        alice, "rummy new", options={"format": "points", "seats": 7}, channel=third
    )
    assert "octro rules seats 2 to 5 players" in await answer(double, seven)  # 001: 2 to 5


async def test_a_league_created_with_octro_rules_seats_its_night_on_them(
    discord_double, bot_runner, tmp_path
):
    from test_discord_league import (
        FIRST_NIGHT,
        LEAGUE,
        NOW,
        at,
        check_in,
        create_league,
        only_league,
        sign_up,
        tables_of,
    )

    double = discord_double
    clock = ManualClock(NOW.timestamp())
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    too_big = await create_league(double, bot, rules="octro", seats_per_table=6)
    assert "octro rules seats 2 to 5" in too_big  # 001: 2 to 5 players
    words = await create_league(double, bot, rules="octro")
    assert "Rules: octro" in words and "drops 15/30" in words  # Pool 61's own drops (pool-61-notes)
    record = only_league(bot, double)
    assert record.league.rules == "octro" and record.league.seasons[-1].rules == Rules.PRESETS["octro"]
    assert "Rules: octro" in "\n".join(m.content for m in double.messages_to(double.channel_id))
    (event,) = double.scheduled_events.values()
    assert "Rules: octro" in event["description"]
    me = await double.slash_command(double.user("bob"), "league me")
    assert "Rules: octro" in await answer(double, me)
    running = await double.slash_command(
        double.user("alice"), "league-admin season start", options={"rules": "home"}
    )
    assert "still running" in await answer(double, running)  # rules change only between seasons
    assert only_league(bot, double).league.rules == "octro"

    await sign_up(double, bot, "alice", "bob")
    await at(bot, clock, FIRST_NIGHT)
    (table,) = tables_of(bot, double)
    await check_in(double, bot, table.thread_id, "alice", "bob")
    playing = bot.service.table_in(table.thread_id)
    assert playing.match.rules == Rules.PRESETS["octro"] and playing.record.format == LEAGUE["format"]
    assert len(playing.match.deal.shoe) == 2 * 52 + 2 * 2  # 001: two decks and 4 jokers for 2 or 3


def deal_hand(deal, seat: int, wanted: str) -> None:
    """Gives `seat` exactly the cards of `wanted`, each swapped with a card of the same deal from
    wherever it lies, so every card of the shoe stays in one place (the deal's invariants hold)."""
    hand = deal.seats[seat].hand
    zones = [s.hand for i, s in enumerate(deal.seats) if i != seat] + [deal.closed]
    for card in parse_cards(wanted):
        if card in hand and hand.count(card) >= parse_cards(wanted).count(card):
            continue
        spare = next(c for c in hand if c not in parse_cards(wanted))
        zone = next(z for z in zones if card in z)
        zone[zone.index(card)], hand[hand.index(spare)] = spare, card
    deal.check_invariants()


async def test_home_a_player_shows_13_cards_before_picking_and_everyone_pays_double(
    discord_double, bot_runner, tmp_path
):
    # 004: "If a player calls rummy before he has even picked up a card ... twice the value".
    double = discord_double
    clock = ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice = double.user("alice")
    lobby, table_id = await new_table(double, bot, alice, rules="home")
    await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:computer")
    await press(double, bot, alice, lobby, f"rummy:lobby:{table_id}:start")
    table = bot.service.table_in(double.channel_id)
    deal = table.match.deal
    for _ in range(2):  # the computer player's first turn: it picks, then throws back
        if deal.turn != 0:
            clock.advance(5)
            await bot.service.fire_due()
            await settle(bot)
    assert deal.turn == 0 and not deal.seats[0].has_picked
    deal_hand(deal, 0, "AH 2H 3H 4H 5S 6S 7S 8C 8D 8S KC KD KS")
    hand = hand_message(double, alice)
    ask = await press(double, bot, alice, hand, button(hand, "declare"))
    prompt = double.original_response(ask)
    assert "before picking" in prompt.content and "pay double" in prompt.content
    confirm = next(cid for cid in prompt.custom_ids() if cid.startswith("rummy:declare:"))
    assert "It is a valid show." in prompt.content
    owed = min(deal.rules.score_cap, deal._hand_points(1))
    done = await press(double, bot, alice, prompt, confirm)
    assert "Declared." in await answer(double, done)
    assert deal.winner == 0 and table.match.history[-1] == [0, 2 * owed]
    await double.wait_for(
        lambda: "before picking" in " ".join(m.content for m in double.messages_to(double.channel_id))
    )
    public = " ".join(m.content for m in double.messages_to(double.channel_id))
    assert "alice shows all 13 cards before picking" in public and "every hand pays double" in public
