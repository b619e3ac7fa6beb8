"""`/rummy help`: what the reader can do next, from where they stand (no table, a lobby, a match,
their turn or not), then the commands worth knowing, and for a member with Manage Server the
admin's. One screen, so it names no rule numbers: `/rummy rules` has those, from the table."""

from __future__ import annotations

from bot.discord.safe_text import escaped
from bot.engine.deal import Phase, SeatStatus
from bot.engine.match import MatchPhase
from bot.i18n import EN, N_, Words
from bot.service.views import TableView
from bot.store import TableStatus

PLAYER_COMMANDS = N_(
    "`/rummy hand` your cards · `/rummy rules` all the rules · `/rummy table` the table again · "
    "`/rummy standings` · `/rummy stats` · `/rummy replay` watch a deal again · "
    "`/rummy history` your past games · `/rummy verify` check a shuffle · "
    "`/rummy settings` your deck and language · `/rummy leave`"
)
ADMIN_COMMANDS = N_(
    "**For admins (Manage Server)**: `/rummy cancel` any table here · "
    "`/rummy settings scope:server` the server's default rules and language · "
    "`/league-admin` run pool leagues."
)


def help_text(table: TableView | None, user_id: int, *, admin: bool, _: Words = EN) -> str:
    lines = [
        _("**What to do next**"),
        next_step(table, user_id, _),
        "",
        _("**Commands**: {commands}", commands=_(PLAYER_COMMANDS)),
    ]
    if admin:
        lines += ["", _(ADMIN_COMMANDS)]
    return "\n".join(lines)


def next_step(table: TableView | None, user_id: int, _: Words = EN) -> str:
    if table is None or not table.status.active:
        return _(
            "No table here yet. Open one with `/rummy new`: friends press **Join**, then you press **Start**."
        )
    if table.damage is not None:
        return _(
            "This table's saved game is damaged, so it can't go on: the host can close it with "
            "`/rummy cancel`."
        )
    seat = table.seat_of(user_id)
    if table.status is TableStatus.OPEN:
        if seat is None:
            return _("A table is waiting for players: press **Join** on it.")
        if table.host_id == user_id:
            return _(
                "You host this table: wait for friends or add computer players, change the **Rules** "
                "if you like, then press **Start**."
            )
        return _("You're in! The host starts the game; your cards will come by DM.")
    match = table.match
    if seat is None:
        return _("A game is on here: watch the table, or open your own in another channel.")
    if match is None or match.phase is not MatchPhase.PLAYING or match.deal is None:
        return _("The next deal starts soon; your new cards will come by DM.")
    deal = match.deal
    if deal.turn != seat or deal.statuses[seat] is not SeatStatus.PLAYING:
        name = escaped(table.seats[deal.turn].name)
        return _("It's {name}'s turn. Your cards are in your DMs (or `/rummy hand`).", name=name)
    if deal.phase is Phase.PICK:
        return _(
            "Your turn: pick a card from the closed deck or the open pile (buttons in your DM). "
            "Or **Drop** out of this deal."
        )
    return _("Your turn: discard a card (the menu in your DM), or **Declare** if your hand is ready.")
