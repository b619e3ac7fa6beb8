"""How soon a move made at the Activity's page shows on the other player's page.

One process: the project's Discord double (`tests/discord_double`), a `RummyBot` serving the
Activity on a fresh SQLite file (the tests' `activity_bot`, its clock held still so no turn
times out), and two pages signed in through the double's OAuth, each on its own live
connection. The players take turns as fast as the pages answer: pick from the closed deck, then
throw the card just picked. For each of `--turns` turns, the time from the mover's page sending
a move to the other page holding the state that shows it is taken, for the pick and for the
discard; printed as median, p95 and the most, in milliseconds, with the machine's load.

    python benchmarks/activity.py [--turns 40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in ("", "tests", "tests/activity", "tests/discord"):
    sys.path.insert(0, str(ROOT / folder))


async def run(turns: int) -> list[float]:
    import aiohttp
    import discord.gateway
    import discord.http
    import yarl
    from activity_helpers import activity_bot, open_page, sign_in
    from discord_double import DiscordDouble
    from discord_double.fixtures import BotRunner
    from test_discord_frontend import start_table

    from bot.activity.limits import Limits
    from bot.service import ManualClock

    unmetered = Limits(messages_per_second=1e6, message_burst=10**6)  # moves as fast as pages send
    took: list[float] = []
    async with DiscordDouble() as double, aiohttp.ClientSession() as http:
        discord.http.Route.BASE = double.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(double.gateway_url)
        runner = BotRunner(double)
        with tempfile.TemporaryDirectory() as folder:
            bot = await runner.start(activity_bot(Path(folder), ManualClock(), limits=unmetered))
            try:
                people = (double.user("alice"), double.user("bob"))
                table = await start_table(double, bot, *people)
                base = f"http://127.0.0.1:{bot.activity_port}"
                pages = {}
                for person in people:
                    token = await sign_in(double, http, base, person)
                    page, _ = await open_page(http, base, token, double.guild_id, double.channel_id)
                    pages[table.seat_of(person.id)] = page
                    await page.next("state")
                for _ in range(turns):
                    mover = table.match.deal.turn
                    page, other = pages[mover], pages[1 - mover]
                    state = await page.state_where(lambda s: s["hand"]["legal"]["pick_closed"])
                    sent = time.perf_counter()
                    await page.move({"kind": "pick", "source": "closed"}, state["hand"]["turn"])
                    await other.state_where(lambda s, m=mover: s["table"]["match"]["deal"]["has_picked"][m])
                    took.append(time.perf_counter() - sent)
                    state = await page.state_where(lambda s: s["hand"]["picked"])
                    sent = time.perf_counter()
                    await page.move(
                        {"kind": "discard", "card": state["hand"]["picked"]}, state["hand"]["turn"]
                    )
                    await other.state_where(lambda s, m=mover: s["table"]["match"]["deal"]["turn"] != m)
                    took.append(time.perf_counter() - sent)
            finally:
                await runner.close_all()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    took = sorted(asyncio.run(run(args.turns)))
    p95 = statistics.quantiles(took, n=20)[-1]
    print(
        f"move to the other page, {len(took)} moves: median {statistics.median(took) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, most {took[-1] * 1000:.1f} ms (load {load:.2f} at the start)"
    )


if __name__ == "__main__":
    main()
