"""Names of the game that every front end's texts share (the pictures' titles, the table message,
the terminal): kept apart from the pictures' code so the terminal need not load Pillow to say them."""

from __future__ import annotations

from bot.engine.formats import Family, FormatSpec
from bot.engine.match import Standing
from bot.i18n import EN, N_, Words

# A seat no longer in the match, in the standings' status column.
STANDING_WORDS = {Standing.ELIMINATED: N_("eliminated"), Standing.LEFT: N_("left"), Standing.IN: N_("in")}


def format_title(spec: FormatSpec, _: Words = EN) -> str:
    """The format's name ("Pool 101") in the reader's words."""
    if spec.family is Family.POINTS:
        return _("Points")
    if spec.family is Family.DEALS:
        return _("Deals · best of {deals}", deals=spec.deals)
    return _("Pool {limit}", limit=spec.pool_limit)
