"""Every message a player has is current, after every move and every restart, within Discord's
request limit: the DMs of players waiting for their turn at a table of three, the old turn mention
after a crash, a DM's language whichever path edits it, and a server's language change; acting as
users through the Discord double."""

from __future__ import annotations

import asyncio
import re

from test_discord_frontend import (
    answer,
    button,
    drop,
    hand_message,
    make_bot,
    open_table,
    result_posts,
    settle,
    start_table,
)
from test_discord_stale import AT_ONCE

from bot.service import ManualClock
from bot.store import TableStatus, open_store

pytest_plugins = ("discord_double.fixtures",)

CARD = re.compile("[♠♥♦♣🃏]")  # every card as chat messages write it (`Card.pretty`)


def dm_edits(double, message) -> list:
    return double.requests_matching("PATCH", rf"/channels/\d+/messages/{message.id}")


async def at_a_table(double, bot_runner, tmp_path, *names):
    """The people named playing a points match; returns the bot, them and the table."""
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    users = [double.user(name) for name in names]
    return bot, users, await start_table(double, bot, *users)


async def three_at_a_table(double, bot_runner, tmp_path):
    return await at_a_table(double, bot_runner, tmp_path, "alice", "bob", "carol")


async def play_turn(double, bot, mover) -> None:
    """`mover` picks from the closed deck and throws their first card, by slash commands."""
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)


async def test_a_waiting_players_dm_stays_true_though_it_is_not_edited_on_the_others_moves(
    discord_double, bot_runner, tmp_path
):
    # An edit of every player's DM on every move would spend the bot's ~50 requests a second
    # several times over: a waiting DM says only what stays true until its player's turn.
    double = discord_double
    bot, users, table = await three_at_a_table(double, bot_runner, tmp_path)
    deal = table.match.deal
    for _ in range(len(users) + 1):  # a round and one more move: each waits while two others move
        mover = users[deal.turn]
        dms = {user: double.dms_to(user)[0] for user in users}  # slash commands answer privately too
        edits = {user: len(dm_edits(double, dms[user])) for user in users}
        await play_turn(double, bot, mover)
        to_act = users[deal.turn]
        assert all(len(double.dms_to(user)) == 1 for user in users)  # edited in place, never sent again
        mover_edits = dm_edits(double, dms[mover])[edits[mover] :]
        assert any(edit.files for edit in mover_edits)  # their hand changed: its picture is sent again
        for user in users:
            dm = double.message(dms[user].id)
            if user is to_act:
                assert "Your turn" in dm.content and deal.open_card.pretty in dm.content
            else:  # names nobody and no card but their own, so nothing in it goes stale
                own_hand = dm.content.splitlines()[1]  # only their own moves change it
                words = dm.content.replace(own_hand, "")
                assert not [u.name for u in users if u.name in words], dm.content
                assert not CARD.search(words) and "Not your turn yet" in words, dm.content
            if user not in (mover, to_act):  # a bystander's DM costs no request
                assert len(dm_edits(double, dms[user])) == edits[user], user.name


async def test_at_their_turn_a_players_dm_lists_the_others_moves_since_theirs_and_no_hidden_card(
    discord_double, bot_runner, tmp_path
):
    # The table message may be seconds behind on a busy bot (one edit a second per channel; at
    # 1,000 busy tables about one each 25 s within Discord's global limit): a player's own DM,
    # edited at their turn anyway, says what the others did since their last turn.
    double = discord_double
    bot, users, table = await three_at_a_table(double, bot_runner, tmp_path)
    deal = table.match.deal
    done: list[tuple[object, str]] = []  # (mover, the card they threw), in order
    for _ in range(2 * len(users)):
        mover = users[deal.turn]
        await play_turn(double, bot, mover)
        done.append((mover, deal.open_card.pretty))
        to_act = users[deal.turn]
        dm = double.message(double.dms_to(to_act)[0].id).content
        assert not re.search(r"picks \S+ from the closed deck", dm), dm  # a closed pick stays hidden
        mine = [step for step, (who, _) in enumerate(done) if who is to_act]
        others = done[mine[-1] + 1 :] if mine else done
        expected = "\n".join(
            f"> {who.name} picks from the closed deck.\n> {who.name} discards {card}." for who, card in others
        )
        assert dm.split("Since your last turn:\n", 1)[1].startswith(expected), dm
        for user in users:
            if user is not to_act:  # waiting: nothing listed that would go stale
                assert "Since your last turn" not in double.message(double.dms_to(user)[0].id).content


