"""Buttons and menus. Each is a `DynamicItem` whose custom_id carries the table and, for game
actions, the turn it was made for: buttons keep working after a restart (no view state lives
in memory). A press is checked before it acts or asks (`bot.discord.presses`: the server,
channel and message it belongs to, who pressed, the turn), so a button from an earlier turn or
pressed where it does not belong is refused privately.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import ui

from bot.discord import limits
from bot.engine.cards import Card
from bot.engine.commands import Declare
from bot.engine.errors import RummyError
from bot.i18n import EN, N_, Words

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

# Labels in English, drawn in the reader's language where a view is built (`_`); a button
# rebuilt from its custom_id to run its callback is never shown, so it keeps the English one.
LOBBY_ACTIONS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "easy": (N_("Add easy computer"), discord.ButtonStyle.secondary),
    "computer": (N_("Add strong computer"), discord.ButtonStyle.secondary),  # its id predates "easy"
    "rules": (N_("Rules"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
}
HAND_ACTIONS = {
    "closed": (N_("Pick closed"), discord.ButtonStyle.primary),
    "open": (N_("Pick open"), discord.ButtonStyle.primary),
    "drop": (N_("Drop"), discord.ButtonStyle.danger),
    "declare": (N_("Declare"), discord.ButtonStyle.success),
    "sort": (N_("Sort / group"), discord.ButtonStyle.secondary),
}
TABLE_ACTIONS = {
    "now": (N_("Show the table now"), discord.ButtonStyle.secondary),
    # where the bot serves the Activity: the table as a web page inside Discord (`bot.activity`)
    "open": (N_("Open the table"), discord.ButtonStyle.primary),
}


NO_LONGER_VALID = N_("That button is no longer valid: use the latest message (or `/rummy hand`).")
UNKNOWN = ("?", discord.ButtonStyle.secondary)  # how a button with an action we never made is rebuilt


def interaction_field(interaction: discord.Interaction[Any], key: str) -> object:
    """One field of the interaction's raw data (a component's custom_id, a menu's values): its
    type is a union of payloads, so it is read as what it is, an untrusted JSON object."""
    data: Mapping[str, object] = cast("Mapping[str, object]", interaction.data or {})
    return data.get(key)


def channel_of(interaction: discord.Interaction[Any]) -> int:
    """The channel a command was used in; Discord always sends it for slash commands, but its
    type allows none, and a command with no channel has no table to act on."""
    if interaction.channel_id is None:
        raise RummyError("Use this command in a server channel.")
    return interaction.channel_id


def _bot(interaction: discord.Interaction[Any]) -> RummyBot:
    return cast("RummyBot", interaction.client)


async def refuse_unknown(interaction: discord.Interaction[Any]) -> None:
    """A press whose custom_id names an action no button of ours has (forged, or from a version
    that had it): told privately, nothing done."""
    _ = await _bot(interaction).readers.asker(interaction)
    await interaction.response.send_message(_(NO_LONGER_VALID), ephemeral=True)


class LobbyButton(ui.DynamicItem[ui.Button[Any]], template=r"rummy:lobby:(?P<table>\d+):(?P<action>\w+)"):
    def __init__(self, table_id: int, action: str, _: Words = EN) -> None:
        label, style = LOBBY_ACTIONS.get(action, UNKNOWN)
        button: ui.Button[Any] = ui.Button(
            label=limits.button_label(_(label)), style=style, custom_id=f"rummy:lobby:{table_id}:{action}"
        )
        super().__init__(button)
        self.table_id, self.action = table_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.action not in LOBBY_ACTIONS:
            await refuse_unknown(interaction)
            return
        await _bot(interaction).actions.lobby(interaction, self.table_id, self.action, pressed=True)


class TableButton(ui.DynamicItem[ui.Button[Any]], template=r"rummy:table:(?P<table>\d+):(?P<action>\w+)"):
    """On the table message while table messages run behind: a press brings it up to date at
    once, answered through the press itself, which Discord's global request limit leaves out."""

    def __init__(self, table_id: int, action: str, _: Words = EN) -> None:
        label, style = TABLE_ACTIONS.get(action, UNKNOWN)
        button: ui.Button[Any] = ui.Button(
            label=limits.button_label(_(label)), style=style, custom_id=f"rummy:table:{table_id}:{action}"
        )
        super().__init__(button)
        self.table_id, self.action = table_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.action not in TABLE_ACTIONS:
            await refuse_unknown(interaction)
            return
        if self.action == "open":  # Discord opens the Activity on this channel, whose table it shows
            await interaction.response.launch_activity()
            return
        await _bot(interaction).actions.table_now(interaction, self.table_id)


class HandButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"rummy:hand:(?P<table>\d+):(?P<turn>[\w.]+):(?P<action>\w+)",
):
    def __init__(self, table_id: int, turn: str, action: str, disabled: bool = False, _: Words = EN) -> None:
        label, style = HAND_ACTIONS.get(action, UNKNOWN)
        custom_id = f"rummy:hand:{table_id}:{turn}:{action}"
        label = limits.button_label(_(label))
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled))
        self.table_id, self.turn, self.action = table_id, turn, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["table"]), match["turn"], match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.action not in HAND_ACTIONS:
            await refuse_unknown(interaction)
            return
        await _bot(interaction).actions.hand_button(interaction, self.table_id, self.turn, self.action)


class DiscardSelect(
    ui.DynamicItem[ui.Select[Any]], template=r"rummy:discard:(?P<table>\d+):(?P<turn>[\w.]+)"
):
    def __init__(
        self, table_id: int, turn: str, cards: list[tuple[int, Card]] | None = None, _: Words = EN
    ) -> None:
        options = [
            discord.SelectOption(
                label=limits.option_label(f"{position}: {card.pretty}"), value=f"{position}:{card.code}"
            )
            for position, card in cards or []
        ] or [discord.SelectOption(label="-", value="-")]
        select: ui.Select[Any] = ui.Select(
            custom_id=f"rummy:discard:{table_id}:{turn}",
            placeholder=limits.placeholder(_("Discard a card…")),
            options=options,
            disabled=not cards,
        )
        super().__init__(select)
        self.table_id, self.turn = table_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> DiscardSelect:
        return cls(int(match["table"]), match["turn"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = interaction_field(interaction, "values")
        value = str(values[0]) if isinstance(values, list) and values else "-"
        card = value.split(":", 1)[1] if ":" in value else ""
        await _bot(interaction).actions.discard(interaction, self.table_id, self.turn, card)


class ConfirmDeclare(
    ui.DynamicItem[ui.Button[Any]],
    template=r"rummy:declare:(?P<table>\d+):(?P<turn>[\w.]+):(?P<shown>\w+)",
):
    """Carries what it was shown with (`shown_id`: the groups and the finish card), so a
    confirmation declares exactly what the player saw judged, never a grouping changed since."""

    def __init__(
        self,
        table_id: int,
        turn: str,
        shown: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.success,
    ) -> None:
        custom_id = f"rummy:declare:{table_id}:{turn}:{shown}"
        button: ui.Button[Any] = ui.Button(
            label=limits.button_label(label or "?"), style=style, custom_id=custom_id
        )
        super().__init__(button)
        self.table_id, self.turn, self.shown = table_id, turn, shown

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ConfirmDeclare:
        return cls(int(match["table"]), match["turn"], match["shown"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).actions.asks.confirm_declare(
            interaction, self.table_id, self.turn, self.shown
        )


class ConfirmDrop(ui.DynamicItem[ui.Button[Any]], template=r"rummy:dropok:(?P<table>\d+):(?P<turn>[\w.]+)"):
    """The second press a drop needs: one misplaced tap on a phone must not cost a drop's points."""

    def __init__(self, table_id: int, turn: str, _: Words = EN) -> None:
        custom_id = f"rummy:dropok:{table_id}:{turn}"
        button: ui.Button[Any] = ui.Button(
            label=limits.button_label(_("Yes, drop")), style=discord.ButtonStyle.danger, custom_id=custom_id
        )
        super().__init__(button)
        self.table_id, self.turn = table_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ConfirmDrop:
        return cls(int(match["table"]), match["turn"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).actions.asks.confirm_drop(interaction, self.table_id, self.turn)


class KeepPlaying(ui.DynamicItem[ui.Button[Any]], template=r"rummy:keep:(?P<table>\d+):(?P<what>\w+)"):
    """The first choice under a question that costs points: it answers and changes nothing."""

    def __init__(self, table_id: int, what: str, _: Words = EN) -> None:
        button: ui.Button[Any] = ui.Button(
            label=limits.button_label(_("Keep playing")),
            style=discord.ButtonStyle.primary,
            custom_id=f"rummy:keep:{table_id}:{what}",
        )
        super().__init__(button)
        self.table_id, self.what = table_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> KeepPlaying:
        return cls(int(match["table"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).actions.asks.keep_playing(interaction, self.table_id, self.what)


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    TableButton,
    HandButton,
    DiscardSelect,
    ConfirmDeclare,
    ConfirmDrop,
    KeepPlaying,
)


def lobby_view(table_id: int, _: Words = EN) -> ui.View:
    view = ui.View(timeout=None)
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(table_id, action, _))
    return view


def behind_view(table_id: int, _: Words = EN) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(TableButton(table_id, "now", _))
    return view


def with_open_button(view: ui.View | None, table_id: int, _: Words = EN) -> ui.View:
    """The table message's buttons and "Open the table", which launches the Activity."""
    view = view or ui.View(timeout=None)
    view.add_item(TableButton(table_id, "open", _))
    return view


def hand_view(
    table_id: int,
    turn: str,
    *,
    can_pick_closed: bool,
    can_pick_open: bool,
    can_drop: bool,
    can_declare: bool,
    discardable: list[tuple[int, Card]],
    _: Words = EN,
) -> ui.View:
    """The controls under a hand: only what is legal right now is enabled."""
    view = ui.View(timeout=None)
    enabled = {
        "closed": can_pick_closed,
        "open": can_pick_open,
        "drop": can_drop,
        "declare": can_declare,
        "sort": True,
    }
    for action, on in enabled.items():
        view.add_item(HandButton(table_id, turn, action, disabled=not on, _=_))
    view.add_item(DiscardSelect(table_id, turn, discardable, _))
    return view


def shown_id(declaration: Declare) -> str:
    """What a Declare question showed (its groups in order, its finish card), as the confirmation
    button carries it: short, and changed by any change to either."""
    finish = declaration.finish.code if declaration.finish is not None else "-"
    shown = "/".join(" ".join(card.code for card in group) for group in declaration.groups)
    return hashlib.sha256(f"{finish}|{shown}".encode()).hexdigest()[:16]


def declare_view(
    table_id: int, turn: str, declaration: Declare, wrong_show_cost: int | None, _: Words
) -> ui.View:
    """A valid show: "Yes, declare" first. A wrong show (`wrong_show_cost`): "Keep playing" first,
    then the costly choice, in red and with its price."""
    view = ui.View(timeout=None)
    shown = shown_id(declaration)
    if wrong_show_cost is None:
        view.add_item(ConfirmDeclare(table_id, turn, shown, _("Yes, declare")))
        view.add_item(KeepPlaying(table_id, "declare", _))
        return view
    view.add_item(KeepPlaying(table_id, "declare", _))
    anyway = _("Declare anyway (−{points})", points=wrong_show_cost)
    view.add_item(ConfirmDeclare(table_id, turn, shown, anyway, discord.ButtonStyle.danger))
    return view


def drop_view(table_id: int, turn: str, _: Words = EN) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(KeepPlaying(table_id, "drop", _))
    view.add_item(ConfirmDrop(table_id, turn, _))
    return view
