"""The PNG writer: valid files in the shared palette, and bands deflated apart join into one picture."""

import io
import os
import random
import struct
import zlib
from dataclasses import replace
from itertools import pairwise

from PIL import Image

from bot.engine.cards import build_shoe, parse_cards
from render import HandGroup, HandScene, render_hand, samples, tiles
from render.hand import hand_image
from render.palette import PALETTE, to_palette
from render.png import adler32_combine, deflate_band, encode, write
from render.scenes import GROUP_KINDS
from render.tiles import TILES


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


def random_hand(rng, shoe):
    cards = rng.sample(shoe, rng.choice((13, 14)))
    cuts = sorted(rng.sample(range(1, len(cards)), rng.randrange(0, 6)))
    groups = tuple(
        HandGroup(rng.choice(GROUP_KINDS), tuple(cards[a:b]), rng.randrange(0, 40))
        for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)
    )
    picked = rng.randrange(1, len(cards) + 1) if rng.random() < 0.7 else None
    return HandScene(groups, rng.choice((None, *range(1, 14))), picked, four_colour=rng.random() < 0.3)


def test_hands_from_tiles_are_exact_whatever_the_tiles_already_cached():
    rng = random.Random(7)
    shoe = build_shoe(2, 2)
    tiles.clear()
    scenes = [random_hand(rng, shoe) for _ in range(12)]
    # Neighbours of those: a card swapped, the picked card moved, so some tiles hit and others miss.
    for scene in scenes[:6]:
        groups = list(scene.groups)
        first = groups[0]
        groups[0] = replace(first, cards=(rng.choice(shoe), *first.cards[1:]))
        scenes.append(replace(scene, groups=tuple(groups), picked=rng.randrange(1, len(scene.cards) + 1)))
    for scene in scenes + scenes[::3]:
        decoded = Image.open(io.BytesIO(render_hand(scene)))
        assert decoded.tobytes() == to_palette(hand_image(scene)).tobytes(), scene
    assert TILES.hits > 0 and TILES.misses > 0


def test_the_tile_cache_stays_within_its_bound():
    rng = random.Random(8)
    shoe = build_shoe(2, 2)
    limit = TILES.limit
    TILES.limit = 200_000
    try:
        for _ in range(5):
            render_hand(random_hand(rng, shoe))
            assert TILES.size == sum(tile.width * tile.height for tile in TILES.entries.values())
            assert 0 < TILES.size <= 200_000
    finally:
        TILES.limit = limit