async def test_a_player_who_leaves_during_anothers_turn_is_listed_in_that_players_dm_at_once(
    discord_double, bot_runner, tmp_path
):
    # A leave is the one move made out of turn: the DM of the player to act, which lists the
    # others' moves since their last turn, would otherwise leave it out until their next press.
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    users = [double.user(name) for name in ("alice", "bob", "carol", "dave")]
    table = await start_table(double, bot, *users)
    deal = table.match.deal
    for _ in range(len(users)):  # a round: everyone has had a turn
        mover = users[deal.turn]
        await play_turn(double, bot, mover)
    to_act = users[deal.turn]
    leaver = users[(deal.turn + 2) % len(users)]  # not the one to act, nor the one who just moved
    await double.slash_command(leaver, "rummy leave")
    await settle(bot)
    assert users[deal.turn] is to_act  # still their turn
    dm = double.message(double.dms_to(to_act)[0].id).content
    since = dm.split("Since your last turn:\n", 1)[1]
    assert since.endswith(f"> {leaver.name} left the table."), dm


async def test_a_table_message_that_runs_far_behind_says_so_and_that_the_hand_dms_are_current(
    discord_double, bot_runner, tmp_path
):
    # At 1,000 busy tables Discord's global limit lets each table message be edited about every
    # 25-50 s: the channel should not pass an old state off as the table's.
    double = discord_double
    bot, users, table = await at_a_table(double, bot_runner, tmp_path, "alice", "bob")
    shown = bot.presenter.shown(table.id)
    busy = "this message runs about 31 s behind the table. Each player's hand DM is current."

    async def move():
        mover = users[table.match.deal.turn]
        await play_turn(double, bot, mover)
        return double.message(shown.message.id).content

    assert "behind the table" not in await move()
    bot.presenter.table_messages._lags.extend([31.0] * 50)  # as edits at a busy bot measured them
    assert busy in await move()
    bot.presenter.table_messages._lags.extend([0.5] * 50)  # caught up
    assert "behind the table" not in await move()


