"""The terminal's table: one person and computer players at a real `TableService` table.

The person's commands go through the service's door (`TableService.play`, with the token of the
turn they were typed for), as a Discord button's do, so every rule, refusal, clock and save is
the same. What is printed comes from the service's events, each as the person's seat may see it
(`visible_events`), and from its frozen views (`TableService.view`, `TableService.hand`): nothing
here holds the live match.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import RummyError, judge_groups
from bot.engine.cards import Card, parse_card, pretty_cards, rank_name
from bot.engine.commands import Command, Discard, Drop, NextDeal, Pick, Rejoin, Source, Split
from bot.engine.deal import Phase, SeatView
from bot.engine.declaration import best_declaration
from bot.engine.events import DealOver, DealStarted, Dealt, Event, MatchOver, Standings
from bot.engine.formats import FormatSpec
from bot.engine.match import MatchPhase, Standing
from bot.engine.match_view import MatchView
from bot.engine.rules import Rules
from bot.i18n import EN, Words
from bot.present.hand_layout import HandLayout
from bot.present.narrate import deal_result_lines, event_lines, hand_lines, standings_lines
from bot.present.rules_options import rules_line
from bot.present.rules_text import describe_rules
from bot.present.show_check import wrong_show_lines
from bot.service import StaleCommandError, TableEvent, TableService, visible_events
from bot.service.table_events import ServiceEvent
from bot.service.views import HandView, TableView
from bot.terminal.console import Lines, Screen

BOT_NAMES = ("Asha", "Ravi", "Meera", "Kabir", "Anjali", "Dev", "Isha", "Arjun", "Nila")
YES = ("y", "yes")


def help_text(spec: FormatSpec, rules: Rules, _: Words = EN) -> str:
    """The commands (typed in English in every language), with what a wrong show and a drop cost
    at this table."""
    played = spec.deal_rules(rules)
    if played.drops_allowed:
        drop = _(
            "drop out of this deal ({first} before your first pick, {middle} after)",
            first=played.first_drop,
            middle=played.middle_drop,
        )
    else:
        drop = _("not allowed at this table")
    return _(
        """Commands (numbers are the card positions shown in your hand):
  c | closed          pick from the closed deck
  o | open            pick the open card
  d N | d 10H         discard card number N (or name the card)
  declare [N]         show your hand as grouped, card N in the finish slot (by default the card
                      that leaves the best show); a wrong show costs {wrong_show} points
  group 1 2 3 / 4 5 6 arrange your cards into groups;  group auto  for the suggested grouping
  drop                {drop}
  rules               this table's rules in full
  help                this list;  quit  leave the table
