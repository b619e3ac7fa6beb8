"""`python -m bot migrate-db --to postgresql://...`: the SQLite database copied into PostgreSQL
(`bot.store.transfer`), then checked: every table holds as many rows on both sides, and every
open table's match, loaded from each side as a restart would (`Match.restore` of its snapshot
and the commands after it), is the same match (`to_json()`). It prints a short report; any
expected problem (no such file, a server that cannot be reached, a target holding data, a
schema newer than this bot) is one line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.engine.match import Match
from bot.store import DamagedRowError, Store, StoredMatch, StoreError
from bot.store.location import shown
from bot.store.transfer import copy_into, open_source, open_target


@dataclass
class Report:
    copied: dict[str, int]
    open_tables: int = 0
    matches: int = 0
    damaged: list[str] = field(default_factory=list)  # open tables set aside in both, alike

    def lines(self, source: Path, url: str) -> list[str]:
        rows = ", ".join(f"{name} {count}" for name, count in self.copied.items() if count)
        out = [
            f"Copied {source} into {shown(url)}: {sum(self.copied.values())} rows ({rows or 'none'}).",
            f"Verified: row counts equal in all {len(self.copied)} tables; "
            f"{self.open_tables} open tables, {self.matches} matches replay alike.",
        ]
        out += [f"  damaged as before (copied as it is): {reason}" for reason in self.damaged]
        return out


async def migrate_db(source: Path, url: str) -> Report:
    """Copies the SQLite database at `source` into the PostgreSQL database at `url` and checks
    the copy; raises `StoreError` saying what is wrong."""
    sqlite = await open_source(source)
    try:
        target = await open_target(url)  # brought to this bot's schema, then let go for the copy
        await target.close()
        report = Report(await copy_into(sqlite, url))
        target = await open_target(url)
        try:
            await verify(sqlite, target, report)
        finally:
            await target.close()
    finally:
        await sqlite.close()
    return report


async def verify(source: Store, target: Store, report: Report) -> None:
    """Row counts, then each open table's match, compared between the two databases."""
    before, after = await source.row_counts(), await target.row_counts()
    differ = [
        f"{name} {before[name]} -> {after.get(name)}" for name in before if before[name] != after.get(name)
    ]
    if differ or before != report.copied:
        raise StoreError(f"The copy does not hold every row: {', '.join(differ) or 'rows copied differ'}.")
    ids = await source.active_table_ids()
    if ids != await target.active_table_ids():
        raise StoreError("The copy does not have the same open tables.")
    for table_id in ids:  # one at a time: a big database's matches are not all held at once
        one, other = await source.active_table(table_id), await target.active_table(table_id)
        if one is None or other is None:
            if one is not other:
                raise StoreError(f"Table {table_id} reads differently in the copy.")
            continue  # ids that cannot be read at all: left out by both, as at a restart
        report.open_tables += 1
        if one.damage is not None or other.damage is not None:
            if one.damage != other.damage:
                raise StoreError(f"Table {one.table.id} reads differently in the copy: {other.damage}")
            report.damaged.append(str(one.damage))
            continue
        if (one.match is None) != (other.match is None):
            raise StoreError(f"Table {one.table.id}'s match is missing on one side.")
        if one.table != other.table:
            raise StoreError(f"Table {one.table.id} differs in the copy.")
        if one.match is None or other.match is None:
            continue
        replayed, again = _replayed(one.match), _replayed(other.match)
        if replayed != again:
            raise StoreError(f"Table {one.table.id}'s match replays differently from the copy.")
        if isinstance(replayed, str):  # a match the bot could not resume either: copied as it is
            report.damaged.append(replayed)
        else:
            report.matches += 1


def _replayed(stored: StoredMatch) -> dict[str, Any] | str:
    """The match as a restart resumes it, or why it cannot be."""
    try:
        return Match.restore(stored.snapshot, stored.pending).to_json()
    except Exception as error:  # the engine's refusal of a damaged match, whatever its kind
        return str(DamagedRowError.of("match", stored.match_id, error))


def run(source: Path, url: str, out: TextIO = sys.stdout) -> Report:
    import asyncio

    report = asyncio.run(migrate_db(source, url))
    for line in report.lines(source, url):
        print(line, file=out)
    return report
