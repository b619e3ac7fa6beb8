"""A finished deal, move by move: what `/rummy replay` and `python -m bot replay` show.

A finished deal's record (`Deal.to_json()` as the match kept it, the row of the `deals` table)
holds its shoe, toss, salt, reshuffles and command log. `replay_deal` starts the deal over from
the recorded shoe (the one the shuffle commitment published at the start and the reveal made
public at the end, so showing every hand gives nothing away) and applies the logged commands one
by one, keeping after each a `ReplayStep`: who did what, every hand, the open pile's top card and
the closed deck's count, and with the last step the deal's result.

The replay must end exactly where the record ends: a record that replays to anything else (an
edited row, a rule change that a stored log no longer follows) is refused as corrupt rather
than shown as a deal that never happened. Only an ended deal can be replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card
from bot.engine.commands import BadCommandError, Command, SeatCommand, parse_command
from bot.engine.deal import Deal, SeatStatus
from bot.engine.errors import CorruptTableError, IllegalActionError
from bot.engine.events import DealOver, Discarded, Event, Picked
from bot.engine.outcomes import Outcome, Phase, Stakes
from bot.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class DealResult:
    """How the deal ended: its winner, and what each seat paid and why (None: sat it out)."""

    winner: int
    points: tuple[int | None, ...]
    outcomes: tuple[Outcome | None, ...]
    stakes: Stakes | None


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The deal after one command (step 0: as dealt, before any). `picked` and `discarded` are
    the cards this step took and let go of (a timeout may do both); every hand is shown, the
    deal being over when anyone sees a replay."""

    index: int
    seat: int | None  # who acted; None for the deal itself (step 0)
    command: Command | None
    events: tuple[Event, ...]
    hands: tuple[tuple[Card, ...], ...]
    statuses: tuple[SeatStatus, ...]
    open_top: Card | None
    closed_count: int
    finish_slot: tuple[Card, ...]
    turn: int
    phase: Phase
    picked: Picked | None
    discarded: Card | None
    result: DealResult | None  # on the last step only

    @property
    def over(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class DealReplay:
    """A finished deal rebuilt from its record: the table's constants and every step."""

    players: int
    rules: Rules
    first_player: int
    cut_joker: Card | None
    wild_rank: int | None
    commitment: str  # the hash published when the deal started; the shoe checks out against it
    steps: tuple[ReplayStep, ...]

    @property
    def result(self) -> DealResult:
        final = self.steps[-1].result
        assert final is not None  # `replay_deal` only builds replays of ended deals
        return final

    def step(self, index: int) -> ReplayStep:
        """Step `index`, kept within the deal (a button from an edited replay cannot fall off)."""
        return self.steps[max(0, min(index, len(self.steps) - 1))]


def replay_deal(record: Mapping[str, Any]) -> DealReplay:
    """The deal of `record` (a finished `Deal.to_json()`) move by move; `CorruptTableError` if it
    has not ended, or if its log does not replay to exactly the state it records."""
    raw = dict(record)
    if raw.get("phase") != Phase.OVER.value:
        raise IllegalActionError("This deal has not ended: it can be replayed once it is over.")
    try:
        deal, events = Deal.restart(raw)
        steps = [_step(deal, 0, None, events)]
        for index, entry in enumerate(raw["log"], start=1):
            command = parse_command(entry)
            steps.append(_step(deal, index, command, deal.apply(command)))
    except (IllegalActionError, BadCommandError, LookupError, TypeError, ValueError) as error:
        raise CorruptTableError(f"the deal's record does not replay: {error}") from error
    if not _same(deal.to_json(), raw):
        raise CorruptTableError("the deal's log does not replay to the state it records")
    return DealReplay(
        players=deal.players,
        rules=deal.rules,
        first_player=deal.first_player,
        cut_joker=deal.cut_joker,
        wild_rank=deal.wild_rank,
        commitment=deal.commitment,
        steps=tuple(steps),
    )


def _step(deal: Deal, index: int, command: Command | None, events: list[Event]) -> ReplayStep:
    picked = next((event for event in events if isinstance(event, Picked)), None)
    discarded = next((event.card for event in events if isinstance(event, Discarded)), None)
    over = next((event for event in events if isinstance(event, DealOver)), None)
    result = None
    if over is not None:
        result = DealResult(over.seat, over.points, over.outcomes, over.stakes)
    return ReplayStep(
        index=index,
        seat=command.seat if isinstance(command, SeatCommand) else None,
        command=command,
        events=tuple(events),
        hands=tuple(tuple(seat.hand) for seat in deal.seats),
        statuses=tuple(seat.status for seat in deal.seats),
        open_top=deal.open_card,
        closed_count=len(deal.closed),
        finish_slot=tuple(deal.finish_slot),
        turn=deal.turn,
        phase=deal.phase,
        picked=picked,
        discarded=discarded,
        result=result,
    )


def _same(replayed: dict[str, Any], recorded: dict[str, Any]) -> bool:
    """Whether the replayed deal is the recorded one, in every member the record holds (rows
    written before a member existed lack it, and the replay must not fail them for that)."""
    for key, value in recorded.items():
        if key == "seats":
            seats = replayed["seats"]
            if len(seats) != len(value):
                return False
            pairs = zip(seats, value, strict=True)
            if any(seat.get(name) != kept for seat, raw in pairs for name, kept in raw.items()):
                return False
        elif replayed.get(key) != value:
            return False
    return True