async def test_anyone_brings_a_table_message_that_runs_behind_up_to_date_with_one_press_outside_the_limit(
    discord_double, bot_runner, tmp_path
):
    # At 1,000 busy tables the table messages run a minute behind within Discord's global
    # limit; a press answered through itself is outside that limit, so while the bot says it is
    # behind, the message carries a button that shows the table as it is now, to whoever asks.
    double = discord_double
    bot, users, table = await at_a_table(double, bot_runner, tmp_path, "alice", "bob")
    alice = users[0]
    shown = bot.presenter.shown(table.id)
    now_button = f"rummy:table:{table.id}:now"
    await play_turn(double, bot, users[table.match.deal.turn])
    assert now_button not in double.message(shown.message.id).custom_ids()  # not behind: no button
    bot.presenter.table_messages._lags.extend([31.0] * 50)  # as edits at a busy bot measured them
    await play_turn(double, bot, users[table.match.deal.turn])
    assert now_button in double.message(shown.message.id).custom_ids()

    bot.presenter.edit_delay = 3600.0  # the table edits wait their turn in the budget, long
    mover = users[table.match.deal.turn]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await bot.actions.idle()
    thrown = f"{mover.name} discards {table.match.deal.open_card.pretty}."
    assert thrown not in double.message(shown.message.id).content  # behind
    edits = double.requests_matching("PATCH", rf"/channels/\d+/messages/{shown.message.id}")

    carol = double.user("carol")  # watching the channel, not seated
    press = await double.press_button(carol, shown.message.id, now_button)
    await bot.actions.idle()
    latest = double.message(shown.message.id)
    assert thrown in latest.content and "behind the table" in latest.content
    assert any(edit.files for edit in double.requests_matching("PATCH", rf"/webhooks/\d+/{press.token}/.*"))
    assert double.requests_matching("PATCH", rf"/channels/\d+/messages/{shown.message.id}") == edits
    assert not shown.dirty  # its refresh, when its turn comes, has nothing left to send

    forged = await double.press_button(carol, shown.message.id, "rummy:table:99999:now", check=False)
    assert "use the latest message" in await answer(double, forged)  # privately, nothing done
    assert double.message(shown.message.id).content == latest.content

    shown.refresh.cancel()  # the hour's wait: the next edits wait 2 s
    bot.presenter.edit_delay = 2.0
    await double.slash_command(alice, "rummy cancel")
    await bot.actions.idle()
    assert "cancelled" not in double.message(shown.message.id).content
    edits = double.requests_matching("PATCH", rf"/channels/\d+/messages/{shown.message.id}")
    await double.press_button(carol, shown.message.id, now_button)
    await bot.actions.idle()
    ended = double.message(shown.message.id)
    assert "This table was cancelled." in ended.content and now_button not in ended.custom_ids()
    await settle(bot)  # the edit that was waiting has nothing to send, and the table is let go
    assert double.requests_matching("PATCH", rf"/channels/\d+/messages/{shown.message.id}") == edits
    assert table.id not in bot.presenter.outbox._shown


async def test_a_result_waiting_for_discord_holds_up_no_players_next_move(
    discord_double, bot_runner, tmp_path
):
    # A result's post may wait long for the request budget or a rate limit (some 40 s at 1,000
    # busy tables): the next deal's moves, and each press's own DM, must not wait behind it.
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock))
    alice, bob = double.user("alice"), double.user("bob")
    lobby, table_id = await open_table(double, bot, alice, bob, fmt="pool-101")
    await double.press_button(alice, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    table = bot.service.table_in(double.channel_id)
    double.rate_limit("POST", rf"/channels/{double.channel_id}/messages", retry_after=3.0, times=3)
    await drop(double, bot, (alice, bob)[table.match.deal.turn])
    await double.wait_for(lambda: table.match.deal is None)
    clock.advance(60)
    await asyncio.wait_for(bot.service.fire_due(), 2)  # the next deal is dealt and shown
    mover = (alice, bob)[table.match.deal.turn]
    await double.wait_for(lambda: "Your turn" in hand_message(double, mover).content, timeout=2)
    hand = hand_message(double, mover)
    await double.press_button(mover, hand, button(hand, "closed"))
    await double.wait_for(lambda: "Discard a card" in hand_message(double, mover).content, timeout=2)
    assert not results(double)  # the result still waits out its rate limit
    await settle(bot)
    assert len(results(double)) == 1


def results(double) -> list:
    return [m for m in result_posts(double) if "wins deal 1" in m.content]


def turn_mentions(double) -> list:
    return [m for m in double.messages_to(double.channel_id) if ", your turn" in m.content]


async def test_an_old_turn_mention_whose_deletion_was_cut_short_is_deleted_after_a_restart(
    discord_double, bot_runner, tmp_path
):
    # The old mention goes after the new one is posted, in the background: a crash or an outage
    # in between must not leave it in the channel for good.
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock, **AT_ONCE))
    users = [double.user(name) for name in ("alice", "bob", "carol")]
    table = await start_table(double, bot, *users)
    (old,) = turn_mentions(double)
    double.inject("DELETE", rf"/channels/\d+/messages/{old.id}$", 503, {"message": "outage", "code": 0})
    mover = users[table.match.deal.turn]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)
    assert len(turn_mentions(double)) == 2 and old.id not in double.deleted_messages

    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock, **AT_ONCE))
    await settle(bot)
    (mention,) = turn_mentions(double)
    assert old.id in double.deleted_messages and mention.id != old.id
    to_act = users[bot.service.table_in(double.channel_id).match.deal.turn]
    assert mention.content.startswith(f"<@{to_act.id}>, your turn")


