"""How a hand is laid out and numbered: a pick that keeps every number where it was (the
terminal's, whose players type numbers from memory), and the one copy picked of two alike."""

from bot.engine import Rules, parse_cards
from bot.present.hand_layout import HandLayout
from bot.present.narrate import hand_lines

HAND = parse_cards("2S 3S 4S 2C 3C 4C 7D 8D 9D KH 5H QC QC")


def numbered(layout: HandLayout) -> dict[int, str]:
    return {place: card.code for place, card in enumerate(layout.cards, start=1)}


def test_a_pick_kept_in_place_takes_the_next_number_and_moves_nothing_else():
    layout = HandLayout()
    layout.follow(HAND, 10, Rules(), keep_places=True)
    before = numbered(layout)
    picked = parse_cards("6H")
    layout.follow([*HAND, *picked], 10, Rules(), keep_places=True)
    assert numbered(layout) == {**before, 14: "6H"} and layout.picked_at == 14
    layout.follow([*HAND, *picked], 10, Rules(), keep_places=True)  # shown again: unchanged
    assert numbered(layout) == {**before, 14: "6H"}
    # Without keeping places (Discord's hand), the suggestion is made anew with the new card.
    suggested = HandLayout()
    suggested.follow(HAND, 10, Rules())
    suggested.follow([*HAND, *picked], 10, Rules())
    assert numbered(suggested) != {**before, 14: "6H"} and suggested.picked_at is None


def test_only_the_copy_picked_is_marked_when_the_hand_holds_two_alike():
    layout = HandLayout()
    layout.follow(HAND, 10, Rules(), keep_places=True)
    twin = HAND[9]  # KH: two decks, and the other one is picked
    layout.follow([*HAND, twin], 10, Rules(), keep_places=True)
    lines = hand_lines(layout.groups, layout.picked_at, 10, Rules())
    marked = [cell for line in lines for cell in line.split() if cell.endswith("*")]
    assert marked == ["14:K♥*"] and sum(line.count("K♥") for line in lines) == 2


def test_the_picked_copy_is_followed_through_a_regrouping_and_a_new_suggestion():
    layout = HandLayout()
    layout.follow(HAND, 10, Rules(), keep_places=True)
    layout.follow([*HAND, HAND[9]], 10, Rules(), keep_places=True)
    layout.regroup("14 13 12", [*HAND, HAND[9]])
    assert layout.picked_at == 1 and layout.cards[0] == HAND[9]
    layout.suggest([*HAND, HAND[9]], 10, Rules())
    assert not layout.custom and layout.cards[layout.picked_at - 1] == HAND[9]
    layout.follow(HAND, 10, Rules(), keep_places=True)  # the discard: nothing picked now
    assert layout.picked_at is None
