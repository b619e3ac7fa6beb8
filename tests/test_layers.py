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
    bot.discord, bot.terminal: anything, but Discord reads the service's views only (`NEVER`)
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
        "bot.service.views",
        "bot.service.replay_views",
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
# What a layer may import of the layers beneath it but must never hold: front ends read the
# service's frozen views (`bot.service.views`), never its live tables, the engine's live match and
# deal, or the store's rows (a module, or `module.Name` for one name of a module).
STORED_ROWS = ("ActiveTable", "CommandRecord", "DealSummary", "MatchSummary", "Pruned", "SeatRecord")
STORED_ROWS += ("StandingRow", "StatsDelta", "StoredDeal", "StoredLeague", "StoredMatch", "TableRecord")
LIVE_OBJECTS = {
    "bot.service.live_table",
    "bot.service.LiveTable",
    "bot.engine.match.Match",
    "bot.engine.deal.Deal",
    "bot.store.records",
    "bot.store.snapshots",
    "bot.store.replay_rows",
    "bot.store.league_rows",
    *(f"bot.store.{row}" for row in STORED_ROWS),
}
# The Activity's pages get a hidden card only through a seat's own `HandView` (issue 27).
NEVER = {"bot/discord": LIVE_OBJECTS, "bot/activity": LIVE_OBJECTS}


def imports(path: Path) -> set[str]:
    """Every module `path` imports, and every `module.Name` it imports from one (which a layer
    may import wherever it may import the module)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def never(name: str, layer: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in NEVER[layer])


@pytest.mark.parametrize("layer", list(NEVER))
def test_a_front_end_holds_no_live_table_match_deal_or_stored_row(layer):
    offenders = {
        str(path.relative_to(ROOT)): sorted(name for name in imports(path) if never(name, layer))
        for path in (ROOT / layer).rglob("*.py")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_front_end_check_sees_a_live_object_imported_by_name(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from bot.engine.deal import Deal, SeatView\nfrom bot.store import TableStatus\n")
    assert {name for name in imports(module) if never(name, "bot/discord")} == {"bot.engine.deal.Deal"}


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
    assert not any(allowed(name, "bot/service") for name in imports(module))


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
