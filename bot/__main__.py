"""`python -m bot` runs the Discord bot; `python -m bot play` plays a table in the terminal."""

from __future__ import annotations

import sys

NO_FRONT_END = """\
rummy-bot: the Discord front end is not built yet.

When it is, set DISCORD_TOKEN in a .env file in this folder (copy .env.example to .env
and fill it in) and run `python -m bot` again.
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "play":
        print("The terminal table is not built yet.", file=sys.stderr)
        return 2
    print(NO_FRONT_END, file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
