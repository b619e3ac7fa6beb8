"""The double refuses what Discord refuses: each documented limit once at its edge (the largest
value Discord takes passes, one more is refused, at the field Discord would name), Discord's
OpenAPI description for what it covers, and the whole path end to end: a 400 with Discord's
error body, the violation recorded, and the test failed at teardown unless it expected it."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import aiohttp
import discord
import pytest

from discord_double import DiscordDouble, limits, spec
from discord_double.problems import Problem

pytest_plugins = ("discord_double.fixtures",)

MESSAGE = ("POST", "/channels/{channel_id}/messages")
CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
COMMANDS = ("PUT", "/applications/{application_id}/commands")
EVENT = ("POST", "/guilds/{guild_id}/scheduled-events")
THREAD = ("POST", "/channels/{channel_id}/threads")


def button(**fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": "rummy:join", "label": "Join", **fields}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(options: int = 2, **fields: Any) -> dict[str, Any]:
    choices = [{"label": f"Seat {n}", "value": str(n)} for n in range(options)]
    return {"type": 3, "custom_id": "rummy:seat", "options": choices, **fields}


def option(**fields: Any) -> dict[str, Any]:
    """A string select of one option, that option's fields as given."""
    return {"type": 3, "custom_id": "rummy:seat", "options": [{"label": "Seat", "value": "1", **fields}]}


def without(body: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != key}


def embed(**fields: Any) -> dict[str, Any]:
    return {"title": "Standings", **fields}


def field(name: str = "alice", value: str = "10 points") -> dict[str, Any]:
    return {"name": name, "value": value}


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "rummy", "description": "Play Indian rummy", **fields}


def string_option(**fields: Any) -> dict[str, Any]:
    return {"type": 3, "name": "format", "description": "Which game", **fields}


def choices(count: int, name: str = "points", value: str = "p") -> list[dict[str, Any]]:
    return [
        {"name": f"{name}{n}" if count > 1 else name, "value": f"{value}{n}" if count > 1 else value}
        for n in range(count)
    ]


def event(**fields: Any) -> dict[str, Any]:
    return {
        "name": "Friday Pool · Night 1",
        "entity_type": 3,
        "privacy_level": 2,
        "scheduled_start_time": "2026-03-06T14:30:00+00:00",
        "scheduled_end_time": "2026-03-06T17:30:00+00:00",
        "entity_metadata": {"location": "#general"},
        **fields,
    }


