"""What members typed, shown in a Discord message as the words they typed, and whom a message
may ping (issue 23).

A display name, a league's name or an admin's reason is anyone's text: a nickname `@everyone`, a
role mention, a masked link `[gift](https://…)` or `**bold**` must read as those characters, never
ping, link or shout. Every such text passes through `escaped` where it enters the Discord front
end's words (the names handed to the shared words of `bot.present`, the league's words, a
refusal's values); the terminal shows it raw (it has no markdown) and the pictures draw it as it
is.

Mentions are opt-in: the bot's default (`RummyBot`) allows none, so a mention that slipped into a
message (or one the bot writes on purpose, like the host in the lobby) pings nobody; a message
meant to ping (a turn, a check-in) names exactly its users with `pinging`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.discord import limits
from bot.service.views import Sitter


def escaped(text: str) -> str:
    """`text` as literal words in a message: markdown escaped, mentions broken (`@everyone`,
    `<@id>`, `<@&id>`), and every `<` escaped, so no channel link, timestamp or custom emoji is
    made of it either."""
    plain = discord.utils.escape_markdown(text)
    return discord.utils.escape_mentions(plain).replace("<", "\\<")


def seat_names(seats: Sequence[Sitter]) -> list[str]:
    """A table's seat names as its messages show them (`escaped`); its pictures take the raw ones."""
    return [escaped(seat.name) for seat in seats]


def pinging(users: Iterable[int] = ()) -> discord.AllowedMentions:
    """Whom a message may ping: exactly `users` (nobody if none; the first `PINGED_USERS`, as
    many as Discord takes, and more than a message's mentions fill), never a role or @everyone.
    Every field is set: a field left out of `AllowedMentions` counts as allowed."""
    named = [discord.Object(user) for user in list(dict.fromkeys(users))[: limits.PINGED_USERS]]
    return discord.AllowedMentions(everyone=False, users=named or False, roles=False, replied_user=False)


NOBODY = pinging()
