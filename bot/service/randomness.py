"""Where shuffles come from. Play uses the OS's randomness; tests and crash runs use seeds.

A source is asked for a generator per command (table id, command number), not once per match:
a match reloaded after a restart then shuffles exactly as one that never stopped, without
storing any generator state.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

RandomSource = Callable[[int, int], random.Random]

_SYSTEM = secrets.SystemRandom()


def system_random(table_id: int, seq: int) -> random.Random:
    return _SYSTEM


def seeded(seed: int) -> RandomSource:
    def source(table_id: int, seq: int) -> random.Random:
        return random.Random(f"{seed}:{table_id}:{seq}")

    return source
