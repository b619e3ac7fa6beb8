"""The presenter's request budget: urgent requests first, but table edits are not starved."""

import asyncio

from bot.discord.budget import URGENT_RUN, RequestBudget


async def test_urgent_requests_go_first_but_a_table_edit_still_gets_a_turn_under_an_overload():
    budget = RequestBudget(1000)  # fast tokens: only the order matters
    order = []

    async def spend(kind):
        await budget.spend(urgent=kind == "urgent")
        order.append(kind)

    await asyncio.gather(*(spend(kind) for kind in ["urgent", "later", *["urgent"] * 20]))
    # Urgent ones first (the very first may find a token saved up and go at once), then the
    # waiting table edit, not after all of them.
    assert URGENT_RUN <= order.index("later") <= URGENT_RUN + 1
