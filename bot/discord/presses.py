"""Every press on one of the bot's buttons or menus is checked here, before it acts or asks
(issue 23), one check per kind of message the component lives on:

- the table message (the lobby's buttons, "Show the table now"): pressed in the table's server
  and channel, on the message that shows the table now;
- a private message (a hand's controls, the answers to the Declare and Drop questions, the
  lobby's Rules editor): the presser's own hand DM of that table, or an ephemeral reply (in the
  table's channel, or in a DM), pressed by a seated player (the host, for the editor, whom the
  editor checks) for the turn now;
- a league's message (Join / Leave on a night's announcement, I'm here on a table's check-in):
  in the league's server, in its channel (the table's thread), on that message;
- a replay's frame (◀ ▶): a private reply; who may see the deal, from where, is the replay
  service's to say (`Replays.open`).

A custom id names what it acts on and nothing more, so that old buttons keep working after a
restart; a client can send any custom id with any message, so the id is never trusted to be
where it was put: these checks are the defence. A press that fails one is refused privately, in
the presser's words (a `PressRefused`, answered like every refusal by `Actions.guarded`), and
changes nothing. Manage Server is then read from the press itself, which came from the table's
server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import RummyError
from bot.i18n import N_
from bot.service.refusals import TableDamagedError
from bot.service.views import TableView

if TYPE_CHECKING:
    from bot.discord.bot import RummyBot
    from bot.service.league_events import LeagueRecord

Interaction = discord.Interaction[Any]

NOT_HERE = N_("That button does not belong to this message, so it did nothing.")
OLDER_TABLE_MESSAGE = N_("That is an older message of this table: use its latest one, {link}")
STALE = N_("That button is from an earlier turn: use the latest message (or `/rummy hand`).")
NOT_SEATED = N_("You are not seated at this table.")


class PressRefused(RummyError):
    """A press that does not belong where it was made, or to whoever made it."""


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A link to a message, as Discord's "Copy Message Link" gives it."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def _deal_of(token: str | None) -> str:
    """The deal a turn token (`TableView.turn_token`, "deal.turn") belongs to."""
    return (token or "").split(".")[0]


class Presses:
    def __init__(self, bot: RummyBot) -> None:
        self.bot = bot

    @staticmethod
    def _pressed(interaction: Interaction) -> discord.Message:
        if interaction.message is None:  # a component interaction always has one
            raise PressRefused(NOT_HERE)
        return interaction.message

    @staticmethod
    def _in_place(interaction: Interaction, guild_id: int | None, channel_id: int | None) -> None:
        """The press came from that server and channel."""
        if (
            interaction.guild_id is None
            or interaction.guild_id != guild_id
            or interaction.channel_id != channel_id
        ):
            raise PressRefused(NOT_HERE)

    def on_table_message(
        self, interaction: Interaction, table_id: int, *, closed_too: bool = False
    ) -> TableView:
        """A press on the table message (a lobby's buttons; "Show the table now", which a table
        that just closed answers too, with `closed_too`): the table it names, if pressed on the
        message that shows it now, in its server and channel. An older table message (a
        `/rummy table` posted a newer one) is told where the latest is."""
        actions = self.bot.actions
        table = self.bot.presenter.table(table_id) if closed_too else actions.table_by_id(table_id)
        if table is None:
            raise RummyError("This table has closed.")
        self._in_place(interaction, table.guild_id, table.channel_id)
        latest = self.bot.presenter.table_message_id(table_id)
        if self._pressed(interaction).id != latest:
            if latest is None:
                raise PressRefused(NOT_HERE)
            link = message_link(table.guild_id, table.channel_id, latest)
            raise PressRefused(OLDER_TABLE_MESSAGE, link=link)
        return table

    def in_private(
        self,
        interaction: Interaction,
        table_id: int,
        turn: str | None = None,
        *,
        seated: bool = True,
        sort: bool = False,
    ) -> TableView:
        """A press on a message only the presser sees: their hand DM of this table, or an ephemeral
        reply in the table's channel or a DM. `seated`: only a player at the table may press it;
        `turn`: the turn token the control was made for, which must be the turn now (`sort`, which
        changes only how the player's own cards are laid out: the deal now)."""
        table = self.bot.actions.table_by_id(table_id)
        message = self._pressed(interaction)
        user_id = interaction.user.id
        if interaction.guild_id is None:  # a DM: the presser's own, as Discord sends it to nobody else
            private = message.flags.ephemeral or message.id == self.bot.presenter.hand_message_id(
                table_id, user_id
            )
        else:
            self._in_place(interaction, table.guild_id, table.channel_id)
            private = message.flags.ephemeral
        if not private:
            raise PressRefused(NOT_HERE)
        if table.damage is not None:  # it knows no seats nor turns: said as every command is told
            raise TableDamagedError()
        if seated and table.seat_of(user_id) is None:
            raise PressRefused(NOT_SEATED)
        if turn is not None:
            now = table.turn_token
            if (_deal_of(turn) != _deal_of(now)) if sort else (turn != now):
                raise PressRefused(STALE)
        return table

    def on_league_message(
        self, interaction: Interaction, league_id: int, night: int, action: str
    ) -> LeagueRecord:
        """A press on a league's message: Join / Leave on the night's announcement in the league's
        channel, I'm here on the check-in in a table's thread of that night (when the thread has
        one: without it, `/league here` checks in all the same)."""
        guild_id = interaction.guild_id
        records = self.bot.leagues.leagues(guild_id) if guild_id is not None else []
        record = next((found for found in records if found.id == league_id), None)
        if record is None:
            raise PressRefused(NOT_HERE)
        message = self._pressed(interaction)
        if action == "here":
            playing = self.bot.leagues.by_table_channel(interaction.channel_id or 0)
            if playing is None or playing[0].id != league_id or playing[1].number != night:
                raise PressRefused(NOT_HERE)
            check_in = self.bot.league_presenter.check_ins.get(interaction.channel_id or 0)
            if check_in is not None and check_in.id != message.id:
                raise PressRefused(NOT_HERE)
            return record
        self._in_place(interaction, record.league.guild_id, record.league.channel_id)
        if record.announcement.get(night) != message.id:
            raise PressRefused(NOT_HERE)
        return record

    def on_replay(self, interaction: Interaction) -> None:
        """A press under a replay's frame: on a private reply (never a message others see, which
        it would turn into a frame); the replay service checks the server, channel and viewer."""
        if not self._pressed(interaction).flags.ephemeral:
            raise PressRefused(NOT_HERE)
