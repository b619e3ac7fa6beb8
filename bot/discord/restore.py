"""What the table front end finds again after a restart, from the message ids the outbox
remembered: each resumed table's message, hand DMs and turn mention (their old buttons already
work; an old mention is deleted when the next one is posted), old mentions whose deletion was
cut short (deleted by the process serving their server), and recent DM refusals (not retried)."""

from __future__ import annotations

from bot.discord.hand_dms import DM_REFUSAL_MEMORY, HandDMs
from bot.discord.outbox import Outbox
from bot.discord.turn_mentions import TO_DELETE, TurnMentions


async def restore(outbox: Outbox, hands: HandDMs, mentions: TurnMentions) -> None:
    bot = outbox.bot
    store = bot.store
    active = {table.id for table in bot.service.views()}
    posted = await store.posted_messages()
    doomed = {message_id for key, (_, message_id) in posted.items() if key.startswith(TO_DELETE + ":")}
    ownership = bot.ownership
    left: list[tuple[int, int, int]] = []  # the mentions of tables not resumed here
    for key, (channel_id, message_id) in posted.items():
        parts = key.split(":")
        if parts[0] == TO_DELETE:  # its deletion was cut short: the process serving it deletes it
            if ownership is None or ownership.shards.owns(int(parts[1])):
                old = outbox.channel(channel_id).get_partial_message(message_id)
                bot.in_background(mentions.delete_old_ping(None, key, old))
            continue
        if parts[0] != "table":
            continue
        if int(parts[1]) not in active:
            if parts[2:] == ["ping"] and message_id not in doomed:
                left.append((int(parts[1]), channel_id, message_id))
            continue
        message = outbox.channel(channel_id).get_partial_message(message_id)
        shown = outbox.shown(int(parts[1]))
        if len(parts) == 2:
            shown.message = message
        elif parts[2] == "hand":
            shown.hands[int(parts[3])] = message
            hands.dm_channels[int(parts[3])] = channel_id
        elif parts[2] == "ping" and message_id not in doomed:  # it names whoever is to act
            view = bot.service.view(int(parts[1]))
            shown.ping, shown.ping_user = message, view.person_to_act if view is not None else None
    if left:
        bot.in_background(mentions.retire_closed_pings(left))
    now = bot.service.clock.now()
    for user_id in await store.dm_refusals(now - DM_REFUSAL_MEMORY):
        hands.dm_refused.setdefault(user_id, now)
