"""Example scenes: the golden tests, the benchmark and previews all draw these same pictures.

Run `python -m render.samples [folder]` to write every sample as PNG (default /tmp/rummy-render)
and look at them.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from bot.engine.cards import Card, parse_cards
from render.scenes import (
    GroupKind,
    HandGroup,
    HandScene,
    PaysBecause,
    PlayerResult,
    ReplayScene,
    ReplaySeat,
    ResultScene,
    SeatView,
    StandingsRow,
    StandingsScene,
    TableScene,
)


def group(kind: GroupKind, cards: str, points: int = 0, pays_because: PaysBecause | None = None) -> HandGroup:
    return HandGroup(kind, tuple(parse_cards(cards)), points, pays_because)


def card(code: str) -> Card:
    return parse_cards(code)[0]


HAND_14 = HandScene(
    groups=(
        group("pure_sequence", "5H 6H 7H 8H"),
        group("impure_sequence", "9S 10S JK QS"),
        group("set", "KD KC 7S"),
        group("ungrouped", "AS 2C QD", 22),
    ),
    wild_rank=7,
    picked=14,
    discard=12,
    title="",
)
HAND_13_FOUR_COLOUR = HandScene(
    groups=(
        group("pure_sequence", "AC 2C 3C"),
        group("set", "9D 9S 9H"),
        group("impure_sequence", "4D 5D 6D JK"),
        group("ungrouped", "KS QH JC", 30),
    ),
    wild_rank=4,
    four_colour=True,
)
# No pure sequence yet: every group counts, and the picture says why (issue 26).
HAND_NO_PURE = HandScene(
    groups=(
        group("set", "9S 9D 9C", 27, "no_pure_sequence"),
        group("impure_sequence", "4D 5D JK", 9, "no_pure_sequence"),
        group("set", "KH KC KS", 30, "no_pure_sequence"),
        group("ungrouped", "2H 6C 8S 10H", 26),
    ),
    wild_rank=None,
    title="Points · your hand",
)
# Ready to declare from 14 cards: the solver's discard is the card just picked.
HAND_READY = HandScene(
    groups=(
        group("pure_sequence", "AH 2H 3H 4H"),
        group("pure_sequence", "5S 6S 7S"),
        group("set", "9D 9C 9S"),
        group("impure_sequence", "JD QD JK"),
        group("ungrouped", "8C", 8),
    ),
    wild_rank=3,
    picked=14,
    discard=14,
    ready=True,
    title="Pool 101 · your hand",
)
HAND_UNSORTED = HandScene(
    groups=(group("ungrouped", "3S 8H KC 4D JK 10C 6S AH 9D QC 2H 7S 5C 10D", 92),),
    wild_rank=10,
    picked=3,
    title="Deal 2 · your turn",
)

SEATS = (
    SeatView("Priya", 13, "1,240 chips", status="playing"),
    SeatView("Arjun 🔥🔥", 13, "980 chips", to_act=True),
    SeatView("Bot Kavya", 13, "1,500 chips"),
    SeatView("Mr. Extraordinarily Long Discord Display Name", 0, "560 chips", status="dropped"),
    SeatView("Sam", 0, "out at 104", status="out"),
    SeatView("Meera", 13, "2,020 chips", status="declared"),
)
TABLE = TableScene(
    open_card=card("QH"),
    closed_count=61,
    cut_joker=card("7C"),
    wild_rank=7,
    seats=SEATS,
    title="Pool 101 · Deal 3",
)
TABLE_EMPTY = TableScene(
    open_card=None, closed_count=0, cut_joker=None, wild_rank=None, seats=SEATS[:2], title="Points rummy"
)

# Ten seats, as home rules seat (004): three decks, every picture must stay readable.
TEN_NAMES = (
    "Priya",
    "Arjun 🔥🔥",
    "Bot Kavya",
    "Mr. Extraordinarily Long Discord Display Name",
    "Sam",
    "Meera",
    "Dev",
    "Isha",
    "Computer 3 (strong)",
    "Nila",
)
TABLE_10 = TableScene(
    open_card=card("9S"),
    closed_count=27,
    cut_joker=card("3D"),
    wild_rank=3,
    seats=tuple(
        SeatView(
            name,
            0 if index in (3, 7) else 13,
            f"{(index - 4) * 37 + 5:+,} chips",
            to_act=index == 5,
            status="dropped" if index in (3, 7) else "playing",
        )
        for index, name in enumerate(TEN_NAMES)
    ),
    title="Points · Deal 4",
)

RESULT = ResultScene(
    players=(
        PlayerResult(
            "Priya",
            (
                group("pure_sequence", "5H 6H 7H"),
                HAND_14.groups[1],
                group("set", "AS AH AC"),
                group("set", "KD KC KS"),
            ),
            0,
            winner=True,
            standing="+196 chips",
        ),
        PlayerResult(
            "Arjun 🔥",
            (
                group("pure_sequence", "2D 3D 4D"),
                group("set", "KD KC 7S"),
                group("ungrouped", "AS 2C QD 9H 10H JD 5C", 80),
            ),
            80,
            standing="-80 chips",
        ),
        PlayerResult("Bot Kavya", HAND_13_FOUR_COLOUR.groups, 30, standing="-30 chips"),
        PlayerResult(
            "Mr. Extraordinarily Long Discord Display Name", (), 20, standing="-20 chips", note="dropped"
        ),
    ),
    wild_rank=7,
    title="Deal 3 · Priya declared",
)

RESULT_10 = ResultScene(
    players=(
        RESULT.players[0],
        *(
            PlayerResult(
                name,
                () if index % 3 == 0 else RESULT.players[index % 3].groups,
                10 if index % 3 == 0 else RESULT.players[index % 3].points,
                standing=f"-{10 + index} chips",
                note="first drop" if index % 3 == 0 else "",
            )
            for index, name in enumerate(TEN_NAMES[1:], start=1)
        ),
    ),
    wild_rank=7,
    title="Points · Deal 1 result",
)

STANDINGS = StandingsScene(
    title="Pool 101 · after deal 5",
    rows=(
        StandingsRow("Priya", (0, 12, 34, 0, 20), 66),
        StandingsRow("Arjun 🔥", (40, 0, 2, 30, 8), 80),
        StandingsRow("Bot Kavya", (80, 25, 0, None, None), 105, "out", out=True),
        StandingsRow("Meera", (5, 30, 20, 0, 0), 55),
    ),
    limit=101,
)


STANDINGS_10 = StandingsScene(
    title="Pool 101 · standings",
    rows=tuple(
        StandingsRow(name, scores, total, "out" if total >= 101 else "", out=total >= 101)
        for name, scores in zip(
            TEN_NAMES,
            (
                (0, 12, 34, 0, 20),
                (40, 0, 2, 30, 8),
                (80, 25, None, None, None),
                (10, 10, 10, 40, 2),
                (2, 0, 40, 13, 25),
                (20, 20, 0, 7, 33),
                (40, 40, 25, None, None),
                (5, 2, 14, 40, 0),
                (13, 29, 2, 0, 40),
                (20, 10, 10, 10, 10),
            ),
            strict=True,
        )
        for total in [sum(score or 0 for score in scores)]
    ),
    limit=101,
)


# A league season during night 4: members keep the colour of their first night whatever their
# rank, an adjusted night is marked, and tonight's column counts the tables settled so far.
LEAGUE_STANDINGS = StandingsScene(
    title="Friday Pool · season 2 · provisional",
    rows=(
        StandingsRow("1. Meera", (10, 6, 10, 6), 32, "2 wins", colour=3, marked=(False, True, False, False)),
        StandingsRow("2. Priya", (6, 10, 4, 10), 30, "2 wins", colour=0),
        StandingsRow("3. Arjun", (4, 4, 6, None), 14, "", colour=1),
        StandingsRow("4. Kavya", (3, None, 3, 4), 10, "1 no-show", colour=2),
    ),
    columns=("N1", "N2", "N3", "N4*"),
    notes=(
        "† includes an admin's adjustment (the reason is in /league history)",
        "N4* is tonight so far: provisional until the night is over",
    ),
)


# The same pictures in Hindi, as a Hindi reader gets them: the words drawn in Devanagari (shaped by
# raqm), the titles and standings as the front end words them, one player named in Devanagari.
HINDI_SEATS = (replace(SEATS[0], name="प्रिया", standing="1,240 चिप्स"), *SEATS[1:3], *SEATS[3:])
HAND_14_HI = replace(HAND_14, language="hi")
HAND_NO_PURE_HI = replace(HAND_NO_PURE, title="पॉइंट्स · आपके पत्ते", language="hi")
HAND_READY_HI = replace(HAND_READY, title="पूल 101 · आपके पत्ते", language="hi")
TABLE_HI = replace(TABLE, seats=HINDI_SEATS, title="पूल 101 · डील 3", language="hi")
RESULT_HI = replace(
    RESULT,
    players=(
        replace(RESULT.players[0], name="प्रिया", standing="+196 चिप्स"),
        *RESULT.players[1:3],
        replace(RESULT.players[3], note="ड्रॉप"),
    ),
    title="डील 3 · प्रिया ने डिक्लेयर किया",
    language="hi",
)
STANDINGS_HI = replace(
    STANDINGS,
    title="पूल 101 · डील 5 के बाद",
    rows=tuple(replace(row, status="बाहर" if row.status else "") for row in STANDINGS.rows),
    language="hi",
)
LEAGUE_STANDINGS_HI = replace(
    LEAGUE_STANDINGS,
    title="फ्राइडे पूल · सीज़न 2 · अभी तक",
    rows=tuple(
        replace(row, status=row.status.replace("wins", "जीत").replace("no-show", "बार नहीं आए"))
        for row in LEAGUE_STANDINGS.rows
    ),
    columns=LEAGUE_STANDINGS.columns,
    notes=(
        "† में एडमिन का बदलाव शामिल है (कारण /league history में है)",
        "N4* आज की नाइट है: नाइट खत्म होने तक पक्का नहीं",
    ),
    language="hi",
)
# A replay's frame mid-deal: Arjun has just taken the 7 of hearts from the open pile (lifted),
# Kavya dropped earlier (faded), every hand shown since the deal is over.
REPLAY = ReplayScene(
    seats=(
        ReplaySeat("Priya", (*RESULT.players[0].groups[:3], group("ungrouped", "KD QC")), "13 cards"),
        ReplaySeat(
            "Arjun 🔥🔥",
            (
                group("pure_sequence", "5H 6H 7H 8H"),
                group("impure_sequence", "9S 10S JK QS"),
                group("ungrouped", "AS 2C QD 9H 10H JD", 46),
            ),
            "14 cards",
            "TO ACT",
            acted=True,
            picked=3,
        ),
        ReplaySeat("Bot Kavya", HAND_13_FOUR_COLOUR.groups, "−20 pts", "DROPPED", out=True),
        ReplaySeat("Mr. Extraordinarily Long Discord Display Name", RESULT.players[1].groups, "13 cards"),
    ),
    open_card=card("2D"),
    closed_count=38,
    cut_joker=card("7C"),
    wild_rank=7,
    caption=(
        "Arjun 🔥🔥 picks 7♥ from the open pile.",
        "A long second line that has to wrap inside the panel beside the piles without spilling out.",
    ),
    title="Pool 101 · Deal 3 replay",
    step="Move 41 of 88",
)


# Ten seats: the hands go in racks so the frame still fits a phone's box.
REPLAY_10 = replace(
    REPLAY,
    seats=tuple(
        replace(REPLAY.seats[1], name=name)
        if index == 1
        else replace(REPLAY.seats[(0, 2, 3)[index % 3]], name=name)
        for index, name in enumerate(TEN_NAMES)
    ),
)


def pictures() -> dict[str, bytes]:
    """Every sample rendered, by the name its golden reference has in `tests/render/golden/`."""
    from render import render_hand, render_result, render_standings, render_table
    from render.replay_frame import render_replay

    return {
        "hand_14": render_hand(HAND_14),
        "hand_13_four_colour": render_hand(HAND_13_FOUR_COLOUR),
        "hand_unsorted": render_hand(HAND_UNSORTED),
        "hand_no_pure": render_hand(HAND_NO_PURE),
        "hand_ready": render_hand(HAND_READY),
        "hand_no_pure_hi": render_hand(HAND_NO_PURE_HI),
        "hand_ready_hi": render_hand(HAND_READY_HI),
        "table": render_table(TABLE),
        "table_empty": render_table(TABLE_EMPTY),
        "result": render_result(RESULT),
        "standings": render_standings(STANDINGS),
        "table_10": render_table(TABLE_10),
        "result_10": render_result(RESULT_10),
        "standings_10": render_standings(STANDINGS_10),
        "league_standings": render_standings(LEAGUE_STANDINGS),
        "hand_14_hi": render_hand(HAND_14_HI),
        "table_hi": render_table(TABLE_HI),
        "result_hi": render_result(RESULT_HI),
        "standings_hi": render_standings(STANDINGS_HI),
        "league_standings_hi": render_standings(LEAGUE_STANDINGS_HI),
        "replay": render_replay(REPLAY),
        "replay_10": render_replay(REPLAY_10),
    }


def write_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in pictures().items():
        path = folder / f"{name}.png"
        path.write_bytes(data)
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/rummy-render")):
        print(written, written.stat().st_size // 1024, "KB")
