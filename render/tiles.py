"""A row of overlapping cards drawn straight in the shared palette, from cached tiles.

Composing cards in full colour and mapping the result onto the palette is most of what a hand
costs; yet from move to move most of a row is the same cards at the same spacing. So the row is
cut at every sprite's left edge and just past every card's rounded left corners, and each slice
is a tile: drawn in full colour and mapped once, then copied in palette form.

A tile's key is everything its pixels depend on: its width and height, and each sprite reaching
into it with its offset, named by a digest of its pixels in the slice where its card face shows
there, or only by its halo (shadow or glow, the same for every card) where a later card covers
its face. So the slice of a card right of its corners does not depend on the card beneath it
(it covers it), and the narrow slice at its left edge depends only on what shows of the card
beneath, which is the same for many cards (a six and a nine of hearts look alike there). The
pixels are exactly those of pasting the sprites in full colour and mapping the picture, as
`test_render_png` checks.

The tiles are kept in one LRU cache bounded by their pixels, `TILE_CACHE_BYTES` (24 MB; a
slice is ~18 to ~140 pixels wide by a row of cards high, 4 to 30 KB). A region's digest is made
from digests of the sprite's columns (each sprite's once), so a new spacing costs microseconds;
both are remembered in bounded caches (`SIGNATURE_CACHE_SIZE` and `COLUMN_CACHE_SIZE` entries,
~2.5 and ~3 MB).
"""

from __future__ import annotations

import hashlib
import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from PIL import Image

from render.palette import to_palette
from render.sprites import SpritePieces

Box = tuple[int, int, int, int]
TILE_CACHE_BYTES = 24 * 2**20


@dataclass(frozen=True, slots=True)
class PlacedSprite:
    """A sprite to paste at (x, y), with what its pixels depend on and where its card is opaque."""

    key: Hashable  # everything that changes its pixels
    halo: Hashable  # everything that changes its pixels outside the card body
    image: Image.Image  # the sprite (RGBA)
    pieces: SpritePieces
    x: int
    y: int
    size: tuple[int, int]
    body: Box  # the card within the sprite, in the band's coordinates
    opaque: tuple[Box, ...]  # where the card is fully opaque, in the band's coordinates
    corner: int  # how far from its left edge the card is not fully opaque (its rounded corners)


class _Tiles:
    """An LRU cache of tiles bounded by their pixels (one byte each in palette form)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.entries: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self.size = 0  # bytes of pixels kept
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> Image.Image | None:
        with self.lock:
            tile = self.entries.get(key)
            if tile is None:
                self.misses += 1
            else:
                self.hits += 1
                self.entries.move_to_end(key)
            return tile

    def put(self, key: Hashable, tile: Image.Image) -> None:
        with self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.size -= old.width * old.height
            self.entries[key] = tile
            self.size += tile.width * tile.height
            while self.size > self.limit and self.entries:
                _, dropped = self.entries.popitem(last=False)
                self.size -= dropped.width * dropped.height

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.size = self.hits = self.misses = 0


TILES = _Tiles(TILE_CACHE_BYTES)


def _intersects(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def _slices(sprites: Sequence[PlacedSprite]) -> list[tuple[int, int]]:
    """Cuts at each sprite's left edge and just right of each card's left corners."""
    cuts = {sprite.x for sprite in sprites} | {sprite.body[0] + sprite.corner for sprite in sprites}
    cuts.add(max(sprite.x + sprite.size[0] for sprite in sprites))
    ordered = sorted(cuts)
    return list(pairwise(ordered))


def _covering(
    sprites: Sequence[PlacedSprite], slices: list[tuple[int, int]], top: int, bottom: int
) -> list[list[PlacedSprite]]:
    """For each slice, the sprites reaching into it (between rows `top` and `bottom`), in pasting order."""
    starts = [sprite.x for sprite in sprites]
    ends = [sprite.x + sprite.size[0] for sprite in sprites]
    if starts != sorted(starts) or ends != sorted(ends):  # not a row laid left to right
        return [
            [
                s
                for s in sprites
                if _intersects((s.x, s.y, s.x + s.size[0], s.y + s.size[1]), (a, top, b, bottom))
            ]
            for a, b in slices
        ]
    # Left to right, the sprites reaching into a slice are a run: those ending after its left
    # edge and starting before its right edge.
    return [
        [
            s
            for s in sprites[bisect_right(ends, a) : bisect_left(starts, b)]
            if s.y < bottom and s.y + s.size[1] > top
        ]
        for a, b in slices
    ]


def _tile_key(covering: list[PlacedSprite], box: Box) -> Hashable:
    """The tile's key, from the sprites that reach into it in pasting order."""
    parts: list[Hashable] = []
    for index, sprite in enumerate(covering):
        face = (
            max(box[0], sprite.body[0]),
            max(box[1], sprite.body[1]),
            min(box[2], sprite.body[2]),
            min(box[3], sprite.body[3]),
        )
        shows = face[0] < face[2] and face[1] < face[3]
        if shows:
            later = covering[index + 1 :]
            shows = not any(_inside(face, opaque) for other in later for opaque in other.opaque)
        x, y = sprite.x - box[0], sprite.y - box[1]
        if not shows:
            parts.append((sprite.halo, x, y))
            continue
        # Named by the pixels it brings into the tile, not by its card (see the module).
        region = (
            max(0, -x),
            max(0, -y),
            min(sprite.size[0], box[2] - sprite.x),
            min(sprite.size[1], box[3] - sprite.y),
        )
        parts.append((_pixels(sprite, region), x, y))
    return box[2] - box[0], box[3] - box[1], tuple(parts)


