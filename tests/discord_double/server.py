"""A small fake of Discord's REST API and gateway, served on 127.0.0.1 for the real discord.py client.

The point is to test the bot's Discord front end through the unmodified library, so the payloads
here follow what discord.py actually reads (see the notes in README.md next to this file), not the
whole of Discord's API. Everything runs in the test's event loop: no threads, no real network.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import re
import secrets
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from . import limits, spec
from .actions import UserActions
from .problems import Problem, Violation, error_body
from .records import (
    EPHEMERAL,
    FakeInteraction,
    FakeUser,
    Recorded,
    SentFile,
    StoredMessage,
)

API_PREFIX = "/api/v10"
LOADING = 1 << 7
LAUNCH_ACTIVITY = 12  # the interaction callback that opens the application's Activity
# Routes Discord documents (docs.discord.com, "OAuth2": the token URL) that its OpenAPI
# description leaves out: checked by their handlers, not against the description.
OUTSIDE_DESCRIPTION = {("POST", "/oauth2/token")}
REC = web.RequestKey("rec", Recorded)
ALL_PERMISSIONS = str((1 << 53) - 1)
APP_PERMISSIONS = str((1 << 53) - 1)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Discord's JSON error codes the bot is expected to handle.
CANNOT_DM = 50007
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
INVALID_WEBHOOK_TOKEN = 50027
UNKNOWN_EVENT = 10070
ALREADY_ACKNOWLEDGED = 40060
# What Discord answers a route it does not have, or a method a route does not take.
NOT_FOUND = {"message": "404: Not Found", "code": 0}
METHOD_NOT_ALLOWED = {"message": "405: Method Not Allowed", "code": 0}
# The routes the documented limits know, for matching requests when the description is missing.
LIMITED_ROUTES = spec.Routes({template for _, template in limits.CHECKS})


def _now() -> str:
    return datetime.now(UTC).isoformat()


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """discord.py only decodes a body whose Content-Type is exactly `application/json`.

    aiohttp's own `json_response` appends `; charset=utf-8`, which makes the client hand the
    raw text to code expecting a dict, so the header is set by hand.
    """
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class DiscordError(Exception):
    """Raised inside handlers to answer with Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> web.Response:
        return json_response({"message": self.message, "code": self.code}, status=self.status)


class Refused(Exception):
    """Raised inside handlers for a request Discord refuses given what the double remembers (a
    scheduled event's status, the message an update is for): a violation, like a bad body."""

    def __init__(self, *problems: Problem) -> None:
        super().__init__("; ".join(map(str, problems)))
        self.problems = list(problems)


@dataclass
class Injection:
    method: str
    path: re.Pattern[str]
    status: int
    body: Any
    headers: dict[str, str]
    times: int | None  # None: forever


@dataclass
class _Bucket:
    """One per-route rate limit bucket: requests counted in a fixed window from the first."""

    ends: float = 0.0
    used: int = 0


@dataclass
class Limits:
    """Discord's rate limits as the double enforces them (`DiscordDouble.enforce_limits`)."""

    global_per_second: int = 50  # every request but interaction answers, per bot
    per_route: int = 5  # per route and major parameter (channel, guild, webhook) ...
    route_window: float = 5.0  # ... in this many seconds
    given: list[tuple[float, bool, str]] = field(default_factory=list)  # 429s: when, global?, path
    _recent: deque[float] = field(default_factory=deque)  # the last second's counted requests
    _buckets: dict[tuple[str, str, str], _Bucket] = field(default_factory=dict)


@dataclass
class _Session:
    id: str
    shard: tuple[int, int] = (0, 1)  # IDENTIFY's [shard_id, shard_count]
    seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)


