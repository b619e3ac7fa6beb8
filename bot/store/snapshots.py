"""JSON text of match snapshots, reusing from one command to the next what did not change.

Every command stores its match's whole snapshot, and encoding it was the largest part of a
command's cost: above all the deal's own log, which grows by one entry a command and so was
encoded again in full each time (a long deal's log is most of its snapshot), then the rules
(twice: the match's and the deal's), the shoe and the toss, which change once a deal at most.
`SnapshotEncoder` keeps, per match, the text of each of those and of every log entry already
encoded, and encodes only the rest. The result is the same JSON value as `dumps` gives (the
members of an object may come in another order): a text is reused only for a value equal to the
one it was made from (a log entry is compared as the same object, which is quick, and enough
because the engine never changes an entry once logged: replays and verification rely on that).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# check_circular off: snapshots are trees fresh from to_json() (a cycle would still fail, as a
# RecursionError), and the check costs a quarter of the encoding time.
_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
# Members whose values change at most once a deal, at the match's level or the deal's.
_STABLE = frozenset({"rules", "shoe", "toss"})


def dumps(value: Any) -> str:
    """Compact JSON, as everything in the database is written."""
    return _ENCODER.encode(value)


@dataclass
class _MatchTexts:
    stable: dict[str, tuple[Any, str]] = field(default_factory=dict)  # "rules", "deal.shoe", ...
    log: list[Any] = field(default_factory=list)  # the deal's log entries encoded so far...
    log_texts: list[str] = field(default_factory=list)  # ...and their texts

    def encode(self, value: dict[str, Any], path: str = "") -> str:
        plain: dict[str, Any] = {}
        reused: list[str] = []
        for key, item in value.items():
            name = path + key
            if name == "deal" and item is not None:
                text = self.encode(item, "deal.")
            elif name == "deal.log":
                text = self._log(item)
            elif key in _STABLE:
                text = self._stable(name, item)
            else:
                plain[key] = item
                continue
            reused.append(f"{dumps(key)}:{text}")
        text = dumps(plain)
        if not reused:
            return text
        return "{" + ",".join([text[1:-1], *reused] if plain else reused) + "}"

    def _stable(self, name: str, value: Any) -> str:
        cached = self.stable.get(name)
        if cached is not None and cached[0] == value:
            return cached[1]
        text = dumps(value)
        self.stable[name] = (value, text)
        return text

    def _log(self, log: list[Any]) -> str:
        done = len(self.log)
        if log[:done] != self.log:  # another deal, or a match reloaded: start over
            self.log, self.log_texts, done = [], [], 0
        for entry in log[done:]:
            self.log.append(entry)
            self.log_texts.append(dumps(entry))
        return "[" + ",".join(self.log_texts) + "]"


class SnapshotEncoder:
    """Snapshots' JSON text, per match; see the module's docstring. `forget` a match once it
    has ended, so that only playing matches are kept."""

    def __init__(self) -> None:
        self._matches: dict[int, _MatchTexts] = {}

    def encode(self, match_id: int, snapshot: dict[str, Any]) -> str:
        return self._matches.setdefault(match_id, _MatchTexts()).encode(snapshot)

    def forget(self, match_id: int) -> None:
        self._matches.pop(match_id, None)
