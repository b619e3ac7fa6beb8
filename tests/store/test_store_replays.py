"""Replays and histories read from the store, on SQLite and PostgreSQL: which finished deals a
player may replay, the refusals (a running deal, another server, too old), and the history."""

import random

import pytest
from service_helpers import choose, new_service

from bot.engine.match import MatchPhase
from bot.service import ManualClock, Retention, RetentionSettings
from bot.service.replay_access import Replays
from bot.service.replay_views import DealRef, Refusal, ReplayRefused, Viewer
from bot.service.retention import DAY
from bot.store import open_store
from bot.store.replay_rows import _RECENT_DEALS

GUILD, OTHER_GUILD = 1, 2
ASHA, BALU, CHITRA, DEV = 501, 502, 503, 504


async def start(service, channel, users, guild=GUILD, fmt="points"):
    host, *others = users
    await service.open_table(guild, channel, host, f"User {host}", format=fmt)
    for other in others:
        await service.join(channel, other, f"User {other}")
    await service.start(channel, host)
    return service.table_in(channel)


async def play_one(service, table, rng):
    """The next move at the table, by whoever is to make it."""
    match = table.match
    if match.phase is MatchPhase.BETWEEN_DEALS:
        seat, command = match.remaining()[0], {"command": "next_deal"}
    else:
        seat = match.deal.turn
        command = choose(match.deal.view(seat), rng)
    user = table.record.seats[seat].user_id
    await service.play(table.record.channel_id, user, command, turn=table.turn_token())


async def play_deals(service, table, rng, deals=1):
    """Plays until `deals` more deals of the table's match have ended (or the match)."""
    finished = len(table.match.finished_deals)
    while service.table_in(table.record.channel_id) is not None:
        if len(table.match.finished_deals) >= finished + deals:
            return
        await play_one(service, table, rng)


def viewer(user, channel, guild=GUILD):
    return Viewer(user, guild, channel)


@pytest.fixture
async def played(database):
    """Asha and Balu's finished Points match at channel 10, a Deals match of Asha and Chitra at
    channel 20 with its second deal running, and Dev's match in another server."""
    clock = ManualClock()
    store = await open_store(database)
    try:
        service = new_service(store, clock=clock)
        rng = random.Random(4)
        points = await start(service, 10, [ASHA, BALU])
        await play_deals(service, points, rng)
        clock.advance(60)
        deals = await start(service, 20, [CHITRA, ASHA], fmt="deals-3")
        await play_deals(service, deals, rng)
        await play_one(service, deals, rng)  # the second deal starts and runs
        clock.advance(60)
        elsewhere = await start(service, 30, [DEV, BALU], guild=OTHER_GUILD)
        await play_deals(service, elsewhere, rng)
        yield store, clock, points, deals, elsewhere
    finally:
        await store.close()


async def test_a_players_deals_newest_first_with_who_paid_what(played):
    store, _, points, deals, _ = played
    found = await store.recent_deals(GUILD, ASHA)
    assert [(d.table_id, d.number) for d in found] == [(deals.id, 1), (points.id, 1)]
    newest = found[0]
    record = deals.match.finished_deals[0]
    assert newest.points == [seat.points for seat in record.seats]
    assert newest.winner == record.winner and newest.format == "deals-3"
    assert [seat.user_id for seat in newest.seats] == [CHITRA, ASHA]
    assert [(d.table_id, d.number) for d in await store.recent_deals(GUILD, ASHA, limit=1)] == [(deals.id, 1)]
    # Dev played in no deal of this server, but a channel's deals are listed to whoever is there.
    assert await store.recent_deals(GUILD, DEV) == []
    assert [d.table_id for d in await store.recent_deals(GUILD, DEV, channel_id=10)] == [points.id]
    assert [d.table_id for d in await store.recent_deals(OTHER_GUILD, BALU)] == [played[4].id]


async def test_a_players_matches_with_their_own_standing(played):
    store, _, points, deals, _ = played
    matches = await store.recent_matches(GUILD, ASHA)
    assert [m.table_id for m in matches] == [deals.id, points.id]
    running, finished = matches
    assert running.status == "playing" and running.deals == 1 and running.seat == 1
    assert finished.status == "over" and finished.winner == points.match.winner and not finished.pruned
    assert finished.standing == points.match.standings[0]
    assert await store.recent_matches(GUILD, DEV) == []


