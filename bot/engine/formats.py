"""The match formats players choose when they open a table, and how each changes a deal's rules.

Figures follow the apps' rule pages: Pool 101 drops cost 20/40 and a player may rejoin while no
one left is above 79; Pool 201 drops cost 25/50, rejoin while no one is above 174. Pool 61 is on
none of our source pages; the apps that offer it (shared/rules-sources/pool-61-notes.md) charge
drops of 15/30 and 60 for a wrong show, cap a hand at 60, and allow a rejoin while no one is
above 44. A pool keeps its own drop costs whatever the table's rules preset; a preset's drop
costs apply to Points and Deals. The stakes of an early show (004) apply to Points only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.engine.rules import Rules

DEAL_CHIPS = 80  # chips each player brings per deal in Deals


class Family(StrEnum):
    POINTS = "points"
    DEALS = "deals"
    POOL = "pool"


class Format(StrEnum):
    POINTS = "points"
    DEALS_2 = "deals-2"
    DEALS_3 = "deals-3"
    DEALS_6 = "deals-6"
    POOL_61 = "pool-61"
    POOL_101 = "pool-101"
    POOL_201 = "pool-201"

    @property
    def spec(self) -> FormatSpec:
        return FORMATS[self]


@dataclass(frozen=True)
class FormatSpec:
    family: Family
    title: str
    deals: int = 1  # Deals: how many deals before the tie-break
    pool_limit: int = 0  # Pool: a score at or above this is out
    first_drop: int = 20
    middle_drop: int = 40
    rejoin_below: int = 0  # Pool: rejoin allowed while every remaining score is at most this
    wrong_declaration: int | None = None  # Pool 61: its own wrong-show cost and score cap
    score_cap: int | None = None

    def deal_rules(self, base: Rules) -> Rules:
        """The rules one deal of this format is played with."""
        if self.family is Family.POINTS:
            return base
        changes: dict[str, Any] = {"early_show_multipliers": False}
        if self.family is Family.DEALS:
            changes["drops_allowed"] = False
        else:
            changes.update(first_drop=self.first_drop, middle_drop=self.middle_drop)
            if self.wrong_declaration is not None:
                changes["wrong_declaration"] = self.wrong_declaration
            if self.score_cap is not None:
                changes["score_cap"] = self.score_cap
        return base.replace(**changes)


FORMATS: dict[Format, FormatSpec] = {
    Format.POINTS: FormatSpec(Family.POINTS, "Points"),
    Format.DEALS_2: FormatSpec(Family.DEALS, "Deals · best of 2", deals=2),
    Format.DEALS_3: FormatSpec(Family.DEALS, "Deals · best of 3", deals=3),
    Format.DEALS_6: FormatSpec(Family.DEALS, "Deals · best of 6", deals=6),
    Format.POOL_61: FormatSpec(
        Family.POOL,
        "Pool 61",
        pool_limit=61,
        first_drop=15,
        middle_drop=30,
        rejoin_below=44,
        wrong_declaration=60,
        score_cap=60,
    ),
    Format.POOL_101: FormatSpec(
        Family.POOL, "Pool 101", pool_limit=101, first_drop=20, middle_drop=40, rejoin_below=79
    ),
    Format.POOL_201: FormatSpec(
        Family.POOL, "Pool 201", pool_limit=201, first_drop=25, middle_drop=50, rejoin_below=174
    ),
}
