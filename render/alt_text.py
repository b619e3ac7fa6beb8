"""Every picture in words, for screen readers: pure functions of the scenes the pictures are
drawn from, in the scene's language, each within Discord's limit for an attachment's
description (1,024 characters).

Where a full description would be longer (a result of ten hands, a long league), it gives up
detail in steps, each player's hand first, and only then cuts the text, at a word. Cards are
written as players write them in chat (`4♥`, `🃏`), which screen readers read as rank and suit;
the hand's cards are numbered as under the picture, so a player who cannot see it can still say
"discard 12". `hand_line` is the hand in one line, for the words beside the picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.cards import RANK_LABELS, Card
from bot.i18n import HINDI, N_, Words, words
from render import theme
from render.scenes import (
    HandGroup,
    HandScene,
    PlayerResult,
    ReplayScene,
    ResultScene,
    SeatView,
    StandingsScene,
    TableScene,
)

LIMIT = 1024  # Discord's limit for an attachment's description
NAME_LIMIT = 32  # a longer display name is cut: the description is for the game
SEAT_STATUS = {"dropped": N_("dropped"), "out": N_("out"), "declared": N_("declared")}


def drawn_card(card: Card) -> str:
    """A card as the pictures write it: "A♠", and "JK" for a printed joker (no font here has 🃏)."""
    return "JK" if card.is_printed_joker else card.pretty


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def fit(versions: Iterable[str], limit: int = LIMIT) -> str:
    """The first version within `limit`, else the last one cut at a word, with an ellipsis."""
    last = ""
    for version in versions:
        if len(version) <= limit:
            return version
        last = version
    cut = last[: limit - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;.:·") + "…"


def _name(name: str) -> str:
    name = " ".join(name.split()) or "?"
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1].rstrip() + "…"


def _kind(group: HandGroup, _: Words, short: bool = False) -> str:
    """The group's kind in the reader's words: the full name, or the shortest the pictures use."""
    names = [name for name in theme.GROUP_LABELS[group.kind] if name]
    return _(names[-1] if short else names[0])


def wild_text(wild_rank: int | None, _: Words) -> str:
    if wild_rank is None:
        return ""
    return _("Wild: {rank}s + jokers", rank=RANK_LABELS.get(wild_rank, "Joker"))


def _sentence(text: str, stop: str) -> str:
    """`text` as a sentence: its first letter capital (Devanagari has none), a full stop after."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "।", "?", "!", "…")) else text + stop


def _join(parts: Iterable[str], _: Words) -> str:
    stop = "।" if _.language == HINDI else "."  # the danda ends a Hindi sentence
    return " ".join(_sentence(part, stop) for part in parts if part)


# ----------------------------------------------------------------------------------- a hand


def hand_line(scene: HandScene) -> str:
    """The hand in one line: "Pure 4♥ 5♥ 6♥ · Set 9♠ 9♦ 9♣ · Loose K♠ 2♦ · 27 pts"."""
    _ = words(scene.language)
    parts = [groups_line(scene.groups, _), _("{points} pts", points=scene.points)]
    if scene.ready:
        parts.append(_("Ready to declare"))
    return " · ".join(part for part in parts if part)


def groups_line(groups: Sequence[HandGroup], _: Words) -> str:
    return " · ".join(
        f"{_kind(group, _, short=True)} {cards_text(group.cards)}" for group in groups if group.cards
    )


def hand_alt(scene: HandScene) -> str:
    """Each group with its cards' numbers, kind, cards and points; the wild rank, the total, the
    card just picked, whether it is ready to declare, why its groups count, the suggested discard."""
    _ = words(scene.language)
    count = len(scene.cards)
    parts = [
        _.n(
            "Your hand: {count} card, {points} pts",
            "Your hand: {count} cards, {points} pts",
            count,
            points=scene.points,
        ),
        wild_text(scene.wild_rank, _),
    ]
    first = 1
    for group in scene.groups:
        if not group.cards:
            continue
        last = first + len(group.cards) - 1
        values = {"kind": _kind(group, _), "cards": cards_text(group.cards), "points": group.points}
        if last == first:
            parts.append(_("Card {first}: {kind} {cards}, {points} pts", first=first, **values))
        else:
            parts.append(
                _("Cards {first} to {last}: {kind} {cards}, {points} pts", first=first, last=last, **values)
            )
        first = last + 1
    cards = scene.cards
    if scene.picked is not None and 1 <= scene.picked <= count:
        parts.append(
            _("Just picked: card {number}, {card}", number=scene.picked, card=cards[scene.picked - 1].pretty)
        )
    if scene.ready:
        parts.append(_("Ready to declare"))
    else:
        parts.extend(_(theme.PAYS_BECAUSE[reason]) for reason in scene.pays_because)
    if scene.discard is not None and 1 <= scene.discard <= count:
        card = cards[scene.discard - 1].pretty
        parts.append(_("Suggested discard: {number} ({card})", number=scene.discard, card=card))
    return fit([_join(parts, _)])


