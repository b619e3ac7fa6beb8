"""Discord's documented limits that its OpenAPI description leaves out or states loosely.

Where the description and the developer documentation disagree, the documentation wins when it
is stricter (the description allows 4,000 characters of message content; Discord refuses more
than 2,000 from a bot). Each limit names the documentation page it comes from (under
https://discord.com/developers/docs/). `check` finds the checks for a request by its operation's
path template, as in the description; the checks that need what the double remembers (a
scheduled event's stored fields and status) are `event_complete` and `event_status`, which the
server runs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from .problems import Problem, length, too_long

At = tuple[str | int, ...]

# --- Messages: resources/message#create-message ("content: up to 2000 characters"; "files[n]":
# up to 10 files; attachments likewise).
CONTENT = 2000
FILES = 10
# resources/message#attachment-object: "description: alt text for the file (max 1024 characters)".
ALT_TEXT = 1024

# --- Embeds: resources/message#embed-object-embed-limits.
EMBEDS = 10  # resources/message#create-message: "up to 10 rich embeds (up to 6000 characters)"
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000  # title, description, field names and values, footer text, author name, all embeds

# --- Components: components/reference (action row, button, string select, select option) and
# components/using-message-components ("up to 5 action rows"; "up to 40 total components" with
# the IS_COMPONENTS_V2 flag, which top-level components other than action rows need).
ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECTS = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel
LINK, PREMIUM = 5, 6  # button styles that carry no custom_id
IS_COMPONENTS_V2 = 1 << 15
ROWS = 5
ROW_BUTTONS = 5  # "an action row can contain up to 5 buttons" or a single select menu
COMPONENTS_V2_TOTAL = 40
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100  # label, value and description
SELECT_PLACEHOLDER = 150
SELECT_VALUES = 25  # min_values 0-25, max_values 1-25

# --- Allowed mentions: resources/message#allowed-mentions-object ("parse" types; a type in parse
# and a list of ids of that type are mutually exclusive; "max size of 100" ids).
MENTION_TYPES = frozenset({"users", "roles", "everyone"})
MENTION_IDS = 100

# --- Autocomplete: interactions/receiving-and-responding#interaction-response-object-autocomplete
# ("max of 25 choices") and interactions/application-commands#application-command-object-
# application-command-option-choice-structure (name 1-100 characters, string value up to 100).
CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100

# --- Application commands: interactions/application-commands#application-command-object
# (naming, "description 1-100 characters", "max of 25" options), #localization (keys among
# reference#locales, values under the same restrictions as the field), #registering-a-command
# (100 CHAT_INPUT commands, 5 USER and 5 MESSAGE commands in one scope).
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
NAME = 32
DESCRIPTION = 100
OPTIONS = 25
COMMANDS = {CHAT_INPUT: 100, USER_COMMAND: 5, MESSAGE_COMMAND: 5}
# reference#locales
LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
        "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
        "zh-TW", "ko",
    }
)  # fmt: skip
# interactions/application-commands#application-command-object-application-command-naming:
# CHAT_INPUT names and option names match ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ and use
# the lowercase variant of any letter that has one. Python's `re` has no \p: letters and numbers
# by Unicode category, the two scripts by their ranges in Unicode's Scripts.txt.
_DEVANAGARI = ((0x0900, 0x0950), (0x0955, 0x0963), (0x0966, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B09))
_THAI = ((0x0E01, 0x0E3A), (0x0E40, 0x0E5B))

# --- Threads: resources/channel#start-thread-from-message and #start-thread-without-message
# ("name: 1-100 character channel name").
THREAD_NAME = 100

# --- Scheduled events: resources/guild-scheduled-event#create-guild-scheduled-event (name 1-100,
# description 1-1000; entity_metadata and scheduled_end_time required for EXTERNAL events),
# #guild-scheduled-event-object-guild-scheduled-event-entity-metadata (location 1-100) and
# #guild-scheduled-event-object-guild-scheduled-event-status (SCHEDULED -> ACTIVE or CANCELED,
# ACTIVE -> COMPLETED; COMPLETED and CANCELED are final).
EXTERNAL = 3
EVENT_NAME = 100
EVENT_DESCRIPTION = 1000
EVENT_LOCATION = 100
EVENT_STATUS_NEXT = {1: {1, 2, 4}, 2: {2, 3}, 3: set(), 4: set()}


def check(method: str, template: str, body: Any, files: int) -> list[Problem]:
    """The documented limits a request to the operation at `template` breaks."""
    checker = CHECKS.get((method, template))
    return [] if checker is None else checker(body, files)


# ---------------------------------------------------------------- messages


def message(body: Any, at: At = (), files: int = 0) -> list[Problem]:
    """A message as created or edited: by the bot, a webhook or an interaction answer."""
    if not isinstance(body, dict):
        return []
    problems: list[Problem] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        problems.append(too_long((*at, "content"), CONTENT))
    problems += embeds(body.get("embeds"), (*at, "embeds"))
    problems += components(body.get("components"), body.get("flags"), (*at, "components"))
    problems += attachments(body.get("attachments"), files, at)
    problems += allowed_mentions(body.get("allowed_mentions"), (*at, "allowed_mentions"))
    return problems


def embeds(items: Any, at: At) -> list[Problem]:
    if not isinstance(items, list):
        return []
    problems = [too_long(at, EMBEDS)] if len(items) > EMBEDS else []
    total = 0
    for index, embed in enumerate(items):
        if not isinstance(embed, dict):
            continue
        here = (*at, index)
        texts: list[tuple[At, Any, int, int]] = [
            ((*here, "title"), embed.get("title"), 0, EMBED_TITLE),
            ((*here, "description"), embed.get("description"), 0, EMBED_DESCRIPTION),
        ]
        for part, key, limit in (("footer", "text", EMBED_FOOTER), ("author", "name", EMBED_AUTHOR)):
            if isinstance(embed.get(part), dict):
                texts.append(((*here, part, key), embed[part].get(key), 0, limit))
        fields = embed.get("fields")
        if isinstance(fields, list):
            problems += length((*here, "fields"), fields, 0, EMBED_FIELDS)
            # name and value both required: resources/message#embed-object-embed-field-structure
            for number, item in enumerate(fields):
                if isinstance(item, dict):
                    at_field = (*here, "fields", number)
                    texts.append(((*at_field, "name"), item.get("name"), 1, EMBED_FIELD_NAME))
                    texts.append(((*at_field, "value"), item.get("value"), 1, EMBED_FIELD_VALUE))
        for where, text, low, high in texts:
            problems += length(where, text, low, high)
            total += len(text) if isinstance(text, str) else 0
    if total > EMBED_TOTAL:
        problems.append(
            Problem(at, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")
        )
    return problems


def _walk(items: list[Any], at: At) -> Iterator[tuple[At, dict[str, Any]]]:
    """Every component with where it sits: inside action rows, v2 containers and sections."""
    for index, comp in enumerate(items):
        if not isinstance(comp, dict):
            continue
        here = (*at, index)
        yield here, comp
        if isinstance(comp.get("components"), list):
            yield from _walk(comp["components"], (*here, "components"))
        if isinstance(comp.get("accessory"), dict):
            yield (*here, "accessory"), comp["accessory"]


def components(items: Any, flags: Any, at: At) -> list[Problem]:
    if not isinstance(items, list):
        return []
    problems: list[Problem] = []
    v2 = isinstance(flags, int) and bool(flags & IS_COMPONENTS_V2)
    if not v2:
        problems += length(at, items, 0, ROWS)
        for index, comp in enumerate(items):
            if isinstance(comp, dict) and comp.get("type") != ACTION_ROW:
                problems.append(
                    Problem(
                        (*at, index, "type"),
                        "COMPONENT_LAYOUT_INVALID",
                        "Only action rows may be top-level components without the IS_COMPONENTS_V2 flag",
                    )
                )
    seen: set[str] = set()
    everything = list(_walk(items, at))
    if v2 and len(everything) > COMPONENTS_V2_TOTAL:
        problems.append(too_long(at, COMPONENTS_V2_TOTAL))
    for where, comp in everything:
        kind = comp.get("type")
        if kind == ACTION_ROW:
            problems += _action_row(comp, where)
        elif kind == BUTTON:
            problems += _button(comp, where)
        elif kind in SELECTS:
            problems += _select(comp, where)
        custom_id = comp.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                problems.append(
                    Problem(
                        (*where, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen.add(custom_id)
    return problems


def _action_row(row: dict[str, Any], at: At) -> list[Problem]:
    children = row.get("components")
    if not isinstance(children, list):
        return []
    problems = length((*at, "components"), children, 1, ROW_BUTTONS)
    kinds = [c.get("type") for c in children if isinstance(c, dict)]
    if any(kind in SELECTS for kind in kinds) and len(kinds) > 1:
        problems.append(
            Problem(
                (*at, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu fills its action row alone",
            )
        )
    return problems


def _button(button: dict[str, Any], at: At) -> list[Problem]:
    style = button.get("style")
    problems = length((*at, "label"), button.get("label"), 0, BUTTON_LABEL)
    if style in (LINK, PREMIUM):
        if button.get("custom_id") is not None:
            problems.append(
                Problem(
                    (*at, "custom_id"),
                    "BUTTON_COMPONENT_INVALID",
                    "A link or premium button has no custom_id",
                )
            )
        needed = "url" if style == LINK else "sku_id"
        if not button.get(needed):
            problems.append(Problem((*at, needed), "BASE_TYPE_REQUIRED", "This field is required"))
        return problems
    problems += length((*at, "custom_id"), button.get("custom_id"), 1, CUSTOM_ID)
    if button.get("url") is not None:
        problems.append(Problem((*at, "url"), "BUTTON_COMPONENT_INVALID", "Only a link button has a url"))
    return problems


def _select(select: dict[str, Any], at: At) -> list[Problem]:
    problems = length((*at, "custom_id"), select.get("custom_id"), 1, CUSTOM_ID)
    problems += length((*at, "placeholder"), select.get("placeholder"), 0, SELECT_PLACEHOLDER)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not (isinstance(low, int) and 0 <= low <= SELECT_VALUES):
        problems.append(
            Problem((*at, "min_values"), "NUMBER_TYPE_MAX", f"min_values must be 0 to {SELECT_VALUES}")
        )
    if not (isinstance(high, int) and 1 <= high <= SELECT_VALUES):
        problems.append(
            Problem((*at, "max_values"), "NUMBER_TYPE_MAX", f"max_values must be 1 to {SELECT_VALUES}")
        )
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append(
            Problem(
                (*at, "min_values"), "SELECT_COMPONENT_MIN_VALUES_INVALID", "min_values is over max_values"
            )
        )
    if select.get("type") != STRING_SELECT:
        return problems
    options = select.get("options")
    options = options if isinstance(options, list) else []
    problems += length((*at, "options"), options, 1, SELECT_OPTIONS)
    if isinstance(high, int) and options and high > len(options):
        problems.append(
            Problem(
                (*at, "max_values"),
                "SELECT_COMPONENT_MAX_VALUES_INVALID",
                "max_values is over the number of options",
            )
        )
    values: set[str] = set()
    for index, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        here = (*at, "options", index)
        problems += length((*here, "label"), option.get("label"), 1, SELECT_OPTION_TEXT)
        problems += length((*here, "value"), option.get("value"), 1, SELECT_OPTION_TEXT)
        problems += length((*here, "description"), option.get("description"), 0, SELECT_OPTION_TEXT)
        if option.get("value") in values:
            problems.append(
                Problem(
                    (*here, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Option values must be unique",
                )
            )
        values.add(option.get("value"))
    return problems


def attachments(items: Any, files: int, at: At) -> list[Problem]:
    problems = [too_long((*at, "files"), FILES)] if files > FILES else []
    if isinstance(items, list):
        problems += length((*at, "attachments"), items, 0, FILES)
        for index, item in enumerate(items):
            if isinstance(item, dict):
                problems += length(
                    (*at, "attachments", index, "description"), item.get("description"), 0, ALT_TEXT
                )
    return problems


def allowed_mentions(mentions: Any, at: At) -> list[Problem]:
    if not isinstance(mentions, dict):
        return []
    parse = mentions.get("parse") or []
    problems = [
        Problem((*at, "parse", index), "BASE_TYPE_CHOICES", f"Value must be one of {sorted(MENTION_TYPES)}.")
        for index, kind in enumerate(parse)
        if kind not in MENTION_TYPES
    ]
    for kind in ("users", "roles"):
        ids = mentions.get(kind)
        if not isinstance(ids, list):
            continue
        problems += length((*at, kind), ids, 0, MENTION_IDS)
        if ids and kind in parse:
            problems.append(
                Problem(
                    (*at, kind),
                    "ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
            )
    return problems


# ------------------------------------------------------------ interactions


def callback(body: Any, files: int) -> list[Problem]:
    """An interaction answer: a message (4, 7) or autocomplete choices (8)."""
    if not isinstance(body, dict) or not isinstance(body.get("data"), dict):
        return []
    kind, data = body.get("type"), body["data"]
    if kind in (4, 7):
        return message(data, ("data",), files)
    if kind == 8:
        return choices(data.get("choices"), ("data", "choices"), autocomplete=True)
    return []


def choices(items: Any, at: At, *, autocomplete: bool = False) -> list[Problem]:
    """A command option's choices, or an autocomplete answer's (both at most 25)."""
    if not isinstance(items, list):
        return []
    problems = length(at, items, 0, CHOICES)
    for index, choice in enumerate(items):
        if not isinstance(choice, dict):
            continue
        here = (*at, index)
        problems += length((*here, "name"), choice.get("name"), 1, CHOICE_NAME)
        problems += localizations(
            choice.get("name_localizations"), (*here, "name_localizations"), _length(1, CHOICE_NAME)
        )
        value = choice.get("value")
        if isinstance(value, str):
            problems += length((*here, "value"), value, 1 if autocomplete else 0, CHOICE_VALUE)
    return problems


# -------------------------------------------------------------- commands


def command_name_ok(name: Any) -> bool:
    """A CHAT_INPUT command's or an option's name by Discord's naming rule."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME or name != name.lower():
        return False
    return all(_name_char(char) for char in name)


