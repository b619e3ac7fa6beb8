"""The solver's answer, `Arrangement`: a frozen record whose groups may be laid out only when
first read, since scoring needs the points alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError
from typing import Any

from bot.engine.cards import Card
from bot.engine.melds import Meld


class Arrangement:
    """The solver's answer. `points` is what the hand is charged (after the cap); for a 14-card
    hand everything describes the 13 cards left after `discard`.

    It behaves as a frozen dataclass of (valid, points, groups, ungrouped, discard): same
    constructor, equality, hash and repr. It is written out by hand for one reason: `groups`
    and `ungrouped` may be laid out only when first read. Scoring needs the points alone, and
    for most hands (those with no possible life) the melds shown cost several times more to
    find than the points, so a caller that never looks at them never pays for them."""

    __slots__ = ("_groups", "_lay_out", "_ungrouped", "discard", "points", "valid")
    __match_args__ = ("valid", "points", "groups", "ungrouped", "discard")

    valid: bool
    points: int
    discard: Card | None
    _groups: tuple[Meld, ...]
    _ungrouped: tuple[Card, ...]
    _lay_out: Callable[[], tuple[tuple[Meld, ...], tuple[Card, ...]]] | None

    def __init__(
        self,
        valid: bool,
        points: int,
        groups: tuple[Meld, ...],
        ungrouped: tuple[Card, ...],
        discard: Card | None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "valid", valid)
        _set(self, "points", points)
        _set(self, "discard", discard)
        _set(self, "_groups", groups)
        _set(self, "_ungrouped", ungrouped)
        _set(self, "_lay_out", None)

    @classmethod
    def _deferred(
        cls,
        valid: bool,
        points: int,
        discard: Card | None,
        lay_out: Callable[[], tuple[tuple[Meld, ...], tuple[Card, ...]]],
    ) -> Arrangement:
        """An answer whose groups come from `lay_out()` when first read."""
        arrangement = cls(valid, points, (), (), discard)
        object.__setattr__(arrangement, "_lay_out", lay_out)
        return arrangement

    def _laid_out(self) -> None:
        lay_out = self._lay_out
        if lay_out is not None:
            groups, ungrouped = lay_out()
            object.__setattr__(self, "_groups", groups)
            object.__setattr__(self, "_ungrouped", ungrouped)
            object.__setattr__(self, "_lay_out", None)  # lets the search behind it go

    @property
    def groups(self) -> tuple[Meld, ...]:
        self._laid_out()
        return self._groups

    @property
    def ungrouped(self) -> tuple[Card, ...]:
        self._laid_out()
        return self._ungrouped

    def _fields(self) -> tuple[Any, ...]:
        return self.valid, self.points, self.groups, self.ungrouped, self.discard

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        valid, points, groups, ungrouped, discard = self._fields()
        return (
            f"Arrangement(valid={valid!r}, points={points!r}, groups={groups!r}, "
            f"ungrouped={ungrouped!r}, discard={discard!r})"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return Arrangement, self._fields()
