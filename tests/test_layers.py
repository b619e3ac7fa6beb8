"""Each layer imports only the layers beneath it, so a rule, a picture or a saved row never
depends on how Discord shows it. Every import is read, those inside functions too.

    bot.engine      the rules: nothing of ours but itself (and nothing impure, test_engine_purity)
    bot.leagues     the leagues' pure core: the engine
    render          pictures from scenes: the engine's cards, the catalogs (bot.i18n), Pillow
    bot.store       persistence: nothing of ours but itself
    bot.service     tables and leagues on a clock: the engine, the leagues' core, the store
    bot.discord, bot.terminal, and what front ends share (bot.scenes, bot.narrate, ...): anything
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = ("bot", "render")

# A layer (a package of ours) and the packages of ours it may import, besides itself.
ALLOWED = {
    "bot/engine": set(),
    "bot/leagues": {"bot.engine"},
    "render": {"bot.engine.cards", "bot.i18n"},  # bot.i18n: the words drawn (Babel only)
    "bot/store": set(),
    "bot/service": {"bot.engine", "bot.leagues", "bot.store", "bot.i18n"},  # i18n: which languages exist
}
# Metrics (prometheus_client) live in bot/metrics.py: the service reports through its observer.
OUTSIDE = {
    "bot/engine": {"discord", "aiosqlite", "asyncpg", "PIL", "prometheus_client"},
    "bot/leagues": {"discord", "aiosqlite", "asyncpg", "PIL", "prometheus_client"},
    "render": {"discord", "aiosqlite", "asyncpg", "prometheus_client"},
    "bot/store": {"discord", "PIL", "prometheus_client"},
    "bot/service": {"discord", "PIL", "prometheus_client"},
}


def imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def allowed(name: str, layer: str) -> bool:
    own = layer.replace("/", ".")
    if name.split(".")[0] not in OURS:
        return name.split(".")[0] not in OUTSIDE[layer]
    return any(name == ok or name.startswith(ok + ".") for ok in {own, *ALLOWED[layer]})


@pytest.mark.parametrize("layer", list(ALLOWED))
def test_a_layer_imports_only_the_layers_beneath_it(layer):
    offenders = {
        str(path.relative_to(ROOT)): sorted(name for name in imports(path) if not allowed(name, layer))
        for path in (ROOT / layer).rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from bot.discord import presenter\n")
    assert not allowed(next(iter(imports(module))), "bot/service")
