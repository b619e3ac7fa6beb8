"""The terminal's two ends: the lines a player types, read while the table plays on, and the
text it prints.

Standard input is read in a thread of its own, so that the event loop keeps running the table
(computer players, clocks) while a person thinks. The thread reads the file descriptor itself,
never `sys.stdin`'s buffer: it is a daemon, so a read still waiting never holds the program's
exit, and a daemon blocked inside a buffered reader would hold the buffer's lock that Python's
shutdown then needs. Lines wait in order until the table asks for one, so a line typed ahead (or
a script piped in) is read at the next prompt, never in the middle of the computer players'
moves.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import sys
import threading
from collections.abc import Iterable
from typing import Protocol, TextIO


class Lines(Protocol):
    async def line(self) -> str | None:
        """The next line typed, without its end; None once there is no more (end of input)."""
        ...


class TypedLines:
    """Lines from a file descriptor (standard input by default), read by a daemon thread."""

    def __init__(self, fd: int = 0, encoding: str | None = None) -> None:
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        encoding = encoding or (sys.stdin.encoding if sys.stdin is not None else None) or "utf-8"
        self._thread = threading.Thread(
            target=self._read, args=(loop, fd, encoding), name="terminal-input", daemon=True
        )
        self._thread.start()

    async def line(self) -> str | None:
        return await self._queue.get()

    def _read(self, loop: asyncio.AbstractEventLoop, fd: int, encoding: str) -> None:
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # closed under us: as the end of input
                chunk = b""
            pending += decoder.decode(chunk, final=not chunk)
            *lines, pending = pending.split("\n")
            read: list[str | None] = [line.removesuffix("\r") for line in lines]
            if not chunk:  # the end: a last line without its end, then None
                read += [pending, None] if pending else [None]
            try:
                for line in read:
                    loop.call_soon_threadsafe(self._queue.put_nowait, line)
            except RuntimeError:  # the loop has closed: nobody is asking any more
                return
            if not chunk:
                return


class GivenLines:
    """Lines given in advance, then the end of input: for tests that play in this process."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)

    async def line(self) -> str | None:
        return next(self._lines, None)


class Screen:
    """Where the table prints: whole lines, or a prompt that the next line printed does not
    continue (it starts on a line of its own)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._prompting = False

    def say(self, *lines: str) -> None:
        if self._prompting and lines:
            self.out.write("\n")
            self._prompting = False
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def prompt(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        self._prompting = True

    def answered(self) -> None:
        """A line was typed after the prompt (a terminal echoed it, ending the prompt's line)."""
        self._prompting = False


def quiet_closed_output(out: TextIO) -> None:
    """After a `BrokenPipeError` (the reader went away, as `| head` does): whatever Python would
    still flush at exit goes nowhere instead of raising again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        os.close(devnull)
