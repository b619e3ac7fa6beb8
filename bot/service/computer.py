"""Computer players: `bot.engine.ai` when it is there, else a placeholder that keeps games moving."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from bot.engine.deal import Phase, SeatView

Policy = Callable[[str, SeatView, random.Random], dict[str, Any]]


def simple_policy(level: str, view: SeatView, rng: random.Random) -> dict[str, Any]:
    """Picks from the closed deck and throws the card back: legal in every deal, never wins."""
    assert view.seat is not None
    if view.phase is Phase.PICK:
        return {"command": "pick", "seat": view.seat, "source": "closed"}
    card = view.picked or view.hand[-1]
    return {"command": "discard", "seat": view.seat, "card": card.code}


def default_policy() -> Policy:
    try:
        ai = importlib.import_module("bot.engine.ai")
    except ImportError:
        return simple_policy

    def decide(level: str, view: SeatView, rng: random.Random) -> dict[str, Any]:
        result: dict[str, Any] = ai.ComputerPlayer(level, rng).decide(view)
        return result

    return decide
