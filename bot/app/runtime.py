"""Process-wide settings for a long-running bot process, shared by `python -m bot` and the
service benchmark so that what is measured is what runs."""

from __future__ import annotations

import gc
import importlib
import os
import signal

from bot.app.config import usable_cores
from bot.service.thinkers import WorkerPool

# Python's default (700, 10, 10) runs a full collection every few hundred commands once tables
# are playing, and a full collection walks every live object (every table's match, cards and
# logs), a pause every command waiting at that moment shares: once checkpoints were off the
# commit path, the largest part of the service's slowest commands (`benchmarks/service.py`). Young
# collections 30 times rarer, and full ones rarer still, keep memory bounded all the same
# (Python also waits for the survivors to grow by a quarter before a full pass).
GC_THRESHOLDS = (20_000, 20, 50)
# Added to the worker processes' niceness: when the cores are all busy, the scheduler gives the
# bot's event loop (every table's commands, their saving and their messages) nearly all it asks
# for and the computer players think with what is left (a computer's move waits out a delay
# anyway), instead of the loop queueing behind thinking for an equal share.
THINKER_NICENESS = 5


def tune_gc() -> None:
    """Call once start-up is done and before serving: collects what start-up left, moves every
    object alive now (modules, classes, caches, resumed tables: alive for the whole run) out of
    the collector's sight so that no later pass walks them again, and makes passes rarer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def thinker_count() -> int:
    """A worker per core this process may run on. Not one less for the event loop: the workers
    run at a lower priority (`THINKER_NICENESS`), so the loop takes a core whenever it needs
    one and the thinking has the rest; with a core left out, strong players' thinking was the
    service's limit while that core sat mostly idle."""
    return usable_cores()


def start_thinkers(workers: int | None = None) -> WorkerPool:
    """The worker processes that computer players think in (`TableService(thinkers=...)`), all
    started now so that no table's first turn waits for one to boot. Close them with `close()`.

    Spawned, not forked: by now the bot has threads (aiosqlite's, discord.py's), and a fork
    copies their locks in whatever state they are in, along with every socket and table in
    memory (Python 3.12 warns of it; 3.14 no longer forks by default). Forkserver is safe too,
    but starting its server blocks the first request for nothing in return:
    the workers live as long as the bot, so each boots once."""
    return WorkerPool(workers or thinker_count(), initializer=_start_thinker)


def _start_thinker() -> None:
    """In each worker: a lower priority than the bot's (`THINKER_NICENESS`), the engine imported
    once at boot, not on the first decision; Ctrl-C left to the bot, which shuts its workers
    down itself (instead of each printing a traceback)."""
    if hasattr(os, "nice"):  # not on Windows
        os.nice(THINKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    importlib.import_module("bot.engine.ai")


def start_picture_worker() -> WorkerPool:
    """A worker process for one kind of the game's pictures (`bot.discord.pictures`), started now
    so that the first picture does not wait for it to boot. At the bot's own priority, unlike
    the thinkers: a person's press waits for its hand's picture (at the thinkers' priority, under
    load, the pictures of their own moves reached people three times later). Close it with
    `close()`."""
    return WorkerPool(1, initializer=_start_picture_worker)


def _start_picture_worker() -> None:
    """In the worker: the drawing code imported at boot, Ctrl-C left to the bot (see
    `_start_thinker`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    importlib.import_module("render")
