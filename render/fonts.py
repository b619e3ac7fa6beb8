"""The bundled fonts, and making any player name safe to draw in a fixed width.

DejaVu Sans ships in `render/fonts/` with its licence so every machine draws the same glyphs
(golden tests compare pixels). The BASIC layout engine is used on purpose: it does not depend on
libraqm being present, is faster for short Latin labels and gives the same pixels everywhere.

Names come from Discord and can hold emoji or scripts the font lacks. Those would print as
boxes, so they are dropped (a name made only of emoji becomes "?"); names wider than their slot
are cut with an ellipsis so they never push other things out of place.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}
ELLIPSIS = "…"
_MISSING = "\U0010fffd"  # a private-use code point no font here has: it renders as the "missing" box


@lru_cache(maxsize=128)
def font(size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """`weight` is "regular", "bold" or "condensed" (bold condensed, for tight card indices)."""
    return ImageFont.truetype(str(FONT_DIR / _FILES[weight]), size=size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether DejaVu Sans draws `char` as itself rather than as the missing-glyph box."""
    probe = font(20)
    mask = probe.getmask(char)
    missing = probe.getmask(_MISSING)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def clean_text(text: str) -> str:
    """Removes what the font cannot draw (emoji, controls, joiners) and tidies the spaces left behind."""
    kept = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if category.startswith("Z") or char in "\t\n\r":
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        elif has_glyph(char):
            kept.append(char)
    return " ".join("".join(kept).split())


def fit_text(text: str, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """`text` cut at the longest prefix that, with an ellipsis, fits in `max_width` pixels."""
    if face.getlength(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    if low:
        return text[:low].rstrip() + ELLIPSIS
    return ELLIPSIS if face.getlength(ELLIPSIS) <= max_width else ""


def player_name(name: str, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """A Discord name ready to draw in a slot `max_width` pixels wide."""
    return fit_text(clean_text(name) or "?", face, max_width)