async def french_apps_at_a_hindi_table(double, bot_runner, tmp_path):
    """Two players whose apps speak a language the bot lacks (French), seated at a table of a
    server set to Hindi: the bot, the player to act and their hand DM."""
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    for user in (alice, bob):
        double.set_locale(user, "fr")
    await double.slash_command(bob, "rummy settings", options={"scope": "server", "language": "hi"})
    table = await start_table(double, bot, alice, bob)
    mover = (alice, bob)[table.match.deal.turn]
    return bot, mover, double.dms_to(mover)[0]


async def test_a_dm_speaks_one_language_whether_the_bot_or_a_press_in_it_writes_it(
    discord_double, bot_runner, tmp_path
):
    # Apps in a language the bot lacks, in a server set to Hindi: a DM follows the server's
    # language, and so does whatever a press in it is answered with.
    double = discord_double
    bot, mover, dm = await french_apps_at_a_hindi_table(double, bot_runner, tmp_path)
    assert "डील 1" in dm.content  # sent by the presenter
    await double.press_button(mover, dm, button(dm, "sort"))
    await settle(bot)
    assert "डील 1" in double.message(dm.id).content  # edited through the press
    ask = await double.press_button(mover, dm, button(double.message(dm.id), "drop"))
    assert ask.response_data["content"].startswith("इस डील से ड्रॉप करें?")


DEVANAGARI = re.compile("[\u0900-\u097f]")


async def test_a_servers_new_language_redraws_its_tables_and_the_dms_that_follow_it(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), **AT_ONCE))
    alice, bob = double.user("alice"), double.user("bob")
    double.set_locale(alice, "fr")  # a language we lack: her DMs follow the server's
    table = await start_table(double, bot, alice, bob)
    mover = (alice, bob)[table.match.deal.turn]
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)
    posts = [m for m in double.messages_to(double.channel_id) if "table.png" in str(m.payload)]
    table_message = posts[-1]
    assert "› " in table_message.content and not DEVANAGARI.search(table_message.content)
    dms = {user: double.dms_to(user)[0] for user in (alice, bob)}
    bobs_edits = len(dm_edits(double, dms[bob]))

    await double.slash_command(bob, "rummy settings", options={"scope": "server", "language": "hi"})
    await settle(bot)
    moves = [line for line in double.message(table_message.id).content.splitlines() if line.startswith("› ")]
    assert moves and all(DEVANAGARI.search(line) for line in moves), moves  # none left in English
    (mention,) = [m for m in double.messages_to(double.channel_id) if m.content.startswith("<@")]
    assert "आपकी बारी" in mention.content
    assert "डील 1" in double.message(dms[alice].id).content
    assert "deal 1" in double.message(dms[bob].id).content  # his app speaks English: left alone
    assert len(dm_edits(double, dms[bob])) == bobs_edits


async def test_a_press_on_an_old_rendering_is_refused_in_the_pressers_language(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    for user in (alice, bob):
        double.set_locale(user, "hi")
    table = await start_table(double, bot, alice, bob)
    mover = (alice, bob)[table.match.deal.turn]
    dm = double.dms_to(mover)[0]
    old, pick = dm.snapshot(), button(dm, "closed")
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)  # a turn later: that Pick is on no message any more
    ix = await double.press_button(mover, old, pick, check=False)
    assert ix.response_data["content"].startswith("यह बटन पिछली बारी का है")


