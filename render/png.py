"""PNG encoding, tuned for speed: encoding is most of a picture's cost.

The picture is first reduced to a 256-colour palette (fast octree, no dithering): the felt is
flat and the cards use a few inks, so nobody can see the difference (mean error about one level
in 255), while the encoder then has a third of the bytes to filter and deflate. Palette plus
encoding takes about half the time of encoding the RGB picture, and the file is half the size
(`benchmarks/render.py` compares both at every zlib level). Level 2 costs the same CPU as level 1
for files 7% smaller; level 3 and up cost more time than they save bytes. `optimize` would try
every filter and is far too slow.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 2


def encode(image: Image.Image, compress_level: int = COMPRESS_LEVEL, palette: bool = True) -> bytes:
    if palette:
        image = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=compress_level, optimize=False)
    return buffer.getvalue()
