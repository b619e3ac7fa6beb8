"""The PNG writer: valid files in the shared palette, and bands deflated apart join into one picture."""

import io
import os
import random
import struct
import zlib
from itertools import pairwise

from PIL import Image

from render import samples
from render.hand import hand_image
from render.palette import PALETTE, to_palette
from render.png import adler32_combine, deflate_band, encode, write


def idat(data: bytes) -> bytes:
    """The concatenated IDAT payload, checking every chunk's CRC on the way."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, payload = 8, b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length : position + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        if kind == b"IDAT":
            payload += body
        position += 12 + length
    return payload


def test_adler32_combine_agrees_with_zlib():
    rng = random.Random(3)
    for _ in range(50):
        first, second = os.urandom(rng.randrange(0, 5000)), os.urandom(rng.randrange(0, 70000))
        combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)


def test_a_picture_is_its_palette_mapping_and_its_stream_checks_out():
    image = hand_image(samples.HAND_14)
    data = encode(image)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == "P" and decoded.size == image.size
    assert bytes(decoded.getpalette() or []) == PALETTE
    assert decoded.tobytes() == to_palette(image).tobytes()
    raw = zlib.decompress(idat(data))  # checks the Adler-32 too
    assert len(raw) == (image.width + 1) * image.height


def test_bands_deflated_apart_make_the_same_picture():
    indexed = to_palette(hand_image(samples.HAND_14))
    cuts = (0, 1, 58, 200, indexed.height)
    bands = [deflate_band(indexed.crop((0, top, indexed.width, bottom))) for top, bottom in pairwise(cuts)]
    data = write(indexed.width, bands)
    assert Image.open(io.BytesIO(data)).tobytes() == indexed.tobytes()
    zlib.decompress(idat(data))
