"""PNG encoding, tuned for speed: encoding is most of a picture's cost.

The picture is first reduced to a 256-colour palette (fast octree, no dithering): the felt is
flat and the cards use a few inks, so nobody can see the difference, while the encoder then has
a third of the bytes to filter and deflate. That makes encoding faster *and* files less than
half the size (measured in `benchmarks/render.py`, which also compares the zlib levels).
`optimize` would try every filter and is far too slow.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 1


def encode(image: Image.Image, compress_level: int = COMPRESS_LEVEL, palette: bool = True) -> bytes:
    if palette:
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=compress_level, optimize=False)
    return buffer.getvalue()
