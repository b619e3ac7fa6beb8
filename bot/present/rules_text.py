"""A table's rules in plain words, generated from the options it actually plays with.

Players argue about house rules; the answer should come from the same `Rules` value the engine
enforces, never from a hand-written page that can drift from it. Every option of `Rules` is
said here (tests/present/test_rules_text.py checks each number and each switch), and where an option
follows one reading of an unclear source page, its sentence says that reading.
"""

from __future__ import annotations

from bot.engine.cards import rank_name
from bot.engine.commitment import PREFIX
from bot.engine.formats import DEAL_CHIPS, Family, FormatSpec
from bot.engine.rules import MIN_PLAYERS, ClosedDeckEmpty, LeaveCost, Rules
from bot.i18n import EN, Words
from bot.present.game_words import format_title


def _format_lines(spec: FormatSpec, base: Rules, point_value: int, _: Words) -> list[str]:
    title = format_title(spec, _)
    if spec.family is Family.POINTS:
        chips = _.n("{count} chip", "{count} chips", point_value)
        return [
            _(
                "**{format}**: one deal. The winner collects every other player's points × {chips} "
                "(virtual chips, never money).",
                format=title,
                chips=chips,
            )
        ]
    early = (
        " " + _("The double or half stakes of an early show apply to Points tables only.")
        if base.early_show_multipliers
        else ""
    )
    if spec.family is Family.DEALS:
        return [
            _(
                "**{format}**: everyone starts with {chips} chips ({per_deal} per deal). Each deal's "
                "winner takes the losers' points in chips. After the last deal the most chips wins; a "
                "tie plays one more deal between the tied players. There is no dropping in Deals.",
                format=title,
                chips=DEAL_CHIPS * spec.deals,
                per_deal=DEAL_CHIPS,
            )
            + early,
        ]
    own = _("drop costs")
    if spec.wrong_declaration is not None or spec.score_cap is not None:
        own = _("drop costs, wrong show and score cap")
    return [
        _(
            "**{format}**: points add up over deals; at {limit} or more you are out, and the last "
            "player left wins. Drops cost {first} (before your first pick) or {middle}: a pool keeps "
            "its own {own} (below) whatever the rules preset.",
            format=title,
            limit=spec.pool_limit,
            first=spec.first_drop,
            middle=spec.middle_drop,
            own=own,
        )
        + early,
        _(
            "Rejoin: once per pool, while nobody left is above {limit}, an eliminated player may come "
            "back at the highest remaining score + 1.",
            limit=spec.rejoin_below,
        ),
        _(
            "Split: with two or three players left, all of them may agree to end the pool and share it "
            "by drops remaining."
        ),
    ]


def _cards_lines(rules: Rules, _: Words) -> list[str]:
    plan = ", ".join(
        _("{decks} decks up to {players} players", decks=decks, players=players)
        for players, decks in rules.deck_plan
    )
    per_deck = rules.printed_jokers_per_deck
    if per_deck:
        totals = " / ".join(str(decks * per_deck) for _seats, decks in rules.deck_plan)
        jokers = _.n(
            "{count} printed joker per deck ({totals} in all)",
            "{count} printed jokers per deck ({totals} in all)",
            per_deck,
            totals=totals,
        )
    else:
        jokers = _("no printed jokers")
    lines = [
        _(
            "**Cards**: {least} to {most} players; {plan}; {jokers}. Each player gets 13 cards.",
            least=MIN_PLAYERS,
            most=rules.max_players,
            plan=plan,
            jokers=jokers,
        )
    ]
    if not rules.cut_joker:
        lines.append(_("**Wild joker**: no card is cut: only printed jokers are wild."))
        return lines
    where = (
        _(
            "It lies face up under the closed deck and stays in play: it is the last card drawn from "
            "the closed deck (and a joker like the rest of its rank)."
        )
        if rules.cut_card_in_play
        else _("It is set aside, out of play.")
    )
    printed = (
        _("If it is a printed joker, Aces are wild.")
        if rules.aces_wild_on_printed_cut
        else _("If it is a printed joker, there is no wild rank: only the printed jokers are wild.")
    )
    lines.append(
        _(
            "**Wild joker**: after the deal a card is cut; every card of its rank is a joker for this "
            "deal. {where} {printed}",
            where=where,
            printed=printed,
        )
    )
    return lines


