"""Where shuffles come from. Play uses the OS's randomness; tests and crash runs use seeds.

A source is asked for a generator per command (table id, command number), not once per match:
a match reloaded after a restart then shuffles exactly as one that never stopped, without
storing any generator state.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, MutableSequence
from typing import Any

RandomSource = Callable[[int, int], random.Random]


class OsRandom(random.SystemRandom):
    """`SystemRandom`, the OS's randomness, with a quicker `shuffle`."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """As `random.shuffle` does it (Fisher-Yates, each index drawn by rejection from the
        fewest bits that hold it, as `_randbelow` does), the bytes for all its draws read from
        the OS a few hundred at a time. `SystemRandom` makes a system call and two Python calls
        per card: a deal's start (a 106-card shoe, the toss) took over a millisecond of the
        event loop, nearly all of it there."""
        supply, at = b"", 0
        for i in reversed(range(1, len(x))):
            bound = i + 1
            bits = bound.bit_length()
            size = (bits + 7) // 8
            while True:
                if at + size > len(supply):
                    supply, at = os.urandom(max(256, size)), 0
                j = int.from_bytes(supply[at : at + size]) >> (size * 8 - bits)
                at += size
                if j < bound:
                    break
            x[i], x[j] = x[j], x[i]


_SYSTEM = OsRandom()


def system_random(table_id: int, seq: int) -> random.Random:
    return _SYSTEM


def seeded(seed: int) -> RandomSource:
    def source(table_id: int, seq: int) -> random.Random:
        return random.Random(f"{seed}:{table_id}:{seq}")

    return source
