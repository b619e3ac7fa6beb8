"""What people choose for themselves, and admins for their server: typed, cached, saved.

A player's settings follow them across servers (their hand reaches them by DM); a server's hold
its defaults for new tables. Each is one JSON document in the store. A change rewrites the
document with only its own key changed, so a key this release does not know (a later release's
language, say) survives; reading takes the known keys and ignores the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.engine.rules import Rules
from bot.i18n import LANGUAGES
from bot.service.clock import Clock
from bot.service.refusals import ServiceError, saving
from bot.store import Store

DEFAULT_PRESET = "standard"


class Deck(StrEnum):
    """How a player's cards are drawn for them: red and black, or a colour per suit."""

    TWO_COLOUR = "two-colour"
    FOUR_COLOUR = "four-colour"


@dataclass(frozen=True)
class UserSettings:
    deck: Deck = Deck.TWO_COLOUR
    language: str | None = None  # chosen with `/rummy settings scope:user language:`
    seen_language: str | None = None  # their Discord app's, as last seen: for DMs they did not ask for

    @property
    def four_colour(self) -> bool:
        return self.deck is Deck.FOUR_COLOUR

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> UserSettings:
        return cls(
            deck=_known(Deck, raw.get("deck"), Deck.TWO_COLOUR),
            language=_language(raw.get("language")),
            seen_language=_language(raw.get("seen_language")),
        )


@dataclass(frozen=True)
class ServerSettings:
    rules: str | None = None  # the preset `/rummy new` uses when no `rules:` is given
    language: str | None = None  # channel posts' language; else the server's Discord locale

    @property
    def default_preset(self) -> str:
        return self.rules or DEFAULT_PRESET

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ServerSettings:
        rules = raw.get("rules")
        return cls(
            rules=rules if rules in Rules.PRESET_NAMES else None, language=_language(raw.get("language"))
        )


def _language(value: Any) -> str | None:
    return value if value in LANGUAGES else None


def _chosen_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ServiceError("A language is {languages}.", languages=" or ".join(LANGUAGES))
    return language


def _known(kind: type[Deck], value: Any, default: Deck) -> Deck:
    """A stored value this release knows, else the default (a damaged or newer document must not
    keep a player's hand from being drawn). Looked up, not tried: most players never chose, and
    the enum's refusal of None, raised and caught, cost more than the rest of reading their
    settings, which is done for every hand drawn."""
    return next((member for member in kind if member.value == value), default)


class Preferences:
    """The settings of users and servers, read once from the store and then kept in memory (a
    hand is drawn on every move, and each time the player's deck is asked for).

    `users_for`: seconds a user's settings are kept before they are read again, for a bot
    sharded over several processes (each keeps its own copy, and a player changes theirs in
    whichever process runs the server they are in); None, as one process: kept for good. A
    server's settings are only ever changed in the process that runs it."""

    def __init__(self, store: Store, clock: Clock, *, users_for: float | None = None) -> None:
        self.store = store
        self.clock = clock
        self.users_for = users_for
        self._users: dict[int, dict[str, Any]] = {}
        self._users_read: dict[int, float] = {}  # when each user's settings were read or saved
        self._servers: dict[int, dict[str, Any]] = {}

    async def user(self, user_id: int) -> UserSettings:
        return UserSettings.from_json(await self._user_raw(user_id))

    async def server(self, guild_id: int) -> ServerSettings:
        return ServerSettings.from_json(await self._server_raw(guild_id))

    async def set_deck(self, user_id: int, deck: str) -> UserSettings:
        try:
            chosen = Deck(deck)
        except ValueError:
            raise ServiceError("A deck is {decks}.", decks=" or ".join(Deck)) from None
        return await self._save_user(user_id, "deck", chosen.value)

    async def set_language(self, user_id: int, language: str) -> UserSettings:
        """The language a player chose for their answers and DMs, whatever their Discord app's."""
        return await self._save_user(user_id, "language", _chosen_language(language))

    async def saw_language(self, user_id: int, language: str) -> None:
        """Their Discord app's language, kept for the DMs the bot sends unasked; written only
        when it changed, as it is seen on every interaction."""
        if (await self.user(user_id)).seen_language != language and language in LANGUAGES:
            await self._save_user(user_id, "seen_language", language)

    async def _save_user(self, user_id: int, key: str, value: str) -> UserSettings:
        raw = {**await self._user_raw(user_id), key: value}
        with saving():  # a disk that takes nothing is said as for a move, never as "saved"
            await self.store.set_user_settings(user_id, raw, self.clock.now())
        self._users[user_id] = raw  # after the save: memory never shows what was not kept
        self._users_read[user_id] = self.clock.now()
        return UserSettings.from_json(raw)

    async def set_server_language(self, guild_id: int, language: str, *, can_manage: bool) -> ServerSettings:
        self._may_manage(can_manage)
        return await self._save_server(guild_id, "language", _chosen_language(language))

    def _may_manage(self, can_manage: bool) -> None:
        if not can_manage:
            raise ServiceError("Only members with Manage Server can change this server's settings.")

    async def _save_server(self, guild_id: int, key: str, value: str) -> ServerSettings:
        raw = {**await self._server_raw(guild_id), key: value}
        with saving():
            await self.store.set_guild_settings(guild_id, raw, self.clock.now())
        self._servers[guild_id] = raw
        return ServerSettings.from_json(raw)

    async def set_default_rules(self, guild_id: int, preset: str, *, can_manage: bool) -> ServerSettings:
        self._may_manage(can_manage)
        if preset not in Rules.PRESET_NAMES:
            names = ", ".join(Rules.PRESET_NAMES)
            raise ServiceError(
                "There is no rules preset '{name}'. Presets: {names}.", name=preset, names=names
            )
        return await self._save_server(guild_id, "rules", preset)

    async def _user_raw(self, user_id: int) -> dict[str, Any]:
        now = self.clock.now()
        stale = self.users_for is not None and now - self._users_read.get(user_id, now) >= self.users_for
        if user_id not in self._users or stale:
            self._users[user_id] = await self.store.user_settings(user_id)
            self._users_read[user_id] = now
        return self._users[user_id]

    async def _server_raw(self, guild_id: int) -> dict[str, Any]:
        if guild_id not in self._servers:
            self._servers[guild_id] = await self.store.guild_settings(guild_id)
        return self._servers[guild_id]
