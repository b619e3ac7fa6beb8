"""Where the game's pictures are drawn (hands, table, results, standings): in worker processes
beside the bot when it has them (`RummyBot(picture_workers=True)`; `python -m bot` starts them
where it may run on more than one core, `RUMMY_PICTURE_WORKERS` 0 or 1 chooses), else on
threads.

Drawing is most of a move's CPU in the bot (`benchmarks/render.py` times each picture), and
pressing a button in a hand DM draws one. On threads, all of it is spent in the process that
runs every table's event loop, and the threads hand the GIL back and forth with the loop while
they draw (a press waits for it). In a worker, the loop's share of a picture is the pickling of
its scene and of the PNG that comes back, and the drawing takes another core.

Two workers: the hands in one, every other picture in the other. A person's press waits for
their hand's picture, which so never waits behind a table or result picture asked just before
it (with one worker, under load, the pictures of people's own moves reached them three times
later); and each kind's caches (the hand's tiles and deflated bands, the table's and the
result's own) fill in one process only, as they did on threads. Replays stay on threads
(`ReplayPresenter`): an animation takes seconds, and what waits behind it in a worker would wait
that long.

A worker that dies does not stop the pictures: its kind is drawn on threads from then on (and the
log says so once), as the computer players think on the loop when their workers die.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from bot.service.thinkers import ThinkersBroken, WorkerPool
from render import render_hand
from render.scenes import HandScene

log = logging.getLogger(__name__)

Scene = TypeVar("Scene")


class Painter:
    """One kind of picture's worker process, or threads without one (or once it died)."""

    def __init__(self, worker: WorkerPool | None = None) -> None:
        self.worker = worker

    async def draw(self, render: Callable[[Scene], bytes], scene: Scene) -> bytes:
        """`render(scene)`, the PNG bytes of a module-level function of `render` (it travels by
        name to the worker)."""
        worker = self.worker
        if worker is not None:
            try:
                return await worker.run(render, scene)
            except ThinkersBroken:
                if self.worker is worker:
                    log.exception("a picture worker died: its pictures are drawn on threads")
                    self.worker = None
        return await asyncio.to_thread(render, scene)

    def close(self) -> None:
        """Stops the worker (blocking, as `WorkerPool.close` is); pictures asked later are drawn
        on threads."""
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.close()


@dataclass
class Pictures:
    hands: Painter = field(default_factory=Painter)
    others: Painter = field(default_factory=Painter)  # tables, results, standings

    async def hand(self, scene: HandScene) -> bytes:
        return await self.hands.draw(render_hand, scene)

    async def draw(self, render: Callable[[Scene], bytes], scene: Scene) -> bytes:
        """Any other picture: `render(scene)`, as `Painter.draw`."""
        return await self.others.draw(render, scene)

    def close(self) -> None:
        self.hands.close()
        self.others.close()
