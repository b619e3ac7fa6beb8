import asyncio
import contextlib
import gc
import random

import pytest
from backends import execute, fetchone
from service_helpers import GUILD, choose, open_and_start, open_service, play_one, user

from bot.engine.cards import parse_card
from bot.engine.commands import BadCommandError, Pick, Source
from bot.engine.errors import IllegalActionError
from bot.engine.events import EventKind
from bot.engine.match import Match, MatchPhase
from bot.service import ServiceError, ServiceEventKind, StaleCommandError, visible_events
from bot.service.service import SNAPSHOT_EVERY
from bot.store import TableStatus


@pytest.fixture
async def service(tmp_path):
    store, service = await open_service(tmp_path / "r.db")
    yield service
    await store.close()


@pytest.fixture
async def on_both(database):
    """A service on each database, for the tests that show both keep the same promises."""
    store, service = await open_service(database)
    yield service
    await store.close()


async def test_lobby_open_join_limit_leave_start_and_cancel(service):
    events = await service.open_table(GUILD, 5, 1, "Host", format="pool-101", max_seats=3)
    assert events[0].kind == ServiceEventKind.TABLE_OPENED
    with pytest.raises(ServiceError, match="already has a table"):
        await service.open_table(GUILD, 5, 9, "Other")
    await service.join(5, 2, "Two")
    with pytest.raises(StaleCommandError, match="already seated"):
        await service.join(5, 2, "Two")
    await service.add_computer(5, 2, "easy")
    with pytest.raises(ServiceError, match="full"):
        await service.join(5, 3, "Three")
    await service.leave(5, 1)  # the host leaves: the next human hosts
    table = service.table_in(5)
    assert table.record.host_id == 2 and [s.name for s in table.record.seats] == ["Two", "Computer 1 (easy)"]
    await service.join(5, 3, "Three")
    with pytest.raises(ServiceError, match="Manage Server"):
        await service.start(5, 3)
    events = await service.start(5, 3, can_manage=True)
    assert events[0].kind == ServiceEventKind.MATCH_STARTED
    assert any(e.kind == ServiceEventKind.CLOCK for e in events)
    with pytest.raises(StaleCommandError, match="already started"):
        await service.start(5, 2)
    await service.cancel(5, 2)
    assert service.table_in(5) is None
    assert (await service.store.table(table.id)).status is TableStatus.CANCELLED
    await service.open_table(GUILD, 5, 1, "Host")  # the channel is free again
    with pytest.raises(ServiceError, match="no format 'gin'"):
        await service.open_table(GUILD, 50, 1, "Host", format="gin")


async def test_a_table_left_by_every_human_is_cancelled(service):
    await service.open_table(GUILD, 6, 1, "Host")
    await service.add_computer(6, 1)
    events = await service.leave(6, 1)
    assert events[-1].kind == ServiceEventKind.CANCELLED and service.table_in(6) is None


async def test_stale_buttons_double_clicks_and_wrong_turns_change_nothing(service):
    table = await open_and_start(service, 7, players=3)
    turn, token = table.match.deal.turn, table.turn_token()
    before = table.match.to_json()
    with pytest.raises(IllegalActionError, match="'s turn"):
        await service.play(7, user(7, (turn + 1) % 3), {"command": "pick", "source": "closed"})
    with pytest.raises(ServiceError, match="not seated"):
        await service.play(7, 999, {"command": "pick", "source": "closed"})
    with pytest.raises(ServiceError, match="not a command"):
        await service.play(7, user(7, turn), {"command": "timeout"})
    assert table.match.to_json() == before
    await service.play(7, user(7, turn), {"command": "pick", "source": "closed"}, turn=token, command_id="a")
    with pytest.raises(StaleCommandError, match="already done"):
        await service.play(
            7, user(7, turn), {"command": "pick", "source": "closed"}, turn=token, command_id="a"
        )
    card = table.match.deal.seats[turn].hand[-1].code
    await service.play(7, user(7, turn), {"command": "discard", "card": card}, turn=token)
    after = table.match.to_json()
    with pytest.raises(StaleCommandError, match="earlier turn"):
        await service.play(7, user(7, turn), {"command": "discard", "card": card}, turn=token)
    assert table.match.to_json() == after
    log = await service.store.command_log(table.match_id)
    assert [row["command"]["command"] for row in log] == ["next_deal", "pick", "discard"]


