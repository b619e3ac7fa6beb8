"""What the service takes from front ends, checked at its door: ids are Discord snowflakes, texts
are short strings. A front end may pass anything a user could shape (a forged button, a hand-made
request); a bad value is refused in words, as a `BadInputError`, and touches no table."""

from __future__ import annotations

from bot.engine.errors import RummyError

MAX_ID = 2**63 - 1  # Discord ids are 64-bit; SQLite stores up to this
MAX_TEXT = 200


class BadInputError(RummyError):
    """A value that is not what the service takes (wrong type, out of range): nothing is done."""


def checked_id(value: object, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise BadInputError("That is not a {what} I know.", what=what)
    return value


def checked_text(value: object, what: str, *, limit: int = MAX_TEXT) -> str | None:
    """An optional short text (a turn token, a command id, a name)."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise BadInputError("That {what} is not valid.", what=what)
    return value
