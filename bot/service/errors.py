"""Refusals the service explains to players; like the engine's, their messages are shown as is."""

from bot.engine.errors import RummyError


class ServiceError(RummyError):
    """A table command that cannot be done now (no table here, not seated, not the host...)."""


class StaleCommandError(ServiceError):
    """A command made for an earlier state: a button from a past turn, or a double click."""