def autocomplete(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": 8, "data": {"choices": items}}


def where(problems: list[Problem]) -> list[str]:
    return [".".join(str(part) for part in p.at) for p in problems]


# (what, route, files, the largest Discord takes, one more, where Discord names the problem)
EDGES: list[tuple[str, tuple[str, str], int, Any, Any, str]] = [
    # messages
    ("content", MESSAGE, 0, {"content": "x" * 2000}, {"content": "x" * 2001}, "content"),
    ("embeds", MESSAGE, 0, {"embeds": [embed()] * 10}, {"embeds": [embed()] * 11}, "embeds"),
    (
        "embed title",
        MESSAGE,
        0,
        {"embeds": [embed(title="t" * 256)]},
        {"embeds": [embed(title="t" * 257)]},
        "embeds.0.title",
    ),
    (
        "embed description",
        MESSAGE,
        0,
        {"embeds": [embed(description="d" * 4096)]},
        {"embeds": [embed(description="d" * 4097)]},
        "embeds.0.description",
    ),
    (
        "embed fields",
        MESSAGE,
        0,
        {"embeds": [embed(fields=[field()] * 25)]},
        {"embeds": [embed(fields=[field()] * 26)]},
        "embeds.0.fields",
    ),
    (
        "embed field name",
        MESSAGE,
        0,
        {"embeds": [embed(fields=[field(name="n" * 256)])]},
        {"embeds": [embed(fields=[field(name="n" * 257)])]},
        "embeds.0.fields.0.name",
    ),
    (
        "embed field value",
        MESSAGE,
        0,
        {"embeds": [embed(fields=[field(value="v" * 1024)])]},
        {"embeds": [embed(fields=[field(value="v" * 1025)])]},
        "embeds.0.fields.0.value",
    ),
    (
        "embed field value empty",
        MESSAGE,
        0,
        {"embeds": [embed(fields=[field(value="v")])]},
        {"embeds": [embed(fields=[field(value="")])]},
        "embeds.0.fields.0.value",
    ),
    (
        "embed footer",
        MESSAGE,
        0,
        {"embeds": [embed(footer={"text": "f" * 2048})]},
        {"embeds": [embed(footer={"text": "f" * 2049})]},
        "embeds.0.footer.text",
    ),
    (
        "embed author",
        MESSAGE,
        0,
        {"embeds": [embed(author={"name": "a" * 256})]},
        {"embeds": [embed(author={"name": "a" * 257})]},
        "embeds.0.author.name",
    ),
    (
        "embeds in all",
        MESSAGE,
        0,
        {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3000}]},
        {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3001}]},
        "embeds",
    ),
    # components
    (
        "button custom_id",
        MESSAGE,
        0,
        {"components": [row(button())]},
        {"components": [row(without(button(), "custom_id"))]},
        "components.0.components.0.custom_id",
    ),
    (
        "button custom_id length",
        MESSAGE,
        0,
        {"components": [row(button(custom_id="c" * 100))]},
        {"components": [row(button(custom_id="c" * 101))]},
        "components.0.components.0.custom_id",
    ),
    (
        "link button",
        MESSAGE,
        0,
        {"components": [row({"type": 2, "style": 5, "label": "Rules", "url": "https://example.com/rules"})]},
        {
            "components": [
                row(
                    {
                        "type": 2,
                        "style": 5,
                        "label": "Rules",
                        "url": "https://example.com/rules",
                        "custom_id": "x",
                    }
                )
            ]
        },
        "components.0.components.0.custom_id",
    ),
    (
        "button label",
        MESSAGE,
        0,
        {"components": [row(button(label="l" * 80))]},
        {"components": [row(button(label="l" * 81))]},
        "components.0.components.0.label",
    ),
    (
        "action rows",
        MESSAGE,
        0,
        {"components": [row(button(custom_id=f"b{n}")) for n in range(5)]},
        {"components": [row(button(custom_id=f"b{n}")) for n in range(6)]},
        "components",
    ),
    (
        "buttons in a row",
        MESSAGE,
        0,
        {"components": [row(*(button(custom_id=f"b{n}") for n in range(5)))]},
        {"components": [row(*(button(custom_id=f"b{n}") for n in range(6)))]},
        "components.0.components",
    ),
    (
        "a select alone in its row",
        MESSAGE,
        0,
        {"components": [row(select())]},
        {"components": [row(select(), button())]},
        "components.0.components",
    ),
    (
        "select options",
        MESSAGE,
        0,
        {"components": [row(select(options=25, max_values=25))]},
        {"components": [row(select(options=26))]},
        "components.0.components.0.options",
    ),
    (
        "select without options",
        MESSAGE,
        0,
        {"components": [row(select(options=1))]},
        {"components": [row(select(options=0))]},
        "components.0.components.0.options",
    ),
    (
        "select option label",
        MESSAGE,
        0,
        {"components": [row(option(label="l" * 100))]},
        {"components": [row(option(label="l" * 101))]},
        "components.0.components.0.options.0.label",
    ),
    (
        "select option value",
        MESSAGE,
        0,
        {"components": [row(option(value="v" * 100))]},
        {"components": [row(option(value="v" * 101))]},
        "components.0.components.0.options.0.value",
    ),
    (
        "select option description",
        MESSAGE,
        0,
        {"components": [row(option(description="d" * 100))]},
        {"components": [row(option(description="d" * 101))]},
        "components.0.components.0.options.0.description",
    ),
    (
        "select placeholder",
        MESSAGE,
        0,
        {"components": [row(select(placeholder="p" * 150))]},
        {"components": [row(select(placeholder="p" * 151))]},
        "components.0.components.0.placeholder",
    ),
    (
        "select min over max",
        MESSAGE,
        0,
        {"components": [row(select(min_values=2, max_values=2))]},
        {"components": [row(select(min_values=2, max_values=1))]},
        "components.0.components.0.min_values",
    ),
    (
        "select max over options",
        MESSAGE,
        0,
        {"components": [row(select(options=2, max_values=2))]},
        {"components": [row(select(options=2, max_values=3))]},
        "components.0.components.0.max_values",
    ),
    (
        "select option values once",
        MESSAGE,
        0,
        {"components": [row(select(options=2))]},
        {"components": [row(select(options=2) | {"options": [{"label": "A", "value": "1"}] * 2})]},
        "components.0.components.0.options.1.value",
    ),
    (
        "custom_id once a message",
        MESSAGE,
        0,
        {"components": [row(button(custom_id="a")), row(button(custom_id="b"))]},
        {"components": [row(button(custom_id="a")), row(button(custom_id="a"))]},
        "components.1.components.0.custom_id",
    ),
    (
        "top level without v2",
        MESSAGE,
        0,
        {"components": [row(button())]},
        {"components": [button()]},
        "components.0.type",
    ),
    # attachments and mentions
    (
        "alt text",
        MESSAGE,
        1,
        {"attachments": [{"id": 0, "description": "a" * 1024}]},
        {"attachments": [{"id": 0, "description": "a" * 1025}]},
        "attachments.0.description",
    ),
    (
        "mention kinds",
        MESSAGE,
        0,
        {"allowed_mentions": {"parse": ["users"]}},
        {"allowed_mentions": {"parse": ["user"]}},
        "allowed_mentions.parse.0",
    ),
    (
        "mentions both ways",
        MESSAGE,
        0,
        {"allowed_mentions": {"parse": ["roles"], "users": ["1"]}},
        {"allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        "allowed_mentions.users",
    ),
    (
        "mentioned ids",
        MESSAGE,
        0,
        {"allowed_mentions": {"users": [str(n) for n in range(100)]}},
        {"allowed_mentions": {"users": [str(n) for n in range(101)]}},
        "allowed_mentions.users",
    ),
    # interaction answers
    (
        "answer content",
        CALLBACK,
        0,
        {"type": 4, "data": {"content": "x" * 2000}},
        {"type": 4, "data": {"content": "x" * 2001}},
        "data.content",
    ),
    (
        "autocomplete choices",
        CALLBACK,
        0,
        autocomplete(choices(25)),
        autocomplete(choices(26)),
        "data.choices",
    ),
    (
        "autocomplete name",
        CALLBACK,
        0,
        autocomplete(choices(1, name="n" * 100)),
        autocomplete(choices(1, name="n" * 101)),
        "data.choices.0.name",
    ),
    (
        "autocomplete empty name",
        CALLBACK,
        0,
        autocomplete(choices(1, name="n")),
        autocomplete(choices(1, name="")),
        "data.choices.0.name",
    ),
    (
        "autocomplete value",
        CALLBACK,
        0,
        autocomplete(choices(1, value="v" * 100)),
        autocomplete(choices(1, value="v" * 101)),
        "data.choices.0.value",
    ),
    # application commands
    ("command name case", COMMANDS, 0, [command(name="rummy")], [command(name="Rummy")], "0.name"),
    ("command name space", COMMANDS, 0, [command(name="rummy-new")], [command(name="rummy new")], "0.name"),
    ("command name length", COMMANDS, 0, [command(name="r" * 32)], [command(name="r" * 33)], "0.name"),
    (
        "command name scripts",
        COMMANDS,
        0,
        [command(name="रमी"), command(name="ไพ่")],
        [command(name="rummy!")],
        "0.name",
    ),
    (
        "command description",
        COMMANDS,
        0,
        [command(description="d" * 100)],
        [command(description="d" * 101)],
        "0.description",
    ),
    (
        "command description empty",
        COMMANDS,
        0,
        [command(description="d")],
        [command(description="")],
        "0.description",
    ),
    (
        "command options",
        COMMANDS,
        0,
        [command(options=[string_option(name=f"o{n}") for n in range(25)])],
        [command(options=[string_option(name=f"o{n}") for n in range(26)])],
        "0.options",
    ),
    (
        "option name",
        COMMANDS,
        0,
        [command(options=[string_option(name="format")])],
        [command(options=[string_option(name="Format")])],
        "0.options.0.name",
    ),
    (
        "option description",
        COMMANDS,
        0,
        [command(options=[string_option(description="d" * 100)])],
        [command(options=[string_option(description="d" * 101)])],
        "0.options.0.description",
    ),
    (
        "option choices",
        COMMANDS,
        0,
        [command(options=[string_option(choices=choices(25))])],
        [command(options=[string_option(choices=choices(26))])],
        "0.options.0.choices",
    ),
    (
        "option choice value",
        COMMANDS,
        0,
        [command(options=[string_option(choices=choices(1, value="v" * 100))])],
        [command(options=[string_option(choices=choices(1, value="v" * 101))])],
        "0.options.0.choices.0.value",
    ),
    (
        "required options first",
        COMMANDS,
        0,
        [command(options=[string_option(name="a", required=True), string_option(name="b")])],
        [command(options=[string_option(name="a"), string_option(name="b", required=True)])],
        "0.options.1.required",
    ),
    (
        "option names once",
        COMMANDS,
        0,
        [command(options=[string_option(name="a"), string_option(name="b")])],
        [command(options=[string_option(name="a"), string_option(name="a")])],
        "0.options.1.name",
    ),
    (
        "choices or autocomplete",
        COMMANDS,
        0,
        [command(options=[string_option(autocomplete=True)])],
        [command(options=[string_option(autocomplete=True, choices=choices(2))])],
        "0.options.0.autocomplete",
    ),
    (
        "localized name key",
        COMMANDS,
        0,
        [command(name_localizations={"hi": "रमी"})],
        [command(name_localizations={"hindi": "रमी"})],
        "0.name_localizations.hindi",
    ),
    (
        "localized name",
        COMMANDS,
        0,
        [command(name_localizations={"de": "rommé"})],
        [command(name_localizations={"de": "Rommé"})],
        "0.name_localizations.de",
    ),
    (
        "localized description",
        COMMANDS,
        0,
        [command(description_localizations={"hi": "d" * 100})],
        [command(description_localizations={"hi": "d" * 101})],
        "0.description_localizations.hi",
    ),
    (
        "localized option description key",
        COMMANDS,
        0,
        [command(options=[string_option(description_localizations={"pt-BR": "Qual jogo"})])],
        [command(options=[string_option(description_localizations={"pt": "Qual jogo"})])],
        "0.options.0.description_localizations.pt",
    ),
    (
        "user command",
        COMMANDS,
        0,
        [{"type": 2, "name": "Show Hand"}],
        [{"type": 2, "name": "S" * 33}],
        "0.name",
    ),
    # scheduled events
    ("event name", EVENT, 0, event(name="n" * 100), event(name="n" * 101), "name"),
    ("event name empty", EVENT, 0, event(name="n"), event(name=""), "name"),
    (
        "event description",
        EVENT,
        0,
        event(description="d" * 1000),
        event(description="d" * 1001),
        "description",
    ),
    (
        "event location",
        EVENT,
        0,
        event(entity_metadata={"location": "#" + "c" * 99}),
        event(entity_metadata={"location": "#" + "c" * 100}),
        "entity_metadata.location",
    ),
    (
        "event location empty",
        EVENT,
        0,
        event(entity_metadata={"location": "#"}),
        event(entity_metadata={"location": ""}),
        "entity_metadata.location",
    ),
    (
        "event end after start",
        EVENT,
        0,
        event(scheduled_end_time="2026-03-06T14:31:00+00:00"),
        event(scheduled_end_time="2026-03-06T14:30:00+00:00"),
        "scheduled_end_time",
    ),
    ("external event end", EVENT, 0, event(), without(event(), "scheduled_end_time"), "scheduled_end_time"),
    # threads
    ("thread name", THREAD, 0, {"name": "t" * 100, "type": 11}, {"name": "t" * 101, "type": 11}, "name"),
    ("thread name empty", THREAD, 0, {"name": "t", "type": 11}, {"name": "", "type": 11}, "name"),
]


