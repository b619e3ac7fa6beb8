"""`python -m bot` runs the Discord bot; `python -m bot play` plays a table in the terminal."""

from __future__ import annotations

import sys

NO_FRONT_END = """\
rummy-bot: the Discord front end is not built yet, so there is nothing to connect.

When it is, it will read DISCORD_TOKEN from a .env file in this folder: copy .env.example
to .env and fill it in (every setting is explained there).

Meanwhile, play a real table against computer players in this terminal:

    python -m bot play                      (Points, 3 players)
    python -m bot play --format pool-101    (also: deals-2, deals-3, deals-6, pool-61, pool-201)
    python -m bot play --help
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "play":
        from bot.terminal.app import main as play

        return play(args[1:])
    print(NO_FRONT_END, file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
