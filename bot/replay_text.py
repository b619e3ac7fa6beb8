"""Every word a player reads about replays and histories: the move list (Discord's frames and
the terminal's `python -m bot replay` share it), `/rummy replay`'s and `/rummy history`'s
answers and refusals, and the words drawn on a replay's frames. Kept in one module so that the
message catalogs can take them over in one place.

A replay's moves are told in the game's own words (`bot.narrate`); each event is told as its
own seat saw it, since a replay shows every hand: the deal is over and its shoe revealed.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.deal import SeatStatus
from bot.engine.events import DealOver, Dealt, Turn
from bot.engine.formats import Family, Format
from bot.engine.replay import DealReplay, ReplayStep
from bot.narrate import deal_result_lines, event_lines
from bot.service.replays import History, Refusal, ReplayedDeal, ReplayRefused
from bot.store import DealSummary, MatchSummary, SeatRecord

# ----------------------------------------------------------------- the moves


def step_lines(step: ReplayStep, names: Sequence[str], *, winner: bool = True) -> list[str]:
    """What happened at this step, one line each (the deal itself at step 0), each event as its
    own seat saw it (the card drawn from the closed deck, a wrong show's groups)."""
    lines = []
    for event in step.events:
        if isinstance(event, Turn | DealOver):
            continue
        if isinstance(event, Dealt):
            lines.append(f"{names[event.seat]} plays first.")
        lines.extend(
            line for line in event_lines(event, -1 if event.seat is None else event.seat, names) if line
        )
    over = step.result
    if over is not None and winner:
        lines.append(f"{names[over.winner]} wins the deal.")
    return lines


def move_list(replayed: ReplayedDeal) -> list[str]:
    """The whole deal as text, a line per move, then every hand as it was scored."""
    replay, names = replayed.replay, replayed.names
    lines = [f"{deal_title(replayed)} · table {replayed.ref.table_id}, deal {replayed.ref.number}"]
    lines.append(f"Shuffle commitment {replay.commitment}")
    for step in replay.steps:
        told = step_lines(step, names, winner=False)  # the result follows, hand by hand
        prefix = f"{step.index:>4}. " if step.index else "      "
        lines.extend(prefix + line if number == 0 else "      " + line for number, line in enumerate(told))
    over = next(event for event in replay.steps[-1].events if isinstance(event, DealOver))
    lines.extend(deal_result_lines(over, names, replay.wild_rank, replay.rules))
    return lines


# ----------------------------------------------------------------- the frames


def deal_title(replayed: ReplayedDeal) -> str:
    return f"{Format(replayed.format).spec.title} · Deal {replayed.ref.number} replay"


def step_counter(step: ReplayStep, replay: DealReplay) -> str:
    last = len(replay.steps) - 1
    return f"Move {step.index} of {last}" if step.index else f"The deal · {last} moves follow"


SEAT_TAGS = {
    SeatStatus.DROPPED: "DROPPED",
    SeatStatus.LEFT: "LEFT",
    SeatStatus.WRONG_SHOW: "WRONG SHOW",
    SeatStatus.DECLARED: "DECLARED",
    SeatStatus.SITTING_OUT: "SITTING OUT",
}
TO_ACT, WINNER = "TO ACT", "WINNER"


def seat_line(step: ReplayStep, seat: int, adds_up: bool) -> str:
    """Under a seat's name: its cards while the deal runs, what it paid once it is over (added
    to a pool score, `adds_up`, rather than paid)."""
    if step.result is not None:
        points = step.result.points[seat]
        sign = "+" if adds_up else "−"
        return "" if points is None else f"{sign}{points} pts" if points else "0 pts"
    count = len(step.hands[seat])
    return f"{count} card{'s' if count != 1 else ''}"


def seat_tag(step: ReplayStep, seat: int) -> str:
    if step.result is not None and step.result.winner == seat:
        return WINNER
    if step.result is None and step.turn == seat and step.statuses[seat] is SeatStatus.PLAYING:
        return TO_ACT
    return SEAT_TAGS.get(step.statuses[seat], "")


# ----------------------------------------------------------------- Discord's answers

PREVIOUS, NEXT, FIRST, LAST = "◀", "▶", "⏮", "⏭"
REPLAY_FILE = "replay.png"
ANIMATION_FILE = "replay.gif"


def replay_content(replayed: ReplayedDeal, step: ReplayStep) -> str:
    """The words above a frame: the deal's id (to pass to `/rummy replay deal:`) and the move."""
    lines = step_lines(step, replayed.names)
    told = " ".join(lines) if lines else ""
    return f"**{deal_title(replayed)}** (`{replayed.ref}`) · {step_counter(step, replayed.replay)}\n{told}"[
        :1900
    ]


ANIMATION_NOTE = "The whole deal, move by move:"
ANIMATION_TOO_LARGE = "This deal is too long to send as one animation: step through it with the buttons."


def refusal_text(refused: ReplayRefused) -> str:
    ref = f" `{refused.ref}`" if refused.ref is not None else ""
    match refused.reason:
        case Refusal.NOT_A_DEAL:
            return "Name a deal by its table and number, like `12-3` (`/rummy history` lists yours)."
        case Refusal.NO_SUCH_DEAL:
            return f"There is no finished deal{ref}."
        case Refusal.OTHER_SERVER:
            return "Replays are shown to members of the deal's server, in one of its channels."
        case Refusal.NOT_YOURS:
            return f"You can replay deal{ref} in the channel it was played in, or any deal you played in."
        case Refusal.RUNNING:
            return f"Deal{ref} is still being played: its replay opens once it has ended."
        case Refusal.NOT_KEPT:
            days = f"{refused.keep_days:g}"
            return f"Deal{ref} is no longer kept: moves are kept for {days} days after a match ends."
        case Refusal.NONE_YET:
            return "You have no finished deal in this server yet to replay."
        case Refusal.DAMAGED:
            return f"Deal{ref} cannot be replayed: its stored moves are damaged."
    return "That deal cannot be replayed."


def choice_name(deal: DealSummary) -> str:
    """An autocomplete choice: the deal's id, its format, who won it (at most 100 characters)."""
    title = Format(deal.format).spec.title
    return f"{deal.table_id}-{deal.number} · {title} · won by {_name(deal.seats, deal.winner)}"[:100]


# ----------------------------------------------------------------- /rummy history

HISTORY_IN_SERVER = "Histories are kept per server: ask in one of its channels."


def history_text(history: History, name: str, user_id: int) -> str:
    if not history.matches and not history.deals:
        return f"**{name}** has played no match in this server yet."
    lines = [f"**{name}**'s last matches in this server:"]
    lines += [_match_line(match, history) for match in history.matches]
    if history.deals:
        lines.append("Last deals (replay one with `/rummy replay deal:<id>`):")
        lines += [_deal_line(deal, user_id) for deal in history.deals]
    return "\n".join(lines)


def _match_line(match: MatchSummary, history: History) -> str:
    title = Format(match.format).spec.title
    when = f"<t:{int(match.updated_at)}:R>"
    if match.status == "playing":
        result = "still playing"
    elif match.status == "abandoned":
        result = "cancelled"
    elif match.winner is not None:
        result = "won" if match.winner == match.seat else f"won by {_name(match.seats, match.winner)}"
    else:
        result = "over"
    pool = Format(match.format).spec.family is Family.POOL
    standing = f"{match.standing} points" if pool else f"{match.standing:+,} chips"
    deals = (
        f"deals `{match.table_id}-1`…`{match.table_id}-{match.deals}`" if match.deals else "no finished deal"
    )
    if not history.kept(match):
        deals = "moves no longer kept"
    standing = f"{standing} ({match.standing_status})"
    return f"• {title} at table {match.table_id} · {result} · {standing} · {deals} · {when}"


def _deal_line(deal: DealSummary, user_id: int) -> str:
    title = Format(deal.format).spec.title
    seat = next((index for index, seat in enumerate(deal.seats) if seat.user_id == user_id), None)
    if seat is not None and deal.winner == seat:
        result = "won"
    else:
        paid = deal.points[seat] if seat is not None and seat < len(deal.points) else None
        result = f"won by {_name(deal.seats, deal.winner)}" + (f", −{paid} pts" if paid else "")
    return f"• `{deal.table_id}-{deal.number}` {title} · {result} · <t:{int(deal.finished_at)}:R>"


def _name(seats: Sequence[SeatRecord], seat: int | None) -> str:
    return seats[seat].name if seat is not None and seat < len(seats) else "?"
