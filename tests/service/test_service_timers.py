import asyncio

import pytest
from service_helpers import GUILD, open_and_start, open_service, user

from bot.engine import Rules
from bot.engine.events import EventKind
from bot.service import ManualClock, ServiceEventKind, ServiceSettings, TableService
from bot.store import open_store

SETTINGS = ServiceSettings(between_deals_seconds=10, computer_delay_seconds=2, grace_seconds=20)


@pytest.fixture
async def timed(tmp_path):
    clock = ManualClock()
    store, service = await open_service(tmp_path / "t.db", clock=clock, settings=SETTINGS)
    yield clock, service
    await store.close()


def kinds(events):
    return [event.kind for event in events]


async def test_the_clock_plays_after_the_turn_time_and_the_extra_time_bank(timed):
    clock, service = timed
    table = await open_and_start(service, 1, players=2)
    seat = table.match.deal.turn
    clock.advance(29)
    assert await service.fire_due() == []
    clock.advance(60)  # 89 s: the turn's 30 s and 59 of the 60 s bank
    assert await service.fire_due() == []
    clock.advance(1)
    events = await service.fire_due()
    assert EventKind.MISSED_TURN in kinds(events) and table.match.deal.turn != seat
    assert table.clock.banks[seat] == 0
    other = table.match.deal.turn
    clock.advance(40)  # the other player takes 10 s of their bank
    await service.play(1, user(1, other), {"command": "pick", "source": "closed"})
    await service.play(1, user(1, other), {"command": "discard", "card": table.match.deal.picked.code})
    assert table.clock.banks[other] == 50
    clock.advance(30)  # the first player has no bank left
    assert EventKind.MISSED_TURN in kinds(await service.fire_due())


async def test_a_command_just_before_the_timer_wins_and_the_timer_does_nothing(timed):
    clock, service = timed
    table = await open_and_start(service, 1, players=2)
    seat = table.match.deal.turn
    clock.advance(100)
    await service.play(1, user(1, seat), {"command": "drop"})  # the front end got in first
    assert table.match.deal is None or table.match.deal.turn != seat


async def test_computer_players_move_after_their_delay_and_deals_follow_on_their_own(timed):
    clock, service = timed
    await service.open_table(GUILD, 2, 1, "Host", format="deals-2")
    await service.add_computer(2, 1, "easy")
    await service.start(2, 1)
    table = service.table_in(2)
    deals = 0
    for _ in range(3000):
        if service.table_in(2) is None:
            break
        match = table.match
        if match.deal is not None and match.deal.turn == 0:  # the human plays a wrong show now and then
            hand = [c.code for c in match.deal.seats[0].hand]
            if match.deal.phase == "pick":
                await service.play(2, 1, {"command": "pick", "source": "closed"})
            elif len(match.log) % 7 == 0:
                await service.play(
                    2, 1, {"command": "declare", "groups": [" ".join(hand[1:])], "finish": hand[0]}
                )
            else:
                await service.play(2, 1, {"command": "discard", "card": hand[-1]})
            continue
        clock.advance(SETTINGS.computer_delay_seconds if match.deal else SETTINGS.between_deals_seconds)
        events = await service.fire_due()
        assert events, "the service did not act for the computer or start the next deal"
        deals += EventKind.DEAL_STARTED in kinds(events)
    assert service.table_in(2) is None and table.match.phase == "over"
    assert deals >= 1


async def test_deadlines_that_passed_while_the_bot_was_down_get_a_grace_period(tmp_path):
    clock = ManualClock()
    path = tmp_path / "g.db"
    store, service = await open_service(path, clock=clock, settings=SETTINGS)
    table = await open_and_start(service, 1, players=3)
    seat = table.match.deal.turn
    await store.close()
    clock.advance(3600)  # the bot was down for an hour
    store = await open_store(path)
    service = TableService(store, clock=clock, settings=SETTINGS)
    [resumed] = await service.resume()
    assert resumed.kind == ServiceEventKind.RESUMED
    table = service.table_in(1)
    assert table.clock.deadline == clock.now() + 20 + 60  # the grace, then the player's bank
    assert await service.fire_due() == []
    clock.advance(80)
    assert EventKind.MISSED_TURN in kinds(await service.fire_due())
    assert table.match.deal.turn != seat
    await store.close()


async def test_the_production_loop_fires_deadlines_and_reports_them(tmp_path):
    clock = ManualClock()
    reported = []

    async def sink(events):
        reported.extend(events)

    store, service = await open_service(tmp_path / "p.db", clock=clock, settings=SETTINGS)
    service.on_events = sink
    await open_and_start(service, 1, players=2)
    clock.advance(1000)
    stop = asyncio.Event()
    loop = asyncio.create_task(service.run(stop))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if reported:
            break
    stop.set()
    await loop
    assert EventKind.MISSED_TURN in kinds(reported)
    await store.close()


