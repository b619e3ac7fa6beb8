"""`N_`, gettext's mark for a text kept in a constant, for the pure cores (the engine, the
leagues), which may not import `bot.i18n`: they keep saying English (and event logs keep it),
and the front ends look the marked texts up in the reader's catalog where they show them.

A marked text is a `Word`, so that one quoted into a refusal (`{action}`: "discard"; a night's
`{status}`) is told in the reader's words with the rest of it (`RummyError.render`), while a
player's or a league's name, a plain `str`, never is.
"""

from __future__ import annotations


class Word(str):
    """A text of ours that the reader's catalog translates wherever it is put."""

    __slots__ = ()


def N_(message: str) -> Word:  # gettext's own name: "marked, looked up later"
    """Marks a text for the message catalogs (`tests/present/test_i18n.py` reads the marks)."""
    return Word(message)
