"""Domain errors whose messages are written for players, so front ends can show them as is."""


class RummyError(Exception):
    """Base of every error the engine raises on bad input; the message is player-readable."""


class CardNotationError(RummyError):
    """A card written in a notation the engine cannot read."""


class RulesError(RummyError):
    """An inconsistent or unsupported combination of rule options."""


class IllegalActionError(RummyError):
    """A command that the current state of the deal or match does not allow."""
