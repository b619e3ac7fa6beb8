"""Splitting a night's players into pool tables.

Sizes: as few tables as `max_size` allows, sizes differing by at most one, never a table of one.
The only count that cannot meet all three is an odd number of players at a league of two-seat
tables; there one table gets a third seat rather than someone being sent home, since a 3-player
pool plays fine and a player who signed up should play.

Balance: players are ranked by season points (ties by user id, so the seating is the same on
every run and after a restart) and dealt to the tables in snake order, 1 2 3 3 2 1 1 2 3 ...
Each table then gets one of the top seeds, one of the next, and so on, and the snake's turn
evens out the head start the first table would get from a plain round-robin. Mixed tables, rather
than strongest-with-strongest, keep every night's tables comparable, which is what lets one
points table by finishing position be fair across tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.leagues.league_error import SeatingError

MIN_TABLE = 2
MAX_TABLE = 10  # the most any rules seat (home rules, three decks); a league's own rules may seat fewer


def check_table_size(max_size: int) -> None:
    if not MIN_TABLE <= max_size <= MAX_TABLE:
        raise SeatingError(
            "A pool table seats {least} to {most} players, not {size}.",
            least=MIN_TABLE,
            most=MAX_TABLE,
            size=max_size,
        )


def table_count(players: int, max_size: int) -> int:
    check_table_size(max_size)
    if players < MIN_TABLE:
        raise SeatingError(
            "A league night needs at least {least} players; {players} signed up.",
            least=MIN_TABLE,
            players=players,
        )
    count = -(-players // max_size)
    return count - 1 if players < MIN_TABLE * count else count  # two-seat tables, odd count


def seed_order(players: Iterable[int], points: Mapping[int, float] | None = None) -> list[int]:
    """Best first by season points; equal points by user id so the order never depends on sign-up."""
    points = points or {}
    return sorted(set(players), key=lambda user: (-points.get(user, 0), user))


def seat_tables(
    players: Iterable[int], points: Mapping[int, float] | None = None, *, max_size: int
) -> list[tuple[int, ...]]:
    """The tables, each a tuple of user ids best seed first; table 1 holds the top seed."""
    order = seed_order(players, points)
    count = table_count(len(order), max_size)
    tables: list[list[int]] = [[] for _ in range(count)]
    for index, user in enumerate(order):
        lap, position = divmod(index, count)
        tables[position if lap % 2 == 0 else count - 1 - position].append(user)
    return [tuple(table) for table in tables]
