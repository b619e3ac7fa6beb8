"""A wrong show's reason, kept in English in the event log, is shown in the reader's language:
read back into its template and values, then told again (issue 15)."""

from bot.engine.cards import parse_cards
from bot.engine.events import WrongShow
from bot.engine.melds import SHOW_REASONS, judge_groups
from bot.i18n import EN, words
from bot.present.narrate import event_lines
from bot.present.show_reasons import reason_words

HI = words("hi")


def judged(text: str, wild: str | None = None) -> str:
    groups = [parse_cards(group) for group in text.split("|")]
    return judge_groups(groups, wild).reason


def test_the_engines_reasons_are_told_in_hindi_with_their_cards():
    not_pure = judged("6D 7D 8D 10D | AC KD JH | 5C 7C 8C | 2H 3H 5H")
    assert reason_words(not_pure, EN) == not_pure
    assert reason_words(not_pure, HI) == "प्योर सीक्वेंस चाहिए: 6♦ 7♦ 8♦ 10♦ प्योर सीक्वेंस नहीं है।"
    short = judged("AH 2H 3H | 4S 5S 6S")
    assert reason_words(short, HI) == HI(
        "A declaration needs {needed} cards in groups; these groups hold {size}.", needed=13, size=6
    )
    mixed = judged("AH 2H 3H 4H | 5S 6S 7S | 9C 9D KH | 10D JD QD")
    assert mixed.endswith("a sequence needs cards of one suit.")
    assert reason_words(mixed, HI) == "9♣ 9♦ K♥ सही ग्रुप नहीं है: सीक्वेंस के पत्ते एक ही सूट के होने चाहिए।"


def test_every_template_reads_back_to_its_own_values():
    for template in SHOW_REASONS:
        values = {"count": 4, "needed": 13, "size": 12, "cards": "9♣ 9♦ K♥", "why": SHOW_REASONS[0]}
        said = template.format(**values)
        told = reason_words(said, HI)
        assert told != said and told == HI(template, **values | {"why": HI(SHOW_REASONS[0])}), template


def test_a_reason_no_template_knows_is_shown_as_stored():
    assert reason_words("Group 4 is not a valid group.", HI) == "Group 4 is not a valid group."


def test_a_wrong_show_in_the_move_list_is_in_the_readers_words():
    show = WrongShow(0, None, 80, None, "You need a second sequence.")
    assert event_lines(show, 0, ["Asha"], HI)[-1].endswith("दूसरा सीक्वेंस चाहिए।")
    assert event_lines(show, 0, ["Asha"])[-1].endswith("You need a second sequence.")
