"""Every picture in words (issue 26): what a screen reader says for each picture, in the reader's
language, never longer than Discord takes for an attachment's description (1,024 characters)."""

from dataclasses import replace

import pytest

from bot.engine.cards import build_shoe
from render import samples
from render.alt_text import LIMIT, hand_alt, hand_line, replay_alt, result_alt, standings_alt, table_alt
from render.scenes import HandGroup, HandScene, PlayerResult, ReplaySeat, ResultScene

HAND = HandScene(
    groups=(
        samples.group("pure_sequence", "4H 5H 6H"),
        samples.group("set", "9S 9D 9C", 27, "no_pure_sequence"),
        samples.group("ungrouped", "KS 2D", 12),
    ),
    wild_rank=None,
    total_points=39,
)


def test_the_hand_in_one_line_as_the_hand_message_says_it():
    assert hand_line(HAND) == "Pure 4♥ 5♥ 6♥ · Set 9♠ 9♦ 9♣ · Loose K♠ 2♦ · 39 pts"
    assert hand_line(replace(HAND, language="hi")) == "प्योर 4♥ 5♥ 6♥ · सेट 9♠ 9♦ 9♣ · अकेले पत्ते K♠ 2♦ · 39 अंक"
    assert hand_line(samples.HAND_READY).endswith("· 8 pts · Ready to declare")


def test_a_hand_says_each_group_with_its_numbers_kind_cards_and_points():
    text = hand_alt(samples.HAND_14)
    assert text.startswith("Your hand: 14 cards, 22 pts. Wild: 7s + jokers.")
    assert "Cards 1 to 4: Pure sequence 5♥ 6♥ 7♥ 8♥, 0 pts." in text
    assert "Cards 5 to 8: Impure sequence 9♠ 10♠ 🃏 Q♠, 0 pts." in text
    assert "Cards 12 to 14: Ungrouped A♠ 2♣ Q♦, 22 pts." in text
    assert "Just picked: card 14, Q♦." in text and text.endswith("Suggested discard: 12 (A♠).")
    assert "Ready to declare." in hand_alt(samples.HAND_READY)
    assert "Card 14: Ungrouped 8♣, 8 pts." in hand_alt(samples.HAND_READY)


def test_a_hand_says_why_its_valid_groups_still_count():
    assert "Set 9♠ 9♦ 9♣, 27 pts. " in hand_alt(HAND)
    assert hand_alt(HAND).endswith("No pure sequence: every card counts.")


def test_a_hand_in_hindi():
    text = hand_alt(replace(samples.HAND_14, language="hi"))
    assert text.startswith("आपके पत्ते: 14 पत्ते, 22 अंक। वाइल्ड: 7 + जोकर।")
    assert "पत्ते 1 से 4: प्योर सीक्वेंस 5♥ 6♥ 7♥ 8♥, 0 अंक।" in text
    assert text.endswith("फेंकने का सुझाव: 12 (A♠)।")
    assert "प्योर सीक्वेंस नहीं है" in hand_alt(replace(HAND, language="hi"))
    assert "डिक्लेयर के लिए तैयार" in hand_alt(replace(samples.HAND_READY, language="hi"))


def test_the_table_says_whose_turn_the_piles_and_every_seat():
    text = table_alt(samples.TABLE)
    assert text.startswith("Pool 101 · Deal 3. Wild: 7s + jokers. Arjun 🔥🔥's turn. Open card: Q♥.")
    assert "Closed deck: 61 cards. Cut joker: 7♣." in text
    assert "Priya: 13 cards, 1,240 chips; " in text and "Sam: 0 cards, out, out at 104" in text
    assert "Mr. Extraordinarily Long Discor…: 0 cards, dropped, 560 chips" in text  # names are cut
    hindi = table_alt(samples.TABLE_HI)
    assert "Arjun 🔥🔥 की बारी। खुला पत्ता: Q♥। बंद गड्डी: 61 पत्ते।" in hindi
    assert "प्रिया: 13 पत्ते, 1,240 चिप्स" in hindi


