"""Each reader in their own language, through the Discord double (issue 15): a player whose
Discord app speaks Hindi beside one whose app speaks English at the same table, each with their
own private answers, DMs and hand pictures; a server whose posts are in Hindi, chosen with
`/rummy settings` or, failing that, taken from the server's Discord locale; slash commands'
descriptions synced with their Hindi translations."""

from discord_double.records import walk_components
from test_discord_frontend import (
    answer,
    button,
    hand_message,
    make_bot,
    open_table,
    own_hand_pictures,
    settle,
    start_table,
)

from bot.i18n import words
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)

HI = words("hi")


def labels(message) -> set[str]:
    return {
        c.get("label") or c.get("placeholder") for c in walk_components(message.payload.get("components", []))
    }


def table_post(double):
    """The table message as the channel shows it (edited in place)."""
    posts = [
        m
        for m in double.messages_to(double.channel_id)
        if any(f.filename == "table.png" for f in m.files.values())
    ]
    return posts[-1]


def hand_files(double, user) -> list[bytes]:
    return [
        file.data
        for audience, file, _ in double.deliveries()
        if audience == user.id and file.filename == "hand.png"
    ]


async def test_a_hindi_player_and_an_english_player_each_read_their_own_language(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    asha, bob = double.user("alice"), double.user("bob")
    double.set_locale(asha, "hi")
    table = await start_table(double, bot, asha, bob)

    asha_hand, bob_hand = hand_message(double, asha), hand_message(double, bob)
    assert "डील 1" in asha_hand.content and "deal 1" in bob_hand.content
    assert {HI("Pick closed"), HI("Drop"), HI("Declare"), HI("Discard a card…")} <= labels(asha_hand)
    assert {"Pick closed", "Drop", "Declare", "Discard a card…"} <= labels(bob_hand)
    # The table message is a channel post: in the server's language, English here.
    assert "Turn:" in table_post(double).content

    # Refusals are private, each in the asker's language.
    waiter = {0: asha, 1: bob}[1 - table.match.deal.turn]
    refused = await answer(
        double, await double.slash_command(waiter, "rummy pick", options={"source": "closed"})
    )
    if waiter is asha:
        assert refused == "अभी bob की बारी है।"
    else:
        assert refused.endswith("'s turn.")
    carol, dave = double.user("carol"), double.user("dave")
    double.set_locale(carol, "hi")
    assert await answer(double, await double.slash_command(carol, "rummy drop")) == HI(
        "You are not seated at this table."
    )
    assert "not seated" in await answer(double, await double.slash_command(dave, "rummy drop"))

    # A drop's confirmation, asked by each: the cost in their words, the button too.
    mover = {0: asha, 1: bob}[table.match.deal.turn]
    ask = await double.press_button(
        mover, hand_message(double, mover), button(hand_message(double, mover), "drop")
    )
    question = (ask.response_data or {}).get("content", "")
    if mover is asha:
        assert question.startswith("इस डील से ड्रॉप करें?") and HI("Yes, drop") in str(ask.response_data)
    else:
        assert question.startswith("Drop out of this deal?") and "Yes, drop" in str(ask.response_data)

    # Hand pictures: the Hindi player's drawn in Hindi, the English player's in English.
    hindi = own_hand_pictures(table.match, {asha.id: 0}, "hi")[asha.id]
    english = own_hand_pictures(table.match, {bob.id: 1})[bob.id]
    assert hand_files(double, asha) and set(hand_files(double, asha)) <= hindi
    assert hand_files(double, bob) and set(hand_files(double, bob)) <= english


async def test_a_players_own_choice_beats_their_apps_language(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    said = await answer(
        double, await double.slash_command(bob, "rummy settings", options={"scope": "user", "language": "hi"})
    )
    assert said.startswith(HI("Saved.")) and "हिन्दी" in said
    await start_table(double, bot, alice, bob)
    assert "डील 1" in hand_message(double, bob).content  # his app says en-US
    assert "deal 1" in hand_message(double, alice).content


async def test_a_server_set_to_hindi_posts_in_hindi(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    alice, bob = double.user("alice"), double.user("bob")
    ix = await double.slash_command(alice, "rummy settings", options={"scope": "server", "language": "hi"})
    assert "Tables here post in हिन्दी." in await answer(double, ix)  # her own answer: English
    lobby, _ = await open_table(double, bot, alice, bob)
    assert "लॉबी" in lobby.content and HI("Join") in labels(lobby)
    table = await start_table_from(double, bot, alice, lobby)
    assert table is not None
    assert "नियम:" in table_post(double).content and "बारी:" in table_post(double).content
    assert "deal 1" in hand_message(double, bob).content  # a DM follows the reader, not the server
    # A user the bot has never seen is written to in the server's language.
    assert (await bot.readers.user(double.user("dave").id, double.guild_id)).language == "hi"


async def test_the_servers_discord_locale_is_the_fallback(discord_double, bot_runner, tmp_path):
    double = discord_double
    double.guild_locale = "hi"  # a Community server whose preferred language is Hindi
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    lobby, _ = await open_table(double, bot, double.user("alice"))
    assert "लॉबी" in lobby.content


async def test_command_descriptions_are_synced_in_hindi_and_names_stay_english(
    discord_double, bot_runner, tmp_path
):
    double = discord_double
    await bot_runner.start(make_bot(tmp_path, ManualClock()))
    rummy = double.global_commands["rummy"]
    assert rummy["description_localizations"]["hi"] == HI("Indian 13-card Rummy tables")
    assert "name_localizations" not in rummy or not rummy["name_localizations"]
    new = next(option for option in rummy["options"] if option["name"] == "new")
    assert new["description_localizations"] == {"hi": HI("Open a table in this channel")}
    fmt = next(option for option in new["options"] if option["name"] == "format")
    assert fmt["description_localizations"] == {"hi": HI("Points, Deals or Pool")}
    assert not fmt.get("name_localizations")
    # A choice built from figures is said in Hindi too (issue 26), its English name kept.
    points = next(choice for choice in fmt["choices"] if choice["value"] == "points")
    assert points["name"] == "Points" and points["name_localizations"] == {"hi": HI("Points")}
    rules = next(option for option in new["options"] if option["name"] == "rules")
    standard = next(choice for choice in rules["choices"] if choice["value"] == "standard")
    assert standard["name"].startswith("standard · The big apps: 2-6 players")
    assert standard["name_localizations"]["hi"].startswith("standard · बड़े ऐप जैसे: 2-6 खिलाड़ी")
    league = double.global_commands["league"]
    assert league["description_localizations"] == {"hi": HI("Scheduled pool-rummy leagues")}


async def start_table_from(double, bot, host, lobby):
    table_id = int(next(c for c in lobby.custom_ids() if c.startswith("rummy:lobby:")).split(":")[2])
    await double.press_button(host, lobby, f"rummy:lobby:{table_id}:start")
    await settle(bot)
    return bot.service.table_in(double.channel_id)


async def test_only_a_server_manager_sets_the_servers_language(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    bob = double.user("bob")
    double.set_locale(bob, "hi")
    double.set_permissions(bob, 0)
    ix = await double.slash_command(bob, "rummy settings", options={"scope": "server", "language": "hi"})
    assert await answer(double, ix) == HI(
        "Only members with Manage Server can change this server's settings."
    )
    assert await bot.store.guild_settings(double.guild_id) == {}
    assert (await bot.readers.channel(double.guild_id)).language == "en"


async def test_a_hindi_servers_league_is_announced_in_hindi(discord_double, bot_runner, tmp_path):
    """League posts are channel posts: the announcement, its buttons, the scheduled event."""
    from test_discord_league import LEAGUE, NOW, announcement, create_league

    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(NOW.timestamp())))
    alice, carol = double.user("alice"), double.user("carol")
    double.set_locale(carol, "hi")
    refused = await answer(double, await double.slash_command(carol, "league join"))
    assert refused == HI("No league here yet. An admin can make one: `/league-admin create`.")
    await double.slash_command(alice, "rummy settings", options={"scope": "server", "language": "hi"})
    await create_league(double, bot)
    joined = await answer(double, await double.slash_command(carol, "league join"))
    assert joined.startswith("आपका साइन-अप हो गया। नाइट 1:")
    post = announcement(double)
    assert f"**{LEAGUE['name']} · नाइट 1**" in post.content and f"साइन अप (1): <@{carol.id}>" in post.content
    assert {HI("Join"), HI("Leave")} <= labels(post)
    (event,) = double.scheduled_events.values()
    assert event["name"] == f"{LEAGUE['name']} · नाइट 1" and "`/league join`" in event["description"]


async def test_rummy_rules_and_help_answer_in_the_askers_language(discord_double, bot_runner, tmp_path):
    double = discord_double
    await bot_runner.start(make_bot(tmp_path, ManualClock()))
    carol, dave = double.user("carol"), double.user("dave")
    double.set_locale(carol, "hi")

    async def rules_for(user) -> str:  # over two messages, as Discord's length limit makes it
        asked = await double.slash_command(user, "rummy rules")
        first = await answer(double, asked)
        await double.wait_for(lambda: double.followups(asked))
        return "\n".join([first, *(m.content for m in double.followups(asked))])

    hindi = await rules_for(carol)
    assert hindi.startswith("यहाँ कोई टेबल नहीं; ये standard नियम हैं") and "**ईमानदार फेंटाई**" in hindi
    assert "**Fair shuffle**" in await rules_for(dave)
    helped = await answer(double, await double.slash_command(carol, "rummy help"))
    assert helped.startswith("**आगे क्या करें**") and "`/rummy new`" in helped


async def test_a_hindi_host_edits_the_rules_in_hindi(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock()))
    asha = double.user("alice")
    double.set_locale(asha, "hi")
    lobby, table_id = await open_table(double, bot, asha)
    ix = await double.press_button(asha, lobby, f"rummy:lobby:{table_id}:rules")
    words = ix.response_data or {}
    assert words["content"].startswith("**नियम**: standard · ड्रॉप 20/40 · हर बारी 30 सेकंड")
    assert "एक विकल्प बदलें…" in str(words) and "फर्स्ट ड्रॉप" in str(words)
