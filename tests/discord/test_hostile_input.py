"""Whatever a hostile or careless caller sends the service, or forges into a button's custom_id,
the answer is a `RummyError` in words and nothing changes (generated inputs, 10,500 in all)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_helpers import GUILD, open_and_start, open_service, user

from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.league_components import LeagueButton
from bot.discord.rules_editor import RULES_EDITOR_ITEMS
from bot.engine.commands import COMMANDS, BadCommandError, parse_command
from bot.engine.errors import RummyError

CHANNEL = 31
# JSON-like values and the things no JSON has: huge and negative ints, floats, bytes, sets, objects.
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**63, 2**64 + 1, -1, -(2**63), 10**100])
    | st.floats(allow_nan=True)
    | st.text(max_size=30)
    | st.sampled_from(["closed", "open", "AS", "10H", "JK", "1Z", "", " ", "x" * 5000])
    | st.binary(max_size=8)
    | st.builds(object)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        | st.frozensets(st.integers(), max_size=3)
        | st.tuples(inner, inner)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(["command", "seat", "source", "card", "groups", "finish"])
COMMAND_DATA = st.dictionaries(FIELDS, VALUES, max_size=6) | st.builds(
    lambda name, rest: {**rest, "command": name},
    st.sampled_from(sorted(COMMANDS)),
    st.dictionaries(FIELDS, VALUES, max_size=5),
)
IDS = st.integers() | st.sampled_from([2**63, 2**63 - 1, CHANNEL]) | VALUES
HYPOTHESIS = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}


def parsed_or_refused_in_words(raw: Any) -> None:
    """Command data is a typed command, stored and read back as itself, or a short refusal."""
    try:
        command = parse_command(raw)
    except BadCommandError as error:
        assert str(error) and len(str(error)) < 200
        return
    assert parse_command(json.loads(json.dumps(command.to_json()))) == command


@pytest.fixture
def table_loop(tmp_path):
    """One event loop and a table mid-deal, shared by every generated example of a test."""
    loop = asyncio.new_event_loop()
    store, service = loop.run_until_complete(open_service(tmp_path / "rummy.db"))
    table = loop.run_until_complete(open_and_start(service, CHANNEL, players=3))
    yield loop, service, table
    loop.run_until_complete(store.close())
    loop.close()


def refused_without_change(loop, table, call) -> None:
    before = table.match.to_json(), list(table.record.seats)
    try:
        loop.run_until_complete(call)
    except RummyError as error:
        assert str(error)
        assert (table.match.to_json(), list(table.record.seats)) == before


def test_hostile_command_data_is_parsed_or_refused_and_the_service_refuses_it_in_words(table_loop):
    """Each generated input is checked both ways: as command data read on its own, and as sent to
    the service's door by a seated player (one generation of the inputs for both checks)."""
    loop, service, table = table_loop

    @settings(max_examples=3000, **HYPOTHESIS)
    @given(COMMAND_DATA | VALUES, st.sampled_from([0, 1, 2]), st.none() | VALUES, st.none() | VALUES)
    def play(raw, seat, turn, command_id):
        parsed_or_refused_in_words(raw)
        refused_without_change(
            loop, table, service.play(CHANNEL, user(CHANNEL, seat), raw, turn=turn, command_id=command_id)
        )

    play()


def test_hostile_ids_and_values_at_every_service_door_are_refused_in_words(table_loop):
    loop, service, table = table_loop
    doors = {
        "play": lambda c, u, v: service.play(c, u, {"command": "drop"}),
        "join": lambda c, u, v: service.join(c, u, v),
        "leave": lambda c, u, v: service.leave(c, u),
        "add_computer": lambda c, u, v: service.add_computer(c, u, v),
        "start": lambda c, u, v: service.start(c, u),
        "change_rules": lambda c, u, v: service.change_rules(c, u, v),
        "open_table": lambda c, u, v: service.open_table(GUILD, c, u, v, point_value=v),
        "open_table_format": lambda c, u, v: service.open_table(GUILD, c, u, "Name", format=v),
    }

    @settings(max_examples=3000, **HYPOTHESIS)
    @given(st.sampled_from(sorted(doors)), IDS, IDS, VALUES)
    def knock(door, channel, user_id, value):
        if door.startswith("open_table") and type(channel) is int and channel != CHANNEL:
            channel = CHANNEL  # a fresh channel would open a real table: this one is taken
        refused_without_change(loop, table, doors[door](channel, user_id, value))

    knock()


@settings(max_examples=1500, **HYPOTHESIS)
@given(
    st.sampled_from([*DYNAMIC_ITEMS, *RULES_EDITOR_ITEMS, LeagueButton]),
    st.lists(
        st.text(max_size=12) | st.integers().map(str) | st.sampled_from(["99999999999999999999999"]),
        max_size=5,
    ),
)
def test_forged_custom_ids_build_a_button_or_are_not_ours(item, parts) -> None:
    """A custom_id is anything a client sends: one that fits an item's pattern builds it (an
    unknown action is refused when pressed); the rest match no item."""
    custom_id = ":".join(["rummy", *parts])
    found = item.__discord_ui_compiled_template__.fullmatch(custom_id)
    if found is None:
        return
    built = asyncio.run(item.from_custom_id(None, None, found))  # type: ignore[arg-type]
    assert isinstance(built, item)
