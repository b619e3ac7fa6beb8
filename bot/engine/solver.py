"""The best arrangement of a hand: the fewest points it can be charged, found exactly.

Every losing hand of every deal is scored with this, and computer players call it for each
possible discard, so it has to be exact and fast in pure Python. The search splits the hand
the way the rules split it:

* Runs live inside one suit. Each suit is solved on its own by a memoised search over its
  rank counts (`_suit_table`), giving a small Pareto table of what the suit can reach:
  (net jokers used, life flags) -> least deadwood. Tables are keyed by the suit's counts only
  (never by its letter), so one table serves all four suits and every later hand. What keeps
  a long suit with several jokers fast: the points search tries only short runs (longer ones
  are never needed, `_SPAN_POINTS`), a table holds only what could beat the price a search
  must beat (`_suit_table`), the moves from each state are shared (`_moves`) and their runs
  read from tables made at import (`_shapes`), a suit is searched from its high cards down
  with its Aces at the far end (`_at`), and where the rules allow it a suit keeps only one
  card of the wild rank in its counts (`_one_wild`). Where only the Aces link a suit's low
  cards to its high ones, the tables a hand's search starts from are made from the two apart
  (`_linked`), so that a set or a discard that takes a low card does not search the high ones
  again.
* Sets span suits but few ranks can form one, so the solver enumerates which cards go into
  sets (`_set_options`) and, for each choice, convolves the four suit tables.
* Jokers are one shared pool: printed jokers plus every wild-rank card. A wild-rank card sits
  in its suit's counts so it can be itself inside a run (keeping the run pure); when the suit
  does not use it that way it is released to the pool, which shows as -1 joker in the table.
* A 14-card hand chooses its discard. Which discards could leave a show is one search with
  the discard as a move (`_discard_table`); the points each other discard leaves are searched
  one by one, each only for what would beat the best so far (`best_arrangement`).

Points only need the fewest jokers a meld can take (spare jokers cost nothing). A declaration
must place every joker, so validity is checked separately on the winning arrangement, and only
when that fails (rare rule combinations) by an exact search over joker counts (exact mode).

Scoring needs the points only, so the groups an answer shows are laid out when first read
(`Arrangement.groups`). That matters most for the three hands in four that cannot hold a life:
their points are every card, found without any search, while the melds they show (the least
deadwood) take a search of their own.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import FrozenInstanceError, dataclass
from functools import cached_property, partial
from typing import Any, Generic, TypeVar

from bot.engine.cards import ACE, JOKER, JOKER_RANK, KING, SUITS, Card, Suit, card_points, is_wild
from bot.engine.errors import RulesError
from bot.engine.melds import (
    HIGH_ACE,
    LONG_LIFE,
    MAX_SEQUENCE,
    STANDARD_RULES,
    GroupKind,
    Meld,
    life_met,
    make_meld,
    uncapped_points,
    wild_rank_of,
)
from bot.engine.rules import CARDS_PER_HAND, Rules


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


# ------------------------------------------------------------------------- life flags
# A partial arrangement is summarised by (pure sequence seen, sequences seen capped at 2,
# a 4+ card sequence seen), packed in a small int so tables can index by it.

_CODES = range(12)


def _code(pure: int, sequences: int, long: int) -> int:
    return pure + 2 * sequences + 6 * long


def _decode(code: int) -> tuple[int, int, int]:
    return code % 2, code // 2 % 3, code // 6


def _combined(a: int, b: int) -> int:
    pa, sa, la = _decode(a)
    pb, sb, lb = _decode(b)
    return _code(pa | pb, min(2, sa + sb), la | lb)


_COMBINE = [[_combined(a, b) for b in _CODES] for a in _CODES]
# _ADD_SEQ[pure + 2 * long] maps a code to the code after one more sequence of that kind.
_ADD_SEQ = [[_COMBINE[code][_code(pure, 1, long)] for code in _CODES] for long in (0, 1) for pure in (0, 1)]
# _BELOW[a]: the codes `a` is at least as good as (it has every flag they have).
_BELOW = [
    [b for b in _CODES if all(x >= y for x, y in zip(_decode(a), _decode(b), strict=True))] for a in _CODES
]
_LEVEL = [sum(_decode(code)) for code in _CODES]
_HAS_PURE = [bool(code % 2) for code in _CODES]
_ANY_CODE = [True] * len(_CODES)


_PIPS_BY_POSITION = tuple(min(10, 15 - position) for position in range(2, 14))


def _position_points(ace: int) -> tuple[int, ...]:
    """Penalty points by position (see `_at`: King 2 .. Two 13, an Ace 1 or 14), for cards that
    are not wild."""
    return (0, ace, *_PIPS_BY_POSITION, ace)


# A suit's cards are one int: 3 bits per position (1..14) hold how many of that card the suit
# has. Ints hash and subtract in one step, which is what the memo keys and set choices need.
_BITS = 3
_MAX_COPIES = (1 << _BITS) - 1
_ONE = tuple(1 << (_BITS * position) for position in range(HIGH_ACE + 1))
_LOWEST_BITS = sum(_ONE)  # the lowest bit of every position's count


def _count(counts: int, position: int) -> int:
    return counts >> (_BITS * position) & _MAX_COPIES


# A table entry is (net jokers, life code, deadwood).
Entry = tuple[int, int, int]
_E = TypeVar("_E", bound=tuple[int, ...])  # an entry, or one that carries its picks after it
_EMPTY_ENTRIES: tuple[Entry, ...] = ((0, 0, 0),)
# A suit's table with what pruning needs at hand: (entries, least deadwood, has a pure run,
# fewest net jokers, bound), where the entries are those with less deadwood than the bound
# (see `_suit_table`).
Table = tuple[Sequence[Entry], int, bool, int, int]
_UNBOUNDED = 1 << 30
_SMALL_BOUND = 8  # bounds below it fit in a memo key's lowest bits (position 0 holds no card)
_EMPTY_TABLE: Table = (_EMPTY_ENTRIES, 0, False, 0, _UNBOUNDED)
_NO_TABLE: Table = ((), 1 << 30, False, 1 << 30, _UNBOUNDED)  # cards that cannot all be melded (exact mode)

_K = TypeVar("_K")
_V = TypeVar("_V")


class _Memo(Generic[_K, _V]):
    """A process-wide memo that stays within `limit` * 2 entries yet keeps what is in use.

    Entries go into a young generation; when it is full it becomes the old one (the previous
    old one is dropped, with whatever no search asked for since) and a new young one starts.
    A hit in the old generation is copied into the young one, so the tables every hand needs
    (small suits, which all hands share) survive every turnover, while the one-off tables of
    long suits age out. That is LRU-like at no cost on a young hit (a plain dict lookup), which
    is what most lookups are; a plain LRU would pay for its bookkeeping on every hit."""

    __slots__ = ("limit", "old", "young")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.young: dict[_K, _V] = {}
        self.old: dict[_K, _V] = {}

    def get(self, key: _K) -> _V | None:
        value = self.young.get(key)
        if value is None:
            value = self.old.get(key)
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: _K, value: _V) -> None:
        if len(self.young) >= self.limit:
            self.old = self.young
            self.young = {}
        self.young[key] = value

    def clear(self) -> None:
        self.young = {}
        self.old = {}

    def __len__(self) -> int:
        return len(self.young) + len(self.old)


# Limits per generation, sized from measured bytes per entry (~340 for a table, ~285 for a
# traceback, ~1,100 for a rank's set choices) so that all three stay under ~30 MB together
# (two generations each), leaving room in a 50 MB budget for melds' layouts, the moves and
# discard memos below (~360 bytes per discard table: ~3 MB at most) and the computer players'
# cache of answers.
_POINTS_MEMO: _Memo[int, Table] = _Memo(24_576)
_SET_MEMO: _Memo[tuple[Any, ...], list[tuple[Any, ...]]] = _Memo(2_048)
_TRACE_MEMO: _Memo[tuple[int, Entry, bool], tuple[Any, ...]] = _Memo(16_384)


def _config(
    one_joker: bool,
    four_life: bool,
    lone_set: bool,
    track: bool,
    exact: bool,
    max_set: int,
    triplet: bool,
    ace: int,
) -> tuple[Any, ...]:
    """A search's settings (see `_suit_table`), with the same packed into an int, then the
    points by position for the Ace's worth, and last whether one card of the wild rank being
    itself is all a suit needs (`_one_wild`): the memos are keyed by ints, which hash in one
    step where a nested tuple is hashed anew on every lookup (and they add no container for the
    garbage collector to walk)."""
    bits = (
        one_joker | four_life << 1 | lone_set << 2 | track << 3 | exact << 4 | max_set << 5 | triplet << 9
    ) | ace << 10
    one_wild = not (one_joker or four_life or exact or triplet)
    return (
        one_joker,
        four_life,
        lone_set,
        track,
        exact,
        max_set,
        triplet,
        bits << 45,
        _position_points(ace),
        one_wild,
    )


def _memo_key(counts: int, wild_position: int, jokers: int, config: tuple[Any, ...]) -> int:
    """One int for a suit search: counts in bits 0-44, settings in 45-58, the wild position in
    59-62, and the joker pool (which has no fixed bound) above."""
    bits: int = config[7]
    return counts | bits | wild_position << 59 | jokers << 63


# ------------------------------------------------------------------------- one suit


def _is_wild_position(position: int, wild_position: int) -> bool:
    """Whether the card at `position` is wild: an Ace (kept at 14) is wild at 1 too."""
    return position == wild_position or (wild_position == HIGH_ACE and position == ACE)


# The longest stretch (lowest to highest natural) a run needs when only the points are sought:
# a longer run can always be split into shorter ones, or lose a wild card being itself to the
# joker pool, with no more jokers and life flags as good (two sequences where there was one,
# a pure part where the run was pure, a 4+ card part where the run was one and that flag is
# tracked). So such a run never leaves less than the shorter runs do, and the search need not
# try it; without the cap a suit of ten or more cards with a few jokers has thousands of runs
# to try from each card (every subset of the cards above it). `tests/engine/test_solver.py` checks
# the claim on every run the search can make. Shows (exact mode) still try every length,
# since a long run is room for spare jokers.
_SPAN_POINTS = 5
_SPAN_LONG_LIFE = 6  # where a 4+ card sequence is tracked (the four-card life)


def _runs(
    x: int, counts: int, jokers: int, wild_position: int, one_joker: bool, span: int = MAX_SEQUENCE
) -> list[tuple[tuple[int, ...], int, int]]:
    """Every run whose lowest natural card, but for an Ace played at position 1, sits at `x` and
    whose naturals span at most `span` positions, as (natural positions, fewest substitutes,
    natural count): first those from `x` up, then, where an Ace waits at 14 (see `_at`), those
    that play it at 1, below `x`. `counts` no longer holds the card at `x`. Naturals may skip a
    card the suit holds (a joker takes its place) because that card may be needed elsewhere."""
    max_gap = min(jokers, 1) if one_joker else jokers
    if span in _SHAPES:
        up, down = _shape_runs(x, counts, max_gap, wild_position, span)
        return [(tuple(x + offset for offset in run[0]), run[1], run[2]) for run in up] + [
            run[:3] for run in down
        ]
    found: list[tuple[tuple[int, ...], int, int]] = []
    _runs_up(found, x, (x,), 0, min(HIGH_ACE, x + span - 1), counts, max_gap, wild_position)
    if _ace_below(x, counts, max_gap, span):
        _runs_up(found, ACE, (ACE, x), x - 2, min(MAX_SEQUENCE, span), counts, max_gap, wild_position)
    return found


def _ace_below(x: int, counts: int, max_gap: int, span: int) -> bool:
    """Whether a run from `x` may play an Ace (held at 14) at 1, below `x`."""
    return (
        ACE < x <= span
        and x < HIGH_ACE
        and x - 2 <= max_gap
        and bool(counts >> (_BITS * HIGH_ACE) & _MAX_COPIES)
    )


def _shape_runs(
    x: int, counts: int, max_gap: int, wild_position: int, span: int
) -> tuple[list[Shape], list[Shape]]:
    """`_runs` for the points search, from the tables made at import: the runs up from `x`
    (relative to it) and those that play an Ace at 1 below it (where they sit)."""
    above = counts >> (_BITS * x + _BITS)
    present = sum(1 << i for i in range(span - 1) if above >> (_BITS * i) & _MAX_COPIES)
    wild = wild_position - x if x <= wild_position < x + span else span
    gaps = min(max_gap, span - 2)
    up = _SHAPES[span][present][wild][gaps]
    if not _ace_below(x, counts, max_gap, span):
        return up, []
    present &= (1 << (span - x)) - 1  # the Ace's runs reach `span` at most
    wild = ACE if wild_position == HIGH_ACE else wild_position if x <= wild_position <= span else 0
    return up, _ACE_SHAPES[span][x][present][wild][gaps]


def _runs_up(
    found: list[tuple[tuple[int, ...], int, int]],
    low: int,
    chosen: tuple[int, ...],
    gaps: int,
    top: int,
    counts: int,
    max_gap: int,
    wild_position: int,
) -> None:
    """Adds to `found` the runs from `low` that hold the naturals `chosen` (`gaps` missing among
    them) and any of the cards `counts` holds above them up to `top`, in depth-first order (a
    run before the longer ones that extend it). Plain calls appending to one list: this runs
    for every state a cold search meets, and a nest of generators cost twice as much."""
    available = [p for p in range(chosen[-1] + 1, top + 1) if counts >> (_BITS * p) & _MAX_COPIES]
    wild = [_is_wild_position(p, wild_position) for p in available]
    count = len(available)

    def extend(chosen: tuple[int, ...], start: int, gaps: int, natural: bool) -> None:
        if natural:
            size = len(chosen)
            substitutes = max(3, chosen[-1] - low + 1) - size
            if substitutes <= max_gap:
                found.append((chosen, substitutes, size))
        last = chosen[-1]
        for index in range(start, count):
            position = available[index]
            more = gaps + position - last - 1
            if more > max_gap:
                break
            extend((*chosen, position), index + 1, more, natural or not wild[index])

    extend(chosen, 0, gaps, any(not _is_wild_position(p, wild_position) for p in chosen))


# A run in the tables made at import: (naturals, fewest substitutes, natural count, the cards
# it takes beyond its lowest natural, as counts).
Shape = tuple[tuple[int, ...], int, int, int]


def _shapes(span: int) -> list[list[list[list[Shape]]]]:
    """The runs from a card with no Ace below it, relative to that card, for every pattern of
    the `span` - 1 positions above it (held or not), wild position (an offset, or `span` for
    none) and number of gaps a run may have (more than `span` - 2 allow no more runs): made
    once at import, so that a cold search finds its runs by lookup (`_runs`). Fewer gaps or a
    wild card keep a subset of the runs, in the same order: those with no more gaps and
    substitutes than allowed, and a natural that is not wild."""
    base = HIGH_ACE - span  # room above for the whole span, and no Ace below
    most = span - 2
    shapes = []
    for present in range(1 << (span - 1)):
        counts = sum(_ONE[base + 1 + i] for i in range(span - 1) if present >> i & 1)
        found: list[tuple[tuple[int, ...], int, int]] = []
        _runs_up(found, base, (base,), 0, base + span - 1, counts, most, 0)
        runs = [
            (tuple(p - base for p in chosen), substitutes, size, sum(_ONE[p - base] for p in chosen[1:]))
            for chosen, substitutes, size in found
        ]
        shapes.append(
            [
                [
                    [
                        run
                        for run in runs
                        if run[1] <= gaps
                        and run[0][-1] + 1 - run[2] <= gaps
                        and any(offset != wild for offset in run[0])
                    ]
                    for gaps in range(most + 1)
                ]
                for wild in range(span + 1)
            ]
        )
    return shapes


_SHAPES = {span: _shapes(span) for span in (_SPAN_POINTS, _SPAN_LONG_LIFE)}


def _ace_shapes(span: int) -> list[list[list[list[list[Shape]]]]]:
    """The runs that play an Ace at 1 below the card at `x` (2 to `span`), by `x`, pattern of
    the positions from `x` + 1 to `span` held, wild position (0 none, 1 the Ace, else the
    position) and gaps allowed, the same way as `_shapes` (positions here are where they sit)."""
    most = span - 2
    shapes: list[list[list[list[list[Shape]]]]] = [[], []]
    for x in range(2, span + 1):
        by_present = []
        for present in range(1 << (span - x)):
            counts = sum(_ONE[x + 1 + i] for i in range(span - x) if present >> i & 1)
            found: list[tuple[tuple[int, ...], int, int]] = []
            _runs_up(found, ACE, (ACE, x), x - 2, span, counts, most, 0)
            runs = [(*run, _ONE[HIGH_ACE] + sum(_ONE[p] for p in run[0][2:])) for run in found]
            by_present.append(
                [
                    [
                        [
                            run
                            for run in runs
                            if run[1] <= gaps
                            and run[0][-1] - run[2] <= gaps
                            and any(p != wild for p in run[0])
                        ]
                        for gaps in range(most + 1)
                    ]
                    for wild in range(span + 1)
                ]
            )
        shapes.append(by_present)
    return shapes


_ACE_SHAPES = {span: _ace_shapes(span) for span in (_SPAN_POINTS, _SPAN_LONG_LIFE)}


def _without(counts: int, positions: Sequence[int]) -> int:
    for position in positions:
        counts -= _ONE[position]
    return counts


def _first_card(counts: int) -> int:
    """The lowest position holding a card (0 for none)."""
    return ((counts & -counts).bit_length() - 1) // _BITS if counts else 0


def _options(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...]
) -> Iterator[tuple[int, int, list[int] | None, int, Any]]:
    """What the card at the lowest position `x` can do, as (counts left, net jokers, life-code
    map, deadwood, group descriptor): be left out (a wild card is released to the pool), be
    the lowest natural of a run, be a lone card with jokers as a set (only where runs may not
    take two jokers, and in a show a wild card being itself, to hold spare jokers).

    The table builder and the traceback both read this, so they cannot disagree. In exact
    mode (declarations) no natural card is left out, and runs and lone sets take every number
    of spare jokers they can hold, so that every joker of a show has a place."""
    one_joker, four_life, _, _, exact, _, _, _, _, _ = config
    rest = counts - _ONE[x]
    span = MAX_SEQUENCE if exact else _SPAN_LONG_LIFE if four_life else _SPAN_POINTS
    yield from _alone(counts, x, wild_position, jokers, config)
    longest = min(jokers, 1) if one_joker else jokers
    for chosen, substitutes, size in _runs(x, rest, jokers, wild_position, one_joker, span):
        left = _without(rest, chosen[1:]) if chosen[0] == x else _without(rest - _ONE[HIGH_ACE], chosen[2:])
        for extra, add in _run_kinds(substitutes, size, longest, config):
            yield left, extra, add, 0, ("run", chosen, extra)


def _alone(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...]
) -> Iterator[tuple[int, int, list[int] | None, int, Any]]:
    """The options of `_options` where the card at `x` joins no run."""
    _, _, lone_set, track, exact, max_set, triplet, _, points, _ = config
    rest = counts - _ONE[x]
    if triplet and _count(rest, x) >= 2:  # three identical cards: a pure sequence of their own
        yield rest - 2 * _ONE[x], 0, _ADD_SEQ[1] if track else None, 0, ("triplet", x)
    if _is_wild_position(x, wild_position):
        yield rest, -1, None, 0, ("free", x)
        if exact:  # a show may place spare jokers in a set where this card is itself
            for extra in range(2, min(jokers, max_set - 1) + 1):
                yield rest, extra, None, 0, ("lone", x, extra)
    else:
        if not exact:
            yield rest, 0, None, points[x], ("loose", x)
        if lone_set:
            for extra in range(2, min(jokers, max_set - 1 if exact else 2) + 1):
                yield rest, extra, None, 0, ("lone", x, extra)


def _run_kinds(
    substitutes: int, size: int, longest: int, config: tuple[Any, ...]
) -> list[tuple[int, list[int] | None]]:
    """The jokers a run of `size` naturals may take, each with its life-code map: in exact mode
    every number it can hold; else the fewest, and where the four-card life is tracked one
    more where that makes a three-card run a four-card one."""
    four_life, track, exact = config[1], config[3], config[4]
    if exact:
        return [
            (extra, _ADD_SEQ[(extra == 0) + 2 * (size + extra >= LONG_LIFE)])
            for extra in range(substitutes, min(longest, MAX_SEQUENCE - size) + 1)
        ]
    length = size + substitutes
    if not track:
        return [(substitutes, None)]
    kinds: list[tuple[int, list[int] | None]] = [
        (substitutes, _ADD_SEQ[(substitutes == 0) + 2 * (four_life and length >= LONG_LIFE)])
    ]
    if four_life and length == 3 and substitutes < longest:
        kinds.append((substitutes + 1, _ADD_SEQ[2]))
    return kinds


def _entry_order(entry: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Fewest jokers, then least deadwood, then the most life flags, and last the code itself:
    a total order, so that a table lists its entries the same way whatever order they were
    found in (a table made under a lower bound finds them in another order, see `_suit_table`),
    and an answer never depends on what the memos held before."""
    return entry[0], entry[2], -_LEVEL[entry[1]], entry[1]


