"""What a command adds to standings and statistics, worked out from its events.

These rows are saved in the same transaction as the command itself, so a restart can neither
lose a result nor count it twice: the command is in the log exactly once, and so are they.
"""

from __future__ import annotations

from bot.engine.events import DealOver, Eliminated, Event, Left, MatchOver, Rejoined, Standings
from bot.engine.formats import DEAL_CHIPS, Family
from bot.engine.match import Match, Standing
from bot.engine.outcomes import Outcome
from bot.store import SeatRecord, StandingRow, StatsDelta

# Events after which the match's standings rows are written again.
STANDING_EVENTS: frozenset[type[Event]] = frozenset({Standings, Eliminated, Rejoined, Left, MatchOver})
_DROPS = frozenset({Outcome.FIRST_DROP, Outcome.MIDDLE_DROP})


def standing_rows(match: Match, seats: list[SeatRecord]) -> list[StandingRow]:
    return [
        StandingRow(seat, seats[seat].user_id, match.standings[seat], status.value, match.rejoined[seat])
        for seat, status in enumerate(match.seat_status)
    ]


def stats_deltas(
    match: Match, events: list[Event], seats: list[SeatRecord], guild_id: int
) -> list[StatsDelta]:
    deltas: dict[int, StatsDelta] = {}

    def delta(seat: int) -> StatsDelta | None:
        user = seats[seat].user_id
        if user is None:  # computer players keep no statistics
            return None
        return deltas.setdefault(seat, StatsDelta(guild_id, user))

    for event in events:
        if isinstance(event, DealOver):
            for seat, outcome in enumerate(event.outcomes):
                row = delta(seat)
                if row is None or outcome is None:  # sat this deal out
                    continue
                row.deals_played += 1
                row.deals_won += outcome is Outcome.WON
                row.drops += outcome in _DROPS
                row.wrong_shows += outcome is Outcome.WRONG_SHOW
        elif isinstance(event, MatchOver):
            finish = pool_finish(match)
            for seat in range(match.players):
                row = delta(seat)
                if row is None:
                    continue
                row.matches_played += 1
                row.matches_won += seat == match.winner
                row.chips_won += chips_won(match, seat)
                row.best_pool_finish = finish.get(seat)
    return list(deltas.values())


def chips_won(match: Match, seat: int) -> int:
    """Chips a seat ends the match with above what it brought (Points and Deals only)."""
    family = match.spec.family
    if family is Family.POOL:
        return 0
    opening = DEAL_CHIPS * match.spec.deals if family is Family.DEALS else 0
    return match.standings[seat] - opening


def pool_finish(match: Match) -> dict[int, int]:
    """Places in a finished pool: the winner first (everyone who split it shares first), then
    the others from the lowest score up."""
    if match.spec.family is not Family.POOL:
        return {}
    first = {seat for seat in match.shares} if match.shares else {match.winner}
    others = sorted(
        (seat for seat in range(match.players) if seat not in first),
        key=lambda seat: (match.seat_status[seat] is not Standing.IN, match.standings[seat]),
    )
    places = {seat: 1 for seat in first if seat is not None}
    places.update({seat: len(places) + 1 + index for index, seat in enumerate(others)})
    return places
