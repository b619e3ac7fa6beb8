"""The words of a league on Discord: announcement, scheduled event description, reminders,
notes and the `/league history` and `/league me` answers.

Pure functions of the league's state (no Discord calls), so the presenter stays about *where*
things go and these stay about *what* they say. Every time is a Discord timestamp, which each
reader's client shows in their own time zone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from bot.discord import limits
from bot.discord.safe_text import escaped
from bot.engine.formats import Format
from bot.i18n import EN, N_, Words
from bot.leagues import League, Night, NightStatus, Placing
from bot.leagues.points import PointsTable
from bot.leagues.schedule import DAY_NAMES, Schedule, discord_timestamp
from bot.present.game_words import format_title
from bot.present.ordinals import ordinal
from bot.present.rules_options import preset, rules_line
from bot.store.forgetting import FORMER_PLAYER

MENTIONS = "\0"  # where `within` puts the mentions in a message
# How long a night is shown to last on the scheduled event (Discord requires an end for events
# outside a voice channel): a generous guess per round, by how deep the pool is.
ROUND_ESTIMATE = {
    Format.POOL_61: timedelta(minutes=40),
    Format.POOL_101: timedelta(minutes=60),
    Format.POOL_201: timedelta(minutes=90),
}


# A night's status in `/league history`.
NIGHT_STATUSES = {
    NightStatus.SCHEDULED: N_("scheduled"),
    NightStatus.SIGNUP: N_("signup"),
    NightStatus.POSTPONED: N_("postponed"),
    NightStatus.CANCELLED: N_("cancelled"),
    NightStatus.MISSED: N_("missed"),
    NightStatus.RUNNING: N_("running"),
    NightStatus.FINISHED: N_("finished"),
}


def mention(user_id: int) -> str:
    """A member's mention; a forgotten one's placeholder (a negative id) names no account."""
    return f"<@{user_id}>" if user_id > 0 else FORMER_PLAYER


def member(names: Mapping[int, str], user_id: int) -> str:
    """A member by the name they signed up with (as they typed it: `escaped`), else a mention."""
    name = names.get(user_id)
    return escaped(name) if name is not None else mention(user_id)


def mentions(users: Iterable[int], room: int = limits.MESSAGE, _: Words = EN) -> str:
    """The users' mentions within `room` characters: as many as fit, then how many more, so a
    long sign-up list never cuts a mention in half nor pushes a message over Discord's limit."""
    shown = [mention(user) for user in users]
    if not shown:
        return _("nobody yet")
    length, fits = -2, 0
    for words in shown:
        length += len(words) + 2
        left = len(shown) - fits - 1
        if length + (len(" " + _("and {count} more", count=left)) if left else 0) > room:
            break
        fits += 1
    rest = len(shown) - fits
    return ", ".join(shown[:fits]) + (" " + _("and {count} more", count=rest) if rest else "")


def within(message: str, users: Iterable[int], _: Words = EN) -> str:
    """`message` with the users' mentions where it says `MENTIONS`, as many as Discord's limit
    leaves room for."""
    return message.replace(MENTIONS, mentions(users, limits.MESSAGE - len(message) + len(MENTIONS), _))


def when(instant: datetime) -> str:
    """A start as members read it: the full date and time, and how far off it is."""
    return f"{discord_timestamp(instant)} ({discord_timestamp(instant, 'R')})"


def no_standings_yet(league: League, _: Words = EN) -> str:
    """`/league standings` before any table of the season has a result: when there will be one."""
    running, upcoming = league.running_night, league.next_night
    if running is not None:
        return _(
            "No table of night {number} has finished yet: standings appear as soon as one "
            "does (provisional until the night is over).",
            number=running.number,
        )
    if upcoming is not None:
        return _(
            "No night has been played this season yet: standings appear once night "
            "{number} ({when}) has results.",
            number=upcoming.number,
            when=when(upcoming.starts_at),
        )
    return _("No night has been played this season yet.")


def night_title(league: League, night: Night, _: Words = EN) -> str:
    """The night as messages name it (the league's name as its admin typed it: `escaped`)."""
    return _("{league} · Night {number}", league=escaped(league.name), number=night.number)


def event_name(league: League, night: Night, _: Words = EN) -> str:
    """The night as its scheduled event names it: plain text, which Discord shows as it is."""
    return limits.event_name(_("{league} · Night {number}", league=league.name, number=night.number))


def night_end(league: League, night: Night) -> datetime:
    """The end shown on the scheduled event: the start plus an estimate for the night's rounds."""
    return night.starts_at + ROUND_ESTIMATE.get(league.format, timedelta(hours=1)) * night.rounds


def schedule_words(schedule: Schedule, _: Words = EN) -> str:
    """`Schedule.describe()` in the reader's words: "every Friday at 20:00"."""
    return _(schedule.describe_form(), **schedule.describe_values(_(DAY_NAMES[schedule.weekday])))


def points_words(table: PointsTable, _: Words = EN) -> str:
    """The points each place earns, in the reader's words: "1st 10, 2nd 6, …"."""
    places = enumerate(table.by_position, start=1)
    return ", ".join(f"{ordinal(place, _)} {points}" for place, points in places)


