"""A shard holder's own clock of its lease (`LeaseClock`), on a fake monotonic clock: it holds
until the lease less a margin of `max(2 s, lease / 5)` after the last confirmed renewal was
sent, and never again once that has passed."""

from __future__ import annotations

import pytest

from bot.store.leases import LeaseClock


class FakeMonotonic:
    def __init__(self) -> None:
        self.at = 1000.0

    def __call__(self) -> float:
        return self.at


@pytest.mark.parametrize(("lease", "holds_for"), [(5, 3.0), (10, 8.0), (30, 24.0), (60, 48.0)])
def test_the_lease_ends_a_margin_before_the_database_would_end_it(lease, holds_for):
    now = FakeMonotonic()
    clock = LeaseClock(lease, now)
    clock.renewed(now.at)
    now.at += holds_for - 0.001
    assert clock.holds()
    now.at += 0.001
    assert not clock.holds()


def test_it_holds_from_the_last_renewal_sent_not_the_last_one_answered():
    now = FakeMonotonic()
    clock = LeaseClock(30, now)
    clock.renewed(1000.0)
    clock.renewed(1010.0)  # sent at 1010, confirmed later
    assert clock.holds(1033.9) and not LeaseClock(30, now).holds(1033.9)
    assert not clock.holds(1034.0)


def test_a_renewal_confirmed_late_does_not_shorten_the_lease():
    now = FakeMonotonic()
    clock = LeaseClock(30, now)
    clock.renewed(1010.0)
    clock.renewed(1005.0)  # an earlier renewal's answer, read after the later one's
    assert clock.holds(1033.9)


def test_nothing_holds_before_the_first_renewal():
    now = FakeMonotonic()
    clock = LeaseClock(30, now)
    assert not clock.holds()
    clock.renewed(now.at)  # the leases taken
    assert clock.holds()


def test_once_ended_it_never_holds_again_whatever_is_confirmed_later():
    """The process may have stopped sending and begun to shut down: a renewal sent before the end
    and confirmed after it (a loop that stalled in between) gives nothing back."""
    now = FakeMonotonic()
    clock = LeaseClock(5, now)
    clock.renewed(1000.0)
    now.at = 1003.5
    assert not clock.holds()
    clock.renewed(1002.9)
    assert not clock.holds() and not clock.holds(1003.0)
