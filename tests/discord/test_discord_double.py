"""The Discord double drives the real, unmodified discord.py client end to end.

A tiny bot defined here exercises what the rummy front end will need: slash commands with
ephemeral files, DynamicItem buttons surviving a restart, DMs with a fallback when they are closed.
If discord.py changes what it reads from Discord's payloads, these tests are where it shows.
"""

from __future__ import annotations

import datetime
import io
import re

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord_double import CANNOT_DM, UNKNOWN_CHANNEL, DiscordDouble
from PIL import Image

# Registers the `discord_double` and `bot_runner` fixtures for this module (conftest.py is not ours).
pytest_plugins = ("discord_double.fixtures",)


def png(colour: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3), colour).save(buf, format="PNG")
    return buf.getvalue()


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:count:(?P<n>\d+)"):
    """A stateless button: everything it needs is in its custom_id, so it works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"+1 ({n})", custom_id=f"demo:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.presses.append((interaction.user.id, self.n))
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class RenameModal(discord.ui.Modal, title="Rename the table"):
    name = discord.ui.TextInput(label="New name", custom_id="demo:rename:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


class ChooseView(discord.ui.View):
    """A view bound to one message id: dispatch needs the id from the callback's `resource`."""

    @discord.ui.select(
        custom_id="demo:choose", options=[discord.SelectOption(label=v) for v in ("points", "pool")]
    )
    async def choose(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"format {select.values[0]}", view=None)


CARDS = ["AS", "10H", "QD", "JK"]


