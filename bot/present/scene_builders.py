"""Engine states as the renderer's scenes: what each picture shows, decided in one place.

The renderer knows nothing of matches or seats' privacy; this module does. A hand scene is only
ever built from one seat's own view, so a picture can never carry another player's cards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from bot.engine import IllegalActionError, Rules, best_arrangement, judge_groups
from bot.engine.cards import Card
from bot.engine.deal import Outcome, Phase, Stakes
from bot.engine.deal import SeatStatus as DealSeatStatus
from bot.engine.deal import SeatView as DealSeatView
from bot.engine.declaration import best_declaration
from bot.engine.formats import Family
from bot.engine.history import SeatResult
from bot.engine.match import Standing
from bot.engine.match_view import MatchView
from bot.engine.melds import LONG_LIFE, GroupKind, Judgement, life_met
from bot.i18n import EN, N_, Words
from bot.leagues import NightStatus, Season
from bot.present.game_words import STANDING_WORDS, format_title
from bot.present.hand_layout import HandLayout, with_sets_shown
from render.scenes import (
    GroupKind as PictureGroupKind,
)
from render.scenes import (
    HandGroup,
    HandScene,
    PaysBecause,
    PlayerResult,
    ResultScene,
    SeatStatus,
    SeatView,
    StandingsRow,
    StandingsScene,
    TableScene,
)

# How the pictures label what the judge found (an invalid group is drawn as loose cards).
_GROUP_KINDS: dict[GroupKind, PictureGroupKind] = {
    GroupKind.PURE_SEQUENCE: "pure_sequence",
    GroupKind.IMPURE_SEQUENCE: "impure_sequence",
    GroupKind.SET: "set",
    GroupKind.SPARE_JOKERS: "spare_jokers",
    GroupKind.INVALID: "ungrouped",
}

_OUTCOME_NOTES = {
    Outcome.FIRST_DROP: N_("first drop"),
    Outcome.MIDDLE_DROP: N_("middle drop"),
    Outcome.LEFT: N_("left the table"),
    Outcome.LEFT_HAND_SCORED: N_("left, hand scored"),  # a show came before their next turn (003)
    Outcome.MISSED_DECLARATION: N_("missed declaration"),  # their 13 cards were a valid show (003)
    Outcome.WRONG_SHOW: N_("wrong show"),
    Outcome.WON: N_("valid show"),
}
# What every scored hand paid after an early show (004), said in the title.
_STAKES_TITLES = {
    Stakes.DOUBLE: N_("rummy before a pick: ×2"),
    Stakes.HALF: N_("rummy after one pick: ½"),
}


def standing_text(match: MatchView, seat: int, _: Words = EN) -> str:
    value = match.standings[seat]
    if match.spec.family is Family.POOL:
        return f"{value} / {match.spec.pool_limit}"
    return _("{chips} chips", chips=f"{value:+,}" if match.spec.family is Family.POINTS else f"{value:,}")


def _status(match: MatchView, seat: int) -> SeatStatus:
    if match.seat_status[seat] is not Standing.IN:
        return "out"
    deal = match.deal
    if deal is None:
        return "playing"
    status = deal.statuses[seat]
    if status is DealSeatStatus.DECLARED:
        return "declared"
    if status is DealSeatStatus.SITTING_OUT:
        return "out"
    return "playing" if status is DealSeatStatus.PLAYING else "dropped"


def table_scene(
    match: MatchView, names: Sequence[str], four_colour: bool = False, _: Words = EN
) -> TableScene:
    """The public table: never a hand, only how many cards each seat holds."""
    deal = match.deal
    title = _("{format} · Deal {number}", format=format_title(match.spec, _), number=match.deal_number)
    scored = bool(match.finished_deals)  # before any deal ends, every standing is the start's: unsaid
    seats = tuple(
        SeatView(
            name=names[seat],
            cards_count=deal.hand_sizes[seat] if deal else 0,
            standing=standing_text(match, seat, _) if scored else "",
            to_act=bool(deal and deal.turn == seat and deal.phase != "over"),
            status=_status(match, seat),
        )
        for seat in range(match.players)
    )
    return TableScene(
        open_card=deal.open_card if deal else None,
        closed_count=deal.closed_count if deal else 0,
        cut_joker=deal.cut_joker if deal else None,
        wild_rank=deal.wild_rank if deal else None,
        seats=seats,
        title=title,
        four_colour=four_colour,
        language=_.language,
    )


def hand_groups(
    groups: Sequence[Sequence[Card]], wild_rank: int | None, match: MatchView
) -> tuple[HandGroup, ...]:
    """Each group labelled with its kind and what it is charged (the engine's answer: every
    group pays without both lives, and sets pay where the rules say so)."""
    return labelled_groups(groups, wild_rank, match.spec.deal_rules(match.rules))


def labelled_groups(
    groups: Sequence[Sequence[Card]], wild_rank: int | None, rules: Rules
) -> tuple[HandGroup, ...]:
    """`hand_groups` under a deal's own rules (a replay has no match)."""
    return _labelled(groups, judge_groups(groups, wild_rank, rules), rules)