async def test_a_cancelled_tables_turn_mention_whose_deletion_failed_is_deleted_after_a_restart(
    discord_double, bot_runner, tmp_path
):
    # A closing table's mention is deleted at once, but an outage may refuse that too: it is
    # stored to delete first, so the next start deletes it though the table is long closed.
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock, **AT_ONCE))
    users = [double.user(name) for name in ("alice", "bob")]
    await start_table(double, bot, *users)
    (mention,) = turn_mentions(double)
    double.inject("DELETE", rf"/channels/\d+/messages/{mention.id}$", 503, {"message": "outage", "code": 0})
    await double.slash_command(users[0], "rummy cancel")
    await settle(bot)
    assert bot.service.table_in(double.channel_id) is None and mention.id not in double.deleted_messages

    bot = await bot_runner.restart(bot, make_bot(tmp_path, clock, **AT_ONCE))
    await settle(bot)
    assert mention.id in double.deleted_messages


async def test_a_press_on_an_old_rendering_in_a_dm_is_refused_as_the_dm_speaks(
    discord_double, bot_runner, tmp_path
):
    # An app in a language the bot lacks, at a Hindi server's table: the DM speaks Hindi, and so
    # does the refusal of a press on its older rendering.
    double = discord_double
    bot, mover, dm = await french_apps_at_a_hindi_table(double, bot_runner, tmp_path)
    old, pick = dm.snapshot(), button(dm, "closed")
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await settle(bot)
    assert "डील 1" in double.message(dm.id).content
    ix = await double.press_button(mover, old, pick, check=False)
    assert ix.response_data["content"].startswith("यह बटन पिछली बारी का है")


async def test_a_mention_of_a_table_that_closed_just_before_a_crash_is_deleted_after_the_restart(
    discord_double, bot_runner, tmp_path
):
    # The table's close was saved, and the process died before its mention was deleted: the
    # restart does not resume the table, and must not leave its last turn in the channel.
    double, clock = discord_double, ManualClock()
    bot = await bot_runner.start(make_bot(tmp_path, clock, **AT_ONCE))
    users = [double.user(name) for name in ("alice", "bob", "carol")]
    table = await start_table(double, bot, *users)
    (mention,) = turn_mentions(double)
    await bot_runner.stop(bot)
    store = await open_store(tmp_path / "rummy.db")
    try:
        table.record.status = TableStatus.CANCELLED
        await store.cancel_table(table.record, table.match_id, clock.now())
    finally:
        await store.close()

    bot = await bot_runner.start(make_bot(tmp_path, clock, **AT_ONCE))
    await settle(bot)
    assert bot.service.table_in(double.channel_id) is None
    assert mention.id in double.deleted_messages and not turn_mentions(double)
    assert not [key for key in await bot.store.posted_messages() if key.startswith(f"table:{table.id}")]


async def test_a_press_in_the_dm_does_not_wait_for_a_turn_mention_held_up_by_the_request_budget(
    discord_double, bot_runner, tmp_path
):
    # On a busy bot a new mention may wait seconds for the request budget: the person it names
    # must meanwhile be able to play from their DM, whose edits the budget does not hold up.
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), **AT_ONCE))
    users = [double.user(name) for name in ("alice", "bob")]
    table = await start_table(double, bot, *users)
    mover, waiter = users[table.match.deal.turn], users[1 - table.match.deal.turn]
    budget_free, spend = asyncio.Event(), bot.presenter.outbox.spend_in_channel

    async def held_up(shown, *, urgent):
        await budget_free.wait()
        await spend(shown, urgent=urgent)

    bot.presenter.outbox.spend_in_channel = held_up
    await double.slash_command(mover, "rummy pick", options={"source": "closed"})
    await double.slash_command(mover, "rummy discard", options={"card": "1"})
    await double.wait_for(lambda: "Your turn" in double.dms_to(waiter)[0].content)
    dm = double.dms_to(waiter)[0]
    await double.press_button(waiter, dm, button(dm, "closed"))
    await double.wait_for(lambda: "Discard a card" in double.message(dm.id).content)
    assert not [m for m in double.messages_to(double.channel_id) if m.content.startswith(f"<@{waiter.id}>")]
    budget_free.set()
    await settle(bot)
    assert [m for m in double.messages_to(double.channel_id) if m.content.startswith(f"<@{waiter.id}>")]


