"""Life flags: what a partial arrangement holds towards the lives a show needs, summarised as
(pure sequence seen, sequences seen capped at 2, a 4+ card sequence seen) and packed into a
code from 0 to 11, so that a table is indexed by it and joining two parts' flags is one lookup
(`_COMBINE`)."""

from __future__ import annotations

from bot.engine.melds import life_met
from bot.engine.rules import Rules

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


_LIFE_GOALS: dict[bool, list[bool]] = {}


def _life_goal(rules: Rules) -> list[bool]:
    """Which life codes meet the rules' declaration requirements (melds decides)."""
    goal = _LIFE_GOALS.get(rules.require_four_card_life)
    if goal is None:
        goal = [life_met(p, s, bool(long), rules) for p, s, long in map(_decode, _CODES)]
        _LIFE_GOALS[rules.require_four_card_life] = goal
    return goal
