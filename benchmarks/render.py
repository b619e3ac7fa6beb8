"""How long the pictures take and how big they are: `python benchmarks/render.py [runs]`.

For each picture it prints the median and 90th percentile of the whole `render_*` call (what a
move waits for), split into composition (pasting cached sprites, drawing text), palette
reduction and PNG encoding, plus the file size and pixel size. Then it compares zlib levels for
the hand, with and without the palette, which is how `render.png` was tuned. Sprites are warmed
first (the cold cost of drawing every face once is printed separately): a running bot pays it
once per process.

Timings are wall-clock medians, with this process's CPU time beside the totals; other work on
the machine inflates wall time, so the load average is printed too.
"""

import io
import os
import statistics
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on the path and its name would hide the
# `render` package; drop it before importing.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from PIL import Image  # noqa: E402

from bot.engine.cards import build_shoe  # noqa: E402
from render import render_hand, render_result, render_standings, render_table, samples  # noqa: E402
from render.hand import hand_image  # noqa: E402
from render.png import COMPRESS_LEVEL, encode  # noqa: E402
from render.result import result_image  # noqa: E402
from render.scenes import PlayerResult, ResultScene  # noqa: E402
from render.sprites import card_sprite  # noqa: E402
from render.standings import standings_image  # noqa: E402
from render.table import table_image  # noqa: E402

FULL_RESULT = ResultScene(
    players=tuple(
        PlayerResult(f"Player {i}", samples.HAND_14.groups, 40, winner=i == 0, standing="-40")
        for i in range(6)
    ),
    wild_rank=7,
    title="Six players",
)
CASES = (
    ("hand (14 cards)", hand_image, render_hand, samples.HAND_14),
    ("table (6 seats)", table_image, render_table, samples.TABLE),
    ("result (4 players)", result_image, render_result, samples.RESULT),
    ("result (6 x 14 cards)", result_image, render_result, FULL_RESULT),
    ("standings (4 rows)", standings_image, render_standings, samples.STANDINGS),
)


def timed(function, runs):
    """(median wall ms, 90th percentile wall ms, median CPU ms of this process, last value)."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = function()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    wall.sort()
    return statistics.median(wall), wall[int(len(wall) * 0.9) - 1], statistics.median(cpu), value


def quantize(image):
    return image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def save(image, level):
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=level, optimize=False)
    return buffer.getvalue()


def main(runs):
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {runs} runs each; "
        f"PNG level {COMPRESS_LEVEL} after a 256-colour palette"
    )
    start = time.perf_counter()
    for card in set(build_shoe(1, 1)):
        for wild in (False, True):
            card_sprite(card, wild)
    cold = (time.perf_counter() - start) * 1000
    print(f"cold: drawing all 53 faces x wild/plain at 130 px took {cold:.0f} ms")
    for name, compose, render, scene in CASES:
        render(scene)  # warm the sprites this scene uses
        total, total_p90, total_cpu, data = timed(lambda r=render, s=scene: r(s), runs)
        composed, _, _, image = timed(lambda c=compose, s=scene: c(s), runs)
        quantized, _, _, palette = timed(lambda i=image: quantize(i), runs)
        encoded, _, _, _ = timed(lambda p=palette: save(p, COMPRESS_LEVEL), runs)
        parts = composed + quantized + encoded
        print(
            f"{name:22} {total:5.1f} ms median ({total_p90:5.1f} p90, {total_cpu:5.1f} CPU) | "
            f"compose {composed:4.1f} "
            f"({composed / parts:4.0%}) palette {quantized:4.1f} ({quantized / parts:4.0%}) "
            f"encode {encoded:4.1f} ({encoded / parts:4.0%}) | {len(data) / 1024:5.1f} KB, "
            f"{image.width} x {image.height}"
        )
    image = hand_image(samples.HAND_14)
    print("\nhand, encoding only, by zlib level:  RGB          | palette (incl. palette step)")
    for level in range(1, 7):
        rgb_ms, _, _, rgb = timed(lambda lv=level: save(image, lv), runs)
        pal_ms, _, _, pal = timed(lambda lv=level: encode(image, lv), runs)
        print(
            f"  level {level}: {rgb_ms:5.1f} ms {len(rgb) / 1024:5.1f} KB | "
            f"{pal_ms:5.1f} ms {len(pal) / 1024:5.1f} KB"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
