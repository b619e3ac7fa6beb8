"""The league core stays pure like the engine: importing it loads no Discord, database, imaging or asyncio."""

import subprocess
import sys

FORBIDDEN = ["PIL", "aiosqlite", "asyncio", "discord", "sqlite3"]


def test_importing_every_league_module_loads_nothing_impure():
    code = (
        "import sys, bot.leagues, pkgutil, importlib\n"
        "for m in pkgutil.iter_modules(bot.leagues.__path__):\n"
        "    importlib.import_module('bot.leagues.' + m.name)\n"
        f"print(sorted(m for m in {FORBIDDEN!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