async def test_private_cards_are_visible_only_to_their_seat(service):
    table = await open_and_start(service, 8, players=2)
    turn = table.match.deal.turn
    events = await service.play(8, user(8, turn), {"command": "pick", "source": "closed"})
    [picked] = [e for e in events if e.kind == EventKind.PICKED]
    assert picked.event.card is not None
    assert visible_events(events, turn)[0].event.card == picked.event.card
    assert visible_events(events, 1 - turn)[0].event.card is None
    assert "card" not in visible_events(events, None)[0].to_json()


async def test_a_match_plays_to_the_end_with_standings_and_statistics(on_both):
    service = on_both
    table = await open_and_start(service, 9, players=3, fmt="deals-2")
    rng = random.Random(2)
    events = []
    while service.table_in(9) is not None:
        events += await play_one(service, table, rng)
    assert events[-1].kind == ServiceEventKind.FINISHED
    match = table.match
    assert match.phase is MatchPhase.OVER
    assert (await service.store.table(table.id)).status is TableStatus.FINISHED
    standings = await service.store.standings(table.match_id)
    assert [row.standing for row in standings] == match.standings
    for seat in range(3):
        stats = await service.store.user_stats(GUILD, user(9, seat))
        assert stats.matches_played == 1 and stats.matches_won == (seat == match.winner)
        assert stats.deals_played == len([h for h in match.history if h[seat] is not None])
        assert stats.chips_won == match.standings[seat] - 160
    assert await service.store.active_tables() == []


async def play_to_the_end(service, channel, rng, stop_after=None):
    table = service.table_in(channel)
    played = 0
    while (table := service.table_in(channel)) is not None and played != stop_after:
        await play_one(service, table, rng)
        played += 1
    return table


async def test_a_table_reopened_mid_deal_ends_as_one_that_never_stopped(databases):
    results = []
    for stops in ([], [7, 40, 41, 90]):
        path = databases()
        store, service = await open_service(path, seed=5)
        table = await open_and_start(service, 3, players=3, fmt="pool-101")
        rng = random.Random(11)  # the players' choices; the shuffles come from the service's seed
        played = 0
        for stop in stops:
            await play_to_the_end(service, 3, rng, stop_after=stop - played)
            played = stop
            await store.close()
            store, service = await open_service(path, seed=5)
        await play_to_the_end(service, 3, rng)
        match_id = (await store.match_ids())[table.id]
        log = await store.command_log(match_id)
        stats = [await store.user_stats(GUILD, user(3, seat)) for seat in range(3)]
        results.append(([(row["command"], row["events"]) for row in log], stats))
        await store.close()
    assert len(results[0][0]) > 90
    assert results[0] == results[1]


async def test_many_commands_for_one_table_at_once_apply_in_order_only_when_legal(service):
    table = await open_and_start(service, 4, players=4)
    for _ in range(10):
        turn, token = table.match.deal.turn, table.turn_token()
        picks = [
            service.play(4, user(4, seat), {"command": "pick", "source": "closed"}, turn=token)
            for seat in range(4)
            for _ in range(3)
        ]
        results = await asyncio.gather(*picks, return_exceptions=True)
        assert sum(result is not None and not isinstance(result, Exception) for result in results) == 1
        card = table.match.deal.picked.code
        discards = [
            service.play(4, user(4, turn), {"command": "discard", "card": card}, turn=token) for _ in range(5)
        ]
        results = await asyncio.gather(*discards, return_exceptions=True)
        assert sum(not isinstance(result, Exception) for result in results) == 1
        assert all(isinstance(r, StaleCommandError) for r in results if isinstance(r, Exception))
    log = await service.store.command_log(table.match_id)
    assert [row["seq"] for row in log] == list(range(1, 22))
    replayed = Match.replay({**table.match.to_json()})
    assert replayed.to_json() == table.match.to_json()


async def test_many_tables_at_once(on_both):
    service = on_both
    channels = range(100, 140)
    for channel in channels:
        await open_and_start(service, channel, players=2 + channel % 4)

    async def drive(channel):
        rng = random.Random(channel)
        table = service.table_in(channel)
        for _ in range(30):
            if service.table_in(channel) is None:
                break
            await play_one(service, table, rng)

    before = service.store.commits
    await asyncio.gather(*(drive(channel) for channel in channels))
    assert service.store.commits - before < 30 * len(channels)  # commits were shared
    for table in [service.table_in(c) for c in channels]:
        if table is None:
            continue
        table.match.check_invariants()
        stored = await service.store.load_match(table.id)
        assert stored.seq == len(table.match.log)


