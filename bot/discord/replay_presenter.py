"""`/rummy replay` and its buttons, `/rummy history`: the service's answers as private messages.

A frame is rendered on demand from the replayed deal (a press replays the deal again from its
record: nothing is kept per viewer). The animation of a whole deal costs a frame per move, so
one is made at a time and the last few are kept, a deal's replay never changing once it ended;
past a few waiting their turn, one more is declined with a word rather than queued for minutes.
Every answer is private, so in the asker's language (`readers.asker`), the pictures' words too.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
from collections import Counter, OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import limits
from bot.discord.components import channel_of
from bot.discord.replay_components import replay_view
from bot.discord.safe_text import escaped
from bot.engine.errors import RummyError
from bot.i18n import Words
from bot.present.replay_scene import replay_scene
from bot.present.replay_text import (
    ANIMATION_FILE,
    ANIMATION_NOTE,
    ANIMATION_TOO_LARGE,
    ANIMATIONS_BUSY,
    HISTORY_IN_SERVER,
    REPLAY_FILE,
    choice_name,
    history_text,
    refusal_text,
    replay_content,
)
from bot.service.refusals import ShuttingDownError
from bot.service.replay_views import DealRef, ReplayedDeal, ReplayRefused, Viewer
from render import replay_alt
from render.replay_frame import ANIMATION_FRAMES, render_replay, render_replay_animation

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot

ANIMATIONS_KEPT = 8
ANIMATIONS_WAITING = 4  # animations asked for and not yet begun, past which another is declined
AnimationKey = tuple[DealRef, bool, str]  # a deal, four colours or not, a language


def viewer_of(interaction: discord.Interaction[Any]) -> Viewer:
    return Viewer(interaction.user.id, interaction.guild_id, channel_of(interaction))


class ReplayPresenter:
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        self._animating = asyncio.Lock()
        # the animations asked for and not yet begun, each with how many ask for it
        self._waiting: Counter[AnimationKey] = Counter()
        self._animations: OrderedDict[AnimationKey, bytes | None] = OrderedDict()

    async def _open(
        self, interaction: discord.Interaction[Any], ref: DealRef | str | None, _: Words
    ) -> ReplayedDeal:
        """The deal named, or the refusal in the player's words (answered privately by `guarded`)."""
        try:
            return await self.bot.replays.open(
                viewer_of(interaction), DealRef.parse(ref) if isinstance(ref, str) else ref
            )
        except ReplayRefused as refused:
            raise RummyError(refusal_text(refused, _)) from None

    async def _frame(
        self, replayed: ReplayedDeal, step: int, four_colour: bool, _: Words
    ) -> tuple[str, discord.File, discord.ui.View]:
        shown = replayed.replay.step(step)
        scene = replay_scene(replayed, shown.index, four_colour, _)
        png = await asyncio.to_thread(render_replay, scene)
        last = len(replayed.replay.steps) - 1
        names = tuple(escaped(name) for name in replayed.names)  # the picture draws them as they are
        return (
            replay_content(dataclasses.replace(replayed, names=names), shown, _),
            discord.File(io.BytesIO(png), filename=REPLAY_FILE, description=replay_alt(scene)),
            replay_view(replayed.ref, shown.index, last),
        )

    async def _four_colour(self, interaction: discord.Interaction[Any]) -> bool:
        return (await self.bot.preferences.user(interaction.user.id)).four_colour

    async def open(self, interaction: discord.Interaction[Any], text: str | None) -> None:
        """`/rummy replay [deal]`: the deal's first frame with its buttons, then its animation."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        _ = await self.bot.readers.asker(interaction)
        replayed = await self._open(interaction, text or None, _)
        four_colour = await self._four_colour(interaction)
        content, file, view = await self._frame(replayed, 0, four_colour, _)
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
        animation = await self._animation(replayed, four_colour, _)
        if isinstance(animation, str):
            await interaction.followup.send(_(animation), ephemeral=True)
        else:
            file = discord.File(io.BytesIO(animation), filename=ANIMATION_FILE)
            await interaction.followup.send(_(ANIMATION_NOTE), file=file, ephemeral=True)

    async def step(self, interaction: discord.Interaction[Any], ref: DealRef, step: int) -> None:
        """A ◀ ▶ press: the frame of `step`, in place of the one pressed under. Who pressed is
        checked before anything is acknowledged, so a refusal is a private message of its own."""
        _ = await self.bot.readers.asker(interaction)
        replayed = await self._open(interaction, ref, _)
        await interaction.response.defer()
        content, file, view = await self._frame(replayed, step, await self._four_colour(interaction), _)
        await interaction.edit_original_response(content=content, attachments=[file], view=view)

    async def _animation(self, replayed: ReplayedDeal, four_colour: bool, _: Words) -> bytes | str:
        """The deal's animation, or the text to send instead (too long; too many waiting)."""
        key = (replayed.ref, four_colour, _.language)
        if key not in self._animations:
            if key not in self._waiting and len(self._waiting) >= ANIMATIONS_WAITING:
                return ANIMATIONS_BUSY  # a second ask for one that waits costs no more work
            await self._make_animation(key, replayed, four_colour, _)
        made = self._animations[key]
        return ANIMATION_TOO_LARGE if made is None else made

    async def _make_animation(
        self, key: AnimationKey, replayed: ReplayedDeal, four_colour: bool, _: Words
    ) -> None:
        self._waiting[key] += 1  # until its turn comes: the one being made waits no more
        try:
            await self._animating.acquire()
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:
                del self._waiting[key]
        try:
            if key in self._animations:  # made while this one waited
                return
            if self.bot.closing:  # the stop waits for this handler
                raise ShuttingDownError()
            self._animations[key] = await asyncio.to_thread(animation, replayed, four_colour, _)
            while len(self._animations) > ANIMATIONS_KEPT:
                self._animations.popitem(last=False)
        finally:
            self._animating.release()

    async def choices(self, interaction: discord.Interaction[Any], current: str) -> list[tuple[str, str]]:
        """The deals to offer as `deal:` is typed: (name, value) pairs."""
        _ = await self.bot.readers.asker(interaction)
        deals = await self.bot.replays.choices(viewer_of(interaction))
        named = [(choice_name(deal, _), f"{deal.table_id}-{deal.number}") for deal in deals]
        return [(name, value) for name, value in named if current.strip().lower() in name.lower()]

    async def history(self, interaction: discord.Interaction[Any], who: discord.abc.User) -> None:
        if interaction.guild_id is None:
            raise RummyError(HISTORY_IN_SERVER)
        _ = await self.bot.readers.asker(interaction)
        history = await self.bot.replays.history(interaction.guild_id, who.id)
        told = history_text(history, escaped(who.display_name), who.id, _, escaped)
        first, *more = limits.message_chunks(told.split("\n"))
        await interaction.response.send_message(first, ephemeral=True)
        for chunk in more:
            await interaction.followup.send(chunk, ephemeral=True)


def animation(replayed: ReplayedDeal, four_colour: bool, _: Words) -> bytes | None:
    """The whole deal animated, or None if too large: a frame per move, so made off the loop,
    and none at all for a deal of more steps than `ANIMATION_FRAMES` (its cost is bounded)."""
    steps = replayed.replay.steps
    if len(steps) > ANIMATION_FRAMES:
        return None
    return render_replay_animation([replay_scene(replayed, step.index, four_colour, _) for step in steps])
