"""Forgetting a player on request (`python -m bot forget-user ID`), mixed into `Store`.

What the bot keeps about a person: their seats at tables (their id and the name they played
under), the tables they hosted, their results (`match_standings`), their statistics, their own
settings, the DMs it posted them and their DM refusals, and their part in leagues (sign-ups,
seats, placings, adjustments, their name). The moves and deals of a match name seats, never
people, so they need no change.

The others' results must still add up, so a finished table keeps the seat: its user id becomes
a placeholder no Discord account has (a negative number, drawn at random, the same for all of
this person's rows, so a match still shows one player in one seat) and its name
`FORMER_PLAYER`. What is theirs alone is deleted: statistics, settings, DM ids and refusals,
and sign-ups for league nights still to come.

A person seated at an open table is refused (`PlayerSeatedError`): that table's live state is
the running bot's, which would write them back. So is a change the running bot would undo or
could not survive: a league document (the league service holds leagues in memory and saves
them whole) while a bot process is alive on the database, and any write to a SQLite file that a
live bot holds (it stops saving when another program writes to its file, see `health`). A bot
is alive when it noted itself in `front_end_state` lately (`live_processes`).

Everything found is changed in one write of the store's queue, so in one transaction.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.store.faults import StoreError
from bot.store.messages import PROCESS_KEY
from bot.store.snapshots import dumps

FORMER_PLAYER = "a former player"  # the name a forgotten player's seats and league lines show
# A bot process that noted itself alive within this many seconds is running (it notes itself
# every 5 s: `bot.discord.budget`).
ALIVE_SECONDS = 15.0
# League nights whose sign-ups are still open: a forgotten player is taken off them, not kept.
_WAITING_NIGHTS = ("scheduled", "signup", "postponed")

_SEAT_ROWS = "SELECT id, host_id, seats, status FROM tables WHERE host_id = ? OR seats LIKE ? ORDER BY id"
_LEAGUE_ROWS = "SELECT id, state FROM leagues WHERE state LIKE ? ORDER BY id"
_SEAT_ROWS = "SELECT id, host_id, seats, status FROM tables WHERE host_id = ? OR seats LIKE ? ORDER BY id"
# A hand DM is remembered as `table:<table>:hand:<user>` (see `MessageStore`).
_HAND_MESSAGES = "posted_messages WHERE key LIKE ?"
UPDATE_SEATS = "UPDATE tables SET host_id = ?, seats = ? WHERE id = ?"
UPDATE_STANDINGS = "UPDATE match_standings SET user_id = ? WHERE user_id = ?"
UPDATE_LEAGUE_STATE = "UPDATE leagues SET state = ? WHERE id = ?"
DELETE_STATS = "DELETE FROM user_stats WHERE user_id = ?"
DELETE_SETTINGS = "DELETE FROM user_settings WHERE user_id = ?"
DELETE_REFUSALS = "DELETE FROM dm_refusals WHERE user_id = ?"
DELETE_HAND_MESSAGES = f"DELETE FROM {_HAND_MESSAGES}"
# The statements of a forgetting, in the order the store's write queue runs them (`Store`).
FORGET_STATEMENTS = (
    UPDATE_SEATS,
    UPDATE_STANDINGS,
    UPDATE_LEAGUE_STATE,
    DELETE_STATS,
    DELETE_SETTINGS,
    DELETE_REFUSALS,
    DELETE_HAND_MESSAGES,
)


class PlayerSeatedError(StoreError):
    """The player is seated at a table still being played (or a lobby): forgetting them now
    would be undone by the table's next save."""


class BotRunningError(StoreError):
    """A bot process is running on this database and holds what would change (see the module)."""


@dataclass(frozen=True)
class Forgetting:
    """What forgetting one user changes (or changed), counted by kind of row."""

    user_id: int
    tables: int = 0  # finished tables whose seats or host named them: now a former player
    results: int = 0  # match results of theirs, kept for the others' sake under the placeholder
    leagues: int = 0  # league documents that named them
    stats: int = 0  # statistics rows deleted (one per server)
    settings: int = 0  # their own settings deleted
    messages: int = 0  # DM message ids and DM refusals deleted

    def found(self) -> bool:
        return any((self.tables, self.results, self.leagues, self.stats, self.settings, self.messages))

    def lines(self) -> list[str]:
        """What changes, a line per kind of row that does."""
        said = [
            (self.tables, f"{self.tables} finished table(s) show them as {FORMER_PLAYER!r}"),
            (self.results, f"{self.results} match result(s) kept for the other players, under no name"),
            (self.leagues, f"{self.leagues} league(s) show them as {FORMER_PLAYER!r}"),
            (self.stats, f"{self.stats} statistics row(s) deleted"),
            (self.settings, "their settings deleted"),
            (self.messages, f"{self.messages} DM record(s) deleted"),
        ]
        return [line for count, line in said if count]


