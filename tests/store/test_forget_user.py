"""`python -m bot forget-user`: a player's data erased on request, on SQLite and on PostgreSQL.
What is theirs alone goes (statistics, settings, DM records, sign-ups to come); what the others'
results need stays, under a placeholder that names nobody, shown as "a former player". A player
at an open table, or a change a running bot would undo or could not survive, is refused with
nothing changed."""

import json
import os
import random
import subprocess
import sys
import time

import pytest
from service_helpers import GUILD, open_and_start, open_service, play_one, user

from bot.service import ManualClock
from bot.service.replay_access import Replays
from bot.service.replay_views import DealRef
from bot.store import StoredLeague, open_store
from bot.store.forgetting import FORMER_PLAYER, BotRunningError, PlayerSeatedError
from bot.store.store import is_database_url

FORGOTTEN = user(1, 1)  # a player of the finished match at channel 1
KEPT = user(1, 2)


async def play_to_the_end(service, channel: int) -> int:
    table = await open_and_start(service, channel)
    rng = random.Random(channel)
    while service.table_in(channel) is not None:
        await play_one(service, table, rng, drop=0.3)
    return table.record.id


async def test_a_forgotten_player_shows_as_a_former_player_to_the_others(database):
    clock = ManualClock()
    store, service = await open_service(database, clock=clock)
    try:
        table_id = await play_to_the_end(service, 1)
        await service.open_table(GUILD, 2, user(2, 0), "Host")  # a lobby the player sits in
        await service.join(2, FORGOTTEN, "Player 1")
        await store.set_user_settings(FORGOTTEN, {"deck": "four-colour"}, clock.now())
        await store.refuse_dms(FORGOTTEN, clock.now())
        await store.remember_message(f"table:{table_id}:hand:{FORGOTTEN}", 55, 66, clock.now())
        before = await store.recent_matches(GUILD, KEPT)
        assert (await store.user_stats(GUILD, FORGOTTEN)).matches_played == 1

        with pytest.raises(PlayerSeatedError, match=f"open table\\(s\\) {service.table_in(2).record.id}"):
            await store.forget_user(FORGOTTEN, time.time(), apply=True)
        assert (await store.user_stats(GUILD, FORGOTTEN)).matches_played == 1  # nothing changed

        await service.leave(2, FORGOTTEN)
        found = await store.forget_user(FORGOTTEN, time.time(), apply=False)
        assert (found.tables, found.results, found.stats, found.settings, found.messages) == (1, 1, 1, 1, 2)
        assert await store.user_settings(FORGOTTEN)  # only said, not done
        done = await store.forget_user(FORGOTTEN, time.time(), apply=True)
        assert done.lines() == found.lines()

        # Theirs alone is gone; they have no history of their own.
        assert await store.user_settings(FORGOTTEN) == {}
        assert (await store.user_stats(GUILD, FORGOTTEN)).matches_played == 0
        assert await store.dm_refusals(0) == set()
        assert not [key for key in await store.posted_messages() if key.endswith(f":{FORGOTTEN}")]
        assert await store.recent_matches(GUILD, FORGOTTEN) == []
        # The others' results are whole: the same seats and standings, one of them a former player.
        after = await store.recent_matches(GUILD, KEPT)
        assert [(m.table_id, m.standing, m.winner) for m in after] == [
            (m.table_id, m.standing, m.winner) for m in before
        ]
        (seats,) = [m.seats for m in after]
        former = seats[1]
        assert former.name == FORMER_PLAYER and former.user_id is not None and former.user_id < 0
        assert [s.name for s in seats if s is not former] == ["Host", "Player 2"]
        assert (await store.user_stats(GUILD, KEPT)).matches_played == 1
        replayed = await Replays(store, clock, 90).load(DealRef(table_id, 1))
        assert replayed.names[1] == FORMER_PLAYER
        for host, seats in await store._all("SELECT host_id, seats FROM tables", ()):
            assert host != FORGOTTEN and FORGOTTEN not in [seat["user_id"] for seat in json.loads(seats)]
        assert (await store._one("SELECT count(*) FROM match_standings WHERE user_id = ?", (FORGOTTEN,)))[
            0
        ] == 0

        # The lobby plays on: the service keeps saving (what it holds was never theirs).
        await service.join(2, FORGOTTEN, "Player 1 again")  # one who comes back is a new player
        assert (await store.forget_user(user(9, 9), time.time(), apply=True)).found() is False
    finally:
        await store.close()