class _Connection:
    """One gateway websocket; sends are serialised so concurrent dispatches keep their sequence order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: _Session | None = None
        self.lock = asyncio.Lock()

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def dispatch(self, event: str, data: Any) -> None:
        assert self.session is not None
        async with self.lock:
            self.session.seq += 1
            frame = {"op": 0, "t": event, "s": self.session.seq, "d": data}
            self.session.log.append(frame)
            await self.send(frame)


class DiscordDouble(UserActions):
    """Fake Discord: a guild (more with `add_guild`), some users, REST on `api_base` and a
    gateway on `gateway_url`; a sharded bot's connections each get their own guilds' events.

    State (messages, DM channels, commands, interactions) lives here, not in any client, so a
    bot can be closed and a new one started against the same double to simulate a restart.
    """

    def __init__(
        self,
        *,
        users: Iterable[str] = ("alice", "bob", "carol", "dave"),
        channels: Iterable[str] = ("general",),
        guild_name: str = "Rummy Club",
        heartbeat_interval_ms: int = 41_250,
        answer_window: float | None = None,
    ) -> None:
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        # Discord refuses a first answer after 3 s; off by default so slow CI machines don't flake.
        self.answer_window = answer_window
        self.application_id = self.snowflake()
        self.bot_user = FakeUser(self.application_id, "RummyBot", bot=True)
        self.owner = FakeUser(self.snowflake(), "owner")
        self.guild_id = self.snowflake()
        self.guild_name = guild_name
        self.guilds: dict[int, str] = {self.guild_id: guild_name}  # every guild, by id: its name
        self.shard_count = 1  # what `GET /gateway/bot` recommends
        self.users: dict[int, FakeUser] = {}
        self.members: set[int] = {self.bot_user.id}
        self.channels: dict[int, dict[str, Any]] = {}
        self.roles: dict[int, dict[str, Any]] = {
            self.guild_id: {
                "id": str(self.guild_id),
                "name": "@everyone",
                "permissions": ALL_PERMISSIONS,
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        }
        self.messages: dict[int, StoredMessage] = {}
        self.deleted_messages: dict[int, StoredMessage] = {}
        self.requests: list[Recorded] = []
        # Requests Discord would have refused (see `expect_violations`); the test fails at the end if any.
        self.violations: list[Violation] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        self.permissions: dict[int, int] = {}  # user id -> permissions in interactions (default: all)
        self.app_permissions: dict[int, int] = {}  # channel id -> the bot's permissions there (default: all)
        self.locales: dict[int, str] = {}  # user id -> their Discord app's language (default: en-US)
        self.guild_locale = "en-US"  # the server's preferred locale (Discord sets it for Community servers)
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.tokens_seen: list[str] = []
        # OAuth2 for an Activity's page: codes `authorize` gave (one exchange each) and the
        # access tokens exchanged for them, each the user's it was given to
        self.client_secret = "fake-client-secret"
        self.oauth_codes: dict[str, int] = {}
        self.access_tokens: dict[str, int] = {}
        self.activity_launches: list[FakeInteraction] = []  # answered with LAUNCH_ACTIVITY (12)
        self.identify_count = 0
        self.resume_count = 0
        self._dm_closed_send: set[int] = set()
        self._dm_closed_create: set[int] = set()
        self._missing_channels: set[int] = set()
        self._injections: list[Injection] = []
        self._holds: list[tuple[str, re.Pattern[str], asyncio.Event]] = []
        self.limits: Limits | None = None  # Discord's rate limits, off unless `enforce_limits`
        self._sessions: dict[str, _Session] = {}
        self._connections: list[_Connection] = []
        self._changed: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0
        for name in users:
            self.add_user(name)
        self.channel_id = 0
        for name in channels:
            cid = self.add_channel(name)
            self.channel_id = self.channel_id or cid

    # ----------------------------------------------------------------- setup

    def snowflake(self) -> int:
        return next(self._ids)

    def add_user(self, name: str, *, member: bool = True) -> FakeUser:
        user = FakeUser(self.snowflake(), name)
        self.users[user.id] = user
        if member:
            self.members.add(user.id)
        return user

    def user(self, name: str) -> FakeUser:
        """Look a user up by name, so tests read `double.user("alice")`."""
        for user in self.users.values():
            if user.name == name:
                return user
        raise KeyError(f"no fake user named {name!r}; known: {[u.name for u in self.users.values()]}")

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> int:
        """Another guild (every user is a member, the bot too); `shard=(id, count)` gives it an
        id on that shard by Discord's formula, `(guild_id >> 22) % count`."""
        gid = self.snowflake()
        if shard is not None:
            wanted, count = shard
            high = gid >> 22
            gid = ((high + (wanted - high) % count) << 22) | (gid & ((1 << 22) - 1))
        self.guilds[gid] = name
        return gid

    def guild_of(self, channel_id: int) -> int | None:
        """The guild a channel (or thread) is in; None for a DM channel."""
        gid = self.channels.get(channel_id, {}).get("guild_id")
        return int(gid) if gid else None

    def add_channel(self, name: str, *, guild_id: int | None = None) -> int:
        cid = self.snowflake()
        self.channels[cid] = {
            "id": str(cid),
            "type": 0,
            "guild_id": str(guild_id or self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        return cid

    # ------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for `discord.http.Route.BASE`."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Value for `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` (wrap in `yarl.URL`)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def __aenter__(self) -> DiscordDouble:
        self._changed = asyncio.Condition()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app.router)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, exc_type: object, *exc: object) -> None:
        for conn in list(self._connections):
            await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self.violations and exc_type is None:
            listed = "\n".join(map(str, self.violations))
            raise AssertionError(f"the bot sent {len(self.violations)} request(s) Discord refuses:\n{listed}")

    # ------------------------------------------------------------ validation

    @contextlib.contextmanager
    def expect_violations(self, match: str | None = None) -> Iterator[list[Violation]]:
        """For a test that makes the bot send what Discord refuses, on purpose: the violations
        recorded inside the block are moved into the list it yields, so they do not fail the
        test; the block fails if there were none, or (`match`, a regex searched in each
        violation's text) if one is not the kind expected."""
        start = len(self.violations)
        seen: list[Violation] = []
        try:
            yield seen
        finally:
            seen.extend(self.violations[start:])
            del self.violations[start:]
        if not seen:
            raise AssertionError("expected the bot to send a request Discord refuses; it sent none")
        unexpected = [v for v in seen if match is not None and not re.search(match, str(v))]
        if unexpected:
            listed = "\n".join(map(str, unexpected))
            raise AssertionError(f"refused requests not matching {match!r}:\n{listed}")

    def _validate(self, rec: Recorded) -> Violation | None:
        """Check a request against Discord's description and its documented limits (README)."""
        if (rec.method, rec.path) in OUTSIDE_DESCRIPTION:
            return None  # its handler checks what Discord's docs say it takes
        described = spec.load()
        if described is not None:
            outcome = described.check(rec.method, rec.path, rec.query, rec.body)
        else:
            found = LIMITED_ROUTES.match(rec.path)
            outcome = spec.Outcome(None if found is None else found[0])
        problems = list(outcome.problems)
        if outcome.template is not None and outcome.status != 405:
            more = limits.check(rec.method, outcome.template, rec.body, len(rec.files))
            problems += [p for p in more if p not in problems]
        if not problems:
            return None
        return Violation(
            rec.method, rec.path, problems, 400 if outcome.status == 200 else outcome.status, rec.body
        )

    def _refuse(self, violation: Violation) -> web.Response:
        self.violations.append(violation)
        if violation.status == 404:
            return json_response(NOT_FOUND, status=404)
        if violation.status == 405:
            return json_response(METHOD_NOT_ALLOWED, status=405)
        return json_response(error_body(violation.problems), status=400)

    # ------------------------------------------------------- failure injection

    def close_dms(self, user: FakeUser | int, *, at: str = "send") -> None:
        """Make DMs to `user` fail with 403 50007, as for a user who blocks DMs from server members.

        Discord itself lets the DM channel be created and refuses the message (`at="send"`);
        `at="create"` refuses already at `POST /users/@me/channels`.
        """
        uid = _uid(user)
        (self._dm_closed_create if at == "create" else self._dm_closed_send).add(uid)

    def set_app_permissions(self, channel_id: int, permissions: int) -> None:
        """The bot's own permissions in a channel as interactions report them
        (`Interaction.app_permissions`); messages are not refused for it (see README)."""
        self.app_permissions[channel_id] = permissions

    def set_permissions(self, user: FakeUser | int, permissions: int) -> None:
        """The member's resolved permissions in their interactions (`Interaction.permissions`), for
        commands that check e.g. Manage Server; by default every member has every permission."""
        self.permissions[_uid(user)] = permissions

    def set_locale(self, user: FakeUser | int, locale: str) -> None:
        """The language of the user's Discord app, sent as `locale` in their interactions."""
        self.locales[_uid(user)] = locale

    def authorization_code(self, user: FakeUser | int) -> str:
        """What Discord's `authorize` (scope `identify`) gives an Activity's page for `user`: a
        code the application exchanges once, with its client secret, at `POST /oauth2/token`."""
        code = secrets.token_hex(12)
        self.oauth_codes[code] = _uid(user)
        return code

    def open_dms(self, user: FakeUser | int) -> None:
        uid = _uid(user)
        self._dm_closed_send.discard(uid)
        self._dm_closed_create.discard(uid)

    def remove_channel(self, channel_id: int) -> None:
        """Every request on the channel answers 404 Unknown Channel (10003) from now on."""
        self._missing_channels.add(channel_id)

    def inject(
        self,
        method: str,
        path: str,
        status: int,
        body: Any,
        *,
        times: int | None = 1,
        headers: dict[str, str] | None = None,
    ) -> Injection:
        """Answer the next `times` requests whose path (after /api/v10) fully matches the regex `path`."""
        inj = Injection(method.upper(), re.compile(path), status, body, headers or {}, times)
        self._injections.append(inj)
        return inj

    def hold(self, method: str, path: str) -> asyncio.Event:
        """Requests whose path (after /api/v10) fully matches `path` wait for their answer until
        the returned event is set (a slow Discord: a login held back, say)."""
        released = asyncio.Event()
        self._holds.append((method.upper(), re.compile(path), released))
        return released

    def rate_limit(
        self, method: str, path: str, *, retry_after: float = 0.05, times: int = 1, is_global: bool = False
    ) -> Injection:
        """A 429 discord.py will honour and retry: it needs the `Via` header, else it treats it as a ban."""
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(retry_after),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": str(retry_after),
            "X-RateLimit-Bucket": "fake-bucket",
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return self.inject(method, path, 429, body, times=times, headers=headers)

    def enforce_limits(
        self, global_per_second: int = 50, per_route: int = 5, route_window: float = 5.0
    ) -> Limits:
        """From now on, answer as Discord does past its rate limits: more than `global_per_second`
        requests in any second (interaction answers aside) get a global 429, and more than
        `per_route` on one route and major parameter (a channel, a guild, a webhook) within
        `route_window` seconds a route 429,
        each with `retry_after`, `Via` and `X-RateLimit-*` headers discord.py honours. Every
        answer carries the route's bucket headers, which discord.py reads to wait before it
        would meet a route limit. The 429s given are in `limits.given`."""
        self.limits = Limits(global_per_second, per_route, route_window)
        return self.limits

    def _rate_limit(self, rec: Recorded) -> tuple[web.Response | None, dict[str, str]]:
        """A 429 if the request is over a limit, and the route's bucket headers either way."""
        limits = self.limits
        if limits is None or rec.path.startswith("/interactions/"):
            return None, {}
        now = asyncio.get_running_loop().time()
        if not rec.path.startswith("/webhooks/"):  # interaction webhooks are outside the global limit
            while limits._recent and limits._recent[0] <= now - 1.0:
                limits._recent.popleft()
            if len(limits._recent) >= limits.global_per_second:
                retry = limits._recent[0] + 1.0 - now
                limits.given.append((now, True, rec.path))
                headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
                return _too_many(retry, True, headers), {}
        template, major = _route(rec.path)
        if not major:  # only a channel's, a guild's or a webhook's routes have limits of their own
            limits._recent.append(now)
            return None, {}
        bucket = limits._buckets.setdefault((rec.method, template, major), _Bucket())
        if now >= bucket.ends:
            bucket.ends, bucket.used = now + limits.route_window, 0
        reset_after = bucket.ends - now
        headers = {
            "X-RateLimit-Limit": str(limits.per_route),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{datetime.now(UTC).timestamp() + reset_after:.3f}",
            "X-RateLimit-Bucket": f"{zlib.crc32(f'{rec.method} {template}'.encode()):08x}",
        }
        if bucket.used >= limits.per_route:
            limits.given.append((now, False, rec.path))
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user"})
            return _too_many(reset_after, False, headers), {}
        bucket.used += 1
        if not rec.path.startswith("/webhooks/"):
            limits._recent.append(now)
        headers["X-RateLimit-Remaining"] = str(limits.per_route - bucket.used)
        return None, headers

    def _take_injection(self, rec: Recorded) -> web.Response | None:
        for inj in self._injections:
            if inj.method == rec.method and inj.path.fullmatch(rec.path) and inj.times != 0:
                if inj.times is not None:
                    inj.times -= 1
                return json_response(inj.body, status=inj.status, headers=inj.headers)
        return None

    # ------------------------------------------------------------ recording

    async def _middleware_impl(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        rec = Recorded(request.method, request.path[len(API_PREFIX) :], dict(request.query))
        rec.token = request.headers.get("Authorization", "").removeprefix("Bot ")
        rec.at = asyncio.get_running_loop().time()
        rec.peer = request.remote or ""
        await _parse_body(request, rec)
        self.requests.append(rec)
        request[REC] = rec
        for method, path, released in self._holds:
            if method == rec.method and path.fullmatch(rec.path):
                await released.wait()
        violation = self._validate(rec)
        response = self._take_injection(rec)
        limited, bucket = self._rate_limit(rec) if response is None else (None, {})
        response = response or limited
        if response is None and violation is not None:
            response = self._refuse(violation)
        elif violation is not None:  # answered otherwise, but the bot did send it
            self.violations.append(violation)
        if response is None:
            try:
                response = await handler(request)
            except DiscordError as exc:
                response = exc.response()
            except Refused as exc:
                response = self._refuse(Violation(rec.method, rec.path, exc.problems, 400, rec.body))
            except web.HTTPException as exc:
                response = json_response({"message": f"{exc.status}: {exc.reason}", "code": 0}, exc.status)
            response.headers.update(bucket)
        rec.status = response.status
        await self._notify()
        return response

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        return await self._middleware_impl(request, handler)

    async def _notify(self) -> None:
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = 5.0) -> Any:
        """Wait until `predicate()` is truthy; it is re-checked after every request the bot makes."""
        assert self._changed is not None

        async def waiter() -> Any:
            async with self._changed:
                return await self._changed.wait_for(predicate)

        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            raise AssertionError(f"condition not met within {timeout}s: {predicate}") from None

    def requests_matching(self, method: str | None = None, path: str | None = None) -> list[Recorded]:
        """Recorded requests by method and a regex that must match the whole path after /api/v10."""
        return [
            r
            for r in self.requests
            if (method is None or r.method == method.upper()) and (path is None or re.fullmatch(path, r.path))
        ]

    def messages_to(self, channel_id: int, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Messages (any route, interaction replies included) that landed in a channel, oldest first."""
        pool = list(self.messages.values())
        if include_deleted:
            pool += list(self.deleted_messages.values())
        return sorted((m for m in pool if m.channel_id == channel_id), key=lambda m: m.id)

    def dms_to(self, user: FakeUser | int) -> list[StoredMessage]:
        cid = self.dm_channels.get(_uid(user))
        return [] if cid is None else self.messages_to(cid)

    def ephemerals_to(self, user: FakeUser | int) -> list[StoredMessage]:
        uid = _uid(user)
        return sorted(
            (m for m in self.messages.values() if m.ephemeral and m.to_user == uid), key=lambda m: m.id
        )

    def files_sent_to(self, user: FakeUser | int, *, delivered_only: bool = True) -> list[SentFile]:
        """Files only `user` could see (DMs and ephemeral replies), over every request incl. edits."""
        uid = _uid(user)
        return [
            f
            for r in self.requests
            if r.to_user == uid and (not delivered_only or 200 <= r.status < 300)
            for f in r.files
        ]

    def public_files(self, *, delivered_only: bool = True) -> list[SentFile]:
        """Files posted where everyone in a channel could see them."""
        return [
            f
            for r in self.requests
            if r.public and (not delivered_only or 200 <= r.status < 300)
            for f in r.files
        ]

    def deliveries(self, *, delivered_only: bool = True) -> list[tuple[int | None, SentFile, Recorded]]:
        """Every file the bot sent, with its audience: a user id, or None when a channel saw it."""
        return [
            (r.to_user, f, r)
            for r in self.requests
            if (r.to_user is not None or r.channel_id is not None)
            and (not delivered_only or 200 <= r.status < 300)
            for f in r.files
        ]

    def files_seen_by(self, user: FakeUser | int) -> list[SentFile]:
        """Everything `user` could have looked at: their private files plus every public one."""
        return self.files_sent_to(user) + self.public_files()

    def message(self, message_id: int) -> StoredMessage:
        return self.messages[message_id]

    # -------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _Connection(ws)
        await conn.send(
            {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                await self._gateway_op(conn, frame.get("op"), frame.get("d"))
        finally:
            if conn in self._connections:
                self._connections.remove(conn)
            await self._notify()
        return ws

    async def _gateway_op(self, conn: _Connection, op: int, data: Any) -> None:
        if op == 1:  # heartbeat
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # identify
            self.identify_count += 1
            self.tokens_seen.append(data.get("token", ""))
            shard = data.get("shard") or [0, 1]
            session = _Session(f"session-{self.snowflake()}", (int(shard[0]), int(shard[1])))
            self._sessions[session.id] = session
            conn.session = session
            self._connections.append(conn)
            await conn.dispatch("READY", self._ready_payload(session))
            for gid in self._guilds_on(session.shard):
                await conn.dispatch("GUILD_CREATE", self.guild_payload(gid))
            await self._notify()
        elif op == 6:  # resume
            session = self._sessions.get(data.get("session_id"))
            if session is None:
                await conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            self.resume_count += 1
            conn.session = session
            async with conn.lock:
                for frame in session.log:
                    if frame["s"] > (data.get("seq") or 0):
                        await conn.send(frame)
            await conn.dispatch("RESUMED", {})
            self._connections.append(conn)
            await self._notify()

    def _guilds_on(self, shard: tuple[int, int]) -> list[int]:
        return [gid for gid in self.guilds if (gid >> 22) % shard[1] == shard[0]]

    def _ready_payload(self, session: _Session) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(gid), "unavailable": True} for gid in self._guilds_on(session.shard)],
            "shard": list(session.shard),
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        gid = guild_id or self.guild_id
        here = [c for c in self.channels.values() if c.get("guild_id") == str(gid)]
        guild_channels = [c for c in here if c["type"] in (0, 2, 4, 5)]
        threads = [c for c in here if c["type"] in (10, 11, 12)]
        roles = (
            list(self.roles.values())
            if gid == self.guild_id
            else [{**self.roles[self.guild_id], "id": str(gid)}]
        )
        return {
            "id": str(gid),
            "name": self.guilds[gid],
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "joined_at": _now(),
            "features": [],
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "channels": copy.deepcopy(guild_channels),
            "threads": copy.deepcopy(threads),
            "members": [self.member_payload(uid) for uid in sorted(self.members)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [
                e for e in self.scheduled_events.values() if e["guild_id"] == str(gid)
            ],
            "preferred_locale": self.guild_locale,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
        }

    def member_payload(self, uid: int, *, permissions: bool = False) -> dict[str, Any]:
        user = self.bot_user if uid == self.bot_user.id else self.users[uid]
        data = {
            "user": user.payload(),
            "roles": [],
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if permissions:
            data["permissions"] = str(self.permissions.get(uid, int(ALL_PERMISSIONS)))
        return data

    @property
    def connected(self) -> bool:
        return bool(self._connections)

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a DISPATCH to every identified client whose shard it belongs to, as Discord does
        for each session: a guild's events to its shard, `(guild_id >> 22) % count`, and the
        rest (DMs) to shard 0."""
        gid = int(data["guild_id"]) if isinstance(data, dict) and data.get("guild_id") else 0
        sent = 0
        for conn in list(self._connections):
            if conn.ws.closed:  # a bot closing right now; its handler has not unregistered it yet
                continue
            assert conn.session is not None
            shard, count = conn.session.shard
            if (gid >> 22) % count != shard:
                continue
            try:
                await conn.dispatch(event, data)
            except ConnectionError:
                continue
            sent += 1
        if not sent:
            raise AssertionError("no bot is connected to the double's gateway")

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's websocket from the server side; discord.py then reconnects and RESUMEs."""
        for conn in list(self._connections):
            self._connections.remove(conn)
            await conn.ws.close(code=code)

    # ------------------------------------------------------------ REST routes

    def _add_routes(self, r: web.UrlDispatcher) -> None:
        p = API_PREFIX
        r.add_get("/gateway", self._gateway)
        r.add_get("/attachments/{aid}/{filename}", self._attachment_cdn)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway)
        r.add_get(p + "/users/@me", self._get_me)
        r.add_get(p + "/oauth2/applications/@me", self._get_app)
        r.add_post(p + "/oauth2/token", self._oauth_token)
        r.add_post(p + "/users/@me/channels", self._create_dm)
        r.add_get(p + "/users/{uid}", self._get_user)
        r.add_get(p + "/guilds/{gid}/members/{uid}", self._get_member)
        for scope in ("/applications/{app}/commands", "/applications/{app}/guilds/{gid}/commands"):
            r.add_put(p + scope, self._put_commands)
            r.add_get(p + scope, self._get_commands)
            r.add_post(p + scope, self._post_command)
            r.add_delete(p + scope + "/{cmd}", self._delete_command)
        r.add_get(p + "/channels/{cid}", self._get_channel)
        r.add_post(p + "/channels/{cid}/typing", self._no_content)
        r.add_post(p + "/channels/{cid}/messages", self._post_message)
        r.add_get(p + "/channels/{cid}/messages", self._history)
        r.add_get(p + "/channels/{cid}/messages/{mid}", self._get_message)
        r.add_patch(p + "/channels/{cid}/messages/{mid}", self._patch_message)
        r.add_delete(p + "/channels/{cid}/messages/{mid}", self._delete_message)
        r.add_post(p + "/channels/{cid}/threads", self._create_thread)
        r.add_post(p + "/channels/{cid}/messages/{mid}/threads", self._create_thread)
        r.add_put(p + "/channels/{cid}/thread-members/{uid}", self._no_content)
        r.add_post(p + "/interactions/{iid}/{token}/callback", self._interaction_callback)
        r.add_post(p + "/webhooks/{app}/{token}", self._followup)
        r.add_get(p + "/webhooks/{app}/{token}/messages/{mid}", self._get_webhook_message)
        r.add_patch(p + "/webhooks/{app}/{token}/messages/{mid}", self._patch_webhook_message)
        r.add_delete(p + "/webhooks/{app}/{token}/messages/{mid}", self._delete_webhook_message)
        r.add_get(p + "/guilds/{gid}/scheduled-events", self._list_events)
        r.add_post(p + "/guilds/{gid}/scheduled-events", self._create_event)
        r.add_get(p + "/guilds/{gid}/scheduled-events/{eid}", self._get_event)
        r.add_patch(p + "/guilds/{gid}/scheduled-events/{eid}", self._patch_event)
        r.add_delete(p + "/guilds/{gid}/scheduled-events/{eid}", self._delete_event)

    async def _no_content(self, request: web.Request) -> web.Response:
        if "cid" in request.match_info:
            self._channel(int(request.match_info["cid"]))
        return web.Response(status=204)

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        authorization = request.headers.get("Authorization", "")
        self.tokens_seen.append(authorization)
        if authorization.startswith("Bearer "):  # a user's OAuth2 token: that user, as `identify` shows
            uid = self.access_tokens.get(authorization.removeprefix("Bearer "))
            if uid is None or uid not in self.users:
                raise DiscordError(401, 0, "401: Unauthorized")
            locale = self.locales.get(uid, "en-US")
            return json_response({**self.users[uid].payload(), "locale": locale, "mfa_enabled": False})
        return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """The authorization-code exchange: form fields, the application's id and secret, a code
        `authorization_code` gave and not yet exchanged. Discord's OAuth2 errors are `error`."""
        form = await request.post()
        if (
            form.get("client_id") != str(self.application_id)
            or form.get("client_secret") != self.client_secret
        ):
            return json_response({"error": "invalid_client"}, status=401)
        uid = self.oauth_codes.pop(str(form.get("code", "")), None)
        if form.get("grant_type") != "authorization_code" or uid is None:
            return json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_hex(16)
        self.access_tokens[token] = uid
        return json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_hex(16),
                "scope": "identify",
            }
        )

    async def _get_app(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user.payload(),
                # anything else makes discord.py warn that it will receive no interactions
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        uid = int(request.match_info["uid"])
        user = self.bot_user if uid == self.bot_user.id else self.users.get(uid)
        if user is None:
            raise DiscordError(404, UNKNOWN_USER, "Unknown User")
        return json_response(user.payload())

    async def _get_member(self, request: web.Request) -> web.Response:
        uid = int(request.match_info["uid"])
        if uid not in self.members:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(self.member_payload(uid))

    async def _attachment_cdn(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["aid"])
        for msg in itertools.chain(self.messages.values(), self.deleted_messages.values()):
            if aid in msg.files:
                return web.Response(body=msg.files[aid].data, content_type="application/octet-stream")
        raise web.HTTPNotFound()

    # ------------------------------------------------------- app commands

    def _command_scope(self, request: web.Request) -> dict[str, dict[str, Any]]:
        if int(request.match_info["app"]) != self.application_id:
            raise DiscordError(404, 10002, "Unknown Application")
        gid = request.match_info.get("gid")
        if gid is None:
            return self.global_commands
        return self.guild_commands.setdefault(int(gid), {})

    def _store_command(
        self, scope: dict[str, dict[str, Any]], cmd: dict[str, Any], gid: str | None
    ) -> dict[str, Any]:
        old = scope.get(cmd["name"])
        stored = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **cmd,
            "id": old["id"] if old else str(self.snowflake()),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
        }
        if gid is not None:
            stored["guild_id"] = gid
        scope[cmd["name"]] = stored
        return stored

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        gid = request.match_info.get("gid")
        body = request[REC].body or []
        previous = dict(scope)
        scope.clear()
        out = []
        for cmd in body:
            if cmd["name"] in previous:
                scope[cmd["name"]] = previous[cmd["name"]]
            out.append(self._store_command(scope, cmd, gid))
        return json_response(out)

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(list(self._command_scope(request).values()))

    async def _post_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        return json_response(self._store_command(scope, request[REC].body, request.match_info.get("gid")))

    async def _delete_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        for name, cmd in list(scope.items()):
            if cmd["id"] == request.match_info["cmd"]:
                del scope[name]
        return web.Response(status=204)

    # ---------------------------------------------------------- channels

    def _channel(self, cid: int) -> dict[str, Any]:
        if cid in self._missing_channels or cid not in self.channels:
            raise DiscordError(404, UNKNOWN_CHANNEL, "Unknown Channel")
        return self.channels[cid]

    def _audience(self, cid: int) -> int | None:
        """The one user who can read a DM channel; None for channels any member can read."""
        ch = self.channels.get(cid)
        if ch is not None and ch["type"] == 1:
            return int(ch["recipients"][0]["id"])
        return None

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(int(request.match_info["cid"])))

    def dm_channel(self, user: FakeUser | int) -> int:
        """The DM channel between the bot and `user`, opened if needed (e.g. to run a command in DMs)."""
        uid = _uid(user)
        cid = self.dm_channels.get(uid)
        if cid is None:
            cid = self.snowflake()
            self.dm_channels[uid] = cid
            self.channels[cid] = {
                "id": str(cid),
                "type": 1,
                "recipients": [self.users[uid].payload()],
                "last_message_id": None,
                "flags": 0,
            }
        return cid

    async def _create_dm(self, request: web.Request) -> web.Response:
        rec: Recorded = request[REC]
        uid = int(rec.body["recipient_id"])
        rec.to_user = uid
        if uid not in self.users:
            raise DiscordError(404, UNKNOWN_USER, "Unknown User")
        if uid in self._dm_closed_create:
            raise DiscordError(403, CANNOT_DM, "Cannot send messages to this user")
        rec.channel_id = self.dm_channel(uid)
        return json_response(self.channels[rec.channel_id])

    async def _post_message(self, request: web.Request) -> web.Response:
        rec: Recorded = request[REC]
        cid = int(request.match_info["cid"])
        rec.channel_id = cid
        rec.to_user = self._audience(cid)
        self._channel(cid)
        if rec.to_user in self._dm_closed_send:
            raise DiscordError(403, CANNOT_DM, "Cannot send messages to this user")
        msg = self._create_message(cid, rec.body or {}, rec.files, to_user=rec.to_user)
        rec.message_id = msg.id
        return json_response(msg.payload)

    async def _history(self, request: web.Request) -> web.Response:
        """Newest first, honouring `limit`, `before` and `after` as discord.py's history() uses them."""
        cid = int(request.match_info["cid"])
        self._channel(cid)
        msgs = self.messages_to(cid)
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
            msgs = msgs[: int(request.query.get("limit", 50))]
        else:
            msgs = msgs[-int(request.query.get("limit", 50)) :]
        return json_response([m.payload for m in reversed(msgs)])

    def _find_message(self, cid: int, mid: int) -> StoredMessage:
        self._channel(cid)
        msg = self.messages.get(mid)
        if msg is None or msg.channel_id != cid:
            raise DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return msg

    async def _get_message(self, request: web.Request) -> web.Response:
        msg = self._find_message(int(request.match_info["cid"]), int(request.match_info["mid"]))
        return json_response(msg.payload)

    async def _patch_message(self, request: web.Request) -> web.Response:
        rec: Recorded = request[REC]
        msg = self._find_message(int(request.match_info["cid"]), int(request.match_info["mid"]))
        self._edit_message(msg, rec)
        return json_response(msg.payload)

    async def _delete_message(self, request: web.Request) -> web.Response:
        msg = self._find_message(int(request.match_info["cid"]), int(request.match_info["mid"]))
        self._remove_message(msg, request[REC])
        return web.Response(status=204)

    def _remove_message(self, msg: StoredMessage, rec: Recorded) -> None:
        rec.message_id, rec.channel_id, rec.to_user = msg.id, msg.channel_id, msg.to_user
        self.deleted_messages[msg.id] = self.messages.pop(msg.id)

    async def _create_thread(self, request: web.Request) -> web.Response:
        rec: Recorded = request[REC]
        parent = int(request.match_info["cid"])
        self._channel(parent)
        body = rec.body or {}
        mid = request.match_info.get("mid")
        tid = int(mid) if mid else self.snowflake()
        ttype = 11 if mid else body.get("type", 12)
        self.channels[tid] = {
            "id": str(tid),
            "type": ttype,
            "guild_id": str(self.guild_of(parent)),
            "parent_id": str(parent),
            "owner_id": str(self.bot_user.id),
            "name": body.get("name", "thread"),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": body.get("rate_limit_per_user", 0),
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": _now(),
                "locked": False,
                "invitable": body.get("invitable", True),
                "create_timestamp": _now(),
            },
        }
        rec.channel_id = tid
        if "message" in body:  # forum posts carry their first message
            self._create_message(tid, body["message"], rec.files)
        return json_response(self.channels[tid], status=201)

    # ------------------------------------------------------------ messages

    def _attachments(
        self,
        wanted: list[dict[str, Any]] | None,
        files: list[SentFile],
        keep: dict[int, SentFile] | None = None,
    ) -> tuple[list[dict[str, Any]], dict[int, SentFile]]:
        """Turn multipart uploads (`files[n]`) and kept attachment ids into attachment payloads."""
        keep = keep or {}
        out_files: dict[int, SentFile] = {}
        payloads: list[dict[str, Any]] = []
        used: set[int] = set()

        def add(sent: SentFile, extra: dict[str, Any]) -> None:
            aid = self.snowflake()
            out_files[aid] = sent
            payloads.append(
                {
                    "id": str(aid),
                    "filename": extra.get("filename") or sent.filename,
                    "description": extra.get("description"),
                    "size": len(sent.data),
                    "url": f"{self.base_url}/attachments/{aid}/{sent.filename}",
                    "proxy_url": f"{self.base_url}/attachments/{aid}/{sent.filename}",
                    "content_type": sent.content_type,
                    "ephemeral": False,
                }
            )

        for entry in wanted or []:
            ident = int(entry["id"])
            if ident in keep:
                out_files[ident] = keep[ident]
                payloads.append(next(a for a in self._all_attachment_payloads() if int(a["id"]) == ident))
            elif 0 <= ident < len(files):
                used.add(ident)
                add(files[ident], entry)
        for index, sent in enumerate(files):
            if index not in used:
                add(sent, {})
        return payloads, out_files

    def _all_attachment_payloads(self) -> list[dict[str, Any]]:
        return [a for m in self.messages.values() for a in m.payload.get("attachments", [])]

    def _create_message(
        self,
        cid: int,
        body: dict[str, Any],
        files: list[SentFile],
        *,
        to_user: int | None = None,
        extra_flags: int = 0,
        webhook: bool = False,
    ) -> StoredMessage:
        mid = self.snowflake()
        attachments, stored = self._attachments(body.get("attachments"), files)
        payload: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(cid),
            "type": 0,
            "content": body.get("content") or "",
            "author": self.bot_user.payload(),
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": bool(body.get("tts")),
            "timestamp": _now(),
            "edited_timestamp": None,
            "flags": (body.get("flags") or 0) | extra_flags,
        }
        if self.guild_of(cid) is not None:
            payload["guild_id"] = str(self.guild_of(cid))
        if webhook:
            payload["webhook_id"] = str(self.application_id)
            payload["application_id"] = str(self.application_id)
        msg = StoredMessage(payload, stored, to_user)
        self.messages[mid] = msg
        if cid in self.channels:
            self.channels[cid]["last_message_id"] = str(mid)
        return msg

    def _edit_message(self, msg: StoredMessage, rec: Recorded, body: dict[str, Any] | None = None) -> None:
        """Apply a PATCH-style edit; `body` defaults to the request JSON (callbacks nest it in `data`)."""
        body = (rec.body or {}) if body is None else body
        rec.message_id, rec.channel_id, rec.to_user = msg.id, msg.channel_id, msg.to_user
        for key in ("content", "embeds", "components"):
            if key in body:
                msg.payload[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            msg.payload["flags"] = (msg.payload["flags"] & EPHEMERAL) | body["flags"]
        msg.payload["flags"] &= ~LOADING
        if "attachments" in body or rec.files:
            wanted = body.get("attachments")
            if wanted is None:  # files without an attachments list are added to what is there
                wanted = [{"id": a["id"]} for a in msg.payload["attachments"]]
            attachments, stored = self._attachments(wanted, rec.files, keep=msg.files)
            msg.payload["attachments"], msg.files = attachments, stored
        msg.payload["edited_timestamp"] = _now()

    # --------------------------------------------------------- interactions

    def expire(self, ix: FakeInteraction) -> None:
        """Make the interaction's token stale, as Discord does after 15 minutes."""
        ix.expired = True

    def _interaction(self, request: web.Request) -> FakeInteraction:
        ix = self._by_token.get(request.match_info["token"])
        if ix is None or ("iid" in request.match_info and int(request.match_info["iid"]) != ix.id):
            raise DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if ix.expired:
            if "iid" in request.match_info:
                raise DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")
            raise DiscordError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return ix

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        rec: Recorded = request[REC]
        ix = self._interaction(request)
        rec.interaction_id = ix.id
        if ix.callback is not None:
            raise DiscordError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        late = (
            self.answer_window is not None
            and asyncio.get_running_loop().time() - ix.created > self.answer_window
        )
        if late:
            raise DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body = rec.body or {}
        rtype = body.get("type")
        data = body.get("data") or {}
        message: StoredMessage | None = None
        rec.channel_id = ix.channel_id
        if rtype in (4, 5):
            ix.ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            to_user = ix.user.id if ix.ephemeral else self._audience(ix.channel_id)
            message = self._create_message(
                ix.channel_id,
                data if rtype == 4 else {"flags": data.get("flags") or 0},
                rec.files if rtype == 4 else [],
                to_user=to_user,
                extra_flags=LOADING if rtype == 5 else 0,
                webhook=True,
            )
            ix.original_message_id = message.id
            rec.to_user, rec.message_id = to_user, message.id
        elif rtype in (6, 7):
            if ix.source_message_id is None or ix.source_message_id not in self.messages:
                raise Refused(Problem(("type",), "INTERACTION_CALLBACK_INVALID", "No message to update"))
            message = self.messages[ix.source_message_id]
            ix.original_message_id = message.id
            ix.ephemeral = message.ephemeral
            if rtype == 7:
                self._edit_message(message, rec, data)
            rec.to_user, rec.message_id = message.to_user, message.id
        elif rtype in (8, 9):
            rec.to_user = ix.user.id
        elif rtype == LAUNCH_ACTIVITY:
            rec.to_user = ix.user.id
            self.activity_launches.append(ix)
        ix.callback = body
        ix.acknowledged.set()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        out: dict[str, Any] = {
            "interaction": {
                "id": str(ix.id),
                "type": ix.type,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": ix.ephemeral,
            }
        }
        if message is not None:
            out["interaction"]["response_message_id"] = str(message.id)
        if rtype in (4, 7) and message is not None:
            out["resource"] = {"type": rtype, "message": message.payload}
        if rtype == LAUNCH_ACTIVITY:
            instance = f"i-{ix.id}"
            out["interaction"]["activity_instance_id"] = instance
            out["resource"] = {"type": rtype, "activity_instance": {"id": instance}}
        return json_response(out)

    def _webhook_message(self, request: web.Request) -> tuple[FakeInteraction, StoredMessage]:
        ix = self._interaction(request)
        mid_text = request.match_info["mid"]
        mid = ix.original_message_id if mid_text == "@original" else int(mid_text)
        msg = None if mid is None else self.messages.get(mid)
        if msg is None:
            raise DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")
        request[REC].interaction_id = ix.id
        return ix, msg

    async def _followup(self, request: web.Request) -> web.Response:
        rec: Recorded = request[REC]
        ix = self._interaction(request)
        rec.interaction_id = ix.id
        if ix.callback is None:
            raise DiscordError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        body = rec.body or {}
        ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
        to_user = ix.user.id if ephemeral else self._audience(ix.channel_id)
        msg = self._create_message(ix.channel_id, body, rec.files, to_user=to_user, webhook=True)
        ix.followup_ids.append(msg.id)
        rec.channel_id, rec.to_user, rec.message_id = ix.channel_id, to_user, msg.id
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(msg.payload)
        return web.Response(status=204)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        return json_response(self._webhook_message(request)[1].payload)

    async def _patch_webhook_message(self, request: web.Request) -> web.Response:
        _, msg = self._webhook_message(request)
        self._edit_message(msg, request[REC])
        return json_response(msg.payload)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        _, msg = self._webhook_message(request)
        self._remove_message(msg, request[REC])
        return web.Response(status=204)

    # -------------------------------------------------------- scheduled events

    def _event(self, request: web.Request) -> dict[str, Any]:
        event = self.scheduled_events.get(int(request.match_info["eid"]))
        if event is None:
            raise DiscordError(404, UNKNOWN_EVENT, "Unknown Guild Scheduled Event")
        return event

    async def _list_events(self, request: web.Request) -> web.Response:
        return json_response(list(self.scheduled_events.values()))

    async def _create_event(self, request: web.Request) -> web.Response:
        body = request[REC].body or {}  # checked whole by `limits` before it got here
        eid = self.snowflake()
        event = {
            "description": None,
            "scheduled_end_time": None,
            "channel_id": None,
            "entity_metadata": None,
            "image": None,
            **body,
            "id": str(eid),
            "guild_id": request.match_info["gid"],
            "creator_id": str(self.bot_user.id),
            "creator": self.bot_user.payload(),
            "status": 1,
            "user_count": 0,
            "entity_id": None,
        }
        self.scheduled_events[eid] = event
        return json_response(event)

    async def _get_event(self, request: web.Request) -> web.Response:
        return json_response(self._event(request))

    async def _patch_event(self, request: web.Request) -> web.Response:
        event = self._event(request)
        changes = request[REC].body or {}
        updated = {**event, **changes}
        problems = limits.event_status(event["status"], updated["status"]) + limits.event_complete(updated)
        if problems:
            raise Refused(*problems)
        event.update(updated)
        return json_response(event)

    async def _delete_event(self, request: web.Request) -> web.Response:
        event = self._event(request)
        del self.scheduled_events[int(event["id"])]
        return web.Response(status=204)


def _too_many(retry_after: float, is_global: bool, headers: dict[str, str]) -> web.Response:
    """Discord's 429: discord.py retries it after `retry_after` only with a `Via` header."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
    }
    return json_response(
        body, status=429, headers={"Via": "1.1 google", "Retry-After": f"{retry_after:.3f}", **headers}
    )


def _route(path: str) -> tuple[str, str]:
    """A path's route (ids after the first replaced) and its major parameter, which together
    name a rate limit bucket as Discord's do: per channel, guild or webhook."""
    parts = path.strip("/").split("/")
    major_at = {"channels": 1, "guilds": 1, "webhooks": 2}.get(parts[0], 0)
    major = "/".join(parts[1 : major_at + 1]) if major_at else ""
    template = [
        part if index <= major_at or not part.isdigit() else ":id" for index, part in enumerate(parts)
    ]
    if major_at:
        template[1 : major_at + 1] = [":major"] * major_at
    return "/".join(template), major


def _uid(user: FakeUser | int) -> int:
    return user.id if isinstance(user, FakeUser) else int(user)


async def _parse_body(request: web.Request, rec: Recorded) -> None:
    """Keep the JSON body, or for multipart the `payload_json` part and the `files[n]` uploads in order."""
    if not request.can_read_body:
        return
    ctype = request.content_type
    if ctype == "multipart/form-data":
        reader = await request.multipart()
        indexed: dict[int, SentFile] = {}
        while (part := await reader.next()) is not None:
            name = part.name or ""  # type: ignore[union-attr]
            data = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                rec.payload_json = json.loads(data)
            else:
                match = re.fullmatch(r"files\[(\d+)\]", name)
                index = int(match.group(1)) if match else len(indexed)
                ctype_part = part.headers.get("Content-Type")  # type: ignore[union-attr]
                indexed[index] = SentFile(part.filename or name, bytes(data), ctype_part)  # type: ignore[union-attr]
        rec.files = [indexed[i] for i in sorted(indexed)]
    else:
        raw = await request.read()
        if raw:
            try:
                rec.json = json.loads(raw)
            except ValueError:
                rec.json = raw.decode(errors="replace")
