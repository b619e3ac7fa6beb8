"""The league's buttons: Join / Leave on a night's announcement, I'm here on a table's check-in.

Like the table's buttons they are `DynamicItem`s whose custom id carries what they act on (the
league and the night), so they keep working after a restart; a press on a night that is no longer
open gets the service's reason, privately.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import ui

from bot.discord import limits
from bot.i18n import EN, N_, Words

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

LEAGUE_ACTIONS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "here": (N_("I'm here"), discord.ButtonStyle.primary),
}


class LeagueButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"rummy:league:(?P<action>join|leave|here):(?P<league>\d+):(?P<night>\d+)",
):
    def __init__(self, action: str, league_id: int, night: int, _: Words = EN) -> None:
        label, style = LEAGUE_ACTIONS[action]
        custom_id = f"rummy:league:{action}:{league_id}:{night}"
        super().__init__(ui.Button(label=limits.button_label(_(label)), style=style, custom_id=custom_id))
        self.action, self.league_id, self.night = action, league_id, night

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> LeagueButton:
        return cls(match["action"], int(match["league"]), int(match["night"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast("RummyBot", interaction.client)
        await bot.league_cog.button(interaction, self.action, self.league_id, self.night)


def league_view(league_id: int, night: int, *actions: str, _: Words = EN) -> ui.View:
    view = ui.View(timeout=None)
    for action in actions:
        view.add_item(LeagueButton(action, league_id, night, _))
    return view
