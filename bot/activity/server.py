"""The table as a Discord Activity: the web client's files, the sign-in and one live connection
(a WebSocket) per open page, served by the bot's own process on a port of its own.

A page signs in through Discord (`bot.activity.oauth`), then says hello on its connection with
its access token and the channel the SDK reports. The connection is bound to the user Discord
names for that token, and only once that user may see that channel (`may_view`, which the
Discord front end answers from the guild's permissions); a forged token or channel is refused
and the connection closed. From then on the connection gets the channel's table as frozen views
of the read model (`TableService.view_in`, `TableService.hand`): a seated user their own hand,
everyone else what a spectator sees, each with the events as its seat may see them, sent again
after every change the service saves (`TableService.listen`) and at once on every (re)connect.

A move is the page's JSON read into the same typed command a button makes, played through the
same door (`TableService.play`: the same rules, refusals and saving), with the page's id for
it as the command id, so a move retried after a dropped connection is applied once or refused.
What it changes is handed to the other front ends (`published`) as a button's events are. The
lobby's doors (join, leave, a computer player, the host's start) and Pool's rejoin and split are
the same service doors, with the same checks, as the lobby's buttons and the slash commands.

Sign-ins and hellos are counted per address and per user, open pages capped per user and per
table, and an open page's messages metered: one sending faster is closed (`bot.activity.limits`).
A process that may no longer serve its shards (`may_serve`, its lease clock) sends no frame and
accepts no move: it closes every page, saying why, and the pages reconnect to whoever serves the
table next.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import WSMsgType, web

from bot.activity.limits import (
    LIMITS,
    TABLE_FULL_OF_PAGES,
    TOO_FAST,
    TOO_MANY_PAGES,
    TOO_OFTEN,
    Bucket,
    Limits,
    Window,
)
from bot.activity.oauth import SIGN_IN_FAILED, DiscordOAuth, Person, SignInRefusedError
from bot.activity.wire import (
    MAX_TEXT,
    Json,
    events_json,
    hand_json,
    judged_json,
    read_judging,
    read_move,
    table_json,
)
from bot.engine.commands import BadCommandError
from bot.engine.declaration import best_declaration
from bot.engine.errors import RummyError
from bot.engine.melds import judge_groups
from bot.i18n import N_, Words, language_of, words
from bot.service import TableEvent, TableService
from bot.service.views import HandView, TableView

log = logging.getLogger(__name__)
# Whether a user may see a channel: (user id, guild id, channel id) as the page claims them.
ViewCheck = Callable[[int, int, int], Awaitable[bool]]
# Hands what a page's move changed to the other front ends (the Discord presenter).
Publish = Callable[[list[TableEvent]], None]
# The shard whose process serves a server's tables, when that is another process's (else None).
ShardElsewhere = Callable[[int], int | None]
# Whether this process may still serve its tables (a sharded one: its leases are current).
MayServe = Callable[[], bool]
HELLO_SECONDS = 10.0  # a connection that has not said who it is by then is closed
REFUSED = 4003  # the close code of a connection whose hello was refused
ELSEWHERE = 4004  # ... whose table another shard's process serves: the page goes there
MOVED = 4005  # ... whose process lost its shard's lease: the page reconnects, to the new owner
TOO_MANY = 4029  # ... that came too often, or one too many: the page says so and waits
BROKEN = 1011  # ... whose hello met a fault on this side (Discord unreachable): the page retries
MAX_MESSAGE = 16 * 1024  # a move is a few hundred bytes
HEARTBEAT_SECONDS = 20.0  # pings that find a dropped connection (the page reconnects)
CANNOT_SEE = N_("You cannot see that channel, so its table is not shown.")
NOT_PLAYING = N_("You are not playing a deal at this table.")
NO_TABLE = N_("There is no table in this channel.")
APOLOGY = N_("Sorry, something went wrong on my side. The table is safe; please try again.")
NOT_SEATED = N_("You are not seated at this table.")
STARTED = N_("This table has already started.")
SERVED_ELSEWHERE = N_("This table is served elsewhere now: reconnecting.")
MOVED_FRAME: Json = {"type": "moved", "text": SERVED_ELSEWHERE}


class Elsewhere(Exception):
    """The table is served by another shard's process."""

    def __init__(self, shard: int) -> None:
        super().__init__(shard)
        self.shard = shard


