"""PNG encoding, tuned for speed: encoding is most of a picture's cost.

Pictures are mapped onto the one palette every picture shares (`render.palette`): no per-picture
quantisation, and the encoder then has a third of the bytes to deflate. Rows are stored unfiltered
(filters do not help palette indices: the file is smaller without them) and deflated at zlib level
2, which costs the same CPU as level 1 for files 7% smaller; level 3 and up cost more time than
they save bytes (`benchmarks/render.py` compares the levels).

A picture can be written from horizontal bands deflated separately (`deflate_band`): each band is
a run of complete deflate blocks, so a band that repeats from picture to picture (a hand's header,
its group labels, its position numbers) is deflated once, cached, and only copied afterwards.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterable
from typing import NamedTuple

from PIL import Image

from render.palette import PALETTE, to_palette

COMPRESS_LEVEL = 2
_ADLER_BASE = 65521


class Band(NamedTuple):
    """Rows of a palette picture (each with its filter byte) as raw deflate blocks, not final."""

    deflated: bytes
    adler: int  # Adler-32 of the rows, to combine into the picture's checksum
    size: int  # length of the rows before deflating
    height: int


def deflate_band(image: Image.Image, compress_level: int = COMPRESS_LEVEL) -> Band:
    """Deflates a "P" image's rows, each prefixed with filter type 0 (none)."""
    width, height = image.size
    framed = Image.new("P", (width + 1, height), 0)  # column 0 is every row's filter byte
    framed.paste(image, (1, 0))
    rows = framed.tobytes()
    compressor = zlib.compressobj(compress_level, zlib.DEFLATED, -15)
    data = compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return Band(data, zlib.adler32(rows), len(rows), height)


def adler32_combine(first: int, second: int, second_size: int) -> int:
    """The Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    remainder = second_size % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (remainder * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - remainder) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write(width: int, bands: Iterable[Band]) -> bytes:
    """A palette PNG of `width` from its bands, top to bottom, in the shared palette."""
    height, adler, parts = 0, 1, [b"\x78\x01"]  # zlib header: deflate, 32K window
    for band in bands:
        parts.append(band.deflated)
        adler = adler32_combine(adler, band.adler, band.size)
        height += band.height
    parts.append(b"\x03\x00")  # an empty final block ends the stream
    parts.append(struct.pack(">I", adler))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette, no interlace
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", PALETTE),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )


def encode(image: Image.Image, compress_level: int = COMPRESS_LEVEL, palette: bool = True) -> bytes:
    """The picture as PNG bytes: in the shared palette, or as it is (e.g. RGBA) with `palette=False`."""
    if palette:
        return write(image.width, [deflate_band(to_palette(image), compress_level)])
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=compress_level, optimize=False)
    return buffer.getvalue()
