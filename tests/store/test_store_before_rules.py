"""A database written before tables and leagues chose their rules (tests/data/before_rules.db, made
by that release's code, see tests/data/make_before_rules_db.py) opens, migrates and plays on."""

import shutil
from datetime import UTC, datetime
from pathlib import Path

from service_helpers import open_service

from bot.engine.rules import Rules
from bot.service import LeagueService, ManualClock
from bot.store import SCHEMA_VERSION

BEFORE = Path(__file__).resolve().parents[1] / "data" / "before_rules.db"
NOW = datetime(2026, 3, 16, 12, tzinfo=UTC)


async def no_threads(record, night, table) -> int:
    raise AssertionError("no night is due")


async def test_tables_and_leagues_written_before_rules_were_chosen_load_and_play_on(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(BEFORE, path)
    store, service = await open_service(path, clock=ManualClock(NOW.timestamp()))
    try:
        lobby, playing = service.table_in(10), service.table_in(11)
        # The old rows kept `printed_jokers` and no preset: they started from the defaults.
        assert lobby.rules.preset == "standard" and lobby.rules.printed_jokers_per_deck == 1
        assert lobby.rules.turn_seconds == 45 and lobby.record.max_seats == 6
        await service.change_rules(10, 100, {"first_drop": 10})
        await service.start(10, 100)
        assert lobby.match.rules.first_drop == 10 and lobby.match.rules.turn_seconds == 45

        moves = len(playing.match.log)
        for _ in range(4):  # the match in play goes on: pick from the closed deck, throw it back
            deal = playing.match.deal
            user = playing.record.seats[deal.turn].user_id
            picked = deal.picked if deal.phase == "discard" else None
            command = (
                {"command": "discard", "card": picked.code}
                if picked
                else {"command": "pick", "source": "closed"}
            )
            await service.play(11, user, command)
        assert len(playing.match.log) == moves + 4

        leagues = LeagueService(store, service, open_thread=no_threads)
        await leagues.load()
        (record,) = leagues.leagues(1)
        assert record.league.rules == "standard" and record.league.table_rules == Rules()

        await store.set_user_settings(100, {"deck": "four-colour"}, NOW.timestamp())  # the new table
        assert await store.user_settings(100) == {"deck": "four-colour"}
        async with store._conn.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] == SCHEMA_VERSION
    finally:
        await store.close()