@pytest.mark.parametrize(
    ("route", "files", "largest", "over", "at"), [e[1:] for e in EDGES], ids=[e[0] for e in EDGES]
)
def test_each_limit_takes_its_largest_value_and_refuses_one_more(route, files, largest, over, at):
    method, template = route
    assert limits.check(method, template, largest, files) == []
    refused = limits.check(method, template, over, files)
    assert at in where(refused), refused


def test_a_message_carries_ten_files_at_most():
    assert limits.check(*MESSAGE, {"content": "pictures"}, 10) == []
    assert where(limits.check(*MESSAGE, {"content": "pictures"}, 11)) == ["files"]


def test_a_scheduled_events_status_moves_only_as_discord_allows():
    assert (
        limits.event_status(1, 2) == []
        and limits.event_status(1, 4) == []
        and limits.event_status(2, 3) == []
    )
    for old, new in ((2, 1), (2, 4), (3, 2), (4, 1), (1, 3)):
        assert where(limits.event_status(old, new)) == ["status"], (old, new)


def test_command_counts_per_scope():
    users = [{"type": 2, "name": f"User {n}"} for n in range(5)]
    assert limits.check(*COMMANDS, [command(), *users], 0) == []
    refused = limits.check(*COMMANDS, [command(), *users, {"type": 2, "name": "One more"}], 0)
    assert [p.code for p in refused] == ["APPLICATION_COMMANDS_TOO_MANY"]


