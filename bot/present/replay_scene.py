"""A replayed deal's steps as the renderer's scenes: every hand grouped as the solver would
(the deal is over: nothing is hidden any more), the card each step took marked, the piles as
they stood, and what happened in `bot.present.replay_text`'s words."""

from __future__ import annotations

from functools import lru_cache

from bot.engine.cards import Card
from bot.engine.deal import SeatStatus
from bot.engine.formats import Family, Format
from bot.engine.replay import ReplayStep
from bot.engine.rules import Rules
from bot.i18n import EN, Words
from bot.present.hand_layout import suggested_groups
from bot.present.replay_text import deal_title, seat_line, seat_tag, step_counter, step_lines
from bot.present.scene_builders import labelled_groups
from bot.service.replay_views import ReplayedDeal
from render.scenes import HandGroup, ReplayScene, ReplaySeat

_OUT = frozenset({SeatStatus.DROPPED, SeatStatus.LEFT, SeatStatus.WRONG_SHOW})


def replay_scene(replayed: ReplayedDeal, index: int, four_colour: bool = False, _: Words = EN) -> ReplayScene:
    replay = replayed.replay
    step = replay.step(index)
    seats = tuple(
        _seat(replayed, step, seat, _)
        for seat in range(replay.players)
        if step.statuses[seat] is not SeatStatus.SITTING_OUT
    )
    return ReplayScene(
        seats=seats,
        open_card=step.open_top,
        closed_count=step.closed_count,
        cut_joker=replay.cut_joker,
        wild_rank=replay.wild_rank,
        caption=tuple(step_lines(step, replayed.names, _)),
        title=deal_title(replayed, _),
        step=step_counter(step, replay, _),
        four_colour=four_colour,
        language=_.language,
    )


def _seat(replayed: ReplayedDeal, step: ReplayStep, seat: int, _: Words) -> ReplaySeat:
    replay = replayed.replay
    groups, labelled = _grouped(step.hands[seat], replay.wild_rank, replay.rules)
    picked = None
    if step.picked is not None and step.picked.seat == seat and step.picked.card in step.hands[seat]:
        cards = [card for group in groups for card in group]
        picked = max(position for position, card in enumerate(cards, start=1) if card == step.picked.card)
    return ReplaySeat(
        name=replayed.names[seat] if seat < len(replayed.names) else _("Seat {number}", number=seat + 1),
        groups=labelled,
        line=seat_line(step, seat, Format(replayed.format).spec.family is Family.POOL, _),
        tag=seat_tag(step, seat, _),
        acted=step.seat == seat,
        out=step.statuses[seat] in _OUT,
        winner=step.result is not None and step.result.winner == seat,
        picked=picked,
    )


@lru_cache(maxsize=256)
def _grouped(
    hand: tuple[Card, ...], wild_rank: int | None, rules: Rules
) -> tuple[tuple[tuple[Card, ...], ...], tuple[HandGroup, ...]]:
    """A hand's groups and their labels. A step changes one seat's hand at most, so a deal's
    frames (an animation draws them all) would solve every other hand again without this."""
    groups = suggested_groups(hand, wild_rank, rules)
    return tuple(map(tuple, groups)), labelled_groups(groups, wild_rank, rules)
