"""The PNG writer: valid files in the shared palette, and bands deflated apart join into one picture."""

import io
import os
import random
import struct
import zlib
from dataclasses import replace
from itertools import pairwise

from PIL import Image

from bot.engine.cards import parse_cards
from render import HandGroup, HandScene, render_hand, samples
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


def test_the_hand_from_cached_bands_is_exactly_the_whole_picture_in_the_palette():
    cards = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H")
    two_rows = HandScene(groups=tuple(HandGroup("ungrouped", (card,), 5) for card in cards), picked=9)
    spare = HandScene(
        groups=(samples.group("spare_jokers", "JK JK"), samples.group("set", "KD KC 7S", 0)), picked=1
    )
    scenes = (samples.HAND_14, samples.HAND_13_FOUR_COLOUR, samples.HAND_UNSORTED, two_rows, spare)
    for scene in (*scenes, replace(samples.HAND_14, picked=None, wild_rank=None)):
        for _ in range(2):  # drawn, then from the caches
            decoded = Image.open(io.BytesIO(render_hand(scene)))
            assert decoded.tobytes() == to_palette(hand_image(scene)).tobytes()