# ------------------------------------------------------------ Discord's description


def described() -> spec.Spec:
    found = spec.load()  # raises where RUMMY_REQUIRE_DISCORD_OPENAPI asks for it
    if found is None:
        pytest.skip(spec.missing_reason())
    return found


def test_the_description_is_discords_file_at_the_pinned_commit():
    described()
    path = spec.spec_file()
    assert path is not None
    assert hashlib.sha256(path.read_bytes()).hexdigest() == spec.SPEC_SHA256


def test_the_description_matches_routes_by_template_literals_first():
    found = described()
    assert found.check("GET", "/users/@me", {}, None).template == "/users/@me"
    assert found.check("GET", "/users/42", {}, None).template == "/users/{user_id}"
    edit = found.check("PATCH", "/webhooks/1/tok/messages/@original", {}, {"content": "hi"})
    assert (edit.template, edit.problems) == ("/webhooks/{webhook_id}/{webhook_token}/messages/@original", [])
    assert found.check("POST", "/nope/1", {}, {}).status == 404
    assert found.check("PUT", "/users/@me", {}, {}).status == 405


def test_the_description_checks_bodies_and_queries_where_the_limits_do_not():
    found = described()
    ok = {
        "content": "hi",
        "components": [row(button())],
        "attachments": [{"id": 0}],
        "allowed_mentions": {"users": [1]},
    }
    assert found.check("POST", "/channels/1/messages", {}, ok).problems == []
    wrong = {"content": 5, "components": [row(button(style=9))], "tts": "yes"}
    problems = found.check("POST", "/channels/1/messages", {}, wrong).problems
    assert set(where(problems)) == {"content", "components.0.components.0.style", "tts"}
    assert [p.code for p in problems if p.at[-1] == "style"] == ["BASE_TYPE_CHOICES"]
    history = found.check("GET", "/channels/1/messages", {"limit": "101", "page": "2"}, None)
    assert set(where(history.problems)) == {"limit", "page"}
    assert found.check("GET", "/channels/1/messages", {"limit": "100", "before": "7"}, None).problems == []
    callback = found.check("POST", "/interactions/1/tok/callback", {"with_response": "1"}, {"type": 5})
    assert callback.problems == []
    # a snowflake may be a JSON number (discord.py sends them); anything else is refused
    assert found.check("POST", "/users/@me/channels", {}, {"recipient_id": 42}).problems == []
    assert where(found.check("POST", "/users/@me/channels", {}, {"recipient_id": "x42"}).problems) == [
        "recipient_id"
    ]


