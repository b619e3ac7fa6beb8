"""`/rummy replay` and `/rummy history` end to end through the Discord double: a played deal
replayed privately frame by frame (each frame the picture of the replayed engine state), the
buttons stepping forward and back, a running deal refused, a forged or outside press refused
privately, and the history naming the deals to replay; each in the asker's language."""

import asyncio
import threading

import pytest
from discord_double import DiscordDouble
from test_discord_frontend import (
    answer,
    button,
    drop,
    first_option,
    hand_message,
    make_bot,
    select_id,
    settle,
)
from test_replay import played_deal as played_record

from bot.discord import replay_presenter
from bot.discord.bot import RummyBot
from bot.engine.replay import replay_deal
from bot.i18n import EN, words
from bot.present.replay_scene import replay_scene
from bot.service import ManualClock
from bot.service.refusals import ShuttingDownError
from bot.service.replay_views import DealRef, ReplayedDeal
from render.replay_frame import render_replay

pytest_plugins = ("discord_double.fixtures",)


async def start_table(double, bot, host, guest, channel):
    ix = await double.slash_command(host, "rummy new", options={"format": "points"}, channel=channel)
    await double.wait_for(lambda: double.original_response(ix).custom_ids())
    lobby = double.original_response(ix)
    table_id = int(next(c for c in lobby.custom_ids() if c.startswith("rummy:lobby:")).split(":")[2])
    await double.press_button(guest, lobby, f"rummy:lobby:{table_id}:join")
    await settle(bot)
    await double.press_button(host, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    return bot.service.table_in(channel)


async def played_deal(double: DiscordDouble, bot, alice, bob):
    """Alice and Bob's Points match at the default channel: a pick, a discard, then a drop."""
    table = await start_table(double, bot, alice, bob, double.channel_id)
    match = table.match
    mover, waiter = (alice, bob) if match.deal.turn == 0 else (bob, alice)
    hand = hand_message(double, mover)
    await double.press_button(mover, hand, button(hand, "closed"))
    await settle(bot)
    hand = hand_message(double, mover)
    await double.select(mover, hand, select_id(hand), [first_option(hand)])
    await settle(bot)
    await drop(double, bot, waiter)
    await settle(bot)
    assert match.phase == "over"
    return table


def frame_picture(table, step: int, _=EN) -> bytes:
    """The picture of the engine's state at that step of the table's first deal, in `_`'s words."""
    replay = replay_deal(table.match.finished_deals[0])
    names = tuple(seat.name for seat in table.record.seats)
    replayed = ReplayedDeal(DealRef(table.id, 1), table.record.format, names, 0.0, replay)
    return render_replay(replay_scene(replayed, step, _=_))


def frame_of(message) -> bytes:
    [file] = [f for f in message.files.values() if f.filename == "replay.png"]
    return file.data


def replay_button(message, move: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith("rummy:replay:") and c.endswith(":" + move))


def forged_press(message, custom_id: str, channel_id: int) -> dict:
    """A message carrying `custom_id`, as only a forged client sends, in `channel_id`."""
    forged = message.snapshot()
    forged["id"] = str(int(forged["id"]) + 10_000)  # a message the double does not hold: sent as is
    forged["channel_id"] = str(channel_id)
    forged["components"] = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "▶", "custom_id": custom_id}]}
    ]
    return forged


