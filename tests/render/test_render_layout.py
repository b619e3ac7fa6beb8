"""What a player relies on in the pictures: sizes, wild badges, readable names, colours, file sizes."""

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from bot.engine.cards import Card, Suit, parse_cards
from render import (
    HandGroup,
    HandScene,
    PlayerResult,
    ResultScene,
    render_card,
    render_hand,
    render_result,
    render_standings,
    render_table,
    samples,
    theme,
)
from render.fonts import clean_text, fit_text, font, player_name
from render.hand import HEADER, STYLE, card_boxes
from render.replay_frame import replay_height
from render.result import result_height
from render.scenes import StandingsRow
from render.sprites import badge_box, card_pieces, card_sprite, index_column
from render.standings import _running_totals, standings_height
from render.table import HEADER as TABLE_HEADER
from render.table import SEAT_HEIGHT, SLOT_X, seat_top

MAX_BYTES = 150 * 1024


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(pixel, colour, tolerance=40):
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=False)) <= tolerance


def changed_area(one: Image.Image, other: Image.Image):
    """The box where two pictures really differ; the shared palette may shift colours by a few levels."""
    return ImageChops.difference(one, other).convert("L").point(lambda v: 255 if v > 12 else 0).getbbox()


def count_colour(image: Image.Image, box, colour, tolerance=40) -> int:
    region = image.crop(box).convert("RGB")
    return sum(1 for pixel in region.get_flattened_data() if near(pixel, colour, tolerance))


# --- sizes -------------------------------------------------------------------------------------


def test_hand_is_of_fixed_size_whatever_its_groups():
    for scene in (samples.HAND_14, samples.HAND_13_FOUR_COLOUR, samples.HAND_UNSORTED, samples.HAND_READY):
        assert decode(render_hand(scene)).size == (800, 318)


def test_table_result_and_standings_sizes():
    assert decode(render_table(samples.TABLE)).size == (800, 645)
    assert decode(render_table(samples.TABLE_EMPTY)).size == (800, 413)
    assert decode(render_result(samples.RESULT)).size == (800, 623)  # the drop takes one line
    assert decode(render_standings(samples.STANDINGS)).size == (800, 522)


def test_ten_seats_as_home_rules_seat_them_fit_a_phone_s_box():
    # 004: "up to ten players"; issue 26: a phone fits a picture into 400 x 500, so no picture is
    # more than 1000 high at 800 wide (it shows at half size, its smallest words at 11 px).
    assert decode(render_table(samples.TABLE_10)).size == (800, 877)
    assert decode(render_result(samples.RESULT_10)).size == (800, 877)  # the hands in racks
    assert decode(render_standings(samples.STANDINGS_10)).size == (800, 762)
    for seats in range(2, 11):
        players = tuple(PlayerResult(f"P{i}", samples.HAND_14.groups, 80) for i in range(seats))
        assert decode(render_result(ResultScene(players))).size[1] <= theme.MAX_HEIGHT
        assert replay_height(seats) <= theme.MAX_HEIGHT
    colours = set(theme.SERIES[: len(samples.STANDINGS_10.rows)])
    assert len(colours) == 10  # every player keeps a colour of their own in the chart


def test_a_hand_too_wide_for_one_row_takes_two_and_keeps_every_index_uncovered():
    cards = parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H")
    singles = tuple(HandGroup("ungrouped", (card,), 5) for card in cards)
    scene = HandScene(groups=singles)
    assert decode(render_hand(scene)).size == (800, 318 * 2 - HEADER)
    boxes = card_boxes(scene)
    assert sorted(boxes) == list(range(1, 15))
    assert min(right - left for left, _, right, _ in boxes.values()) >= index_column(STYLE.card_width)


def test_every_sample_and_a_full_six_player_result_stay_under_150_kb():
    full = ResultScene(
        players=tuple(
            PlayerResult(f"Player {i} 🎲🎲", samples.HAND_14.groups, 80, winner=i == 0, standing="-80 chips")
            for i in range(6)
        ),
        wild_rank=7,
        title="Six players, fourteen cards each",
    )
    pictures = {**samples.pictures(), "full_result": render_result(full)}
    sizes = {name: len(data) for name, data in pictures.items()}
    assert max(sizes.values()) < MAX_BYTES, sizes


# --- wild badge --------------------------------------------------------------------------------


