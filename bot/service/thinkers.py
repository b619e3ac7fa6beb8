"""Worker processes that computer players think in, spoken to straight from the event loop.

A `concurrent.futures.ProcessPoolExecutor` costs the bot process some 400 µs of CPU per
decision, and two helper threads (its queue feeder and its result reader) that take the GIL
from the loop while they work. Here each worker has its own pipe, the loop writes a request on
it and reads the reply when `loop.add_reader` says it has come (some 50 µs of the bot's CPU in
all; a large reply in the parts that have come, never waiting for the rest), and nothing else
runs in the bot process. Each worker thinks about one request at a
time, but is handed the next ones while it thinks (as many as its pipe holds without the loop
ever blocking on a write, `PIPELINED_BYTES`), and the loop reads every reply that has come
whenever it looks: so a worker goes from one decision to the next without waiting for the loop
to come round between them, which under load (100 busy tables) took longer than the thinking.
Requests beyond that wait, in the order they came, for the first worker with room.

A worker that dies breaks the pool, as it breaks a process pool: what was asked of it, and all
that is asked after, fails with `ThinkersBroken`, and the caller thinks for itself instead
(`TableService.decide`), which no stall can follow from.

Event loops that cannot watch a pipe (`add_reader` raises `NotImplementedError`, as Windows'
default proactor loop does) get the same workers read by threads instead: one blocking read per
request in hand, its reply handed to the loop as `add_reader` would have.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import multiprocessing
import os
import struct
import termios
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, Protocol, TypeVar, TypeVarTuple, cast

# How long `close` lets a worker finish the decision in hand and leave on its own before it is
# terminated: a strong player's longest decisions take a fraction of this.
LEAVE_SECONDS = 2.0
# How many bytes of requests a worker may be handed before it has answered them: well within
# what a pipe (a socket pair's buffer, some 200 kB on Linux) takes without blocking the writer,
# so that sending never holds up the event loop. An easy player's request is some 1.6 kB.
PIPELINED_BYTES = 32 * 1024

# A reply's frame on the pipe, as `Connection.send` writes it: its size, and past 2 GB its size
# in 8 bytes after a -1 (see `_Worker.take_replies`).
_SIZE = struct.Struct("!i")
_LARGE_SIZE = struct.Struct("!Q")
_THERE = struct.Struct("i")  # what FIONREAD answers: the bytes waiting, a native int

Args = TypeVarTuple("Args")
R = TypeVar("R")


class Thinkers(Protocol):
    """What `TableService` thinks in: anything that runs a module-level function somewhere
    other than on the event loop and hands back what it returned (or raised)."""

    async def run(self, fn: Callable[[*Args], R], *args: *Args) -> R: ...


class ThinkersBroken(RuntimeError):
    """A worker died (or the pool was closed): this request, and every later one, cannot be
    answered by the pool."""


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    # The replies owed, in the order the requests were sent, each with its request's size; a
    # cancelled one stays here until its reply has been read and dropped, so that the next
    # request never reads it instead.
    replies: deque[tuple[asyncio.Future[tuple[bool, Any]], int]] = field(default_factory=deque)
    held: int = 0  # the bytes of the requests owed
    inbox: bytearray = field(default_factory=bytearray)  # what has come of its replies, unread

    def take_replies(self) -> list[tuple[bool, Any]]:
        """The whole replies in `inbox`, taken out of it. Each is framed as `Connection.send`
        writes it: its size (4 bytes, big-endian; -1 and then 8 bytes for a larger one), then
        its pickle."""
        replies: list[tuple[bool, Any]] = []
        inbox, start = self.inbox, 0
        while len(inbox) - start >= _SIZE.size:
            (size,) = _SIZE.unpack_from(inbox, start)
            header = _SIZE.size
            if size == -1:
                if len(inbox) - start < _SIZE.size + _LARGE_SIZE.size:
                    break
                (size,) = _LARGE_SIZE.unpack_from(inbox, start + _SIZE.size)
                header += _LARGE_SIZE.size
            if len(inbox) - start < header + size:
                break
            with memoryview(inbox)[start + header : start + header + size] as pickled:
                replies.append(ForkingPickler.loads(pickled))
            start += header + size
        del inbox[:start]
        return replies

    def takes(self, size: int, pipelined: bool) -> bool:
        """Whether a request of `size` bytes may be sent to it now (`pipelined`: while it still
        owes replies, within `PIPELINED_BYTES`)."""
        return not self.replies or (pipelined and self.held + size <= PIPELINED_BYTES)


class WorkerPool:
    """`workers` spawned processes, each running `initializer` once at boot and then
    whatever `run` sends it. Usable from one event loop at a time, which may change between
    runs (the benchmark's `asyncio.run` per table count); created and closed off any loop."""

    def __init__(self, workers: int, initializer: Callable[[], None]) -> None:
        context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        for _ in range(workers):
            ours, theirs = context.Pipe(duplex=True)
            process = context.Process(target=_serve, args=(theirs, initializer), name="thinker", daemon=True)
            process.start()
            theirs.close()  # the worker's end now lives in the worker only: its death is our EOF
            self._workers.append(_Worker(process, ours))
        # Requests no worker had room for, pickled, each with the future of its reply.
        self._waiting: deque[tuple[memoryview, asyncio.Future[tuple[bool, Any]]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broken: ThinkersBroken | None = None
        # Set once a loop refused `add_reader`: replies are then read by these threads.
        self._readers: ThreadPoolExecutor | None = None

    @property
    def processes(self) -> list[BaseProcess]:
        """The workers' processes, for whoever watches them (the tests kill one)."""
        return [worker.process for worker in self._workers]

    async def run(self, fn: Callable[[*Args], R], *args: *Args) -> R:
        """`fn(*args)` in the first free worker; raises what it raised there, or
        `ThinkersBroken` if the worker died first. `fn`, its arguments and its result travel
        by pickle, so `fn` must be importable by name (pickled here, so that what cannot
        travel fails here, before any worker is involved)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._bind(loop)
        if self._broken is not None:
            raise self._broken
        request = ForkingPickler.dumps((fn, args))
        reply: asyncio.Future[tuple[bool, Any]] = loop.create_future()
        worker = self._worker_for(len(request)) if not self._waiting else None
        if worker is not None:
            self._send(worker, request, reply)
        else:
            self._waiting.append((request, reply))
        succeeded, value = await reply
        if not succeeded:
            raise value
        return cast(R, value)  # what `fn` returned in the worker, unpickled

    def close(self) -> None:
        """Fails whatever still waits, closes the pipes (a worker leaves when it reads their
        end) and waits for the workers to go, terminating those that take too long; blocking,
        so that no process outlives it."""
        self._break("the thinkers are closed")
        for worker in self._workers:
            worker.process.join(LEAVE_SECONDS)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join()
        if self._readers is not None:
            self._readers.shutdown(wait=True)  # each read ended with its worker

    # ----------------------------------------------------------------- helpers

    def _bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Watches every worker's pipe from `loop`, all the time rather than per request: a
        worker that dies while idle is noticed at once, and no request pays for registering."""
        old, self._loop = self._loop, loop
        self._waiting.clear()  # a previous loop's were cancelled with it
        if self._broken is not None or self._readers is not None:
            return
        for worker in self._workers:
            if old is not None and not old.is_closed():
                old.remove_reader(worker.conn.fileno())
            try:
                loop.add_reader(worker.conn.fileno(), self._on_readable, worker)
            except NotImplementedError:
                self._read_with_threads(loop)
                return

    def _read_with_threads(self, loop: asyncio.AbstractEventLoop) -> None:
        """The portable way, for loops that cannot watch a pipe: no pipe is watched by the loop
        (any reader already added is taken back), and each request sent starts a thread read."""
        for worker in self._workers:
            with contextlib.suppress(NotImplementedError, ValueError):
                loop.remove_reader(worker.conn.fileno())
        self._readers = ThreadPoolExecutor(len(self._workers), thread_name_prefix="thinker-reader")

    def _worker_for(self, size: int) -> _Worker | None:
        """The worker owing the fewest replies that has room for a request of `size` bytes
        (None: none has). Reading threads read one reply per worker at a time, so with them a
        worker takes a request only once it owes none."""
        room = [worker for worker in self._workers if worker.takes(size, self._readers is None)]
        return min(room, key=lambda worker: len(worker.replies), default=None)

    def _send(self, worker: _Worker, request: memoryview, reply: asyncio.Future[tuple[bool, Any]]) -> None:
        worker.replies.append((reply, len(request)))
        worker.held += len(request)
        try:
            worker.conn.send_bytes(request)
        except OSError:  # its end of the pipe is gone with it
            self._break(f"thinker {worker.process.pid} died")
            return
        if self._readers is not None:
            self._readers.submit(worker.conn.recv).add_done_callback(
                lambda read: self._from_thread(worker, read)
            )

    def _from_thread(self, worker: _Worker, read: Future[Any]) -> None:
        """A thread's read is done: hand it to whichever loop the pool serves now (a reply for
        a loop that has gone is dropped there, as a cancelled request's is)."""
        loop = self._loop
        if loop is None or loop.is_closed() or self._broken is not None:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._on_read, worker, read)

    def _on_readable(self, worker: _Worker) -> None:
        """Every reply that has come whole, or the worker's end of the pipe closing because it
        died. Only the bytes already there are read: a reply larger than the pipe holds (a
        picture's) comes in parts as the worker writes them, and reading it whole
        (`Connection.recv`) would hold the loop until the worker is scheduled again to write
        the rest, which on a busy machine took longer than the reply's own work."""
        fd = worker.conn.fileno()
        try:
            came = os.read(fd, max(bytes_waiting(fd), 1))  # readable with nothing there: the end closed
        except OSError:
            came = b""
        if not came:
            self._break(f"thinker {worker.process.pid} died")
            return
        worker.inbox += came
        for reply in worker.take_replies():
            if self._broken is not None:
                return
            self._deliver(worker, reply)

    def _on_read(self, worker: _Worker, read: Future[Any]) -> None:
        if self._broken is not None:
            return
        if isinstance(read.exception(), EOFError | OSError):
            self._break(f"thinker {worker.process.pid} died")
            return
        self._deliver(worker, read.result())

    def _deliver(self, worker: _Worker, reply: tuple[bool, Any]) -> None:
        """The requests waiting that now fit go to the worker before the reply is handed on,
        so that it thinks again at once, not once the loop has run every task that is ready
        before the one that would send them."""
        answered, size = worker.replies.popleft()
        worker.held -= size
        while self._waiting and worker.takes(len(self._waiting[0][0]), self._readers is None):
            request, waiting = self._waiting.popleft()
            if not waiting.done():  # a request cancelled before it was sent is dropped
                self._send(worker, request, waiting)
        if not answered.done():
            answered.set_result(reply)

    def _break(self, reason: str) -> None:
        """From now on every request fails; the workers are let go (a dead one's pipe closed,
        a live one leaves on EOF once its decision is made)."""
        if self._broken is not None:
            return
        self._broken = ThinkersBroken(reason)
        for worker in self._workers:
            if self._readers is None and self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(worker.conn.fileno())
            for owed, _ in worker.replies:
                if not owed.done():
                    owed.set_exception(ThinkersBroken(reason))
            worker.replies.clear()
            worker.conn.close()
        for _, waiting in self._waiting:
            if not waiting.done():
                waiting.set_exception(ThinkersBroken(reason))
        self._waiting.clear()


def bytes_waiting(fd: int) -> int:
    """How many bytes can be read from the pipe or socket `fd` without waiting."""
    return int(_THERE.unpack(fcntl.ioctl(fd, termios.FIONREAD, bytes(_THERE.size)))[0])


def _serve(conn: Connection, initializer: Callable[[], None]) -> None:
    """A worker's life: boot, then one request at a time until the bot closes its end, or is
    gone (killed, say): the pipe then ends or breaks, and the worker leaves without a word, as
    there is nobody left to answer."""
    initializer()
    with contextlib.suppress(EOFError, OSError):
        while True:
            fn, args = conn.recv()
            try:
                reply: tuple[bool, Any] = (True, fn(*args))
            except Exception as error:
                reply = (False, error)
            _answer(conn, fn, reply)


def _answer(conn: Connection, fn: Callable[..., Any], reply: tuple[bool, Any]) -> None:
    try:
        conn.send(reply)
    except OSError:  # the bot is gone
        raise
    except Exception as error:  # it would not pickle, and nothing was written: say so instead
        conn.send((False, RuntimeError(f"the answer of {fn.__qualname__} cannot travel: {error!r}")))