class DemoBot(commands.Bot):
    def __init__(self, *, guild_id: int | None = None) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents(guilds=True), chunk_guilds_at_startup=False
        )
        self.guild_scope = None if guild_id is None else discord.Object(guild_id)
        self.presses: list[tuple[int, int]] = []
        self.dm_errors: list[int] = []
        self.answered: list[discord.Interaction] = []
        self.synced: list[app_commands.AppCommand] = []
        group = app_commands.Group(name="demo", description="Demo commands")

        @group.command(name="hand", description="Show your hand privately")
        async def hand(interaction: discord.Interaction, seat: int) -> None:
            self.answered.append(interaction)
            file = discord.File(io.BytesIO(png("red")), filename=f"hand-{seat}.png")
            await interaction.response.send_message(f"seat {seat}", file=file, ephemeral=True)

        @group.command(name="counter", description="Post a counter button")
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(0))
            await interaction.response.send_message("count 0", view=view)

        @group.command(name="deal", description="DM a player their cards")
        async def deal(interaction: discord.Interaction, player: discord.Member) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                view = discord.ui.View(timeout=None)
                view.add_item(Counter(100))
                file = discord.File(io.BytesIO(png("blue")), filename="cards.png")
                await player.send("your cards", file=file, view=view)
            except discord.Forbidden as exc:
                self.dm_errors.append(exc.code)
                fallback = discord.File(io.BytesIO(png("blue")), filename="cards.png")
                await interaction.followup.send("DMs are closed, here:", file=fallback, ephemeral=True)
            else:
                await interaction.followup.send("sent by DM", ephemeral=True)

        @group.command(name="slow", description="Defer, then show a rendered image")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = discord.File(io.BytesIO(png("green")), filename="table.png")
            await interaction.edit_original_response(content="rendered", attachments=[file])

        @group.command(name="pick", description="Pick a card")
        async def pick(interaction: discord.Interaction, card: str) -> None:
            await interaction.response.send_message(f"picked {card}", ephemeral=True)

        @pick.autocomplete("card")
        async def pick_card(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=c, value=c) for c in CARDS if c.startswith(typed.upper())]

        @group.command(name="rename", description="Rename the table")
        async def rename(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(RenameModal())

        @group.command(name="choose", description="Choose a format")
        async def choose(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose a format", view=ChooseView(timeout=None))

        self.tree.add_command(group, guild=self.guild_scope)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.synced = await self.tree.sync(guild=self.guild_scope)


async def test_login_and_ready(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    assert bot.user.id == discord_double.bot_user.id
    assert bot.application_id == discord_double.application_id
    guild = bot.get_guild(discord_double.guild_id)
    assert guild is not None and guild.get_channel(discord_double.channel_id).name == "general"
    paths = [(r.method, r.path) for r in discord_double.requests]
    assert paths[:2] == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
    assert discord_double.identify_count == 1


async def test_json_content_type_is_exact(discord_double: DiscordDouble):
    # a route Discord has and the double does not serve (one Discord lacks is refused: see
    # discord_double/test_validation.py)
    not_served = "/channels/1/messages/2/crosspost"
    async with aiohttp.ClientSession() as session:
        async with session.get(discord_double.api_base + "/gateway") as resp:
            assert resp.headers["Content-Type"] == "application/json"
        async with session.post(discord_double.api_base + not_served, json={"x": 1}) as resp:
            assert resp.status == 404 and resp.headers["Content-Type"] == "application/json"
    assert [(r.path, r.json, r.status) for r in discord_double.requests][-1] == (not_served, {"x": 1}, 404)


async def test_command_sync_is_recorded_with_ids(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    (put,) = discord_double.requests_matching(
        "PUT", rf"/applications/{discord_double.application_id}/commands"
    )
    assert [c["name"] for c in put.json] == ["demo"]
    demo = discord_double.global_commands["demo"]
    assert {o["name"] for o in demo["options"]} == {
        "hand",
        "counter",
        "deal",
        "slow",
        "pick",
        "rename",
        "choose",
    }
    assert [c.id for c in bot.synced] == [int(demo["id"])]


async def test_slash_command_replies_ephemerally_with_a_decodable_file(
    discord_double: DiscordDouble, bot_runner
):
    await bot_runner.start(DemoBot())
    alice, bob = discord_double.user("alice"), discord_double.user("bob")

    ix = await discord_double.slash_command(alice, "demo", subcommand="hand", options={"seat": 2})

    reply = discord_double.original_response(ix)
    assert reply.ephemeral and reply.content == "seat 2" and reply.to_user == alice.id
    (sent,) = discord_double.files_sent_to(alice)
    assert sent.filename == "hand-2.png"
    assert Image.open(io.BytesIO(sent.data)).getpixel((0, 0)) == (255, 0, 0)
    assert discord_double.files_sent_to(bob) == [] and discord_double.public_files() == []
    async with (
        aiohttp.ClientSession() as session,
        session.get(reply.payload["attachments"][0]["url"]) as resp,
    ):
        assert await resp.read() == sent.data


async def test_button_reaches_the_dynamic_item_also_after_a_restart(
    discord_double: DiscordDouble, bot_runner
):
    bot = await bot_runner.start(DemoBot())
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    ix = await discord_double.slash_command(alice, "demo counter")
    message = discord_double.original_response(ix)
    assert not message.ephemeral and message.custom_ids() == ["demo:count:0"]

    await discord_double.press_button(bob, message, "demo:count:0")
    assert message.content == "count 1" and message.custom_ids() == ["demo:count:1"]
    assert bot.presses == [(bob.id, 0)]

    stale = message.snapshot()
    bot = await bot_runner.restart(bot, DemoBot())
    assert discord_double.identify_count == 2 and bot.presses == []
    await discord_double.press_button(alice, message, "demo:count:1")
    assert message.content == "count 2" and bot.presses == [(alice.id, 1)]

    with pytest.raises(AssertionError, match="no component"):
        await discord_double.press_button(alice, message, "demo:count:0")
    # A client still showing the old rendering can press it, but the interaction carries the
    # current message, where discord.py finds no such button: the DynamicItem never runs.
    with pytest.raises(AssertionError, match="did not answer"):
        await discord_double.press_button(bob, stale, "demo:count:1", timeout=0.2)
    assert bot.presses == [(alice.id, 1)]


async def test_closed_dms_surface_as_forbidden_50007_and_fall_back(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    alice, bob, carol = (discord_double.user(n) for n in ("alice", "bob", "carol"))
    discord_double.close_dms(bob)

    ix = await discord_double.slash_command(alice, "demo deal", options={"player": bob})
    await discord_double.wait_for(lambda: discord_double.followups(ix))

    assert bot.dm_errors == [CANNOT_DM]
    (refused,) = discord_double.requests_matching("POST", r"/channels/\d+/messages")
    assert refused.status == 403 and refused.to_user == bob.id
    assert discord_double.dms_to(bob) == [] and discord_double.files_sent_to(bob) == []
    (fallback,) = discord_double.followups(ix)
    assert fallback.ephemeral and fallback.to_user == alice.id
    assert [f.filename for f in discord_double.files_sent_to(alice)] == ["cards.png"]

    ix = await discord_double.slash_command(alice, "demo deal", options={"player": carol})
    await discord_double.wait_for(lambda: discord_double.followups(ix))
    (dm,) = discord_double.dms_to(carol)
    assert dm.content == "your cards" and [f.filename for f in discord_double.files_sent_to(carol)] == [
        "cards.png"
    ]


async def test_concurrent_presses_by_two_users_both_reach_the_bot(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    message = discord_double.original_response(await discord_double.slash_command(alice, "demo counter"))

    a, b = await discord_double.at_once(
        discord_double.press_button(alice, message, "demo:count:0"),
        discord_double.press_button(bob, message, "demo:count:0"),
    )

    assert sorted(bot.presses) == sorted([(alice.id, 0), (bob.id, 0)])
    assert a.response_type == b.response_type == 7


async def test_unknown_channel_and_rate_limit(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    channel = bot.get_channel(discord_double.channel_id)

    discord_double.rate_limit("POST", rf"/channels/{channel.id}/messages", retry_after=0.01)
    sent = await channel.send("hello")
    assert [m.id for m in discord_double.messages_to(channel.id)] == [sent.id]
    assert [r.status for r in discord_double.requests_matching("POST", r"/channels/\d+/messages")] == [
        429,
        200,
    ]

    discord_double.remove_channel(channel.id)
    with pytest.raises(discord.NotFound) as err:
        await channel.send("gone")
    assert err.value.code == UNKNOWN_CHANNEL


async def test_gateway_drop_resumes_and_interactions_still_arrive(discord_double: DiscordDouble, bot_runner):
    await bot_runner.start(DemoBot())
    await discord_double.drop_gateway()
    await discord_double.wait_for(lambda: discord_double.connected)
    assert discord_double.resume_count == 1 and discord_double.identify_count == 1

    ix = await discord_double.slash_command(discord_double.user("dave"), "demo hand", options={"seat": 1})
    assert discord_double.original_response(ix).content == "seat 1"


async def test_threads_and_scheduled_events(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    channel = bot.get_channel(discord_double.channel_id)
    thread = await channel.create_thread(name="table 1", type=discord.ChannelType.public_thread)
    await thread.send("deal 1")
    assert [m.content for m in discord_double.messages_to(thread.id)] == ["deal 1"]

    guild = bot.get_guild(discord_double.guild_id)
    start = discord.utils.utcnow() + datetime.timedelta(hours=1)
    event = await guild.create_scheduled_event(
        name="Friday rummy",
        start_time=start,
        end_time=start + datetime.timedelta(hours=2),
        entity_type=discord.EntityType.external,
        location="#general",
        privacy_level=discord.PrivacyLevel.guild_only,
    )
    assert discord_double.scheduled_events[event.id]["name"] == "Friday rummy"
    await event.delete()
    assert discord_double.scheduled_events == {}


async def test_scheduled_events_follow_discords_rules(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    guild = bot.get_guild(discord_double.guild_id)
    start = discord.utils.utcnow() + datetime.timedelta(hours=1)
    external = {"entity_type": discord.EntityType.external, "privacy_level": discord.PrivacyLevel.guild_only}
    with (
        discord_double.expect_violations("end is before the start"),
        pytest.raises(discord.HTTPException, match="end is before the start"),
    ):
        await guild.create_scheduled_event(
            name="Backwards", start_time=start, end_time=start, location="#general", **external
        )
    assert discord_double.scheduled_events == {}
    event = await guild.create_scheduled_event(
        name="Night",
        start_time=start,
        end_time=start + datetime.timedelta(hours=1),
        location="#g",
        **external,
    )
    event = await event.start()
    assert discord_double.scheduled_events[event.id]["status"] == 2
    # discord.py checks the status it holds; a stale copy lets the request through and Discord refuses.
    stale = await guild.fetch_scheduled_event(event.id)
    stale.status = discord.EventStatus.scheduled
    with (
        discord_double.expect_violations("Cannot change"),
        pytest.raises(discord.HTTPException, match="Cannot change"),
    ):
        await stale.cancel()
    await event.end()
    assert discord_double.scheduled_events[event.id]["status"] == 3


async def test_members_can_lack_permissions(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    discord_double.set_permissions(bob, discord.Permissions(send_messages=True).value)
    for user in (alice, bob):
        await discord_double.slash_command(user, "demo hand", options={"seat": 1})
    assert [ix.permissions.manage_guild for ix in bot.answered] == [True, False]


async def test_buttons_work_in_dms(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    alice, carol = discord_double.user("alice"), discord_double.user("carol")
    ix = await discord_double.slash_command(alice, "demo deal", options={"player": carol})
    await discord_double.wait_for(lambda: discord_double.followups(ix))
    (dm,) = discord_double.dms_to(carol)

    with pytest.raises(AssertionError, match="cannot see"):
        await discord_double.press_button(alice, dm, "demo:count:100")
    press = await discord_double.press_button(carol, dm, "demo:count:100")

    assert "user" in press.payload and "member" not in press.payload
    assert dm.content == "count 101" and bot.presses == [(carol.id, 100)]

    ix = await discord_double.slash_command(carol, "demo hand", options={"seat": 5}, channel=dm.channel_id)
    assert "guild_id" not in ix.payload and discord_double.original_response(ix).to_user == carol.id


async def test_autocomplete_modal_and_select(discord_double: DiscordDouble, bot_runner):
    await bot_runner.start(DemoBot())
    alice, bob = discord_double.user("alice"), discord_double.user("bob")

    choices = await discord_double.autocomplete(alice, "demo pick", focused="card", options={"card": "1"})
    assert choices == [{"name": "10H", "value": "10H"}]

    opened = await discord_double.slash_command(alice, "demo rename")
    assert opened.response_type == 9
    submitted = await discord_double.submit_modal(alice, opened, {"demo:rename:name": "High rollers"})
    assert discord_double.original_response(submitted).content == "renamed to High rollers"

    message = discord_double.original_response(await discord_double.slash_command(alice, "demo choose"))
    await discord_double.select(bob, message, "demo:choose", ["pool"])
    assert message.content == "format pool" and message.payload["components"] == []


async def test_guild_commands_carry_the_guild_id(discord_double: DiscordDouble, bot_runner):
    await bot_runner.start(DemoBot(guild_id=discord_double.guild_id))
    assert (
        discord_double.global_commands == {}
        and "demo" in discord_double.guild_commands[discord_double.guild_id]
    )

    ix = await discord_double.slash_command(discord_double.user("bob"), "demo hand", options={"seat": 3})

    assert ix.payload["data"]["guild_id"] == str(discord_double.guild_id)
    assert discord_double.original_response(ix).content == "seat 3"


async def test_a_silent_bot_fails_the_helper_not_the_loop(discord_double: DiscordDouble, bot_runner):
    await bot_runner.start(DemoBot())
    message = discord_double.original_response(
        await discord_double.slash_command(discord_double.user("alice"), "demo counter")
    )
    with pytest.raises(AssertionError, match="did not answer"):
        await discord_double.press_button(
            discord_double.user("bob"),
            message.snapshot() | {"components": []},
            "nobody:listens",
            check=False,
            timeout=0.2,
        )


async def test_history_token_expiry_and_answer_window(discord_double: DiscordDouble, bot_runner):
    bot = await bot_runner.start(DemoBot())
    channel = bot.get_channel(discord_double.channel_id)
    for text in ("one", "two", "three"):
        await channel.send(text)
    assert [m.content async for m in channel.history(limit=2)] == ["three", "two"]
    assert [m.content async for m in channel.history(limit=5, oldest_first=True)] == ["one", "two", "three"]

    alice = discord_double.user("alice")
    ix = await discord_double.slash_command(alice, "demo hand", options={"seat": 1})
    discord_double.expire(ix)
    with pytest.raises(discord.HTTPException) as err:
        await bot.answered[-1].edit_original_response(content="too late")
    assert (err.value.status, err.value.code) == (401, 50027)

    discord_double.answer_window = 0.0
    with pytest.raises(AssertionError, match="did not answer"):
        await discord_double.slash_command(alice, "demo hand", options={"seat": 2}, timeout=0.3)
    assert discord_double.requests[-1].status == 404
    assert [(uid, f.filename) for uid, f, _ in discord_double.deliveries()] == [(alice.id, "hand-1.png")]


async def test_a_second_answer_is_refused_like_discord_does(discord_double: DiscordDouble, bot_runner):
    await bot_runner.start(DemoBot())
    ix = await discord_double.slash_command(discord_double.user("carol"), "demo hand", options={"seat": 4})
    url = f"{discord_double.api_base}/interactions/{ix.id}/{ix.token}/callback"
    async with aiohttp.ClientSession() as session, session.post(url, json={"type": 6}) as resp:
        assert (resp.status, (await resp.json())["code"]) == (400, 40060)


async def test_deferred_answer_edited_with_a_file_stays_private(discord_double: DiscordDouble, bot_runner):
    await bot_runner.start(DemoBot())
    dave = discord_double.user("dave")

    ix = await discord_double.slash_command(dave, "demo slow")
    await discord_double.wait_for(lambda: discord_double.original_response(ix).content == "rendered")

    assert ix.response_type == 5 and ix.ephemeral
    reply = discord_double.original_response(ix)
    assert reply.to_user == dave.id and reply.payload["flags"] == 64
    assert [f.filename for f in discord_double.files_sent_to(dave)] == ["table.png"]
    assert [a["filename"] for a in reply.payload["attachments"]] == ["table.png"]
