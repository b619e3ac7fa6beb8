"""Every picture the bot uploads says what it shows in words (its attachment's description), for
players who use a screen reader: a hand, the table, a result, the standings."""

from __future__ import annotations

from test_discord_frontend import answer, drop, hand_message, make_bot, settle, start_table

from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)
PICTURES = {"hand.png", "table.png", "result.png", "standings.png"}


def described(double) -> dict[str, list[str]]:
    """Each picture file the bot sent, by name, with the description its request gave it."""
    seen: dict[str, list[str]] = {}
    for request in double.requests:
        attachments = (request.body or {}).get("attachments") if isinstance(request.body, dict) else None
        for sent in request.files:
            if not sent.filename.endswith(".png"):
                continue
            index = next(
                (
                    i
                    for i, attachment in enumerate(attachments or [])
                    if attachment.get("filename") == sent.filename
                ),
                None,
            )
            text = (attachments or [])[index].get("description", "") if index is not None else ""
            seen.setdefault(sent.filename, []).append(text)
    return seen


async def test_every_picture_of_a_match_carries_words_for_a_screen_reader(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    loser = (alice, bob)[table.match.deal.turn]
    await drop(double, bot, loser)
    await settle(bot)
    standings = await double.slash_command(alice, "rummy standings")
    await answer(double, standings)
    seen = described(double)
    assert set(seen) >= PICTURES
    for name, texts in seen.items():
        assert all(texts), f"a {name} went without words"
        assert all(len(text) <= 1024 for text in texts)  # Discord's limit for a description
    assert any("Alice" in text and "Bob" in text for text in seen["result.png"])  # each player's points
    assert all(text.startswith("Your hand") for text in seen["hand.png"])


async def test_a_hand_dm_says_the_hand_in_one_line_as_the_picture_groups_it(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    for user, seat in ((alice, 0), (bob, 1)):
        line = hand_message(double, user).content.splitlines()[1]
        cards = table.match.deal.seats[seat].hand
        assert all(card.pretty in line for card in cards) and "pts" in line
