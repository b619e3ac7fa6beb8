"""A replay's animation: every step a frame of the same size, the last held longest, and none
at all when it would be larger than Discord should be sent."""

import io
from dataclasses import replace

from PIL import Image

from render import samples
from render.replay_frame import FRAME_MS, LAST_FRAME_MS, render_replay, render_replay_animation, replay_height


def test_the_animation_has_a_frame_per_step_and_holds_the_last():
    scenes = [replace(samples.REPLAY, closed_count=38 - step, step=f"Move {step}") for step in range(3)]
    data = render_replay_animation(scenes)
    assert data is not None
    animation = Image.open(io.BytesIO(data))
    assert animation.format == "GIF" and animation.n_frames == 3
    assert animation.size == (400, replay_height(len(samples.REPLAY.seats)) // 2)  # a phone's box
    durations = []
    for frame in range(animation.n_frames):
        animation.seek(frame)
        durations.append(animation.info["duration"])
    assert durations == [FRAME_MS, FRAME_MS, LAST_FRAME_MS]


def test_an_animation_over_the_limit_is_not_made():
    scenes = [samples.REPLAY, replace(samples.REPLAY, closed_count=37)]
    size = len(render_replay_animation(scenes) or b"")
    assert size > 0
    assert render_replay_animation(scenes, limit=size - 1) is None
    assert render_replay_animation([]) is None


def test_a_hindi_caption_draws_the_cards_suits():
    """Noto Sans Devanagari has no suits: a Hindi line draws "2♣" with DejaVu Sans, so two
    suits differ on the picture (both would be the same missing-glyph box)."""

    def frame(card: str) -> bytes:
        return render_replay(
            replace(samples.REPLAY, caption=(f"आशा ने बंद गड्डी से {card} उठाया।",), language="hi")
        )

    assert frame("2♣") != frame("2♠")
