"""A number as a place ("2nd", in Hindi "2रा"), right for every number in both languages.

Which ending a number takes is each language's grammar, as in CLDR's ordinal rules, not a text
a catalog can hold: English looks at the last digits (21st, 22nd, 23rd, but 11th to 13th), Hindi
at the number itself (1ला, 2रा, 3रा, 4था, 6ठा, every other one वाँ: 5वाँ, 21वाँ, 100वाँ). An
English rule's ending looked up in a catalog gave "4वाँ" and "21ला".
"""

from __future__ import annotations

from bot.i18n import HINDI, Words

_ENGLISH = {1: "st", 2: "nd", 3: "rd"}
_HINDI = {1: "ला", 2: "रा", 3: "रा", 4: "था", 6: "ठा"}


def ordinal(n: int, _: Words) -> str:
    """`n` as a place in `_`'s language."""
    if _.language == HINDI:
        return f"{n}{_HINDI.get(n, 'वाँ')}"
    return f"{n}{'th' if 10 <= n % 100 <= 20 else _ENGLISH.get(n % 10, 'th')}"
