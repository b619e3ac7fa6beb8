"""The Prometheus endpoint: a real HTTP server on a free port, scraped over HTTP while tables play
through the real service (on a real SQLite file) and through the real bot against the Discord
double; the scraped text is read with prometheus-client's own parser."""

import random

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from service_helpers import next_move, open_and_start, open_service, user
from test_discord_frontend import button, hand_message, make_bot, settle, start_table

from bot.app.metrics import Metrics
from bot.service import ManualClock

pytest_plugins = ("discord_double.fixtures",)


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample on /metrics, by name and labels."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as answer:
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/plain")
        text = await answer.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def health(port: int) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as answer:
        return answer.status, await answer.text()


async def test_moves_through_the_service_move_the_counters_a_scrape_reads(tmp_path):
    clock = ManualClock()
    store, service = await open_service(tmp_path / "rummy.db", clock=clock)
    metrics = Metrics()
    service.observer = metrics
    metrics.count_tables(service.views)
    problem: list[str] = []
    port = await metrics.serve("127.0.0.1", 0, lambda: problem[0] if problem else None)
    try:
        before = await scrape(port)
        assert before[("rummy_open_tables", (("state", "playing"),))] == 0
        assert before[("rummy_command_seconds_count", ())] == 0

        table = await open_and_start(service, 1, players=2)
        await service.open_table(1, 2, user(2, 0), "Host")  # a lobby beside it
        rng, kinds = random.Random(5), []
        for _ in range(6):
            player, move = next_move(table, rng, drop=0, wrong_show=0)
            await service.play(1, player, move)
            kinds.append(move["command"])
        played = await scrape(port)
        for kind in set(kinds):
            assert played[("rummy_commands_total", (("kind", kind),))] == kinds.count(kind)
        assert played[("rummy_command_seconds_count", ())] == len(kinds)
        assert played[("rummy_open_tables", (("state", "lobby"),))] == 1

        await service.add_computer(2, user(2, 0), "easy")
        await service.start(2, user(2, 0))
        computer_table = service.table_in(2)
        while computer_table.match.deal.turn != 1:  # the host lets the clock play their turn away
            clock.advance(computer_table.clock.deadline - clock.now() + 1)
            await service.fire_due()
        clock.advance(computer_table.clock.deadline - clock.now() + 1)
        await service.fire_due()  # the computer player picks

        after = await scrape(port)
        saved = sum(v for (name, _), v in after.items() if name == "rummy_commands_total")
        assert saved > len(kinds)  # the computer player's pick (and any timeout) count too
        assert after[("rummy_command_seconds_count", ())] == saved
        assert after[("rummy_command_seconds_sum", ())] > 0
        assert after[("rummy_computer_thinking_seconds_count", (("level", "easy"),))] == 1
        assert after[("rummy_open_tables", (("state", "playing"),))] == 2
        assert after[("rummy_open_tables", (("state", "lobby"),))] == 0
        assert ("process_resident_memory_bytes", ()) in after

        assert await health(port) == (200, "ok\n")
        problem.append("connecting to Discord")
        assert await health(port) == (503, "connecting to Discord\n")
    finally:
        await metrics.close()
        await store.close()


async def test_the_bot_serves_metrics_and_counts_what_discord_refuses(discord_double, bot_runner, tmp_path):
    double = discord_double
    bot = await bot_runner.start(make_bot(tmp_path, ManualClock(), metrics_port=0))
    port = bot.metrics_address[1]
    assert await health(port) == (200, "ok\n")
    alice, bob = double.user("alice"), double.user("bob")
    table = await start_table(double, bot, alice, bob)
    mover = alice if table.match.deal.turn == 0 else bob
    # Discord refuses the next message edit: rate limited (discord.py waits and retries), then 403.
    double.rate_limit("PATCH", r"/channels/\d+/messages/\d+")
    double.inject("PATCH", r"/channels/\d+/messages/\d+", 403, {"message": "Missing Access", "code": 50001})
    hand = hand_message(double, mover)
    await double.press_button(mover, hand, button(hand, "closed"))
    await settle(bot)

    scraped = await scrape(port)
    assert scraped[("rummy_discord_http_errors_total", (("status", "429"),))] == 1
    assert scraped[("rummy_discord_http_errors_total", (("status", "403"),))] == 1
    requests = scraped[("rummy_discord_requests_total", ())]
    assert requests >= len(double.requests_matching())  # every REST request, and the gateway's
    assert scraped[("rummy_commands_total", (("kind", "pick"),))] == 1
    assert scraped[("rummy_open_tables", (("state", "playing"),))] == 1

    await bot_runner.stop(bot)
    async with aiohttp.ClientSession() as session:  # the endpoint closes with the bot
        try:
            await session.get(f"http://127.0.0.1:{port}/healthz")
        except aiohttp.ClientConnectionError:
            pass
        else:
            raise AssertionError("the metrics endpoint outlived the bot")
