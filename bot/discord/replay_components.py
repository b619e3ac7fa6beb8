"""The ◀ ▶ buttons under a replay's frame. Each carries the deal and the step it shows next, so
a press needs nothing kept in memory (it works after a restart, and on an old frame too), and
the press itself is checked like the command: only someone allowed to see that deal, from this
server, is shown it (a forged id is refused privately, see `Replays.open`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import ui

from bot.discord.components import refuse_unknown
from bot.present.replay_text import FIRST, LAST, NEXT, PREVIOUS
from bot.service.replay_views import DealRef

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

# Each button's label, and where it goes from a step of a deal with `last` steps after the first.
MOVES = {
    "first": (FIRST, lambda step, last: 0),
    "prev": (PREVIOUS, lambda step, last: step - 1),
    "next": (NEXT, lambda step, last: step + 1),
    "last": (LAST, lambda step, last: last),
}


class ReplayButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"rummy:replay:(?P<table>\d{1,18}):(?P<deal>\d{1,4}):(?P<step>\d{1,5}):(?P<move>\w+)",
):
    def __init__(self, ref: DealRef, step: int, move: str, disabled: bool = False) -> None:
        label = MOVES[move][0] if move in MOVES else "?"
        custom_id = f"rummy:replay:{ref.table_id}:{ref.number}:{step}:{move}"
        button: ui.Button[Any] = ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id, disabled=disabled
        )
        super().__init__(button)
        self.ref, self.step, self.move = ref, step, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(DealRef(int(match["table"]), int(match["deal"])), int(match["step"]), match["move"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.move not in MOVES:
            await refuse_unknown(interaction)
            return
        bot = cast("RummyBot", interaction.client)

        async def work() -> None:
            bot.presses.on_replay(interaction)
            await bot.replay_presenter.step(interaction, self.ref, self.step)

        await bot.actions.guarded(interaction, None, work)


def replay_view(ref: DealRef, step: int, last: int) -> ui.View:
    """The buttons from step `step` of `last`: those going nowhere are greyed out."""
    view = ui.View(timeout=None)
    for move, (_, target) in MOVES.items():
        going = max(0, min(last, target(step, last)))
        view.add_item(ReplayButton(ref, going, move, disabled=going == step))
    return view
