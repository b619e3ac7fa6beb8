"""The league core stays pure like the engine: no Discord, database, imaging or asyncio imports,
at the top of a module or inside a function (which importing alone would not reveal)."""

import subprocess
import sys
from pathlib import Path

from test_engine_purity import imported_roots

LEAGUES = Path(__file__).resolve().parents[2] / "bot" / "leagues"
FORBIDDEN = {"PIL", "aiosqlite", "asyncio", "discord", "sqlite3", "render"}


def test_league_sources_import_nothing_impure_anywhere():
    offenders = {
        str(path.relative_to(LEAGUES)): sorted(imported_roots(path) & FORBIDDEN)
        for path in LEAGUES.rglob("*.py")
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_importing_every_league_module_loads_nothing_impure():
    code = (
        "import sys, bot.leagues, pkgutil, importlib\n"
        "for m in pkgutil.iter_modules(bot.leagues.__path__):\n"
        "    importlib.import_module('bot.leagues.' + m.name)\n"
        f"print(sorted(m for m in {sorted(FORBIDDEN)!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
