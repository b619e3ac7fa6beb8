"""Every word and number on every picture is readable on a phone (issue 26).

Discord's phone preview fits a picture into about 400 x 500 px, so a text of `size` pixels is
read at `size * min(1, 400 / width, 500 / height)`; that must be at least 11 px. The sizes are
the renderer's own: `render.text_log` hears every text it draws (the card faces' ranks too),
with every cache emptied first so that nothing is skipped because it was drawn before. Each
character is also checked against the face that draws it: no empty boxes in any language.
"""

import importlib
import io
import pkgutil
import random
from dataclasses import replace

import pytest
from PIL import Image

import render
from bot.engine.cards import build_shoe
from render import samples, tiles
from render.fonts import devanagari_has, has_glyph, runs
from render.hand import render_hand
from render.replay_frame import render_replay
from render.result import render_result
from render.scenes import (
    GROUP_KINDS,
    HandGroup,
    HandScene,
    PlayerResult,
    ReplaySeat,
    ResultScene,
    SeatView,
    StandingsRow,
    StandingsScene,
    TableScene,
)
from render.standings import render_standings
from render.table import render_table
from render.text_log import DrawnText, recording

PHONE = (400, 500)
MIN_PX = 11
LANGUAGES = ("en", "hi")


def phone_scale(width: int, height: int) -> float:
    return min(1, PHONE[0] / width, PHONE[1] / height)


def clear_caches() -> None:
    """Every cache of the renderer, found by looking (a new one needs no line here)."""
    tiles.clear()
    for info in pkgutil.iter_modules(render.__path__):
        module = importlib.import_module(f"render.{info.name}")
        for value in vars(module).values():
            if callable(value) and hasattr(value, "cache_clear"):
                value.cache_clear()


def drawn(draw, scene) -> tuple[list[DrawnText], tuple[int, int]]:
    clear_caches()
    with recording() as texts:
        data = draw(scene)
    return texts, Image.open(io.BytesIO(data)).size


def too_small(texts: list[DrawnText], size: tuple[int, int]) -> list[tuple[str, float]]:
    scale = phone_scale(*size)
    return sorted({(t.value, round(t.size * scale, 2)) for t in texts if t.size * scale < MIN_PX - 1e-9})


def missing_glyphs(texts: list[DrawnText]) -> list[tuple[str, str]]:
    missing = set()
    for drawn_text in texts:
        for part, hindi in runs(drawn_text.value):
            for char in part:
                if not char.isspace() and not (devanagari_has(char) if hindi else has_glyph(char)):
                    missing.add((drawn_text.value, char))
    return sorted(missing)


# --- the scenes: every picture, at every size the game makes --------------------------------------

RNG = random.Random(26)
SHOE = build_shoe(3, 3)


def random_groups(count: int) -> tuple[HandGroup, ...]:
    cards = RNG.sample(SHOE, count)
    cuts = sorted(RNG.sample(range(1, count), RNG.randrange(0, 5)))
    return tuple(
        HandGroup(
            kind := RNG.choice(GROUP_KINDS),
            tuple(cards[a:b]),
            RNG.randrange(0, 81),
            RNG.choice((None, "no_pure_sequence", "sets_count")) if kind != "ungrouped" else None,
        )
        for a, b in zip([0, *cuts], [*cuts, count], strict=True)
    )


def hands():
    for language in LANGUAGES:
        for four_colour in (False, True):
            for count in (13, 14):
                for _ in range(3):
                    yield HandScene(
                        random_groups(count),
                        RNG.choice((None, 1, 7, 10, 13)),
                        picked=count if count == 14 else None,
                        discard=RNG.randrange(1, 15) if count == 14 else None,
                        ready=RNG.random() < 0.3,
                        four_colour=four_colour,
                        title=RNG.choice(("", "Pool 101 · your hand", "डील 2 · आपकी बारी")),
                        language=language,
                    )
        singles = tuple(HandGroup("ungrouped", (card,), 10) for card in SHOE[:14])  # two rows
        yield HandScene(singles, 5, picked=14, discard=3, language=language)