def _pareto(candidates: dict[int, _E]) -> Sequence[_E]:
    """Drops every entry another beats on all counts: no more jokers, no weaker life flags,
    no more deadwood. Entries come out sorted by jokers (callers rely on it to stop early)."""
    if len(candidates) == 1:
        return tuple(candidates.values())
    beaten = [1 << 30] * 12  # beaten[c]: least deadwood kept so far with flags at least c's
    kept: list[_E] = []
    for entry in sorted(candidates.values(), key=_entry_order):
        deadwood = entry[2]
        if beaten[entry[1]] <= deadwood:
            continue
        kept.append(entry)
        for code in _BELOW[entry[1]]:
            if deadwood < beaten[code]:
                beaten[code] = deadwood
    return tuple(kept)


def _prune(candidates: dict[int, Entry], exact: bool) -> Sequence[Entry]:
    """Exact tables keep every joker count (a show must place them all); others keep the front."""
    if exact:
        return tuple(sorted(candidates.values()))
    return _pareto(candidates)


def _suit_table(
    counts: int,
    wild_position: int,
    jokers: int,
    config: tuple[Any, ...],
    bound: int = _UNBOUNDED,
    apart: bool = False,
) -> Table:
    """The table of one suit: for each (net jokers, life code), the least deadwood; in exact
    mode, every (net jokers, life code) reachable with every natural card melded. Entries are
    plain int triples, so the memo holds nothing the garbage collector has to walk; the groups
    behind an entry are found again by `_trace` when an answer is laid out. `config` is (one
    joker per run, four-card life, lone sets, track life flags, exact, largest set, identical
    triplets).

    Only entries with less deadwood than `bound` are made, and a table made with a higher
    bound serves any lower one. The searches ask for whole tables but where they must beat
    fewer than 8 points (a show, or a 14-card hand's discards once one leaves a few points):
    then loose cards worth that much are never tried, and such a table is made in a few
    states. Those small bounds are kept apart in the memo (in the key's lowest bits, where no
    position is), so they never stand in for a whole table: tables remade under a higher bound
    cost common hands more than a bound saved. A traceback asks only for the entries up to the
    one it follows, which a table it finds in the memo always has. Dropping entries at or over
    the bound drops nothing that beats entries under it, so the entries kept are exactly those
    of the whole table below the bound. With `apart`, a last part that only the Aces link to
    the first is searched apart from it (`_linked`): the same table, made another way."""
    key = _memo_key(counts, wild_position, jokers, config)
    table = _POINTS_MEMO.young.get(key)  # the common hit, without a call
    if table is None:
        table = _POINTS_MEMO.get(key)
    if table is not None and table[4] >= bound:
        return table
    if bound < _SMALL_BOUND:
        key |= bound
        table = _POINTS_MEMO.get(key)
        if table is not None:
            return table
    x = _first_card(counts)
    if not x:
        return _EMPTY_TABLE
    if config[9] and wild_position:
        copies = counts >> (_BITS * wild_position) & _MAX_COPIES
        if copies > 1:
            table = _one_wild(counts, wild_position, jokers, config, bound, copies - 1, apart)
            _POINTS_MEMO.put(key, table)
            return table
    exact = config[4]
    parts, linked = _clusters(counts, min(jokers, 1) if config[0] else jokers, apart)
    if len(parts) > 1:
        tables = [
            _suit_table(c, _wild_in(c, wild_position), jokers, config, bound)
            for c in parts[linked : len(parts) - linked]
        ]
        if linked:
            tables.append(_linked(parts[0], parts[-1], wild_position, jokers, config, bound))
        table = _joined(tables, jokers, exact, bound)
        _POINTS_MEMO.put(key, table)
        return table
    candidates: dict[int, Entry] = {}
    memo = _POINTS_MEMO
    moves, shift = _moves(counts, x, wild_position, jokers, config)
    for taken, dk, add, dw in moves:
        if dw >= bound:
            continue
        taken <<= shift
        # The rest's key is this key less the cards taken (they sit in its low bits): a memo
        # hit, the common case, then costs no call.
        rest = memo.young.get(key - taken)
        if rest is None or rest[4] < bound:
            rest = _suit_table(counts - taken, wild_position, jokers, config, bound)
        for k, code, deadwood in rest[0]:
            nk = k + dk
            if nk > jokers:
                break  # entries come sorted by jokers
            nd = deadwood + dw
            if nd >= bound:
                continue
            ncode = add[code] if add is not None else code
            key2 = nk * 16 + ncode
            old = candidates.get(key2)
            if old is None or nd < old[2]:
                candidates[key2] = (nk, ncode, nd)
    table = _as_table(_prune(candidates, exact), bound) if candidates else _no_table(bound)
    _POINTS_MEMO.put(key, table)
    return table