async def test_a_finished_deal_replays_and_a_running_one_is_refused(played):
    store, clock, points, deals, _ = played
    replays = Replays(store, clock, keep_days=90)
    shown = await replays.open(viewer(BALU, 99), DealRef(points.id, 1))
    assert shown.names == ("User 501", "User 502")
    final = points.match.finished_deals[0]
    assert shown.replay.result.winner == final.winner
    assert len(shown.replay.steps) == len(final.log) + 1
    default = await replays.open(viewer(ASHA, 99), None)  # her last finished deal here
    assert default.ref == DealRef(deals.id, 1)
    with pytest.raises(ReplayRefused) as refused:
        await replays.open(viewer(ASHA, 20), DealRef(deals.id, 2))
    assert refused.value.reason is Refusal.RUNNING
    for ref, reason in (
        (DealRef(deals.id, 3), Refusal.NO_SUCH_DEAL),
        (DealRef(999, 1), Refusal.NO_SUCH_DEAL),
        (DealRef(played[4].id, 1), Refusal.OTHER_SERVER),
    ):
        with pytest.raises(ReplayRefused) as refused:
            await replays.open(viewer(ASHA, 20), ref)
        assert refused.value.reason is reason
    with pytest.raises(ReplayRefused) as refused:  # not hers, and asked from another channel
        await replays.open(viewer(DEV, 20), DealRef(points.id, 1))
    assert refused.value.reason is Refusal.NOT_YOURS
    assert (await replays.open(viewer(DEV, 10), DealRef(points.id, 1))).ref == DealRef(points.id, 1)
    with pytest.raises(ReplayRefused) as refused:
        await replays.open(Viewer(ASHA, None, 5), DealRef(points.id, 1))
    assert refused.value.reason is Refusal.OTHER_SERVER
    with pytest.raises(ReplayRefused) as refused:
        await replays.open(viewer(DEV, 10), None)
    assert refused.value.reason is Refusal.NONE_YET


async def test_deals_older_than_the_days_kept_are_no_longer_kept(played):
    store, clock, points, deals, _ = played
    replays = Replays(store, clock, keep_days=90)
    clock.advance(91 * DAY)
    with pytest.raises(ReplayRefused) as refused:  # not pruned yet, already past the window
        await replays.open(viewer(ASHA, 10), DealRef(points.id, 1))
    assert refused.value.reason is Refusal.NOT_KEPT and refused.value.keep_days == 90
    assert (await replays.open(viewer(ASHA, 20), DealRef(deals.id, 1))).ref.number == 1  # still playing
    await Retention(store, clock, RetentionSettings(keep_days=90)).prune()
    with pytest.raises(ReplayRefused) as refused:
        await replays.open(viewer(ASHA, 10), DealRef(points.id, 1))
    assert refused.value.reason is Refusal.NOT_KEPT
    assert [d.table_id for d in await replays.choices(viewer(ASHA, 10))] == [deals.id]
    history = await replays.history(GUILD, ASHA)
    assert [d.table_id for d in history.deals] == [deals.id]
    assert [history.kept(m) for m in history.matches] == [True, False]
    assert history.matches[1].pruned and history.matches[1].winner is None


def test_a_deal_is_named_by_its_table_and_number():
    assert DealRef.parse("12-3") == DealRef(12, 3) == DealRef.parse(" #12 / 3 ")
    assert str(DealRef(12, 3)) == "12-3"
    for text in ("12", "x-3", "12-0", "-1-2", "1-2-3", "9" * 30 + "-1"):
        with pytest.raises(ReplayRefused):
            DealRef.parse(text)


async def test_a_players_recent_deals_are_found_through_indexes_not_by_reading_every_table(tmp_path):
    # Standings and tables are kept for good: a look that read them whole would slow with age.
    store = await open_store(tmp_path / "plan.db")
    try:
        query = "EXPLAIN QUERY PLAN " + _RECENT_DEALS.format(seats=store._DEAL_SEATS)
        async with store._conn.execute(query, (GUILD, ASHA, 7, 10)) as cursor:
            plan = " | ".join(row[3] for row in await cursor.fetchall())
    finally:
        await store.close()
    assert "INDEX standings_by_user" in plan and "INDEX tables_by_guild" in plan, plan
    assert "SCAN t" not in plan and "SCAN match_standings" not in plan, plan
