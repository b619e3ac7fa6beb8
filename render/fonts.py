"""The bundled fonts, and making any player name safe to draw in a fixed width.

DejaVu Sans ships in `render/fonts/` with its licence so every machine draws the same glyphs
(golden tests compare pixels). The BASIC layout engine is used on purpose for it: it does not
depend on libraqm being present, is faster for short Latin labels and gives the same pixels
everywhere.

Hindi words are drawn with Noto Sans Devanagari (bundled beside it, SIL Open Font Licence), and
only through Pillow's RAQM layout: Devanagari joins letters into conjuncts and moves vowel signs
(ि is drawn before the consonant it follows), which only a shaping engine does. Pillow's wheels
include libraqm; `check_complex_layout` says what to install where it is missing.

Names come from Discord and can hold emoji or scripts the font lacks. Those would print as
boxes, so they are dropped (a name made only of emoji becomes "?"); names wider than their slot
are cut with an ellipsis so they never push other things out of place.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont, features

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}
_WEIGHT_OF_FILE = {file: weight for weight, file in _FILES.items()}
ELLIPSIS = "…"
DEVANAGARI = "NotoSansDevanagari.ttf"  # one variable font: weight and width are axes
_DEVANAGARI_AXES = {"regular": (400, 100), "bold": (700, 100), "condensed": (700, 62.5)}  # (wght, wdth)
_MISSING = "\U0010fffd"  # a private-use code point no font here has: it renders as the "missing" box


@lru_cache(maxsize=128)
def font(size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """`weight` is "regular", "bold" or "condensed" (bold condensed, for tight card indices)."""
    return ImageFont.truetype(str(FONT_DIR / _FILES[weight]), size=size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=128)
def devanagari_font(size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """Noto Sans Devanagari at `weight`, shaped by raqm (see the module's docstring)."""
    face = ImageFont.truetype(str(FONT_DIR / DEVANAGARI), size=size, layout_engine=ImageFont.Layout.RAQM)
    face.set_variation_by_axes(list(_DEVANAGARI_AXES[weight]))
    return face


def is_devanagari(text: str) -> bool:
    return any("\u0900" <= char <= "\u097f" or "\ua8e0" <= char <= "\ua8ff" for char in text)


def font_for(text: str, size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """The face that draws `text`: Noto Sans Devanagari for Hindi (its Latin and digits too, so a
    line keeps one face), DejaVu Sans for the rest."""
    return devanagari_font(size, weight) if is_devanagari(text) else font(size, weight)


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[str, bool], ...]:
    """`text` cut where the face drawing it changes, each part with whether it is Noto Sans
    Devanagari's: a Hindi line is drawn in it but for the characters it lacks (a card's suit, the
    "†" of an adjusted score, a ✓), which DejaVu Sans draws on the same baseline."""
    if not is_devanagari(text):
        return ((text, False),)
    parts: list[tuple[str, bool]] = []
    for char in text:
        hindi = devanagari_has(char)
        if parts and (parts[-1][1] == hindi or char.isspace()):
            parts[-1] = (parts[-1][0] + char, parts[-1][1])
        else:
            parts.append((char, hindi))
    return tuple(parts)


def face_of(hindi: bool, size: int, weight: str) -> ImageFont.FreeTypeFont:
    return devanagari_font(size, weight) if hindi else font(size, weight)


def length(text: str, size: int, weight: str = "regular") -> float:
    """The advance width of `text` as `runs` draws it."""
    return sum(face_of(hindi, size, weight).getlength(part) for part, hindi in runs(text))


def check_complex_layout() -> str | None:
    """None when Pillow can shape Devanagari; else what to install (said at start-up, and a test
    fails): without raqm, Hindi words come out as letters in the wrong order."""
    if features.check("raqm"):
        return None
    return (
        "Pillow has no raqm layout, so Hindi text would be drawn wrongly. Install Pillow's wheel "
        "(`pip install --force-reinstall Pillow`), which includes it, or, for a Pillow built from "
        "source, the system's libraqm (e.g. `apt-get install libraqm0`) and reinstall Pillow."
    )


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether DejaVu Sans draws `char` as itself rather than as the missing-glyph box (Devanagari
    letters are drawn with their own font)."""
    if is_devanagari(char):
        return True
    probe = font(20)
    mask = probe.getmask(char)
    missing = probe.getmask(_MISSING)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


@lru_cache(maxsize=1024)
def devanagari_has(char: str) -> bool:
    """Whether Noto Sans Devanagari draws `char` (it has Latin and digits, not card suits)."""
    probe = devanagari_font(20)
    return bytes(probe.getmask(char)) != bytes(probe.getmask(_MISSING)) or char.isspace()


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
    """`text` cut at the longest prefix that, with an ellipsis, fits in `max_width` pixels
    (measured as it will be drawn: `face`'s size and weight, Hindi in its own face)."""
    size, weight = round(face.size), _WEIGHT_OF_FILE.get(Path(str(face.path)).name, "regular")
    if length(text, size, weight) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if length(text[:middle].rstrip() + ELLIPSIS, size, weight) <= max_width:
            low = middle
        else:
            high = middle - 1
    if low:
        return text[:low].rstrip() + ELLIPSIS
    return ELLIPSIS if length(ELLIPSIS, size, weight) <= max_width else ""


@lru_cache(maxsize=4096)
def player_name(name: str, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """A Discord name ready to draw in a slot `max_width` pixels wide (kept: the same names are
    drawn on every move, and measuring a Devanagari one goes through raqm's shaping)."""
    return fit_text(clean_text(name) or "?", face, max_width)
