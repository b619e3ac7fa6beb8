"""A table's rules in plain words, generated from the options it actually plays with.

Players argue about house rules; the answer should come from the same `Rules` value the engine
enforces, never from a hand-written page that can drift from it.
"""

from __future__ import annotations

from bot.engine.cards import rank_name
from bot.engine.commitment import PREFIX
from bot.engine.formats import DEAL_CHIPS, Family, FormatSpec
from bot.engine.rules import ClosedDeckEmpty, Rules


def _format_lines(spec: FormatSpec, point_value: int) -> list[str]:
    if spec.family is Family.POINTS:
        return [
            f"**{spec.title}**: one deal. The winner collects every other player's points × "
            f"{point_value} chip{'s' if point_value != 1 else ''} (virtual chips, never money)."
        ]
    if spec.family is Family.DEALS:
        return [
            f"**{spec.title}**: everyone starts with {DEAL_CHIPS * spec.deals} chips "
            f"({DEAL_CHIPS} per deal). Each deal's winner takes the losers' points in chips. "
            "After the last deal the most chips wins; a tie plays one more deal between the tied "
            "players. There is no dropping in Deals.",
        ]
    return [
        f"**{spec.title}**: points add up over deals; at {spec.pool_limit} or more you are out, and "
        "the last player left wins. Drops cost "
        f"{spec.first_drop} (before your first pick) or {spec.middle_drop}.",
        f"Rejoin: once per pool, while nobody left is above {spec.rejoin_below}, an eliminated player "
        "may come back at the highest remaining score + 1.",
        "Split: with two or three players left, all of them may agree to end the pool and share it "
        "by drops remaining.",
    ]


def describe_rules(spec: FormatSpec, base: Rules, point_value: int = 1) -> str:
    rules = spec.deal_rules(base)
    lines = _format_lines(spec, point_value)
    decks = ", ".join(f"{decks} decks up to {players} players" for players, decks in rules.deck_plan)
    jokers = f"with {rules.printed_jokers_per_deck} printed joker(s) per deck"
    lines.append(f"**Cards**: {decks}, {jokers}. Each player gets 13 cards.")
    if rules.cut_joker:
        aces = (
            " If the cut card is a printed joker, Aces are wild."
            if rules.aces_wild_on_printed_cut
            else " If the cut card is a printed joker, there is no wild rank."
        )
        lines.append(
            "**Wild joker**: a card is cut from the deck; every card of its rank is a joker for this deal."
            + aces
        )
    lines.append(
        "**Melds**: a sequence is 3+ cards of one suit in a row (A-2-3 and Q-K-A count, K-A-2 does "
        "not); it is pure without a joker standing in (a wild card in its own place keeps it pure). "
        f"A set is 3 to {rules.max_set_size} cards of one rank in different suits; jokers may fill in."
    )
    extras = []
    if rules.one_joker_per_impure_sequence:
        extras.append("at most one joker per impure sequence")
    if rules.require_four_card_life:
        extras.append("one of your two sequences must have 4+ cards")
    if rules.joker_only_groups:
        extras.append("a group of jokers alone counts")
    if rules.identical_triplet_pure:
        extras.append("three identical cards, such as 9♠ 9♠ 9♠ with three decks, are a pure sequence")
    lines.append(
        "**Declaring**: all 13 cards in groups, with at least two sequences, one of them pure"
        + (f" ({'; '.join(extras)})" if extras else "")
        + f". A wrong show costs {rules.wrong_declaration} points and you are out of the deal."
    )
    protect = (
        " A pure sequence alone already keeps its cards from counting."
        if rules.pure_sequence_protects
        else ""
    )
    lines.append(
        "**Points**: A K Q J count 10, other cards their number, jokers 0. Losers pay their ungrouped "
        "cards if they have a pure sequence and a second sequence, else every card"
        f", at most {rules.score_cap}.{protect}"
    )
    turn = (
        f"**Turns**: pick from the closed deck or the open pile, then discard. {rules.turn_seconds} s "
        f"a turn plus a {rules.extra_time_seconds} s time bank per match; {rules.max_missed_turns} "
        "missed turns in a row count as a middle drop."
    )
    if rules.drops_allowed:
        turn += f" Drops: {rules.first_drop} before your first pick, {rules.middle_drop} after."
    if not rules.pick_discarded_joker:
        turn += " A joker just discarded cannot be picked (the first open card can)."
    if not rules.rediscard_open_pick:
        turn += " A card taken from the open pile cannot be thrown straight back (nor be the finish card)."
    lines.append(turn)
    lines.append(
        "**Empty deck**: the open pile is reshuffled into a new closed deck."
        if rules.closed_deck_empty is ClosedDeckEmpty.RESHUFFLE
        else "**Empty deck**: the deal ends and the lowest hand wins."
    )
    lines.append(
        "**Fair shuffle**: each deal publishes a SHA-256 commitment before the first card. At the end "
        f"the deck order and a salt are revealed: sha256 of `{PREFIX}|deal|<salt>|<order>` must equal "
        "the commitment (check with `/rummy verify` or any sha256 tool)."
    )
    return "\n".join(lines)



def wild_words(wild_rank: int | None) -> str:
    """`7s are wild` for the headers of hand and table messages."""
    return f"{rank_name(wild_rank)}s are wild" if wild_rank else "no wild rank"