class TooMuchError(RummyError):
    """Too many sign-ins from one address or user, or too many pages open."""


class NotServingError(Exception):
    """This process's shard leases have ended: it answers nothing more."""


@dataclass(eq=False)
class Viewer:
    """One open page: the user its connection is bound to, the channel it watches, their
    words, and what is waiting to be sent to it."""

    ws: web.WebSocketResponse
    person: Person
    guild_id: int
    channel_id: int
    _: Words
    messages: Bucket  # how many more messages it may send now
    table_id: int | None = None  # the table last shown (its final state once it closed)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    pending: list[TableEvent] = field(default_factory=list)

    @property
    def user_id(self) -> int:
        return self.person.user_id


class ActivityServer:
    def __init__(
        self,
        service: TableService,
        oauth: DiscordOAuth,
        *,
        may_view: ViewCheck,
        published: Publish,
        web_dir: Path,
        fonts_dir: Path,
        elsewhere: ShardElsewhere = lambda guild_id: None,
        may_manage: ViewCheck | None = None,
        may_serve: MayServe = lambda: True,
        limits: Limits = LIMITS,
    ) -> None:
        """`may_manage`: whether the user has Manage Server in that server (who may start a
        table besides its host, as on the lobby's Start button); `may_serve`: asked before every
        frame is sent and every move accepted."""
        self.service = service
        self.oauth = oauth
        self.may_view = may_view
        self.published = published
        self.web_dir = web_dir
        self.fonts_dir = fonts_dir  # the pictures' fonts: Hindi looks on the page as in them
        self.elsewhere = elsewhere
        self.may_manage = may_manage
        self.may_serve = may_serve
        self.limits = limits
        self._by_address = Window(limits.per_address, limits.window_seconds)
        self._by_user = Window(limits.per_user, limits.window_seconds)
        self._viewers: dict[int, set[Viewer]] = {}  # by channel
        self._stopping: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        service.listen(self._heard)

    # ----------------------------------------------------------------- serving

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.router.add_get("/", self._page)
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/api/live", self._live)
        app.router.add_static("/assets", self.web_dir / "assets")
        app.router.add_static("/fonts", self.fonts_dir)
        return app

    async def serve(self, host: str, port: int) -> int:
        """Serves on the running loop; returns the port (port 0 takes a free one)."""
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        return int(self._runner.addresses[0][1])

    async def close(self) -> None:
        """Every page's connection is closed (the pages reconnect to whoever serves next)."""
        for viewers in list(self._viewers.values()):
            for viewer in list(viewers):
                await viewer.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.oauth.close()

    async def _page(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(self.web_dir / "index.html", headers={"Cache-Control": "no-cache"})

    async def _config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(self.oauth.client_id)})

    async def _token(self, request: web.Request) -> web.Response:
        """The page's `authorize` code exchanged for an access token (the secret stays here)."""
        if not self.may_serve():
            self._stop_serving()
            return web.json_response({"error": SERVED_ELSEWHERE}, status=503)
        if not self._by_address.allow(_address(request)):
            return web.json_response({"error": TOO_OFTEN}, status=429)
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        try:
            token = await self.oauth.exchange(code if isinstance(code, str) else "")
        except SignInRefusedError as refused:
            return web.json_response({"error": str(refused)}, status=401)
        return web.json_response({"access_token": token})

    # ----------------------------------------------------------------- a page's connection

    async def _live(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        try:
            viewer = await self._hello(ws, _address(request))
            self._seat_page(viewer)
        except Elsewhere as moved:  # the page connects again under /shard/N/ (README)
            await _last_word(ws, {"type": "elsewhere", "shard": moved.shard}, ELSEWHERE)
            return ws
        except NotServingError:
            await _last_word(ws, MOVED_FRAME, MOVED)
            return ws
        except TooMuchError as refused:
            await _last_word(ws, {"type": "refused", "text": str(refused)}, TOO_MANY)
            return ws
        except (SignInRefusedError, TimeoutError, ValueError) as refused:
            text = str(refused) if isinstance(refused, RummyError) else SIGN_IN_FAILED
            await _last_word(ws, {"type": "refused", "text": text}, REFUSED)
            return ws
        except Exception as error:  # Discord unreachable or refusing (no traceback: one line a page)
            log.warning("activity: a hello failed: %s: %s", type(error).__name__, error)
            await _last_word(ws, {"type": "refused", "text": APOLOGY}, BROKEN)
            return ws
        watching = self._viewers[viewer.channel_id]
        sender: asyncio.Task[None] | None = None
        try:
            welcome: Json = {"type": "welcome", "user_id": str(viewer.user_id), "language": viewer._.language}
            await self._say(viewer, welcome)
            viewer.changed.set()  # the current view at once, on every (re)connect
            sender = asyncio.create_task(self._send(viewer))
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                if not viewer.messages.allow():
                    await _last_word(ws, {"type": "refused", "text": viewer._(TOO_FAST)}, TOO_MANY)
                    break
                await self._received(viewer, message.data)
        except NotServingError:
            self._stop_serving()
            await _last_word(ws, MOVED_FRAME, MOVED)  # before the handler's end closes it plainly
        except ConnectionError:  # the page went away mid-answer: it reconnects
            pass
        finally:
            watching.discard(viewer)
            if not watching:
                self._viewers.pop(viewer.channel_id, None)
            if sender is not None:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sender
        return ws

    async def _hello(self, ws: web.WebSocketResponse, address: str) -> Viewer:
        """The first message: `{"type": "hello", "access_token", "user_id", "guild_id",
        "channel_id", "locale"}`. The user is whoever Discord says the token is (a token that is
        another user's than the page's is refused); the channel must be one they may see. Each
        hello asks Discord, so hellos are counted per address before it is asked, and per user
        once Discord said whose the token is: a user id the page only claims counts for no one
        (else anyone could spend another user's tries and lock them out)."""
        message = await ws.receive(timeout=HELLO_SECONDS)
        self._check_serving()
        try:
            hello = json.loads(message.data) if message.type is WSMsgType.TEXT else None
        except RecursionError as nested:  # JSON nested too deep to read
            raise ValueError("no hello") from nested
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            raise ValueError("no hello")
        token, guild, channel = hello.get("access_token"), hello.get("guild_id"), hello.get("channel_id")
        if not (_digits(guild) and _digits(channel)):
            raise ValueError("no channel")
        claimed = hello.get("user_id")  # whom the SDK's `authenticate` named: the same user
        if claimed is not None and not _digits(claimed):
            raise ValueError("no user")
        locale = hello.get("locale")
        language = language_of(locale if isinstance(locale, str) else None)
        if not self._by_address.allow(address):
            raise TooMuchError(words(language)(TOO_OFTEN))
        person = await self.oauth.person(token if isinstance(token, str) else "")
        if claimed is not None and claimed != str(person.user_id):
            raise SignInRefusedError(SIGN_IN_FAILED)
        _ = words(language or language_of(person.locale))
        if not self._by_user.allow(person.user_id):
            raise TooMuchError(_(TOO_OFTEN))
        # Which shard serves a server is told before `may_view`: only that shard's process holds
        # the server's members and channels to answer it. It tells nothing secret: the shard is
        # Discord's own formula of the server's id and the shard count.
        if (shard := self.elsewhere(int(str(guild)))) is not None:
            raise Elsewhere(shard)
        if not await self.may_view(person.user_id, int(str(guild)), int(str(channel))):
            raise SignInRefusedError(_(CANNOT_SEE))
        self._check_serving()
        messages = Bucket(self.limits.messages_per_second, self.limits.message_burst)
        return Viewer(ws, person, int(str(guild)), int(str(channel)), _, messages)

    def _seat_page(self, viewer: Viewer) -> None:
        """Counts the page in, unless its user or its table has as many open as allowed (checked
        and counted at once: two hellos at the same moment meet the cap)."""
        watching = self._viewers.get(viewer.channel_id, set())
        mine = sum(1 for pages in self._viewers.values() for page in pages if page.user_id == viewer.user_id)
        if mine >= self.limits.pages_per_user:
            raise TooMuchError(viewer._(TOO_MANY_PAGES))
        if len(watching) >= self.limits.pages_per_table:
            raise TooMuchError(viewer._(TABLE_FULL_OF_PAGES))
        self._viewers.setdefault(viewer.channel_id, watching).add(viewer)

    def _check_serving(self) -> None:
        if not self.may_serve():
            raise NotServingError()

    def _stop_serving(self) -> None:
        """Closes every page, once, saying the table is served elsewhere now."""
        if self._stopping is None or self._stopping.done():
            self._stopping = asyncio.get_running_loop().create_task(self._close_pages(MOVED))

    async def _close_pages(self, code: int) -> None:
        pages = [viewer for viewers in self._viewers.values() for viewer in viewers]
        await asyncio.gather(*(_last_word(viewer.ws, MOVED_FRAME, code) for viewer in pages))

    async def _received(self, viewer: Viewer, data: str) -> None:
        """A move: played as the user's own, answered `done` or `refused` with its id. A
        question about the user's groups: answered `judged` (or `refused`)."""
        client_id: object = None
        try:
            raw = json.loads(data)
            client_id = raw.get("id") if isinstance(raw, dict) else None
            kind = raw.get("type") if isinstance(raw, dict) else None
            if kind not in ("judge", "move", "lobby"):
                return
            self._check_serving()  # before a move is accepted, as before every frame
            if kind == "judge":
                await self._say(viewer, await self._judge(viewer, raw))
                return
            events = await (self._play(viewer, raw) if kind == "move" else self._lobby(viewer, raw))
        except NotServingError:
            raise
        except RummyError as error:
            await self._refuse(viewer, client_id, error)
            return
        except (ValueError, RecursionError):  # not JSON, or nested too deep to read
            return
        except Exception:
            log.exception("activity: a move by user %s failed", viewer.user_id)
            await self._say(viewer, {"type": "refused", "id": client_id, "text": viewer._(APOLOGY)})
            return
        self.published(events)
        await self._say(viewer, {"type": "done", "id": client_id})

    async def _say(self, viewer: Viewer, frame: Json) -> None:
        """Sends a frame, if this process still serves the table (else `NotServingError`)."""
        self._check_serving()
        await viewer.ws.send_json(frame)

    async def _hand(self, viewer: Viewer) -> HandView:
        """The user's own view of the deal in progress in their channel, or a refusal."""
        view = self.service.view_in(viewer.channel_id)
        if view is None:
            raise RummyError(NO_TABLE)
        hand = await self.service.hand(view.id, viewer.user_id)
        if hand is None:
            raise RummyError(NOT_PLAYING)
        return hand

    async def _judge(self, viewer: Viewer, raw: dict[str, object]) -> Json:
        """The engine's judgement of the user's groups, or of the declaration they would make."""
        judging = read_judging(raw)
        seen = (await self._hand(viewer)).seen
        if judging.declare:
            declaration = best_declaration(seen, judging.groups, judging.finish)
            groups, finish = declaration.groups, declaration.finish
        elif Counter(card for group in judging.groups for card in group) != Counter(seen.hand):
            raise BadCommandError("Your groups must hold exactly the cards in your hand, each once.")
        else:
            groups, finish = judging.groups, None
        judgement = judge_groups(groups, seen.wild_rank, seen.rules)
        return judged_json(judging, groups, finish, judgement, viewer._)

    async def _play(self, viewer: Viewer, raw: dict[str, object]) -> list[TableEvent]:
        move = read_move(raw)
        if move.between_deals:  # Pool's rejoin and split: the seat's, with no deal in progress
            view = self.service.view_in(viewer.channel_id)
            seat = view.seat_of(viewer.user_id) if view is not None else None
            if seat is None:
                raise RummyError(NOT_SEATED)
            command = move.seat_command(seat)
        else:
            command = move.command((await self._hand(viewer)).seen)
        return await self.service.play(
            viewer.channel_id,
            viewer.user_id,
            command,
            turn=move.turn,
            command_id=f"activity:{viewer.user_id}:{move.client_id}",
        )

    async def _lobby(self, viewer: Viewer, raw: dict[str, object]) -> list[TableEvent]:
        """The lobby's buttons' doors: `{"type": "lobby", "id", "action"}`, with their checks
        (a computer player is added by a seated player, the match started by its host or a
        member with Manage Server)."""
        action = raw.get("action")
        channel, user = viewer.channel_id, viewer.user_id
        if action == "join":
            return await self.service.join(channel, user, viewer.person.name)
        if action == "leave":  # the lobby's seat: a match's is left by `/rummy leave`, on purpose
            view = self.service.view_in(channel)
            if view is not None and view.match is not None:
                raise RummyError(STARTED)
            return await self.service.leave(channel, user)
        if action in ("easy", "strong"):
            return await self.service.add_computer(channel, user, str(action))
        if action == "start":
            manager = self.may_manage is not None and await self.may_manage(user, viewer.guild_id, channel)
            return await self.service.start(channel, user, can_manage=manager)
        raise BadCommandError("'{name}' is not a command.", name=str(action)[:MAX_TEXT])

    async def _refuse(self, viewer: Viewer, client_id: object, error: RummyError) -> None:
        view = self.service.view_in(viewer.channel_id)
        names = view.names if view is not None else ()

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else f"seat {seat + 1}"

        text = error.render(name, viewer._)
        await self._say(viewer, {"type": "refused", "id": client_id, "text": text})

    # ----------------------------------------------------------------- views, after each change

    def _heard(self, events: Sequence[TableEvent], actor: int | None) -> None:
        """The service saved a change: every page on that table's channel is sent its view anew
        (by its own task: a listener never waits)."""
        for table_id in {event.table_id for event in events}:
            view = self.service.view(table_id)
            if view is None:
                continue
            for viewer in self._viewers.get(view.channel_id, ()):
                viewer.pending += [event for event in events if event.table_id == table_id]
                viewer.changed.set()

    async def _send(self, viewer: Viewer) -> None:
        """Sends the viewer its state whenever it changed; changes that come while one is being
        sent are sent together next."""
        while not viewer.ws.closed:
            await viewer.changed.wait()
            viewer.changed.clear()
            events, viewer.pending = viewer.pending, []
            try:
                state = await self._state(viewer, events)
                if not self.may_serve():  # checked last, right before the frame leaves
                    self._stop_serving()
                    return
                await viewer.ws.send_json(state)
            except ConnectionError:
                return

    async def _state(self, viewer: Viewer, events: list[TableEvent]) -> Json:
        """What this viewer may see now: the table, their hand if they sit in its deal, and the
        events since the last state as their seat sees them."""
        view: TableView | None = self.service.view_in(viewer.channel_id)
        if view is None and viewer.table_id is not None:
            view = self.service.view(viewer.table_id)  # closed lately: how it ended
        if view is None:
            return {"type": "state", "table": None, "hand": None, "seat": None, "events": []}
        viewer.table_id = view.id
        seat = view.seat_of(viewer.user_id)
        hand = await self.service.hand(view.id, viewer.user_id) if seat is not None else None
        mine = [event for event in events if event.table_id == view.id]
        return {
            "type": "state",
            "table": table_json(view, self.service.clock.now()),
            "hand": hand_json(hand) if hand is not None else None,
            "seat": seat,
            "events": events_json(mine, seat if hand is not None else None),
        }


def _address(request: web.Request) -> str:
    """Whom a request came from, as this server sees it (behind a proxy: the proxy)."""
    return request.remote or "?"


def _digits(value: object) -> bool:
    """A Discord id as a page sends it: digits, as text."""
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 24


async def _last_word(ws: web.WebSocketResponse, frame: Json, code: int) -> None:
    """Says why and closes; a page already gone hears neither."""
    with contextlib.suppress(ConnectionError):
        await ws.send_json(frame)
        await ws.close(code=code)
