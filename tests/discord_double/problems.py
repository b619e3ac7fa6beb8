"""What the double refuses and how it says so: a `Problem` is one field Discord would name in its
400 Invalid Form Body answer, a `Violation` one request of the bot's that had problems.

Two families of checks find them: Discord's OpenAPI description (`spec.py`) and the documented
limits it leaves out or states loosely (`limits.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

INVALID_FORM_BODY = 50035


@dataclass(frozen=True)
class Problem:
    """One refused field: where (keys and indexes into the body), Discord's code, a message."""

    at: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(part) for part in self.at) or "(body)"
        return f"{where}: {self.message} [{self.code}]"


@dataclass
class Violation:
    """A request Discord would have refused, as the double recorded it."""

    method: str
    path: str
    problems: list[Problem]
    status: int = 400
    body: Any = field(default=None, repr=False)

    def __str__(self) -> str:
        lines = "\n".join(f"    {p}" for p in self.problems)
        return f"{self.method} {self.path} -> {self.status}\n{lines}"


def too_long(at: tuple[str | int, ...], limit: int) -> Problem:
    return Problem(at, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def too_short(at: tuple[str | int, ...], limit: int) -> Problem:
    return Problem(at, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")


def length(at: tuple[str | int, ...], value: Any, low: int, high: int) -> list[Problem]:
    """`value` (a string or a list) has between `low` and `high` items; absent (None) is required
    when `low` is above 0, and fine otherwise."""
    if value is None:
        return [Problem(at, "BASE_TYPE_REQUIRED", "This field is required")] if low > 0 else []
    size = len(value) if isinstance(value, str | list | dict) else 0
    if size > high:
        return [too_long(at, high)]
    if size < low:
        return [too_short(at, low)]
    return []


def form_errors(problems: list[Problem]) -> dict[str, Any]:
    """Discord's `errors` object: the body's shape down to each refused field, whose `_errors`
    lists code and message (array indexes become string keys, as Discord writes them)."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in problem.at:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return errors


def error_body(problems: list[Problem]) -> dict[str, Any]:
    return {"message": "Invalid Form Body", "code": INVALID_FORM_BODY, "errors": form_errors(problems)}
