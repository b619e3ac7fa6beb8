"""How the service asks a computer seat for its move: a policy turns the seat's view and a
generator into one command. Play uses `bot.engine.ai.decide`; tests use `simple_policy`, so that
they do not depend on how well the AI plays."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine.commands import Command, Discard, Pick, Source
from bot.engine.deal import Phase, SeatView

Policy = Callable[[str, SeatView, random.Random], Command]


def simple_policy(level: str, view: SeatView, rng: random.Random) -> Command:
    """Picks from the closed deck and throws the card back: legal in every deal, never wins."""
    assert view.seat is not None
    if view.phase is Phase.PICK:
        return Pick(view.seat, Source.CLOSED)
    return Discard(view.seat, view.picked or view.hand[-1])