def _meld_lines(rules: Rules, _: Words) -> list[str]:
    joker_runs = (
        _("at most one joker per impure sequence")
        if rules.one_joker_per_impure_sequence
        else _("any number of jokers per impure sequence")
    )
    alone = (
        _("printed jokers alone may make a set")
        if rules.joker_only_groups
        else _("printed jokers alone are no group")
    )
    lines = [
        _(
            "**Melds**: a sequence is 3 or more cards of one suit in a row (A-2-3 and Q-K-A count, "
            "K-A-2 does not). It is pure when no joker stands in for a card; {joker_runs}. A set is 3 "
            "to {largest} cards of the same rank, all of different suits (same rank, not same suit); "
            "jokers may fill in, and {alone}. A wild card can also be just itself: with sevens wild, "
            "5♥ 6♥ 7♥ is a pure sequence and 7♠ 7♥ 7♦ or 7♠ 7♥ JK a set.",
            joker_runs=joker_runs,
            largest=rules.max_set_size,
            alone=alone,
        )
    ]
    if rules.identical_triplet_pure:
        lines.append(_("Three identical cards, such as 9♠ 9♠ 9♠ with three decks, are a pure sequence."))
    return lines


def _declare_line(rules: Rules, _: Words) -> str:
    if rules.require_four_card_life:
        need = _(
            "**Declaring**: all 13 cards in groups, with at least two sequences, one of them pure "
            "(and one of those two with 4+ cards)."
        )
    else:
        need = _("**Declaring**: all 13 cards in groups, with at least two sequences, one of them pure.")
    parts = [need, _("Put your 14th card in the finish slot and show.")]
    if rules.show_before_pick:
        parts.append(_("At your first turn you may also show your 13 cards before picking any card."))
    parts.append(
        _("Jokers you do not need may lie on a plank of their own: the show is still valid.")
        if rules.spare_jokers_plank
        else _("Every card must be in a group, jokers too.")
    )
    parts.append(
        _("A wrong show costs {points} points and you are out of the deal.", points=rules.wrong_declaration)
    )
    return " ".join(parts)


def _protection_words(rules: Rules, _: Words) -> str:
    """What a loser pays, for the four settings of the two protection options."""
    if rules.pure_sequence_protects and rules.sets_protected:
        # 003 "the value of cards that are not in sequence are calculated": read, once both
        # sequences are there, as cards in no valid group (sets go free too).
        return _(
            "If you lose with a pure sequence, you pay for the cards outside sequences; with a second "
            "sequence too, only for cards in no group (sets are free then). No pure sequence: every "
            "card counts."
        )
    if rules.pure_sequence_protects:
        return _(
            "If you lose with a pure sequence, your sequences are free, but sets and loose cards count. "
            "No pure sequence: every card counts."
        )
    if rules.sets_protected:
        return _(
            "If you lose with a pure sequence and a second sequence, you pay only for cards in no "
            "group. Otherwise every card counts."
        )
    return _(
        "If you lose with a pure sequence and a second sequence, you pay for every card outside "
        "sequences (sets count too). Otherwise every card counts."
    )


def _points_line(rules: Rules, _: Words) -> str:
    parts = [
        _(
            "**Points**: K Q J count 10, an Ace {ace}, other cards their number, jokers 0.",
            ace=rules.ace_points,
        ),
        _protection_words(rules, _),
        _("A hand pays at most {cap}.", cap=rules.score_cap),
    ]
    if rules.missed_declaration_points is not None:
        parts.append(
            _(
                "Missed declaration: if your 13 cards already made a valid show when another player "
                "declared, you pay {points} instead of their count.",
                points=rules.missed_declaration_points,
            )
        )
    if rules.early_show_multipliers:
        if rules.show_before_pick:
            parts.append(_("Rummy before picking any card: every loser pays double."))
        parts.append(
            _(
                "Rummy after picking just one card: every loser pays half (rounded up). The double or "
                "half comes after the cap (a capped hand pays {double} or {half}); drops and wrong shows "
                "are not changed.",
                double=rules.score_cap * 2,
                half=(rules.score_cap + 1) // 2,
            )
        )
    return " ".join(parts)