async def test_players_choices_are_legal_for_the_helpers(service):
    table = await open_and_start(service, 2, players=2)
    view = table.match.deal.view(table.match.deal.turn)
    assert choose(view, random.Random(1))["command"] in ("pick", "drop")


async def test_only_a_commands_own_arguments_reach_the_log(service):
    table = await open_and_start(service, 11, players=2)
    turn = table.match.deal.turn
    await service.play(11, user(11, turn), {"command": "pick", "source": "closed", "seat": 1 - turn, "x": 1})
    assert table.match.log[-1] == Pick(turn, Source.CLOSED)
    assert table.match.to_json()["log"][-1] == {"command": "pick", "seat": turn, "source": "closed"}


async def test_cancelling_a_match_in_play_keeps_it_marked_abandoned(service):
    table = await open_and_start(service, 12, players=2)
    await service.cancel(12, 999, can_manage=True)
    assert service.table_in(12) is None
    row = await fetchone(service.store, "SELECT status FROM matches")
    assert row[0] == "abandoned" and (await service.store.table(table.id)).status is TableStatus.CANCELLED


async def test_a_damaged_match_is_set_aside_and_the_other_tables_resume(database):
    store, service = await open_service(database)
    damaged = await open_and_start(service, 13, players=2)
    await open_and_start(service, 14, players=2)
    await execute(store, "DELETE FROM match_commands WHERE match_id = ?", damaged.match_id)
    await store.close()
    store, service = await open_service(database)
    try:
        assert "cannot be resumed" in service.table_in(13).damage
        assert service.table_in(14).damage is None and service.table_in(14).match is not None
    finally:
        await store.close()


async def stored_state(service, table):
    stored = await service.store.load_match(table.id)
    return Match.restore(stored.snapshot, stored.pending).to_json()


async def test_a_save_that_fails_leaves_the_table_as_the_database_has_it(service, monkeypatch):
    table = await open_and_start(service, 15, players=2)
    before = table.match.to_json()

    def broken(record):
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "queue_command", broken)
    with pytest.raises(OSError):
        await service.play(15, user(15, table.match.deal.turn), {"command": "pick", "source": "closed"})
    table = service.table_in(15)
    assert table.match.to_json() == before == await stored_state(service, table)


@pytest.mark.parametrize("yields", [0, 1, 2, 3, 5, 8])
async def test_a_caller_cancelled_mid_save_leaves_memory_and_disk_agreeing(service, yields):
    table = await open_and_start(service, 16, players=2)
    seat = table.match.deal.turn
    task = asyncio.ensure_future(service.play(16, user(16, seat), {"command": "pick", "source": "closed"}))
    for _ in range(yields):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    table = service.table_in(16)
    assert table.match.to_json() == await stored_state(service, table)
    if len(table.match.log) == 1:  # cancelled before it was saved: it can be sent again
        await service.play(16, user(16, seat), {"command": "pick", "source": "closed"})
    assert len(await service.store.command_log(table.match_id)) == 2


async def test_a_command_without_its_arguments_is_refused(service):
    table = await open_and_start(service, 17, players=2)
    await service.play(17, user(17, table.match.deal.turn), {"command": "pick", "source": "closed"})
    with pytest.raises(BadCommandError, match="missing its card"):
        await service.play(17, user(17, table.match.deal.turn), {"command": "discard"})


async def test_a_computer_agrees_to_a_split_once_every_person_left_wants_it(service):
    await service.open_table(GUILD, 90, 1, "Host", format="pool-101")
    await service.add_computer(90, 1, "easy")
    await service.start(90, 1)
    table = service.table_in(90)
    while table.match.deal is not None and table.match.deal.turn != 0:
        service.clock.advance(1.0)  # the computer plays its turns
        await service.fire_due()
    await service.play(90, 1, {"command": "drop"})  # two players: the deal ends, the pool goes on
    assert table.match.phase is MatchPhase.BETWEEN_DEALS
    events = await service.play(90, 1, {"command": "split"})
    assert [e.seat for e in events if e.kind == EventKind.SPLIT_VOTE] == [0, 1]
    assert table.match.phase is MatchPhase.OVER and set(table.match.shares) == {0, 1}