def table_rules(league: League, _: Words = EN) -> str:
    """The rules the league's tables play: the season's (fixed for it), else the next season's."""
    rules = league.seasons[-1].rules if league.season is not None else preset(league.rules)
    return _("Rules: {rules}", rules=rules_line(league.format.spec, rules, _))


def rules_lines(league: League, _: Words = EN) -> list[str]:
    rounds = _.n("one round", "{count} rounds", league.rounds_per_night)
    return [
        table_rules(league, _),
        _(
            "{format}, {rounds}, tables of up to {seats} balanced by season points.",
            format=format_title(league.format.spec, _),
            rounds=rounds,
            seats=league.seats_per_table,
        ),
        _(
            "League points by finishing position: {points}; a no-show scores {no_show}. Ties: more "
            "wins, better average position, fewer pool points conceded.",
            points=points_words(league.points_table, _),
            no_show=league.points_table.no_show,
        ),
        _(
            "At the start each table gets a thread: press **I'm here** there; whoever has not checked "
            "in when check-in closes is marked a no-show."
        ),
    ]


def event_description(league: League, night: Night, _: Words = EN) -> str:
    """What the scheduled event says: how to sign up and the rules, within Discord's limit."""
    lines = [
        _(
            "Sign up with `/league join` or the Join button on the announcement in {channel}; "
            "leave before the start with `/league leave`.",
            channel=f"<#{league.channel_id}>",
        ),
        *rules_lines(league, _),
    ]
    return limits.event_description("\n".join(lines))


def announcement(league: League, night: Night, _: Words = EN) -> str:
    """The announcement in the league channel; its Join / Leave buttons go while sign-up is open."""
    head = f"📣 **{night_title(league, night, _)}** · {when(night.starts_at)}"
    status = {
        NightStatus.POSTPONED: f"{_('**Postponed** to this time.')} {escaped(night.note)}".strip(),
        NightStatus.CANCELLED: f"{_('**Cancelled.**')} {escaped(night.note)}".strip(),
        NightStatus.MISSED: f"{_('**Missed.**')} {escaped(night.note)}".strip(),
        NightStatus.RUNNING: _("**Sign-up is closed**: the night is being played in its table threads."),
        NightStatus.FINISHED: _("**This night is over**: see the standings below."),
    }.get(night.status)
    lines = [head]
    if status:
        lines.append(status)
    if night.status in (NightStatus.SCHEDULED, NightStatus.SIGNUP, NightStatus.POSTPONED):
        lines.append(
            _("Press **Join** (or `/league join`) to play; **Leave** before the start if you can't.")
        )
    lines.append(_("Signed up ({count}): {mentions}", count=len(night.signups), mentions=MENTIONS))
    lines += rules_lines(league, _)
    return within("\n".join(lines), night.signups, _)


def reminder(league: League, night: Night, _: Words = EN) -> str:
    return within(
        _(
            "⏰ **{title}** starts {when} ({time}). Signed up: {mentions}. Not in yet? `/league join`.",
            title=night_title(league, night, _),
            when=discord_timestamp(night.starts_at, "R"),
            time=discord_timestamp(night.starts_at, "t"),
            mentions=MENTIONS,
        ),
        night.signups,
        _,
    )


def night_changed(league: League, night: Night, reason: str, starts: datetime, _: Words = EN) -> str:
    """The night as it was when it changed: `reason` and `starts` are the change's own."""
    reason = escaped(reason or night.note)
    why = " " + _("Reason: {reason}", reason=reason) if reason else ""
    title = night_title(league, night, _)
    if night.status is NightStatus.POSTPONED:
        return _("🗓️ **{title}** is postponed to {when}. Sign-ups stay.", title=title, when=when(starts)) + why
    if night.status is NightStatus.MISSED:
        return _("⚠️ **{title}** was missed: {note}", title=title, note=escaped(night.note))
    return _("❌ **{title}** is cancelled.", title=title) + why


def check_in(
    seats: Iterable[int], until: datetime | None, checked_in: Iterable[int] = (), _: Words = EN
) -> str:
    """The check-in message, with who is in and whom the table waits for once someone came."""
    seats, came = list(seats), list(checked_in)
    closes = " " + _("Check-in closes {when}.", when=discord_timestamp(until, "R")) if until else ""
    lines = [
        _(
            "🎴 Your table: {mentions}. Press **I'm here** (or `/league here`) to check in; the "
            "game starts as soon as everyone is in.",
            mentions=mentions(seats, _=_),
        )
        + closes
    ]
    if came:
        lines.append(_("In: {mentions}", mentions=mentions(came, _=_)))
        waiting = [user for user in seats if user not in came]
        if waiting:
            lines.append(_("Waiting for: {mentions}", mentions=mentions(waiting, _=_)))
    return "\n".join(lines)


def check_in_refused(thread_id: int, seats: Iterable[int], _: Words = EN) -> str:
    """Said in the league channel when the check-in message could not go into the table's thread,
    so the members are not marked no-shows for a button they never saw."""
    return _(
        "⚠️ I could not post the check-in in {thread} (I need the Send Messages in Threads "
        "permission). {mentions}: check in with `/league here` in that thread.",
        thread=f"<#{thread_id}>",
        mentions=mentions(seats, _=_),
    )


