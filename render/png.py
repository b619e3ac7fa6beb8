"""PNG encoding, tuned for speed: encoding is most of a picture's cost.

`compress_level` 1 was measured (see `benchmarks/render.py`) as the best trade: the flat felt and
card faces compress well even at the fastest zlib level, so higher levels cost several
milliseconds for a few percent of size. `optimize` would try every filter and is far too slow.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 1


def encode(image: Image.Image, compress_level: int = COMPRESS_LEVEL) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=compress_level, optimize=False)
    return buffer.getvalue()
