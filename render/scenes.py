"""What the pictures show, as small frozen values of their own.

The engine's deal and match states are still moving, so the renderer takes these plain values
instead; the Discord front end maps engine states onto them. Keeping them frozen and hashable
means a scene can be cached or compared in tests without copying.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from bot.engine.cards import Card

GroupKind = Literal["pure_sequence", "impure_sequence", "set", "spare_jokers", "ungrouped"]
SeatStatus = Literal["playing", "dropped", "out", "declared"]
# Why a valid group still counts against its hand: the hand has no pure sequence, or no second
# sequence, or (where the rules ask one) no sequence of four; or the table's sets pay (004).
PaysBecause = Literal["no_pure_sequence", "no_second_sequence", "no_long_sequence", "sets_count"]
GROUP_KINDS: tuple[GroupKind, ...] = get_args(GroupKind)


@dataclass(frozen=True, slots=True)
class HandGroup:
    """Cards the player or the solver put together, with the points they still count."""

    kind: GroupKind
    cards: tuple[Card, ...]
    points: int = 0
    pays_because: PaysBecause | None = None  # a valid group that still counts, and why

    def __post_init__(self) -> None:
        if self.kind not in GROUP_KINDS:
            raise ValueError(f"unknown group kind {self.kind!r}; use one of {', '.join(GROUP_KINDS)}")

    @property
    def is_meld(self) -> bool:
        """Valid as the engine judged it (drawn ✓); loose cards and broken groups are not (✗)."""
        return self.kind != "ungrouped"


@dataclass(frozen=True, slots=True)
class HandScene:
    """A player's private hand.

    `picked` is the 1-based position (as numbered under the cards) of the card just drawn, so a
    player with two identical cards still sees which one is new; `discard` that of the card the
    solver would let go from 14; `ready`, that the hand as grouped is a valid show.
    """

    groups: tuple[HandGroup, ...]
    wild_rank: int | None = None
    picked: int | None = None
    discard: int | None = None
    ready: bool = False
    total_points: int | None = None
    four_colour: bool = False
    title: str = ""
    language: str = "en"  # the words drawn on the picture (bot.i18n); names and numbers stay as given

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.groups for card in group.cards)

    @property
    def points(self) -> int:
        """The total shown: the caller's figure when given (the solver knows best), else the sum."""
        if self.total_points is not None:
            return self.total_points
        return sum(group.points for group in self.groups)

    @property
    def pays_because(self) -> tuple[PaysBecause, ...]:
        """Why valid groups of this hand still count, each reason once, in the groups' order."""
        return tuple(dict.fromkeys(g.pays_because for g in self.groups if g.pays_because is not None))


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as everybody at the table sees it; `standing` is preformatted ("1,240 chips", "67 / 101")."""

    name: str
    cards_count: int
    standing: str = ""
    to_act: bool = False
    status: SeatStatus = "playing"


@dataclass(frozen=True, slots=True)
class TableScene:
    open_card: Card | None
    closed_count: int
    cut_joker: Card | None
    wild_rank: int | None
    seats: tuple[SeatView, ...]
    title: str = ""
    four_colour: bool = False
    language: str = "en"


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's line in a deal's result; empty `groups` for a player who dropped."""

    name: str
    groups: tuple[HandGroup, ...]
    points: int
    winner: bool = False
    standing: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class ResultScene:
    """`adds_up`: points are added to a pool score (shown +20) rather than paid (shown −20)."""

    players: tuple[PlayerResult, ...]
    wild_rank: int | None = None
    title: str = ""
    four_colour: bool = False
    adds_up: bool = False
    language: str = "en"


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """A player's points per deal in order (None: did not play that deal), total and status text."""

    name: str
    scores: tuple[int | None, ...]
    total: int
    status: str = ""
    out: bool = False  # `status` says the player is out (eliminated, left): drawn as a warning
    colour: int | None = None  # which series colour and marker: the same person's in every picture
    marked: tuple[bool, ...] = ()  # per score: flagged with the scene's `mark` (e.g. adjusted)


@dataclass(frozen=True, slots=True)
class StandingsScene:
    """A league or match table; `limit` draws the pool's elimination line on the chart."""

    title: str
    rows: tuple[StandingsRow, ...]
    limit: int | None = None
    columns: tuple[str, ...] = field(default=())
    mark: str = "†"  # drawn after a marked score
    notes: tuple[str, ...] = ()  # lines under the chart: what a mark or a column means
    language: str = "en"


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    """One seat at a step of a replay: its whole hand (the deal is over when anyone sees it).

    `line` and `tag` are the caller's words ("13 cards", "−40 pts"; "TO ACT", "WINNER");
    `picked` is the 1-based position of the card this seat took at this step."""

    name: str
    groups: tuple[HandGroup, ...]
    line: str = ""
    tag: str = ""
    acted: bool = False  # this seat made the step's move
    out: bool = False  # dropped, left or shown wrongly: drawn faded
    winner: bool = False
    picked: int | None = None


@dataclass(frozen=True, slots=True)
class ReplayScene:
    """A step of a finished deal: the piles as they stood, every hand, and `caption`, what
    happened at this step in the caller's words (one line each)."""

    seats: tuple[ReplaySeat, ...]
    open_card: Card | None
    closed_count: int
    cut_joker: Card | None
    wild_rank: int | None
    caption: tuple[str, ...] = ()
    title: str = ""
    step: str = ""  # "Move 14 of 57"
    four_colour: bool = False
    language: str = "en"  # the words the picture itself draws (piles, group labels)
