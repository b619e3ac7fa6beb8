"""Engine events and states as lines of text, shared by the front ends (the terminal table, and
the Discord table message's recent moves), so both tell a move in the same words.

Every event passes through `Event.visible_to(seat)` first, so no front end can print a card the
reader is not allowed to see.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Rules, judge_groups
from bot.engine.cards import Card, pretty_cards, rank_name
from bot.engine.commands import Source
from bot.engine.events import (
    DealOver,
    DealStarted,
    Dealt,
    DeckExhausted,
    Declared,
    Discarded,
    Dropped,
    Eliminated,
    Event,
    Left,
    MissedTurn,
    Picked,
    Rejoined,
    Reshuffled,
    SplitVote,
    Toss,
    WrongShow,
)
from bot.engine.formats import Family
from bot.engine.match import Match, Standing
from bot.engine.melds import GroupKind
from bot.engine.outcomes import Outcome, Stakes
from bot.hand_layout import suggested_groups

KIND_LABELS = {
    GroupKind.PURE_SEQUENCE: "pure sequence",
    GroupKind.IMPURE_SEQUENCE: "impure sequence",
    GroupKind.SET: "set",
    GroupKind.INVALID: "loose",
}


def event_lines(event: Event, viewer: int, names: Sequence[str]) -> list[str]:
    event = event.visible_to(viewer)
    who = names[event.seat] if event.seat is not None else ""
    match event:
        case DealStarted():
            return ["", f"──────── Deal {event.number} ────────"]
        case Toss():
            return [f"{who} {_v(who, 'win')} the toss and {_v(who, 'play')} first."]
        case Dealt():
            return [_dealt_line(event)]
        case Picked():
            if event.source is Source.OPEN:
                return [f"{who} {_v(who, 'pick')} {_card(event.card)} from the open pile."]
            if event.card is not None:
                return [f"{who} {_v(who, 'pick')} {_card(event.card)} from the closed deck."]
            return [f"{who} {_v(who, 'pick')} from the closed deck."]
        case Discarded():
            return [f"{who} {_v(who, 'discard')} {_card(event.card)}."]
        case MissedTurn():
            return [f"{who} ran out of time ({event.missed} in a row)."]
        case Dropped():
            kind = "first" if event.outcome is Outcome.FIRST_DROP else "middle"
            return [f"{who} {_v(who, 'drop')} ({kind} drop, {event.points} points)."]
        case Left():
            return [f"{who} left the table."]
        case WrongShow():
            reason = f" {event.reason}" if event.reason else ""
            return [f"{who} declared wrongly ({event.points} points).{reason}"]
        case Declared():
            if event.finish is None:
                line = f"{who} {_v(who, 'show')} all 13 cards before picking: a valid show!"
            else:
                finish = _card(event.finish)
                line = f"{who} {_v(who, 'declare')} with {finish} as the finish card: a valid show!"
            if event.automatic:
                line += " (The hand was complete when the time ran out.)"
            return [line, *([_STAKES_WORDS[event.stakes]] if event.stakes is not None else [])]
        case Reshuffled():
            return ["The closed deck ran out: the open pile is shuffled into a new one."]
        case DeckExhausted():
            return ["The deck ran out: every hand is counted and the lowest wins."]
        case Eliminated():
            return [f"{who} {_v(who, 'is')} out of the pool with {event.score} points."]
        case Rejoined():
            return [f"{who} {_v(who, 'rejoin')} the pool at {event.score} points."]
        case SplitVote():
            return [f"{who} {_v(who, 'agree')} to split the pool."]
    return []


def deal_result_lines(
    event: DealOver, names: Sequence[str], wild_rank: int | None, rules: Rules
) -> list[str]:
    """Every hand at the show, grouped as the solver would score it, with what it costs."""
    lines = [
        "",
        f"{names[event.seat]} {_v(names[event.seat], 'win')} the deal.",
    ]
    if event.stakes is not None:
        lines.append(_STAKES_WORDS[event.stakes])
    for seat, (hand, points, outcome) in enumerate(
        zip(event.hands, event.points, event.outcomes, strict=True)
    ):
        if not hand:
            continue
        groups = suggested_groups(hand, wild_rank, rules)
        shown = " | ".join(pretty_cards(group) for group in groups)
        why = _OUTCOME_WORDS.get(outcome, "") if outcome is not None else ""
        lines.append(f"  {names[seat]:<10} {points:>3} points   {shown}{why}")
    return lines


# A show before any pick, or after just one (004); a loser who could have shown (003).
_STAKES_WORDS = {
    Stakes.DOUBLE: "Rummy before any pick: every hand pays double.",
    Stakes.HALF: "Rummy after just one pick: every hand pays half.",
}
_OUTCOME_WORDS = {
    Outcome.MISSED_DECLARATION: "   (missed declaration: these cards were a valid show)",
    Outcome.LEFT_HAND_SCORED: "   (left; a show came before their next turn, so the hand is scored)",
}


def standings_lines(match: Match, names: Sequence[str]) -> list[str]:
    family = match.spec.family
    unit = "chips" if family is not Family.POOL else "points"
    parts = []
    for seat, name in enumerate(names):
        status = match.seat_status[seat]
        mark = "" if status is Standing.IN else f" ({status.value})"
        parts.append(f"{name} {match.standings[seat]}{mark}")
    return [f"{match.spec.title} · {unit}: " + " · ".join(parts)]


def hand_lines(
    groups: Sequence[Sequence[Card]], picked: Card | None, wild_rank: int | None, rules: Rules
) -> list[str]:
    kinds = judge_groups(groups, wild_rank, rules).kinds
    lines = []
    position = 1
    for group, kind in zip(groups, kinds, strict=True):
        cells = []
        for card in group:
            mark = "*" if card == picked else ""
            cells.append(f"{position}:{card.pretty}{mark}")
            position += 1
        lines.append(f"  {KIND_LABELS[kind]:<16} " + "  ".join(cells))
    lines.append(f"  points as grouped: {judge_groups(groups, wild_rank, rules).points}")
    return lines


def _dealt_line(event: Dealt) -> str:
    wild, cut = event.wild_rank, event.cut_joker
    wild_text = f"wild joker: {rank_name(wild)}s" if wild else "no wild joker"
    cut_text = f" (cut card {cut.pretty})" if cut else ""
    return f"Open card {event.open_card.pretty} · {wild_text}{cut_text}."


def _card(card: Card | None) -> str:
    return card.pretty if card else "a card"


def _v(who: str, verb: str) -> str:
    """Agrees a verb with its subject: the player reads "You pick", others "Asha picks"."""
    if who == "You":
        return "are" if verb == "is" else verb
    return verb + "s" if verb != "is" else "is"
