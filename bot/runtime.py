"""Process-wide settings for a long-running bot process, shared by `python -m bot` and the
service benchmark so that what is measured is what runs."""

from __future__ import annotations

import gc

# Python's default (700, 10, 10) runs a full collection every few hundred commands once tables
# are playing, and a full collection walks every live object (every table's match, cards and
# logs): 10-25 ms with 100 tables, a pause every command waiting at that moment shares, and the
# largest part of the service's p99 once checkpoints were off the commit path. Young
# collections 30 times rarer, and full ones rarer still, keep memory bounded all the same
# (Python also waits for the survivors to grow by a quarter before a full pass).
GC_THRESHOLDS = (20_000, 20, 50)


def tune_gc() -> None:
    """Call once, after start-up's imports and before serving: collects what start-up left,
    moves every object alive now (modules, classes, caches: alive for the whole run) out of
    the collector's sight so that no later pass walks them again, and makes passes rarer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