async def test_a_show_the_table_now_press_shows_a_move_saved_while_it_was_being_deferred(
    discord_double, bot_runner, tmp_path
):
    # The press reads the table, then waits for Discord to take its defer: a move saved
    # meanwhile must be what the press shows, else the older state stays up, its refresh
    # skipped as already shown, until the next move.
    double = discord_double
    bot, users, table = await at_a_table(double, bot_runner, tmp_path, "alice", "bob")
    shown = bot.presenter.shown(table.id)
    now_button = f"rummy:table:{table.id}:now"
    bot.presenter.table_messages._lags.extend([31.0] * 50)  # behind: the message has the button
    await play_turn(double, bot, users[table.match.deal.turn])
    assert now_button in double.message(shown.message.id).custom_ids()
    bot.presenter.edit_delay = 3600.0  # the table edits wait their turn in the budget, long

    callbacks = r"/interactions/\d+/[^/]+/callback.*"
    released = double.hold("POST", callbacks)
    held = len(double.requests_matching("POST", callbacks))
    press = await double.press_button(double.user("carol"), shown.message.id, now_button, wait=False)

    async def until_held() -> None:  # a held request notifies no `wait_for`: looked at each turn
        while len(double.requests_matching("POST", callbacks)) == held:
            await asyncio.sleep(0)

    await asyncio.wait_for(until_held(), 5.0)
    mover = users[table.match.deal.turn]  # the defer is held: a move is saved meanwhile
    await bot.presenter.publish(
        await bot.service.play(double.channel_id, mover.id, {"command": "pick", "source": "closed"})
    )
    card = table.match.deal.seats[table.match.deal.turn].hand[0].code
    await bot.presenter.publish(
        await bot.service.play(double.channel_id, mover.id, {"command": "discard", "card": card})
    )
    thrown = f"{mover.name} discards {table.match.deal.open_card.pretty}."
    released.set()
    await double.wait_answered(press)
    await bot.actions.idle()
    content = double.message(shown.message.id).content
    assert thrown in content and f"Turn: <@{users[table.match.deal.turn].id}>" in content, content


async def test_a_hand_dm_built_before_a_pick_and_sent_after_it_is_built_again(
    discord_double, bot_runner, tmp_path
):
    # A hand DM edit waits for its turn in the request budget: a pick saved meanwhile keeps the
    # turn the same, and the DM built before it (the pick controls, a hand of 13) must not be
    # sent after it.
    double = discord_double
    bot, users, table = await at_a_table(double, bot_runner, tmp_path, "alice", "bob")
    deal = table.match.deal
    mover, player = users[deal.turn], users[1 - deal.turn]
    dm = double.dms_to(player)[0]
    outbox = bot.presenter.outbox
    gate, waiting = asyncio.Event(), []
    spend = outbox.budget.spend

    async def held(*, urgent: bool = False) -> None:  # the budget, long behind
        waiting.append(urgent)
        await gate.wait()
        await spend(urgent=urgent)

    outbox.budget.spend = held
    await bot.service.play(double.channel_id, mover.id, {"command": "pick", "source": "closed"})
    card = deal.seats[deal.turn].hand[0].code
    turn_comes = asyncio.create_task(
        bot.presenter.publish(
            await bot.service.play(double.channel_id, mover.id, {"command": "discard", "card": card})
        )
    )

    async def until_waiting() -> None:  # a wait on the gate notifies nothing: looked at each turn
        while not waiting:
            await asyncio.sleep(0)

    await asyncio.wait_for(until_waiting(), 5.0)  # the player's DM, built at their turn, waits
    await bot.service.play(double.channel_id, player.id, {"command": "pick", "source": "closed"})
    picked = len(dm_edits(double, dm))
    outbox.budget.spend = spend
    gate.set()
    await asyncio.wait_for(turn_comes, 10.0)
    await settle(bot)
    sent = dm_edits(double, dm)[picked:]
    assert sent, "the DM was not edited"
    for edit in sent:  # every edit sent after the pick asks for a discard, not a pick
        assert "**Discard a card**" in edit.body["content"], edit.body["content"]
