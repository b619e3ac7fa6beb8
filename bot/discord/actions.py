"""What happens when someone presses a button, picks from a menu or runs a game command.

Every handler acknowledges the interaction before any slow work (Discord allows 3 seconds),
calls the table service, answers the person privately, and hands the service's events to the
presenter. Player mistakes get their specific reason in private; anything unexpected is logged
with the table id and the person gets a short apology.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import limits
from bot.discord.asks import Asks
from bot.discord.components import NO_LONGER_VALID, channel_of
from bot.discord.hands import HandMessage
from bot.discord.rules_editor import show_editor
from bot.discord.safe_text import escaped, seat_names
from bot.engine.commands import Command, Discard, Pick, Source, read_card
from bot.engine.errors import RummyError
from bot.i18n import N_, Words
from bot.present.hand_layout import HandLayout
from bot.service import TableEvent
from bot.service.refusals import ShuttingDownError
from bot.service.views import HandView, TableView

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot
    from bot.discord.presenter import Presenter
    from bot.service import TableService

log = logging.getLogger(__name__)
# The lobby's computer-player buttons and the level each seats.
COMPUTER_BUTTONS = {"easy": "easy", "computer": "strong"}
APOLOGY = N_("Sorry, something went wrong on my side. The table is safe; please try again.")


class Actions:
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot
        self.asks = Asks(self)  # the questions before a costly move
        self.in_flight = 0  # handlers still working after their first answer
        self._idle = asyncio.Event()
        self._idle.set()

    async def idle(self) -> None:
        """Returns once no handler is working (clean shutdowns, and tests)."""
        await self._idle.wait()

    @property
    def service(self) -> TableService:
        return self.bot.service

    @property
    def presenter(self) -> Presenter:
        return self.bot.presenter

    # ----------------------------------------------------------------- plumbing

    async def guarded(
        self, interaction: discord.Interaction[Any], table_id: int | None, work: Callable[[], Awaitable[None]]
    ) -> None:
        if self.bot.closing:  # a shutdown waits for the handlers at work, so it takes no new ones
            await self.tell(interaction, str(ShuttingDownError()))
            return
        self.in_flight += 1
        self._idle.clear()
        try:
            await work()
        except RummyError as error:
            _ = await self.reader(interaction, table_id)
            await self.tell(interaction, self.in_words(error, table_id, interaction, _))
        except Exception:
            log.exception("table %s: interaction %s failed", table_id, interaction.id)
            await self.tell(interaction, (await self.reader(interaction, table_id))(APOLOGY))
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()

    async def reader(self, interaction: discord.Interaction[Any], table_id: int | None) -> Words:
        """The asker's words: a press in their hand DM is answered as the DM speaks (a DM has no
        server of its own: the table's is the one `Readers.user` falls back on)."""
        table = self.presenter.table(table_id) if table_id is not None else None
        return await self.bot.readers.asker(interaction, table.guild_id if table is not None else None)

    def in_words(
        self, error: RummyError, table_id: int | None, interaction: discord.Interaction[Any], _: Words
    ) -> str:
        """A refusal as players read it: in their language, seats named as the table shows them."""
        table = None
        if error.seats:
            table = (
                self.service.view_in(channel_of(interaction))
                if table_id is None
                else self.presenter.table(table_id)
            )
        names = seat_names(table.seats) if table is not None else []
        return error.render(
            lambda seat: names[seat] if seat < len(names) else _("seat {number}", number=seat + 1), _, escaped
        )

    async def tell(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A private answer, whether or not the interaction was already acknowledged."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(limits.message(text), ephemeral=True)
            else:
                await interaction.response.send_message(limits.message(text), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    def table_by_id(self, table_id: int) -> TableView:
        table = self.presenter.table(table_id)
        if table is None or not table.status.active:
            raise RummyError("This table has closed.")
        return table

    def seat_of(self, table: TableView, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise RummyError("You are not seated at this table.")
        return seat

    async def followed_layout(self, table: TableView, user_id: int) -> tuple[HandLayout, HandView]:
        """The player's card layout brought up to date with their hand, with their view of it."""
        self.seat_of(table, user_id)
        hand = await self.service.hand(table.id, user_id)
        if hand is None:
            raise RummyError("There is no deal in progress.")
        layout = self.presenter.layout(table.id, user_id)
        layout.follow(hand.seen.hand, hand.seen.wild_rank, hand.seen.rules)
        return layout, hand

    async def play(
        self,
        interaction: discord.Interaction[Any],
        table: TableView,
        make: Callable[[int], Command],
        turn: str | None,
    ) -> list[TableEvent]:
        """Plays the command `make` builds for the player's seat; the service checks it is theirs."""
        command = make(self.seat_of(table, interaction.user.id))
        events: list[TableEvent] = await self.service.play(
            table.channel_id,
            interaction.user.id,
            command,
            turn=turn,
            command_id=str(interaction.id),
        )
        return events

    def in_own_dm(self, interaction: discord.Interaction[Any], table: TableView) -> int | None:
        """The person, if they acted on their own hand DM, which the interaction then shows them
        (so `publish` need not edit it too); None when they acted elsewhere (a private reply, a
        slash command), so that their DM is brought up to date by `publish`."""
        message = interaction.message
        if message is None or self.presenter.hand_message_id(table.id, interaction.user.id) != message.id:
            return None
        return interaction.user.id

    async def own_hand(self, interaction: discord.Interaction[Any], table: TableView) -> HandMessage | None:
        """The person's hand as their DM shows it, whichever path edits that DM."""
        await self.bot.readers.seen(interaction)
        return await self.presenter.hand_message(table.id, interaction.user.id)

    async def send_private_hand(
        self, interaction: discord.Interaction[Any], table: TableView, when_none: str
    ) -> None:
        """The person's hand as a private reply (the way to play when DMs are closed)."""
        message = await self.own_hand(interaction, table)
        if message is None:
            await interaction.followup.send(when_none, ephemeral=True)
            return
        view = message.view or discord.utils.MISSING
        file = await message.file(self.bot.pictures)
        sent = await interaction.followup.send(
            message.content, file=file, view=view, ephemeral=True, wait=True
        )
        self.presenter.keep_hand_reply(table.id, interaction.user.id, sent.edit)

    async def show_own_hand(self, interaction: discord.Interaction[Any], table: TableView) -> None:
        """Updates the message the person acted on (their DM, or their private reply). Under the
        table's `showing` lock, as the presenter's edits of the DM are: the two never overtake
        each other, and the presenter knows what the DM shows (so it does not send the picture
        again when only the words change)."""
        in_dm = self.in_own_dm(interaction, table) is not None
        async with self.presenter.shown(table.id).showing:
            self.seat_of(table, interaction.user.id)
            message = await self.own_hand(interaction, table)
            if in_dm:
                self.presenter.hand_shown_by_press(table.id, interaction.user.id, None)
            if message is None:
                _ = await self.reader(interaction, table.id)
                await interaction.edit_original_response(
                    content=_("This deal is over."), attachments=[], view=None
                )
                return
            picture = await message.file(self.bot.pictures)
            await interaction.edit_original_response(
                content=message.content, attachments=[picture], view=message.view
            )
            if in_dm:
                self.presenter.hand_shown_by_press(
                    table.id, interaction.user.id, message.looks(), interaction
                )
            else:  # a private reply: closed out with its deal
                self.presenter.keep_hand_reply(
                    table.id, interaction.user.id, interaction.edit_original_response
                )

    # ----------------------------------------------------------------- lobby

    async def lobby(
        self, interaction: discord.Interaction[Any], table_id: int, action: str, *, pressed: bool = False
    ) -> None:
        """A lobby's button (`pressed`, on its message: checked first, `Presses`) or the slash
        command that does the same in the table's channel."""
        if action == "rules":  # the host's private editor, which answers on its own
            await show_editor(interaction, table_id, None, edit=False)
            return

        async def work() -> None:
            table = (
                self.bot.presses.on_table_message(interaction, table_id)
                if pressed
                else self.table_by_id(table_id)
            )
            channel_id = table.channel_id
            user = interaction.user
            # The press or command came from the table's server: its Manage Server is that server's.
            can_manage = interaction.guild_id is not None and interaction.permissions.manage_guild
            await interaction.response.defer(ephemeral=True, thinking=True)
            _ = await self.bot.readers.asker(interaction)
            if action == "join":
                events = await self.service.join(channel_id, user.id, user.display_name)
                note = _("You are seated. The host starts when everyone is in.")
            elif action == "leave":
                events = await self.service.leave(channel_id, user.id)
                note = _("You left the table.")
            elif action in COMPUTER_BUTTONS:
                level = COMPUTER_BUTTONS[action]
                events = await self.service.add_computer(channel_id, user.id, level)
                note = (
                    _("An easy computer player sits down.")
                    if level == "easy"
                    else _("A strong computer player sits down.")
                )
            else:
                events = await self.service.start(channel_id, user.id, can_manage=can_manage)
                note = _("The match starts: your hand is on its way.")
            await self.presenter.publish(events)
            await interaction.followup.send(note, ephemeral=True)

        await self.guarded(interaction, table_id, work)

    async def table_now(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The table message brought up to date through a press on its "Show the table now"
        (while it runs behind), a table that closed meanwhile as it ended; a press on an older
        table message is told where the latest is."""

        async def work() -> None:
            # a table that closed meanwhile: its last edit, which showed how it ended, may be due
            table = self.bot.presses.on_table_message(interaction, table_id, closed_too=True)
            await interaction.response.defer()
            if not await self.presenter.show_table_through(table, interaction):
                _ = await self.reader(interaction, table_id)
                await self.tell(interaction, _(NO_LONGER_VALID))

        await self.guarded(interaction, table_id, work)

    # ----------------------------------------------------------------- hand controls

    async def hand_button(
        self, interaction: discord.Interaction[Any], table_id: int, turn: str, action: str
    ) -> None:
        async def work() -> None:
            table = self.bot.presses.in_private(interaction, table_id, turn, sort=action == "sort")
            if action == "declare":
                await self.asks.ask_declare(interaction, table, turn)
                return
            if action == "drop":
                await self.asks.ask_drop(interaction, table, turn)
                return
            await interaction.response.defer()
            if action == "sort":
                self.presenter.layout(table.id, interaction.user.id).custom = False
            else:
                source = Source(action)  # "closed" or "open": other actions never reach here
                events = await self.play(interaction, table, lambda seat: Pick(seat, source), turn)
                await self.presenter.publish(events, actor=self.in_own_dm(interaction, table))
            await self.show_own_hand(interaction, table)

        await self.guarded(interaction, table_id, work)

    async def discard(
        self, interaction: discord.Interaction[Any], table_id: int, turn: str, card: str
    ) -> None:
        async def work() -> None:
            table = self.bot.presses.in_private(interaction, table_id, turn)
            await interaction.response.defer()
            chosen = read_card(card)
            events = await self.play(interaction, table, lambda seat: Discard(seat, chosen), turn)
            await self.presenter.publish(events, actor=self.in_own_dm(interaction, table))
            await self.show_own_hand(interaction, table)

        await self.guarded(interaction, table_id, work)
