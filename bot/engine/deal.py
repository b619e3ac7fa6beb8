"""One deal of 13-card Rummy as an explicit state machine: commands in, events out.

Each command has `can_x` (a yes/no for buttons), `verify_x` (raises a player-readable
`IllegalActionError`) and `x` (verifies, applies, returns events). A rejected command changes
nothing. Every accepted command is appended to `log`, and every random outcome (the shoe, the
toss, each reshuffle) is recorded, so `Deal.replay` rebuilds the exact state from the log alone.
What the clock does for an absent player (a timeout) is decided here too, from the rules: one
clock for the turn, or (003) a pick clock then a discard clock, and an automatic show for a
hand that is complete when its time runs out.

How a deal ends decides what each seat pays, and each seat's `outcome` says why: a valid show
scores the other hands (a hand that could itself have shown may pay the rules' missed
declaration instead, 003; a show before any pick doubles what they pay and one after a single
pick halves it, 004; a player who left is scored by hand when the show came before their next
turn, 003); an empty deck may score every hand, the lowest winning (003).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import chain
from operator import attrgetter
from typing import Any

from bot.engine.cards import ACE, Card, build_shoe, format_cards, is_wild, parse_card, parse_cards
from bot.engine.commands import (
    Command,
    Declare,
    Discard,
    Drop,
    Leave,
    Logged,
    Pick,
    Source,
    Timeout,
    parse_command,
    read_logged,
)
from bot.engine.commitment import commit, new_salt
from bot.engine.errors import IllegalActionError, require
from bot.engine.events import (
    DealOver,
    Dealt,
    DeckExhausted,
    Declared,
    Discarded,
    Dropped,
    Event,
    Left,
    MissedTurn,
    Picked,
    Reshuffled,
    Toss,
    Turn,
    WrongShow,
)
from bot.engine.marks import N_
from bot.engine.melds import judge_groups
from bot.engine.outcomes import Outcome as Outcome
from bot.engine.outcomes import Phase as Phase
from bot.engine.outcomes import Stakes as Stakes
from bot.engine.rules import CARDS_PER_HAND, ClosedDeckEmpty, LeaveCost, Rules
from bot.engine.solver import best_arrangement
from bot.engine.toss import draw_for_first, toss_from_json, toss_json

_CODE = attrgetter("code")


class SeatStatus(StrEnum):
    PLAYING = "playing"
    DROPPED = "dropped"
    LEFT = "left"
    WRONG_SHOW = "wrong_show"
    DECLARED = "declared"
    SITTING_OUT = "sitting_out"


@dataclass
class Seat:
    hand: list[Card]
    status: SeatStatus = SeatStatus.PLAYING
    has_picked: bool = False  # picked at least once this deal: a drop is then a middle drop
    missed_turns: int = 0  # consecutive turns the clock played
    picks: int = 0  # cards picked this deal (a show after one pick halves the stakes, 004)
    points: int | None = None  # charged once the seat's deal is settled
    outcome: Outcome | None = None

    @property
    def in_play(self) -> bool:
        return self.status is SeatStatus.PLAYING

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": format_cards(self.hand),
            "status": self.status.value,
            "has_picked": self.has_picked,
            "missed_turns": self.missed_turns,
            "picks": self.picks,
            "points": self.points,
            "outcome": self.outcome.value if self.outcome else None,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Seat:
        return cls(
            hand=parse_cards(raw["hand"]),
            status=SeatStatus(raw["status"]),
            has_picked=raw["has_picked"],
            missed_turns=raw["missed_turns"],
            picks=raw.get("picks", int(raw["has_picked"])),  # rows from before counted no picks
            points=raw["points"],
            outcome=Outcome(raw["outcome"]) if raw["outcome"] else None,
        )


@dataclass(frozen=True)
class SeatView:
    """What one seat (or a spectator, seat None) may know: never another hand or the deck order."""

    seat: int | None
    hand: tuple[Card, ...]
    phase: Phase
    turn: int
    turn_number: int
    open_pile: tuple[Card, ...]
    closed_count: int
    cut_joker: Card | None
    cut_card_under_deck: bool  # the cut card lies face up under the closed deck, drawn last
    wild_rank: int | None
    statuses: tuple[SeatStatus, ...]
    hand_sizes: tuple[int, ...]
    has_picked: tuple[bool, ...]
    discards: tuple[tuple[int, Card], ...]  # every card discarded this deal, in order, with its seat
    picked: Card | None  # the card this seat took this turn
    picked_from_open: bool
    can_pick_open: bool
    can_declare: bool  # after a pick, or at one's first turn where a 13-card show is allowed
    rules: Rules

    @property
    def open_card(self) -> Card | None:
        return self.open_pile[-1] if self.open_pile else None

    @property
    def to_act(self) -> bool:
        return self.phase is not Phase.OVER and self.seat == self.turn

    def may_let_go(self, card: Card) -> bool:
        """Whether the rules let this card be discarded or put in the finish slot now."""
        return not _straight_back(card, self.picked, self.picked_from_open, self.rules)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What one seat may do now, so that front ends offer exactly that (buttons, menus, prompts)
    and say what it costs, from the table's rules."""

    pick_closed: bool
    pick_open: bool
    discards: frozenset[Card]  # the cards it may throw (or finish with)
    drop: bool
    declare: bool  # a show is open to it (its grouping is judged only when it declares)
    drop_cost: int  # what a drop would cost it now
    wrong_show_cost: int