# ------------------------------------------------------------------- end to end


async def test_a_route_or_method_discord_lacks_is_refused_as_discord_does(discord_double: DiscordDouble):
    described()
    with discord_double.expect_violations("no route /not/served"):
        assert await post(discord_double, "/not/served", {"x": 1}) == (
            404,
            {"message": "404: Not Found", "code": 0},
        )
    with discord_double.expect_violations("no PUT on /users/@me"):
        assert (await post(discord_double, "/users/@me", {}, method="PUT"))[0] == 405


async def post(double: DiscordDouble, path: str, body: Any, *, method: str = "POST") -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, double.api_base + path, json=body) as resp,
    ):
        return resp.status, await resp.json()


REFUSED = [
    (
        "a component without custom_id",
        "/channels/{channel}/messages",
        {"components": [row(without(button(), "custom_id"))]},
        "components.0.components.0.custom_id",
    ),
    ("26 autocomplete choices", "/interactions/1/token/callback", autocomplete(choices(26)), "data.choices"),
    (
        "an embed over its limits",
        "/channels/{channel}/messages",
        {"embeds": [embed(title="t" * 257)]},
        "embeds.0.title",
    ),
    ("a bad command name", "/applications/{app}/commands", [command(name="Rummy")], "0.name"),
    (
        "a bad localisation key",
        "/applications/{app}/commands",
        [command(name_localizations={"en": "rummy"})],
        "0.name_localizations.en",
    ),
    (
        "a 101-character event location",
        "/guilds/{guild}/scheduled-events",
        event(entity_metadata={"location": "#" + "c" * 100}),
        "entity_metadata.location",
    ),
    ("a 101-character thread name", "/channels/{channel}/threads", {"name": "t" * 101, "type": 11}, "name"),
]


