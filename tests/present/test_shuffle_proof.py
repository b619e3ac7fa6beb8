"""The fair shuffle in few words (issue 26): a short seal on the table, the reveal as a file that
`/rummy verify` reads back, attached or pasted, and that any sha256 tool can check."""

import hashlib
import re

import pytest
from deal_helpers import ended_deal

from bot.discord import limits
from bot.engine.cards import parse_cards
from bot.engine.history import FinishedDeal
from bot.i18n import HINDI, words
from bot.present.shuffle_proof import (
    SEAL_DIGITS,
    RevealError,
    how_to_verify,
    paid_line,
    read_reveal,
    reshuffle_seal_line,
    reveal_file,
    seal_line,
    typed_shuffle,
    verify_words,
)

RESHUFFLED = 15  # a seed whose deal reshuffled the open pile twice


@pytest.fixture(scope="module")
def deal():
    played = ended_deal(RESHUFFLED)
    assert len(played.reshuffles) == 2
    return FinishedDeal.of(played, 3)


def test_the_table_shows_a_seal_of_32_hex_digits_not_the_whole_commitment(deal):
    line = seal_line(deal.commitment)
    assert re.search(r"`[0-9a-f]{32}`", line) and deal.commitment[:SEAL_DIGITS] in line
    assert deal.commitment not in line and len(line) < 60
    assert deal.commitment[:SEAL_DIGITS] in reshuffle_seal_line(deal.commitment)


def test_any_sha256_tool_checks_the_reveal_file(deal):
    text = reveal_file(deal)
    commitments = re.findall(r"^commitment: (\w+)$", text, re.MULTILINE)
    hashed = re.findall(r"^hashed: (.+)$", text, re.MULTILINE)
    assert len(commitments) == len(hashed) == 3  # the deal's deck and two reshuffles
    assert commitments[0] == deal.commitment
    for commitment, source in zip(commitments, hashed, strict=True):
        assert hashlib.sha256(source.encode()).hexdigest() == commitment


@pytest.mark.parametrize("joined", [False, True], ids=["attached", "pasted on one line"])
def test_verify_reads_the_reveal_back_and_every_deck_holds(deal, joined):
    text = reveal_file(deal, words(HINDI))
    if joined:  # a slash command's text option takes one line
        text = " ".join(text.split("\n"))
    shuffles = read_reveal(text)
    assert [shuffle.label for shuffle in shuffles] == ["deal", "reshuffle 1", "reshuffle 2"]
    assert shuffles[0].order == deal.shoe and shuffles[1].order == deal.reshuffles[0]
    answer = verify_words(shuffles, sealed=seal_line(deal.commitment).split("`")[1])
    assert answer.count("✅") == 4 and "❌" not in answer


def test_a_changed_card_or_seal_fails(deal):
    text = reveal_file(deal)
    first = deal.shoe[0].code
    other = "JK" if first != "JK" else "AS"
    forged = text.replace(f"|{first} ", f"|{other} ", 1)
    shuffles = read_reveal(forged)
    assert not shuffles[0].holds and shuffles[1].holds
    assert "❌" in verify_words(shuffles)
    wrong_seal = verify_words(read_reveal(text), sealed="0" * SEAL_DIGITS)
    assert "❌ It is not the seal you copied." in wrong_seal
    assert "too short" in verify_words(read_reveal(text), sealed="5e12")


def test_a_commitment_typed_as_its_seal_is_checked_like_the_whole(deal):
    order = " ".join(card.code for card in deal.shoe)
    assert typed_shuffle(f"`{deal.commitment[:SEAL_DIGITS]}`…", deal.salt, order).holds
    assert typed_shuffle(deal.commitment, deal.salt, order).holds
    assert not typed_shuffle(deal.commitment[:8], deal.salt, order).holds  # too short to bind
    reshuffled = " ".join(card.code for card in deal.reshuffles[1])
    assert not typed_shuffle(deal.commitment, deal.salt, reshuffled, reshuffle=2).holds


def test_text_that_is_no_reveal_is_refused_in_words():
    with pytest.raises(RevealError, match="not a shuffle reveal"):
        read_reveal("hello")
    assert "`file:`" in how_to_verify() and "sealed with" not in how_to_verify()
    assert how_to_verify("5e12" * 16).endswith(f"sealed with `{'5e12' * 16}`")


def test_the_result_says_who_won_and_what_each_paid(deal):
    names = ["Asha", "Ravi", "Meera"]
    line = paid_line(deal, names)
    assert line.startswith(f"**{names[deal.winner]}** wins deal 3.")
    for seat, result in enumerate(deal.seats):
        if seat != deal.winner:
            assert f"{names[seat]} {result.points} point" in line
    assert len(line) < limits.MESSAGE and "commitment" not in line


def test_cards_read_back_whatever_their_case():
    assert typed_shuffle("a" * 64, "00", "as 10h jk").order == tuple(parse_cards("AS 10H JK"))
