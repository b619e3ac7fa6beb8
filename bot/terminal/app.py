"""`python -m bot play`: a real match against computer players in the terminal.

It is the same engine the Discord tables use, so anyone can try the game on a fresh machine
without a Discord token, and tests can drive a whole match through real input and output.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from bot.engine import Rules
from bot.engine.ai import ComputerPlayer, Level
from bot.engine.cards import Card, parse_card, rank_name
from bot.engine.commands import Discard, Drop, Pick, Source
from bot.engine.deal import Phase
from bot.engine.declaration import best_declaration
from bot.engine.errors import RummyError
from bot.engine.events import DealOver, DealStarted, Event, MatchOver, Standings
from bot.engine.formats import Format, FormatSpec
from bot.engine.match import Match, MatchPhase, Standing
from bot.i18n import EN, ENGLISH, LANGUAGES, Words, language_of, words
from bot.present.game_words import format_title
from bot.present.hand_layout import HandLayout
from bot.present.narrate import deal_result_lines, event_lines, hand_lines, standings_lines
from bot.present.rules_options import preset, rules_line
from bot.present.rules_text import describe_rules

YOU = 0
BOT_NAMES = ("Asha", "Ravi", "Meera", "Kabir", "Anjali", "Dev", "Isha", "Arjun", "Nila")


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
    """The player asked to leave."""


class TerminalTable:
    def __init__(
        self,
        match: Match,
        bots: dict[int, ComputerPlayer],
        names: list[str],
        read: Callable[[str], str],
        out: TextIO,
        words: Words = EN,
    ) -> None:
        self.match = match
        self.bots = bots
        self.names = names
        self.read = read
        self.out = out
        self.words = words
        self.layout = HandLayout()
        self.help = help_text(match.spec, match.rules, words)

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def run(self, opening: list[Event]) -> None:
        self.tell(opening)
        while self.match.phase is not MatchPhase.OVER:
            if self.match.phase is MatchPhase.BETWEEN_DEALS:
                self.between_deals()
                continue
            deal = self.match.deal
            assert deal is not None
            if deal.turn == YOU:
                self.your_turn()
            else:
                entry = self.bots[deal.turn].decide(deal.view(deal.turn))
                self.tell(self.match.apply(entry))

    def tell(self, events: list[Event]) -> None:
        _ = self.words
        for event in events:
            if isinstance(event, DealOver):
                deal = self.match.deal
                wild = deal.wild_rank if deal else _last_wild(self.match)
                self.say(*deal_result_lines(event, self.names, wild, self.match.rules, YOU, _))
            elif isinstance(event, Standings):
                self.say(*standings_lines(self.match, self.names, _))
            elif isinstance(event, MatchOver):
                self.say(*self.match_over_lines())
            else:
                self.say(*event_lines(event, YOU, self.names, _))
            if isinstance(event, DealStarted):
                self.layout = HandLayout()

    # ----------------------------------------------------------------- your turn

    def your_turn(self) -> None:
        deal = self.match.deal
        assert deal is not None
        view = deal.view(YOU)
        _ = self.words
        self.layout.follow(view.hand, view.wild_rank, deal.rules)
        open_text = view.open_card.pretty if view.open_card else _("none")
        heading = _(
            "Your turn · open card {card} · closed deck {count} cards",
            card=open_text,
            count=view.closed_count,
        )
        if view.wild_rank:
            heading += " · " + _("wild joker: {rank}s", rank=_(rank_name(view.wild_rank)))
        self.say("", heading, *hand_lines(self.layout.groups, view.picked, view.wild_rank, deal.rules, _))
        prompt = (
            _("pick (c/o), drop, help > ") if view.phase is Phase.PICK else _("discard (d N) or declare > ")
        )
        while deal.turn == YOU and deal.turn_number == view.turn_number and deal.phase is view.phase:
            line = self.read(prompt).strip()
            try:
                self.your_command(line)
            except RummyError as error:
                self.say(f"! {error.render(lambda seat: self.names[seat], self.words)}")

    def your_command(self, line: str) -> None:
        deal = self.match.deal
        assert deal is not None
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("c", "closed", "pc"):
            self.tell(self.match.apply(Pick(YOU, Source.CLOSED)))
        elif word in ("o", "open", "po"):
            self.tell(self.match.apply(Pick(YOU, Source.OPEN)))
        elif word in ("d", "discard"):
            card = self.named_card(rest)
            self.tell(self.match.apply(Discard(YOU, card)))
        elif word == "drop":
            self.tell(self.match.apply(Drop(YOU)))
        elif word in ("declare", "show"):
            self.declare(rest)
        elif word in ("group", "g", "sort"):
            if rest.strip() in ("", "auto") or word == "sort":
                self.layout.custom = False
            else:
                self.layout.regroup(rest, deal.seats[YOU].hand)
            self.layout.follow(deal.seats[YOU].hand, deal.wild_rank, deal.rules)
            self.say(*hand_lines(self.layout.groups, deal.picked, deal.wild_rank, deal.rules))
        elif word in ("quit", "exit", "q"):
            raise QuitGame
        elif word == "rules":
            self.say(self.rules_text())
        elif word in ("help", "h", "?", ""):
            self.say(self.help)
        else:
            _ = self.words
            self.say("! " + _("'{line}' is not a command.", line=line), self.help)

    def named_card(self, text: str) -> Card:
        text = text.strip()
        if not text:
            raise RummyError("Say which card: a number from your hand, like d 5, or a card, like d 10H.")
        if text.isdigit():
            return self.layout.card_at(int(text))
        return parse_card(text)

    def declare(self, rest: str) -> None:
        deal = self.match.deal
        assert deal is not None
        finish = self.named_card(rest) if rest.strip() else None
        # Your own groups as you made them; otherwise the engine arranges the hand itself,
        # knowing (as the suggested layout does not) which card may go to the finish slot.
        groups = self.layout.groups if self.layout.custom else None
        declaration = best_declaration(deal.view(YOU), groups, finish)
        shown = " | ".join(" ".join(card.pretty for card in group) for group in declaration.groups)
        _ = self.words
        cost = deal.legal_actions(YOU).wrong_show_cost
        if declaration.finish is not None:
            question = _(
                "Declare {groups} with finish card {card}? A wrong show costs {cost}. [y/N] ",
                groups=shown,
                card=declaration.finish.pretty,
                cost=cost,
            )
        else:
            question = _(
                "Declare {groups} before picking? A wrong show costs {cost}. [y/N] ", groups=shown, cost=cost
            )
        answer = self.read(question)
        if answer.strip().lower() not in ("y", "yes"):
            self.say(_("Not declared."))
            return
        self.tell(self.match.apply(declaration))

    # ----------------------------------------------------------------- between deals

    def between_deals(self) -> None:
        match = self.match
        if match.seat_status[YOU] is not Standing.IN and not match.can_rejoin(YOU):
            self.tell(match.next_deal())  # you are out: the others play on
            return
        _ = self.words
        options = [_("Enter: next deal")]
        if match.can_rejoin(YOU):
            options.append("rejoin")
        if match.can_split() and match.seat_status[YOU] is Standing.IN:
            options.append("split")
        line = self.read(" · ".join(options) + " · quit > ").strip().lower()
        try:
            if line == "rejoin":
                self.tell(match.rejoin(YOU))
            elif line == "split":
                self.split()
            elif line in ("quit", "exit", "q"):
                raise QuitGame
            elif line == "":
                self.tell(match.next_deal())
            else:
                self.say("! " + _("'{line}' is not an option here.", line=line))
        except RummyError as error:
            self.say(f"! {error.render(lambda seat: self.names[seat], _)}")

    def split(self) -> None:
        """Computer players accept a split whenever a person proposes one."""
        events = self.match.vote_split(YOU)
        for seat in self.match.remaining():
            if seat != YOU and self.match.phase is not MatchPhase.OVER:
                events += self.match.vote_split(seat)
        self.tell(events)

    def rules_text(self) -> str:
        """`bot.present.rules_text`'s words for exactly this table, without Discord's bold marks."""
        match, _ = self.match, self.words
        described = describe_rules(match.spec, match.rules, match.point_value, _)
        return (_("Rules: {rules}", rules=rules_line(match.spec, match.rules, _)) + f"\n{described}").replace(
            "**", ""
        )

    def match_over_lines(self) -> list[str]:
        match = self.match
        _ = self.words
        lines = ["", _("════ Match over ════"), *standings_lines(match, self.names, _)]
        if match.shares:
            shares = ", ".join(f"{self.names[s]} {share:.0%}" for s, share in match.shares.items())
            lines.append(_("The pool is split by drops remaining: {shares}.", shares=shares))
        elif match.winner is not None:
            name = self.names[match.winner]
            lines.append(
                _("You win the match!") if match.winner == YOU else _("{name} wins the match.", name=name)
            )
        return lines


def _last_wild(match: Match) -> int | None:
    return match.finished_deals[-1].wild_rank if match.finished_deals else None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot play", description="Play Rummy in the terminal.")
    parser.add_argument("--format", default="points", choices=[f.value for f in Format])
    most = ", ".join(f"{preset(name).max_players} with {name}" for name in Rules.PRESET_NAMES)
    parser.add_argument(
        "--players", type=int, default=3, help=f"seats including you, from 2 to what the rules seat ({most})"
    )
    parser.add_argument("--level", default="strong", choices=[level.value for level in Level])
    parser.add_argument("--seed", type=int, help="repeat a game exactly (shuffles and computer moves)")
    parser.add_argument(
        "--rules",
        default="standard",
        choices=Rules.PRESET_NAMES,
        help="whose rules: "
        + "; ".join(f"{name}: {Rules.PRESET_SUMMARIES[name]}" for name in Rules.PRESET_NAMES),
    )
    parser.add_argument("--point-value", type=int, default=1)
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the table's language (default: LANG's, if it is one of these, else English)",
    )
    return parser


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language POSIX says the terminal speaks (LC_ALL, then LC_MESSAGES, then LANG)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return language_of(environ[name]) or ENGLISH
    return ENGLISH


def main(
    argv: list[str],
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
    environ: Mapping[str, str] = os.environ,
) -> int:
    args = build_parser().parse_args(argv)
    _ = words(args.lang or language_from_environment(environ))
    rng: random.Random = random.Random(args.seed) if args.seed is not None else secrets.SystemRandom()
    try:
        rules = preset(args.rules)
        match, opening = Match.start(
            args.format, args.players, rng, rules=rules, point_value=args.point_value
        )
    except RummyError as error:
        print(f"rummy: {error.render(str, _)}", file=sys.stderr)
        return 2
    names = [_("You"), *BOT_NAMES[: args.players - 1]]
    print(
        _("Rules: {rules} (type rules for all of them)", rules=rules_line(match.spec, match.rules, _)),
        file=out,
    )
    bots = {
        seat: ComputerPlayer(args.level, random.Random(rng.getrandbits(64)))
        for seat in range(1, args.players)
    }
    title = format_title(match.spec, _)
    print(
        _(
            "{format} · {players} players · you are seat 1. Type help for commands.",
            format=title,
            players=args.players,
        ),
        file=out,
    )
    table = TerminalTable(match, bots, names, read, out, _)
    try:
        table.run(opening)
    except (KeyboardInterrupt, EOFError, QuitGame):
        print("\n" + _("You left the table. Thanks for playing!"), file=out)
        return 0
    return 0
