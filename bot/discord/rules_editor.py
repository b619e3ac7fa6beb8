"""The lobby's Rules editor: the host changes the table's main options before the start.

The lobby's Rules button answers the host privately with two menus: which option, then its value.
Each menu is a `DynamicItem` whose custom id carries the table (and the option), so the editor
works after a restart. A value goes through the service, which refuses anyone but the host and
any change after the start, and saves the rules before the lobby shows them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import ui

from bot.discord import limits
from bot.engine.errors import RummyError
from bot.engine.rules import Rules
from bot.i18n import EN, N_, Words
from bot.present.rules_options import BY_KEY, Option, options_for, rules_line
from bot.service.views import TableView
from bot.store import TableStatus

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

Interaction = discord.Interaction[Any]
NOT_HOST = N_("Only the host can change this table's rules.")
STARTED = N_("The match has started: its rules no longer change.")


def _bot(interaction: Interaction) -> RummyBot:
    return cast("RummyBot", interaction.client)


def _values(interaction: Interaction) -> list[str]:
    """What the person chose in a select menu."""
    data: Any = interaction.data or {}  # a TypedDict union in discord.py; a select's carries "values"
    values = data.get("values", [])
    return [str(value) for value in values] if isinstance(values, list) else []


class OptionSelect(ui.DynamicItem[ui.Select[Any]], template=r"rummy:rules:(?P<table>\d+)"):
    """Which option to change."""

    def __init__(
        self, table_id: int, options: tuple[Option, ...] = (), chosen: str | None = None, _: Words = EN
    ) -> None:
        entries = [
            discord.SelectOption(
                label=limits.option_label(_(option.label)), value=option.key, default=option.key == chosen
            )
            for option in options
        ] or [discord.SelectOption(label="-", value="-")]
        select: ui.Select[Any] = ui.Select(
            custom_id=f"rummy:rules:{table_id}",
            placeholder=limits.placeholder(_("Change an option…")),
            options=entries,
        )
        super().__init__(select)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str]
    ) -> OptionSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: Interaction) -> None:
        chosen = (_values(interaction) or ["-"])[0]
        await show_editor(interaction, self.table_id, chosen, edit=True)


class ValueSelect(ui.DynamicItem[ui.Select[Any]], template=r"rummy:ruleval:(?P<table>\d+):(?P<option>\w+)"):
    """The chosen option's value."""

    def __init__(self, table_id: int, key: str, rules: Rules | None = None, _: Words = EN) -> None:
        option = BY_KEY.get(key)
        entries = [discord.SelectOption(label="-", value="-")]
        if option is not None and rules is not None:
            current = option.current(rules)
            entries = [
                discord.SelectOption(
                    label=limits.option_label(choice.label),
                    value=choice.value,
                    default=choice.changes[option.field] == current,
                )
                for choice in option.choices(rules, _)
            ]
        select: ui.Select[Any] = ui.Select(
            custom_id=f"rummy:ruleval:{table_id}:{key}",
            placeholder=limits.placeholder(_(option.label)) if option else "-",
            options=entries,
        )
        super().__init__(select)
        self.table_id, self.key = table_id, key

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: ui.Item[Any], match: re.Match[str]
    ) -> ValueSelect:
        return cls(int(match["table"]), match["option"])

    async def callback(self, interaction: Interaction) -> None:
        value = (_values(interaction) or ["-"])[0]
        await change(interaction, self.table_id, self.key, value)


RULES_EDITOR_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (OptionSelect, ValueSelect)


def lobby_table(interaction: Interaction, table_id: int, *, on_lobby: bool) -> TableView:
    """The lobby the editor is for, pressed where it belongs (`Presses`: its Rules button on the
    lobby, `on_lobby`, else the editor's private menus), refused to anyone but its host and once
    it has started."""
    presses = _bot(interaction).presses
    if on_lobby:
        table = presses.on_table_message(interaction, table_id)
    else:
        table = presses.in_private(interaction, table_id, seated=False)
    if table.status is not TableStatus.OPEN:
        raise RummyError(STARTED)
    if interaction.user.id != table.host_id:
        raise RummyError(NOT_HOST)
    return table


def editor(table: TableView, chosen: str | None, _: Words = EN) -> tuple[str, ui.View]:
    """The editor's words and menus (in the host's language): the rules as they are, and the
    chosen option's values."""
    spec, rules = table.spec, table.rules
    options = options_for(spec)
    view = ui.View(timeout=None)
    view.add_item(OptionSelect(table.id, options, chosen, _))
    words = [_("**Rules**: {rules}", rules=rules_line(spec, rules, _))]
    option = BY_KEY.get(chosen or "")
    if option is not None and option in options:
        view.add_item(ValueSelect(table.id, option.key, rules, _))
        value = option.words(option.current(rules), _)
        words.append(_("**{option}** is {value}: choose another below.", option=_(option.label), value=value))
    else:
        words.append(_("Choose an option to change; everyone sees the change in the lobby."))
    return "\n".join(words), view


async def show_editor(interaction: Interaction, table_id: int, chosen: str | None, *, edit: bool) -> None:
    """The editor, privately: a new message for the Rules button, the same one edited after."""

    async def work() -> None:
        table = lobby_table(interaction, table_id, on_lobby=not edit)
        content, view = editor(table, chosen, await _bot(interaction).readers.asker(interaction))
        if edit:
            await interaction.response.edit_message(content=content, view=view)
        else:
            await interaction.response.send_message(content, view=view, ephemeral=True)

    await _bot(interaction).actions.guarded(interaction, table_id, work)


async def change(interaction: Interaction, table_id: int, key: str, value: str) -> None:
    async def work() -> None:
        bot = _bot(interaction)
        table = lobby_table(interaction, table_id, on_lobby=False)
        option = BY_KEY.get(key)
        if option is None:
            raise RummyError("That option is not in the editor any more: press Rules again.")
        if option not in options_for(table.spec):  # only a crafted menu sends it
            raise RummyError(
                "{option} is not offered at this table: its format decides it.", option=option.label
            )
        choice = option.choice(table.rules, value)
        await interaction.response.defer()
        events = await bot.service.change_rules(table.channel_id, interaction.user.id, choice.changes)
        await bot.presenter.publish(events)
        changed = bot.service.view(table_id) or table  # the lobby with the rules just saved
        content, view = editor(changed, key, await bot.readers.asker(interaction))
        await interaction.edit_original_response(content=content, view=view)

    await _bot(interaction).actions.guarded(interaction, table_id, work)
