"""The catalogs are complete: every English text the code marks has its Hindi one, the Hindi
catalog holds nothing the code no longer says, and each translation names the same
`{placeholders}` as its English text (a missing one would raise KeyError when shown, an extra
one would print its braces).

The English texts are read from the code itself, as `pybabel extract` would: the first
arguments of `_()` (or `words(language)()`), `N_()` and `locale_str()`, both of `_.n()`, and the
message of a refusal (`RummyError` and its family) raised with a literal. A marked text built
as an f-string cannot be in a catalog, so it fails here too.
"""

import ast
import string
from pathlib import Path

from babel.messages.pofile import read_po
from PIL import ImageFont

from bot.i18n import HINDI, LOCALE_DIR, Words, language_of, words
from render.fonts import DEVANAGARI, FONT_DIR, check_complex_layout, devanagari_font

ROOT = Path(__file__).resolve().parents[2]
CODE = [path for folder in ("bot", "render") for path in sorted((ROOT / folder).rglob("*.py"))]
# The modules whose refusals are shown in the reader's language, so each must be in the catalog
# the others' are still shown in English, and join this list as they are translated. (A text
# marked with `_()` or `N_()` is checked wherever it is.)
REFUSALS_CONVERTED = [
    "bot/*.py",
    "bot/present/*.py",
    "bot/app/*.py",
    "bot/activity/*.py",
    "bot/engine/**/*.py",
    "bot/service/*.py",
    "bot/leagues/*.py",
    "bot/discord/*.py",
    "bot/terminal/*.py",
]
# The modules whose slash commands' descriptions are translated.
COMMANDS_CONVERTED = [
    ROOT / "bot/discord/cog.py",
    ROOT / "bot/discord/info_cog.py",
    ROOT / "bot/discord/league_cog.py",
    ROOT / "bot/discord/league_admin_cog.py",
    ROOT / "bot/discord/replay_cog.py",
]
SOURCES = sorted({path for pattern in REFUSALS_CONVERTED for path in ROOT.glob(pattern)})


def refusals() -> set[str]:
    """The error classes whose messages players read: `RummyError` and every class of ours built
    on it, read from the code (a damaged table's checks, `CorruptTableError`, are for the log)."""
    classes = [
        node
        for path in CODE
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef)
    ]
    found = {"RummyError"}
    while grown := {
        kind.name
        for kind in classes
        if kind.name not in found
        and any(isinstance(base, ast.Name) and base.id in found for base in kind.bases)
    }:
        found |= grown
    return found - {"CorruptTableError"}


MARKERS = {"_", "N_", "locale_str"}
REFUSALS = refusals()


def is_words(node: ast.expr) -> bool:
    """`_` (a language's texts, by convention) or `words(language)` called in place."""
    if isinstance(node, ast.Name):
        return node.id == "_"
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "words"


