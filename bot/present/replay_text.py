"""Every word a player reads about replays and histories: the move list (Discord's frames and
the terminal's `python -m bot replay` share it), `/rummy replay`'s and `/rummy history`'s
answers and refusals, and the words drawn on a replay's frames, each in the reader's words
(`_`: the asker's on Discord, the terminal's `--lang`/`LANG` for `python -m bot replay`).

A replay's moves are told in the game's own words (`bot.present.narrate`); each event is told as its
own seat saw it, since a replay shows every hand: the deal is over and its shoe revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.deal import SeatStatus
from bot.engine.events import DealOver, Dealt, Turn
from bot.engine.formats import Family, Format
from bot.engine.replay import DealReplay, ReplayStep
from bot.i18n import EN, N_, Words
from bot.present.game_words import format_title
from bot.present.narrate import deal_result_lines, event_lines
from bot.service.replay_views import History, PastDeal, PastMatch, Refusal, ReplayedDeal, ReplayRefused
from bot.service.views import Sitter

# ----------------------------------------------------------------- the moves


def step_lines(step: ReplayStep, names: Sequence[str], _: Words = EN, *, winner: bool = True) -> list[str]:
    """What happened at this step, one line each (the deal itself at step 0), each event as its
    own seat saw it (the card drawn from the closed deck, a wrong show's groups)."""
    lines = []
    for event in step.events:
        if isinstance(event, Turn | DealOver):
            continue
        if isinstance(event, Dealt):
            lines.append(_("{name} plays first.", name=names[event.seat]))
        seen_by = -1 if event.seat is None else event.seat
        lines.extend(line for line in event_lines(event, seen_by, names, _) if line)
    over = step.result
    if over is not None and winner:
        lines.append(_("{who} wins the deal.", who=names[over.winner]))
    return lines


def move_list(replayed: ReplayedDeal, _: Words = EN) -> list[str]:
    """The whole deal as text, a line per move, then every hand as it was scored."""
    replay, names, ref = replayed.replay, replayed.names, replayed.ref
    title = deal_title(replayed, _)
    lines = [_("{title} · table {table}, deal {deal}", title=title, table=ref.table_id, deal=ref.number)]
    lines.append(_("Shuffle commitment: {commitment}", commitment=replay.commitment))
    for step in replay.steps:
        told = step_lines(step, names, _, winner=False)  # the result follows, hand by hand
        prefix = f"{step.index:>4}. " if step.index else "      "
        lines.extend(prefix + line if number == 0 else "      " + line for number, line in enumerate(told))
    over = next(event for event in replay.steps[-1].events if isinstance(event, DealOver))
    lines.extend(deal_result_lines(over, names, replay.wild_rank, replay.rules, _=_))
    return lines


# ----------------------------------------------------------------- the frames


def deal_title(replayed: ReplayedDeal, _: Words = EN) -> str:
    title = format_title(Format(replayed.format).spec, _)
    return _("{title} · Deal {number} replay", title=title, number=replayed.ref.number)


def step_counter(step: ReplayStep, replay: DealReplay, _: Words = EN) -> str:
    last = len(replay.steps) - 1
    if step.index:
        return _("Move {number} of {last}", number=step.index, last=last)
    return _.n("The deal · {count} move follows", "The deal · {count} moves follow", last)


SEAT_TAGS = {
    SeatStatus.DROPPED: N_("DROPPED"),
    SeatStatus.LEFT: N_("LEFT"),
    SeatStatus.WRONG_SHOW: N_("WRONG SHOW"),
    SeatStatus.DECLARED: N_("DECLARED"),
    SeatStatus.SITTING_OUT: N_("SITTING OUT"),
}
TO_ACT, WINNER = N_("TO ACT"), N_("WINNER")


def seat_line(step: ReplayStep, seat: int, adds_up: bool, _: Words = EN) -> str:
    """Under a seat's name: its cards while the deal runs, what it paid once it is over (added
    to a pool score, `adds_up`, rather than paid)."""
    if step.result is not None:
        points = step.result.points[seat]
        if points is None:
            return ""
        return _("{points} pts", points=f"{'+' if adds_up else '−'}{points}" if points else "0")
    return _.n("{count} card", "{count} cards", len(step.hands[seat]))


def seat_tag(step: ReplayStep, seat: int, _: Words = EN) -> str:
    if step.result is not None and step.result.winner == seat:
        return _(WINNER)
    if step.result is None and step.turn == seat and step.statuses[seat] is SeatStatus.PLAYING:
        return _(TO_ACT)
    return _(SEAT_TAGS.get(step.statuses[seat], ""))


# ----------------------------------------------------------------- Discord's answers

PREVIOUS, NEXT, FIRST, LAST = "◀", "▶", "⏮", "⏭"
REPLAY_FILE = "replay.png"
ANIMATION_FILE = "replay.gif"


def replay_content(replayed: ReplayedDeal, step: ReplayStep, _: Words = EN) -> str:
    """The words above a frame: the deal's id (to pass to `/rummy replay deal:`) and the move."""
    told = " ".join(step_lines(step, replayed.names, _))
    title, counter = deal_title(replayed, _), step_counter(step, replayed.replay, _)
    return f"**{title}** (`{replayed.ref}`) · {counter}\n{told}"[:1900]


ANIMATION_NOTE = N_("The whole deal, move by move:")
ANIMATIONS_BUSY = N_("Many replays are being animated right now: step through this one with the buttons.")
ANIMATION_TOO_LARGE = N_("This deal is too long to send as one animation: step through it with the buttons.")


def refusal_text(refused: ReplayRefused, _: Words = EN) -> str:
    """Why a replay is refused; the deal, when one was named, as the `12-3` its asker typed."""
    ref = f"`{refused.ref}`"
    match refused.reason:
        case Refusal.NOT_A_DEAL:
            return _("Name a deal by its table and number, like `12-3` (`/rummy history` lists yours).")
        case Refusal.NO_SUCH_DEAL if refused.ref is not None:
            return _("There is no finished deal {deal}.", deal=ref)
        case Refusal.NO_SUCH_DEAL:
            return _("There is no such finished deal.")
        case Refusal.OTHER_SERVER:
            return _("Replays are shown to members of the deal's server, in one of its channels.")
        case Refusal.NOT_YOURS:
            return _(
                "You can replay deal {deal} in the channel it was played in, or any deal you played in.",
                deal=ref,
            )
        case Refusal.RUNNING:
            return _("Deal {deal} is still being played: its replay opens once it has ended.", deal=ref)
        case Refusal.NOT_KEPT:
            return _(
                "Deal {deal} is no longer kept: moves are kept for {days} days after a match ends.",
                deal=ref,
                days=f"{refused.keep_days:g}",
            )
        case Refusal.NONE_YET:
            return _("You have no finished deal in this server yet to replay.")
        case Refusal.DAMAGED:
            return _("Deal {deal} cannot be replayed: its stored moves are damaged.", deal=ref)
    return _("That deal cannot be replayed.")


def choice_name(deal: PastDeal, _: Words = EN) -> str:
    """An autocomplete choice: the deal's id, its format, who won it (at most 100 characters)."""
    return _(
        "{deal} · {title} · won by {name}",
        deal=f"{deal.table_id}-{deal.number}",
        title=format_title(Format(deal.format).spec, _),
        name=_name(deal.seats, deal.winner),
    )[:100]


# ----------------------------------------------------------------- /rummy history

HISTORY_IN_SERVER = N_("Histories are kept per server: ask in one of its channels.")


def history_text(
    history: History, name: str, user_id: int, _: Words = EN, quote: Callable[[str], str] = str
) -> str:
    """A player's history; `quote` is how the front end shows a name someone typed (the seats';
    `name` comes as it is to be shown)."""
    if not history.matches and not history.deals:
        return _("**{name}** has played no match in this server yet.", name=name)
    lines = [_("**{name}**'s last matches in this server:", name=name)]
    lines += [_match_line(match, history, _, quote) for match in history.matches]
    if history.deals:
        lines.append(_("Last deals (replay one with `/rummy replay deal:<id>`):"))
        lines += [_deal_line(deal, user_id, _, quote) for deal in history.deals]
    return "\n".join(lines)


# A match's status as the store keeps it, in the history's words.
MATCH_STATUS = {"playing": N_("still playing"), "abandoned": N_("cancelled")}


def _match_line(match: PastMatch, history: History, _: Words, quote: Callable[[str], str]) -> str:
    spec = Format(match.format).spec
    if match.status in MATCH_STATUS:
        result = _(MATCH_STATUS[match.status])
    elif match.winner is not None:
        result = _won(match.seats, match.winner, match.seat, _, quote)
    else:
        result = _("over")
    if spec.family is Family.POOL:
        standing = _.n("{count} point", "{count} points", match.standing)
    else:
        standing = _("{chips} chips", chips=f"{match.standing:+,}")
    if not history.kept(match):
        deals = _("moves no longer kept")
    elif match.deals:
        deals = _(
            "deals {first}…{last}", first=f"`{match.table_id}-1`", last=f"`{match.table_id}-{match.deals}`"
        )
    else:
        deals = _("no finished deal")
    return _(
        "• {title} at table {table} · {result} · {standing} ({status}) · {deals} · {when}",
        title=format_title(spec, _),
        table=match.table_id,
        result=result,
        standing=standing,
        status=_(match.standing_status),  # "in", "eliminated", "left": STANDING_WORDS
        deals=deals,
        when=f"<t:{int(match.updated_at)}:R>",
    )


def _deal_line(deal: PastDeal, user_id: int, _: Words, quote: Callable[[str], str]) -> str:
    seat = next((index for index, seat in enumerate(deal.seats) if seat.user_id == user_id), None)
    result = _won(deal.seats, deal.winner, seat, _, quote)
    paid = deal.points[seat] if seat is not None and seat < len(deal.points) else None
    if deal.winner != seat and paid:
        result = _("{result}, {points} pts", result=result, points=f"−{paid}")
    return _(
        "• {deal} {title} · {result} · {when}",
        deal=f"`{deal.table_id}-{deal.number}`",
        title=format_title(Format(deal.format).spec, _),
        result=result,
        when=f"<t:{int(deal.finished_at)}:R>",
    )


def _won(
    seats: Sequence[Sitter], winner: int | None, mine: int | None, _: Words, quote: Callable[[str], str]
) -> str:
    """Who won, as the player whose history it is reads it: "won" when it was them."""
    if winner is not None and winner == mine:
        return _("won")
    return _("won by {name}", name=quote(_name(seats, winner)))


def _name(seats: Sequence[Sitter], seat: int | None) -> str:
    return seats[seat].name if seat is not None and seat < len(seats) else "?"