def _labelled(groups: Sequence[Sequence[Card]], judgement: Judgement, rules: Rules) -> tuple[HandGroup, ...]:
    reason = _pays_because(groups, judgement, rules)
    return tuple(
        HandGroup(
            _GROUP_KINDS[kind],
            tuple(group),
            points,
            reason if points and kind is not GroupKind.INVALID else None,
        )
        for group, kind, points in zip(groups, judgement.kinds, judgement.group_points, strict=True)
    )


def _pays_because(groups: Sequence[Sequence[Card]], judgement: Judgement, rules: Rules) -> PaysBecause:
    """Why a valid group of this arrangement is charged, as the judge charges it: the first life
    the hand lacks (a pure sequence, a second sequence, one of four cards), or, with both lives,
    a table where sets pay (004)."""
    kinds = judgement.kinds
    pure = kinds.count(GroupKind.PURE_SEQUENCE)
    sequences = pure + kinds.count(GroupKind.IMPURE_SEQUENCE)
    has_long = any(
        kind.is_sequence and len(group) >= LONG_LIFE for kind, group in zip(kinds, groups, strict=True)
    )
    if pure == 0:
        return "no_pure_sequence"
    if sequences < 2:
        return "no_second_sequence"
    if not life_met(pure, sequences, has_long, rules):
        return "no_long_sequence"
    return "sets_count"


def hand_scene(
    match: MatchView, view: DealSeatView, layout: HandLayout, four_colour: bool = False, _: Words = EN
) -> HandScene:
    """One player's own hand (`view`, that seat's own view of the deal), laid out as they grouped
    it (or as the solver suggests)."""
    rules = match.spec.deal_rules(match.rules)
    layout.follow(view.hand, view.wild_rank, rules)
    cards = layout.cards
    picked = None
    if view.picked is not None:
        picked = max(i for i, card in enumerate(cards, start=1) if card == view.picked)
    judgement = judge_groups(layout.groups, view.wild_rank, rules)  # once, for labels and total
    ready, discard = _readiness(view, layout, judgement)
    return HandScene(
        groups=_labelled(layout.groups, judgement, rules),
        wild_rank=view.wild_rank,
        picked=picked,
        discard=discard,
        ready=ready,
        total_points=judgement.points,
        four_colour=four_colour,
        title=_("{format} · your hand", format=format_title(match.spec, _)),
        language=_.language,
    )


def _readiness(view: DealSeatView, layout: HandLayout, judgement: Judgement) -> tuple[bool, int | None]:
    """Whether the hand as grouped is a valid show (13 cards as they are; from 14, with the finish
    card the engine would choose), and on 14 cards the position of the card the solver would let
    go (the engine's answer, `best_declaration`: a card the rules let go, leaving the best 13)."""
    if len(view.hand) <= 13 or view.phase is not Phase.DISCARD or not view.can_declare:
        return judgement.valid, None
    try:
        own = best_declaration(view, layout.groups)
        suggested = best_declaration(view).finish
    except IllegalActionError:  # nothing may go now: no mark rather than a wrong one
        return False, None
    ready = judge_groups(own.groups, view.wild_rank, view.rules).valid
    cards = layout.cards
    positions = [position for position, card in enumerate(cards, start=1) if card == suggested]
    return ready, positions[-1] if positions else None


_SHOWN_OUTCOMES = (Outcome.HAND, Outcome.WRONG_SHOW, Outcome.MISSED_DECLARATION, Outcome.LEFT_HAND_SCORED)


def _note(outcome: Outcome | None, stakes: Stakes | None, hand_points: int | None, _: Words) -> str:
    """Why a seat paid what it paid: its outcome, or for a scored hand after an early show (004)
    the hand's own count doubled or halved, so the plate's total reads against its labels."""
    if stakes is not None and hand_points and outcome in (Outcome.HAND, Outcome.LEFT_HAND_SCORED):
        if stakes is Stakes.DOUBLE:
            return _("double: {points} × 2", points=hand_points)
        return _("half of {points}", points=hand_points)
    return outcome_words(outcome, _) if outcome else ""


def outcome_words(outcome: Outcome, _: Words = EN) -> str:
    """How a seat's deal ended, in a word or two ("first drop", "wrong show")."""
    return _(_OUTCOME_NOTES.get(outcome, ""))


