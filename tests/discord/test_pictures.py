"""Pictures drawn in worker processes, as `python -m bot` draws them: the same bytes as drawn
here, and a worker that dies costs no picture."""

import logging
import os

import pytest

from bot.app.runtime import start_picture_worker
from bot.discord.pictures import Painter, Pictures
from bot.service.thinkers import ThinkersBroken
from render import render_hand, render_table, samples


@pytest.fixture
def pictures():
    drawing = Pictures(Painter(start_picture_worker()), Painter(start_picture_worker()))
    yield drawing
    drawing.close()


async def test_a_picture_drawn_in_a_worker_is_the_picture_drawn_here(pictures):
    assert await pictures.hand(samples.HAND_14) == render_hand(samples.HAND_14)
    assert await pictures.draw(render_table, samples.TABLE) == render_table(samples.TABLE)


async def test_when_a_worker_dies_its_pictures_are_drawn_on_threads_and_the_log_says_so_once(
    pictures, caplog
):
    with pytest.raises(ThinkersBroken):
        await pictures.hands.worker.run(os._exit, 1)  # killed under the bot's feet
    with caplog.at_level(logging.ERROR):
        first = await pictures.hand(samples.HAND_14)
        second = await pictures.hand(samples.HAND_13_FOUR_COLOUR)
    assert first == render_hand(samples.HAND_14)
    assert second == render_hand(samples.HAND_13_FOUR_COLOUR)
    assert pictures.hands.worker is None and pictures.others.worker is not None  # the other draws on
    died = "a picture worker died: its pictures are drawn on threads"
    assert [record.message for record in caplog.records] == [died]


async def test_once_closed_pictures_are_drawn_on_threads():
    drawing = Pictures(Painter(start_picture_worker()), Painter(start_picture_worker()))
    processes = [*drawing.hands.worker.processes, *drawing.others.worker.processes]
    drawing.close()
    assert not any(process.is_alive() for process in processes)
    assert await drawing.hand(samples.HAND_14) == render_hand(samples.HAND_14)
