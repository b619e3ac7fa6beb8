"""What members typed reads as typed, a message pings whom it names only, and every field is cut
to Discord's limit (issue 23)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.discord import limits
from bot.discord.safe_text import NOBODY, escaped, pinging

SNOWFLAKE = "123456789012345678"


def test_a_name_full_of_markdown_and_mentions_reads_as_its_characters():
    tricky = (
        f"@everyone @here <@{SNOWFLAKE}> <@!{SNOWFLAKE}> <@&{SNOWFLAKE}> <#{SNOWFLAKE}> <t:1:R> "
        "[gift](https://x.example) **b** __u__ ~~s~~ ||sp|| `c` > q"
    )
    shown = escaped(tricky)
    assert "@everyone" not in shown and "@here" not in shown
    assert not re.search(r"(?<!\\)<", shown)  # no mention, channel link or timestamp made of it
    assert not re.search(r"(?<!\\)\[gift\]\(", shown)  # no masked link
    assert not re.search(r"(?<!\\)[*_~|`]", shown)  # every markdown mark escaped
    assert escaped("Asha") == "Asha" and escaped("Computer 1 (easy)") == "Computer 1 (easy)"


def test_a_message_may_ping_exactly_the_users_it_names_and_never_a_role_or_everyone():
    assert NOBODY.to_dict() == {"parse": []}
    assert pinging([5, 7, 5]).to_dict() == {"parse": [], "users": [5, 7]}
    many = pinging(range(1000, 1000 + 150)).to_dict()
    assert many["parse"] == [] and len(many["users"]) == limits.PINGED_USERS


@given(st.text(max_size=3000), st.sampled_from([limits.MESSAGE, limits.EVENT_LOCATION, limits.BUTTON_LABEL]))
def test_a_cut_field_is_within_its_limit_and_says_it_was_cut(text, limit):
    cut = limits.cut(text, limit)
    assert len(cut) <= limit
    assert cut == text if len(text) <= limit else cut.endswith(limits.ELLIPSIS)


@given(st.lists(st.text(min_size=1, max_size=2500), max_size=8))
def test_lines_packed_into_messages_never_pass_the_message_limit(lines):
    chunks = limits.message_chunks(lines)
    assert all(len(chunk) <= limits.MESSAGE for chunk in chunks)
    if all(len(line) <= limits.MESSAGE for line in lines):  # every line whole, in its order
        assert "\n".join(chunks) == "\n".join(lines)
