"""How often table messages are edited and their pictures drawn as more tables are busy: each
as often as the edit delay allows while few are, and all of them together at a bounded rate
once many are (a flat-out bot without a request budget would otherwise edit faster than
Discord allows any bot, a request's CPU each)."""

import asyncio

from bot.discord.bot import RummyBot
from bot.discord.table_message import EDITS_PER_SECOND, PICTURES_PER_SECOND


async def test_the_more_tables_are_busy_the_less_often_each_message_is_edited_and_drawn(tmp_path):
    presenter = RummyBot(tmp_path / "rummy.db", edit_delay=0.8).presenter
    assert not presenter.busy() and presenter.edit_interval() == 0.8
    for table_id in range(1, 11):  # few: the edit delay rules
        presenter.schedule_table_refresh(table_id)
    assert presenter.busy() and presenter.edit_interval() == 0.8 and presenter.picture_interval() == 2.0
    for table_id in range(11, 201):  # many: a bounded rate over all of them
        presenter.schedule_table_refresh(table_id)
    assert presenter.edit_interval() == 200 / EDITS_PER_SECOND
    assert presenter.picture_interval() == 200 / PICTURES_PER_SECOND
    refreshes = [presenter.shown(table_id).refresh for table_id in range(1, 201)]
    for refresh in refreshes:  # each still waits for its first edit
        refresh.cancel()
    await asyncio.gather(*refreshes, return_exceptions=True)
    await asyncio.sleep(0)
    assert not presenter.busy() and presenter.edit_interval() == 0.8
