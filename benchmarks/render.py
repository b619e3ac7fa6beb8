"""How long the pictures take and how big they are: `python benchmarks/render.py [runs]`.

For each picture it prints the median and 90th percentile of the whole `render_*` call, PNG
included (what a move waits for), this process's CPU time beside it, and the share of each step:
composition (pasting cached sprites, drawing text), mapping onto the shared palette, and PNG
encoding (deflate and the file around it), each step timed on its own. For the hand the steps are
assembling its cards band from cached tiles (`render.tiles`) and the PNG (its header, labels
and numbers come deflated from caches). More hand figures show what the caches are worth: the
same hand with every cache emptied before each call (its steps then are those of drawing every
band in full colour, mapping and deflating them); a run of different random hands (new cards,
groups and points each time); and 10 and 100 deals replayed at once, move by move, as a busy
bot renders them; with the tile cache's hit rate and size. The sample hand's figure is the one
issue 14 sets (at most 3 ms median, PNG included). Sprites are
warmed first (the cold cost of drawing every face once is printed separately): a running bot
pays it once per process. Then it compares zlib levels for the hand, which is how `render.png`
was tuned.

Timings are wall-clock, with this process's CPU time beside the totals; other work on the
machine inflates wall time, so the load average is printed too.
"""

import os
import random
import statistics
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on the path and its name would hide the
# `render` package; drop it before importing.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bot.engine.cards import build_shoe  # noqa: E402
from render import (  # noqa: E402
    hand,
    render_hand,
    render_result,
    render_standings,
    render_table,
    samples,
    tiles,
)
from render.hand import hand_image  # noqa: E402
from render.palette import to_palette  # noqa: E402
from render.png import COMPRESS_LEVEL, deflate_band, write  # noqa: E402
from render.result import result_image  # noqa: E402
from render.scenes import GROUP_KINDS, HandGroup, HandScene, PlayerResult, ResultScene  # noqa: E402
from render.sprites import card_sprite  # noqa: E402
from render.standings import standings_image  # noqa: E402
from render.table import table_image  # noqa: E402
from render.tiles import TILES  # noqa: E402

FULL_RESULT = ResultScene(
    players=tuple(
        PlayerResult(f"Player {i}", samples.HAND_14.groups, 40, winner=i == 0, standing="-40")
        for i in range(6)
    ),
    wild_rank=7,
    title="Six players",
)
CASES = (
    ("table (6 seats)", table_image, render_table, samples.TABLE),
    ("result (4 players)", result_image, render_result, samples.RESULT),
    ("result (6 x 14 cards)", result_image, render_result, FULL_RESULT),
    ("standings (4 rows)", standings_image, render_standings, samples.STANDINGS),
)
BAND_CACHES = (hand._header_deflated, hand._labels_deflated, hand._numbers_deflated)


def timed(function, runs):
    """(median wall ms, 90th percentile wall ms, median CPU ms of this process, last value)."""
    wall, cpu = [], []
    value = None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = function()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    wall.sort()
    return statistics.median(wall), wall[max(0, int(len(wall) * 0.9) - 1)], statistics.median(cpu), value


def random_hands(count, seed=14):
    """Hands as play shows them: 13 or 14 cards in one to five groups, new points each time."""
    rng = random.Random(seed)
    shoe = build_shoe(2, 2)
    scenes = []
    for _ in range(count):
        cards = rng.sample(shoe, rng.choice((13, 14)))
        cuts = sorted(rng.sample(range(1, len(cards)), rng.randrange(0, 5)))
        groups = tuple(
            HandGroup(rng.choice(GROUP_KINDS), tuple(cards[a:b]), rng.randrange(0, 40))
            for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)
        )
        picked = rng.randrange(1, len(cards) + 1) if len(cards) == 14 else None
        scenes.append(
            HandScene(groups, rng.choice((None, *range(1, 14))), picked, four_colour=rng.random() < 0.2)
        )
    return scenes