def tables():
    for language in LANGUAGES:
        for seats in range(2, 11):
            yield TableScene(
                open_card=RNG.choice(SHOE),
                closed_count=RNG.randrange(0, 100),
                cut_joker=RNG.choice((None, *SHOE)),
                wild_rank=RNG.choice((None, 3, 10)),
                seats=tuple(
                    SeatView(
                        samples.TEN_NAMES[index],
                        RNG.choice((0, 13, 14)),
                        RNG.choice(("", "+1,240 chips", "67 / 101", "बाहर")),
                        to_act=index == 1,
                        status=RNG.choice(("playing", "dropped", "out", "declared")),
                    )
                    for index in range(seats)
                ),
                title="Pool 101 · Deal 3",
                four_colour=RNG.random() < 0.5,
                language=language,
            )


def results():
    for language in LANGUAGES:
        for players in range(2, 11):
            yield ResultScene(
                players=tuple(
                    PlayerResult(
                        samples.TEN_NAMES[index],
                        () if RNG.random() < 0.2 else random_groups(13),
                        RNG.randrange(0, 161),
                        winner=index == 0,
                        standing=RNG.choice(("", "-80 chips", "67 / 101")),
                        note=RNG.choice(("", "first drop", "wrong show", "double: 63 × 2")),
                    )
                    for index in range(players)
                ),
                wild_rank=RNG.choice((None, 7)),
                title="Points · Deal 1 result",
                language=language,
            )


def standings():
    yield from (samples.LEAGUE_STANDINGS, samples.LEAGUE_STANDINGS_HI)
    for language in LANGUAGES:
        for rows in (2, 6, 10):
            for deals in (1, 5, 14):
                yield StandingsScene(
                    title="Pool 101 · standings",
                    rows=tuple(
                        StandingsRow(
                            samples.TEN_NAMES[index],
                            tuple(RNG.choice((None, *range(0, 81))) for _ in range(deals)),
                            RNG.randrange(0, 300),
                            RNG.choice(("", "eliminated", "2 wins · 1 no-show")),
                            marked=tuple(RNG.random() < 0.1 for _ in range(deals)),
                        )
                        for index in range(rows)
                    ),
                    limit=RNG.choice((None, 101, 201)),
                    notes=samples.LEAGUE_STANDINGS.notes if rows == 6 else (),
                    language=language,
                )


def replays():
    for language in LANGUAGES:
        for seats in range(2, 11):
            yield replace(
                samples.REPLAY,
                seats=tuple(
                    ReplaySeat(
                        samples.TEN_NAMES[index],
                        random_groups(14 if index == 1 else 13),
                        "13 cards",
                        RNG.choice(("", "TO ACT", "DROPPED", "WINNER")),
                        acted=index == 1,
                        out=RNG.random() < 0.2,
                        picked=14 if index == 1 else None,
                    )
                    for index in range(seats)
                ),
                language=language,
            )


PICTURES = [
    *((f"hand {i}", render_hand, scene) for i, scene in enumerate(hands())),
    *((f"table {i}", render_table, scene) for i, scene in enumerate(tables())),
    *((f"result {i}", render_result, scene) for i, scene in enumerate(results())),
    *((f"standings {i}", render_standings, scene) for i, scene in enumerate(standings())),
    *((f"replay {i}", render_replay, scene) for i, scene in enumerate(replays())),
]


@pytest.mark.parametrize(("name", "draw", "scene"), PICTURES, ids=[name for name, _, _ in PICTURES])
def test_every_text_is_at_least_11_px_on_a_phone_and_every_glyph_is_drawn(name, draw, scene):
    texts, size = drawn(draw, scene)
    assert texts, "nothing was heard: the log is not wired"
    assert any(t.value in {"A", "2", "10", "K", "JK", "Q", "J"} or t.value.isdigit() for t in texts)
    assert too_small(texts, size) == []
    assert missing_glyphs(texts) == []


def test_the_checks_can_fail():
    """The old pictures, 1200 px wide with 17 px labels, read at under 6 px: caught; and a box
    where Noto Sans Devanagari has no "†": caught."""
    assert too_small([DrawnText("Pure sequence", 17, "bold")], (1200, 338)) == [("Pure sequence", 5.67)]
    assert too_small([DrawnText("Pure", 22, "bold")], (800, 1000)) == []
    assert not devanagari_has("†")
    assert missing_glyphs([DrawnText("† इसमें", 22, "regular")]) == []  # drawn by DejaVu Sans
