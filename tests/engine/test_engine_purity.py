"""The engine must stay pure: no Discord, database, imaging or asyncio imports, directly or not."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "PIL", "asyncio", "render"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_engine_sources_import_nothing_impure():
    offenders = {
        str(path.relative_to(ENGINE)): sorted(imported_roots(path) & FORBIDDEN)
        for path in ENGINE.rglob("*.py")
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_importing_the_engine_loads_no_impure_module():
    code = (
        "import sys, bot.engine, pkgutil, importlib\n"
        "for m in pkgutil.iter_modules(bot.engine.__path__):\n"
        "    importlib.import_module('bot.engine.' + m.name)\n"
        f"print(sorted(m for m in {sorted(FORBIDDEN)!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
