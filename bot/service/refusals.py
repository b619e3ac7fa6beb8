"""Refusals the service explains to players; like the engine's, their messages are shown as is."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from bot.engine.errors import RummyError
from bot.i18n import N_
from bot.store import DatabaseGoneError, LeaseLostError, WritesRefusedError


class ServiceError(RummyError):
    """A table command that cannot be done now (no table here, not seated, not the host...)."""


class StaleCommandError(ServiceError):
    """A command made for an earlier state: a button from a past turn, or a double click."""


class TableDamagedError(ServiceError):
    """The table's saved rows cannot be read back, so it is set aside until someone cancels it."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "This table's game is damaged and can't go on. The host or an admin can close it: "
                "`/rummy cancel`."
            )
        )


class CannotSaveError(ServiceError):
    """The database refuses writes for now (a full or read-only disk): nothing changed."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "I can't save moves right now, so that didn't happen. Try again in a moment: the game "
                "is safe."
            )
        )


class SavingStoppedError(ServiceError):
    """The database file was deleted or replaced under the bot: it takes no move until restarted."""

    def __init__(self) -> None:
        super().__init__(
            N_("I can't take moves until I'm restarted. The game is saved, and my admin has been told.")
        )


class ShuttingDownError(ServiceError):
    """The bot is stopping (a restart or an upgrade): commands already taken are being saved, new
    ones are refused."""

    def __init__(self) -> None:
        super().__init__(
            N_("I'm restarting, so that didn't happen. The game is saved: try again in a minute.")
        )


class HandedOverError(ServiceError):
    """This process lost its shards' lease to another one (`bot.store.leases`): it takes no move."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "I'm moving this server's tables, so that didn't happen. The game is saved: try again "
                "in a moment."
            )
        )


@contextlib.contextmanager
def saving() -> Iterator[None]:
    """Around a store write: the store's failures that players must hear about, in their words
    (the store's own errors stay below, with the reason, for the log)."""
    try:
        yield
    except WritesRefusedError as error:
        raise CannotSaveError() from error
    except LeaseLostError as error:
        raise HandedOverError() from error
    except DatabaseGoneError as error:
        raise SavingStoppedError() from error
