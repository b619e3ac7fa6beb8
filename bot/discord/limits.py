"""Discord's documented limits on what a request may carry, in one place, and the cuts that keep
every field the bot builds within them (issue 23): Discord refuses a whole request (400, 50035)
for one field over its limit, so a long name must shorten its field, never lose the message.

A cut ends with "…" so a reader sees that something was left out. Where a field is built from
words that may run long (a league's channel name, a translated label, what a member typed), the
place that builds it passes it through here.
"""

from __future__ import annotations

from collections.abc import Sequence

MESSAGE = 2000  # a message's content
THREAD_NAME = 100  # a channel's or thread's name
EVENT_NAME = 100  # a scheduled event's name
EVENT_LOCATION = 100  # a scheduled event's `entity_metadata.location`
EVENT_DESCRIPTION = 1000  # a scheduled event's description
BUTTON_LABEL = 80  # a button's label
SELECT_PLACEHOLDER = 150  # a select menu's placeholder
OPTION_LABEL = 100  # a select option's label (its value and description too)
CHOICE_NAME = 100  # an application command choice's name (a preset, an autocomplete answer)
CHOICES = 25  # the choices an autocomplete answer offers
PINGED_USERS = 100  # the users an `allowed_mentions` may name
ELLIPSIS = "…"


def cut(text: str, limit: int) -> str:
    """`text` within `limit` characters: whole if it fits, else its start and "…"."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)] + ELLIPSIS


def message(text: str) -> str:
    return cut(text, MESSAGE)


def thread_name(text: str) -> str:
    return cut(text, THREAD_NAME)


def event_name(text: str) -> str:
    return cut(text, EVENT_NAME)


def event_location(text: str) -> str:
    return cut(text, EVENT_LOCATION)


def event_description(text: str) -> str:
    return cut(text, EVENT_DESCRIPTION)


def button_label(text: str) -> str:
    return cut(text, BUTTON_LABEL)


def placeholder(text: str) -> str:
    return cut(text, SELECT_PLACEHOLDER)


def option_label(text: str) -> str:
    return cut(text, OPTION_LABEL)


def choice_name(text: str) -> str:
    return cut(text, CHOICE_NAME)


def message_chunks(lines: Sequence[str], limit: int = MESSAGE) -> list[str]:
    """Lines packed into messages within Discord's length limit, never splitting a line (one
    longer than a message is cut)."""
    chunks: list[str] = [""]
    for line in lines:
        if chunks[-1] and len(chunks[-1]) + 1 + len(line) > limit:
            chunks.append("")
        chunks[-1] = f"{chunks[-1]}\n{line}" if chunks[-1] else cut(line, limit)
    return chunks
