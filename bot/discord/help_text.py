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
    "`/rummy hand` your cards privately · `/rummy rules` this table's rules · "
    "`/rummy table` the table again · `/rummy standings` · `/rummy stats` · "
    "`/rummy verify` check a deal's shuffle · `/rummy settings` your deck and language · `/rummy leave`"
)
ADMIN_COMMANDS = N_(
    "**Admins (Manage Server)**: `/rummy cancel` any table here · "
    "`/rummy settings scope:server rules:` the rules `/rummy new` plays by default, "
    "`language:` the language of the tables' posts · "
    "`/league-admin` create and run scheduled pool leagues (create, season, postpone, cancel, "
    "abandon, add, remove, adjust)."
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
            "There is no table in this channel. Open one with `/rummy new` (choose a format and "
            "rules), then others press **Join** and the host presses **Start**."
        )
    if table.damage is not None:
        return _("This table is set aside (its saved state is damaged): the host can `/rummy cancel` it.")
    seat = table.seat_of(user_id)
    if table.status is TableStatus.OPEN:
        if seat is None:
            return _("A table is waiting for players: press **Join** on its message (or `/rummy join`).")
        if table.host_id == user_id:
            return _(
                "You host this table: add computer players or wait for others to join, look at "
                "**Rules** (you may change them before the start), then press **Start**."
            )
        return _("You are seated. The host starts the match; your hand will come by DM.")
    match = table.match
    if seat is None:
        return _("A match is being played here: watch the table message, or open a table elsewhere.")
    if match is None or match.phase is not MatchPhase.PLAYING or match.deal is None:
        return _("The next deal starts shortly; your new hand will come by DM.")
    deal = match.deal
    if deal.turn != seat or deal.statuses[seat] is not SeatStatus.PLAYING:
        name = escaped(table.seats[deal.turn].name)
        return _(
            "Wait for {name}. Your hand is in your DMs (or `/rummy hand`): arrange it with Sort / group.",
            name=name,
        )
    if deal.phase is Phase.PICK:
        return _(
            "It is your turn: pick a card, from the closed deck or the open pile (buttons in your "
            "DM, or `/rummy pick`). Or drop out of the deal (**Drop** says what it costs)."
        )
    return _(
        "It is your turn: discard a card (the menu in your DM, or `/rummy discard`), or "
        "**Declare** if your hand is complete."
    )