_SIGNATURES: OrderedDict[tuple[Hashable, Box], bytes] = OrderedDict()
SIGNATURE_CACHE_SIZE = 8192  # ~300 bytes each with their keys: ~2.5 MB
_COLUMNS: OrderedDict[tuple[Hashable, int, int], bytes] = OrderedDict()
COLUMN_CACHE_SIZE = 2048  # ~1.3 KB each: ~3 MB


def clear(columns: bool = True) -> None:
    """Empties the tiles and the digests (tests and benchmarks start cold with it).

    `columns=False` keeps each sprite's column digests, made once per sprite like the sprite.
    """
    TILES.clear()
    with TILES.lock:
        _SIGNATURES.clear()
        if columns:
            _COLUMNS.clear()


def _remember(cache: OrderedDict[Any, bytes], key: Hashable, value: bytes, size: int) -> None:
    with TILES.lock:
        cache[key] = value
        while len(cache) > size:
            cache.popitem(last=False)  # the oldest first


def _columns(sprite: PlacedSprite, top: int, bottom: int) -> bytes:
    """An 8-byte digest of each column of the sprite between rows `top` and `bottom`, end to end.

    Digesting a tile's region from these costs a few microseconds, where digesting its pixels
    costs tens; they are computed once per sprite (two row ranges: resting and lifted).
    """
    key = (sprite.key, top, bottom)
    columns = _COLUMNS.get(key)
    if columns is None:
        image = sprite.image.crop((0, top, sprite.size[0], bottom)).transpose(Image.Transpose.TRANSPOSE)
        data, step = image.tobytes(), image.width * 4  # each row of the transposed sprite is a column
        digests = (
            hashlib.sha1(data[start : start + step], usedforsecurity=False).digest()[:8]
            for start in range(0, len(data), step)
        )
        columns = b"".join(digests)
        _remember(_COLUMNS, key, columns, COLUMN_CACHE_SIZE)
    return columns


def _pixels(sprite: PlacedSprite, region: Box) -> tuple[tuple[int, int], bytes]:
    """A digest of the sprite's pixels in `region` (sprite coordinates), remembered per sprite and region."""
    key = (sprite.key, region)
    digest = _SIGNATURES.get(key)
    if digest is None:
        columns = _columns(sprite, region[1], region[3])[8 * region[0] : 8 * region[2]]
        digest = hashlib.sha1(columns, usedforsecurity=False).digest()
        _remember(_SIGNATURES, key, digest, SIGNATURE_CACHE_SIZE)
    return (region[2] - region[0], region[3] - region[1]), digest


def draw_row(
    canvas: Image.Image,
    background: Callable[[int, int], Image.Image],
    sprites: Sequence[PlacedSprite],
    top: int,
    bottom: int,
    ground: Hashable,
) -> None:
    """Pastes the sprites, in order, onto the "P" `canvas` between rows `top` and `bottom`.

    `background(left, right)` gives the full-colour picture under the sprites between those
    columns (as high as `canvas`), needed only when a tile is missing; it must be one flat colour,
    `ground`, wherever a sprite reaches between `top` and `bottom`, since tiles are shared between
    pictures and places (`ground` is part of every tile's key).
    """
    if not sprites:
        return
    missing: list[tuple[Box, Hashable, list[PlacedSprite]]] = []
    slices = _slices(sprites)
    core = canvas.im  # pasting through the core saves Image.paste's checks, ~30 times a row
    for (left, right), covering in zip(slices, _covering(sprites, slices, top, bottom), strict=True):
        if not covering:
            continue
        box = (left, top, right, bottom)
        key: Hashable = (ground, _tile_key(covering, box))
        tile = TILES.get(key)
        if tile is None:
            missing.append((box, key, covering))
        else:
            core.paste(tile.im, box)
    if not missing:
        return
    # Draw only the columns the missing tiles span, and map them in one go: mapping costs per
    # pixel, each call has its overhead, and a large fresh image costs page faults.
    left, right = min(box[0] for box, _, _ in missing), max(box[2] for box, _, _ in missing)
    scratch = background(left, right)
    needed = {id(sprite) for _, _, covering in missing for sprite in covering}
    for sprite in sprites:
        if id(sprite) in needed:
            sprite.pieces.paste(scratch, (sprite.x - left, sprite.y))
    mapped = to_palette(scratch)
    for box, tile_key, _ in missing:
        tile = mapped.crop((box[0] - left, box[1], box[2] - left, box[3]))
        TILES.put(tile_key, tile)
        canvas.paste(tile, box)