def _one_wild(
    counts: int, wild_position: int, jokers: int, config: tuple[Any, ...], bound: int, extra: int, apart: bool
) -> Table:
    """The table of a suit holding `extra` + 1 cards of the wild rank: that of the suit with one,
    the `extra` others released to the pool. Exact where a run may take any number of jokers
    and neither a four-card run nor identical triplets count (`_config`): a second wild card
    being itself in a run can be a joker there instead, released and taken back (no more net
    jokers, no more deadwood, the same sequences), and only one pure sequence counts, so one
    such card being itself is all any entry needs. With three decks a suit may hold three
    copies, and each copy left in would multiply the states the search meets. (`_trace` lays
    such a suit out the same way.)"""
    entries, least, pure, fewest, made = _suit_table(
        counts - extra * _ONE[wild_position], wild_position, jokers, config, bound, apart
    )
    return (
        tuple((k - extra, code, deadwood) for k, code, deadwood in entries),
        least,
        pure,
        fewest - extra,
        made,
    )


Move = tuple[int, int, list[int] | None, int]  # (cards taken, net jokers, code map, deadwood)
_MOVES_MEMO: _Memo[int, list[Move]] = _Memo(2_048)


def _moves(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...]
) -> tuple[list[Move], int]:
    """`_options` as the cards each takes (an Ace played at 1 is taken from 14), for the table
    builder, with the shift that puts those in place. In the points search they depend only on
    which cards from `x` up to the longest run tried the suit holds (not how many: a run takes
    one of each, and only an identical triplet needs three of `x`), on which of those is wild,
    on what `x` costs left out and on the jokers up to what such a run can take, so they are
    made once for every state, suit and hand that shares those: above the first few positions
    they are kept relative to `x` (a run's shape, wherever it sits), and a search meets each
    state with a plain loop instead of a nest of generators. Keyed by the cards' counts
    instead, a cold search of a long suit with copies from several decks made moves for nearly
    every state it met; keyed by what is held, it makes a third to two thirds as many. Near
    position 1, where a run may reach down to an Ace, they are kept where they are. Exact mode
    (rare) makes them afresh."""
    if config[4]:
        return [
            (counts - rest, dk, add, dw)
            for rest, dk, add, dw, _ in _options(counts, x, wild_position, jokers, config)
        ], 0
    span = _SPAN_LONG_LIFE if config[1] else _SPAN_POINTS
    window = counts >> (_BITS * x) & ((1 << (_BITS * span)) - 1)
    # The positions held, and in bit 1 (no position's lowest bit) whether a triplet of `x` is.
    triplet = config[6] and window & _MAX_COPIES >= 3
    held = (window | window >> 1 | window >> 2) & _LOWEST_BITS | triplet << 1
    if x > span:
        wild = wild_position - x + 1 if x <= wild_position < x + span else 0
        key = held | wild << 18 | config[8][x] << 21 | min(jokers, 7) << 25 | config[7] >> 15 | 1 << 50
        shift = _BITS * x
    else:
        low_ace = bool(counts >> (_BITS * HIGH_ACE) & _MAX_COPIES)  # runs may take it below x
        key = held | x << 18 | wild_position << 22 | min(jokers, 7) << 26 | low_ace << 29 | config[7] >> 15
        shift = 0
    moves = _MOVES_MEMO.young.get(key)
    if moves is None:
        moves = _MOVES_MEMO.get(key)
        if moves is None:
            moves = _made_moves(counts, x, wild_position, jokers, config, span, shift)
            _MOVES_MEMO.put(key, moves)
    return moves, shift


def _made_moves(
    counts: int, x: int, wild_position: int, jokers: int, config: tuple[Any, ...], span: int, shift: int
) -> list[Move]:
    """The points search's moves, as `_options` has them, with the runs' cards read from the
    tables made at import rather than from the runs' positions."""
    moves = [
        ((counts - rest) >> shift, dk, add, dw)
        for rest, dk, add, dw, _ in _alone(counts, x, wild_position, jokers, config)
    ]
    longest = min(jokers, 1) if config[0] else jokers
    first = _ONE[x]
    up, down = _shape_runs(x, counts - first, longest, wild_position, span)
    kinds = _POINT_RUN_KINDS[config[1]][config[3]]
    for runs, place in ((up, _BITS * x), (down, 0)):
        for _, substitutes, size, beyond in runs:
            taken = (first + (beyond << place)) >> shift
            for extra, add in kinds[substitutes][size][substitutes < longest]:
                moves.append((taken, extra, add, 0))
    return moves


