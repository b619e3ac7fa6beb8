"""Every player-facing word in the reader's language: English (the source) and Hindi.

Why gettext through Babel, not Fluent: the texts are written in English in the code, as now, and
an English text is its own key (`_("Your turn")`), so the code stays readable, a missing
translation shows English rather than a key, and nothing has to keep two names in step. gettext
has the plural rules we need (`_.n`), `.po` files every translation tool opens, and Babel is one
well-kept package that reads `.po` files; Fluent's Python packages are thin and add a second
syntax to learn for a handful of plurals.

No build step: the catalogs `bot/locale/<lang>/LC_MESSAGES/messages.po` are read once at first
use (`babel.messages.pofile.read_po`) and compiled in memory to what the standard `gettext`
module reads, so the quick start stays two commands. `tests/present/test_i18n.py` checks that every
English text of the code has its Hindi one, no Hindi one is left over, and both name the same
`{placeholders}`.

Texts take their values as named placeholders (`_("{name} dropped", name=...)`), never pasted
in before the lookup, so the catalog holds one text per idea. `N_` marks a text kept in a
constant and looked up later.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from babel.support import Translations

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
ENGLISH: Final = "en"
HINDI: Final = "hi"
LANGUAGES: Final = (ENGLISH, HINDI)
LANGUAGE_NAMES: Final = {ENGLISH: "English", HINDI: "हिन्दी"}


def N_(message: str) -> str:  # gettext's own name: "marked, looked up later"
    """Marks a text for the catalog where it is defined; `_(text)` translates it where it is shown."""
    return message


def language_of(locale: str | None) -> str | None:
    """One of ours for a Discord or POSIX locale (`hi`, `en-US`, `hi_IN.UTF-8`), else None."""
    if not locale:
        return None
    code = str(locale).replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else None


@lru_cache(maxsize=len(LANGUAGES))
def _catalog(language: str) -> Translations | None:
    """The language's catalog compiled in memory; None for English, whose texts are the keys."""
    if language == ENGLISH:
        return None
    from babel.messages.mofile import write_mo  # only once another language is read: English
    from babel.messages.pofile import read_po  # needs none of Babel (the terminal starts faster)
    from babel.support import Translations

    path = LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


class Words:
    """The texts of one language: `_("text {x}", x=1)`, `_.n("{n} card", "{n} cards", n)`."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else ENGLISH
        self._translations = _catalog(self.language)

    def __call__(self, message: str, /, **values: object) -> str:
        if not message:  # gettext's "" is the catalog's header, not an empty text
            return message
        found = self._translations.gettext(message) if self._translations else message
        return found.format(**values) if values else found

    def n(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """A text whose words follow a number; `count` is also the `{count}` placeholder."""
        if self._translations:
            found = self._translations.ngettext(singular, plural, count)
        else:
            found = singular if count == 1 else plural
        return found.format(count=count, **values)

    def __repr__(self) -> str:
        return f"Words({self.language!r})"


@lru_cache(maxsize=len(LANGUAGES))
def words(language: str | None) -> Words:
    """The texts in `language` (one of `LANGUAGES`); English for None or one we do not have."""
    return Words(language or ENGLISH)


EN: Final = words(ENGLISH)
