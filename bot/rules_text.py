"""A table's rules in plain words, generated from the options it actually plays with.

Players argue about house rules; the answer should come from the same `Rules` value the engine
enforces, never from a hand-written page that can drift from it. Every option of `Rules` is
said here (tests/test_rules_text.py checks each number and each switch), and where an option
follows one reading of an unclear source page, its sentence says that reading.
"""

from __future__ import annotations

from bot.engine.cards import rank_name
from bot.engine.commitment import PREFIX
from bot.engine.formats import DEAL_CHIPS, Family, FormatSpec
from bot.engine.rules import MIN_PLAYERS, ClosedDeckEmpty, LeaveCost, Rules
from bot.i18n import EN, Words


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _format_lines(spec: FormatSpec, base: Rules, point_value: int) -> list[str]:
    if spec.family is Family.POINTS:
        return [
            f"**{spec.title}**: one deal. The winner collects every other player's points × "
            f"{_plural(point_value, 'chip')} (virtual chips, never money)."
        ]
    early = (
        " The double or half stakes of an early show apply to Points tables only."
        if base.early_show_multipliers
        else ""
    )
    if spec.family is Family.DEALS:
        return [
            f"**{spec.title}**: everyone starts with {DEAL_CHIPS * spec.deals} chips "
            f"({DEAL_CHIPS} per deal). Each deal's winner takes the losers' points in chips. "
            "After the last deal the most chips wins; a tie plays one more deal between the tied "
            "players. There is no dropping in Deals." + early,
        ]
    own = "drop costs"
    if spec.wrong_declaration is not None or spec.score_cap is not None:
        own = "drop costs, wrong show and score cap"
    return [
        f"**{spec.title}**: points add up over deals; at {spec.pool_limit} or more you are out, and "
        f"the last player left wins. Drops cost {spec.first_drop} (before your first pick) or "
        f"{spec.middle_drop}: a pool keeps its own {own} (below) whatever the rules preset." + early,
        f"Rejoin: once per pool, while nobody left is above {spec.rejoin_below}, an eliminated player "
        "may come back at the highest remaining score + 1.",
        "Split: with two or three players left, all of them may agree to end the pool and share it "
        "by drops remaining.",
    ]


def _cards_lines(rules: Rules) -> list[str]:
    plan = ", ".join(f"{decks} decks up to {players} players" for players, decks in rules.deck_plan)
    per_deck = rules.printed_jokers_per_deck
    if per_deck:
        totals = " / ".join(str(decks * per_deck) for _, decks in rules.deck_plan)
        jokers = f"{_plural(per_deck, 'printed joker')} per deck ({totals} in all)"
    else:
        jokers = "no printed jokers"
    lines = [
        f"**Cards**: {MIN_PLAYERS} to {rules.max_players} players; {plan}; {jokers}. "
        "Each player gets 13 cards."
    ]
    if not rules.cut_joker:
        lines.append("**Wild joker**: no card is cut: only printed jokers are wild.")
        return lines
    where = (
        "It lies face up under the closed deck and stays in play: it is the last card drawn from "
        "the closed deck (and a joker like the rest of its rank)."
        if rules.cut_card_in_play
        else "It is set aside, out of play."
    )
    printed = (
        "If it is a printed joker, Aces are wild."
        if rules.aces_wild_on_printed_cut
        else "If it is a printed joker, there is no wild rank: only the printed jokers are wild."
    )
    lines.append(
        "**Wild joker**: after the deal a card is cut; every card of its rank is a joker for this "
        f"deal. {where} {printed}"
    )
    return lines


def _meld_lines(rules: Rules) -> list[str]:
    joker_runs = (
        "at most one joker per impure sequence"
        if rules.one_joker_per_impure_sequence
        else "any number of jokers per impure sequence"
    )
    alone = (
        "printed jokers alone may make a set"
        if rules.joker_only_groups
        else "printed jokers alone are no group"
    )
    lines = [
        "**Melds**: a sequence is 3+ cards of one suit in a row (A-2-3 and Q-K-A count, K-A-2 does "
        f"not); it is pure without a joker standing in, with {joker_runs}. A set is 3 to "
        f"{rules.max_set_size} cards of the same rank, each of a different suit (same rank, not same "
        f"suit); jokers may fill in, and {alone}. A wild card may always be itself: with sevens "
        "wild, 5♥ 6♥ 7♥ is a pure sequence and 7♠ 7♥ 7♦ or 7♠ 7♥ JK a set."
    ]
    if rules.identical_triplet_pure:
        lines.append("Three identical cards, such as 9♠ 9♠ 9♠ with three decks, are a pure sequence.")
    return lines


def _declare_line(rules: Rules) -> str:
    parts = ["**Declaring**: all 13 cards in groups, with at least two sequences, one of them pure"]
    if rules.require_four_card_life:
        parts.append(" (and one of those two with 4+ cards)")
    parts.append(". Put your 14th card in the finish slot and show.")
    if rules.show_before_pick:
        parts.append(" At your first turn you may also show your 13 cards before picking any card.")
    parts.append(
        " Jokers you do not need may lie on a plank of their own: the show is still valid."
        if rules.spare_jokers_plank
        else " Every card must be in a group, jokers too."
    )
    parts.append(f" A wrong show costs {rules.wrong_declaration} points and you are out of the deal.")
    return "".join(parts)