def marked(call: ast.Call, refusals_too: bool = True) -> list[ast.expr]:
    """The arguments of `call` that are texts for the catalog."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "n" and is_words(func.value):
        return list(call.args[:2])
    if is_words(func):
        return list(call.args[:1])
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return list(call.args[:1]) if name in MARKERS or (refusals_too and name in REFUSALS) else []


def described(node: ast.AST) -> list[ast.expr]:
    """The texts a slash command shows in Discord's menus, which `CommandTranslator` translates:
    descriptions (of a command, its options, its group) and the names of its choices."""
    if isinstance(node, ast.ClassDef):
        return [word.value for word in node.keywords if word.arg == "group_description"]
    if not isinstance(node, ast.Call):
        return []
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    wanted = {"command": {"description"}, "Choice": {"name"}, "describe": None}.get(name, set())
    texts = [word.value for word in node.keywords if wanted is None or word.arg in wanted]
    return [text for text in texts if isinstance(text, ast.Constant)]  # a choice built per card is data


def english_texts(sources=CODE, refusals_in=SOURCES) -> tuple[dict[str, str], list[str]]:
    """Each marked English text with where it is first said, and the f-strings marked by mistake."""
    texts: dict[str, str] = {}
    built: list[str] = []
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            commands = described(node) if path in COMMANDS_CONVERTED else []
            for argument in commands + (
                marked(node, path in refusals_in) if isinstance(node, ast.Call) else []
            ):
                where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{argument.lineno}"
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str) and argument.value:
                    texts.setdefault(argument.value, where)
                elif isinstance(argument, ast.JoinedStr):
                    built.append(where)
    return texts, built


def hindi_catalog() -> dict[str, str]:
    with (LOCALE_DIR / HINDI / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalog = read_po(source, locale=HINDI)
    entries = {}
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for index, text in enumerate(ids):
            entries[text] = strings[min(index, len(strings) - 1)]
    return entries


def placeholders(text: str) -> set[str]:
    return {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_english_text_has_a_hindi_one():
    english, _ = english_texts()
    hindi = hindi_catalog()
    missing = {text: where for text, where in english.items() if not hindi.get(text)}
    stub = "\n".join(f'#: {where}\nmsgid "{text}"\nmsgstr ""\n' for text, where in missing.items())
    assert not missing, f"{len(missing)} texts have no Hindi; add to messages.po:\n{stub}"


def test_the_hindi_catalog_holds_no_text_the_code_no_longer_says():
    english, _ = english_texts()
    assert sorted(set(hindi_catalog()) - set(english)) == []


def test_each_translation_names_the_english_placeholders():
    english, _ = english_texts()
    wrong = {
        text: translated
        for text, translated in hindi_catalog().items()
        if text in english and translated and placeholders(text) != placeholders(translated)
    }
    assert wrong == {}


def test_the_refusals_are_the_whole_error_family():
    assert {
        "RummyError",
        "IllegalActionError",
        "ServiceError",
        "StaleCommandError",
        "LeagueError",
    } <= REFUSALS
    assert "CorruptTableError" not in REFUSALS


def test_no_marked_text_is_an_f_string():
    _, built = english_texts()
    assert built == []


def test_the_checks_see_a_missing_text_an_f_string_and_a_placeholder_mismatch(tmp_path):
    """The checks above can fail: a module saying a new text or building one, and a translation
    dropping `{name}`."""
    module = tmp_path / "new.py"
    module.write_text('_("A text nobody translated")\nraise IllegalActionError(f"built {x}")\n')
    english, built = english_texts([module], [module])
    assert list(english) == ["A text nobody translated"] and not hindi_catalog().get(
        "A text nobody translated"
    )
    assert built == [f"{module}:2"]
    assert placeholders("{name} dropped ({points:+d})") == {"name", "points"}
    assert placeholders("{name} ड्रॉप") != placeholders("{name} dropped ({points:+d})")


def test_hindi_texts_are_looked_up_and_filled():
    _ = words("hi")
    assert _("Closed deck") == "बंद गड्डी"
    assert _.n("{count} card", "{count} cards", 3) == "3 पत्ते"
    assert _("A text nobody translated") == "A text nobody translated"  # English until translated
    assert words(None).language == "en" and Words("fr").language == "en"


def test_discord_and_posix_locales_map_to_our_languages():
    assert language_of("hi") == "hi" and language_of("hi_IN.UTF-8") == "hi"
    assert language_of("en-US") == "en" and language_of("en-GB") == "en"
    assert language_of("fr") is None and language_of(None) is None and language_of("C") is None


def test_pillow_shapes_devanagari():
    """Hindi words need raqm: without it ि would be drawn after the consonant it goes before."""
    assert check_complex_layout() is None, check_complex_layout()
    unshaped = ImageFont.truetype(str(FONT_DIR / DEVANAGARI), 40, layout_engine=ImageFont.Layout.BASIC)
    assert bytes(devanagari_font(40).getmask("कि")) != bytes(unshaped.getmask("कि"))
