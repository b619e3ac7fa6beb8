"""Writes `before_rules.db`: a database as the bot wrote it before tables and leagues chose their
rules (commit 3dec125), for `tests/store/test_store_before_rules.py`. Run with that commit's code:

    git archive 3dec125 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/data/make_before_rules_db.py tests/data/before_rules.db

It holds a lobby (channel 10, 45 s turns), a Points match in play (channel 11, some moves made)
and a Pool 101 league with its first season. Kept as written, never regenerated with newer code.
"""

import asyncio
import random
import sys
from datetime import UTC, datetime

from bot.engine.rules import Rules
from bot.service import LeagueService, ManualClock, ServiceSettings, TableService, seeded, simple_policy
from bot.store import open_store

NOW = datetime(2026, 3, 16, 12, tzinfo=UTC)


async def opened(record, night, table) -> int:
    raise RuntimeError("no night is seated in this database")


async def main(path: str) -> None:
    store = await open_store(path)
    clock = ManualClock(NOW.timestamp())
    service = TableService(
        store,
        clock=clock,
        random_source=seeded(7),
        policy=simple_policy,
        settings=ServiceSettings(computer_delay_seconds=0.0),
    )
    await service.open_table(1, 10, 100, "Asha", rules=Rules(turn_seconds=45), max_seats=6)
    await service.join(10, 101, "Ravi")
    await service.open_table(1, 11, 200, "Meera", max_seats=6)
    await service.join(11, 201, "Kabir")
    await service.start(11, 200)
    table = service.table_in(11)
    rng = random.Random(3)
    for _ in range(6):
        deal = table.match.deal
        seat = deal.turn
        user = table.record.seats[seat].user_id
        if deal.phase == "pick":
            command = {"command": "pick", "source": "closed"}
        else:
            command = {"command": "discard", "card": rng.choice(deal.seats[seat].hand).code}
        await service.play(11, user, command)
    leagues = LeagueService(store, service, open_thread=opened, clock=clock)
    await leagues.create(1, 100, "Friday Pool", "pool-101", "every Friday 20:00", "Asia/Kolkata", 4)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
