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
from bot.engine.match_view import MatchView
from bot.engine.melds import GroupKind
from bot.engine.outcomes import Outcome, Stakes
from bot.i18n import EN, N_, Words
from bot.present.game_words import STANDING_WORDS, format_title
from bot.present.hand_layout import suggested_groups
from bot.present.show_reasons import reason_words

KIND_LABELS = {
    GroupKind.PURE_SEQUENCE: N_("pure sequence"),
    GroupKind.IMPURE_SEQUENCE: N_("impure sequence"),
    GroupKind.SET: N_("set"),
    GroupKind.SPARE_JOKERS: N_("spare jokers"),
    GroupKind.INVALID: N_("loose"),
}


def event_lines(event: Event, viewer: int, names: Sequence[str], _: Words = EN) -> list[str]:
    """The event as `viewer` may see it (-1: everyone), in `_`'s words: a player named "You"
    (the terminal's) is told "You pick", others "Asha picks"."""
    event = event.visible_to(viewer)
    who = names[event.seat] if event.seat is not None else ""
    you = bool(who) and who == _("You")  # the terminal names its player "You" (replays see as a seat)
    match event:
        case DealStarted():
            return ["", _("──────── Deal {number} ────────", number=event.number)]
        case Toss():
            if you:
                return [_("You win the toss and play first.")]
            return [_("{who} wins the toss and plays first.", who=who)]
        case Dealt():
            return [_dealt_line(event, _)]
        case Picked():
            card = _card(event.card, _)
            if event.source is Source.OPEN:
                if you:
                    return [_("You pick {card} from the open pile.", card=card)]
                return [_("{who} picks {card} from the open pile.", who=who, card=card)]
            if event.card is not None:
                if you:
                    return [_("You pick {card} from the closed deck.", card=card)]
                return [_("{who} picks {card} from the closed deck.", who=who, card=card)]
            return [_("{who} picks from the closed deck.", who=who)]
        case Discarded():
            card = _card(event.card, _)
            return [
                _("You discard {card}.", card=card)
                if you
                else _("{who} discards {card}.", who=who, card=card)
            ]
        case MissedTurn():
            return [_("{who} ran out of time ({missed} in a row).", who=who, missed=event.missed)]
        case Dropped():
            kind = _("first drop") if event.outcome is Outcome.FIRST_DROP else _("middle drop")
            if you:
                return [_("You drop ({kind}, {points} points).", kind=kind, points=event.points)]
            return [_("{who} drops ({kind}, {points} points).", who=who, kind=kind, points=event.points)]
        case Left():
            return [_("{who} left the table.", who=who)]
        case WrongShow():
            reason = f" {reason_words(event.reason, _)}" if event.reason else ""
            return [_("{who} declared wrongly ({points} points).", who=who, points=event.points) + reason]
        case Declared():
            if event.finish is None:
                if you:
                    line = _("You show all 13 cards before picking: a valid show!")
                else:
                    line = _("{who} shows all 13 cards before picking: a valid show!", who=who)
            else:
                finish = _card(event.finish, _)
                if you:
                    line = _("You declare with {card} as the finish card: a valid show!", card=finish)
                else:
                    line = _(
                        "{who} declares with {card} as the finish card: a valid show!", who=who, card=finish
                    )
            if event.automatic:
                line += " " + _("(The hand was complete when the time ran out.)")
            return [line, *([_(_STAKES_WORDS[event.stakes])] if event.stakes is not None else [])]
        case Reshuffled():
            return [_("The closed deck ran out: the open pile is shuffled into a new one.")]
        case DeckExhausted():
            return [_("The deck ran out: every hand is counted and the lowest wins.")]
        case Eliminated():
            if you:
                return [_("You are out of the pool with {score} points.", score=event.score)]
            return [_("{who} is out of the pool with {score} points.", who=who, score=event.score)]
        case Rejoined():
            if you:
                return [_("You rejoin the pool at {score} points.", score=event.score)]
            return [_("{who} rejoins the pool at {score} points.", who=who, score=event.score)]
        case SplitVote():
            return [
                _("You agree to split the pool.") if you else _("{who} agrees to split the pool.", who=who)
            ]
    return []


def deal_result_lines(
    event: DealOver,
    names: Sequence[str],
    wild_rank: int | None,
    rules: Rules,
    viewer: int = -1,
    _: Words = EN,
) -> list[str]:
    """Every hand at the show, grouped as the solver would score it, with what it costs."""
    winner = names[event.seat]
    lines = ["", _("You win the deal.") if event.seat == viewer else _("{who} wins the deal.", who=winner)]
    if event.stakes is not None:
        lines.append(_(_STAKES_WORDS[event.stakes]))
    for seat, (hand, points, outcome) in enumerate(
        zip(event.hands, event.points, event.outcomes, strict=True)
    ):
        if not hand:
            continue
        groups = suggested_groups(hand, wild_rank, rules)
        shown = " | ".join(pretty_cards(group) for group in groups)
        why = f"   ({_(_OUTCOME_WORDS[outcome])})" if outcome in _OUTCOME_WORDS else ""
        lines.append(f"  {names[seat]:<10} {_('{points} points', points=f'{points:>3}')}   {shown}{why}")
    return lines


# A show before any pick, or after just one (004); a loser who could have shown (003).
_STAKES_WORDS = {
    Stakes.DOUBLE: N_("Rummy before any pick: every hand pays double."),
    Stakes.HALF: N_("Rummy after just one pick: every hand pays half."),
}
_OUTCOME_WORDS = {
    Outcome.MISSED_DECLARATION: N_("missed declaration: these cards were a valid show"),
    Outcome.LEFT_HAND_SCORED: N_("left; a show came before their next turn, so the hand is scored"),
}


def standings_lines(match: Match | MatchView, names: Sequence[str], _: Words = EN) -> list[str]:
    unit = _("chips") if match.spec.family is not Family.POOL else _("points")
    parts = []
    for seat, name in enumerate(names):
        status = match.seat_status[seat]
        mark = "" if status is Standing.IN else f" ({_(STANDING_WORDS[status])})"
        parts.append(f"{name} {match.standings[seat]}{mark}")
    return [f"{format_title(match.spec, _)} · {unit}: " + " · ".join(parts)]


def hand_lines(
    groups: Sequence[Sequence[Card]],
    picked_at: int | None,
    wild_rank: int | None,
    rules: Rules,
    _: Words = EN,
) -> list[str]:
    """The cards numbered 1-14 group by group, each group's kind, and what the hand counts as
    grouped; the card at `picked_at` (the one just picked, not its twin) marked `*`."""
    judged = judge_groups(groups, wild_rank, rules)
    lines = []
    position = 1
    for group, kind in zip(groups, judged.kinds, strict=True):
        cells = []
        for card in group:
            mark = "*" if position == picked_at else ""
            cells.append(f"{position}:{card.pretty}{mark}")
            position += 1
        lines.append(f"  {_(KIND_LABELS[kind]):<16} " + "  ".join(cells))
    lines.append("  " + _("points as grouped: {points}", points=judged.points))
    return lines


def _dealt_line(event: Dealt, _: Words) -> str:
    wild, cut = event.wild_rank, event.cut_joker
    wild_text = _("wild joker: {rank}s", rank=_(rank_name(wild))) if wild else _("no wild joker")
    cut_text = " " + _("(cut card {card})", card=cut.pretty) if cut else ""
    return _("Open card {card}", card=event.open_card.pretty) + f" · {wild_text}{cut_text}."


def _card(card: Card | None, _: Words) -> str:
    return card.pretty if card else _("a card")
