"""A player's private hand message: the picture, the words and the controls, for one seat.

Built only from that seat's own view, so nothing here can show another player's cards.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord import limits
from bot.discord.components import hand_view
from bot.discord.pictures import Pictures
from bot.engine.deal import Phase, SeatStatus
from bot.engine.match import MatchPhase
from bot.i18n import EN, N_, Words
from bot.present.game_words import format_title
from bot.present.hand_layout import HandLayout
from bot.present.rules_text import wild_words
from bot.present.scene_builders import hand_scene
from bot.service.views import HandView, TableView
from render import hand_alt, hand_line
from render.scenes import HandScene

# While it is not their turn a player's DM is not edited on the others' moves (an edit of every
# player's DM on every move would spend the bot's request limit several times over), so it says
# only what stays true until their own turn: whose turn it is and the open card are the table
# message's to show (the hand picture shows neither).
WAITING = N_("Not your turn yet: I'll tell you when it is. The table shows the open card.")

# Everything a player sees of their hand message: the words, the picture's scene, the controls.
HandLooks = tuple[str, HandScene, list[dict[str, Any]]]


@dataclass
class HandMessage:
    """The words, the picture's scene and the controls; the picture is drawn only when it is
    sent, so a message whose scene did not change is edited without drawing it again."""

    content: str
    scene: HandScene
    view: discord.ui.View | None

    async def file(self, pictures: Pictures) -> discord.File:
        png = await pictures.hand(self.scene)
        return discord.File(io.BytesIO(png), filename="hand.png", description=hand_alt(self.scene))

    def looks(self) -> HandLooks:
        """Everything the player sees of it, to tell whether an edit would change anything."""
        return self.content, self.scene, self.view.to_components() if self.view else []


async def build_hand_message(
    table: TableView,
    hand: HandView,
    layout: HandLayout,
    deadline: float | None = None,
    four_colour: bool = False,
    _: Words = EN,
    since: Sequence[str] = (),
) -> HandMessage | None:
    """`hand` is the seat's own view (`TableService.hand`), `table` the table's as saved with it
    or later. None when there is no hand to show (between deals, or the match is over); `four_colour`
    is the player's own deck setting, `_` their language; `since`, the lines of the others'
    moves since the player's last turn, listed while it is their turn."""
    match = table.match
    if match is None or match.deal is None or match.phase is not MatchPhase.PLAYING:
        return None
    seat, view, legal = hand.seat, hand.seen, hand.legal
    scene = hand_scene(match, view, layout, four_colour, _)
    header = _(
        "**{format}** · deal {number} · {wild}",
        format=format_title(match.spec, _),
        number=match.deal_number,
        wild=wild_words(view.wild_rank, _),
    )
    lines = [header, hand_line(scene)]  # the picture in one line, for a screen reader and a glance
    if view.statuses[seat] is not SeatStatus.PLAYING:
        lines.append(_("You are out of this deal; the others play on."))
    elif view.to_act and view.phase is Phase.PICK:
        open_card = view.open_card.pretty if view.open_card else _("none")
        lines.append(_("**Your turn**: pick the open card {card} or from the closed deck.", card=open_card))
        if legal.declare:
            lines.append(_("A complete hand may also declare now, before picking."))
    elif view.to_act:
        lines.append(_("**Discard a card**, or declare if your hand is complete."))
    else:  # see WAITING
        lines.append(_(WAITING))
    if view.to_act and deadline:
        lines.append(_("Your time runs out {when}.", when=f"<t:{int(deadline)}:R>"))
    if view.to_act and since:
        lines.append(_("Since your last turn:"))
        lines.extend(f"> {line}" for line in since)
    discardable = [
        (position, card) for position, card in enumerate(layout.cards, start=1) if card in legal.discards
    ]
    controls = hand_view(
        table.id,
        hand.turn_token,
        can_pick_closed=legal.pick_closed,
        can_pick_open=legal.pick_open,
        can_drop=legal.drop,
        can_declare=legal.declare,
        discardable=discardable,
        _=_,
    )
    return HandMessage(limits.message("\n".join(lines)), scene, controls)
