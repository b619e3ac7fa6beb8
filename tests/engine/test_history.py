"""A match's history as typed records (`bot.engine.history`, typed logs): a finished deal writes
back exactly the record the deal stored, every stored form reads, old ones included (a match
written before deals kept their picks, clock, leavers and stakes: tests/data/before_stakes_match.json,
made by that release's code, see tests/data/make_before_stakes_match.py), and a log reads typed."""

import dataclasses
import json
import random
from pathlib import Path

import pytest
from deal_helpers import ended_deal, random_command

from bot.engine.commands import BadCommandError, Command, Pick, Source, read_log, read_logged
from bot.engine.commitment import verify
from bot.engine.deal import Deal, SeatStatus
from bot.engine.errors import CorruptTableError
from bot.engine.history import FinishedDeal
from bot.engine.match import Match
from bot.engine.replay import replay_deal
from bot.engine.rules import Rules

BEFORE_STAKES = Path(__file__).resolve().parents[1] / "data" / "before_stakes_match.json"


@pytest.mark.parametrize("seed", range(8))
def test_a_finished_deal_writes_back_exactly_the_record_the_deal_stores(seed):
    rules = Rules.PRESETS[Rules.PRESET_NAMES[seed % 4]]
    deal = ended_deal(seed, rules)
    record = FinishedDeal.of(deal, 3)
    stored = json.loads(json.dumps(deal.to_json()))
    assert record.to_json() == deal.to_json() == stored
    assert FinishedDeal.from_json(stored, 3) == record and not record.old_form
    assert record.winner == deal.winner and record.rules is deal.rules
    assert [seat.points for seat in record.seats] == [seat.points for seat in deal.seats]
    assert record.commitment == deal.commitment and verify(record.commitment, record.salt, record.shoe)
    assert record.log == tuple(deal.log) and all(isinstance(command, Command) for command in record.log)


def test_a_finished_deal_is_a_value_made_of_shared_cards_and_commands():
    record = FinishedDeal.from_json(ended_deal(1).to_json(), 1)
    again = FinishedDeal.from_json(ended_deal(1).to_json(), 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.winner = 2  # type: ignore[misc]
    assert all(a is b for a, b in zip(record.shoe, again.shoe, strict=True))
    assert all(a is b for a, b in zip(record.log, again.log, strict=True) if a == b and a.NAME != "declare")
    containers = [value for field in dataclasses.fields(record) for value in [getattr(record, field.name)]]
    assert not any(isinstance(value, dict | list) for value in containers)


def test_a_record_that_is_not_a_finished_deal_is_refused_as_corrupt():
    rng = random.Random(5)
    deal, _ = Deal.start(2, Rules(), rng)
    deal.apply(random_command(deal, rng, 0.0))
    with pytest.raises(CorruptTableError, match="has not ended"):
        FinishedDeal.from_json(deal.to_json(), 1)
    stored = ended_deal(2).to_json()
    for damage in (
        {"seats": [{**seat, "points": None} for seat in stored["seats"]]},
        {"shoe": stored["shoe"].split()},
        {"log": [*stored["log"], {"command": "fly", "seat": 0}]},
        {"log": [*stored["log"], "pick"]},
        {"players": 4},
    ):
        with pytest.raises(CorruptTableError, match="finished deal 2 cannot be read"):
            FinishedDeal.from_json({**stored, **damage}, 2)
    # Rows of cards are read when asked for: a replay refuses one that does not read.
    unreadable = FinishedDeal.from_json({**stored, "shoe": "XX " + stored["shoe"]}, 2)
    with pytest.raises(CorruptTableError, match="does not replay"):
        replay_deal(unreadable)


def test_a_match_written_before_deals_kept_their_stakes_loads_replays_and_writes_back_as_stored():
    stored = json.loads(BEFORE_STAKES.read_text())
    match = Match.from_json(stored)
    assert [deal.number for deal in match.finished_deals] == [1, 2, 3] and match.winner == 0
    for deal, raw in zip(match.finished_deals, stored["finished_deals"], strict=True):
        assert deal.old_form and "stakes" not in raw and "picks" not in raw["seats"][0]
        # As stored, but for the rules, which read into today's form (no `printed_jokers` flag).
        assert deal.to_json() == {**raw, "rules": deal.rules.to_json()} and "printed_jokers" in raw["rules"]
        assert deal.rules == Rules.from_json(raw["rules"]) and deal.rules.printed_jokers_per_deck == 1
        assert deal.seats[deal.winner].outcome == "won" and deal.stakes is None
        replay = replay_deal(deal)  # it compares what the old form holds
        assert replay.result.points == tuple(seat.points for seat in deal.seats)
    assert Match.from_json(match.to_json()) == match
    replayed = Match.replay(stored)
    assert replayed.standings == match.standings and replayed.seat_status == match.seat_status
    pairs = zip(replayed.finished_deals, match.finished_deals, strict=True)
    assert [deal.as_stored_like(old) for deal, old in pairs] == match.finished_deals


def test_a_match_started_over_deals_as_it_dealt_and_plays_its_log_again():
    stored = json.loads(BEFORE_STAKES.read_text())
    match = Match.from_json(stored)
    again = match.restarted()
    assert again.finished_deals == [] and len(again.log) == 0
    for command in match.log:
        again.apply(command)
    assert again.standings == match.standings and again.winner == match.winner
    assert [deal.shoe for deal in again.finished_deals] == [deal.shoe for deal in match.finished_deals]
    sat_out = [seat.status is SeatStatus.SITTING_OUT for seat in again.finished_deals[-1].seats]
    assert sat_out == [seat.sat_out for seat in match.finished_deals[-1].seats]


def test_a_stored_log_reads_each_shared_entry_once_and_a_match_reads_its_deals_from_it():
    stored = json.loads(BEFORE_STAKES.read_text())
    entries = stored["log"]
    log = read_log(entries)
    assert log == [read_logged(entry) for entry in entries] and read_log(entries) == log
    assert all(a is b for a, b in zip(read_log(entries), log, strict=True))
    match = Match.from_json(stored)
    # Each finished deal's commands are the very ones of the match's log, read from it once.
    logged = {id(command) for command in match.log}
    assert all(id(command) in logged for deal in match.finished_deals for command in deal.log)
    with pytest.raises(BadCommandError):
        read_log([*entries, "pick"])


def test_equal_logged_entries_read_as_one_command_and_a_seat_of_another_type_is_still_refused():
    entry = {"command": "pick", "seat": 1, "source": "closed"}
    assert read_logged(entry) is read_logged(dict(entry)) == Pick(1, Source.CLOSED)
    for seat in (True, 1.0):  # equal to 1 as a key would be, but not a seat
        with pytest.raises(BadCommandError, match="is not a seat"):
            read_logged({**entry, "seat": seat})