def test_a_result_says_each_player_s_points_and_outcome():
    text = result_alt(samples.RESULT)
    assert "Priya won: 0 pts, +196 chips (Pure 5♥ 6♥ 7♥ · Impure 9♠ 10♠ 🃏 Q♠ · " in text
    assert "Arjun 🔥: −80 pts, -80 chips (Pure 2♦ 3♦ 4♦ · Set K♦ K♣ 7♠ · Loose A♠ 2♣ Q♦" in text
    assert "Mr. Extraordinarily Long Discor…: −20 pts, dropped, -20 chips." in text
    hindi = result_alt(samples.RESULT_HI)
    assert "प्रिया की जीत: 0 अंक, +196 चिप्स" in hindi and "−80 अंक" in hindi


def test_standings_say_each_player_s_total_scores_and_status():
    text = standings_alt(samples.STANDINGS)
    assert text == (
        "Pool 101 · after deal 5. Out at 101. Priya: 66 (0, 12, 34, 0, 20). Arjun 🔥: 80 (40, 0, 2, 30, 8). "
        "Bot Kavya: 105 (80, 25, 0, –, –), out. Meera: 55 (5, 30, 20, 0, 0)."
    )
    league = standings_alt(samples.LEAGUE_STANDINGS)
    assert "1. Meera: 32 (10, 6†, 10, 6), 2 wins." in league and "† includes an admin's" in league
    hindi = standings_alt(samples.STANDINGS_HI)
    assert (
        hindi.startswith("पूल 101 · डील 5 के बाद। 101 पर बाहर।")
        and "Bot Kavya: 105 (80, 25, 0, –, –), बाहर।" in hindi
    )


def test_a_replay_frame_says_the_move_and_the_hands():
    text = replay_alt(samples.REPLAY)
    assert text.startswith("Pool 101 · Deal 3 replay, Move 41 of 88. Arjun 🔥🔥 picks 7♥ from the open pile.")
    assert "Arjun 🔥🔥, 14 cards, to act: Pure 5♥ 6♥ 7♥ 8♥ · " in text
    assert "Bot Kavya, −20 pts, dropped: Pure A♣ 2♣ 3♣" in text
    hindi = replay_alt(replace(samples.REPLAY, language="hi"))
    assert "खुला पत्ता: 2♦। बंद गड्डी: 38 पत्ते।" in hindi and "प्योर 5♥ 6♥ 7♥ 8♥" in hindi


# --- Discord's limit ------------------------------------------------------------------------------

SHOE = build_shoe(3, 3)
LONG = "Mr. Extraordinarily Long Discord Display Name " * 3


def big_hand(start: int) -> tuple[HandGroup, ...]:
    cards = SHOE[start : start + 14]
    return tuple(HandGroup("ungrouped", (card,), 10) for card in cards)


@pytest.mark.parametrize("language", ["en", "hi"])
def test_ten_players_with_long_names_fit_discord_s_limit_and_keep_every_player_s_points(language):
    players = tuple(
        PlayerResult(
            f"{LONG}{i}", big_hand(i * 14), 80 + i, winner=i == 0, standing="-1,240 chips", note="wrong show"
        )
        for i in range(10)
    )
    text = result_alt(ResultScene(players, 7, "Points · Deal 12 result", language=language))
    assert len(text) <= LIMIT
    assert text.count("pts" if language == "en" else "अंक") == 10  # the hands gave way, not the points
    seats = tuple(ReplaySeat(f"{LONG}{i}", big_hand(i * 14), "14 cards", "DROPPED") for i in range(10))
    frame = replace(samples.REPLAY, seats=seats, caption=(LONG * 10,), language=language)
    assert len(replay_alt(frame)) <= LIMIT
    rows = tuple(replace(samples.STANDINGS.rows[0], name=f"{LONG}{i}", scores=(5,) * 40) for i in range(10))
    assert len(standings_alt(replace(samples.STANDINGS, rows=rows, language=language))) <= LIMIT
    seats_10 = tuple(replace(seat, name=f"{LONG}{i}") for i, seat in enumerate(samples.TABLE_10.seats))
    assert len(table_alt(replace(samples.TABLE_10, seats=seats_10, language=language))) <= LIMIT


def test_what_cannot_fit_is_cut_at_a_word():
    from render.alt_text import fit

    assert fit(["short"]) == "short"
    assert fit(["a" * 2000, "b " * 600]) == ("b " * 511).rstrip() + "…"
    assert len(fit(["word " * 400])) <= LIMIT
