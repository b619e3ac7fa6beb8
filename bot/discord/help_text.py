"""`/rummy help`: what the reader can do next, from where they stand (no table, a lobby, a match,
their turn or not), then the commands worth knowing, and for a member with Manage Server the
admin's. One screen, so it names no rule numbers: `/rummy rules` has those, from the table."""

from __future__ import annotations

from bot.engine.deal import Phase
from bot.engine.match import MatchPhase
from bot.service import Table
from bot.store import TableStatus

PLAYER_COMMANDS = (
    "`/rummy hand` your cards privately · `/rummy rules` this table's rules · "
    "`/rummy table` the table again · `/rummy standings` · `/rummy stats` · "
    "`/rummy verify` check a deal's shuffle · `/rummy leave`"
)
ADMIN_COMMANDS = (
    "**Admins (Manage Server)**: `/rummy cancel` any table here · "
    "`/rummy settings scope:server rules:` the rules `/rummy new` plays by default · "
    "`/league-admin` create and run scheduled pool leagues (create, season, postpone, cancel, "
    "abandon, add, remove, adjust)."
)


def help_text(table: Table | None, user_id: int, *, admin: bool) -> str:
    lines = ["**What to do next**", next_step(table, user_id), "", f"**Commands**: {PLAYER_COMMANDS}"]
    if admin:
        lines += ["", ADMIN_COMMANDS]
    return "\n".join(lines)


def next_step(table: Table | None, user_id: int) -> str:
    if table is None or not table.record.status.active:
        return (
            "There is no table in this channel. Open one with `/rummy new` (choose a format and "
            "rules), then others press **Join** and the host presses **Start**."
        )
    if table.damage is not None:
        return "This table is set aside (its saved state is damaged): the host can `/rummy cancel` it."
    seat = table.seat_of(user_id)
    if table.record.status is TableStatus.OPEN:
        if seat is None:
            return "A table is waiting for players: press **Join** on its message (or `/rummy join`)."
        if table.record.host_id == user_id:
            return (
                "You host this table: add computer players or wait for others to join, look at "
                "**Rules** (you may change them before the start), then press **Start**."
            )
        return "You are seated. The host starts the match; your hand will come by DM."
    match = table.match
    if seat is None:
        return "A match is being played here: watch the table message, or open a table elsewhere."
    if match is None or match.phase is not MatchPhase.PLAYING or match.deal is None:
        return "The next deal starts shortly; your new hand will come by DM."
    deal = match.deal
    if deal.turn != seat or not deal.seats[seat].in_play:
        name = table.record.seats[deal.turn].name
        return f"Wait for {name}. Your hand is in your DMs (or `/rummy hand`): arrange it with Sort / group."
    if deal.phase is Phase.PICK:
        return (
            "It is your turn: pick a card, from the closed deck or the open pile (buttons in your "
            "DM, or `/rummy pick`). Or drop out of the deal (**Drop** says what it costs)."
        )
    return (
        "It is your turn: discard a card (the menu in your DM, or `/rummy discard`), or "
        "**Declare** if your hand is complete."
    )
