"""Making a snapshot per command cheap enough to save one per command.

The engine's `Rules.to_json` goes through `dataclasses.asdict`, which is about two thirds of the
cost of `Match.to_json` (it is called for the match's rules and again for the deal's). A table's
rules never change during a match, so the service gives its matches rules that serialise once.
The engine's own `replace` keeps the class, so every deal of the match inherits it.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from bot.engine.match import Match
from bot.engine.rules import Rules


class SnapshotRules(Rules):
    """Rules whose JSON is worked out once. Compared with plain `Rules`, they are equal when
    every option is equal, as the dataclass's own comparison would say between two `Rules`."""

    @functools.cached_property
    def _json(self) -> dict[str, Any]:
        return Rules.to_json(self)

    def to_json(self) -> dict[str, Any]:
        return dict(self._json)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in dataclasses.fields(Rules))

    __hash__ = Rules.__hash__


def cheap_snapshots(match: Match) -> Match:
    """Swaps the match's (and its deal's) rules for equal ones that serialise once."""
    match.rules = snapshot_rules(match.rules)
    if match.deal is not None:
        match.deal.rules = snapshot_rules(match.deal.rules)
    return match


def snapshot_rules(rules: Rules) -> SnapshotRules:
    if isinstance(rules, SnapshotRules):
        return rules
    return SnapshotRules(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(Rules)})