@pytest.mark.parametrize(("path", "body", "at"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
async def test_the_double_refuses_as_discord_does_and_records_it(
    discord_double: DiscordDouble, path, body, at
):
    double = discord_double
    method = "PUT" if path.endswith("/commands") else "POST"
    url = path.format(channel=double.channel_id, app=double.application_id, guild=double.guild_id)
    with double.expect_violations() as seen:
        status, answer = await post(double, url, body, method=method)
    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    node = answer["errors"]
    for part in at.split("."):
        node = node[part]
    assert node["_errors"][0]["code"] and node["_errors"][0]["message"]
    (violation,) = seen
    assert at in where(violation.problems) and violation.path == url and double.violations == []


async def test_a_multipart_body_is_checked_by_its_payload_json(discord_double: DiscordDouble):
    double = discord_double
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "x" * 2001}), content_type="application/json")
    for n in range(11):
        form.add_field(f"files[{n}]", b"png", filename=f"card{n}.png", content_type="image/png")
    with double.expect_violations() as seen:
        async with aiohttp.ClientSession() as session:
            url = f"{double.api_base}/channels/{double.channel_id}/messages"
            async with session.post(url, data=form) as resp:
                assert resp.status == 400
    assert set(where(seen[0].problems)) == {"content", "files"}
    assert double.messages_to(double.channel_id) == []  # refused: nothing was posted


async def test_discord_py_raises_discords_error_and_the_violation_is_kept(
    discord_double: DiscordDouble, bot_runner
):
    bot = await bot_runner.start(
        discord.Client(intents=discord.Intents(guilds=True), chunk_guilds_at_startup=False)
    )
    channel = bot.get_channel(discord_double.channel_id)
    with (
        discord_double.expect_violations(r"content: Must be 2000 or fewer") as seen,
        pytest.raises(discord.HTTPException) as raised,
    ):
        await channel.send("x" * 2001)
    assert raised.value.code == 50035 and "In content: Must be 2000 or fewer in length." in str(raised.value)
    assert len(seen) == 1 and seen[0].method == "POST"
    await channel.send("x" * 2000)


async def test_an_unexpected_violation_fails_the_test_at_teardown_even_if_the_bot_took_the_400():
    double = DiscordDouble()
    with pytest.raises(
        AssertionError, match=re.escape("1 request(s) Discord refuses") + r"[\s\S]*name: Must be 100"
    ):
        async with double:
            status, _ = await post(double, f"/channels/{double.channel_id}/threads", {"name": "t" * 101})
            assert status == 400  # a bot that swallows this still fails the test
    with pytest.raises(ZeroDivisionError):  # a test failing anyway shows its own error, not this one
        async with DiscordDouble() as failing:
            await post(failing, f"/channels/{failing.channel_id}/threads", {"name": "t" * 101})
            raise ZeroDivisionError


async def test_expecting_violations_fails_when_there_are_none_or_others(discord_double: DiscordDouble):
    double = discord_double
    with pytest.raises(AssertionError, match="it sent none"), double.expect_violations():
        await post(double, f"/channels/{double.channel_id}/threads", {"name": "fine"})
    with pytest.raises(AssertionError, match="not matching 'location'"), double.expect_violations("location"):
        await post(double, f"/channels/{double.channel_id}/threads", {"name": "t" * 101})
    assert double.violations == []