def badge_gold(image, boxes, position, card) -> int:
    """Gold pixels where the badge of the card at `position` would be."""
    left, top, _, _ = boxes[position]
    badge = badge_box(STYLE.card_width)
    return count_colour(image, (left + badge[0], top + badge[1], left + badge[2], top + badge[3]), theme.GOLD)


def test_wild_cards_carry_a_gold_badge_where_the_overlapped_hand_shows_it():
    scene = samples.HAND_14  # wild 7s: positions 3 (7H), 7 (printed joker), 11 (7S)
    image = decode(render_hand(scene))
    boxes = card_boxes(scene)
    for position, card in enumerate(scene.cards, start=1):
        gold = badge_gold(image, boxes, position, card)
        if card.rank in (0, 7):
            assert gold > 200, (position, card, gold)
        else:
            assert gold < 20, (position, card, gold)


def test_without_a_cut_joker_the_sevens_lose_their_badge_but_printed_jokers_keep_it():
    scene = replace(samples.HAND_14, wild_rank=None)
    image = decode(render_hand(scene))
    boxes = card_boxes(scene)
    for position in (3, 7):
        card = scene.cards[position - 1]
        gold = badge_gold(image, boxes, position, card)
        assert (gold > 200) == card.is_printed_joker, (card, gold)


def test_the_table_badges_the_cut_joker():
    plain = decode(render_table(replace(samples.TABLE, wild_rank=None)))
    wild = decode(render_table(samples.TABLE))
    cut_joker_area = (SLOT_X[2] - 8, TABLE_HEADER, SLOT_X[2] + 100, TABLE_HEADER + 160)
    gold = [count_colour(image, cut_joker_area, theme.GOLD) for image in (plain, wild)]
    assert gold[1] > gold[0] + 500, gold


# --- names -------------------------------------------------------------------------------------

AWKWARD_NAMES = (
    "🔥🔥🔥",
    "Arjun 👨‍👩‍👧‍👦 the Great",
    "W" * 200,
    "名前テスト",
    "ZALGO Z̷̛̖a̶l̴g̵o̸",
    "tab\tand\nnewline\u200b",
    "",
)


@pytest.mark.parametrize("name", AWKWARD_NAMES)
def test_awkward_names_neither_crash_nor_move_anything_else_on_the_table(name):
    seats = (replace(samples.SEATS[0], name=name), *samples.SEATS[1:])
    reference = decode(render_table(samples.TABLE))
    awkward = decode(render_table(replace(samples.TABLE, seats=seats)))
    assert awkward.size == reference.size
    # Only the name's own slot may change: the piles, the other seats and the first seat's
    # count and standing (right of x=500) are identical.
    top, bottom = seat_top(0), seat_top(0) + SEAT_HEIGHT
    for box in ((0, 0, 800, top), (0, bottom, 800, reference.height), (500, top, 800, bottom)):
        assert changed_area(reference.crop(box), awkward.crop(box)) is None, box


@pytest.mark.parametrize("name", AWKWARD_NAMES)
def test_awkward_names_in_results_and_standings_keep_the_size(name):
    result = ResultScene(players=(PlayerResult(name, samples.HAND_14.groups, 0, winner=True, standing=name),))
    assert decode(render_result(result)).size == (800, result_height(result.players, False))
    standings = replace(samples.STANDINGS, rows=(replace(samples.STANDINGS.rows[0], name=name, status=name),))
    assert decode(render_standings(standings)).size == (800, standings_height(1))


def test_names_lose_what_the_font_cannot_draw_and_are_cut_to_their_width():
    assert clean_text("Arjun 🔥🔥 Rao") == "Arjun Rao"
    assert clean_text("🔥") == ""
    assert player_name("🔥", font(20), 100) == "?"
    assert clean_text("Zoë\u200d\tSmith") == "Zoë Smith"
    long = player_name("W" * 200, font(20, "bold"), 180)
    assert long.endswith("…") and font(20, "bold").getlength(long) <= 180
    assert fit_text("short", font(20), 180) == "short"
    assert fit_text("anything", font(20), 1) == ""


# --- colours and caching -----------------------------------------------------------------------


