"""A match: a format's sequence of deals, with its standings, eliminations, rejoins and end.

Like a deal, a match takes commands and returns events, logs every command, and replays from
its JSON. Deal commands are forwarded to the deal in progress; seats are the match's seats in
every deal (players out of a deal sit it out), so no event needs renumbering.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine.commands import (
    DEAL_COMMANDS,
    Command,
    Leave,
    Logged,
    NextDeal,
    Rejoin,
    Split,
    parse_command,
    read_log,
)
from bot.engine.deal import Deal, DealSetup, Phase, SeatStatus
from bot.engine.errors import CorruptTableError, IllegalActionError, require
from bot.engine.events import DealStarted, Eliminated, Event, Left, MatchOver, Rejoined, SplitVote, Standings
from bot.engine.formats import DEAL_CHIPS, Family, Format, FormatSpec
from bot.engine.history import FinishedDeal
from bot.engine.rules import Rules


class MatchPhase(StrEnum):
    PLAYING = "playing"  # a deal is in progress
    BETWEEN_DEALS = "between_deals"  # rejoins and split votes happen here
    OVER = "over"


class Standing(StrEnum):
    IN = "in"
    ELIMINATED = "eliminated"
    LEFT = "left"


@dataclass
class Match:
    format: Format
    rules: Rules
    players: int
    point_value: int = 1
    standings: list[int] = field(default_factory=list)  # chips (Points, Deals) or scores (Pool)
    seat_status: list[Standing] = field(default_factory=list)
    rejoined: list[bool] = field(default_factory=list)
    history: list[list[int | None]] = field(default_factory=list)  # points per seat per deal
    winners: list[int] = field(default_factory=list)  # winner of each deal
    finished_deals: list[FinishedDeal] = field(default_factory=list)
    deal: Deal | None = None
    phase: MatchPhase = MatchPhase.BETWEEN_DEALS
    tie_break: list[int] = field(default_factory=list)  # Deals: the seats still tied
    split_votes: list[int] = field(default_factory=list)
    winner: int | None = None
    shares: dict[int, float] = field(default_factory=dict)  # a split pool: seat -> share
    log: list[Command] = field(default_factory=list)
    rng: random.Random | None = field(default=None, repr=False, compare=False)
    # How the next deals are to be dealt, instead of at random: a match started over (`restarted`).
    _setups: list[DealSetup] = field(default_factory=list, repr=False, compare=False)

    @property
    def spec(self) -> FormatSpec:
        return self.format.spec

    # ----------------------------------------------------------------- start

    @classmethod
    def start(
        cls,
        format: Format | str,
        players: int,
        rng: random.Random,
        *,
        rules: Rules | None = None,
        point_value: int = 1,
    ) -> tuple[Match, list[Event]]:
        match = cls.empty(format, players, rules=rules, point_value=point_value, rng=rng)
        return match, match.next_deal()

    @classmethod
    def empty(
        cls,
        format: Format | str,
        players: int,
        *,
        rules: Rules | None = None,
        point_value: int = 1,
        rng: random.Random | None = None,
    ) -> Match:
        """A match before its first deal (the toss happens when that deal starts)."""
        format = Format(format)
        rules = rules or Rules()
        rules.decks_for(players)  # refuses a count these rules cannot seat
        if point_value < 1:
            raise IllegalActionError("The point value must be at least 1 chip.")
        opening = DEAL_CHIPS * format.spec.deals if format.spec.family is Family.DEALS else 0
        return cls(
            format=format,
            rules=rules,
            players=players,
            point_value=point_value,
            standings=[opening] * players,
            seat_status=[Standing.IN] * players,
            rejoined=[False] * players,
            rng=rng,
        )

    # ----------------------------------------------------------------- deals

    def next_deal(self) -> list[Event]:
        """Starts the next deal: the first player moves one seat on from the last deal's."""
        if self.phase is not MatchPhase.BETWEEN_DEALS:
            raise IllegalActionError("A deal is in progress or the match is over.")
        self._record(NextDeal())
        self.split_votes.clear()
        playing = [seat for seat in range(self.players) if self._plays_next_deal(seat)]
        sitting_out = [seat for seat in range(self.players) if seat not in playing]
        if self._setups:
            deal, events = Deal.restart(self._setups.pop(0))
        else:
            first = None
            if self.finished_deals:
                first = self._rotate(self.finished_deals[-1].first_player, playing)
            deal, events = Deal.start(
                self.players,
                self.spec.deal_rules(self.rules),
                self.rng or random.Random(),
                first_player=first,
                sitting_out=sitting_out,
            )
        self.deal = deal
        self.phase = MatchPhase.PLAYING
        number = len(self.finished_deals) + 1
        started = DealStarted(deal.first_player, number)
        return [started, *events]

    def _plays_next_deal(self, seat: int) -> bool:
        if self.seat_status[seat] is not Standing.IN:
            return False
        return not self.tie_break or seat in self.tie_break

    @staticmethod
    def _rotate(previous: int, playing: list[int]) -> int:
        later = [seat for seat in playing if seat > previous]
        return later[0] if later else playing[0]

    # ----------------------------------------------------------------- commands

    def apply(self, entry: Command | Logged) -> list[Event]:
        """Applies one command, typed or in its logged form (as stored): deal commands go to
        the deal in progress."""
        command = parse_command(entry)
        if type(command) in DEAL_COMMANDS:
            return self._deal_command(command)
        match command:
            case NextDeal():
                return self.next_deal()
            case Leave(seat):
                return self.leave(seat)
            case Rejoin(seat):
                return self.rejoin(seat)
            case Split(seat):
                return self.vote_split(seat)
        raise IllegalActionError("Unknown command '{command}'.", command=command.NAME)

    def _deal_command(self, command: Command) -> list[Event]:
        if self.phase is not MatchPhase.PLAYING or self.deal is None:
            raise IllegalActionError("No deal is in progress.")
        events = self.deal.apply(command)  # raises, changing nothing, if the deal refuses it
        self.log.append(self.deal.log[-1])  # the deal's own command, not a second one
        return events + self._after_deal_command()

    def _after_deal_command(self) -> list[Event]:
        assert self.deal is not None
        if self.deal.phase is Phase.OVER:
            return self._settle_deal()
        return []

    def leave(self, seat: int) -> list[Event]:
        """A player who leaves is dropped from the deal in progress and out of the match."""
        self._verify_seat(seat)
        if self.seat_status[seat] is not Standing.IN:
            raise IllegalActionError("You are not in this match any more.")
        if self.phase is MatchPhase.OVER:
            raise IllegalActionError("The match is over.")
        events: list[Event] = []
        self._record(Leave(seat))
        self.seat_status[seat] = Standing.LEFT
        if self.deal is not None and self.phase is MatchPhase.PLAYING and self.deal.can_leave(seat):
            events += self.deal.leave(seat)
            events += self._after_deal_command()
        else:
            events.append(Left(seat))
        if self.phase is MatchPhase.BETWEEN_DEALS:
            events += self._end_if_decided()
        return events

    # ----------------------------------------------------------------- pool extras

    def can_rejoin(self, seat: int) -> bool:
        try:
            self.verify_rejoin(seat)
        except IllegalActionError:
            return False
        return True

    def verify_rejoin(self, seat: int) -> None:
        self._verify_seat(seat)
        if self.spec.family is not Family.POOL:
            raise IllegalActionError("Rejoining is only possible in Pool rummy.")
        if self.phase is not MatchPhase.BETWEEN_DEALS:
            raise IllegalActionError("You can rejoin only between deals.")
        if self.seat_status[seat] is not Standing.ELIMINATED:
            raise IllegalActionError("Only an eliminated player can rejoin.")
        if self.rejoined[seat]:
            raise IllegalActionError("You have already rejoined once in this pool.")
        highest = max(self._remaining_scores())
        if highest > self.spec.rejoin_below:
            raise IllegalActionError(
                "Too late to rejoin: a player still in has {highest}, over {limit}.",
                limit=self.spec.rejoin_below,
                highest=highest,
            )

    def rejoin(self, seat: int) -> list[Event]:
        """Back in at the highest remaining score plus one, once per pool."""
        self.verify_rejoin(seat)
        self._record(Rejoin(seat))
        score = max(self._remaining_scores()) + 1
        self.standings[seat] = score
        self.seat_status[seat] = Standing.IN
        self.rejoined[seat] = True
        self.split_votes.clear()
        return [Rejoined(seat, score)]

    def can_split(self) -> bool:
        return (
            self.spec.family is Family.POOL
            and self.phase is MatchPhase.BETWEEN_DEALS
            and 2 <= len(self.remaining()) <= 3
        )

    def vote_split(self, seat: int) -> list[Event]:
        """With two or three players left, all of them may agree to end the pool and share it
        by drops remaining, as the apps do."""
        self._verify_seat(seat)
        if not self.can_split():
            raise IllegalActionError("A split is possible only between deals with 2 or 3 players left.")
        if seat not in self.remaining():
            raise IllegalActionError("Only the players still in the pool can agree to split it.")
        if seat in self.split_votes:
            raise IllegalActionError("You have already agreed to split.")
        self._record(Split(seat))
        self.split_votes.append(seat)
        events: list[Event] = [SplitVote(seat, tuple(sorted(self.split_votes)))]
        if set(self.split_votes) == set(self.remaining()):
            self.shares = self._split_shares()
            events += self._finish(None)
        return events

    def drops_remaining(self, seat: int) -> int:
        """How many more first drops a pool score can take before reaching the limit."""
        return max(0, (self.spec.pool_limit - 1 - self.standings[seat]) // self.spec.first_drop)

    def _split_shares(self) -> dict[int, float]:
        remaining = self.remaining()
        drops = {seat: self.drops_remaining(seat) for seat in remaining}
        total = sum(drops.values())
        if total == 0:
            return {seat: 1 / len(remaining) for seat in remaining}
        return {seat: count / total for seat, count in drops.items()}

    # ----------------------------------------------------------------- settling

    def _settle_deal(self) -> list[Event]:
        deal = self.deal
        assert deal is not None and deal.winner is not None
        points: list[int | None] = [
            None if s.status is SeatStatus.SITTING_OUT else s.points for s in deal.seats
        ]
        self.finished_deals.append(FinishedDeal.of(deal, len(self.finished_deals) + 1))
        self.history.append(points)
        self.winners.append(deal.winner)
        self.deal = None
        self.phase = MatchPhase.BETWEEN_DEALS
        events = self._score(deal.winner, points)
        events.append(Standings(deal.winner, tuple(self.standings)))
        return events + self._end_if_decided()

    def _score(self, winner: int, points: list[int | None]) -> list[Event]:
        lost = {seat: p for seat, p in enumerate(points) if p is not None and seat != winner}
        if self.spec.family is Family.POOL:
            events: list[Event] = []
            for seat, p in lost.items():
                self.standings[seat] += p
                limit = self.spec.pool_limit
                if self.seat_status[seat] is Standing.IN and self.standings[seat] >= limit:
                    self.seat_status[seat] = Standing.ELIMINATED
                    events.append(Eliminated(seat, self.standings[seat]))
            return events
        value = self.point_value if self.spec.family is Family.POINTS else 1
        for seat, p in lost.items():
            self.standings[seat] -= p * value
            self.standings[winner] += p * value
        return []

    def _end_if_decided(self) -> list[Event]:
        remaining = self.remaining()
        if len(remaining) <= 1:
            return self._finish(remaining[0] if remaining else self.winners[-1])
        family = self.spec.family
        if family is Family.POINTS:
            return self._finish(self.winners[-1])
        if family is Family.DEALS and len(self.finished_deals) >= self.spec.deals:
            best = max(self.standings[seat] for seat in remaining)
            tied = [seat for seat in remaining if self.standings[seat] == best]
            if len(tied) == 1:
                return self._finish(tied[0])
            self.tie_break = tied
        return []

    def _finish(self, winner: int | None) -> list[Event]:
        self.winner = winner
        self.phase = MatchPhase.OVER
        return [MatchOver(winner, tuple(self.standings), tuple(self.shares.items()))]

    def remaining(self) -> list[int]:
        return [seat for seat in range(self.players) if self.seat_status[seat] is Standing.IN]

    def _remaining_scores(self) -> list[int]:
        return [self.standings[seat] for seat in self.remaining()]

    def _verify_seat(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise IllegalActionError("There is no seat {number} at this table.", number=seat + 1)

    def _record(self, command: Command) -> None:
        self.log.append(command)

    # ----------------------------------------------------------------- checks and storage

    def check_invariants(self) -> None:
        """Chips are conserved in Points and Deals; pool seats out are at or above the limit."""
        if self.deal is not None:
            self.deal.check_invariants()
        family = self.spec.family
        if family is not Family.POOL:
            opening = DEAL_CHIPS * self.spec.deals if family is Family.DEALS else 0
            require(sum(self.standings) == opening * self.players, "chips are not conserved")
        else:
            for seat, status in enumerate(self.seat_status):
                if status is Standing.ELIMINATED:
                    require(
                        self.standings[seat] >= self.spec.pool_limit, f"seat {seat} is out below the limit"
                    )
        require((self.phase is MatchPhase.PLAYING) == (self.deal is not None), "a deal without its phase")
        if self.phase is MatchPhase.OVER:
            require(self.winner is not None or bool(self.shares), "a match over with no winner")

    def to_json(self) -> dict[str, Any]:
        """The whole match: its state, and its history (the finished deals' records, the log)."""
        return {
            **self.state_json(),
            "finished_deals": [deal.to_json() for deal in self.finished_deals],
            "log": [command.to_json() for command in self.log],
        }

    def state_json(self) -> dict[str, Any]:
        """`to_json()` less the match's history, which only grows: what a snapshot of the match
        stores, the store keeping each command and each finished deal's record once."""
        return {
            "format": self.format.value,
            "rules": self.rules.to_json(),
            "players": self.players,
            "point_value": self.point_value,
            "standings": list(self.standings),
            "seat_status": [status.value for status in self.seat_status],
            "rejoined": list(self.rejoined),
            "history": [list(points) for points in self.history],
            "winners": list(self.winners),
            "deal": self.deal.to_json() if self.deal else None,
            "phase": self.phase.value,
            "tie_break": list(self.tie_break),
            "split_votes": list(self.split_votes),
            "winner": self.winner,
            "shares": {str(seat): share for seat, share in self.shares.items()},
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any], rng: random.Random | None = None) -> Match:
        """A match from its `to_json()`. The deals' logs hold again the very commands of the
        match's log, as they do in play, not equal copies (see `_deal_spans`)."""
        entries = list(raw["log"])
        log = read_log(entries)
        deal = raw["deal"]
        records = [*raw["finished_deals"], *([deal] if deal else [])]
        spans = _deal_spans(entries, [record["log"] for record in records])
        finished = [
            FinishedDeal.from_json(record, number, log[span] if span else None)
            for number, (record, span) in enumerate(zip(raw["finished_deals"], spans, strict=False), 1)
        ]  # (`spans` ends with the deal in progress's)
        deal_log = None
        if deal and spans[-1]:
            deal, deal_log = {**deal, "log": entries[spans[-1]]}, log[spans[-1]]  # as in play
        return cls(
            format=Format(raw["format"]),
            rules=Rules.from_json(raw["rules"]),
            players=raw["players"],
            point_value=raw["point_value"],
            standings=list(raw["standings"]),
            seat_status=[Standing(status) for status in raw["seat_status"]],
            rejoined=list(raw["rejoined"]),
            history=[list(points) for points in raw["history"]],
            winners=list(raw["winners"]),
            finished_deals=finished,
            deal=Deal.from_json(deal, rng, deal_log) if deal else None,
            phase=MatchPhase(raw["phase"]),
            tie_break=list(raw["tie_break"]),
            split_votes=list(raw["split_votes"]),
            winner=raw["winner"],
            shares={int(seat): share for seat, share in raw["shares"].items()},
            log=log,
            rng=rng,
        )

    @classmethod
    def restore(cls, raw: dict[str, Any], pending: Sequence[Command | Logged] = ()) -> Match:
        """A match from a snapshot and the commands logged after it. A snapshot need not be
        saved after every command: those commands replay exactly as long as none of them drew
        anything random (a new deal's shuffle and toss, a reshuffle), after which a snapshot is
        always saved. So a pending command that draws is refused as damage, not shuffled anew."""
        match = cls.from_json(raw, _NO_RANDOMNESS)
        for command in read_log(pending):
            match.apply(command)
        match.rng = None
        if match.deal is not None:
            match.deal.rng = None
        return match

    @classmethod
    def replay(cls, raw: dict[str, Any], rng: random.Random | None = None) -> Match:
        """Rebuilds a match from its command log, taking every shuffle from the recorded deals."""
        recorded = cls.from_json(raw)
        match = recorded.restarted()
        for command in recorded.log:
            match.apply(command)
        match._setups.clear()
        match.rng = rng
        if match.deal is not None:
            match.deal._scripted_reshuffles = None
            match.deal.rng = rng
        return match

    def restarted(self) -> Match:
        """This match at its start, before its first deal, dealing each deal as this one dealt
        it (the same shoe, toss, salt and reshuffles): applying this match's log to it plays the
        match again exactly, command by command (a replay; a league night's finishing order)."""
        match = Match.empty(self.format, self.players, rules=self.rules, point_value=self.point_value)
        match._setups = [deal.setup for deal in self.finished_deals]
        if self.deal is not None:
            match._setups.append(self.deal.setup)
        return match


def _deal_spans(entries: list[object], deals: Sequence[Sequence[object]]) -> list[slice | None]:
    """Where each deal's logged entries (the finished deals' first) are in the match's `entries`,
    or None where they are not a part of them. A deal logs what the match passes it, and the
    match logs the deal's own command, so deal `k`'s log follows the match's `k`-th next-deal
    command (but where a player out of the deal left the table during it: that deal reads its
    own). A resumed match then holds each command once, as it did in play, and finds its deals'
    logs by comparing logged entries, not reading them again."""
    found: list[slice | None] = []
    start = -1
    for deal in deals:
        try:
            start = entries.index(_NEXT_DEAL, start + 1)
        except ValueError:  # a log that does not go back that far
            return found + [None] * (len(deals) - len(found))
        span = slice(start + 1, start + 1 + len(deal))
        found.append(span if entries[span] == list(deal) else None)
    return found


_NEXT_DEAL = NextDeal().to_json()


class _NoRandomness(random.Random):
    """The random source of commands replayed after a snapshot: drawing from it means the
    snapshot that should have followed a draw is missing."""

    def random(self) -> float:
        raise CorruptTableError("a command after the last snapshot draws cards at random")

    def getrandbits(self, k: int) -> int:
        return int(self.random())


_NO_RANDOMNESS = _NoRandomness()  # one for every restore: it has nothing to draw from