@dataclass(frozen=True, slots=True)
class DealSetup:
    """What a deal drew at random, as recorded, with the table it was dealt to: enough to deal it
    again exactly (`Deal.restart`), for a replay. The toss is its rounds, each seat's card."""

    players: int
    rules: Rules
    first_player: int
    sitting_out: tuple[int, ...]
    shoe: tuple[Card, ...]
    toss: tuple[tuple[tuple[int, Card], ...], ...]
    salt: str
    reshuffles: tuple[tuple[Card, ...], ...]


@dataclass
class Deal:
    rules: Rules
    players: int  # seats at the table, including any sitting this deal out
    first_player: int
    shoe: list[Card]  # the shuffled shoe as dealt: the record that makes the deal verifiable
    toss: list[dict[int, Card]]  # the toss rounds, seat to card (empty when the first player was given)
    salt: str  # kept secret until the deal ends; see bot.engine.commitment
    seats: list[Seat]
    closed: list[Card]  # top of the deck is the end of the list
    open_pile: list[Card]  # top is the end of the list
    cut_joker: Card | None
    wild_rank: int | None
    turn: int
    phase: Phase = Phase.PICK
    turn_number: int = 1
    picked: Card | None = None
    picked_from_open: bool = False
    open_top_is_discard: bool = False  # the top open card was discarded by the player before
    finish_slot: list[Card] = field(default_factory=list)
    discards: list[tuple[int, Card]] = field(default_factory=list)
    reshuffles: list[list[Card]] = field(default_factory=list)
    clock_played: bool = False  # the clock has acted in this turn (it counts one missed turn)
    leavers: list[int] = field(default_factory=list)  # left, and their next turn has not come
    stakes: Stakes | None = None
    winner: int | None = None
    log: list[Command] = field(default_factory=list)  # only ever appended to
    rng: random.Random | None = field(default=None, repr=False, compare=False)
    # The logged forms of the log's commands so far, the same objects from one `to_json()` to
    # the next: a snapshot is saved every few commands, and writing the deal's whole log out
    # again each time would cost more than all the rest (the snapshot encoder then finds the
    # text of each entry it has seen before by identity: `bot.store.snapshots`).
    _logged: list[Logged] = field(default_factory=list, repr=False, compare=False)
    # Replays take reshuffles from the record instead of the random source.
    _scripted_reshuffles: list[list[Card]] | None = field(default=None, repr=False, compare=False)

    # ----------------------------------------------------------------- start

    @classmethod
    def start(
        cls,
        players: int,
        rules: Rules,
        rng: random.Random,
        *,
        first_player: int | None = None,
        shoe: Sequence[Card] | None = None,
        sitting_out: Collection[int] = (),
    ) -> tuple[Deal, list[Event]]:
        """Tosses (unless the match names the first player), shuffles, deals, turns the open card
        and cuts the joker. `shoe` replays a recorded shuffle instead of drawing a new one.
        Seats in `sitting_out` (eliminated in a pool, or outside a tie-break) get no cards, so
        seat numbers stay the match's own."""
        active = [seat for seat in range(players) if seat not in sitting_out]
        decks = rules.decks_for(len(active))
        events: list[Event] = []
        toss: list[dict[int, Card]] = []
        if first_player is None:
            first_player, toss = draw_for_first(active, rng)
            events.append(Toss(first_player, tuple(tuple(drawn.items()) for drawn in toss)))
        elif first_player not in active:
            raise IllegalActionError("Seat {number} is not playing this deal.", number=first_player + 1)
        if shoe is None:
            shoe = build_shoe(decks, rules.printed_jokers_for(len(active)))
            rng.shuffle(shoe)
        shoe = list(shoe)
        salt = new_salt(rng.getrandbits(128))
        lead = active.index(first_player)
        rotation = active[lead:] + active[:lead]
        deck = list(reversed(shoe))  # deal from the front of the recorded shoe
        hands: dict[int, list[Card]] = {seat: [] for seat in active}
        for _ in range(CARDS_PER_HAND):
            for seat in rotation:
                hands[seat].append(deck.pop())
        open_card = deck.pop()
        cut_joker = deck.pop() if rules.cut_joker else None
        if cut_joker is not None and rules.cut_card_in_play:
            deck.insert(0, cut_joker)  # 001, 003: face up under the closed deck, the last card drawn
        seats = [
            Seat(hands[seat]) if seat in hands else Seat([], SeatStatus.SITTING_OUT, points=0)
            for seat in range(players)
        ]
        deal = cls(
            rules=rules,
            players=players,
            first_player=first_player,
            shoe=shoe,
            toss=toss,
            salt=salt,
            seats=seats,
            closed=deck,
            open_pile=[open_card],
            cut_joker=cut_joker,
            wild_rank=_wild_rank(cut_joker, rules),
            turn=first_player,
            rng=rng,
        )
        events.append(
            Dealt(
                first_player,
                open_card,
                cut_joker=cut_joker,
                cut_card_in_play=deal.cut_card_under_deck,
                wild_rank=deal.wild_rank,
                commitment=deal.commitment,
            )
        )
        events.append(deal._turn_event())
        return deal, events

    # ----------------------------------------------------------------- pick

    def can_pick(self, seat: int, source: Source | str) -> bool:
        return self._acts(seat, Phase.PICK) and _allowed(self.verify_pick, seat, source)

    def verify_pick(self, seat: int, source: Source | str) -> None:
        self._verify_turn(seat, Phase.PICK)
        if Source(source) is Source.OPEN:
            if not self.open_pile:
                raise IllegalActionError("The open pile is empty: pick from the closed deck.")
            top = self.open_pile[-1]
            if (
                self.open_top_is_discard
                and is_wild(top, self.wild_rank)
                and not self.rules.pick_discarded_joker
            ):
                raise IllegalActionError(
                    "{card} is a joker just thrown: it can't be picked.",
                    card=top.pretty,
                )

    def pick(self, seat: int, source: Source | str) -> list[Event]:
        self.verify_pick(seat, source)
        source = Source(source)
        self._record(Pick(seat, source))
        self.seats[seat].missed_turns = 0
        return [self._take(seat, source)]

    def _take(self, seat: int, source: Source) -> Event:
        player = self.seats[seat]
        card = (self.open_pile if source is Source.OPEN else self.closed).pop()
        player.hand.append(card)
        player.has_picked = True
        player.picks += 1
        self.picked, self.picked_from_open = card, source is Source.OPEN
        self.phase = Phase.DISCARD
        return Picked(seat, source, card)

    # ----------------------------------------------------------------- discard

    def can_discard(self, seat: int, card: Card | str) -> bool:
        return self._acts(seat, Phase.DISCARD) and _allowed(self.verify_discard, seat, card)

    def verify_discard(self, seat: int, card: Card | str) -> None:
        card = _card(card)
        self._verify_turn(seat, Phase.DISCARD)
        self._verify_holds(seat, card)
        self._verify_not_handed_back(card, N_("discard"))

    def _verify_not_handed_back(self, card: Card, verb: str) -> None:
        """The card just taken from the open pile may not go straight back, and the finish slot
        is a discard too (the rule pages: "place his final discard card in the finish slot")."""
        if _straight_back(card, self.picked, self.picked_from_open, self.rules):
            raise IllegalActionError(
                "You just took {card} from the open pile: {verb} a different card.",
                card=card.pretty,
                verb=verb,
            )

    def discard(self, seat: int, card: Card | str) -> list[Event]:
        card = _card(card)
        self.verify_discard(seat, card)
        self._record(Discard(seat, card))
        self.seats[seat].missed_turns = 0
        return self._put_down(seat, card)

    def _put_down(self, seat: int, card: Card) -> list[Event]:
        self.seats[seat].hand.remove(card)
        self.open_pile.append(card)
        self.discards.append((seat, card))
        self.open_top_is_discard = True
        events: list[Event] = [Discarded(seat, card)]
        return events + self._after_turn()

    # ----------------------------------------------------------------- drop

    def can_drop(self, seat: int) -> bool:
        return self._acts(seat, Phase.PICK) and _allowed(self.verify_drop, seat)

    def verify_drop(self, seat: int) -> None:
        if not self.rules.drops_allowed:
            raise IllegalActionError("Dropping is not allowed in this format.")
        self._verify_turn(seat, Phase.PICK)

    def drop_cost(self, seat: int) -> int:
        """What dropping would cost this seat now: a first drop before any pick, else a middle drop."""
        return self.rules.middle_drop if self.seats[seat].has_picked else self.rules.first_drop

    def legal_actions(self, seat: int) -> LegalActions:
        """Every command `seat` may play now (all refused for a seat not to act)."""
        return LegalActions(
            pick_closed=self.can_pick(seat, Source.CLOSED),
            pick_open=self.can_pick(seat, Source.OPEN),
            discards=frozenset(card for card in self.seats[seat].hand if self.can_discard(seat, card)),
            drop=self.can_drop(seat),
            declare=self.can_declare(seat),
            drop_cost=self.drop_cost(seat),
            wrong_show_cost=self.rules.wrong_declaration,
        )

    def drop(self, seat: int) -> list[Event]:
        self.verify_drop(seat)
        self._record(Drop(seat))
        return self._drop(seat)

    def _drop(self, seat: int) -> list[Event]:
        player = self.seats[seat]
        outcome = Outcome.MIDDLE_DROP if player.has_picked else Outcome.FIRST_DROP
        points = self.drop_cost(seat)
        self._settle_seat(seat, SeatStatus.DROPPED, outcome, points)
        events: list[Event] = [Dropped(seat, points, outcome)]
        return events + self._after_turn()

    # ----------------------------------------------------------------- leave

    def can_leave(self, seat: int) -> bool:
        return _allowed(self.verify_leave, seat)

    def verify_leave(self, seat: int) -> None:
        self._verify_seat(seat)
        if self.phase is Phase.OVER:
            raise IllegalActionError("This deal is over.")
        if not self.seats[seat].in_play:
            raise IllegalActionError("You are no longer playing in this deal.")

    def leave_cost(self, seat: int) -> int:
        """What leaving the table would cost this seat now (unless, where the rules say so, a
        show before its next turn has its hand scored instead)."""
        if self.rules.leave_cost is LeaveCost.DROP_OR_HAND:
            return self.drop_cost(seat)
        return self.rules.middle_drop

    def leave(self, seat: int) -> list[Event]:
        """A player who leaves is charged a middle drop (000), or as a drop, first or middle, with
        the hand scored instead if someone shows before the leaver's next turn (003)."""
        self.verify_leave(seat)
        self._record(Leave(seat))
        points = self.leave_cost(seat)
        self._settle_seat(seat, SeatStatus.LEFT, Outcome.LEFT, points)
        if self.rules.leave_cost is LeaveCost.DROP_OR_HAND:
            self.leavers.append(seat)
        events: list[Event] = [Left(seat, points)]
        if seat == self.turn:
            self._return_picked(seat)
            return events + self._after_turn()
        return events + self._end_if_one_left()

    def _return_picked(self, seat: int) -> None:
        """A hand abandoned mid-turn gives back the card it picked, so the next player's turn
        begins with an ordinary pile and the hand keeps 13 cards."""
        if self.phase is Phase.DISCARD and self.picked is not None:
            self.seats[seat].hand.remove(self.picked)
            self.seats[seat].picks -= 1
            (self.open_pile if self.picked_from_open else self.closed).append(self.picked)

    # ----------------------------------------------------------------- declare

    def can_declare(self, seat: int) -> bool:
        """Whether declaring is open to `seat` now (the grouping is judged only on `declare`):
        after a pick, or before any where the rules allow a 13-card show at one's first turn."""
        return self._may_show_before_pick(seat) or self._acts(seat, Phase.DISCARD)

    def _may_show_before_pick(self, seat: int) -> bool:
        return (
            self.rules.show_before_pick and self._acts(seat, Phase.PICK) and not self.seats[seat].has_picked
        )

    def verify_declare(self, seat: int, groups: Sequence[Sequence[Card]], finish: Card | str | None) -> None:
        """`finish` is the card put in the finish slot; None only for a 13-card show at one's
        first turn, before any pick, where the rules allow it (004)."""
        declared = Counter(card for group in groups for card in group)
        if finish is None:
            if not self._may_show_before_pick(seat):
                self._verify_turn(seat, Phase.DISCARD)
                raise IllegalActionError("Put a card in the finish slot to declare.")
            if declared != Counter(self.seats[seat].hand):
                raise IllegalActionError("Show each of your 13 cards once.")
            return
        finish = _card(finish)
        self._verify_turn(seat, Phase.DISCARD)
        declared[finish] += 1
        if declared != Counter(self.seats[seat].hand):
            raise IllegalActionError("Use each of your 14 cards once: in your groups or as the finish.")
        self._verify_not_handed_back(finish, N_("finish with"))

    def declare(
        self, seat: int, groups: Sequence[Sequence[Card]], finish: Card | str | None = None
    ) -> list[Event]:
        """A valid show wins the deal at once; a wrong show costs the penalty and puts the
        player out while the others play on."""
        finish = None if finish is None else _card(finish)
        shown = [list(group) for group in groups]
        self.verify_declare(seat, shown, finish)
        self._record(Declare(seat, tuple(tuple(group) for group in shown), finish))
        self.seats[seat].missed_turns = 0
        return self._show(seat, shown, finish)

    def _show(
        self, seat: int, groups: list[list[Card]], finish: Card | None, automatic: bool = False
    ) -> list[Event]:
        if finish is not None:
            self.seats[seat].hand.remove(finish)
            self.finish_slot.append(finish)
        self.seats[seat].hand = [card for group in groups for card in group]
        judgement = judge_groups(groups, self.wild_rank, self.rules)
        laid_down = tuple(tuple(group) for group in groups)
        before_pick = finish is None
        if not judgement.valid:
            points = self.rules.wrong_declaration
            self._settle_seat(seat, SeatStatus.WRONG_SHOW, Outcome.WRONG_SHOW, points)
            event = WrongShow(seat, finish, points, laid_down, judgement.reason, automatic, before_pick)
            return [event, *self._after_turn()]
        self._settle_seat(seat, SeatStatus.DECLARED, Outcome.WON, 0)
        self.stakes = self._stakes(seat)
        return [
            Declared(seat, finish, laid_down, judgement.reason, automatic, before_pick, self.stakes),
            *self._finish(seat, shown=True),
        ]

    def _stakes(self, winner: int) -> Stakes | None:
        """004: "if a player calls rummy after picking up just one card then the other players
        pay just half ... if a player calls rummy before he has even picked up a card then
        everyone else pays the winner twice"."""
        if not self.rules.early_show_multipliers:
            return None
        return {0: Stakes.DOUBLE, 1: Stakes.HALF}.get(self.seats[winner].picks)

    # ----------------------------------------------------------------- timeout

    def verify_timeout(self, seat: int) -> None:
        self._verify_seat(seat)
        if self.phase is Phase.OVER:
            raise IllegalActionError("This deal is over.")
        if seat != self.turn:
            raise IllegalActionError("Only the player to act can run out of time.")

    @property
    def on_discard_clock(self) -> bool:
        """Whether the clock running is the discard clock of a two-clock turn (003)."""
        return self.rules.discard_seconds is not None and self.phase is Phase.DISCARD

    @property
    def clock_seconds(self) -> int:
        """The time the clock now running gives: the turn's, or the pick's or the discard's."""
        if self.on_discard_clock:
            assert self.rules.discard_seconds is not None
            return self.rules.discard_seconds
        return self.rules.turn_seconds

    def timeout(self, seat: int) -> list[Event]:
        """The clock plays for an absent player: it picks from the closed deck and throws that
        card back. With two clocks (003) a timeout on the pick clock only picks, and the discard
        clock starts; a timeout on the discard clock throws the new card back. A turn the clock
        played in counts once toward the missed turns that make a middle drop. Where the rules
        say so (003), a hand that can show when its time runs out declares by itself."""
        self.verify_timeout(seat)
        self._record(Timeout(seat))
        player = self.seats[seat]
        if not self.clock_played:
            player.missed_turns += 1
            self.clock_played = True
        missed = MissedTurn(seat, player.missed_turns, self.phase)
        if player.missed_turns >= self.rules.max_missed_turns:
            self._return_picked(seat)
            self.phase = Phase.PICK
            return [missed, *self._drop(seat)]
        events: list[Event] = [missed]
        if self.phase is Phase.PICK:
            events.append(self._take(seat, Source.CLOSED))
            if self.on_discard_clock:
                return events
        show = self._automatic_show(seat)
        if show is not None:
            return events + self._show(seat, *show, automatic=True)
        assert self.picked is not None
        return events + self._put_down(seat, self.picked)

    def _automatic_show(self, seat: int) -> tuple[list[list[Card]], Card] | None:
        """The show a complete hand makes by itself at a timeout (003): the new card goes to the
        finish slot when the other 13 are a show, else any card that leaves one."""
        if not self.rules.declare_on_timeout or self.picked is None:
            return None
        hand = self.seats[seat].hand
        rest = list(hand)
        rest.remove(self.picked)
        for cards, new_card in ((rest, self.picked), (hand, None)):
            best = best_arrangement(cards, self.wild_rank, self.rules)
            finish = new_card if new_card is not None else best.discard
            if best.valid and finish is not None and self._may_finish_with(finish):
                return [list(meld.cards) for meld in best.groups], finish
        return None

    def _may_finish_with(self, card: Card) -> bool:
        return _allowed(self._verify_not_handed_back, card, "finish with")

    # ----------------------------------------------------------------- turn flow

    def _after_turn(self) -> list[Event]:
        """Ends the current turn: settles the deal if it is decided, refills an empty closed
        deck, and passes the turn to the next player still in."""
        ended = self._end_if_one_left()
        if ended:
            return ended
        events: list[Event] = []
        if not self.closed:
            if self.rules.closed_deck_empty is ClosedDeckEmpty.SETTLE or len(self.open_pile) < 2:
                return [DeckExhausted(), *self._settle_by_hands()]
            events.append(self._reshuffle())
        following = self._next_in_play(self.turn)
        self._pass_leavers(self.turn, following)
        self.turn = following
        self.turn_number += 1
        self.phase = Phase.PICK
        self.picked, self.picked_from_open = None, False
        self.clock_played = False
        events.append(self._turn_event())
        return events

    def _pass_leavers(self, current: int, following: int) -> None:
        """The turn skips from `current` to `following`: the players who left from the seats in
        between had their next turn now, so a later show no longer scores their hands."""
        skipped = {(current + step) % self.players for step in range(1, (following - current) % self.players)}
        self.leavers = [seat for seat in self.leavers if seat not in skipped]

    def _reshuffle(self) -> Event:
        """The open pile, less its top card, becomes the new closed deck. The new order is
        recorded so that replays and the published shuffle commitment stay exact."""
        top = self.open_pile.pop()
        cards = self.open_pile
        if self._scripted_reshuffles is not None:
            cards = self._scripted_reshuffles.pop(0)
        else:
            if self.rng is None:
                raise RuntimeError("This deal was loaded without a random source to reshuffle with.")
            self.rng.shuffle(cards)
        self.reshuffles.append(list(cards))
        number = len(self.reshuffles)
        self.closed = list(reversed(cards))
        self.open_pile = [top]
        self.open_top_is_discard = False
        return Reshuffled(len(cards), number, self.reshuffle_commitment(number))

    def _end_if_one_left(self) -> list[Event]:
        remaining = [i for i, seat in enumerate(self.seats) if seat.in_play]
        if len(remaining) == 1:
            last = remaining[0]
            self._settle_seat(last, self.seats[last].status, Outcome.WON, 0)
            return self._finish(last)
        return []

    def _settle_by_hands(self) -> list[Event]:
        """The deck ran out: every hand still in is scored as it stands; the lowest wins
        (ties go to the first of them in turn order from the player who would act next)."""
        order = [self._next_in_play(self.turn)]
        while len(order) < sum(seat.in_play for seat in self.seats):
            order.append(self._next_in_play(order[-1]))
        scored = {seat: self._hand_points(seat) for seat in order}
        winner = min(order, key=lambda seat: scored[seat])
        self._settle_seat(winner, SeatStatus.PLAYING, Outcome.WON, 0)
        return self._finish(winner)

    def _finish(self, winner: int, shown: bool = False) -> list[Event]:
        """Charges every seat still holding cards the best arrangement of its hand, then closes.
        After a valid show (`shown`), the rules' missed declaration, stakes and leaver scoring
        apply (see the module's docstring)."""
        self.winner = winner
        for index, seat in enumerate(self.seats):
            if seat.points is None:
                self._settle_seat(index, seat.status, *self._scored(index, shown))
        if shown:
            for index in self.leavers:
                points = self._staked(self._hand_points(index))
                self._settle_seat(index, SeatStatus.LEFT, Outcome.LEFT_HAND_SCORED, points)
        self.phase = Phase.OVER
        self.picked, self.picked_from_open = None, False
        over = DealOver(
            winner,
            points=tuple(seat.points for seat in self.seats),
            outcomes=tuple(seat.outcome for seat in self.seats),
            hands=tuple(tuple(seat.hand) for seat in self.seats),
            stakes=self.stakes,
            salt=self.salt,
            shoe=tuple(self.shoe),
            reshuffles=tuple(tuple(order) for order in self.reshuffles),
        )
        return [over]

    def _scored(self, seat: int, shown: bool) -> tuple[Outcome, int]:
        """What a hand still in pays when the deal ends: its best arrangement, or the missed
        declaration where its 13 cards were a valid show when another player showed (003)."""
        best = best_arrangement(self.seats[seat].hand, self.wild_rank, self.rules)
        missed = self.rules.missed_declaration_points
        if shown and missed is not None and best.valid:
            return Outcome.MISSED_DECLARATION, missed
        return Outcome.HAND, self._staked(best.points)

    def _staked(self, points: int) -> int:
        """A scored hand's points after the cap, doubled or halved (rounded up) by the stakes."""
        if self.stakes is Stakes.DOUBLE:
            return points * 2
        if self.stakes is Stakes.HALF:
            return (points + 1) // 2
        return points

    def _hand_points(self, seat: int) -> int:
        return best_arrangement(self.seats[seat].hand, self.wild_rank, self.rules).points

    def _settle_seat(self, seat: int, status: SeatStatus, outcome: Outcome, points: int) -> None:
        player = self.seats[seat]
        player.status, player.outcome, player.points = status, outcome, points

    def _next_in_play(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.seats[candidate].in_play:
                return candidate
        raise AssertionError("no seat left in play")

    def _turn_event(self) -> Event:
        return Turn(self.turn, self.turn_number)

    # ----------------------------------------------------------------- checks

    def _verify_seat(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise IllegalActionError("There is no seat {number} at this table.", number=seat + 1)

    def _acts(self, seat: int, phase: Phase) -> bool:
        """Whether it is `seat`'s turn, in `phase`: what `_verify_turn` lets through, asked
        without making the refusal (every hand shown asks it of each of its cards, mostly of a
        player who is waiting)."""
        return (
            0 <= seat < self.players
            and self.phase is phase
            and phase is not Phase.OVER
            and seat == self.turn
            and self.seats[seat].in_play
        )

    def _verify_turn(self, seat: int, phase: Phase) -> None:
        if self._acts(seat, phase):
            return
        self._verify_seat(seat)
        if self.phase is Phase.OVER:
            raise IllegalActionError("This deal is over.")
        if not self.seats[seat].in_play:
            raise IllegalActionError("You are out of this deal.")
        if seat != self.turn:
            raise IllegalActionError("It's {player}'s turn.", seats={"player": self.turn})
        if self.phase is not phase:
            if self.phase is Phase.PICK:
                raise IllegalActionError("Pick a card first.")
            raise IllegalActionError("You already picked: now discard a card, or declare.")

    def _verify_holds(self, seat: int, card: Card) -> None:
        if card not in self.seats[seat].hand:
            raise IllegalActionError("{card} is not in your hand.", card=card.pretty)

    def _record(self, command: Command) -> None:
        self.log.append(command)

    # ----------------------------------------------------------------- shuffle commitments

    @property
    def commitment(self) -> str:
        """The hash published when the deal starts."""
        return commit(self.salt, self.shoe)

    def reshuffle_commitment(self, number: int) -> str:
        """The hash published when the open pile becomes closed deck number `number` (1, 2...)."""
        return commit(self.salt, self.reshuffles[number - 1], f"reshuffle {number}")

    # ----------------------------------------------------------------- views and invariants

    @property
    def open_card(self) -> Card | None:
        return self.open_pile[-1] if self.open_pile else None

    @property
    def cut_card_under_deck(self) -> bool:
        """Whether the cut card still lies face up under the closed deck (001, 003): it is the
        deck's last card, so it is there until the deck first runs out."""
        return (
            self.cut_joker is not None
            and self.rules.cut_card_in_play
            and not self.reshuffles
            and bool(self.closed)
        )

    def view(self, seat: int | None) -> SeatView:
        mine = seat if seat is not None and 0 <= seat < self.players else None
        picked_here = mine is not None and mine == self.turn and self.picked is not None
        return SeatView(
            seat=seat,
            hand=tuple(self.seats[mine].hand) if mine is not None else (),
            phase=self.phase,
            turn=self.turn,
            turn_number=self.turn_number,
            open_pile=tuple(self.open_pile),
            closed_count=len(self.closed),
            cut_joker=self.cut_joker,
            cut_card_under_deck=self.cut_card_under_deck,
            wild_rank=self.wild_rank,
            statuses=tuple(s.status for s in self.seats),
            hand_sizes=tuple(len(s.hand) for s in self.seats),
            has_picked=tuple(s.has_picked for s in self.seats),
            discards=tuple(self.discards),
            picked=self.picked if picked_here else None,
            picked_from_open=bool(picked_here and self.picked_from_open),
            can_pick_open=mine is not None and self.can_pick(mine, Source.OPEN),
            can_declare=mine is not None and self.can_declare(mine),
            rules=self.rules,
        )

    def check_invariants(self) -> None:
        """Every card of the shoe is in exactly one place, and the turn makes sense."""
        zones = [*(s.hand for s in self.seats), self.closed, self.open_pile, self.finish_slot]
        # Counted by code, all in C (a restart checks every table): the same as counting cards.
        held = Counter(map(_CODE, chain.from_iterable(zones)))
        if self.cut_joker is not None and not self.rules.cut_card_in_play:
            held[self.cut_joker.code] += 1
        # As plain dicts: neither count holds a zero, and dict's own comparison is C's.
        require(dict(held) == dict(Counter(map(_CODE, self.shoe))), "cards are not conserved")
        if self.phase is Phase.OVER:
            settled = all(s.points is not None for s in self.seats)
            require(self.winner is not None and settled, "a deal over without its result")
            return
        require(self.seats[self.turn].in_play, "the player to act is out")
        require(sum(s.in_play for s in self.seats) >= 2, "fewer than two players in a deal in play")
        for index, seat in enumerate(self.seats):
            expected = CARDS_PER_HAND + (index == self.turn and self.phase is Phase.DISCARD)
            if seat.in_play:
                require(len(seat.hand) == expected, f"seat {index} holds {len(seat.hand)} cards")

    # ----------------------------------------------------------------- serialisation

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "players": self.players,
            "first_player": self.first_player,
            "shoe": format_cards(self.shoe),
            "toss": toss_json(self.toss),
            "salt": self.salt,
            "seats": [seat.to_json() for seat in self.seats],
            "closed": format_cards(self.closed),
            "open_pile": format_cards(self.open_pile),
            "cut_joker": self.cut_joker.code if self.cut_joker else None,
            "wild_rank": self.wild_rank,
            "turn": self.turn,
            "phase": self.phase.value,
            "turn_number": self.turn_number,
            "picked": self.picked.code if self.picked else None,
            "picked_from_open": self.picked_from_open,
            "open_top_is_discard": self.open_top_is_discard,
            "finish_slot": format_cards(self.finish_slot),
            "discards": [[seat, card.code] for seat, card in self.discards],
            "reshuffles": [format_cards(order) for order in self.reshuffles],
            "clock_played": self.clock_played,
            "leavers": list(self.leavers),
            "stakes": self.stakes.value if self.stakes else None,
            "winner": self.winner,
            "log": self._logged_log(),
        }

    def _logged_log(self) -> list[Logged]:
        done = len(self._logged)
        if done > len(self.log):  # a log set anew
            self._logged, done = [], 0
        self._logged.extend(command.to_json() for command in self.log[done:])
        return list(self._logged)

    @classmethod
    def from_json(
        cls, raw: dict[str, Any], rng: random.Random | None = None, log: list[Command] | None = None
    ) -> Deal:
        """A deal from its `to_json()`; `log`: the commands of its logged entries, already read
        (its match's own)."""
        logged = list(raw["log"])
        return cls(
            rules=Rules.from_json(raw["rules"]),
            players=raw["players"],
            first_player=raw["first_player"],
            shoe=parse_cards(raw["shoe"]),
            toss=toss_from_json(raw["toss"]),
            salt=raw["salt"],
            seats=[Seat.from_json(seat) for seat in raw["seats"]],
            closed=parse_cards(raw["closed"]),
            open_pile=parse_cards(raw["open_pile"]),
            cut_joker=parse_card(raw["cut_joker"]) if raw["cut_joker"] else None,
            wild_rank=raw["wild_rank"],
            turn=raw["turn"],
            phase=Phase(raw["phase"]),
            turn_number=raw["turn_number"],
            picked=parse_card(raw["picked"]) if raw["picked"] else None,
            picked_from_open=raw["picked_from_open"],
            open_top_is_discard=raw["open_top_is_discard"],
            finish_slot=parse_cards(raw["finish_slot"]),
            discards=[(seat, parse_card(card)) for seat, card in raw["discards"]],
            reshuffles=[parse_cards(order) for order in raw["reshuffles"]],
            # Rows from before these were kept hold none of them.
            clock_played=raw.get("clock_played", False),
            leavers=list(raw.get("leavers", [])),
            stakes=Stakes(raw["stakes"]) if raw.get("stakes") else None,
            winner=raw["winner"],
            log=list(map(read_logged, logged)) if log is None else log,
            rng=rng,
            _logged=logged,
        )

    @classmethod
    def replay(cls, raw: dict[str, Any], rng: random.Random | None = None) -> Deal:
        """Rebuilds a deal from its recorded shoe, toss, reshuffles and command log only."""
        recorded = cls.from_json(raw)
        deal, _ = cls.restart(recorded.setup)
        for command in recorded.log:
            deal.apply(command)
        deal._scripted_reshuffles = None
        deal.rng = rng
        return deal

    @property
    def setup(self) -> DealSetup:
        """What this deal drew at random so far, to deal it again (`restart`)."""
        return DealSetup(
            players=self.players,
            rules=self.rules,
            first_player=self.first_player,
            sitting_out=tuple(
                i for i, seat in enumerate(self.seats) if seat.status is SeatStatus.SITTING_OUT
            ),
            shoe=tuple(self.shoe),
            toss=tuple(tuple(round_.items()) for round_ in self.toss),
            salt=self.salt,
            reshuffles=tuple(tuple(order) for order in self.reshuffles),
        )

    @classmethod
    def restart(cls, setup: DealSetup) -> tuple[Deal, list[Event]]:
        """Starts a deal over exactly as recorded: the same shoe, toss and salt, and the
        recorded reshuffles waiting to be replayed instead of drawn."""
        deal, events = cls.start(
            setup.players,
            setup.rules,
            random.Random(0),
            first_player=setup.first_player,
            shoe=setup.shoe,
            sitting_out=setup.sitting_out,
        )
        deal.toss = [dict(round_) for round_ in setup.toss]
        deal.salt = setup.salt
        deal._scripted_reshuffles = [list(order) for order in setup.reshuffles]
        return deal, events

    def apply(self, entry: Command | Logged) -> list[Event]:
        """Applies one command, typed or in its logged form (as stored)."""
        match parse_command(entry):
            case Pick(seat, source):
                return self.pick(seat, source)
            case Discard(seat, card):
                return self.discard(seat, card)
            case Drop(seat):
                return self.drop(seat)
            case Leave(seat):
                return self.leave(seat)
            case Timeout(seat):
                return self.timeout(seat)
            case Declare(seat, groups, finish):
                return self.declare(seat, groups, finish)
            case command:
                raise IllegalActionError("'{command}' is not a command of a deal.", command=command.NAME)


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else parse_card(card)


def _straight_back(card: Card, picked: Card | None, picked_from_open: bool, rules: Rules) -> bool:
    """Whether letting `card` go now would hand back the card just taken from the open pile,
    which the rules forbid unless `rediscard_open_pick` (the one rule the deal and a seat's
    view both apply)."""
    return picked_from_open and card == picked and not rules.rediscard_open_pick


def _allowed(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except IllegalActionError:
        return False
    return True


def _wild_rank(cut_joker: Card | None, rules: Rules) -> int | None:
    if cut_joker is None:
        return None
    if cut_joker.is_printed_joker:
        return ACE if rules.aces_wild_on_printed_cut else None
    return cut_joker.rank
