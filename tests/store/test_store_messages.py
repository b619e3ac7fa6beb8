"""Posted messages and closed DMs in the store: what lets a restarted bot edit the same table
message and hand DMs instead of posting new ones."""

from bot.store import open_store


async def test_posted_messages_survive_a_restart_and_a_closed_table_forgets_its_own(database):
    path = database
    store = await open_store(path)
    try:
        await store.remember_message("table:1", 500, 9001, 10.0)
        await store.remember_message("table:1:hand:7", 70, 9002, 10.0)
        await store.remember_message("table:12", 501, 9003, 10.0)
        await store.remember_message("table:1", 500, 9004, 11.0)  # reposted: the newest wins
    finally:
        await store.close()
    store = await open_store(path)
    try:
        assert await store.posted_messages() == {
            "table:1": (500, 9004),
            "table:1:hand:7": (70, 9002),
            "table:12": (501, 9003),
        }
        await store.forget_messages("table:1")
        assert await store.posted_messages() == {"table:12": (501, 9003)}  # table 12 is not under table:1
    finally:
        await store.close()


async def test_a_dm_refusal_is_remembered_until_it_is_old_or_lifted(database):
    store = await open_store(database)
    try:
        await store.refuse_dms(41, 100.0)
        await store.refuse_dms(42, 200.0)
        assert await store.dm_refusals(since=0.0) == {41, 42}
        assert await store.dm_refusals(since=150.0) == {42}
        await store.allow_dms(42)
        assert await store.dm_refusals(since=0.0) == {41}
    finally:
        await store.close()


async def test_bot_processes_count_each_other_through_their_heartbeats_and_a_quiet_one_drops_out(database):
    store = await open_store(database)
    try:
        assert await store.live_processes("a", now=100.0, since=85.0) == 1
        assert await store.live_processes("b", now=101.0, since=86.0) == 2  # shards in two processes
        assert await store.live_processes("a", now=105.0, since=90.0) == 2
        assert await store.live_processes("a", now=117.0, since=102.0) == 1  # b went quiet at 101
        assert await store.live_processes("b", now=118.0, since=103.0) == 2  # b is back
        assert await store.front_end_state("commands:global") is None  # other facts are not touched
    finally:
        await store.close()