def _turn_line(rules: Rules, _: Words) -> str:
    if rules.discard_seconds is not None:
        clock = _(
            "{pick} s to pick, then {discard} s to discard. When the pick clock runs out the top card "
            "of the closed deck is picked for you; when the discard clock runs out the new card is "
            "thrown back.",
            pick=rules.turn_seconds,
            discard=rules.discard_seconds,
        )
    else:
        clock = _(
            "{seconds} s a turn; when it runs out the top card of the closed deck is picked for you "
            "and thrown back.",
            seconds=rules.turn_seconds,
        )
    bank = (
        _(
            "Each player also has a {seconds} s time bank for the whole match.",
            seconds=rules.extra_time_seconds,
        )
        if rules.extra_time_seconds
        else _("There is no time bank.")
    )
    parts = [_("**Turns**: pick from the closed deck or the open pile, then discard."), clock, bank]
    if rules.declare_on_timeout:
        parts.append(_("A hand that can show when its time runs out declares by itself."))
    parts.append(
        _.n(
            "When the clock plays for you, that is a missed turn; {count} missed turn in a row counts "
            "as a middle drop ({points}).",
            "When the clock plays for you, that is a missed turn; {count} missed turns in a row count "
            "as a middle drop ({points}).",
            rules.max_missed_turns,
            points=rules.middle_drop,
        )
    )
    parts.append(
        _("A joker just discarded by the previous player may be picked.")
        if rules.pick_discarded_joker
        else _("A joker just discarded by the previous player cannot be picked (the first open card can).")
    )
    parts.append(
        _("A card taken from the open pile may go straight back.")
        if rules.rediscard_open_pick
        else _("A card taken from the open pile cannot be thrown straight back (nor be the finish card).")
    )
    return " ".join(parts)


def _leaving_line(rules: Rules, _: Words) -> str:
    drops = (
        _(
            "**Drops**: {first} before your first pick, {middle} after.",
            first=rules.first_drop,
            middle=rules.middle_drop,
        )
        if rules.drops_allowed
        else _("**Drops**: not allowed.")
    )
    if rules.leave_cost is LeaveCost.DROP_OR_HAND:
        leave = _(
            "Leaving the table costs {first} before your first pick, else {middle}; but if someone "
            "shows before your next turn would have come, your hand is scored instead.",
            first=rules.first_drop,
            middle=rules.middle_drop,
        )
    else:
        leave = _("Leaving the table before a show costs {points}.", points=rules.middle_drop)
    return f"{drops} {leave}"


def _empty_deck_line(rules: Rules, _: Words) -> str:
    if rules.closed_deck_empty is ClosedDeckEmpty.RESHUFFLE:
        return _("**Empty deck**: the open pile, less its top card, is shuffled into a new closed deck.")
    return _(
        "**Empty deck**: when the closed deck is used up the deal ends: every hand is scored as it "
        "stands, the lowest wins and the others pay their count."
    )


def describe_rules(spec: FormatSpec, base: Rules, point_value: int = 1, _: Words = EN) -> str:
    rules = spec.deal_rules(base)
    lines = [
        *_format_lines(spec, base, point_value, _),
        *_cards_lines(rules, _),
        *_meld_lines(rules, _),
        _declare_line(rules, _),
        _points_line(rules, _),
        _turn_line(rules, _),
        _leaving_line(rules, _),
        _empty_deck_line(rules, _),
        _(
            "**Fair shuffle**: each deal's deck is sealed before the first card (the table message shows "
            "the seal). The result post attaches the deck order as a .txt file: `/rummy verify` checks "
            "it, or any sha256 tool (sha256 of {formula} starts with the seal).",
            formula=f"`{PREFIX}|deal|<salt>|<order>`",
        ),
    ]
    return "\n".join(lines)


def wild_words(wild_rank: int | None, _: Words = EN) -> str:
    """`7s are wild` for the headers of hand and table messages."""
    return _("{rank}s are wild", rank=_(rank_name(wild_rank))) if wild_rank else _("no wild rank")
