"""What the double remembers: users, messages, interactions and every request the bot made.

Kept apart from the server so assertions in tests read plain dataclasses, not aiohttp objects.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 1 << 6


@dataclass(frozen=True)
class FakeUser:
    """A Discord account the tests act as (or the bot itself)."""

    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class SentFile:
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Recorded:
    """One HTTP request the bot made, with whom it was addressed to once the handler knew.

    `to_user` is set when only that user can see the result (DM or ephemeral interaction reply);
    `channel_id` when it lands in a channel everyone there can read. Both are None for requests
    that carry no message (login, command sync, ...).
    """

    method: str
    path: str
    query: dict[str, str]
    json: Any = None
    payload_json: Any = None
    files: list[SentFile] = field(default_factory=list)
    status: int = 0
    channel_id: int | None = None
    to_user: int | None = None
    interaction_id: int | None = None
    message_id: int | None = None
    token: str = ""  # the bot token it was sent with (none on interaction callbacks and webhooks)
    at: float = 0.0  # when the double received it (the event loop's clock)
    peer: str = ""  # the address it came from (`launch.py` can give each bot process its own)

    @property
    def body(self) -> Any:
        """The JSON the bot meant, whether it came as a plain body or as multipart `payload_json`."""
        return self.payload_json if self.payload_json is not None else self.json

    @property
    def public(self) -> bool:
        return self.to_user is None and self.channel_id is not None


@dataclass
class StoredMessage:
    """A message as Discord would hand it back, plus who can see it."""

    payload: dict[str, Any]
    files: dict[int, SentFile] = field(default_factory=dict)
    to_user: int | None = None  # set for DMs and ephemeral replies

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.payload.get("flags", 0) & EPHEMERAL)

    def snapshot(self) -> dict[str, Any]:
        """A frozen copy of the message as a user's client shows it now, for stale-press tests."""
        return copy.deepcopy(self.payload)

    def custom_ids(self) -> list[str]:
        return [
            c["custom_id"] for c in walk_components(self.payload.get("components", [])) if "custom_id" in c
        ]


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flatten action rows and v2 containers so a custom_id is found wherever it sits."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        for key in ("components", "accessory"):
            child = comp.get(key)
            if isinstance(child, list):
                out.extend(walk_components(child))
            elif isinstance(child, dict):
                out.extend(walk_components([child]))
    return out


@dataclass
class FakeInteraction:
    """One interaction a simulated user started, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    source_message_id: int | None = None  # the message whose component was used
    callback: dict[str, Any] | None = None
    original_message_id: int | None = None
    ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)
    created: float = field(default_factory=lambda: asyncio.get_running_loop().time())
    expired: bool = False

    @property
    def response_type(self) -> int | None:
        return None if self.callback is None else self.callback.get("type")

    @property
    def response_data(self) -> dict[str, Any]:
        return {} if self.callback is None else (self.callback.get("data") or {})
