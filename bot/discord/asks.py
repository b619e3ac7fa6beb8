"""The questions asked before a move that costs points (issue 26): a drop, and a show that may be
wrong. Asked privately, whether from the hand's buttons or a slash command; the answer is a
button, checked like every press (`Presses.in_private`: the presser's own private message, their
seat, the turn it was asked for), so a question from an earlier turn or deal does nothing.
"Keep playing", the first choice under a wrong show, answers and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.discord import limits
from bot.discord.components import declare_view, drop_view, shown_id
from bot.engine import judge_groups
from bot.engine.cards import pretty_cards
from bot.engine.commands import Declare, Drop
from bot.engine.declaration import best_declaration
from bot.engine.errors import RummyError
from bot.engine.events import Declared, WrongShow
from bot.engine.melds import GroupKind
from bot.i18n import N_
from bot.present.show_check import wrong_show_lines
from bot.present.show_reasons import reason_words
from bot.service.views import HandView, TableView

if TYPE_CHECKING:
    from bot.discord.actions import Actions

Interaction = discord.Interaction[Any]
# How the declaration's check names what it found.
GROUP_NAMES = {
    GroupKind.PURE_SEQUENCE: N_("pure sequence"),
    GroupKind.IMPURE_SEQUENCE: N_("impure sequence"),
    GroupKind.SET: N_("set"),
    GroupKind.SPARE_JOKERS: N_("spare jokers"),
    GroupKind.INVALID: N_("not a group"),
}
# What "Keep playing" answers, by the question it was under.
NOT_DONE = {"declare": N_("Not declared."), "drop": N_("Not dropped.")}


class Asks:
    def __init__(self, actions: Actions) -> None:
        self.actions = actions

    async def ask_drop(self, interaction: Interaction, table: TableView, turn: str | None) -> None:
        """Says what the drop costs and asks again; the engine's refusal (not your turn, no drops in
        Deals) comes first, so nobody confirms a drop that cannot happen. `turn`: the turn the
        Drop button was made for (a slash command: the turn now)."""
        actions = self.actions
        actions.seat_of(table, interaction.user.id)
        # the engine's refusal, an IllegalActionError, is answered privately like every RummyError
        hand = await actions.service.hand_to_drop(table.id, interaction.user.id)
        cost = hand.legal.drop_cost
        _ = await actions.reader(interaction, table.id)
        if not hand.seen.has_picked[hand.seat]:
            question = _(
                "Drop out of this deal? It costs **{points} points** (a first drop, before your first pick).",
                points=cost,
            )
        else:
            question = _(
                "Drop out of this deal? It costs **{points} points** (a middle drop, after a pick).",
                points=cost,
            )
        view = drop_view(table.id, turn or hand.turn_token, _)
        await interaction.response.send_message(question, view=view, ephemeral=True)

    async def confirm_drop(self, interaction: Interaction, table_id: int, turn: str) -> None:
        actions = self.actions

        async def work() -> None:
            table = actions.bot.presses.in_private(interaction, table_id, turn)
            await interaction.response.defer(ephemeral=True, thinking=True)
            events = await actions.play(interaction, table, Drop, turn)
            await actions.presenter.publish(events)  # asked in a private reply: the DM shows the drop
            _ = await actions.reader(interaction, table.id)
            await interaction.followup.send(_("You dropped out of this deal."), ephemeral=True)

        await actions.guarded(interaction, table_id, work)

    async def ask_declare(self, interaction: Interaction, table: TableView, turn: str | None) -> None:
        """Shows the grouping that would be declared and asks first. A valid one is summed up; a
        wrong one is said to be wrong, with why, the cards in no valid group and its cost, and
        "Keep playing" comes first. The engine's refusal (not your turn, pick first) comes before
        any question, so nobody is asked about a show that cannot happen."""
        self.actions.seat_of(table, interaction.user.id)
        # an IllegalActionError, answered privately like every RummyError
        await self.actions.service.hand_to_declare(table.id, interaction.user.id)
        declaration, hand = await self.declaration(table, interaction.user.id)
        judged = judge_groups(declaration.groups, hand.seen.wild_rank, hand.seen.rules)
        _ = await self.actions.reader(interaction, table.id)
        shown = [
            f"• {_(GROUP_NAMES[kind])}: {pretty_cards(group)}"
            for group, kind in zip(declaration.groups, judged.kinds, strict=True)
        ]
        finish = declaration.finish
        if finish is not None:
            question = _("Declare with **{card}** as the finish card?", card=finish.pretty)
        else:
            question = _("Show your 13 cards now, before picking?")
            if hand.seen.rules.early_show_multipliers:
                question += " " + _("A show before any pick makes everyone pay double.")
        cost = None if judged.valid else hand.legal.wrong_show_cost
        if cost is None:
            verdict = [_("It is a valid show.")]
        else:
            verdict = [
                *wrong_show_lines(judged, declaration.groups, cost, _),
                _("Or regroup first: `/rummy group`."),
            ]
        await interaction.response.send_message(
            limits.message("\n".join([question, *shown, *verdict])),
            view=declare_view(table.id, turn or hand.turn_token, declaration, cost, _),
            ephemeral=True,
        )

    async def declaration(self, table: TableView, user_id: int) -> tuple[Declare, HandView]:
        """The engine's declaration of the player's own arrangement (its finish card chosen so
        that the arrangement is judged best), with the player's view of the deal it is for."""
        layout, hand = await self.actions.followed_layout(table, user_id)
        # The player's own groups; the suggested layout is the engine's to arrange, since it
        # knows which card may go to the finish slot (never the open card just taken).
        return best_declaration(hand.seen, layout.groups if layout.custom else None), hand

    async def confirm_declare(self, interaction: Interaction, table_id: int, turn: str, shown: str) -> None:
        actions = self.actions

        async def work() -> None:
            table = actions.bot.presses.in_private(interaction, table_id, turn)
            declaration = (await self.declaration(table, interaction.user.id))[0]
            if shown_id(declaration) != shown:
                raise RummyError("Your cards changed since you asked: press Declare again.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            events = await actions.play(interaction, table, lambda seat: declaration, turn)
            await actions.presenter.publish(events)
            shows = [e.event for e in events if isinstance(e.event, Declared | WrongShow)]
            _ = await actions.reader(interaction, table.id)
            verdict = reason_words(shows[0].reason or "", _) if shows else ""
            await interaction.followup.send(f"{_('Declared.')} {verdict}".strip(), ephemeral=True)

        await actions.guarded(interaction, table_id, work)

    async def keep_playing(self, interaction: Interaction, table_id: int, what: str) -> None:
        """Closes the question it was under, on that private message alone, and changes nothing."""
        actions = self.actions

        async def work() -> None:
            actions.bot.presses.in_private(interaction, table_id)
            _ = await actions.reader(interaction, table_id)
            await interaction.response.edit_message(
                content=_(NOT_DONE.get(what, NOT_DONE["declare"])), view=None
            )

        await actions.guarded(interaction, table_id, work)
