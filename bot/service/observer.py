"""What the table service reports as it works, for whoever measures it (the bot's Prometheus
metrics, `bot.app.metrics`): the service calls these and knows nothing of who listens, so it stays
free of any metrics library."""

from __future__ import annotations

from typing import Protocol


class ServiceObserver(Protocol):
    def command_saved(self, kind: str, seconds: float) -> None:
        """A game command of `kind` (its name in the log: pick, discard, timeout...) was accepted
        and saved, and its events are being handed on to be announced; `seconds` since the
        service took it (a player's: waiting for the table's lock included; one the clock makes:
        from its decision)."""

    def computer_thought(self, level: str, seconds: float) -> None:
        """A computer player of `level` decided its move after `seconds` (waiting for a free
        worker process included: what the table waited)."""


class Unobserved:
    """The observer of a service nobody measures."""

    def command_saved(self, kind: str, seconds: float) -> None:
        pass

    def computer_thought(self, level: str, seconds: float) -> None:
        pass