# `_run_kinds` for the points search, by four-card life, tracking, substitutes, natural count and
# whether a run may take one more joker: looked up for every run a cold search meets.
_POINT_RUN_KINDS = [
    [
        [
            [
                [
                    _run_kinds(sub, size, sub + more, _config(False, four, False, track, False, 4, False, 1))
                    for more in (0, 1)
                ]
                for size in range(_SPAN_LONG_LIFE + 1)
            ]
            for sub in range(_SPAN_LONG_LIFE)
        ]
        for track in (False, True)
    ]
    for four in (False, True)
]


# A suit's cards with one of them discarded (a 14-card hand's discard), where every card left
# must be melded: (net jokers * 16 + life code) -> the positions whose discard reaches it, as a
# bit mask.
_DISCARD_MEMO: _Memo[int, dict[int, int]] = _Memo(4_096)
_NO_DISCARDS: dict[int, int] = {}


def _discard_table(
    counts: int, wild_position: int, jokers: int, config: tuple[Any, ...], allowed: int
) -> dict[int, int]:
    """Which of a suit's cards (of the positions `allowed`, a mask shaped like `counts`) can be
    discarded so that the rest melds with nothing left over, and with what: one search with the
    discard as a move (the lowest card is discarded, or plays as in `_suit_table` and the
    discard comes later), instead of a search per discard. Those would meet the same states
    only above the discarded card; this one meets each state twice at most, with the discard
    still to make and (in `_suit_table`'s memo) without, and stops where no allowed card is left."""
    if not counts & allowed:
        return _NO_DISCARDS
    key = _memo_key(counts, wild_position, jokers, config) | allowed << 80
    table = _DISCARD_MEMO.get(key)
    if table is not None:
        return table
    table = {}
    x = _first_card(counts)
    if allowed >> (_BITS * x) & _MAX_COPIES:
        bit = 1 << x
        for k, code, deadwood in _suit_table(counts - _ONE[x], wild_position, jokers, config, 1)[0]:
            if not deadwood:  # (a whole table the memo held serves too)
                table[k * 16 + code] = table.get(k * 16 + code, 0) | bit
    moves, shift = _moves(counts, x, wild_position, jokers, config)
    most = (jokers + 1) * 16  # keys at or above it take too many jokers
    young = _DISCARD_MEMO.young
    for taken, dk, add, dw in moves:
        if dw:
            continue
        taken <<= shift
        # As in `_suit_table`, the rest's key is this key less the cards taken: a memo hit, the
        # common case, costs no call (and no table is stored for counts `allowed` misses).
        rest = young.get(key - taken)
        if rest is None:
            rest = _discard_table(counts - taken, wild_position, jokers, config, allowed)
        if add is None:
            for reached, mask in rest.items():
                reached += dk * 16
                if reached < most:
                    table[reached] = table.get(reached, 0) | mask
        else:
            for reached, mask in rest.items():
                if reached + dk * 16 < most:
                    reached = (reached >> 4) * 16 + dk * 16 + add[reached & 15]
                    table[reached] = table.get(reached, 0) | mask
    _DISCARD_MEMO.put(key, table)
    return table


def _trace(
    counts: int,
    wild_position: int,
    jokers: int,
    config: tuple[Any, ...],
    entry: Entry,
    apart: bool = False,
) -> tuple[Any, ...]:
    """The group descriptors behind one entry of a suit's table: replays `_options` and keeps
    the first choice whose rest table holds the matching entry (memoised like the tables), or
    splits the suit as its table was split (`apart`: see `_linked`)."""
    if not counts:
        return ()
    key = (_memo_key(counts, wild_position, jokers, config), entry, apart)
    groups = _TRACE_MEMO.get(key)
    if groups is not None:
        return groups
    extra = _count(counts, wild_position) - 1 if config[9] and wild_position else 0
    if extra > 0:  # as `_one_wild` made the table: the other copies released to the pool
        k, code, deadwood = entry
        groups = _trace(
            counts - extra * _ONE[wild_position],
            wild_position,
            jokers,
            config,
            (k + extra, code, deadwood),
            apart,
        )
        groups += (("free", wild_position),) * extra
        _TRACE_MEMO.put(key, groups)
        return groups
    parts, linked = _clusters(counts, min(jokers, 1) if config[0] else jokers, apart)
    if len(parts) > 1:
        groups = ()
        for part, pick in _split_parts(parts, linked, wild_position, jokers, config, entry):
            groups += _trace(part, _wild_in(part, wild_position), jokers, config, pick)
    else:
        rest, needed, descriptor = _step(counts, wild_position, jokers, config, entry)
        groups = _trace(rest, wild_position, jokers, config, needed)
        if descriptor is not None:
            groups = (descriptor, *groups)
    _TRACE_MEMO.put(key, groups)
    return groups


def _step(
    counts: int, wild_position: int, jokers: int, config: tuple[Any, ...], entry: Entry
) -> tuple[int, Entry, Any]:
    """The first option for the lowest card that leads to `entry`: (counts left, the entry
    it needs from their table, the group descriptor)."""
    k, code, deadwood = entry
    for rest, dk, add, dw, descriptor in _options(counts, _first_card(counts), wild_position, jokers, config):
        for e in _suit_table(rest, wild_position, jokers, config, deadwood + 1)[0]:
            if e[0] + dk == k and e[2] + dw == deadwood and (add[e[1]] if add else e[1]) == code:
                return rest, e, descriptor
    raise AssertionError("solver table and traceback disagree")


def _split_parts(
    parts: list[int], linked: bool, wild_position: int, jokers: int, config: tuple[Any, ...], entry: Entry
) -> list[tuple[int, Entry]]:
    """The parts of a suit `_clusters` split (the linked ones with their Aces shared out as
    `_linked` shares them), each with the entry of its table that together make `entry`."""
    ace = _ONE[HIGH_ACE]
    bound = entry[2] + 1
    for high in range(_count(parts[-1], HIGH_ACE) + 1 if linked else 1):
        pieces = [*parts[1:-1], parts[0] + high * ace, parts[-1] - high * ace] if linked else parts
        tables = [_suit_table(c, _wild_in(c, wild_position), jokers, config, bound)[0] for c in pieces]
        picks = _split(tables, entry)
        if picks is not None:
            return list(zip(pieces, picks, strict=True))
    raise AssertionError("solver table and traceback disagree")


def _split(tables: list[Sequence[Entry]], entry: Entry) -> list[Entry] | None:
    """One entry from each part's table that together make `entry` (see `_joined`), or None."""
    k, code, deadwood = entry

    def pick(index: int, k0: int, code0: int, deadwood0: int) -> list[Entry] | None:
        if index == len(tables):
            return [] if (k0, code0, deadwood0) == (k, code, deadwood) else None
        for e in tables[index]:
            if deadwood0 + e[2] <= deadwood:
                rest = pick(index + 1, k0 + e[0], _COMBINE[code0][e[1]], deadwood0 + e[2])
                if rest is not None:
                    return [e, *rest]
        return None

    return pick(0, 0, 0, 0)


def _wild_in(counts: int, wild_position: int) -> int:
    """The wild position if these cards hold a wild card."""
    if wild_position and _count(counts, wild_position):
        return wild_position
    return 0


def _as_table(entries: Sequence[Entry], bound: int) -> Table:
    least = 1 << 30
    pure = False
    for _, code, deadwood in entries:
        if deadwood < least:
            least = deadwood
        pure = pure or _HAS_PURE[code]
    return entries, least, pure, entries[0][0], bound


def _no_table(bound: int) -> Table:
    """No entry below `bound` (below any bound: the cards cannot all be melded, exact mode)."""
    return _NO_TABLE if bound == _UNBOUNDED else ((), 1 << 30, False, 1 << 30, bound)


def _clusters(counts: int, max_gap: int, apart: bool = False) -> tuple[list[int], bool]:
    """Splits a suit where no run can bridge a gap (more than `max_gap` missing positions),
    so that each part's table is shared by every suit that holds the same few cards. An Ace
    (kept at 14) may still play at 1, which ties the last part to the first: the last part
    joins the first, but with `apart` one that holds one Ace and other cards stays apart,
    linked to the first (see `_linked`), which the second value says. (It visits the held positions
    only, found with bit tricks: a suit holds three or four of its 14.)"""
    clusters: list[int] = []
    current = 0
    previous = -HIGH_ACE
    held = (counts | counts >> 1 | counts >> 2) & _LOWEST_BITS
    while held:
        low = held & -held
        held ^= low
        shift = low.bit_length() - 1
        position = shift // _BITS
        if position - previous - 1 > max_gap and current:
            clusters.append(current)
            current = 0
        current |= counts & _MAX_COPIES << shift
        previous = position
    clusters.append(current)
    if len(clusters) > 1 and previous == HIGH_ACE and _first_card(counts) - 2 <= max_gap:
        aces = current >> (_BITS * HIGH_ACE)
        if apart and aces == 1 and current != aces << (_BITS * HIGH_ACE):
            return clusters, True
        clusters[0] += clusters.pop()  # an Ace at 14 may play at 1, below the first part
    return clusters, False


def _linked(
    first: int, last: int, wild_position: int, jokers: int, config: tuple[Any, ...], bound: int
) -> Table:
    """The table of a suit's first part (its highest cards, from the King down) and its last
    (the Aces and the low cards next to them), which no run can bridge but through the Aces:
    an Ace kept at 14 may also play at 1, above the King. Each Ace is in a group with cards of
    one part or the other (or alone), never of both, since no run turns the corner (K-A-2): so
    every arrangement is one of the first part with some of the Aces and one of the last with
    the others, and the table is the best of those pairings over how many Aces go first.

    Searched together, the two parts would be searched state by state until the search has
    passed the cards an Ace can reach from above, and each change to the low cards (a set
    taking a Two, a discard) would search the high cards again; apart, each part's table
    serves every change to the other. But apart, the high cards are also searched without
    their Aces, from the start, where together they are only met so once a run has taken the
    Aces (with two Aces, with each number of them: so only a suit with a single Ace is split),
    and only the tables a hand's search starts from are made apart (`_Search.cheapest`), where
    the low cards change from one set choice or discard to the next, and not every state
    within a search. Those of a 14-card hand's discards, searched under a small bound, are made
    apart too, so that past the discard they meet the tables of the 14 cards' own search; but
    not those for a show (nothing left over), which the search for the discards that could show
    shares, card by card, suits whole."""
    ace = _ONE[HIGH_ACE]
    exact = config[4]
    candidates: dict[int, Entry] = {}
    for high in range(_count(last, HIGH_ACE) + 1):
        pair = [first + high * ace, last - high * ace]
        tables = [_suit_table(c, _wild_in(c, wild_position), jokers, config, bound) for c in pair]
        for entry in _joined(tables, jokers, exact, bound)[0]:
            old = candidates.get(entry[0] * 16 + entry[1])
            if old is None or entry[2] < old[2]:
                candidates[entry[0] * 16 + entry[1]] = entry
    return _as_table(_prune(candidates, exact), bound) if candidates else _no_table(bound)


