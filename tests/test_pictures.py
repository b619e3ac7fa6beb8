"""Pictures drawn in worker processes, as `python -m bot` draws them: the same bytes as drawn
here, and a worker that dies costs no picture."""

import logging
import os

import pytest

from bot.discord.pictures import Pictures
from bot.runtime import start_picture_workers
from bot.service.thinkers import ThinkersBroken
from render import render_hand, render_table, samples


@pytest.fixture
def pictures():
    drawing = Pictures(start_picture_workers())
    yield drawing
    drawing.close()


async def test_a_picture_drawn_in_the_worker_is_the_picture_drawn_here(pictures):
    assert await pictures.draw(render_hand, samples.HAND_14) == render_hand(samples.HAND_14)
    assert await pictures.draw(render_table, samples.TABLE) == render_table(samples.TABLE)


async def test_when_the_worker_dies_pictures_are_drawn_on_threads_and_the_log_says_so_once(pictures, caplog):
    with pytest.raises(ThinkersBroken):
        await pictures.workers.run(os._exit, 1)  # a worker killed under the bot's feet
    with caplog.at_level(logging.ERROR):
        first = await pictures.draw(render_hand, samples.HAND_14)
        second = await pictures.draw(render_table, samples.TABLE)
    assert first == render_hand(samples.HAND_14) and second == render_table(samples.TABLE)
    assert pictures.workers is None
    died = "a picture worker died: pictures are drawn on threads"
    assert [record.message for record in caplog.records] == [died]


async def test_once_closed_pictures_are_drawn_on_threads():
    drawing = Pictures(start_picture_workers())
    processes = drawing.workers.processes
    drawing.close()
    assert not any(process.is_alive() for process in processes)
    assert await drawing.draw(render_hand, samples.HAND_14) == render_hand(samples.HAND_14)
