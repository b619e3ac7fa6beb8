"""How the service asks a computer seat for its move: a policy turns the seat's view and a
generator into one command. Play uses `bot.engine.ai.decide`; tests use `simple_policy`, so that
they do not depend on how well the AI plays."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine.commands import Command, Discard, Pick, Source
from bot.engine.deal import Phase, SeatView

Policy = Callable[[str, SeatView, random.Random], Command]


def think(policy: Policy, level: str, view: SeatView, seed: int) -> Command:
    """`policy`'s move with a generator made from `seed`, here or in a worker process: a seed
    travels in 8 bytes where a generator's state is 2.5 kB that both ends pickle and unpickle,
    and the same seed decides alike wherever the thinking happens."""
    return policy(level, view, random.Random(seed))


def simple_policy(level: str, view: SeatView, rng: random.Random) -> Command:
    """Picks from the closed deck and throws the card back: legal in every deal, never wins."""
    assert view.seat is not None
    if view.phase is Phase.PICK:
        return Pick(view.seat, Source.CLOSED)
    return Discard(view.seat, view.picked or view.hand[-1])
