"""Logged commands read back as shared objects.

A match keeps its whole command log in memory, and a restart reads thousands of them: 80
commands a table is 800,000 small dicts for 10,000 tables, most of the memory they take at rest.
Yet few of them differ (a pick or a discard is one of a few hundred: seat, source, card), and the
engine never changes an entry once logged (replays and the snapshot encoder rely on that too), so
equal entries can be one object. Entries are found by their stored text, which `dumps` writes
alike for equal commands; a declare's groups rarely repeat, so the table stops growing at
`MOST` texts and what comes after is read as usual.
"""

from __future__ import annotations

import json
from typing import Any

MOST = 8192  # distinct texts kept: far more than the commands that repeat (seats × cards)


class LoggedEntries:
    def __init__(self) -> None:
        self._by_text: dict[str, dict[str, Any]] = {}

    def read(self, text: str) -> dict[str, Any]:
        """The entry this stored text holds, the same object for the same text; raises what
        `json.loads` raises for text that is not JSON, and TypeError for JSON that is no entry."""
        entry = self._by_text.get(text)
        if entry is not None:
            return entry
        entry = json.loads(text)
        if not isinstance(entry, dict):
            raise TypeError(f"a logged command is a JSON object, not {text[:40]!r}")
        if len(self._by_text) < MOST:
            self._by_text[text] = entry
        return entry
