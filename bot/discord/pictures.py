"""Where the game's pictures are drawn (hands, table, results, standings): in a worker process
beside the bot when it has one (`python -m bot` does, `RummyBot(picture_worker=True)`), else on
a thread.

Drawing is most of a move's CPU in the bot: a hand takes some 2 ms, a table 3 ms, a result 8 ms,
and pressing a button in a hand DM draws one. On threads, all of it is spent in the process that
runs every table's event loop, and the threads hand the GIL back and forth with the loop while
they draw (a press waits for it). In the worker, the loop's share of a picture is the pickling of
its scene and of the PNG that comes back (some 50 µs), and the drawing takes a core of its own.
One worker: its caches of sprites, tiles and deflated bands then serve every table's pictures.
Replays stay on threads (`ReplayPresenter`): an animation takes seconds, and every hand waiting
behind it in the one worker would wait that long.

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
                    log.exception("the picture worker died: pictures are drawn on threads")
                    self.worker = None
        return await asyncio.to_thread(render, scene)

    def close(self) -> None:
        """Stops the worker (blocking, as `WorkerPool.close` is); pictures asked later are drawn
        on threads."""
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.close()
