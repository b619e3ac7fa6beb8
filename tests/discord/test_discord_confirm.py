"""Confirm what costs points (issue 26), acted as users through the Discord double: `/rummy drop`
asks first with the table's price, a wrong show is said plainly with "Keep playing" first, and a
question from an earlier turn does nothing."""

from __future__ import annotations

from deal_helpers import stacked_deal
from discord_double.records import walk_components
from test_discord_frontend import (
    answer,
    button,
    first_option,
    hand_message,
    make_bot,
    select_id,
    settle,
    start_table,
)

from bot.engine import Rules
from bot.engine.cards import parse_cards
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)

PRIMARY, DANGER = 1, 4  # Discord's button styles


def buttons(message) -> list[dict]:
    """The message's buttons, in the order Discord shows them."""
    return [c for c in walk_components(message.payload.get("components", [])) if c.get("type") == 2]


def starting_with(message, prefix: str) -> str:
    return next(cid for cid in message.custom_ids() if cid.startswith(prefix))


async def one_card_short(double, bot, alice, bob):
    """Alice (seat 0) holds four melds of three and K♦; the open card is 4♦, which fits nothing.
    Taking it leaves a show whose finish is K♦ and whose one loose card is 4♦: the card just
    taken from the open pile may not finish (000)."""
    table = await start_table(double, bot, alice, bob)
    hand = "2S 3S 4S 5C 6C 7C 9D 9H 9S 10H JH QH KD"
    other = "5S 6S 7S 8S 5H 6H 7H 8H 3H 10C JC QC 2D"
    table.match.deal = stacked_deal(Rules(), [hand, other], "4D", "8C")
    await bot.presenter.send_hand(table.publish(), 0)  # as the service shows a change it saved
    mine = hand_message(double, alice)
    await double.press_button(alice, mine, button(mine, "open"))
    await settle(bot)
    return table


async def test_rummy_drop_asks_with_the_tables_price_and_drops_only_when_confirmed(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    seat = table.match.deal.turn
    mover = (alice, bob)[seat]
    before = table.match.to_json()

    ask = await double.slash_command(mover, "rummy drop")
    question = double.original_response(ask)
    cost = table.match.deal.rules.first_drop
    assert question.ephemeral and f"It costs **{cost} points** (a first drop" in question.content
    assert table.match.to_json() == before  # asking dropped nothing
    first, second = buttons(question)
    assert first["custom_id"].startswith("rummy:keep:") and first["style"] == PRIMARY
    assert second["custom_id"].startswith("rummy:dropok:") and second["label"] == "Yes, drop"

    kept = await double.press_button(mover, question, first["custom_id"])
    assert double.original_response(kept).content == "Not dropped." and not buttons(question)
    assert table.match.to_json() == before

    ask = await double.slash_command(mover, "rummy drop")
    question = double.original_response(ask)
    await double.press_button(mover, question, starting_with(question, "rummy:dropok:"))
    await settle(bot)
    assert table.match.phase == "over" and table.match.winner == 1 - seat


async def test_a_wrong_show_says_so_with_its_price_and_loose_cards_and_keep_playing_first(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await one_card_short(double, bot, alice, bob)
    deal = table.match.deal
    before = table.match.to_json()
    cost = deal.rules.wrong_declaration
    four = parse_cards("4D")[0].pretty

    for ask_it in ("button", "slash command"):
        if ask_it == "button":
            mine = hand_message(double, alice)
            ask = await double.press_button(alice, mine, button(mine, "declare"))
        else:
            ask = await double.slash_command(alice, "rummy declare")
        prompt = double.original_response(ask)
        words = prompt.content
        assert prompt.ephemeral and "This is a wrong show" in words, words
        assert f"Not in a valid group: {four}" in words and f"costs you {cost} points" in words
        keep, anyway = buttons(prompt)
        assert keep["custom_id"].startswith("rummy:keep:") and keep["style"] == PRIMARY
        assert keep["label"] == "Keep playing"
        assert anyway["custom_id"].startswith("rummy:declare:") and anyway["style"] == DANGER
        assert anyway["label"] == f"Declare anyway (−{cost})"

        kept = await double.press_button(alice, prompt, keep["custom_id"])
        assert double.original_response(kept).content == "Not declared." and not buttons(prompt)
        assert table.match.to_json() == before  # Keep playing changed nothing

    ask = await double.slash_command(alice, "rummy declare")
    prompt = double.original_response(ask)
    done = await double.press_button(alice, prompt, starting_with(prompt, "rummy:declare:"))
    await settle(bot)
    assert "Declared." in await answer(double, done)
    assert table.match.history[-1][0] == cost  # a wrong show, charged as the rules say


async def test_a_confirmation_from_an_earlier_turn_or_another_grouping_does_nothing(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await one_card_short(double, bot, alice, bob)
    mine = hand_message(double, alice)
    prompt = double.original_response(await double.press_button(alice, mine, button(mine, "declare")))
    declare = starting_with(prompt, "rummy:declare:")

    # The cards regrouped after the question: its confirmation is not what was judged.
    await double.slash_command(alice, "rummy group", options={"groups": "1 2 3 4 5 6 / 7 8 9"})
    await settle(bot)
    before = table.match.to_json()
    changed = await double.press_button(alice, prompt, declare)
    assert "Your cards changed since you asked" in await answer(double, changed)
    assert table.match.to_json() == before

    # Bob asks to drop on his turn; the turn moves on; neither old question acts any more.
    await double.slash_command(alice, "rummy discard", options={"card": "KD"})
    await settle(bot)
    ask = await double.slash_command(bob, "rummy drop")
    question = double.original_response(ask)
    drop_ok = starting_with(question, "rummy:dropok:")
    theirs = hand_message(double, bob)
    await double.press_button(bob, theirs, button(theirs, "closed"))
    await settle(bot)
    theirs = hand_message(double, bob)
    await double.select(bob, theirs, select_id(theirs), [first_option(theirs)])
    await settle(bot)
    before = table.match.to_json()
    for user, message, custom_id in ((bob, question, drop_ok), (alice, prompt, declare)):
        stale = await double.press_button(user, message, custom_id)
        assert "earlier turn" in await answer(double, stale)
    assert table.match.to_json() == before


async def test_rummy_declare_out_of_turn_or_before_a_pick_is_refused_before_any_question(
    discord_double, bot_runner, tmp_path
):
    """Issue 23: no question about a show that cannot happen; the engine's refusal comes first."""
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    to_act = table.match.deal.turn
    users = (alice, bob)
    mover, waiter = users[to_act], users[1 - to_act]
    waiting = await double.slash_command(waiter, "rummy declare")
    assert await answer(double, waiting) == f"It's {mover.name}'s turn."
    assert not double.original_response(waiting).custom_ids()
    early = await double.slash_command(mover, "rummy declare")  # before any pick: standard rules
    assert await answer(double, early) == "Pick a card first."
    assert not double.original_response(early).custom_ids()
    assert table.match.deal.turn == to_act and not table.match.deal.seats[to_act].has_picked
