"""Builds the shared palette (`render.palette.PALETTE`) afresh from every card face and sample
picture: `python -m render.palette_builder` prints it to paste into `render/palette.py`. Apart
from the palette itself, since it draws with the renderers that the palette serves."""

from __future__ import annotations

from PIL import Image

from bot.engine.cards import build_shoe
from render import samples, theme
from render.hand import STYLE as HAND_STYLE
from render.hand import hand_image
from render.replay_frame import replay_image
from render.result import STYLE as RESULT_STYLE
from render.result import result_image
from render.scenes import HandGroup, HandScene
from render.sprites import back_sprite, card_sprite
from render.standings import standings_image
from render.table import CARD_WIDTH, ICON_WIDTH, table_image


def _flat_colours() -> tuple[theme.RGB, ...]:
    """The theme's own colours, each given an exact entry: flat areas come out exact."""
    colours = [
        theme.FELT_CENTRE,
        theme.FELT_EDGE,
        theme.PANEL,
        theme.PANEL_LINE,
        theme.INK,
        theme.MUTED,
        theme.FADED,
        theme.GOLD,
        theme.GOLD_DARK,
        theme.WARN,
        theme.CARD_FACE,
        theme.CARD_EDGE,
        theme.CARD_BACK,
        theme.CARD_BACK_LINE,
        theme.JOKER_INK,
        *theme.SUIT_COLOURS.values(),
        *theme.FOUR_COLOUR.values(),
        *theme.GROUP_COLOURS.values(),
        *theme.SERIES,
        (0, 0, 0),
        (255, 255, 255),
    ]
    return tuple(dict.fromkeys(colours))


def build() -> bytes:
    """Computes the palette afresh from every card face and sample picture (a second or two)."""
    pictures = [
        hand_image(samples.HAND_14),
        hand_image(samples.HAND_13_FOUR_COLOUR),
        hand_image(samples.HAND_UNSORTED),
        hand_image(samples.HAND_NO_PURE),
        hand_image(samples.HAND_READY),
        table_image(samples.TABLE),
        table_image(samples.TABLE_10),
        result_image(samples.RESULT),
        result_image(samples.RESULT_10),
        standings_image(samples.STANDINGS),
        standings_image(samples.STANDINGS_10),
        standings_image(samples.LEAGUE_STANDINGS),
        replay_image(samples.REPLAY),
        replay_image(samples.REPLAY_10),
    ]
    # Every face partly under its neighbour's shadow, as hands show them, in both decks.
    deck = sorted(set(build_shoe(1, 1)), key=str)
    for four_colour in (False, True):
        for wild_rank in (None, 5):
            for start in range(0, len(deck), 13):
                group = HandGroup("ungrouped", tuple(deck[start : start + 13]), 10)
                scene = HandScene((group,), wild_rank, picked=3, four_colour=four_colour)
                pictures.append(hand_image(scene))
    hand, small = HAND_STYLE.card_width, RESULT_STYLE.card_width
    sprites = [back_sprite(hand), back_sprite(CARD_WIDTH), back_sprite(small), back_sprite(ICON_WIDTH)]
    for card in deck:
        for four_colour in (False, True):
            for wild in (False, True):
                for width, highlight in ((hand, False), (hand, True), (small, False), (small, True)):
                    sprites.append(card_sprite(card, wild, four_colour, width, highlight))
    tiles = []
    for sprite in sprites:
        tile = Image.new("RGB", sprite.size, theme.FELT_CENTRE)
        tile.paste(sprite, (0, 0), sprite)
        tiles.append(tile)
    width = max(picture.width for picture in pictures)
    rows: list[list[Image.Image]] = [[]]
    used = 0
    for tile in tiles:
        if used + tile.width > width:
            rows.append([])
            used = 0
        rows[-1].append(tile)
        used += tile.width
    height = sum(p.height for p in pictures) + sum(max(t.height for t in row) for row in rows)
    training = Image.new("RGB", (width, height), theme.FELT_CENTRE)
    y = 0
    for picture in pictures:
        training.paste(picture, (0, y))
        y += picture.height
    for row in rows:
        x = 0
        for tile in row:
            training.paste(tile, (x, y))
            x += tile.width
        y += max(tile.height for tile in row)
    flat = _flat_colours()
    reduced = training.quantize(256 - len(flat), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    entries = reduced.getpalette() or []
    entries = entries[: 3 * (256 - len(flat))] + [channel for colour in flat for channel in colour]
    return bytes(entries + [0] * (768 - len(entries)))


if __name__ == "__main__":
    text = build().hex()
    print("PALETTE = bytes.fromhex(")
    for start in range(0, len(text), 90):
        print(f'    "{text[start : start + 90]}"')
    print(")")