def deleted(name: str, _: Words = EN) -> str:
    """Said in a league's channel when an admin deletes it."""
    return _(
        "**{name}** was deleted by an admin: its nights, sign-ups and reminders are over.", name=escaped(name)
    )


def damaged(name: str, _: Words = EN) -> str:
    """Said once in a league's channel when its saved state cannot be read."""
    return _(
        "⚠️ **{name}**: the league's saved state is damaged, so it is set aside: no night, sign-up "
        "or reminder runs until an admin restores or deletes it. The other leagues are not affected.",
        name=escaped(name),
    )


def table_started(present: Iterable[int], no_shows: Iterable[int], _: Words = EN) -> str:
    absent = list(no_shows)
    missing = " " + _("No-show: {mentions}.", mentions=mentions(absent, _=_)) if absent else ""
    return _("▶️ The game starts with {mentions}.", mentions=mentions(present, _=_)) + missing


def place(placing: Placing, _: Words = EN) -> str:
    """Where a member finished: `#2`, a no-show, or no placing at all (a table abandoned)."""
    if placing.no_show:
        return _("no-show")
    return f"#{placing.position}" if placing.position is not None else _("no placing")


def placings(found: Iterable[Placing], names: Mapping[int, str], _: Words = EN) -> list[str]:
    """One line per member, best first: position (or no-show) and league points."""
    lines = []
    for placing in found:
        won = " 🏆" if placing.won else ""
        who = member(names, placing.user_id)
        lines.append(f"{place(placing, _)} {who}: " + _("{points} pts", points=placing.points) + won)
    return lines


def table_settled(
    round_number: int,
    number: int,
    found: Iterable[Placing],
    names: Mapping[int, str],
    reason: str = "",
    _: Words = EN,
) -> str:
    why = [escaped(reason)] if reason else []
    over = _("✅ **Round {round}, table {number} is over.**", round=round_number, number=number)
    return "\n".join([over, *why, *placings(found, names, _)])


def history(league: League, names: Mapping[int, str], _: Words = EN) -> str:
    """`/league history`: the season's nights, each with its tables' results and adjustments."""
    season = league.seasons[-1] if league.seasons else None
    if season is None:
        return _("{league} has no season yet.", league=escaped(league.name))
    lines = [_("**{league}**, season {number}:", league=escaped(league.name), number=season.number)]
    for night in season.nights:
        note = f" ({escaped(night.note)})" if night.note else ""
        day = discord_timestamp(night.starts_at, "d")
        status = _(NIGHT_STATUSES[night.status])
        lines.append(
            _("**Night {number}** ({day}): {status}", number=night.number, day=day, status=status) + note
        )
        for table in night.tables:
            if table.placings:
                results = "; ".join(placings(table.placings, names, _))
                lines.append(
                    "  "
                    + _(
                        "round {round}, table {number}: {results}",
                        round=table.round,
                        number=table.number,
                        results=results,
                    )
                )
        for adjustment in season.adjustments:
            if adjustment.night == night.number:
                lines.append(
                    "  "
                    + _(
                        "adjusted {who} {points} by {by}: {reason}",
                        who=member(names, adjustment.user_id),
                        points=f"{adjustment.delta:+d}",
                        by=mention(adjustment.by),
                        reason=escaped(adjustment.reason),
                    )
                )
    return "\n".join(lines)


def me(league: League, user_id: int, _: Words = EN) -> str:
    """`/league me`: the member's rank and points, night by night, and their next night."""
    season = league.seasons[-1] if league.seasons else None
    if season is None:
        return _("{league} has no season yet.", league=escaped(league.name))
    line = next((line for line in season.standings() if line.user_id == user_id), None)
    lines = [
        _("**{league}**, season {number}:", league=escaped(league.name), number=season.number),
        table_rules(league, _),
    ]
    if line is None:
        lines.append(_("You have not played a night yet."))
    else:
        lines.append(
            _(
                "Rank {rank} with {points} points: {wins} wins in {played} nights, {no_shows} no-shows.",
                rank=line.rank,
                points=line.points,
                wins=line.wins,
                played=line.played,
                no_shows=line.no_shows,
            )
        )
    for night, found, adjustments in season.history(user_id):
        parts = [
            place(p, _) + " (" + _("{points} pts", points=p.points) + ")" if not p.no_show else _("no-show")
            for p in found
        ]
        parts += [f"{a.delta:+d} ({escaped(a.reason)})" for a in adjustments]
        lines.append(_("Night {number}: {parts}", number=night.number, parts=", ".join(parts)))
    upcoming = league.next_night
    if upcoming is not None:
        signed = _("you are signed up") if user_id in upcoming.signups else _("you are not signed up")
        when_next = discord_timestamp(upcoming.starts_at, "R")
        lines.append(
            _("Next: night {number} {when}; {signed}.", number=upcoming.number, when=when_next, signed=signed)
        )
    return "\n".join(lines)