def _protection_words(rules: Rules) -> str:
    """What a loser pays, for the four settings of the two protection options."""
    if rules.pure_sequence_protects and rules.sets_protected:
        # 003 "the value of cards that are not in sequence are calculated": read, once both
        # sequences are there, as cards in no valid group (sets go free too).
        return (
            "With a pure sequence a loser pays for the cards outside sequences; with a second "
            "sequence too, only for the cards in no valid group (sets go free then). Without a "
            "pure sequence every card counts."
        )
    if rules.pure_sequence_protects:
        return (
            "A loser holding a pure sequence pays nothing for it or for any other sequence, but pays "
            "for sets and loose cards. Without a pure sequence every card counts."
        )
    if rules.sets_protected:
        return (
            "A loser with a pure sequence and a second sequence pays only for the cards in no group; "
            "without both, every card counts."
        )
    return (
        "A loser with a pure sequence and a second sequence pays for every card outside sequences "
        "(sets pay too); without both, every card counts."
    )


def _points_line(rules: Rules) -> str:
    parts = [
        f"**Points**: K Q J count 10, an Ace {rules.ace_points}, other cards their number, jokers 0. "
        f"{_protection_words(rules)} A hand pays at most {rules.score_cap}."
    ]
    if rules.missed_declaration_points is not None:
        parts.append(
            f" A missed declaration: a loser whose 13 cards already made a valid show when another "
            f"player declared pays {rules.missed_declaration_points} instead of its count."
        )
    if rules.early_show_multipliers:
        double = "Rummy before picking any card: every loser pays double. " if rules.show_before_pick else ""
        parts.append(
            f" {double}Rummy after picking just one card: every loser pays half (rounded up). The "
            f"double or half comes after the cap (a capped hand pays {rules.score_cap * 2} or "
            f"{(rules.score_cap + 1) // 2}); drops and wrong shows are not changed."
        )
    return "".join(parts)


def _turn_line(rules: Rules) -> str:
    if rules.discard_seconds is not None:
        clock = (
            f"{rules.turn_seconds} s to pick, then {rules.discard_seconds} s to discard. When the pick "
            "clock runs out the top card of the closed deck is picked for you; when the discard clock "
            "runs out the new card is thrown back."
        )
    else:
        clock = (
            f"{rules.turn_seconds} s a turn; when it runs out the top card of the closed deck is "
            "picked for you and thrown back."
        )
    bank = (
        f" Each player also has a {rules.extra_time_seconds} s time bank for the whole match."
        if rules.extra_time_seconds
        else " There is no time bank."
    )
    parts = [f"**Turns**: pick from the closed deck or the open pile, then discard. {clock}{bank}"]
    if rules.declare_on_timeout:
        parts.append(" A hand that can show when its time runs out declares by itself.")
    parts.append(
        " A turn in which the clock played for you counts as one missed turn; "
        f"{_plural(rules.max_missed_turns, 'missed turn')} in a row count as a middle drop "
        f"({rules.middle_drop})."
    )
    parts.append(
        " A joker just discarded by the previous player may be picked."
        if rules.pick_discarded_joker
        else " A joker just discarded by the previous player cannot be picked (the first open card can)."
    )
    parts.append(
        " A card taken from the open pile may go straight back."
        if rules.rediscard_open_pick
        else " A card taken from the open pile cannot be thrown straight back (nor be the finish card)."
    )
    return "".join(parts)


def _leaving_line(rules: Rules) -> str:
    drops = (
        f"**Drops**: {rules.first_drop} before your first pick, {rules.middle_drop} after."
        if rules.drops_allowed
        else "**Drops**: not allowed."
    )
    if rules.leave_cost is LeaveCost.DROP_OR_HAND:
        leave = (
            f" Leaving the table costs {rules.first_drop} before your first pick, else {rules.middle_drop}; "
            "but if someone shows before your next turn would have come, your hand is scored instead."
        )
    else:
        leave = f" Leaving the table before a show costs {rules.middle_drop}."
    return drops + leave


def _empty_deck_line(rules: Rules) -> str:
    if rules.closed_deck_empty is ClosedDeckEmpty.RESHUFFLE:
        return "**Empty deck**: the open pile, less its top card, is shuffled into a new closed deck."
    return (
        "**Empty deck**: when the closed deck is used up the deal ends: every hand is scored as it "
        "stands, the lowest wins and the others pay their count."
    )


def describe_rules(spec: FormatSpec, base: Rules, point_value: int = 1) -> str:
    rules = spec.deal_rules(base)
    lines = [
        *_format_lines(spec, base, point_value),
        *_cards_lines(rules),
        *_meld_lines(rules),
        _declare_line(rules),
        _points_line(rules),
        _turn_line(rules),
        _leaving_line(rules),
        _empty_deck_line(rules),
        "**Fair shuffle**: each deal publishes a SHA-256 commitment before the first card. At the end "
        f"the deck order and a salt are revealed: sha256 of `{PREFIX}|deal|<salt>|<order>` must equal "
        "the commitment (check with `/rummy verify` or any sha256 tool).",
    ]
    return "\n".join(lines)


def wild_words(wild_rank: int | None, _: Words = EN) -> str:
    """`7s are wild` for the headers of hand and table messages."""
    return _("{rank}s are wild", rank=_(rank_name(wild_rank))) if wild_rank else _("no wild rank")