class ForgettingStore:
    """The forgetting half of `Store` (which provides the write queue and the readers)."""

    if TYPE_CHECKING:

        async def _write(self, statements: dict[str, list[Sequence[Any]]]) -> None: ...

        async def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        async def _one(self, sql: str, params: Sequence[Any]) -> Any: ...

    is_single_file: bool

    async def forget_user(self, user_id: int, now: float, *, apply: bool) -> Forgetting:
        """What forgetting `user_id` changes; with `apply`, changed in one transaction. Raises
        `PlayerSeatedError` or `BotRunningError` (see the module), with nothing changed."""
        placeholder = -secrets.randbelow(2**53) - 1
        tables, open_tables = await self._seats_of(user_id, placeholder)
        if open_tables:
            listed = ", ".join(str(table) for table in open_tables)
            raise PlayerSeatedError(
                f"User {user_id} is seated at open table(s) {listed}: wait for the match to end, "
                "or have the host or an admin remove them (/rummy cancel), then run this again."
            )
        leagues = await self._leagues_of(user_id, placeholder)
        alive = await self._alive_processes(now)
        if alive and self.is_single_file:
            raise BotRunningError(
                "The bot is running on this SQLite file, which takes one program's writes at a time "
                "(the bot would stop saving): stop it, run this again, then start it (a bot that just "
                f"stopped counts as running for {ALIVE_SECONDS:.0f} s)."
            )
        if alive and leagues:
            raise BotRunningError(
                f"User {user_id} is in league(s) {', '.join(str(league) for league, _ in leagues)}, which "
                "the running bot keeps in memory and would write back: stop the bot, run this again, "
                "then start it."
            )
        counts = await self._counts(user_id)
        forgetting = Forgetting(user_id, len(tables), leagues=len(leagues), **counts)
        if apply and forgetting.found():
            by_user: list[Sequence[Any]] = [(user_id,)]
            await self._write(
                {
                    UPDATE_SEATS: tables,
                    UPDATE_STANDINGS: [(placeholder, user_id)],
                    UPDATE_LEAGUE_STATE: [(state, league) for league, state in leagues],
                    DELETE_STATS: by_user,
                    DELETE_SETTINGS: by_user,
                    DELETE_REFUSALS: by_user,
                    DELETE_HAND_MESSAGES: [(f"table:%:hand:{user_id}",)],
                }
            )
        return forgetting

    async def _seats_of(self, user_id: int, placeholder: int) -> tuple[list[Sequence[Any]], list[int]]:
        """The finished tables that name the user, as the rows that rename them, and the ids of
        the open ones they sit at."""
        rows = await self._all(_SEAT_ROWS, (user_id, f"%{user_id}%"))
        renamed: list[Sequence[Any]] = []
        seated: list[int] = []
        for table_id, host_id, seats_json, status in rows:
            seats = json.loads(seats_json)
            named = [seat for seat in seats if seat.get("user_id") == user_id]
            if not named and host_id != user_id:
                continue  # the number was part of another one
            if status in ("open", "playing"):
                seated.append(table_id)
                continue
            for seat in named:
                seat["user_id"], seat["name"] = placeholder, FORMER_PLAYER
            renamed.append((placeholder if host_id == user_id else host_id, dumps(seats), table_id))
        return renamed, seated

    async def _leagues_of(self, user_id: int, placeholder: int) -> list[tuple[int, str]]:
        """Each league whose document names the user, with the document rewritten: taken off the
        sign-ups of nights to come, their id the placeholder and their name `FORMER_PLAYER`
        everywhere else. A Discord id names one thing only, so any number equal to it is them."""
        rows = await self._all(_LEAGUE_ROWS, (f"%{user_id}%",))
        changed: list[tuple[int, str]] = []
        for league_id, state_json in rows:
            state = json.loads(state_json)
            for season in state.get("league", {}).get("seasons", []):
                for night in season.get("nights", []):
                    if night.get("status") in _WAITING_NIGHTS and user_id in night.get("signups", []):
                        night["signups"].remove(user_id)
            names = state.get("names", {})
            if names.pop(str(user_id), None) is not None:
                names[str(placeholder)] = FORMER_PLAYER
            rewritten = _replaced(state, user_id, placeholder)
            if rewritten != json.loads(state_json):
                changed.append((league_id, dumps(rewritten)))
        return changed

    async def _alive_processes(self, now: float) -> int:
        row = await self._one(
            "SELECT count(*) FROM front_end_state WHERE substr(key, 1, ?) = ? AND updated_at >= ?",
            (len(PROCESS_KEY), PROCESS_KEY, now - ALIVE_SECONDS),
        )
        return int(row[0])

    async def _counts(self, user_id: int) -> dict[str, int]:
        async def count(where: str, *params: Any) -> int:
            return int((await self._one(f"SELECT count(*) FROM {where}", params))[0])

        return {
            "results": await count("match_standings WHERE user_id = ?", user_id),
            "stats": await count("user_stats WHERE user_id = ?", user_id),
            "settings": await count("user_settings WHERE user_id = ?", user_id),
            "messages": await count("dm_refusals WHERE user_id = ?", user_id)
            + await count(_HAND_MESSAGES, f"table:%:hand:{user_id}"),
        }


def _replaced(value: Any, user_id: int, placeholder: int) -> Any:
    """`value` (parsed JSON) with every number equal to `user_id` made `placeholder`."""
    if isinstance(value, dict):
        return {key: _replaced(item, user_id, placeholder) for key, item in value.items()}
    if isinstance(value, list):
        return [_replaced(item, user_id, placeholder) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and value == user_id:
        return placeholder
    return value
