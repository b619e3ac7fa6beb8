"""A show's verdict in the reader's words. The engine tells why a show fails in English
(`bot.engine.melds.SHOW_REASONS`), and event logs keep it so, unchanged: a reason is read back
here into its template and values when it is shown, then told again in the reader's language.
A reason no template matches (one kept by an older engine) is shown as it was stored.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache

from bot.engine.melds import SHOW_REASONS
from bot.i18n import Words


@lru_cache(maxsize=len(SHOW_REASONS))
def _pattern(template: str) -> re.Pattern[str]:
    """The template as a pattern: its words literally, each `{placeholder}` a named group."""
    parts = [
        re.escape(literal) + (f"(?P<{field}>.+?)" if field else "")
        for literal, field, _, _ in string.Formatter().parse(template)
    ]
    return re.compile("".join(parts))


def reason_words(reason: str, _: Words) -> str:
    """`reason`, as the engine said it, in `_`'s words (a group's fault inside it too)."""
    for template in SHOW_REASONS:
        found = _pattern(template).fullmatch(reason)
        if found is not None:
            values = {key: reason_words(value, _) for key, value in found.groupdict().items()}
            return _(template, **values)
    return reason
