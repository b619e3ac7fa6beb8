"""The fair shuffle in few words (issue 26): a short seal on the table message, the reveal in a
small text file on the result post, and `/rummy verify`'s answer, checked from that file.

A channel should read as a game, not as hashes: the table message shows the commitment's first
`SEAL_DIGITS` hex digits (128 bits of SHA-256: no one can find a second deck order that starts
the same), and the result post names the winner and what each player paid, with the reveal
attached as a file. The file outlives the table's stored rows, so a deal of any age can be
checked by attaching it (or pasting its text) to `/rummy verify`, or with any sha256 tool: each
`hashed:` line's sha256 is the `commitment:` line above it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card, parse_cards
from bot.engine.commitment import PREFIX, commit, commitment_text
from bot.engine.errors import RummyError
from bot.engine.history import FinishedDeal
from bot.engine.outcomes import Outcome
from bot.i18n import EN, Words
from bot.present.scene_builders import outcome_words

SEAL_DIGITS = 32  # the commitment's hex digits the table message shows: half of SHA-256's
_HEX = re.compile(r"[0-9a-f]+")
_COMMITMENT = re.compile(r"commitment:\s*([0-9a-fA-F]{32,64})\b")
_CARD = r"(?:10|[2-9AJQK])[SHDC]|JK"
# One hashed text: `PREFIX|label|salt|order`, the order's cards up to the first word that is no
# card (a pasted file's lines arrive joined by spaces).
_HASHED = re.compile(
    re.escape(PREFIX) + rf"\|(deal|reshuffle \d+)\|([0-9a-f]+)\|((?:\s*(?:{_CARD})(?![0-9A-Za-z]))+)",
    re.IGNORECASE,
)


class RevealError(RummyError):
    """A pasted or attached reveal that cannot be read."""


@dataclass(frozen=True, slots=True)
class Shuffle:
    """One shuffled deck and the commitment published for it: the deal's own, or a reshuffle."""

    label: str  # "deal", "reshuffle 1"...
    commitment: str  # as given: the full 64 hex digits, or at least the seal's
    salt: str
    order: tuple[Card, ...]

    @property
    def holds(self) -> bool:
        """Whether the commitment is the sha256 of the deck order with its salt (a commitment
        given shorter, as the seal is shown, must be the start of it)."""
        digest = commit(self.salt, self.order, self.label)
        return len(self.commitment) >= SEAL_DIGITS and digest.startswith(self.commitment)


def seal(commitment: str) -> str:
    """The commitment as the table message shows it."""
    return commitment[:SEAL_DIGITS]


def seal_line(commitment: str, _: Words = EN) -> str:
    return _("🔒 shuffle sealed · {seal}…", seal=f"`{seal(commitment)}`")


def reshuffle_seal_line(commitment: str, _: Words = EN) -> str:
    return _("🔒 new closed deck sealed · {seal}…", seal=f"`{seal(commitment)}`")


def reveal_name(number: int) -> str:
    """The reveal file's name on the result post of deal `number`."""
    return f"deal-{number}-shuffle.txt"


def reveal_file(deal: FinishedDeal, _: Words = EN) -> str:
    """The reveal file's text: a few lines saying how to check it (in the reader's words, each
    starting with `#`), then for each deck its commitment and the exact text that was hashed."""
    lines = [
        "# " + _("Deal {number}: the shuffle, revealed after the deal.", number=deal.number),
        "# " + _("Check it: attach this file to /rummy verify."),
        "# " + _("Or with any sha256 tool: each 'hashed:' line's sha256 is the 'commitment:' above it."),
    ]
    decks = [("deal", deal.shoe)]
    decks += [(f"reshuffle {n}", order) for n, order in enumerate(deal.reshuffles, start=1)]
    for label, order in decks:
        hashed = commitment_text(deal.salt, order, label)
        lines += ["", f"commitment: {commit(deal.salt, order, label)}", f"hashed: {hashed}"]
    return "\n".join(lines) + "\n"