def _joined(tables: list[Table], jokers: int, exact: bool, bound: int) -> Table:
    """The table of a suit made of independent parts: every pairing of the parts' entries
    (those with less deadwood than `bound`)."""
    if any(not table[0] for table in tables):
        return _no_table(bound)
    partial = tables[0][0]
    if tables[0][4] > bound:
        partial = [entry for entry in partial if entry[2] < bound]
    for table in tables[1:]:
        candidates: dict[int, Entry] = {}
        for k, code, deadwood in partial:
            row = _COMBINE[code]
            for k2, code2, deadwood2 in table[0]:
                nk = k + k2
                if nk > jokers:
                    break
                nd = deadwood + deadwood2
                if nd >= bound:
                    continue
                ncode = row[code2]
                key = nk * 16 + ncode
                old = candidates.get(key)
                if old is None or nd < old[2]:
                    candidates[key] = (nk, ncode, nd)
        if not candidates:
            return _no_table(bound)
        partial = _prune(candidates, exact)
    if not partial:
        return _no_table(bound)
    return _as_table(partial, bound)


# ------------------------------------------------------------------------- sets


def _set_options(rank: int, counts: tuple[int, ...], jokers: int, max_size: int) -> list[tuple[Any, ...]]:
    """Every way to put cards of one rank into sets, as (cards taken from each suit's counts,
    sets, fewest jokers, most jokers); each set is (rank, suit mask, fewest jokers, most
    jokers). Sets with one natural card are left to the suit search: as runs (or, under the
    one-joker rule, as lone sets there) they are never worse."""
    key = (rank, counts, jokers, max_size)
    options = _SET_MEMO.get(key)
    if options is not None:
        return options
    masks = []
    for mask in range(1, 16):
        suits = [s for s in range(4) if mask >> s & 1]
        need = max(0, 3 - len(suits))
        if 2 <= len(suits) <= max_size and need <= jokers and all(counts[s] for s in suits):
            masks.append((mask, suits, need, max_size - len(suits)))
    options = []
    one = _ONE[_at(rank)]

    def choose(start: int, left: list[int], sets: tuple[Any, ...], need: int, most: int) -> None:
        taken = tuple((counts[s] - left[s]) * one for s in range(4))
        options.append((taken, sets, need, most))
        for index in range(start, len(masks)):
            mask, suits, set_need, set_most = masks[index]
            if need + set_need > jokers or any(left[s] == 0 for s in suits):
                continue
            for s in suits:
                left[s] -= 1
            choose(index, left, (*sets, (rank, mask, set_need, set_most)), need + set_need, most + set_most)
            for s in suits:
                left[s] += 1

    choose(0, list(counts), (), 0, 0)
    # Fullest sets first: the first choices tried then usually leave the least deadwood, and
    # the bound they set lets later choices be skipped on their floors alone.
    options.sort(key=lambda option: (-sum(option[0]), option[2]))
    _SET_MEMO.put(key, options)
    return options


# ------------------------------------------------------------------------- one hand


def _at(rank: int) -> int:
    """Where a suit's counts keep a rank: the ranks upside down (King at 2, Two at 13) and an
    Ace at 14, played there as a low Ace (A-2-3) or at 1 as a high one (Q-K-A).

    The search takes a suit's cards from position 1 up. Upside down, it takes the high cards
    first, and those are the discards a 14-card hand tries first (costliest first): a suit
    without one of them then meets the same states as the whole suit once past that card, and
    the memo has them. (Runs are the same read either way.) An Ace kept at 14 is taken last,
    and a run from a card near position 1 can reach down to it (`_runs`): kept at 1, every Ace
    would have to choose at the start whether to wait at 14, and each state of the suit would
    be met twice, with the Ace still to come and without."""
    return HIGH_ACE if rank == ACE else 15 - rank


_AT = tuple(_at(rank) for rank in range(KING + 1))


class _Hand:
    """A hand in the solver's terms: per-suit counts by position (see `_at`), printed jokers,
    the pool."""

    def __init__(self, cards: Sequence[Card], wild: int | None, ace: int) -> None:
        self.cards = cards
        self.wild = wild
        self.printed = 0
        self.wild_cards = 0
        self.all_points = 0
        counts = [0, 0, 0, 0]
        presence = [0, 0, 0, 0]  # a bit per rank held, per suit
        for card in cards:
            rank = card.rank
            if rank == JOKER_RANK:
                self.printed += 1
                continue
            if rank == wild:
                self.wild_cards += 1
            else:
                self.all_points += ace if rank == ACE else 10 if rank > 10 else rank
            suit = _SUIT_INDEX[card.suit]
            position = _AT[rank]
            counts[suit] += _ONE[position]
            presence[suit] |= 1 << rank
            if counts[suit] >> (_BITS * position) & _MAX_COPIES == _MAX_COPIES:
                raise RulesError(
                    "The solver takes at most {copies} copies of a card in one hand.", copies=_MAX_COPIES - 1
                )
        self.counts = counts
        self.presence = presence
        self.pool = self.printed + self.wild_cards

    def wild_position(self, counts: int) -> int:
        """The wild rank, where the suit holds a wild card (tables do not depend on it otherwise)."""
        wild = self.wild
        if wild is not None and counts >> (_BITS * _at(wild)) & _MAX_COPIES:
            return _at(wild)
        return 0

    def runs_possible(self) -> tuple[bool, int]:
        """Whether any suit holds three cards in a row (a pure run needs that whatever the sets
        take), and how many cards sit in such stretches (two lives without jokers need 6)."""
        any_run, in_runs = False, 0
        for counts, present in zip(self.counts, self.presence, strict=True):
            present |= (present & 2) << 13  # the Ace again, above the King
            middles = present & present >> 1 & present << 1
            if not middles:
                continue
            any_run = True
            covered = middles | middles >> 1 | middles << 1
            in_runs += sum(_count(counts, _at(p % HIGH_ACE or ACE)) for p in range(1, 15) if covered >> p & 1)
        return any_run, in_runs

    def has_triplet(self) -> bool:
        """Whether some card is held three times or more: adding one to every count (each below
        7, so nothing carries) sets a count's top bit exactly where the count was 3 or more."""
        return any((counts + _LOWEST_BITS) & (_LOWEST_BITS << 2) for counts in self.counts)


_SUIT_INDEX: dict[Suit | None, int] = {suit: index for index, suit in enumerate(SUITS)}


@dataclass(slots=True)
class _Best:
    """A winning choice: its deadwood and life code, the sets, and per suit the table entry
    used, from which `_trace` recovers the suit's groups."""

    deadwood: int
    jokers: int  # net jokers the suits use, before the sets
    code: int
    sets: tuple[Any, ...]  # ((rank, suit mask, fewest jokers, most jokers), ...)
    picks: list[tuple[tuple[int, int, int], Entry]]  # ((suit, counts, wild position), entry)
    config: tuple[Any, ...]
    apart: bool = False  # whether the suits' tables were made with linked parts apart (`_linked`)

    def groups(self, pool: int) -> list[tuple[int, Any]]:
        """(suit, group descriptor) for every group and unmatched card the suits hold."""
        return [
            (state[0], descriptor)
            for state, entry in self.picks
            for descriptor in _trace(state[1], state[2], pool, self.config, entry, self.apart)
        ]


def _unlink(picks: Any) -> list[Any]:
    flat = []
    while picks is not None:
        picks, pick = picks
        flat.append(pick)
    return flat


def _combine(
    tables: list[tuple[tuple[int, int, int], Table]], budget: int, goal: list[bool], limit: int
) -> tuple[int, int, int, Any] | None:
    """The cheapest way to join the suits' tables within `budget` net jokers that reaches a
    goal code with less than `limit` deadwood, as (deadwood, jokers, code, picks), the picks
    being the (state, entry) used per suit.

    Most suit tables hold a single entry; those are folded in first as a plain offset. The
    others are joined one by one, dropping a partial entry as soon as the least deadwood and
    fewest jokers the remaining suits could add put it out of reach."""
    k0 = code0 = deadwood0 = 0
    picks0: Any = None
    several: list[tuple[tuple[int, int, int], Table]] = []
    floor = 0
    for state, table in tables:
        entries = table[0]
        if len(entries) == 1:
            entry = entries[0]
            k0 += entry[0]
            code0 = _COMBINE[code0][entry[1]]
            deadwood0 += entry[2]
            picks0 = (picks0, (state, entry))
        else:
            several.append((state, table))
            floor += table[1]
    if deadwood0 + floor >= limit:
        return None
    if not several:
        if k0 <= budget and goal[code0]:
            return deadwood0, k0, code0, picks0
        return None
    partial: Sequence[tuple[int, int, int, Any]] = ((k0, code0, deadwood0, picks0),)
    rest_jokers = sum(table[3] for _, table in several)
    for state, (entries, least, _, fewest, _) in several[:-1]:
        floor -= least
        rest_jokers -= fewest
        max_jokers = budget - rest_jokers
        max_deadwood = limit - floor
        candidates: dict[int, Any] = {}
        for k, code, deadwood, picks in partial:
            row = _COMBINE[code]
            for entry in entries:
                nk = k + entry[0]
                if nk > max_jokers:
                    break
                nd = deadwood + entry[2]
                if nd >= max_deadwood:
                    continue
                ncode = row[entry[1]]
                key = nk * 16 + ncode
                old = candidates.get(key)
                if old is None or nd < old[2]:
                    candidates[key] = (nk, ncode, nd, (picks, (state, entry)))
        if not candidates:
            return None
        partial = _pareto(candidates)
    state, (entries, _, _, _, _) = several[-1]
    best = None
    for k, code, deadwood, picks in partial:
        row = _COMBINE[code]
        for entry in entries:
            if k + entry[0] > budget:
                break
            nd = deadwood + entry[2]
            if nd < limit and goal[row[entry[1]]]:
                limit = nd
                best = (nd, k + entry[0], row[entry[1]], (picks, (state, entry)))
    return best