async def test_a_snapshot_is_saved_only_where_replaying_the_log_could_not_rebuild_the_match(tmp_path):
    store, service = await open_service(tmp_path / "s.db", seed=3)
    try:
        await open_and_start(service, 4, players=3, fmt="pool-101")
        rng = random.Random(2)
        longest = 0
        for _ in range(150):
            table = service.table_in(4)
            if table is None:
                break
            await play_one(service, table, rng)
            stored = await store.load_match(table.id)
            longest = max(longest, len(stored.pending))
            assert len(stored.pending) < SNAPSHOT_EVERY
            assert Match.restore(stored.snapshot, stored.pending).to_json() == table.match.to_json()
        assert longest == SNAPSHOT_EVERY - 1  # most commands are saved without a snapshot
    finally:
        await store.close()


async def test_resumed_tables_share_their_cards_and_log_entries_and_play_on_as_if_never_stopped(databases):
    """Resuming reads every table's cards as the 53 shared cards, and its logs' equal entries as
    one object (in one table, and across tables what the database held); a table read that way
    must still play exactly as one that never stopped: the same events, the same state, every
    command after."""
    channels = range(1, 5)

    async def play(service, moves: int, rngs) -> list:
        events = []
        for _ in range(moves):
            for channel, rng in rngs.items():
                table = service.table_in(channel)
                if table is not None:
                    events.append(await play_one(service, table, rng, drop=0.04, wrong_show=0.03))
        return events

    async def seat(service) -> dict[int, random.Random]:
        for channel in channels:
            await open_and_start(service, channel, players=2, fmt="pool-101")
        return {channel: random.Random(channel) for channel in channels}

    def states(service) -> dict:
        return {table.id: table.match.to_json() for table in service.tables()}

    kept, restarted = databases(), databases()
    store, service = await open_service(kept, seed=9)
    rngs = await seat(service)
    await play(service, 60, rngs)
    never_stopped = await play(service, 30, rngs)
    after = states(service)
    await store.close()

    store, service = await open_service(restarted, seed=9)
    rngs = await seat(service)
    await play(service, 60, rngs)
    await store.close()
    store, service = await open_service(restarted, seed=9)
    try:
        matches = [table.match for table in service.tables()]
        assert len(matches) >= 2 and any(match.finished_deals for match in matches)
        for match in matches:
            logged = {id(command) for command in match.log}
            deals = [*match.finished_deals, *([match.deal] if match.deal else [])]
            assert all(id(command) in logged for deal in deals for command in deal.log)
            if match.deal is not None:
                deal = match.deal
                cards = [*deal.shoe, *deal.closed, *deal.open_pile, *(c for s in deal.seats for c in s.hand)]
                assert all(card is parse_card(card.code) for card in cards)
        # Read from the database, the log up to the snapshot (the rest replays, as in play).
        first, second = (table.match.log[: table.snapshot_seq] for table in service.tables()[:2])
        shared = [(a, b) for a in first for b in second if a == b]
        assert shared and all(a is b for a, b in shared)
        assert await play(service, 30, rngs) == never_stopped
        assert states(service) == after
    finally:
        await store.close()


@pytest.mark.parametrize("yields", [0, 1, 2])
async def test_a_caller_cancelled_while_its_save_fails_leaves_the_table_as_saved(
    service, monkeypatch, caplog, yields
):
    table = await open_and_start(service, 18, players=2)
    seat = table.match.deal.turn
    real = service.store._transaction

    async def failing(statements):
        await asyncio.sleep(0)
        raise OSError("disk I/O error")

    monkeypatch.setattr(service.store, "_transaction", failing)
    task = asyncio.ensure_future(service.play(18, user(18, seat), {"command": "pick", "source": "closed"}))
    for _ in range(yields):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.setattr(service.store, "_transaction", real)
    table = service.table_in(18)
    assert len(table.match.log) == 1 and table.match.to_json() == await stored_state(service, table)
    await service.play(18, user(18, seat), {"command": "pick", "source": "closed"})  # sent again
    assert len(await service.store.command_log(table.match_id)) == 2
    gc.collect()  # a failed save nobody asked after would be logged as its future is freed
    assert "never retrieved" not in caplog.text
    assert "disk I/O error" in caplog.text or yields == 0  # said once, by the service