def test_the_four_colour_deck_paints_diamonds_violet_blue_and_clubs_teal():
    for card, colour in (
        (Card(5, Suit.CLUBS), theme.FOUR_COLOUR[Suit.CLUBS]),
        (Card(5, Suit.DIAMONDS), theme.FOUR_COLOUR[Suit.DIAMONDS]),
    ):
        classic = card_sprite(card, four_colour=False)
        four = card_sprite(card, four_colour=True)
        assert count_colour(four, (0, 0, four.width, four.height), colour) > 1500
        assert count_colour(classic, (0, 0, classic.width, classic.height), colour) == 0
    spade = Card(5, Suit.SPADES)
    assert card_sprite(spade, four_colour=True).tobytes() == card_sprite(spade, four_colour=False).tobytes()


def test_four_colour_flag_reaches_the_hand_picture():
    classic = decode(render_hand(replace(samples.HAND_13_FOUR_COLOUR, four_colour=False)))
    four = decode(render_hand(samples.HAND_13_FOUR_COLOUR))
    green = theme.FOUR_COLOUR[Suit.CLUBS]
    first_cards = (0, 0, 260, 318)  # A 2 3 of clubs
    assert count_colour(four, first_cards, green, 30) > count_colour(classic, first_cards, green, 30) + 1000


def test_card_faces_are_drawn_once_and_then_reused():
    render_hand(samples.HAND_14)
    before, pieces_before = card_sprite.cache_info(), card_pieces.cache_info()
    render_hand(samples.HAND_14)
    after, pieces_after = card_sprite.cache_info(), card_pieces.cache_info()
    assert after.misses == before.misses
    assert pieces_after.misses == pieces_before.misses
    assert pieces_after.hits >= pieces_before.hits + 14


def test_the_picked_card_is_lifted_and_glows():
    scene = samples.HAND_14
    boxes = card_boxes(scene)
    lifted, resting = boxes[14], boxes[13]
    assert lifted[1] < resting[1]
    image = decode(render_hand(scene))
    glow = (lifted[0] + 10, lifted[1] - 3, lifted[0] + 80, lifted[1])
    assert count_colour(image, glow, theme.GOLD, 120) > 50
    unpicked = decode(render_hand(replace(scene, picked=None)))
    assert count_colour(unpicked, glow, theme.GOLD, 120) == 0


def test_a_single_card_keeps_its_transparency():
    image = Image.open(io.BytesIO(render_card(Card(12, Suit.HEARTS), wild=True)))
    assert image.mode == "RGBA"
    assert image.getpixel((0, 0))[3] == 0
    assert image.getpixel((image.width // 2, image.height // 2))[3] == 255


@pytest.mark.parametrize(
    ("scores", "line"),
    [
        ((10, 20, None, None), [0, 10, 30]),  # out of the pool after two deals: the line ends
        ((None, 5, None, 7), [0, 0, 5, 5, 12]),  # nights missed: flat, and on
        ((None, None), [0]),
    ],
)
def test_the_chart_line_ends_when_a_player_is_out_and_runs_flat_over_a_missed_night(scores, line):
    assert _running_totals(StandingsRow("A", scores, sum(s or 0 for s in scores))) == line


def test_pasting_a_sprite_in_pieces_gives_exactly_the_blended_paste():
    for card, wild, highlight in ((Card(12, Suit.HEARTS), True, False), (parse_cards("JK")[0], False, True)):
        sprite = card_sprite(card, wild, highlight=highlight)
        blended = Image.new("RGB", (400, 300), theme.FELT_CENTRE)
        blended.paste(card_sprite(Card(5, Suit.CLUBS)), (10, 10), card_sprite(Card(5, Suit.CLUBS)))
        pieced = blended.copy()
        blended.paste(sprite, (60, 30), sprite)
        card_pieces(card, wild, highlight=highlight).paste(pieced, (60, 30))
        assert card_pieces(card, wild, highlight=highlight).core is not None
        assert pieced.tobytes() == blended.tobytes()


def test_the_notes_under_the_league_chart_keep_clear_of_the_edge():
    # issue 26: the English league picture's last note line touched the bottom edge.
    for scene in (samples.LEAGUE_STANDINGS, samples.LEAGUE_STANDINGS_HI):
        image = decode(render_standings(scene))
        bottom = image.crop((0, image.height - 18, image.width, image.height))  # the rim and 12 px
        assert count_colour(bottom, (0, 0, bottom.width, bottom.height), theme.MUTED, 60) == 0
        note = image.crop((0, image.height - 60, image.width, image.height - 18))
        assert count_colour(note, (0, 0, note.width, note.height), theme.MUTED, 60) > 100  # the note is there
