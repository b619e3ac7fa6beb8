"""Each layer imports only the layers beneath it, so a rule, a picture or a saved row never
depends on how Discord shows it, and no two modules import each other. Every import is read,
those inside functions too (only `if TYPE_CHECKING:` blocks, never run, are left out of circles).

    bot.engine      the rules: nothing of ours but itself (and nothing impure, test_engine_purity)
    bot.leagues     the leagues' pure core: the engine
    render          pictures from scenes: the engine's cards, the catalogs (bot.i18n), Pillow
    bot.store       persistence: nothing of ours but itself
    bot.service     tables and leagues on a clock: the engine, the leagues' core, the store
    bot.present     words and scenes front ends share: the engine, the leagues' core, render's
                    scenes and the service's views
    bot.app         the process: settings, metrics, start-up, workers; anything but a front end
    bot.activity    the Activity's server, a front end: the engine's commands and cards, the service's
                    door and frozen views, shared words; never a live table, a Match, a Deal or a row
    bot.discord, bot.terminal: anything
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
    "bot/present": {
        "bot.engine",
        "bot.leagues",
        "bot.i18n",
        "render.scenes",
        "bot.service.replay_access",
        "bot.store",
    },
    "bot/app": {"bot.engine", "bot.leagues", "bot.i18n", "bot.store", "bot.service"},
    "bot/activity": {"bot.engine", "bot.i18n", "bot.present", "bot.service"},
}
# Metrics (prometheus_client) live in bot/app/metrics.py: the service reports through its observer.
OUTSIDE = {
    "bot/engine": {"discord", "aiosqlite", "asyncpg", "PIL", "prometheus_client"},
    "bot/leagues": {"discord", "aiosqlite", "asyncpg", "PIL", "prometheus_client"},
    "render": {"discord", "aiosqlite", "asyncpg", "prometheus_client"},
    "bot/store": {"discord", "PIL", "prometheus_client"},
    "bot/service": {"discord", "PIL", "prometheus_client"},
    "bot/present": {"discord", "aiosqlite", "asyncpg", "PIL", "prometheus_client"},
    "bot/app": {"discord"},
    "bot/activity": {"discord", "aiosqlite", "asyncpg", "PIL", "prometheus_client"},
}
# What a front end that reads the read model never holds: the live table, the engine's game
# objects (a `Match`, a `Deal`: a deal's every hand and its deck order) and the store's rows.
NEVER_IN_ACTIVITY = {
    "LiveTable",
    "Match",
    "Deal",
    "TableRecord",
    "SeatRecord",
    "ActiveTable",
    "CommandRecord",
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


def imported_names(path: Path) -> set[str]:
    return {
        alias.name
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_activity_reads_frozen_views_never_a_live_table_a_match_or_a_row():
    """Issue 27: the web table serves the read model's views, so a hidden card can only reach a
    page through a seat's own `HandView`."""
    held = {
        str(path.relative_to(ROOT)): sorted(imported_names(path) & NEVER_IN_ACTIVITY)
        for path in (ROOT / "bot/activity").rglob("*.py")
    }
    assert {path: names for path, names in held.items() if names} == {}


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from bot.discord import presenter\n")
    assert not allowed(next(iter(imports(module))), "bot/service")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def run_time_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ours `path` imports when it runs: at its top or inside a function, but not
    under `if TYPE_CHECKING:`. `from a.b import c` depends on `a.b.c` when that is a module,
    else on `a.b`."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.If)
            and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING"
        ):
            node.body = []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules
            found.update(submodules)
            if len(submodules) < len(node.names):  # names defined in the module itself
                found.add(node.module)
    return found & modules


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while (other := stack.pop()) != module:
                group.append(other)
            if group:
                found.append(sorted([module, *group]))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def test_no_two_modules_import_each_other_even_through_others():
    paths = {module_name(path): path for top in OURS for path in (ROOT / top).rglob("*.py")}
    graph = {name: run_time_imports(path, set(paths)) - {name} for name, path in paths.items()}
    assert circles(graph) == []


def test_the_circle_check_finds_a_circle_through_a_function_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