async def test_due_tables_act_together_and_share_commits(timed):
    clock, service = timed
    for channel in range(20, 40):  # a host each: one member opens and sits at a few tables only
        host = user(channel, 0)
        await service.open_table(GUILD, channel, host, "Host")
        await service.add_computer(channel, host)
        await service.add_computer(channel, host, "strong")
        await service.start(channel, host)
    clock.advance(1000)
    before = service.store.commits
    events = await service.fire_due()
    assert {event.table_id for event in events} == {service.table_in(c).id for c in range(20, 40)}
    assert service.store.commits - before < 10


async def test_two_clocks_pick_then_discard_and_a_pick_starts_the_discard_clock(timed):
    # 003: "Player has 20 seconds to pick one card ... and after that will has 20 seconds to
    # discard"; "Not pick yet - Automatically pick one card from closed deck. Picked but not
    # dropped - Automatically discard the new one."
    clock, service = timed
    app = Rules.preset("app")
    await service.open_table(GUILD, 3, user(3, 0), "Host", rules=app)
    await service.join(3, user(3, 1), "Player 1")
    await service.start(3, user(3, 0))
    table = service.table_in(3)
    deal = table.match.deal
    seat = deal.turn
    clock.advance(app.turn_seconds - 1)
    assert await service.fire_due() == []
    clock.advance(1)
    events = await service.fire_due()
    assert kinds(events)[:2] == [EventKind.MISSED_TURN, EventKind.PICKED]
    assert deal.turn == seat and deal.on_discard_clock  # the discard clock now runs
    clock.advance(app.discard_seconds - 1)
    assert await service.fire_due() == []
    clock.advance(1)
    assert EventKind.DISCARDED in kinds(await service.fire_due()) and deal.turn != seat
    # A player who picks in time starts the discard clock at once.
    other = deal.turn
    clock.advance(5)
    await service.play(3, user(3, other), {"command": "pick", "source": "closed"})
    clock.advance(app.discard_seconds - 1)
    assert await service.fire_due() == []
    clock.advance(1)
    assert EventKind.DISCARDED in kinds(await service.fire_due()) and deal.turn == seat


async def reported_until(reported, wanted, tries=200):
    """Lets the production loop run until `wanted(reported)` holds (at most `tries` short
    sleeps, far longer than it needs)."""
    for _ in range(tries):
        if wanted(reported):
            return True
        await asyncio.sleep(0.01)
    return False


async def test_the_production_loop_acts_for_a_computer_player_as_soon_as_a_person_hands_it_the_turn(
    tmp_path,
):
    # It polls only once a minute here: a computer player's turn waits for no poll.
    settings = ServiceSettings(computer_delay_seconds=0, timer_poll_seconds=60)
    store, service = await open_service(tmp_path / "w.db", settings=settings)
    reported = []

    async def sink(events):
        reported.extend(events)

    service.on_events = sink
    await service.open_table(GUILD, 5, user(5, 0), "Host")
    await service.add_computer(5, user(5, 0))
    await service.start(5, user(5, 0))
    table = service.table_in(5)
    stop = asyncio.Event()
    loop = asyncio.create_task(service.run(stop))
    await reported_until(reported, lambda _: table.match.deal.turn == 0)
    deal = table.match.deal
    await service.play(5, user(5, 0), {"command": "pick", "source": "closed"})
    await service.play(5, user(5, 0), {"command": "discard", "card": deal.picked.code})
    assert await reported_until(reported, lambda _: table.match.deal is not deal or deal.turn == 0)
    stop.set()
    await loop
    await store.close()


class HeldStrong:
    """Thinkers in which a strong player never makes up its mind (an easy one thinks at once)."""

    def __init__(self):
        self.held = asyncio.Event()

    async def run(self, fn, level, *args):
        if level == "strong":
            await self.held.wait()
        return fn(level, *args)


async def test_in_the_production_loop_a_table_whose_computer_player_is_slow_holds_up_no_other(tmp_path):
    settings = ServiceSettings(computer_delay_seconds=0, timer_poll_seconds=0.05)
    store, service = await open_service(tmp_path / "s.db", settings=settings)
    service.thinkers = thinkers = HeldStrong()
    reported = []

    async def sink(events):
        reported.extend(events)

    service.on_events = sink
    for channel, level in ((8, "strong"), (9, "easy")):
        await service.open_table(GUILD, channel, user(channel, 0), "Host")
        await service.add_computer(channel, user(channel, 0), level)
        await service.add_computer(channel, user(channel, 0), level)
        await service.start(channel, user(channel, 0))
        deal = service.table_in(channel).match.deal
        if deal.turn == 0:  # the host plays first: the computer players' turn next
            await service.play(channel, user(channel, 0), {"command": "pick", "source": "closed"})
            await service.play(channel, user(channel, 0), {"command": "discard", "card": deal.picked.code})
    stop = asyncio.Event()
    loop = asyncio.create_task(service.run(stop))
    easy = service.table_in(9)
    moved = EventKind.DISCARDED, EventKind.DROPPED, EventKind.DECLARED
    # The easy table's computer players play a turn while the strong one's still thinks.
    assert await reported_until(
        reported, lambda events: any(e.table_id == easy.id and e.kind in moved for e in events)
    )
    thinkers.held.set()
    stop.set()
    await loop
    await store.close()
