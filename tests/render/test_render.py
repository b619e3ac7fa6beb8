"""Golden-image tests: every sample picture in `render.samples` against its reference PNG.

Pictures are compared by decoded pixels with a small tolerance, not by bytes, so a different
zlib or FreeType build does not fail them; a real change in a picture does. On failure the
actual picture is saved beside the reference as `tests/render/golden/<name>.actual.png` (gitignored)
so you can open both.

After a deliberate change, look at the new pictures, then regenerate the references with

    RUMMY_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_render.py

and commit `tests/render/golden/*.png`.
"""

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render import samples

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("RUMMY_REGEN_GOLDEN") == "1"
MAX_MEAN_DIFF = 1.0  # per channel, in 0..255
MAX_CHANGED_SHARE = 0.005  # of pixels differing by more than CHANGED in some channel
CHANGED = 16

PICTURES = samples.pictures()


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def difference(expected: Image.Image, actual: Image.Image) -> tuple[float, float]:
    """(largest per-channel mean absolute difference, share of pixels changed by more than CHANGED)."""
    diff = ImageChops.difference(expected, actual)
    mean = max(ImageStat.Stat(diff).mean)
    red, green, blue = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    changed = sum(worst.histogram()[CHANGED + 1 :])
    return mean, changed / (diff.width * diff.height)


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_picture_matches_golden(name):
    reference = GOLDEN / f"{name}.png"
    actual_path = GOLDEN / f"{name}.actual.png"
    data = PICTURES[name]
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        reference.write_bytes(data)
        actual_path.unlink(missing_ok=True)
        return
    assert reference.exists(), f"no reference for {name}: regenerate (see this module's docstring)"
    expected, actual = Image.open(reference).convert("RGB"), decode(data)
    problem = None
    if expected.size != actual.size:
        problem = f"size {actual.size} instead of {expected.size}"
    else:
        mean, changed = difference(expected, actual)
        if mean >= MAX_MEAN_DIFF or changed >= MAX_CHANGED_SHARE:
            problem = f"mean difference {mean:.2f}, {changed:.2%} of pixels changed"
    if problem:
        actual_path.write_bytes(data)
        pytest.fail(f"{name}: {problem}; actual picture saved as {actual_path}")
    actual_path.unlink(missing_ok=True)


def test_the_comparison_notices_a_small_real_change():
    original = decode(PICTURES["hand_14"])
    changed = original.copy()
    changed.paste((255, 0, 0), (40, 120, 100, 160))  # a 60 x 40 red smudge on one card
    mean, share = difference(original, changed)
    assert mean >= MAX_MEAN_DIFF or share >= MAX_CHANGED_SHARE
    assert difference(original, original) == (0.0, 0.0)
