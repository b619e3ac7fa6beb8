"""What a player is told before a show they may regret: a wrong show said plainly, with why, the
cards in no valid group and what it costs. The terminal and Discord ask with the same words."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card, pretty_cards
from bot.engine.melds import GroupKind, Judgement
from bot.i18n import Words
from bot.present.show_reasons import reason_words


def loose_cards(groups: Sequence[Sequence[Card]], kinds: Sequence[GroupKind]) -> list[Card]:
    """The cards in no valid group (a show without its first life may have none)."""
    return [
        card for group, kind in zip(groups, kinds, strict=True) if kind is GroupKind.INVALID for card in group
    ]


def wrong_show_lines(judged: Judgement, groups: Sequence[Sequence[Card]], cost: int, _: Words) -> list[str]:
    """Why a show is wrong, the cards that are not in a valid group, and what it costs."""
    loose = loose_cards(groups, judged.kinds)
    return [
        _("This is a wrong show: {reason}", reason=reason_words(judged.reason, _)),
        *([_("Not in a valid group: {cards}", cards=pretty_cards(loose))] if loose else []),
        _("A wrong show costs you {points} points.", points=cost),
    ]