async def test_a_played_deal_is_replayed_privately_and_stepped_through(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await played_deal(double, bot, alice, bob)
    steps = len(table.match.finished_deals[0].log)

    ix = await double.slash_command(alice, "rummy replay")  # her last finished deal here
    await settle(bot)
    shown = double.original_response(ix)
    assert ix.ephemeral and shown.to_user == alice.id
    assert f"`{table.id}-1`" in shown.content and "plays first" in shown.content
    assert frame_of(shown) == frame_picture(table, 0)
    [animation] = [
        m for m in double.followups(ix) if any(f.filename == "replay.gif" for f in m.files.values())
    ]
    assert animation.to_user == alice.id
    assert not any(f.filename.startswith("replay") for f in double.public_files())

    await double.press_button(alice, shown, replay_button(shown, "next"))
    await settle(bot)
    assert f"Move 1 of {steps}" in shown.content and "picks" in shown.content
    assert frame_of(shown) == frame_picture(table, 1)
    await double.press_button(alice, shown, replay_button(shown, "next"))
    await settle(bot)
    assert frame_of(shown) == frame_picture(table, 2) and "discards" in shown.content
    await double.press_button(alice, shown, replay_button(shown, "prev"))
    await settle(bot)
    assert frame_of(shown) == frame_picture(table, 1)
    await double.press_button(alice, shown, replay_button(shown, "last"))
    await settle(bot)
    assert frame_of(shown) == frame_picture(table, steps) and "wins the deal" in shown.content
    disabled = {c["custom_id"] for c in _buttons(shown) if c.get("disabled")}
    assert disabled == {replay_button(shown, "next"), replay_button(shown, "last")}

    listed = await double.autocomplete(bob, "rummy replay", focused="deal", options={"deal": ""})
    assert [choice["value"] for choice in listed] == [f"{table.id}-1"]


def _buttons(message):
    from discord_double.records import walk_components

    return [c for c in walk_components(message.payload.get("components", [])) if c.get("type") == 2]


async def test_a_running_deal_and_presses_from_outside_are_refused_privately(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    table = await played_deal(double, bot, alice, bob)
    elsewhere = double.add_channel("elsewhere")
    running = await start_table(double, bot, alice, bob, elsewhere)

    ix = await double.slash_command(
        alice, "rummy replay", options={"deal": f"{running.id}-1"}, channel=elsewhere
    )
    assert ix.ephemeral and "still being played" in await answer(double, ix)
    listed = await double.autocomplete(alice, "rummy replay", focused="deal", options={"deal": ""})
    assert [choice["value"] for choice in listed] == [f"{table.id}-1"]
    ix = await double.slash_command(alice, "rummy replay", options={"deal": "twelve"})
    assert "like `12-3`" in await answer(double, ix)

    ix = await double.slash_command(alice, "rummy replay", options={"deal": f"{table.id}-1"})
    await settle(bot)
    shown = double.original_response(ix)
    custom_id = replay_button(shown, "next")
    # Carol did not play it, and presses (a forged copy) in a channel it was not played in.
    refused = await double.press_button(
        carol, forged_press(shown, custom_id, elsewhere), custom_id, check=False
    )
    assert refused.ephemeral and "in the channel it was played in" in await answer(double, refused)
    # Eve is not a member of the server: her client can only press from her DMs.
    eve = double.add_user("eve", member=False)
    outside = forged_press(shown, custom_id, double.dm_channel(eve))
    refused = await double.press_button(eve, outside, custom_id, check=False)
    assert "members of the deal's server" in await answer(double, refused)
    unknown = f"rummy:replay:{table.id}:1:0:jump"
    refused = await double.press_button(
        alice, forged_press(shown, unknown, double.channel_id), unknown, check=False
    )
    assert "no longer valid" in await answer(double, refused)
    assert not any(
        f.filename.startswith("replay") for user in (carol, eve) for f in double.files_sent_to(user)
    )


async def test_the_history_names_each_deal_to_replay(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await played_deal(double, bot, alice, bob)
    ix = await double.slash_command(bob, "rummy history", options={"user": alice})
    text = await answer(double, ix)
    assert ix.ephemeral and "alice" in text.lower()
    assert f"Points at table {table.id}" in text and f"`{table.id}-1`" in text
    assert "/rummy replay" in text
    ix = await double.slash_command(double.user("carol"), "rummy history")
    assert "no match in this server yet" in await answer(double, ix)


async def test_a_hindi_player_replays_and_reads_histories_in_hindi(discord_double, bot_runner, tmp_path):
    """Asha's app speaks Hindi, Bob's English: each replays the same deal in their own words."""
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    asha, bob = double.user("alice"), double.user("bob")
    double.set_locale(asha, "hi")
    table = await played_deal(double, bot, asha, bob)
    hi = words("hi")

    ix = await double.slash_command(asha, "rummy replay")
    await settle(bot)
    shown = double.original_response(ix)
    assert shown.content.startswith("**पॉइंट्स · डील 1 का रीप्ले**") and "पहले खेलेंगे" in shown.content
    assert frame_of(shown) == frame_picture(table, 0, hi) != frame_picture(table, 0)
    [note] = [m for m in double.followups(ix) if any(f.filename == "replay.gif" for f in m.files.values())]
    assert note.content == hi("The whole deal, move by move:")
    await double.press_button(asha, shown, replay_button(shown, "last"))
    await settle(bot)
    steps = len(table.match.finished_deals[0].log)
    assert f"चाल {steps} / {steps}" in shown.content and frame_of(shown) == frame_picture(table, steps, hi)

    ix = await double.slash_command(bob, "rummy replay")  # the same deal, in English for him
    await settle(bot)
    assert "Deal 1 replay" in double.original_response(ix).content
    [english] = [m for m in double.followups(ix) if any(f.filename == "replay.gif" for f in m.files.values())]
    assert english.content == "The whole deal, move by move:"

    listed = await double.autocomplete(asha, "rummy replay", focused="deal", options={"deal": ""})
    assert [choice["name"].split(" · ")[1] for choice in listed] == ["पॉइंट्स"]
    refused = await double.slash_command(asha, "rummy replay", options={"deal": "twelve"})
    assert await answer(double, refused) == hi(
        "Name a deal by its table and number, like `12-3` (`/rummy history` lists yours)."
    )

    text = await answer(double, await double.slash_command(asha, "rummy history", options={"user": bob}))
    assert text.startswith("इस सर्वर में **bob** के पिछले मैच:")
    assert f"टेबल {table.id} पर पॉइंट्स" in text and f"`{table.id}-1`" in text
    assert hi("Last deals (replay one with `/rummy replay deal:<id>`):") in text and "won" not in text
    text = await answer(double, await double.slash_command(double.user("carol"), "rummy history"))
    assert text.endswith("has played no match in this server yet.")  # Carol's app: English


def test_a_deal_too_long_to_animate_is_not_drawn_at_all(monkeypatch):
    """A deal lasts as long as its players pick and throw (the open pile is reshuffled), and its
    animation costs a solved, drawn frame per move before its size is known: past the most
    frames it is refused before any is drawn."""
    replay = replay_deal(played_record(3))
    replayed = ReplayedDeal(DealRef(1, 1), "points", ("Asha", "Bilal", "Chen"), 0.0, replay)
    monkeypatch.setattr(replay_presenter, "ANIMATION_FRAMES", len(replay.steps) - 1)
    drawn: list[object] = []
    monkeypatch.setattr(replay_presenter, "replay_scene", lambda *scene: drawn.append(scene))
    assert replay_presenter.animation(replayed, False, EN) is None
    assert drawn == []


async def test_an_animation_waiting_when_the_bot_stops_is_not_made(tmp_path):
    """A shutdown waits for every handler at work: an animation still to make (behind others, one
    at a time) would hold up what the stop must announce, for a picture nobody needs then."""
    replay = replay_deal(played_record(3))
    replayed = ReplayedDeal(DealRef(1, 1), "points", ("Asha", "Bilal", "Chen"), 0.0, replay)
    bot = RummyBot(tmp_path / "rummy.db")
    bot.closing = True
    with pytest.raises(ShuttingDownError):
        await bot.replay_presenter._animation(replayed, False, EN)


async def test_past_a_few_animations_waiting_another_is_declined(tmp_path, monkeypatch):
    """Animations are made one at a time, each up to seconds of work: past `ANIMATIONS_WAITING`
    asked for and not begun, one more is declined at once with a word (the frames still step),
    rather than answered minutes later; one already made is still sent."""
    replay = replay_deal(played_record(3))
    refs = [DealRef(1, number) for number in range(1, replay_presenter.ANIMATIONS_WAITING + 3)]
    deals = [ReplayedDeal(ref, "points", ("Asha", "Bilal", "Chen"), 0.0, replay) for ref in refs]
    monkeypatch.setattr(replay_presenter, "animation", lambda replayed, *_: str(replayed.ref).encode())
    presenter = RummyBot(tmp_path / "rummy.db").replay_presenter
    assert await presenter._animation(deals[0], False, EN) == b"1-1"  # made and kept
    async with presenter._animating:  # one being made: the rest wait their turn
        waiting = [asyncio.create_task(presenter._animation(deal, False, EN)) for deal in deals[1:-1]]
        await asyncio.sleep(0)
        assert await presenter._animation(deals[-1], False, EN) == replay_presenter.ANIMATIONS_BUSY
        assert await presenter._animation(deals[0], False, EN) == b"1-1"
    assert await asyncio.gather(*waiting) == [str(ref).encode() for ref in refs[1:-1]]
    assert await presenter._animation(deals[-1], False, EN) == str(refs[-1]).encode()


async def test_the_animation_being_made_is_not_one_of_those_waiting(tmp_path, monkeypatch):
    """`ANIMATIONS_WAITING` counts the animations not yet begun: the one being made (seconds of
    work in a thread) does not take a waiting place, nor does a second ask for one that waits."""
    replay = replay_deal(played_record(3))
    refs = [DealRef(1, number) for number in range(1, replay_presenter.ANIMATIONS_WAITING + 3)]
    deals = [ReplayedDeal(ref, "points", ("Asha", "Bilal", "Chen"), 0.0, replay) for ref in refs]
    drawing = threading.Event()

    def animation(replayed, *_):
        drawing.wait(10)
        return str(replayed.ref).encode()

    monkeypatch.setattr(replay_presenter, "animation", animation)
    presenter = RummyBot(tmp_path / "rummy.db").replay_presenter
    asked = [asyncio.create_task(presenter._animation(deal, False, EN)) for deal in deals[:-1]]
    asked.append(asyncio.create_task(presenter._animation(deals[1], False, EN)))  # asked twice
    for _ in range(5):
        await asyncio.sleep(0)
    assert await presenter._animation(deals[-1], False, EN) == replay_presenter.ANIMATIONS_BUSY
    drawing.set()
    made = [str(ref).encode() for ref in refs[:-1]]
    assert await asyncio.gather(*asked) == [*made, made[1]]
