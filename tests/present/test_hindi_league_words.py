"""The leagues' and the engine's own words in the reader's language (issue 15): a schedule and
a points table as a Hindi league channel reads them, and the words quoted into a refusal (what
could not be done, a night's status) told in Hindi with the rest of it, names never."""

import random
from datetime import UTC, datetime

import pytest

from bot.discord.league_text import points_words, schedule_words
from bot.engine import Rules, RummyError
from bot.engine.commands import Source
from bot.engine.deal import Deal
from bot.engine.marks import Word
from bot.i18n import EN, words
from bot.leagues import Night, NightStatus
from bot.leagues.points import PointsTable
from bot.leagues.schedule import Schedule
from bot.present.ordinals import ordinal

HI = words("hi")


def test_a_schedule_and_a_points_table_in_hindi_and_in_english():
    weekly, fortnightly = (
        Schedule.parse("every friday 20:00"),
        Schedule.parse("every 2 weeks on Sunday 18:00"),
    )
    assert schedule_words(weekly, EN) == weekly.describe() == "every Friday at 20:00"
    assert schedule_words(fortnightly, EN) == fortnightly.describe()
    assert schedule_words(weekly, HI) == "हर शुक्रवार 20:00 बजे"
    assert schedule_words(fortnightly, HI) == "हर 2 हफ़्ते रविवार को 18:00 बजे"
    assert points_words(PointsTable(), EN) == "1st 10, 2nd 6, 3rd 4, 4th 3, 5th 2, 6th 1"
    assert points_words(PointsTable((5, 3, 1, 0)), HI) == "1ला 5, 2रा 3, 3रा 1, 4था 0"


@pytest.mark.parametrize(
    ("number", "english", "hindi"),
    [
        (1, "1st", "1ला"),
        (2, "2nd", "2रा"),
        (3, "3rd", "3रा"),
        (4, "4th", "4था"),
        (5, "5th", "5वाँ"),
        (6, "6th", "6ठा"),
        (7, "7th", "7वाँ"),
        (11, "11th", "11वाँ"),
        (12, "12th", "12वाँ"),
        (13, "13th", "13वाँ"),
        (21, "21st", "21वाँ"),
        (22, "22nd", "22वाँ"),
        (101, "101st", "101वाँ"),
        (111, "111th", "111वाँ"),
    ],
)
def test_every_place_takes_its_own_languages_ending(number, english, hindi):
    assert ordinal(number, EN) == english and ordinal(number, HI) == hindi


def test_a_deals_refusal_tells_what_could_not_be_done_in_the_readers_words():
    deal, _ = Deal.start(2, Rules(), random.Random(3))
    seat, taken = deal.turn, deal.open_card
    deal.pick(seat, Source.OPEN)
    with pytest.raises(RummyError) as refused:
        deal.discard(seat, taken)  # 000: the card just taken from the open pile may not go back
    said = f"आपने अभी खुली गड्डी से {taken.pretty} उठाया है: फेंकने के लिए कोई दूसरा पत्ता चुनें।"
    assert refused.value.render(str, HI) == said
    assert str(refused.value) == f"You just took {taken.pretty} from the open pile: discard a different card."


def test_a_nights_status_and_action_are_translated_and_a_name_is_not():
    night = Night(3, datetime(2026, 3, 6, 20, tzinfo=UTC), status=NightStatus.CANCELLED)
    with pytest.raises(RummyError) as refused:
        night.postpone(datetime(2026, 3, 7, 20, tzinfo=UTC), datetime(2026, 3, 1, tzinfo=UTC), "rain")
    assert refused.value.render(str, HI) == "नाइट 3 रद्द है; अब इसे टालने के लिए बहुत देर हो चुकी है।"
    named = RummyError("{league} has no night waiting to be played.", league="cancelled")
    assert named.render(str, HI).startswith("cancelled ") and isinstance(Word("x"), str)