def _revealed(result: SeatResult, scored: bool) -> bool:
    """Whose cards a result shows: shows (valid or wrong) and hands that were scored. A player
    left alone when everyone else dropped wins without showing, and their cards stay private."""
    if result.status is DealSeatStatus.DECLARED or result.outcome in _SHOWN_OUTCOMES:
        return True
    return result.outcome is Outcome.WON and scored  # the deck ran out: every hand in was scored


def result_scene(
    match: MatchView, names: Sequence[str], four_colour: bool = False, _: Words = EN
) -> ResultScene:
    """The last finished deal: every hand, grouped as scored, with what each seat was charged."""
    record = match.finished_deals[-1]
    wild_rank, stakes = record.wild_rank, record.stakes
    rules = match.spec.deal_rules(match.rules)
    players = []
    scored = any(result.outcome is Outcome.HAND for result in record.seats)
    for seat, result in enumerate(record.seats):
        if result.sat_out:
            continue
        groups: tuple[HandGroup, ...] = ()
        hand_points = None
        if result.hand and _revealed(result, scored):
            arrangement = best_arrangement(result.hand, wild_rank, rules)
            hand_points = arrangement.points
            melds = [list(meld.cards) for meld in arrangement.groups]
            loose = list(arrangement.ungrouped)
            melds, loose = with_sets_shown(melds, loose, wild_rank, rules)
            groups = hand_groups(melds + ([loose] if loose else []), wild_rank, match)
            if result.status is DealSeatStatus.DECLARED:  # a valid show pays nothing, whatever its sets
                groups = tuple(dataclasses.replace(group, points=0) for group in groups)
        players.append(
            PlayerResult(
                name=names[seat],
                groups=groups,
                points=result.points,
                winner=seat == record.winner,
                standing=standing_text(match, seat, _),
                note=_note(result.outcome, stakes, hand_points, _),
            )
        )
    number = record.number
    return ResultScene(
        players=tuple(players),
        wild_rank=wild_rank,
        title=" · ".join(
            (
                format_title(match.spec, _),
                _("Deal {number} result", number=number),
                *([_(_STAKES_TITLES[stakes])] if stakes else []),
            )
        ),
        four_colour=four_colour,
        adds_up=match.spec.family is Family.POOL,
        language=_.language,
    )


def standings_scene(match: MatchView, names: Sequence[str], _: Words = EN) -> StandingsScene:
    rows = tuple(
        StandingsRow(
            name=names[seat],
            scores=tuple(points[seat] for points in match.history),
            total=match.standings[seat],
            status=""
            if match.seat_status[seat] is Standing.IN
            else _(STANDING_WORDS[match.seat_status[seat]]),
            out=match.seat_status[seat] is not Standing.IN,
        )
        for seat in range(match.players)
    )
    limit = match.spec.pool_limit if match.spec.family is Family.POOL else None
    columns = tuple(_("D{number}", number=number) for number in range(1, len(match.history) + 1))
    title = _("{format} · standings", format=format_title(match.spec, _))
    return StandingsScene(title=title, rows=rows, limit=limit, columns=columns, language=_.language)


def league_standings_scene(
    season: Season,
    names: Mapping[int, str],
    *,
    title: str = "",
    limit: int | None = None,
    provisional: bool = False,
    _: Words = EN,
) -> StandingsScene:
    """A league season's table: one column per night counted (N1, N2, ...), each member in the
    colour of their first night (`Season.colour_order`), an admin's adjustment marked apart
    from the night's result, and with `provisional` the night being played so far (N3*).

    The status column carries wins and no-shows, the two things members ask about after the
    total. `names` comes from the front end (display names change; ids do not)."""
    nights = season.counted_nights(provisional)
    live = bool(nights) and nights[-1].status is NightStatus.RUNNING
    colours = season.colour_order()
    rows = []
    for line in season.standings(provisional):
        status = [_.n("{count} win", "{count} wins", line.wins)] if line.wins else []
        if line.no_shows:
            status.append(_.n("{count} no-show", "{count} no-shows", line.no_shows))
        name = names.get(line.user_id, _("Member {id}", id=line.user_id))
        rows.append(
            StandingsRow(
                f"{line.rank}. {name}",
                line.per_night,
                line.points,
                " · ".join(status),
                colour=colours.get(line.user_id),
                marked=line.adjusted,
            )
        )
    notes = []
    if any(any(line_marks) for line_marks in (row.marked for row in rows)):
        notes.append(_("† includes an admin's adjustment (the reason is in /league history)"))
    if live:
        notes.append(
            _("N{number}* is tonight so far: provisional until the night is over", number=nights[-1].number)
        )
    columns = [_("N{number}", number=night.number) for night in nights]
    if live:
        columns[-1] += "*"
    return StandingsScene(
        title=title or _("Season {number} standings", number=season.number),
        rows=tuple(rows),
        limit=limit,
        columns=tuple(columns),
        notes=tuple(notes),
        language=_.language,
    )
