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
What it changes is handed to the other front ends (`published`) as a button's events are.
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

from bot.activity.oauth import SIGN_IN_FAILED, DiscordOAuth, SignInRefusedError
from bot.activity.wire import (
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
HELLO_SECONDS = 10.0  # a connection that has not said who it is by then is closed
REFUSED = 4003  # the close code of a connection whose hello was refused
ELSEWHERE = 4004  # ... whose table another shard's process serves: the page goes there
MAX_MESSAGE = 16 * 1024  # a move is a few hundred bytes
HEARTBEAT_SECONDS = 20.0  # pings that find a dropped connection (the page reconnects)
CANNOT_SEE = N_("You cannot see that channel, so its table is not shown.")
NOT_PLAYING = N_("You are not playing a deal at this table.")
NO_TABLE = N_("There is no table in this channel.")
APOLOGY = N_("Sorry, something went wrong on my side. The table is safe; please try again.")


class Elsewhere(Exception):
    """The table is served by another shard's process."""

    def __init__(self, shard: int) -> None:
        super().__init__(shard)
        self.shard = shard


@dataclass(eq=False)
class Viewer:
    """One open page: the user its connection is bound to, the channel it watches, their
    words, and what is waiting to be sent to it."""

    ws: web.WebSocketResponse
    user_id: int
    channel_id: int
    _: Words
    table_id: int | None = None  # the table last shown (its final state once it closed)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    pending: list[TableEvent] = field(default_factory=list)


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
    ) -> None:
        self.service = service
        self.oauth = oauth
        self.may_view = may_view
        self.published = published
        self.web_dir = web_dir
        self.fonts_dir = fonts_dir  # the pictures' fonts: Hindi looks on the page as in them
        self.elsewhere = elsewhere
        self._viewers: dict[int, set[Viewer]] = {}  # by channel
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
            viewer = await self._hello(ws)
        except Elsewhere as moved:  # the page connects again under /shard/N/ (README)
            await _last_word(ws, {"type": "elsewhere", "shard": moved.shard}, ELSEWHERE)
            return ws
        except (SignInRefusedError, TimeoutError, ValueError) as refused:
            text = str(refused) if isinstance(refused, RummyError) else SIGN_IN_FAILED
            await _last_word(ws, {"type": "refused", "text": text}, REFUSED)
            return ws
        watching = self._viewers.setdefault(viewer.channel_id, set())
        watching.add(viewer)
        viewer.changed.set()  # the current view at once, on every (re)connect
        sender = asyncio.create_task(self._send(viewer))
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._received(viewer, message.data)
        finally:
            watching.discard(viewer)
            if not watching:
                self._viewers.pop(viewer.channel_id, None)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
        return ws

    async def _hello(self, ws: web.WebSocketResponse) -> Viewer:
        """The first message: `{"type": "hello", "access_token", "user_id", "guild_id",
        "channel_id", "locale"}`. The user is whoever Discord says the token is (a token that is
        another user's than the page's is refused); the channel must be one they may see."""
        message = await ws.receive(timeout=HELLO_SECONDS)
        hello = json.loads(message.data) if message.type is WSMsgType.TEXT else None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            raise ValueError("no hello")
        token, guild, channel = hello.get("access_token"), hello.get("guild_id"), hello.get("channel_id")
        if not (_digits(guild) and _digits(channel)):
            raise ValueError("no channel")
        person = await self.oauth.person(token if isinstance(token, str) else "")
        claimed = hello.get("user_id")  # whom the SDK's `authenticate` named: the same user
        if claimed is not None and claimed != str(person.user_id):
            raise SignInRefusedError(SIGN_IN_FAILED)
        if (shard := self.elsewhere(int(str(guild)))) is not None:
            raise Elsewhere(shard)
        locale = hello.get("locale")
        _ = words(language_of(locale if isinstance(locale, str) else None) or language_of(person.locale))
        if not await self.may_view(person.user_id, int(str(guild)), int(str(channel))):
            raise SignInRefusedError(_(CANNOT_SEE))
        await ws.send_json({"type": "welcome", "user_id": str(person.user_id), "language": _.language})
        return Viewer(ws, person.user_id, int(str(channel)), _)

    async def _received(self, viewer: Viewer, data: str) -> None:
        """A move: played as the user's own, answered `done` or `refused` with its id. A
        question about the user's groups: answered `judged` (or `refused`)."""
        client_id: object = None
        try:
            raw = json.loads(data)
            client_id = raw.get("id") if isinstance(raw, dict) else None
            if isinstance(raw, dict) and raw.get("type") == "judge":
                await viewer.ws.send_json(await self._judge(viewer, raw))
                return
            if not isinstance(raw, dict) or raw.get("type") != "move":
                return
            events = await self._play(viewer, raw)
        except RummyError as error:
            await self._refuse(viewer, client_id, error)
            return
        except ValueError:  # not JSON
            return
        except Exception:
            log.exception("activity: a move by user %s failed", viewer.user_id)
            await viewer.ws.send_json({"type": "refused", "id": client_id, "text": viewer._(APOLOGY)})
            return
        self.published(events)
        await viewer.ws.send_json({"type": "done", "id": client_id})

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
        hand = await self._hand(viewer)
        return await self.service.play(
            viewer.channel_id,
            viewer.user_id,
            move.command(hand.seen),
            turn=move.turn,
            command_id=f"activity:{viewer.user_id}:{move.client_id}",
        )

    async def _refuse(self, viewer: Viewer, client_id: object, error: RummyError) -> None:
        view = self.service.view_in(viewer.channel_id)
        names = view.names if view is not None else ()

        def name(seat: int) -> str:
            return names[seat] if seat < len(names) else f"seat {seat + 1}"

        text = error.render(name, viewer._)
        await viewer.ws.send_json({"type": "refused", "id": client_id, "text": text})

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
                await viewer.ws.send_json(await self._state(viewer, events))
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


def _digits(value: object) -> bool:
    """A Discord id as a page sends it: digits, as text."""
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 24


async def _last_word(ws: web.WebSocketResponse, frame: Json, code: int) -> None:
    """Says why and closes; a page already gone hears neither."""
    with contextlib.suppress(ConnectionError):
        await ws.send_json(frame)
        await ws.close(code=code)