Between deals: Enter deals the next hand; rejoin / split in a pool when the rules allow.""",
        wrong_show=played.wrong_declaration,
        drop=drop,
    )


class QuitGame(Exception):
    """The player asked to leave, or their input ended."""


@dataclass(frozen=True)
class Heard:
    """Events the table made, with its view as it stood right after them."""

    events: list[TableEvent]
    view: TableView | None


class TerminalTable:
    """The person `user_id` at table `table_id` of `service`, reading `lines` and printing on
    `screen`. `hear` is the service's `on_events`: what the table does by itself (computer
    players, clocks) is told between the person's prompts, in the order it was saved."""

    def __init__(
        self,
        service: TableService,
        table_id: int,
        user_id: int,
        names: Sequence[str],
        lines: Lines,
        screen: Screen,
        words: Words = EN,
    ) -> None:
        view = service.view(table_id)
        seat = view.seat_of(user_id) if view is not None else None
        if view is None or seat is None:
            raise ValueError(f"user {user_id} is not seated at table {table_id}")
        self.service, self.table_id, self.user_id, self.seat = service, table_id, user_id, seat
        self.channel_id, self.spec, self.rules = view.channel_id, view.spec, view.rules
        self.point_value = view.point_value
        self.names, self.lines, self.screen, self.words = list(names), lines, screen, words
        self.help = help_text(self.spec, self.rules, words)
        self.layout = HandLayout()
        deal = view.match.deal if view.match is not None else None
        self.wild_rank = deal.wild_rank if deal is not None else None  # the deal's (its Dealt event)
        self._heard: deque[Heard] = deque()
        self._changed = asyncio.Event()  # something was heard since it was last told
        self._reading: asyncio.Future[str | None] | None = None  # a line asked for, not yet used
        self._shown: tuple[object, ...] | None = None  # the turn whose hand was printed last

    async def hear(self, events: list[TableEvent]) -> None:
        """The service's `on_events`."""
        self.keep(events)

    def keep(self, events: list[TableEvent]) -> None:
        """Events to tell at the next chance, with the table as it stands now, right after them."""
        self._heard.append(Heard(events, self.service.view(self.table_id)))
        self._changed.set()

    # ----------------------------------------------------------------- the loop

    async def play(self) -> None:
        """Until the match is over; `QuitGame` when the player leaves."""
        while True:
            self.tell_heard()
            view = self.service.view(self.table_id)
            if view is None or not view.active or view.match is None:
                return
            match = view.match
            if match.phase is MatchPhase.BETWEEN_DEALS:
                if match.seat_status[self.seat] is Standing.IN or self.seat in match.rejoinable:
                    await self.between_deals(view)
                elif not await self.send(NextDeal(), view.turn_token, quiet=True):
                    await self._changed.wait()  # out of the pool: the others play on
            elif view.to_act == self.seat:
                await self.your_turn()
            else:
                await self._changed.wait()

    def tell_heard(self) -> None:
        while self._heard:
            heard = self._heard.popleft()
            for event in visible_events(heard.events, self.seat):
                self.tell(event.event, heard.view)
        self._changed.clear()

    def tell(self, event: Event | ServiceEvent, view: TableView | None) -> None:
        _ = self.words
        seen = view.match if view is not None else None
        if isinstance(event, DealOver):
            lines = deal_result_lines(event, self.names, self.wild_rank, self.rules, self.seat, _)
            self.screen.say(*lines)
        elif isinstance(event, Standings) and seen is not None:
            self.screen.say(*standings_lines(seen, self.names, _))
        elif isinstance(event, MatchOver) and seen is not None:
            self.screen.say(*self.match_over_lines(seen))
        elif isinstance(event, Event):
            if isinstance(event, DealStarted):
                self.layout = HandLayout()
            elif isinstance(event, Dealt):
                self.wild_rank = event.wild_rank
            self.screen.say(*event_lines(event, self.seat, self.names, _))

    async def ask(self, prompt: str) -> str | None:
        """Prints `prompt` and returns the line typed; None if the table moves on first (the
        line, once typed, answers the next prompt). `QuitGame` at the end of the input."""
        self.screen.prompt(prompt)
        reading = self._reading = self._reading or asyncio.ensure_future(self.lines.line())
        changed = asyncio.ensure_future(self._changed.wait())
        either: set[asyncio.Future[Any]] = {reading, changed}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        finally:
            changed.cancel()
        if not reading.done():
            return None
        self._reading = None
        self.screen.answered()
        line = reading.result()
        if line is None:
            raise QuitGame
        return line

    async def send(self, command: Command, turn: str | None, *, quiet: bool = False) -> bool:
        """Plays `command` for the turn `turn` names, as a button press would; whether it was
        played. A refusal is said (`quiet`: not even that), and changes nothing."""
        try:
            events = await self.service.play(self.channel_id, self.user_id, command, turn=turn)
        except RummyError as error:
            if not quiet:
                self.refused(error)
            return False
        self.keep(events)
        return True

    def refused(self, error: RummyError) -> None:
        _ = self.words
        if isinstance(error, StaleCommandError):  # typed for a turn the clock has already ended
            self.screen.say("! " + _("Too late for that: the table has moved on."))
        else:
            self.screen.say("! " + error.render(lambda seat: self.names[seat], _))

    # ----------------------------------------------------------------- your turn

    async def your_turn(self) -> None:
        hand = await self.service.hand(self.table_id, self.user_id)
        if hand is None or not hand.seen.to_act:  # it moved on meanwhile: told once it is heard
            await self._changed.wait()
            return
        seen = hand.seen
        self.layout.follow(seen.hand, seen.wild_rank, seen.rules, keep_places=True)
        shown = (hand.turn_token, seen.phase, seen.hand)
        if shown != self._shown:
            self._shown = shown
            self.screen.say("", self.heading(seen), *self.hand_lines(seen))
        _ = self.words
        prompt = (
            _("pick (c/o), drop, help > ") if seen.phase is Phase.PICK else _("discard (d N) or declare > ")
        )
        line = await self.ask(prompt)
        if line is None:
            return
        try:
            await self.command(line.strip(), hand)
        except RummyError as error:
            self.refused(error)

    def heading(self, seen: SeatView) -> str:
        _ = self.words
        open_text = seen.open_card.pretty if seen.open_card else _("none")
        heading = _(
            "Your turn · open card {card} · closed deck {count} cards",
            card=open_text,
            count=seen.closed_count,
        )
        if seen.wild_rank:
            heading += " · " + _("wild joker: {rank}s", rank=_(rank_name(seen.wild_rank)))
        clock = self.time_left()
        return f"{heading} · {clock}" if clock else heading

    def time_left(self) -> str | None:
        """The time the player's clock has left now, and their bank after it."""
        view = self.service.view(self.table_id)
        clock = view.clock if view is not None else None
        if clock is None or clock.seat != self.seat or clock.base is None:
            return None
        now = self.service.clock.now()
        _ = self.words
        if now >= clock.base:  # the turn's own time is spent: the bank runs
            return _("{seconds} s bank", seconds=math.ceil(max(0.0, clock.deadline - now)))
        left = _("{seconds} s to play", seconds=math.ceil(clock.base - now))
        bank = math.floor(clock.deadline - clock.base)
        return left + (" + " + _("{seconds} s bank", seconds=bank) if bank > 0 else "")

    def hand_lines(self, seen: SeatView) -> list[str]:
        picked_at = self.layout.picked_at if seen.picked is not None else None
        if seen.picked is not None and picked_at is None:  # laid out anew after the pick
            cards = self.layout.cards
            picked_at = max(place for place, card in enumerate(cards, start=1) if card == seen.picked)
        return hand_lines(self.layout.groups, picked_at, seen.wild_rank, seen.rules, self.words)

    async def command(self, line: str, hand: HandView) -> None:
        seat, turn, seen = hand.seat, hand.turn_token, hand.seen
        word, _sep, rest = line.partition(" ")
        word = word.lower()
        _ = self.words
        if word in ("c", "closed", "pc"):
            await self.send(Pick(seat, Source.CLOSED), turn)
        elif word in ("o", "open", "po"):
            await self.send(Pick(seat, Source.OPEN), turn)
        elif word in ("d", "discard"):
            await self.send(Discard(seat, self.named_card(rest)), turn)
        elif word == "drop":
            await self.drop(hand)
        elif word in ("declare", "show"):
            await self.declare(hand, rest)
        elif word in ("group", "g", "sort"):
            if rest.strip() in ("", "auto") or word == "sort":
                self.layout.suggest(seen.hand, seen.wild_rank, seen.rules)
            else:
                self.layout.regroup(rest, seen.hand)
            self.screen.say(*self.hand_lines(seen))
        elif word in ("quit", "exit", "q"):
            raise QuitGame
        elif word == "rules":
            self.screen.say(self.rules_text())
        elif word in ("help", "h", "?", ""):
            self.screen.say(self.help)
        else:
            self.screen.say("! " + _("'{line}' is not a command.", line=line), self.help)

    def named_card(self, text: str) -> Card:
        text = text.strip()
        if not text:
            raise RummyError("Say which card: a number from your hand, like d 5, or a card, like d 10H.")
        if text.isdigit():
            return self.layout.card_at(int(text))
        return parse_card(text)

    async def confirm(self, question: str, no: str) -> bool:
        """Whether the player answers yes; `no` is said when they do not (nothing is said if the
        table moves on before they answer)."""
        answer = await self.ask(question)
        if answer is None:
            return False
        if answer.strip().lower() in YES:
            return True
        self.screen.say(no)
        return False

    async def drop(self, hand: HandView) -> None:
        """Asks first, saying what this drop costs now; a drop the table refuses is sent as it is,
        for the table to say why."""
        _ = self.words
        if hand.legal.drop:
            question = _("Drop out of this deal for {points} points? [y/N] ", points=hand.legal.drop_cost)
            if not await self.confirm(question, _("Not dropped.")):
                return
        await self.send(Drop(hand.seat), hand.turn_token)

    async def declare(self, hand: HandView, rest: str) -> None:
        """Shows what would be declared and asks first; a show that is not valid is said to be a
        wrong show, with why, what it costs and the cards in no valid group."""
        seen = hand.seen
        finish = self.named_card(rest) if rest.strip() else None
        # Your own groups as you made them; otherwise the engine arranges the hand itself,
        # knowing (as the suggested layout does not) which card may go to the finish slot.
        groups = self.layout.groups if self.layout.custom else None
        declaration = best_declaration(seen, groups, finish)
        judged = judge_groups(declaration.groups, seen.wild_rank, seen.rules)
        shown = " | ".join(pretty_cards(group) for group in declaration.groups)
        _ = self.words
        if declaration.finish is not None:
            what = _(
                "Declare {groups} with finish card {card}.", groups=shown, card=declaration.finish.pretty
            )
        else:
            what = _("Declare {groups} before picking.", groups=shown)
        if judged.valid:
            self.screen.say(what + " " + _("It is a valid show."))
            question = _("Declare? [y/N] ")
        else:
            cost = hand.legal.wrong_show_cost
            self.screen.say(what, *wrong_show_lines(judged, declaration.groups, cost, _))
            question = _("Declare anyway (−{points})? [y/N] ", points=cost)
        if await self.confirm(question, _("Not declared.")):
            await self.send(declaration, hand.turn_token)

    # ----------------------------------------------------------------- between deals

    async def between_deals(self, view: TableView) -> None:
        match = view.match
        assert match is not None
        _ = self.words
        deadline = view.deadline_for(None)
        if deadline is not None:
            seconds = math.ceil(max(0.0, deadline - self.service.clock.now()))
            options = [_("Enter: next deal (it starts by itself in {seconds} s)", seconds=seconds)]
        else:
            options = [_("Enter: next deal")]
        if self.seat in match.rejoinable:
            options.append("rejoin")
        if match.can_split and match.seat_status[self.seat] is Standing.IN:
            options.append("split")
        line = await self.ask(" · ".join(options) + " · quit > ")
        if line is None:
            return
        line = line.strip().lower()
        if line == "rejoin":
            await self.send(Rejoin(self.seat), view.turn_token)
        elif line == "split":  # computer players agree to a split a person asks for
            await self.send(Split(self.seat), view.turn_token)
        elif line in ("quit", "exit", "q"):
            raise QuitGame
        elif line == "":
            await self.send(NextDeal(), view.turn_token)
        else:
            self.screen.say("! " + _("'{line}' is not an option here.", line=line))

    # ----------------------------------------------------------------- words

    def rules_text(self) -> str:
        """`bot.present.rules_text`'s words for exactly this table, without Discord's bold marks."""
        _ = self.words
        described = describe_rules(self.spec, self.rules, self.point_value, _)
        rules = rules_line(self.spec, self.rules, _)
        return (_("Rules: {rules}", rules=rules) + f"\n{described}").replace("**", "")

    def match_over_lines(self, match: MatchView) -> list[str]:
        _ = self.words
        lines = ["", _("════ Match over ════"), *standings_lines(match, self.names, _)]
        if match.shares:
            shares = ", ".join(f"{self.names[s]} {share:.0%}" for s, share in match.shares.items())
            lines.append(_("The pool is split by drops remaining: {shares}.", shares=shares))
        elif match.winner is not None:
            name = self.names[match.winner]
            lines.append(
                _("You win the match!")
                if match.winner == self.seat
                else _("{name} wins the match.", name=name)
            )
        return lines