def _name_char(char: str) -> bool:
    if char in "-_" or unicodedata.category(char)[0] in "LN":
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in (*_DEVANAGARI, *_THAI))


def _command_name(at: At, name: Any) -> list[Problem]:
    if command_name_ok(name):
        return []
    return [Problem(at, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")]


def _length(low: int, high: int) -> Callable[[At, Any], list[Problem]]:
    return lambda at, value: length(at, value, low, high)


def localizations(mapping: Any, at: At, rule: Callable[[At, Any], list[Problem]]) -> list[Problem]:
    """A `*_localizations` dictionary: keys among Discord's locales, values by the field's rule."""
    if not isinstance(mapping, dict):
        return []
    problems: list[Problem] = []
    for locale, text in mapping.items():
        if locale not in LOCALES:
            problems.append(
                Problem((*at, locale), "BASE_TYPE_CHOICES", f"Value must be one of {sorted(LOCALES)}.")
            )
        problems += rule((*at, locale), text)
    return problems


def commands(body: Any, files: int = 0) -> list[Problem]:
    """`PUT` of a scope's whole command list."""
    if not isinstance(body, list):
        return []
    problems: list[Problem] = []
    for kind, most in COMMANDS.items():
        if sum(1 for c in body if isinstance(c, dict) and (c.get("type") or CHAT_INPUT) == kind) > most:
            problems.append(
                Problem((), "APPLICATION_COMMANDS_TOO_MANY", f"At most {most} commands of type {kind}")
            )
    for index, cmd in enumerate(body):
        problems += command(cmd, (index,))
    return problems


def command(cmd: Any, at: At = ()) -> list[Problem]:
    if not isinstance(cmd, dict):
        return []
    if (cmd.get("type") or CHAT_INPUT) != CHAT_INPUT:  # USER and MESSAGE: any case, spaces, no description
        name_rule = _length(1, NAME)
        problems = name_rule((*at, "name"), cmd.get("name"))
        return problems + localizations(cmd.get("name_localizations"), (*at, "name_localizations"), name_rule)
    problems = _command_name((*at, "name"), cmd.get("name"))
    problems += localizations(cmd.get("name_localizations"), (*at, "name_localizations"), _command_name)
    problems += length((*at, "description"), cmd.get("description"), 1, DESCRIPTION)
    problems += localizations(
        cmd.get("description_localizations"), (*at, "description_localizations"), _length(1, DESCRIPTION)
    )
    return problems + options(cmd.get("options"), (*at, "options"))


def options(items: Any, at: At) -> list[Problem]:
    if not isinstance(items, list):
        return []
    problems = length(at, items, 0, OPTIONS)
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(items):
        if not isinstance(option, dict):
            continue
        here = (*at, index)
        problems += _command_name((*here, "name"), option.get("name"))
        problems += localizations(
            option.get("name_localizations"), (*here, "name_localizations"), _command_name
        )
        problems += length((*here, "description"), option.get("description"), 1, DESCRIPTION)
        problems += localizations(
            option.get("description_localizations"),
            (*here, "description_localizations"),
            _length(1, DESCRIPTION),
        )
        if option.get("name") in names:
            problems.append(
                Problem(
                    (*here, "name"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            )
        names.add(option.get("name"))
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems += options(option.get("options"), (*here, "options"))
            continue
        # interactions/application-commands: "required options must be listed before optional options"
        if option.get("required"):
            if optional_seen:
                problems.append(
                    Problem(
                        (*here, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            optional_seen = True
        # ... option structure: "autocomplete may not be set to true if choices are present"
        if option.get("choices") and option.get("autocomplete"):
            problems.append(
                Problem(
                    (*here, "autocomplete"),
                    "AUTOCOMPLETE_AND_CHOICES",
                    "Autocomplete cannot be set with choices",
                )
            )
        problems += choices(option.get("choices"), (*here, "choices"))
    return problems


# ---------------------------------------------------------------- threads


def thread(body: Any, files: int) -> list[Problem]:
    """A thread started from a message or without one (a forum post carries its first message)."""
    if not isinstance(body, dict):
        return []
    problems = length(("name",), body.get("name"), 1, THREAD_NAME)
    if isinstance(body.get("message"), dict):
        problems += message(body["message"], ("message",), files)
    return problems


# --------------------------------------------------------- scheduled events


def event_fields(body: Any, files: int = 0) -> list[Problem]:
    """The fields a create or an edit sends: name, description, location."""
    if not isinstance(body, dict):
        return []
    problems = length(("name",), body["name"], 1, EVENT_NAME) if "name" in body else []
    if isinstance(body.get("description"), str):
        problems += length(("description",), body["description"], 0, EVENT_DESCRIPTION)
    metadata = body.get("entity_metadata")
    if isinstance(metadata, dict) and "location" in metadata:
        problems += length(("entity_metadata", "location"), metadata["location"], 1, EVENT_LOCATION)
    return problems


def event_complete(event: dict[str, Any]) -> list[Problem]:
    """An event as it would stand after a create or an edit: what Discord requires of it."""
    required = ("name", "scheduled_start_time", "entity_type", "privacy_level")
    missing: list[At] = [(key,) for key in required if event.get(key) is None]
    if event.get("entity_type") == EXTERNAL:
        if not (event.get("entity_metadata") or {}).get("location"):
            missing.append(("entity_metadata", "location"))
        if event.get("scheduled_end_time") is None:
            missing.append(("scheduled_end_time",))
    problems = [Problem(at, "BASE_TYPE_REQUIRED", "This field is required") for at in missing]
    end, start = event.get("scheduled_end_time"), event.get("scheduled_start_time")
    if (
        isinstance(end, str)
        and isinstance(start, str)
        and datetime.fromisoformat(end) <= datetime.fromisoformat(start)
    ):
        problems.append(
            Problem(
                ("scheduled_end_time",),
                "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                "The end is before the start.",
            )
        )
    return problems


def event_status(old: int, new: int) -> list[Problem]:
    if new in EVENT_STATUS_NEXT[old]:
        return []
    return [
        Problem(
            ("status",), "GUILD_SCHEDULED_EVENT_INVALID_STATUS", f"Cannot change an event from {old} to {new}"
        )
    ]


def _event_create(body: Any, files: int) -> list[Problem]:
    return event_fields(body) + (event_complete(body) if isinstance(body, dict) else [])


def _message(body: Any, files: int) -> list[Problem]:
    return message(body, (), files)


def _command(body: Any, files: int) -> list[Problem]:
    return command(body)


CHECKS: dict[tuple[str, str], Callable[[Any, int], list[Problem]]] = {
    ("POST", "/channels/{channel_id}/messages"): _message,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): _message,
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): _message,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): _message,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): _message,
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"): callback,
    ("POST", "/channels/{channel_id}/threads"): thread,
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): thread,
    ("PUT", "/applications/{application_id}/commands"): commands,
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): commands,
    ("POST", "/applications/{application_id}/commands"): _command,
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands"): _command,
    ("POST", "/guilds/{guild_id}/scheduled-events"): _event_create,
    ("PATCH", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}"): event_fields,
}