def read_reveal(text: str) -> list[Shuffle]:
    """The decks of a reveal file's text, attached or pasted (a pasted text's lines may arrive
    joined by spaces): each `commitment:` with the `hashed:` text after it."""
    commitments = _COMMITMENT.findall(text)
    hashed = _HASHED.findall(text)
    if not hashed or len(commitments) != len(hashed):
        raise RevealError(
            "That is not a shuffle reveal: attach the .txt file from the result post, or paste its text."
        )
    return [
        Shuffle(label.lower(), commitment.lower(), salt.lower(), tuple(parse_cards(order)))
        for commitment, (label, salt, order) in zip(commitments, hashed, strict=True)
    ]


def _deck_name(label: str, _: Words) -> str:
    if label == "deal":
        return _("the deal's deck")
    return _("closed deck {number}", number=label.split()[-1])


def verify_words(shuffles: Sequence[Shuffle], sealed: str | None = None, _: Words = EN) -> str:
    """`/rummy verify`'s answer for these decks; `sealed`, a commitment the player copied from
    the table message before the deal, must be the start of the deal's own."""
    lines = []
    for shuffle in shuffles:
        deck = _deck_name(shuffle.label, _)
        if shuffle.holds:
            lines.append(
                _("✅ {deck}: the order matches its seal, so it was fixed before the deal.", deck=deck)
            )
        else:
            lines.append(_("❌ {deck}: the order does not match its seal.", deck=deck))
    if sealed is not None:
        given = _typed(sealed)
        deal = next((shuffle for shuffle in shuffles if shuffle.label == "deal"), None)
        if len(given) < SEAL_DIGITS or not _HEX.fullmatch(given):
            lines.append(
                _("The seal you gave is too short: copy at least {digits} hex digits.", digits=SEAL_DIGITS)
            )
        elif deal is not None and deal.commitment.startswith(given[: len(deal.commitment)]):
            lines.append(_("✅ It is the seal you copied from the table before the deal."))
        else:
            lines.append(_("❌ It is not the seal you copied."))
    return "\n".join(lines)


def typed_shuffle(commitment: str, salt: str, order: str, reshuffle: int = 0) -> Shuffle:
    """A deck typed into `/rummy verify` option by option."""
    label = f"reshuffle {reshuffle}" if reshuffle else "deal"
    return Shuffle(label, _typed(commitment), salt.strip().lower(), tuple(parse_cards(order)))


def _typed(commitment: str) -> str:
    """A commitment as a player pastes it: perhaps in backticks or ending in "…", as shown."""
    return commitment.strip("`…. \n").lower()


def how_to_verify(playing: str | None = None, _: Words = EN) -> str:
    """`/rummy verify` given nothing to check: how to check a deal, and the whole commitment of
    the deal `playing` here now (the table message shows its start), to copy."""
    how = _(
        "Each deal's shuffle is sealed before the first card: the table message shows its seal. "
        "After the deal, the result post has a .txt file with the deck order: attach it here "
        "(`file:`), or paste its text (`reveal:`). I check that the order matches the seal."
    )
    if playing is None:
        return how
    return how + "\n" + _("The deal being played here is sealed with {commitment}", commitment=f"`{playing}`")


def paid_line(deal: FinishedDeal, names: Sequence[str], _: Words = EN) -> str:
    """Who won the deal and what each other player paid: `Asha wins deal 3. Ravi 40 · Meera 20
    (first drop)`. `names` are ready to show (escaped by the caller)."""
    won = _("**{name}** wins deal {number}.", name=names[deal.winner], number=deal.number)
    paid = []
    for seat, result in enumerate(deal.seats):
        if seat == deal.winner or result.sat_out:
            continue
        points = _.n("{count} point", "{count} points", result.points)
        why = "" if result.outcome in (None, Outcome.HAND) else f" ({outcome_words(result.outcome, _)})"
        paid.append(f"{names[seat]} {points}{why}")
    if not paid:
        return won
    return won + " " + _("Paid: {paid}", paid=" · ".join(paid))
