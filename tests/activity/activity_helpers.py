"""A bot serving the Activity against the Discord double, and pages' live connections to it as
a browser's would be: signed in through the double's OAuth2, then a WebSocket saying hello."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from discord_double import DiscordDouble

from bot.activity.limits import LIMITS, Limits
from bot.discord.activity import ActivitySettings
from bot.discord.bot import RummyBot
from bot.service import ManualClock, ServiceSettings, TableService, seeded, simple_policy

CARD = re.compile(r"^(?:10|[2-9AJQK])[SHDC]$|^JK$")


def web_dir(tmp_path: Path) -> Path:
    """A stand-in for the built web client (the browser tests serve the real one)."""
    folder = tmp_path / "web"
    (folder / "assets").mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text("<!doctype html><title>rummy</title>")
    return folder


def activity_bot(
    tmp_path: Path, clock: ManualClock, web: Path | None = None, limits: Limits = LIMITS
) -> RummyBot:
    def service(store, on_events):  # type: ignore[no-untyped-def]
        return TableService(
            store,
            clock=clock,
            random_source=seeded(11),
            policy=simple_policy,
            settings=ServiceSettings(computer_delay_seconds=0.0),
            on_events=on_events,
        )

    settings = ActivitySettings("fake-client-secret", "127.0.0.1", 0, web or web_dir(tmp_path), limits)
    return RummyBot(tmp_path / "rummy.db", service_factory=service, edit_delay=0, table_activity=settings)


@dataclass
class Page:
    """One page's live connection: every frame it received, in order."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    _moves: int = 0

    async def next(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame of this kind (earlier ones of other kinds are kept in `frames`)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.ws.receive()
                if message.type is not aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"the connection ended: {message.type} {self.ws.close_code}")
                self.raw.append(message.data)
                frame = json.loads(message.data)
                self.frames.append(frame)
                if frame["type"] == kind:
                    return frame

    async def state_where(self, predicate: Any, timeout: float = 5.0) -> dict[str, Any]:
        """The first state (the latest already received included) for which `predicate` holds."""
        states = [frame for frame in self.frames if frame["type"] == "state"]
        if states and predicate(states[-1]):
            return states[-1]
        async with asyncio.timeout(timeout):
            while True:
                state = await self.next("state")
                if predicate(state):
                    return state

    async def move(
        self, move: dict[str, Any], turn: str | None, client_id: str | None = None
    ) -> dict[str, Any]:
        """Sends a move and returns its answer (`done` or `refused`)."""
        return await self.ask({"type": "move", "turn": turn, "move": move}, client_id)

    async def lobby(self, action: str) -> dict[str, Any]:
        """Presses a lobby's button on the page; returns its answer (`done` or `refused`)."""
        return await self.ask({"type": "lobby", "action": action})

    async def ask(self, frame: dict[str, Any], client_id: str | None = None) -> dict[str, Any]:
        self._moves += 1
        client_id = client_id or f"m{self._moves}"
        await self.ws.send_json({**frame, "id": client_id})
        async with asyncio.timeout(5.0):
            while True:
                answer = await self.next_answer()
                if answer.get("id") == client_id:
                    return answer

    async def next_answer(self) -> dict[str, Any]:
        while True:
            message = await self.ws.receive()
            if message.type is not aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the connection ended: {message.type}")
            self.raw.append(message.data)
            frame = json.loads(message.data)
            self.frames.append(frame)
            if frame["type"] in ("done", "refused"):
                return frame


async def sign_in(double: DiscordDouble, http: aiohttp.ClientSession, base: str, user: Any) -> str:
    """What the page does: `authorize` (the double's code for the user), then our exchange."""
    async with http.post(f"{base}/api/token", json={"code": double.authorization_code(user)}) as answer:
        assert answer.status == 200, await answer.text()
        return str((await answer.json())["access_token"])


async def open_page(
    http: aiohttp.ClientSession,
    base: str,
    token: str,
    guild_id: int,
    channel_id: int,
    locale: str | None = None,
    user_id: int | None = None,
) -> tuple[Page, dict[str, Any]]:
    """A live connection that said hello (naming `user_id`, as the SDK's `authenticate` did, if
    given); returns it with the server's first answer."""
    ws = await http.ws_connect(f"{base}/api/live")
    hello = {"type": "hello", "access_token": token, "guild_id": str(guild_id), "channel_id": str(channel_id)}
    claimed = {"user_id": str(user_id)} if user_id is not None else {}
    await ws.send_json({**hello, **claimed, "locale": locale})
    page = Page(ws)
    message = await ws.receive(timeout=5)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    page.raw.append(message.data)
    first = json.loads(message.data)
    page.frames.append(first)
    return page, first


def strings(value: Any) -> list[str]:
    """Every string anywhere in a frame."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return []


def cards_in(frames: list[dict[str, Any]]) -> set[str]:
    return {text for frame in frames for text in strings(frame) if CARD.match(text)}


# What may name a card in a frame that is not the reader's own: the public piles, a pick from the
# open pile, a discard, a valid show (shown to all), and a finished deal's reveal.
PUBLIC_WITH_CARD = {"dealt", "discarded", "declared", "deal_over"}


def hidden_cards_in(frame: dict[str, Any], seat: int | None) -> list[str]:
    """Where a frame sent to `seat`'s page (None: a spectator's) names a card that page must
    not see: another seat's hand, a card picked from the closed deck, a wrong show's groups. It
    reads every field of the frame, so that a field added later is looked at too."""
    found = []
    if frame.get("type") == "state":
        hand = frame.get("hand")
        if hand is not None and hand.get("seat") != seat:
            found.append(f"the hand of seat {hand.get('seat')}")
        table = frame.get("table") or {}
        deal = ((table.get("match") or {}).get("deal")) or {}
        public = {deal.get("open_card"), deal.get("cut_joker")}
        outside = dict(table, match={**(table.get("match") or {}), "deal": None}) if table else {}
        found += [f"table: {card}" for card in cards_in([outside])]
        found += [f"deal: {card}" for card in cards_in([deal]) if card not in public]
        for event in frame.get("events", []):
            if event.get("seat") == seat and seat is not None:
                continue  # the reader's own
            if event["kind"] in PUBLIC_WITH_CARD or (
                event["kind"] == "picked" and event["data"]["source"] == "open"
            ):
                continue
            found += [f"{event['kind']}: {card}" for card in cards_in([event])]
    elif frame.get("type") in ("refused", "judged", "moved", "welcome", "elsewhere") and seat is None:
        found += [f"{frame['type']}: {card}" for card in cards_in([frame])]
    return found
