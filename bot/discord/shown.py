"""What the Discord front end keeps for one table, in one object: made on first use and dropped
whole when the table closes (see `Presenter`), so no part of a closed table lingers in one of
several parallel maps, and two publishes for one table take turns on its lock."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.hands import HandLooks
from bot.engine.events import (
    DealStarted,
    DeckExhausted,
    Discarded,
    Dropped,
    Event,
    Left,
    MissedTurn,
    Picked,
    Reshuffled,
    WrongShow,
)
from bot.i18n import EN, Words
from bot.present.hand_layout import HandLayout
from bot.present.narrate import event_lines
from bot.present.shuffle_proof import reshuffle_seal_line
from bot.service.views import TableView
from render.scenes import TableScene

LOG_LINES = 6  # the latest moves the table message lists
# The deal's latest public events kept for the players' own DMs: more than a round of turns at
# the largest table, so each player's last discard is still among them at their next turn.
DEAL_MOVES = 64
# What a player's DM lists of the others' moves since their own last turn.
_OTHERS_MOVES = (Picked, Discarded, MissedTurn, Dropped, Left, WrongShow, Reshuffled, DeckExhausted)

Posted = discord.PartialMessage | discord.Message


def move_lines(moves: Iterable[Event], names: Sequence[str], _: Words = EN) -> list[str]:
    """The lines the table message lists for these events (everyone's view of them), in `_`'s
    words; blank lines and bare rules left out."""
    lines: list[str] = []
    for event in moves:
        lines.extend(line for line in event_lines(event, -1, names, _) if line.strip("─ "))
        if isinstance(event, Reshuffled) and event.commitment is not None:
            lines.append(reshuffle_seal_line(event.commitment, _))
    return lines


@dataclass
class Shown:
    table: TableView | None = None  # the latest seen: the service forgets a closed table in time
    message: Posted | None = None  # the table message, edited in place
    hands: dict[int, Posted] = field(default_factory=dict)  # user id -> their hand DM
    # user id -> what their hand DM shows (words, picture's scene, controls), as last sent
    hand_looks: dict[int, HandLooks] = field(default_factory=dict)
    # user id -> their last press in their hand DM, and until when (the event loop's clock) the
    # DM can be edited through it, outside Discord's global limit (see `Presenter._edit_hand`)
    presses: dict[int, tuple[discord.Interaction[Any], float]] = field(default_factory=dict)
    # user id -> when (the service's clock) they last pressed in their hand DM or were sent it
    # anew (Discord notifies a new DM): they are watching it, so their turn need not be a mention
    # at once (`Presenter._ping_turn`)
    watched: dict[int, float] = field(default_factory=dict)
    # user id -> their private hand replies of the deal (`/rummy hand`): how to edit each through
    # its interaction's token, and until when (the event loop's clock) it can (`HandDMs.keep_reply`)
    hand_replies: dict[int, list[tuple[Callable[..., Awaitable[object]], float]]] = field(
        default_factory=dict
    )
    hand_retries: set[int] = field(default_factory=set)  # users whose hand DM is to be tried again
    layouts: dict[int, HandLayout] = field(default_factory=dict)  # user id -> how they arranged it
    # The latest events the table message lists, each with a line at least: kept as events and
    # worded as the message is drawn, so a server's new language words the whole list anew.
    moves: deque[Event] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    # The deal's public events (`DEAL_MOVES` at most), from its start: what each player's DM lists
    # at their turn of what the others did since theirs (`since_turn`).
    deal_moves: deque[Event] = field(default_factory=lambda: deque(maxlen=DEAL_MOVES))
    deadline: tuple[int | None, float] | None = None  # whose turn ends when (None: between deals)
    ping: Posted | None = None  # the "your turn" mention in the channel
    ping_words: str | None = None  # what it says (None: found after a restart, so not known)
    # whom it named when posted (Discord notified them then); after a restart, whoever is to act
    ping_user: int | None = None
    ping_later: bool = False  # a change of it waits for its request (`Presenter._ping_turn_later`)
    # the mention held back from a person watching their DM, posted once their share of the clock
    # has gone since they were sent it or last pressed there (`Presenter._hold_mention`)
    mention_later: asyncio.Task[None] | None = None
    mention_user: int | None = None  # whom it is for
    mention_turn: str | None = None  # the turn it is for (`TableView.turn_token`)
    mention_posting: bool = False  # it is under way to Discord: not to be cut short
    # Held while events' hands are shown, so that two publishes for this table (a move and a
    # clock, say) never both send one DM, and a press's own edit of its DM never overtakes one.
    showing: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Held while the turn mention changes, so that it is never replaced twice; a lock of its own
    # since a new mention may wait long for the request budget, and a person's press (which
    # waits for `showing`) must not wait behind it.
    mentioning: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Held while a deal's result is posted, so that results reach the channel in the order of
    # their deals though each is sent beside the publish that drew it (`Presenter._send_result`).
    resulting: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Held while the table message is read and edited, so that an edit of an older state (the
    # refresh loop's) never lands after one of a newer state (a press on the message).
    editing: asyncio.Lock = field(default_factory=asyncio.Lock)
    refresh: asyncio.Task[None] | None = None  # the task editing the table message
    # The events that closed the table (finished, cancelled) reached `Presenter.publish`: until
    # then what is kept for it stays, though the service let it go, so that they are shown.
    closed: bool = False
    dirty: bool = False  # the table message is out of date
    dirty_since: float = 0.0  # since when (the event loop's clock)
    channel_free_at: float = 0.0  # when the next request in the channel may go (rate limits)
    picture_scene: TableScene | None = None  # what the table message's picture shows (None: none)
    picture_known: bool = False  # whether that is known (not after a restart: drawn at once)
    picture_due: float = 0.0  # when it may be drawn again (the event loop's clock)
    picture_behind: bool = False  # the table changed since it was drawn: one more edit to come
    # `/rummy table`'s latest repost of the table message: when (the service's clock), and its
    # message id once posted (`Presenter.claim_repost`)
    reposted_at: float = 0.0
    reposted: asyncio.Future[int | None] | None = None

    def note_move(self, event: Event, names: Sequence[str]) -> None:
        if move_lines([event], names):
            self.moves.append(event)

    def note_deal_event(self, event: Event) -> None:
        """Keeps a public event of the deal in progress (a new deal starts the list again)."""
        if isinstance(event, DealStarted):
            self.deal_moves.clear()
        self.deal_moves.append(event)

    def since_turn(self, seat: int) -> list[Event]:
        """The others' moves since `seat` last discarded (or since the deal started), oldest
        first: what a player needs at their turn besides the open card, in their own DM, which
        is current when the table message is behind (at most one edit a second per channel, and
        far fewer when thousands of tables share the bot's request limit). None are listed when
        that turn is not among those kept (the bot restarted since)."""
        since: list[Event] = []
        for event in reversed(self.deal_moves):
            if isinstance(event, DealStarted) or (isinstance(event, Discarded) and event.seat == seat):
                return since[::-1]
            if isinstance(event, _OTHERS_MOVES) and event.seat != seat:
                since.append(event)
        return []

    def move_lines(self, names: Sequence[str], _: Words) -> list[str]:
        """The latest `LOG_LINES` lines of the moves, in `_`'s words."""
        return move_lines(self.moves, names, _)[-LOG_LINES:]

    def layout(self, user_id: int) -> HandLayout:
        return self.layouts.setdefault(user_id, HandLayout())

    def deadline_for(self, seat: int | None) -> float | None:
        """The deadline of `seat`'s turn (None: between deals), if it is that turn now."""
        if self.deadline is None or self.deadline[0] != seat:
            return None
        return self.deadline[1]
