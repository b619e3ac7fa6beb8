"""Card images: pure functions from engine values to PNG bytes (no Discord here).

Build a scene from `render.scenes` and call the matching `render_*`; every function returns PNG
bytes ready to attach, and the matching `*_alt` (`render.alt_text`) says the picture in words
for its attachment's description. `python -m render.samples` writes example pictures to look at.
"""

from render.alt_text import hand_alt, hand_line, replay_alt, result_alt, standings_alt, table_alt
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
    "hand_alt",
    "hand_line",
    "render_card",
    "render_hand",
    "render_result",
    "render_standings",
    "render_table",
    "replay_alt",
    "result_alt",
    "standings_alt",
    "table_alt",
]
