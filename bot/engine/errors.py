"""Domain errors whose messages are written for players, so front ends can show them as is.

A message that names a player holds a placeholder (`{player}`) and the seat it stands for: the
engine knows seats, not names, so a front end renders it with the names it shows
(`error.render(name_of_seat)`); `str(error)` falls back to "seat N" for logs and tests. Other
values (a card, a number) are placeholders too, never pasted into the message, so the message is
one text a front end can look up in the reader's language (`render(..., translate)`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.engine.marks import Word


class RummyError(Exception):
    """Base of every error the engine raises on bad input; the message is player-readable."""

    def __init__(
        self, message: str = "", *, seats: Mapping[str, int] | None = None, **values: object
    ) -> None:
        self.template, self.seats, self.values = message, dict(seats or {}), values
        super().__init__(self.render(lambda seat: f"seat {seat + 1}"))

    def render(
        self,
        name_of_seat: Callable[[int], str],
        translate: Callable[[str], str] = str,
        quote: Callable[[str], str] = str,
    ) -> str:
        """The message in the reader's words (`translate` looks the template up, and the words of
        ours quoted into it, `Word`s), values filled in; any other text value (what someone typed:
        a name, a schedule) goes through `quote`, as the front end shows such text."""
        template = translate(self.template)
        if not self.seats and not self.values:
            return template
        names = {key: name_of_seat(seat) for key, seat in self.seats.items()}
        values = {
            key: translate(value)
            if isinstance(value, Word)
            else quote(value)
            if isinstance(value, str)
            else value
            for key, value in self.values.items()
        }
        return template.format(**names, **values)


class CardNotationError(RummyError):
    """A card written in a notation the engine cannot read."""


class RulesError(RummyError):
    """An inconsistent or unsupported combination of rule options."""


class IllegalActionError(RummyError):
    """A command that the current state of the deal or match does not allow."""


class CorruptTableError(RummyError):
    """A stored deal or match that breaks the game's invariants (cards not conserved, chips that
    do not add up): raised by the checks a restart runs, which the quarantine of damaged tables
    catches. A real exception, not an `assert`, so `python -O` cannot skip the checks."""


def require(condition: bool, problem: str) -> None:
    """One invariant of a stored table: `CorruptTableError(problem)` when it does not hold."""
    if not condition:
        raise CorruptTableError(problem)