async def test_what_a_running_bot_would_undo_or_not_survive_is_refused(database):
    """Leagues live in the running bot's memory, which it writes back whole; a SQLite file takes
    one program's writes (the bot stops saving when another writes to it). The bot notes itself
    alive in the database every few seconds, which is how forgetting knows it runs."""
    bot_store = await open_store(database)
    state = {
        "league": {
            "seasons": [
                {
                    "nights": [
                        {
                            "status": "finished",
                            "signups": [FORGOTTEN, KEPT],
                            "tables": [{"seats": [FORGOTTEN]}],
                        },
                        {"status": "signup", "signups": [KEPT, FORGOTTEN], "tables": []},
                    ],
                    "adjustments": [{"user_id": FORGOTTEN, "by": KEPT}],
                }
            ]
        },
        "names": {str(FORGOTTEN): "Bob", str(KEPT): "Cy"},
        "announcement": {},
    }
    await bot_store.create_league(StoredLeague(bot_store.new_league_id(), GUILD, "Friday", state, None), 1.0)
    await bot_store.set_user_settings(FORGOTTEN, {"deck": "four-colour"}, 1.0)
    await bot_store.live_processes("bot-1", time.time(), time.time() - 15)
    cli = await open_store(database, create=False)
    try:
        refused = "SQLite file" if not is_database_url(database) else "league\\(s\\) 1"
        with pytest.raises(BotRunningError, match=refused):
            await cli.forget_user(FORGOTTEN, time.time(), apply=True)
        assert await cli.user_settings(FORGOTTEN)
        await cli.close()
        assert bot_store.lost is None  # the bot saves on
        await bot_store.set_user_settings(KEPT, {"deck": "two-colour"}, 2.0)

        # Once it has stopped (and not noted itself alive for longer than it ever waits between
        # two notes) the league is forgotten too.
        await bot_store.close()
        cli = await open_store(database, create=False)
        later = time.time() + 60
        done = await cli.forget_user(FORGOTTEN, later, apply=True)
        assert done.leagues == 1 and done.settings == 1
        (league,) = await cli.leagues()
        finished, waiting = league.state["league"]["seasons"][0]["nights"]
        assert waiting["signups"] == [KEPT]  # taken off the night to come
        (placeholder,) = set(finished["signups"]) - {KEPT}
        assert placeholder < 0 and finished["tables"][0]["seats"] == [placeholder]
        assert league.state["league"]["seasons"][0]["adjustments"] == [{"user_id": placeholder, "by": KEPT}]
        assert league.state["names"] == {str(KEPT): "Cy", str(placeholder): FORMER_PLAYER}
    finally:
        await cli.close()
        await bot_store.close()  # closing twice is fine


def test_the_command_says_what_it_changes_and_asks_first(tmp_path):
    path = tmp_path / "rummy.db"

    async def made() -> None:
        store = await open_store(path)
        await store.set_user_settings(FORGOTTEN, {"deck": "four-colour"}, 1.0)
        await store.close()

    import asyncio

    asyncio.run(made())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "RUMMY_"))}
    env["RUMMY_DB_PATH"] = str(path)

    def forget(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "forget-user", str(FORGOTTEN), *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )

    asked = forget()  # nobody to answer: nothing is changed
    assert asked.returncode == 1 and "their settings deleted" in asked.stdout
    assert "Nothing changed" in asked.stdout
    done = forget("--yes")
    assert done.returncode == 0, done.stderr
    assert "their settings deleted" in done.stdout and f"user {FORGOTTEN} is forgotten" in done.stdout
    again = forget("--yes")
    assert again.returncode == 0 and "nothing to do" in again.stdout
