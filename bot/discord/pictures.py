"""Where the game's pictures are drawn (hands, table, results, standings): in worker processes
beside the bot when it has them (`python -m bot` does, `RummyBot(picture_workers=True)`), else
on threads.

Drawing is most of a move's CPU in the bot: a hand takes some 2 ms, a table 3 ms, a result 8 ms,
and pressing a button in a hand DM draws one. On threads, all of it is spent in the process that
runs every table's event loop, and the threads hand the GIL back and forth with the loop while
they draw (a press waits for it). In a worker, the loop's share of a picture is the pickling of
its scene and of the PNG that comes back (some 50 µs), and the drawing takes another core
(how many workers: `bot.runtime.PICTURE_WORKERS`). Replays stay on threads (`ReplayPresenter`):
an animation takes seconds, and the hands waiting behind it in a worker would wait that long.

A worker that dies does not stop the pictures: they are drawn on threads from then on (and the
log says so once), as the computer players think on the loop when their workers die.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TypeVar

from bot.service.thinkers import ThinkersBroken, WorkerPool

log = logging.getLogger(__name__)

Scene = TypeVar("Scene")


class Pictures:
    def __init__(self, workers: WorkerPool | None = None) -> None:
        self.workers = workers

    async def draw(self, render: Callable[[Scene], bytes], scene: Scene) -> bytes:
        """`render(scene)`, the PNG bytes of a module-level function of `render` (it travels by
        name to a worker)."""
        workers = self.workers
        if workers is not None:
            try:
                return await workers.run(render, scene)
            except ThinkersBroken:
                if self.workers is workers:
                    log.exception("a picture worker died: pictures are drawn on threads")
                    self.workers = None
        return await asyncio.to_thread(render, scene)

    def close(self) -> None:
        """Stops the workers (blocking, as `WorkerPool.close` is); pictures asked later are
        drawn on threads."""
        workers, self.workers = self.workers, None
        if workers is not None:
            workers.close()
