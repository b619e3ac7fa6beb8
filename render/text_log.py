"""Every text a picture draws, with its size in the picture's pixels, while a test listens.

Phones show a picture fitted into about 400 x 500 px, so a word drawn at 22 px on an 800 px wide
picture is read at 11 px. The test that keeps every word readable there asks the renderer which
texts it drew and how large, rather than trusting a list kept by hand: `canvas.text` and the card
faces report here. Outside `recording()` nothing is kept, at the cost of one lookup per text.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DrawnText:
    value: str
    size: float  # the font's size in the picture's pixels (a card face's, once reduced)
    weight: str


_LOG: ContextVar[list[DrawnText] | None] = ContextVar("render_text_log", default=None)


@contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """The texts drawn inside the block, in order (cached pieces are not drawn again: empty the
    caches first to see them all)."""
    drawn: list[DrawnText] = []
    token = _LOG.set(drawn)
    try:
        yield drawn
    finally:
        _LOG.reset(token)


def note(value: str, size: float, weight: str) -> None:
    drawn = _LOG.get()
    if drawn is not None and value:
        drawn.append(DrawnText(value, size, weight))