class _Search:
    """One hand (13 cards, or any size): the searches that price it, sharing its set choices."""

    def __init__(self, cards: Sequence[Card], wild: int | None, rules: Rules) -> None:
        self.hand = _Hand(cards, wild, rules.ace_points)
        self.rules = rules
        self.life_goal = _life_goal(rules)
        one_joker, four = rules.one_joker_per_impure_sequence, rules.require_four_card_life
        config = partial(
            _config,
            one_joker,
            max_set=rules.max_set_size,
            triplet=rules.identical_triplet_pure,
            ace=rules.ace_points,
        )
        self.life_config = config(four, one_joker, True, False)
        self.any_config = config(False, one_joker, False, False)
        self.protect_config = config(False, False, True, False)
        self.exact_config = config(False, one_joker, True, True)

    @cached_property
    def set_ranks(self) -> tuple[list[list[tuple[Any, ...]]], list[int]]:
        """The ways each rank can go into sets (ranks with a choice only), and the suits those
        ranks touch. Made on first use: a hand with no possible life is priced without it."""
        hand = self.hand
        # Ranks held in two suits or more (a set needs two natural cards, see _set_options).
        a, b, c, d = hand.presence
        shared = (a & (b | c | d)) | (b & (c | d)) | (c & d)
        if hand.wild is not None:
            shared &= ~(1 << hand.wild)
        rank_options: list[list[tuple[Any, ...]]] = []
        touched = 0
        while shared:
            rank = (shared & -shared).bit_length() - 1
            shared &= shared - 1
            per_suit = tuple(_count(counts, _at(rank)) for counts in hand.counts)
            options = _set_options(rank, per_suit, hand.pool, self.rules.max_set_size)
            if len(options) > 1:
                rank_options.append(options)
                touched |= sum(1 << s for s in range(4) if per_suit[s])
        return rank_options, [s for s in range(4) if touched >> s & 1]

    @cached_property
    def floor(self) -> tuple[int, int, _Best | None]:
        """`_discard_floor` of these cards (a 14-card hand's), found when first needed."""
        return _discard_floor(self)

    def triplet_possible(self) -> bool:
        return self.rules.identical_triplet_pure and self.hand.has_triplet()

    def life_possible(self) -> bool:
        if self.triplet_possible():
            return True  # a triplet is a pure sequence: leave it to the search
        any_run, in_runs = self.hand.runs_possible()
        return any_run and (self.hand.pool > 0 or in_runs >= 6)

    def choices(self, with_sets: bool) -> Iterator[tuple[tuple[Any, ...], int, int, list[Any]]]:
        """Every choice of sets, as (sets, fewest jokers, most jokers, suit states), the states
        being (suit, counts, wild position) for the cards the sets leave."""
        hand = self.hand
        wild_position = hand.wild_position
        rank_options, touched = self.set_ranks if with_sets else ([], [])
        if not rank_options:
            yield (), 0, 0, [(suit, counts, wild_position(counts)) for suit, counts in enumerate(hand.counts)]
            return
        fixed = [(s, c, wild_position(c)) for s, c in enumerate(hand.counts) if s not in touched]
        pool = hand.pool
        for combo in itertools.product(*rank_options):
            need = most = 0
            sets: tuple[Any, ...] = ()
            counts = list(hand.counts)
            for taken, rank_sets, rank_need, rank_most in combo:
                if rank_sets:
                    need += rank_need
                    most += rank_most
                    sets += rank_sets
                    counts[0] -= taken[0]
                    counts[1] -= taken[1]
                    counts[2] -= taken[2]
                    counts[3] -= taken[3]
            if need <= pool:
                yield sets, need, most, fixed + [(s, counts[s], wild_position(counts[s])) for s in touched]

    def cheapest(
        self, config: tuple[Any, ...], goal: list[bool], limit: int, with_sets: bool = True
    ) -> _Best | None:
        """The least deadwood below `limit` over every choice of sets whose joined suits reach
        a goal code; choices that cannot beat the best so far are skipped on their floors."""
        hand = self.hand
        pool, printed = hand.pool, hand.printed
        needs_pure = all(_HAS_PURE[code] for code in _CODES if goal[code])
        best: _Best | None = None
        # Most choices of sets leave most suits as they were: their tables are fetched once.
        known: dict[int, Table] = {}
        bound = limit if limit < _SMALL_BOUND else _UNBOUNDED
        apart = limit > 1  # see `_linked`
        for sets, need, _, states in self.choices(with_sets):
            tables = []
            floor = 0
            pure = False
            for state in states:
                table = known.get(state[1])
                if table is None:
                    table = known[state[1]] = _suit_table(state[1], state[2], pool, config, bound, apart)
                tables.append((state, table))
                floor += table[1]
                pure = pure or table[2]
            if floor >= limit or (needs_pure and not pure):
                continue
            found = _combine(tables, printed - need, goal, limit)
            if found is not None:
                limit = found[0]
                best = _Best(found[0], found[1], found[2], sets, _unlink(found[3]), config, apart)
                if limit == 0:
                    break
        return best

    def show_discards(self, least: int, with_sets: bool = True) -> set[Card]:
        """The cards worth at least `least` points of a 14-card hand whose discard leaves all 13
        others melded with both lives (without sets: in sequences): every such discard that
        leaves a show is one of them (a show still has to place its spare jokers, which `_show`
        checks). One search for every discard (`_discard_table`): a card of one suit goes, or
        a printed joker, and the other suits meld whole."""
        hand, config, goal = self.hand, self.life_config, self.life_goal
        wild_position = _at(hand.wild) if hand.wild is not None else 0
        points = config[8]
        allowed = sum(
            _MAX_COPIES << (_BITS * p)
            for p in range(1, HIGH_ACE + 1)
            if (least == 0 if _is_wild_position(p, wild_position) else points[p] >= least)
        )
        if not self.life_possible() or not (allowed or least == 0):
            return set()
        pool, printed = hand.pool, hand.printed
        found: set[Card] = set()
        for _, need, _, states in self.choices(with_sets):
            whole = [
                {
                    k * 16 + code: 0
                    for k, code, deadwood in _suit_table(counts, wild, pool, config, 1)[0]
                    if not deadwood
                }
                for _, counts, wild in states
            ]
            # A discard comes from one suit and every other suit melds whole: where one cannot,
            # only a discard from it may show, and where two cannot, none. (Searched anyway,
            # the discards of a long suit were most of the work, for nothing.)
            torn = [index for index, melded in enumerate(whole) if not melded]
            for index, (suit, counts, wild) in enumerate(states):
                if torn and torn != [index]:
                    continue
                reached = _joined_keys(
                    [
                        *whole[:index],
                        *whole[index + 1 :],
                        _discard_table(counts, wild, pool, config, allowed),
                    ],
                    pool,
                )
                for key, mask in reached.items():
                    if key // 16 <= printed - need and goal[key % 16]:
                        found.update(_card_at(p, suit) for p in range(1, HIGH_ACE + 1) if mask >> p & 1)
            if (
                printed
                and least == 0
                and not torn
                and any(
                    key // 16 <= printed - 1 - need and goal[key % 16] for key in _joined_keys(whole, pool)
                )
            ):
                found.add(JOKER)
        return found

    def exact(self) -> tuple[_Best, int, int] | None:
        """A complete show placing every card, or None: (the show's choice, jokers in its sets,
        jokers in groups of jokers alone)."""
        hand, config = self.hand, self.exact_config
        pool, printed = hand.pool, hand.printed
        lone = _joker_only_sizes(self.rules, pool, anchors=0)  # a wild card being itself: in the suits
        for sets, need, most, states in self.choices(True):
            table: list[Any] = [(0, 0, None)]
            for state in states:
                merged: dict[int, Any] = {}
                for k, code, picks in table:
                    for entry in _suit_table(state[1], state[2], pool, config)[0]:
                        nk = k + entry[0]
                        if nk <= pool:
                            merged.setdefault(nk * 16 + _COMBINE[code][entry[1]], (picks, (state, entry)))
                table = [(key // 16, key % 16, picks) for key, picks in merged.items()]
            for k, code, picks in table:
                if not self.life_goal[code]:
                    continue
                left = printed - k
                for joker_only in lone:
                    if need <= left - joker_only <= most:
                        show = _Best(0, k, code, sets, _unlink(picks), config)
                        return show, left - joker_only, joker_only
        return None


def _joined_keys(parts: list[dict[int, int]], jokers: int) -> dict[int, int]:
    """Every (net jokers * 16 + life code) the parts reach together, each with the union of the
    masks of the entries that reach it (the parts other than a discard's carry 0)."""
    joined = {0: 0}
    for part in parts:
        merged: dict[int, int] = {}
        for key, mask in joined.items():
            k, code = divmod(key, 16)
            row = _COMBINE[code]
            for key2, mask2 in part.items():
                k2, code2 = divmod(key2, 16)
                if k + k2 <= jokers:
                    combined = (k + k2) * 16 + row[code2]
                    merged[combined] = merged.get(combined, 0) | mask | mask2
        joined = merged
    return joined


_LIFE_GOALS: dict[bool, list[bool]] = {}


def _life_goal(rules: Rules) -> list[bool]:
    """Which life codes meet the rules' declaration requirements (melds decides)."""
    goal = _LIFE_GOALS.get(rules.require_four_card_life)
    if goal is None:
        goal = [life_met(p, s, bool(long), rules) for p, s, long in map(_decode, _CODES)]
        _LIFE_GOALS[rules.require_four_card_life] = goal
    return goal


def _joker_only_sizes(rules: Rules, pool: int, anchors: int) -> list[int]:
    """How many spare jokers groups of wild cards alone can hold (0 always): sets of 3 up to the
    largest, each with a card of the wild rank being itself (`anchors` of them are spare), or
    with any jokers where the table lets printed jokers alone make a set."""
    fewest = {0: 0}  # jokers held -> the fewest groups that hold them
    for total in range(3, pool + 1):
        groups = min(
            (fewest[total - size] + 1 for size in range(3, rules.max_set_size + 1) if total - size in fewest),
            default=None,
        )
        if groups is not None and (rules.joker_only_groups or groups <= anchors):
            fewest[total] = groups
    return sorted(fewest)


# ------------------------------------------------------------------------- building the answer


@dataclass(slots=True)
class _Group:
    """A group being built: its natural cards, the jokers it takes, and how many more fit."""

    naturals: list[Card]
    jokers: int
    room: int
    pure_run: bool = False


_CARDS = [
    [Card(ACE if p in (0, ACE, HIGH_ACE) else 15 - p, suit) for p in range(HIGH_ACE + 1)] for suit in SUITS
]


def _card_at(position: int, suit: int) -> Card:
    return _CARDS[suit][position]


def _plan(hand: _Hand, best: _Best, rules: Rules) -> tuple[list[_Group], list[Card], list[Card]]:
    """Turns a winning table entry into groups (still without their jokers), unmatched
    cards, and the jokers free to place."""
    groups: list[_Group] = []
    loose: list[Card] = []
    pool = [card for card in hand.cards if card.rank == JOKER_RANK]
    one_joker = rules.one_joker_per_impure_sequence
    for suit, descriptor in best.groups(hand.pool):
        tag = descriptor[0]
        if tag == "loose":
            loose.append(_card_at(descriptor[1], suit))
        elif tag == "free":
            pool.append(_card_at(descriptor[1], suit))
        elif tag == "triplet":
            groups.append(_Group([_card_at(descriptor[1], suit)] * 3, 0, 0, True))
        elif tag == "lone":
            groups.append(
                _Group([_card_at(descriptor[1], suit)], descriptor[2], rules.max_set_size - 1 - descriptor[2])
            )
        else:
            _, chosen, substitutes = descriptor
            size = len(chosen) + substitutes
            if one_joker:
                room = min(1, MAX_SEQUENCE - size) if substitutes == 0 else 0
            else:
                room = MAX_SEQUENCE - size
            groups.append(_Group([_card_at(p, suit) for p in chosen], substitutes, room, substitutes == 0))
    for rank, mask, need, most in best.sets:
        naturals = [Card(rank, SUITS[s]) for s in range(4) if mask >> s & 1]
        groups.append(_Group(naturals, need, most - need))
    return groups, loose, pool


def _place_spares(groups: list[_Group], spare: int, rules: Rules, pool: list[Card]) -> list[int] | None:
    """Spreads spare jokers over the groups' room (a pure run may take some as long as one
    pure run stays pure), else into groups of wild cards alone; returns those groups' sizes, or
    None when the spares cannot all be placed. Groups take printed jokers first (see `_melds`),
    so the wild-rank cards of `pool` are the last spares, there to be themselves in such sets."""
    if spare == 0:
        return []
    pure_runs = [g for g in groups if g.pure_run]
    keep = min(pure_runs, key=lambda g: g.room) if pure_runs else None
    open_groups = [g for g in groups if g is not keep and g.room > 0]
    room = sum(g.room for g in open_groups)
    anchors = sum(card.rank != JOKER_RANK for card in pool)
    for joker_only in _joker_only_sizes(rules, len(pool), anchors):
        if joker_only <= spare and spare - joker_only <= room:
            left = spare - joker_only
            for group in open_groups:
                take = min(left, group.room)
                group.jokers += take
                left -= take
            return _split_joker_only(joker_only, rules)
    return None


def _split_joker_only(total: int, rules: Rules) -> list[int]:
    """Group sizes (3 to the largest set) that add up to `total`, as few as can be."""
    possible = set(_joker_only_sizes(rules.replace(joker_only_groups=True), total, anchors=0))
    sizes = []
    while total:
        size = next(n for n in range(min(rules.max_set_size, total), 2, -1) if total - n in possible)
        sizes.append(size)
        total -= size
    return sizes


def _melds(
    groups: list[_Group],
    loose: list[Card],
    pool: list[Card],
    joker_only: list[int],
    wild: int | None,
    rules: Rules,
    plank: bool = False,
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """Hands each group its jokers and orders everything for display. Printed jokers go first
    and wild cards of another suit before those of the run's own suit, so a joker is seen where
    the solver meant it; a group of wild cards alone leads with a card of the wild rank, itself.
    With `plank`, the jokers left over lie on a plank of their own (a show's unused jokers)."""
    melds = []
    for group in groups:
        if group.jokers:
            suit = group.naturals[0].suit
            pool.sort(key=lambda card: (card.rank != JOKER_RANK, card.suit == suit))
            cards = group.naturals + pool[: group.jokers]
            del pool[: group.jokers]
        else:
            cards = group.naturals
        melds.append(make_meld(cards, wild, rules))
    for size in joker_only:
        pool.sort(key=lambda card: card.rank == JOKER_RANK)
        anchor = pool.pop(0)
        pool.sort(key=lambda card: card.rank != JOKER_RANK)
        melds.append(make_meld([anchor, *pool[: size - 1]], wild, rules))
        del pool[: size - 1]
    if plank and pool:
        melds.append(make_meld(pool, wild, rules))
        pool = []
    melds.sort(key=lambda meld: (_KIND_ORDER[meld.kind], [card.sort_key for card in meld.cards]))
    ungrouped = sorted(loose + pool, key=lambda card: (is_wild(card, wild), card.sort_key))
    return tuple(melds), tuple(ungrouped)


_KIND_ORDER = {
    GroupKind.PURE_SEQUENCE: 0,
    GroupKind.IMPURE_SEQUENCE: 1,
    GroupKind.SET: 2,
    GroupKind.SPARE_JOKERS: 3,
    GroupKind.INVALID: 4,
}


_INFINITE = 1 << 30
_MOST_POINTS = 10  # what a card is worth at most (the rules let an Ace be worth up to 10)


@dataclass(slots=True)
class _Assessment:
    """What a hand is charged, before anything is laid out for display."""

    search: _Search
    points: int
    valid: bool
    life: _Best | None
    protect: _Best | None
    show: tuple[tuple[Meld, ...], tuple[Card, ...]] | None  # the complete show, when valid

    def priced(self, best: _Best | None, life: bool) -> int:
        """The rule for what counts lives in melds; each kind of best arrangement is priced by it."""
        hand = self.search.hand
        if best is None:
            return hand.all_points
        return uncapped_points(
            all_points=hand.all_points,
            ungrouped=best.deadwood,
            outside_sequences=best.deadwood,
            life=life,
            pure=_decode(best.code)[0],
            rules=self.search.rules,
        )


def _assess(cards: Sequence[Card], wild: int | None, rules: Rules, bound: int = _INFINITE) -> _Assessment:
    """Prices a hand. With a `bound`, arrangements charged `bound` or more are not looked for:
    the points are then exact only when below it (the discard search needs no more)."""
    search = _Search(cards, wild, rules)
    life, protect = _cheapest_kinds(search, min(search.hand.all_points, rules.score_cap, bound))
    show = _show(search, life)
    assessment = _Assessment(search, 0, show is not None, life, protect, show)
    raw = min(assessment.priced(life, True), assessment.priced(protect, False), search.hand.all_points)
    assessment.points = min(raw, rules.score_cap)
    return assessment


def _cheapest_kinds(search: _Search, limit: int) -> tuple[_Best | None, _Best | None]:
    """The least deadwood below `limit` with both lives, and (on tables where a pure sequence
    protects the runs) with a pure sequence: the two ways a hand can pay less than every card."""
    life = None
    if search.life_possible():
        life = search.cheapest(
            search.life_config, search.life_goal, limit, with_sets=search.rules.sets_protected
        )
    protect = None
    if search.rules.pure_sequence_protects and (search.hand.runs_possible()[0] or search.triplet_possible()):
        protect_limit = life.deadwood if life is not None else limit
        protect = search.cheapest(search.protect_config, _HAS_PURE, protect_limit, with_sets=False)
    return life, protect


def _discard_floor(search: _Search) -> tuple[int, int, _Best | None]:
    """What the 14 cards themselves would be charged, uncapped, the fewest points a card worth
    leaving out for a show must have, and the arrangement charged that (None when it is every
    card). Keeping 13 of them and leaving out card `d` is one way to arrange the 14 with `d`
    unmatched, so no discard can leave less than this floor minus `d`'s points: once discards
    tried costliest first reach that, none after them can do better. A discard that leaves a
    show leaves only itself out of an arrangement with both lives, so it is worth at least the
    least deadwood of those; where cards in sets count against a hand, that arrangement was
    looked for without sets, and bounds only the discards that leave every card in a sequence."""
    hand = search.hand
    assessment = _Assessment(search, 0, False, *_cheapest_kinds(search, hand.all_points), None)
    floor = min(
        assessment.priced(assessment.life, True),
        assessment.priced(assessment.protect, False),
        hand.all_points,
    )
    if not hand.all_points:
        least = 0
    else:
        least = assessment.life.deadwood if assessment.life is not None else hand.all_points
    return floor, least, _chosen(assessment)


def _loose_discard(search: _Search, floor: _Best | None, order: list[Card]) -> int | None:
    """The index in `order` of the first card the 14 cards' cheapest arrangement (`floor`, see
    `_discard_floor`) leaves unmatched, or None. That arrangement less the card is one of the 13
    others, charged the floor minus the card's points, and no discard of no more points can
    leave less (`_discard_floor`): so that discard's points are known without a search, and
    every discard tried before it is searched only for what would beat them."""
    if floor is None or not floor.deadwood:
        return None
    loose = {
        _card_at(descriptor[1], suit)
        for suit, descriptor in floor.groups(search.hand.pool)
        if descriptor[0] == "loose"
    }
    return next((index for index, card in enumerate(order) if card in loose), None)


def _show(search: _Search, life: _Best | None) -> tuple[tuple[Meld, ...], tuple[Card, ...]] | None:
    """The hand's complete show, if it has one. Where cards in sets count against a hand (home
    rules), the cheapest life was looked for without sets, so a show that needs them is looked
    for on its own: any arrangement with both lives and no deadwood."""
    if not search.rules.sets_protected and (life is None or life.deadwood):
        life = search.cheapest(search.life_config, search.life_goal, 1) if search.life_possible() else None
    if life is None or life.deadwood:
        return None
    return _complete_show(search, life)


def _complete_show(search: _Search, life: _Best) -> tuple[tuple[Meld, ...], tuple[Card, ...]] | None:
    """Every card of a zero-deadwood hand in a group, spare jokers included, or None when the
    spares fit nowhere in any arrangement (so the hand cannot be declared)."""
    hand, rules = search.hand, search.rules
    groups, loose, pool = _plan(hand, life, rules)
    if rules.spare_jokers_plank:
        return _melds(groups, loose, pool, [], hand.wild, rules, plank=True)
    spare = hand.printed - life.jokers - sum(s[2] for s in life.sets)
    joker_only = _place_spares(groups, spare, rules, pool)
    if joker_only is None:
        exact = search.exact()
        if exact is None:
            return None
        show, set_jokers, joker_only_total = exact
        groups, loose, pool = _plan(hand, show, rules)
        left = set_jokers - sum(s[2] for s in show.sets)
        for group in groups[len(groups) - len(show.sets) :]:
            take = min(left, group.room)
            group.jokers += take
            left -= take
        joker_only = _split_joker_only(joker_only_total, rules)
    return _melds(groups, loose, pool, joker_only, hand.wild, rules)


def _arrangement(assessment: _Assessment, discard: Card | None) -> Arrangement:
    """The answer for an assessed hand; its groups are laid out when first read. The layout
    keeps only the cards and the winning choice, not the search (an answer kept unread in a
    cache then holds next to nothing for the garbage collector to walk)."""
    if assessment.show is not None:
        return Arrangement(True, assessment.points, *assessment.show, discard)
    search = assessment.search
    cards, wild = tuple(search.hand.cards), search.hand.wild
    lay_out = partial(_lay_out, cards, wild, search.rules, _chosen(assessment))
    return Arrangement._deferred(False, assessment.points, discard, lay_out)


def _chosen(assessment: _Assessment) -> _Best | None:
    """The arrangement the points came from, or None when the hand pays for every card."""
    raw = min(
        assessment.priced(assessment.life, True),
        assessment.priced(assessment.protect, False),
        assessment.search.hand.all_points,
    )
    life, protect = assessment.life, assessment.protect
    if life is not None and assessment.priced(life, True) == raw:
        return life
    if protect is not None and assessment.priced(protect, False) == raw:
        return protect
    return None


def _lay_out(
    cards: tuple[Card, ...],
    wild: int | None,
    rules: Rules,
    chosen: _Best | None,
    left_out: Card | None = None,
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """The groups of the arrangement the points came from. A hand that pays for every card
    shows the melds that leave the least deadwood, so the player sees their progress. With
    `left_out`, `chosen` arranges these cards and that one of its unmatched cards is not shown
    (a 14-card hand's discard, see `best_arrangement`)."""
    if chosen is None:
        search = _Search(cards, wild, rules)
        hand = search.hand
        chosen = search.cheapest(search.any_config, _ANY_CODE, _INFINITE)
        if chosen is None:
            return (), cards
    else:
        hand = _Hand(cards, wild, rules.ace_points)
    groups, loose, pool = _plan(hand, chosen, rules)
    if left_out is not None:
        loose.remove(left_out)
    return _melds(groups, loose, pool, [], wild, rules)


def best_arrangement(
    cards: Sequence[Card], wild_rank: int | str | None, rules: Rules = STANDARD_RULES
) -> Arrangement:
    """The arrangement charged the fewest points. With 14 cards (a turn's pick made) it also
    chooses the discard: a valid show first, then the fewest points left, then the costliest
    card out of the hand (then the first in sorted order).

    The 14 cards' own cheapest arrangement (`_discard_floor`) bounds every discard: none leaves
    less than its price less the discard's points, which ends the search once no cheaper
    discard can beat the best found, and the costliest card it leaves unmatched is a discard
    whose points are known without a search (`_loose_discard`). Any show beats any points.
    Where a show is charged nothing, only a discard worth what that arrangement leaves out can
    show: when the known discard is charged something, those all come before it in the order
    and are searched there anyway, so the first of them that shows wins; else one search finds
    the discards that could leave a show (`_Search.show_discards`) and the first of them that
    shows wins. Where cards in sets count against a hand (home rules) a show with every card in
    a sequence is charged nothing, and the first discard that leaves one wins, found the same
    way; else the show charged least wins, weighed one by one like the points below, and the
    14 cards' cheapest arrangement with both lives is looked for with sets free too, to bound
    the discards that could show (a discard that leaves a show leaves only itself out of such
    an arrangement).
    When no discard shows, every discard is weighed against the best found so far, costliest
    first, and only an arrangement that would beat it is looked for (a bound that lets each
    search skip most of its work): one that comes before the best in that order wins a tie,
    one that comes after must be charged strictly less, and where sets are free a discard that
    cannot leave all 13 cards melded is not searched to beat a hand charged 1 point or less (a
    hand with no possible life stops after its first discard)."""
    wild = wild_rank_of(wild_rank)
    cards = list(cards)
    if len(cards) != CARDS_PER_HAND + 1:
        return _arrangement(_assess(cards, wild, rules), None)
    ace = rules.ace_points
    order = sorted(set(cards), key=lambda card: (-card_points(card, wild, ace), card.sort_key))
    search = _Search(cards, wild, rules)
    whole: set[Card] | None = None
    if rules.sets_protected:
        floor, least, cheapest = search.floor
        known = _loose_discard(search, cheapest, order)
        if known is None or floor == card_points(order[known], wild, ace):
            whole = search.show_discards(least)
            # A show is then charged nothing: the first discard in the order that leaves one wins.
            for discard in order:
                if discard in whole:
                    assessment = _assess(_without_card(cards, discard), wild, rules, 1)
                    if assessment.valid:
                        return _arrangement(assessment, discard)
    else:
        # A show with every card in a sequence is charged nothing, so the first discard in the
        # order that leaves one wins; one search finds the discards that could.
        in_sequences = search.show_discards(search.floor[1], with_sets=False)
        for discard in order:
            if discard in in_sequences:
                assessment = _assess(_without_card(cards, discard), wild, rules, 1)
                if assessment.valid:
                    return _arrangement(assessment, discard)
        # The 14 cards' least deadwood with both lives, sets free, if a card could be worth it
        # (see `show_discards`); their cheapest arrangement is looked for without sets here.
        melded = None
        if search.life_possible():
            melded = search.cheapest(search.life_config, search.life_goal, _MOST_POINTS + 1)
        whole = search.show_discards(melded.deadwood if melded is not None else _MOST_POINTS + 1)
        shown = _cheapest_show(search, [(i, d) for i, d in enumerate(order) if d in whole])
        if shown is not None:
            return _arrangement(shown[0], order[shown[1]])
        floor, _, cheapest = search.floor
        known = _loose_discard(search, cheapest, order)
    # No discard leaves a show but perhaps those before the known one (`whole` is then None).
    # Where sets are free and no pure sequence protects alone, 13 cards worth anything are
    # charged nothing only if they all meld: a discard outside `whole` leaves points.
    needs_whole = whole if rules.sets_protected and not rules.pure_sequence_protects else None
    best: _Assessment | None = None
    best_points, best_index = _INFINITE, len(order)
    if known is not None:  # its points are known: the best so far, to be assessed if it stays so
        best_points = min(floor - card_points(order[known], wild, ace), rules.score_cap)
        best_index = known
    for index, discard in enumerate(order):
        if index == known:
            continue  # charged `best_points` (nothing before it beat that) or more (one did)
        before = index < best_index  # comes first in the order: wins a tie
        # A discard before the best in the order needs no more points to win, one after it less
        # (and at most 0 to beat a hand charged nothing, which may still not show).
        bound = best_points + 1 if before else max(best_points, 1)
        points = card_points(discard, wild, ace)
        if min(floor - points, rules.score_cap) >= bound:
            break  # this discard and every cheaper one (in the order) leave at least the best found
        if (
            bound <= 1
            and needs_whole is not None
            and discard not in needs_whole
            and search.hand.all_points > points
        ):
            continue  # it leaves points, and only 0 would win
        assessment = _assess(_without_card(cards, discard), wild, rules, bound)
        if assessment.valid and whole is None:
            return _arrangement(assessment, discard)  # the first show in the order (see above)
        if (assessment.points, index) < (best_points, best_index):
            best, best_points, best_index = assessment, assessment.points, index
    discard = order[best_index]
    if best is not None:
        return _arrangement(best, discard)
    if cheapest is not None and best_points < rules.score_cap:
        # The known discard: the 14 cards' cheapest arrangement less that card, no show (any
        # would have won above), laid out when read.
        lay_out = partial(_lay_out, tuple(cards), wild, rules, cheapest, discard)
        return Arrangement._deferred(False, best_points, discard, lay_out)
    return _arrangement(_assess(_without_card(cards, discard), wild, rules, best_points + 1), discard)


def _without_card(cards: list[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def _cheapest_show(search: _Search, tries: list[tuple[int, Card]]) -> tuple[_Assessment, int] | None:
    """Of the 14 cards' discards `tries` (index in the discard order, card), the one whose show
    is charged least (the first in the order on a tie), as (its assessment, its index); None
    when none of them leaves a show. Each is searched only for a show that would beat the best
    so far, and none once the 14 cards' floor less the discard's points (`_discard_floor`)
    reaches that: the discards come costliest first, so every later one leaves as much."""
    cards, wild, rules = list(search.hand.cards), search.hand.wild, search.rules
    best: tuple[_Assessment, int] | None = None
    for index, discard in tries:
        bound = _INFINITE if best is None else best[0].points
        if bound == 0 or (
            bound < _INFINITE and search.floor[0] - card_points(discard, wild, rules.ace_points) >= bound
        ):
            break
        assessment = _assess(_without_card(cards, discard), wild, rules, bound)
        if assessment.valid and assessment.points < bound:
            best = assessment, index
    return best
