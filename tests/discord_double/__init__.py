"""A fake Discord (REST + gateway on 127.0.0.1) for driving the real discord.py client in tests.

See README.md in this folder for the API and the payload details discord.py depends on.
"""

from .problems import Problem, Violation
from .records import FakeInteraction, FakeUser, Recorded, SentFile, StoredMessage
from .server import CANNOT_DM, UNKNOWN_CHANNEL, DiscordDouble, DiscordError

__all__ = [
    "CANNOT_DM",
    "UNKNOWN_CHANNEL",
    "DiscordDouble",
    "DiscordError",
    "FakeInteraction",
    "FakeUser",
    "Problem",
    "Recorded",
    "SentFile",
    "StoredMessage",
    "Violation",
]