# ----------------------------------------------------------------------------------- the table


def piles_text(open_card: Card | None, closed_count: int, cut_joker: Card | None, _: Words) -> list[str]:
    return [
        _("Open card: {card}", card=open_card.pretty if open_card else _("none")),
        _.n("Closed deck: {count} card", "Closed deck: {count} cards", closed_count),
        _("Cut joker: {card}", card=cut_joker.pretty) if cut_joker else "",
    ]


def _seat(seat: SeatView, _: Words, standing: bool) -> str:
    parts = [_.n("{name}: {count} card", "{name}: {count} cards", seat.cards_count, name=_name(seat.name))]
    if seat.status in SEAT_STATUS:
        parts.append(_(SEAT_STATUS[seat.status]))
    if standing and seat.standing:
        parts.append(seat.standing)
    return ", ".join(parts)


def table_alt(scene: TableScene) -> str:
    """Whose turn it is, the piles, and each seat's cards count, status and standing."""
    _ = words(scene.language)
    head = [scene.title or _("Table"), wild_text(scene.wild_rank, _)]
    turn = [_("{name}'s turn", name=_name(seat.name)) for seat in scene.seats if seat.to_act]
    piles = piles_text(scene.open_card, scene.closed_count, scene.cut_joker, _)
    return fit(
        _join([*head, *turn, *piles, "; ".join(_seat(seat, _, standing) for seat in scene.seats)], _)
        for standing in (True, False)
    )


# ----------------------------------------------------------------------------------- a result


def result_points(player: PlayerResult, scene: ResultScene) -> str:
    """What a player paid ("−80 pts"), or added to a pool score ("+80 pts"); a winner's "0 pts"."""
    sign = "+" if scene.adds_up else "−"
    shown = f"{sign}{player.points}" if player.points and not player.winner else "0"
    return words(scene.language)("{points} pts", points=shown)


def _player(player: PlayerResult, scene: ResultScene, _: Words, hand: bool, standing: bool) -> str:
    name = _("{name} won", name=_name(player.name)) if player.winner else _name(player.name)
    parts = [f"{name}: {result_points(player, scene)}"]
    if player.note:
        parts.append(player.note)
    if standing and player.standing:
        parts.append(player.standing)
    text = ", ".join(parts)
    if hand and player.groups:
        text += " (" + groups_line(player.groups, _) + ")"
    return text


def result_alt(scene: ResultScene) -> str:
    """Each player's points and what happened (and, where it fits, their standing and hand)."""
    _ = words(scene.language)
    head = [scene.title or _("Result"), wild_text(scene.wild_rank, _)]
    return fit(
        _join([*head, *(_player(p, scene, _, hand, standing) for p in scene.players)], _)
        for hand, standing in ((True, True), (False, True), (False, False))
    )


# ----------------------------------------------------------------------------------- standings


def standings_alt(scene: StandingsScene) -> str:
    """Each player's total and status in the table's order (and, where it fits, each deal's score)."""
    _ = words(scene.language)

    def row_text(index: int, scores: bool) -> str:
        row = scene.rows[index]
        text = _("{name}: {total}", name=_name(row.name), total=row.total)
        if scores and row.scores:
            marked = [index < len(row.marked) and row.marked[index] for index in range(len(row.scores))]
            shown = (
                "–" if score is None else f"{score}{scene.mark if mark else ''}"
                for score, mark in zip(row.scores, marked, strict=True)
            )
            text += " (" + ", ".join(shown) + ")"
        return f"{text}, {row.status}" if row.status else text

    limit = [_("out at {limit}", limit=scene.limit)] if scene.limit else []
    return fit(
        _join([scene.title, *limit, *(row_text(i, scores) for i in range(len(scene.rows))), *notes], _)
        for scores, notes in ((True, scene.notes), (False, scene.notes), (False, ()))
    )


# ----------------------------------------------------------------------------------- a replay


def replay_alt(scene: ReplayScene) -> str:
    """The move and the hands: what happened at this step, the piles, and each seat's hand."""
    _ = words(scene.language)
    head = [", ".join(part for part in (scene.title, scene.step) if part), *scene.caption]
    piles = piles_text(scene.open_card, scene.closed_count, scene.cut_joker, _)

    def seat_text(index: int, hand: bool) -> str:
        seat = scene.seats[index]
        parts = [_name(seat.name), *(part for part in (seat.line, seat.tag.lower()) if part)]
        text = ", ".join(parts)
        return f"{text}: {groups_line(seat.groups, _)}" if hand and seat.groups else text

    return fit(
        _join([*head, *piles, *(seat_text(i, hand) for i in range(len(scene.seats)))], _)
        for hand in (True, False)
    )
