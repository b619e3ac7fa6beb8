"""A finished deal, move by move: what `/rummy replay` and `python -m bot replay` show.

A finished deal's record (`FinishedDeal`, as the match keeps it and the `deals` table stores it)
holds its shoe, toss, salt, reshuffles and command log. `replay_deal` starts the deal over from
the recorded shoe (the one the shuffle commitment published at the start and the reveal made
public at the end, so showing every hand gives nothing away) and applies the logged commands one
by one, keeping after each a `ReplayStep`: who did what, every hand, the open pile's top card and
the closed deck's count, and with the last step the deal's result.

The replay must end exactly where the record ends: a record that replays to anything else (an
edited row, a rule change that a stored log no longer follows) is refused as corrupt rather
than shown as a deal that never happened. Only an ended deal has a record to replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.commands import Command, SeatCommand
from bot.engine.deal import Deal, SeatStatus
from bot.engine.errors import CorruptTableError, RummyError
from bot.engine.events import DealOver, Discarded, Event, Picked
from bot.engine.history import FinishedDeal
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


def replay_deal(record: FinishedDeal) -> DealReplay:
    """The deal of `record` move by move; `CorruptTableError` if its log does not replay to
    exactly the deal it records."""
    try:
        deal, events = Deal.restart(record.setup)
        steps = [_step(deal, 0, None, events)]
        for index, command in enumerate(record.log, start=1):
            steps.append(_step(deal, index, command, deal.apply(command)))
        replayed = FinishedDeal.of(deal, record.number)
    except (RummyError, LookupError, TypeError, ValueError) as error:  # a record edited by hand
        raise CorruptTableError(f"the deal's record does not replay: {error}") from error
    if replayed.as_stored_like(record) != record:
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
