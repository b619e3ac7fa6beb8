"""Card images: pure functions from engine values to PNG bytes (no Discord here).

Build a scene from `render.scenes` and call the matching `render_*`; every function returns PNG
bytes ready to attach. `python -m render.samples` writes example pictures to look at.
"""

from render.card import render_card
from render.hand import render_hand
from render.result import render_result
from render.scenes import (
    HandGroup,
    HandScene,
    PlayerResult,
    ResultScene,
    SeatView,
    StandingsRow,
    StandingsScene,
    TableScene,
)
from render.standings import render_standings
from render.table import render_table

__all__ = [
    "HandGroup",
    "HandScene",
    "PlayerResult",
    "ResultScene",
    "SeatView",
    "StandingsRow",
    "StandingsScene",
    "TableScene",
    "render_card",
    "render_hand",
    "render_result",
    "render_standings",
    "render_table",
]