def deals_in_play(players, turns, seed=15):
    """The hands of `players` deals at once, move by move, as a busy bot renders them.

    Each player holds 13 cards in groups; on their turn they pick a card (shown lifted at the
    end) and discard one, now and then moving a card to another group; every move re-renders
    that player's hand. Players take turns across the tables, so the caches serve them all.
    """
    rng = random.Random(seed)
    shoe = build_shoe(2, 2)
    hands = []
    for _ in range(players):
        cards = rng.sample(shoe, 13)
        cuts = sorted(rng.sample(range(1, 13), 3))
        groups = [list(cards[a:b]) for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
        hands.append((groups, rng.choice((None, *range(1, 14))), rng.random() < 0.2))
    kinds = ("pure_sequence", "impure_sequence", "set", "ungrouped")

    def scene(groups, wild, four_colour, picked):
        labelled = tuple(
            HandGroup(kinds[min(i, 3)], tuple(cards), 0 if i < 3 else min(80, 10 * len(cards)))
            for i, cards in enumerate(groups)
            if cards
        )
        return HandScene(labelled, wild, picked, four_colour=four_colour)

    scenes = []
    for _ in range(turns):
        for groups, wild, four_colour in hands:
            groups[-1].append(rng.choice(shoe))
            scenes.append(scene(groups, wild, four_colour, sum(map(len, groups))))
            group = rng.choice([g for g in groups if g])
            group.remove(rng.choice(group))
            if rng.random() < 0.3:
                source = rng.choice([g for g in groups if len(g) > 1])
                rng.choice(groups).append(source.pop(rng.randrange(len(source))))
            scenes.append(scene(groups, wild, four_colour, None))
    return scenes


def line(name, total, total_p90, total_cpu, parts, data, size):
    steps = sum(parts.values())
    shares = " ".join(f"{step} {ms:4.2f} ({ms / steps:4.0%})" for step, ms in parts.items())
    return (
        f"{name:22} {total:5.2f} ms median ({total_p90:5.2f} p90, {total_cpu:5.2f} CPU) | {shares} | "
        f"{len(data) / 1024:5.1f} KB, {size[0]} x {size[1]}"
    )


def timed_with_sprites_drawn(scenes):
    """Each scene rendered once, timed, after every sprite they use was drawn once and the tiles
    and bands were emptied: the figure is about the pictures. Also the tiles' hit rate."""
    for scene in scenes:
        render_hand(scene)
    tiles.clear(columns=False)
    for cache in BAND_CACHES:
        cache.cache_clear()
    walk = iter(scenes)
    total, total_p90, total_cpu, _ = timed(lambda: render_hand(next(walk)), len(scenes))
    return total, total_p90, total_cpu, TILES.hits / max(1, TILES.hits + TILES.misses)


def hand_figures(runs):
    scene = samples.HAND_14
    render_hand(scene)  # warm the sprites, the tiles and the band caches
    total, total_p90, total_cpu, data = timed(lambda: render_hand(scene), runs)
    height = hand.hand_height(scene)
    rows = [(row, cards_top - hand.LIFT - 8 - hand.LABEL_BAND) for row, cards_top in hand.layout(scene)]
    tiled, _, _, indexed = timed(
        lambda: [hand._cards_band_indexed(scene, row, top, height) for row, top in rows], runs
    )

    def cached_bands():
        bands = [hand._header_deflated(*hand._header_key(scene), height)]
        for row, top in rows:
            bands.append(hand._labels_deflated(hand._label_key(row, scene.language), top, height))
            bands.append(hand._numbers_deflated(hand._numbers_key(row, scene), top, height))
        return bands

    encoded, _, _, _ = timed(lambda: write(hand.WIDTH, [*cached_bands(), *map(deflate_band, indexed)]), runs)
    parts = {"cards from tiles": tiled, "PNG": encoded}
    print(line("hand (14 cards)", total, total_p90, total_cpu, parts, data, (hand.WIDTH, height)))

    # Nothing cached but the sprites (and their column digests, made once per sprite like the
    # sprite): every band drawn in full colour, mapped and deflated.
    def uncached():
        tiles.clear(columns=False)
        for cache in BAND_CACHES:
            cache.cache_clear()
        return render_hand(scene)

    total, total_p90, total_cpu, data = timed(uncached, runs)

    def full_colour():
        bands = [hand._header_band(*hand._header_key(scene), height)]
        for row, top in rows:
            bands.append(hand._labels_band(hand._label_key(row, scene.language), top, height))
            bands.append(hand._cards_band(scene, row, top, height))
            bands.append(hand._numbers_band(hand._numbers_key(row, scene), top, height))
        return bands

    composed, _, _, bands = timed(full_colour, runs)
    mapped, _, _, indexed = timed(lambda: [to_palette(band) for band in bands], runs)
    encoded, _, _, _ = timed(lambda: write(hand.WIDTH, [deflate_band(band) for band in indexed]), runs)
    parts = {"compose": composed, "palette": mapped, "PNG": encoded}
    print(line("  nothing cached", total, total_p90, total_cpu, parts, data, (hand.WIDTH, height)))
    hands = random_hands(max(runs, 200))
    total, total_p90, total_cpu, hit_rate = timed_with_sprites_drawn(hands)
    sizes = sorted(len(render_hand(scene)) for scene in hands)
    print(
        f"  {len(hands)} different hands: {total:5.2f} ms median ({total_p90:5.2f} p90, "
        f"{total_cpu:5.2f} CPU); "
        f"tiles {hit_rate:.0%} hits, {len(TILES.entries)} kept ({TILES.size / 2**20:.1f} MB); "
        f"{statistics.median(sizes) / 1024:.1f} KB median, {sizes[-1] / 1024:.1f} KB largest"
    )


def play_figures(players, turns):
    scenes = deals_in_play(players, turns)
    total, total_p90, total_cpu, hit_rate = timed_with_sprites_drawn(scenes)
    print(
        f"  {players} deals in play, {len(scenes)} moves: {total:5.2f} ms median ({total_p90:5.2f} p90, "
        f"{total_cpu:5.2f} CPU); tiles {hit_rate:.0%} hits, {len(TILES.entries)} kept "
        f"({TILES.size / 2**20:.1f} MB)"
    )


def main(runs):
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {runs} runs each; "
        f"shared 256-colour palette, PNG level {COMPRESS_LEVEL}, rows unfiltered"
    )
    start = time.perf_counter()
    for card in set(build_shoe(1, 1)):
        for wild in (False, True):
            card_sprite(card, wild, width=hand.STYLE.card_width)
    cold = (time.perf_counter() - start) * 1000
    print(f"cold: drawing all 53 faces x wild/plain at {hand.STYLE.card_width} px took {cold:.0f} ms")
    hand_figures(runs)
    for players in (10, 100):
        play_figures(players, 6)
    for name, compose, render, scene in CASES:
        render(scene)  # warm the sprites this scene uses
        total, total_p90, total_cpu, data = timed(lambda r=render, s=scene: r(s), runs)
        composed, _, _, image = timed(lambda c=compose, s=scene: c(s), runs)
        mapped, _, _, indexed = timed(lambda i=image: to_palette(i), runs)
        encoded, _, _, _ = timed(lambda p=indexed: write(p.width, [deflate_band(p)]), runs)
        parts = {"compose": composed, "palette": mapped, "PNG": encoded}
        print(line(name, total, total_p90, total_cpu, parts, data, image.size))
    indexed = to_palette(hand_image(samples.HAND_14))
    print("\nhand, PNG encoding only (palette picture), by zlib level:")
    for level in range(1, 7):
        ms, _, _, data = timed(lambda lv=level: write(indexed.width, [deflate_band(indexed, lv)]), runs)
        print(f"  level {level}: {ms:5.2f} ms {len(data) / 1024:5.1f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
