"""Discord's OpenAPI 3.1 description of its HTTP API, and the check of each request against it.

The description is Discord's own file (discord/discord-api-spec, `specs/openapi.json`) at
`SPEC_COMMIT`. It is not kept in this repository: the double reads it from the file named by
`RUMMY_DISCORD_OPENAPI`, else from `shared/discord-api-spec/openapi.json` in this checkout's
folder or any folder above it (where the project's shared/ sits beside its checkouts). Without
it the double still checks the documented limits (`limits.py`), and says so once; with
`RUMMY_REQUIRE_DISCORD_OPENAPI` set, a missing file fails instead.

A request is matched to its operation by method and path template (a literal segment beats a
parameter, so `/users/@me` is not `/users/{user_id}`); its path and query parameters are checked
against their schemas (query values converted as Discord parses them) and its JSON body, or a
multipart body's `payload_json`, against the operation's `application/json` request schema
(JSON Schema 2020-12, `$ref`s into `components`). One validator per schema, built on first use
and kept for the test session; its `oneOf`/`anyOf` go straight to the branch a value's
discriminator names (see `_Union`), which gives the standard verdict many times faster.
"""

from __future__ import annotations

import functools
import json
import os
import re
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .problems import Problem, too_long, too_short

SPEC_COMMIT = "74fda0fad044407ea280043a03ffc9bc64c4e49e"
SPEC_SHA256 = "8c1d0707ccdf8e380a86dfba04058820a66435c1b69d5ed82e04dd8c0520dd73"
SPEC_ENV = "RUMMY_DISCORD_OPENAPI"
REQUIRE_ENV = "RUMMY_REQUIRE_DISCORD_OPENAPI"
SHARED_PATH = Path("shared") / "discord-api-spec" / "openapi.json"
_URI = "urn:discord:openapi"
_SEEN = 4096  # bodies whose problems are remembered


def spec_file() -> Path | None:
    """Where Discord's description is on this machine, or None."""
    named = os.environ.get(SPEC_ENV)
    if named:
        return Path(named)
    for folder in Path(__file__).resolve().parents:
        if (folder / SHARED_PATH).is_file():
            return folder / SHARED_PATH
    return None


def missing_reason() -> str:
    return (
        f"Discord's OpenAPI description is not on this machine: set {SPEC_ENV}, or put "
        f"specs/openapi.json of discord/discord-api-spec at {SPEC_COMMIT[:12]} "
        f"(sha256 {SPEC_SHA256[:12]}...) at {SHARED_PATH} beside the checkout"
    )


@functools.cache
def load() -> Spec | None:
    """The description, parsed once per test session; None where the file is missing."""
    path = spec_file()
    if path is None or not path.is_file():
        if os.environ.get(REQUIRE_ENV):
            raise FileNotFoundError(f"{missing_reason()}, and {REQUIRE_ENV} is set")
        warnings.warn(f"{missing_reason()}; only the documented limits are checked", stacklevel=2)
        return None
    return Spec(json.loads(path.read_bytes()))


class Routes:
    """Path templates (`/channels/{channel_id}/messages`) matched against request paths."""

    def __init__(self, templates: Iterable[str]) -> None:
        self._by_length: dict[int, list[tuple[str, list[str | None], list[str]]]] = {}
        for template in templates:
            parts = template.strip("/").split("/")
            literals = [None if p.startswith("{") else p for p in parts]
            names = [p[1:-1] for p in parts if p.startswith("{")]
            self._by_length.setdefault(len(parts), []).append((template, literals, names))
        for candidates in self._by_length.values():  # most literal segments first
            candidates.sort(key=lambda c: -sum(p is not None for p in c[1]))

    def match(self, path: str) -> tuple[str, dict[str, str]] | None:
        parts = path.strip("/").split("/")
        for template, literals, names in self._by_length.get(len(parts), []):
            if all(lit is None or lit == part for lit, part in zip(literals, parts, strict=True)):
                values = [part for lit, part in zip(literals, parts, strict=True) if lit is None]
                return template, dict(zip(names, values, strict=True))
        return None


@dataclass
class Operation:
    parameters: dict[tuple[str, str], tuple[str, bool]]  # (in, name) -> (schema pointer, required)
    body: str | None  # pointer to the application/json request schema
    body_required: bool


@dataclass
class Outcome:
    """What the description says of a request: its template (None: no such route), the status
    Discord would answer if it is refused, and why."""

    template: str | None
    status: int = 200
    problems: list[Problem] = field(default_factory=list)


def _amend(document: dict[str, Any]) -> dict[str, Any]:
    """Where the description is stricter than Discord, in memory: a snowflake is a string of
    digits there, but Discord reads a JSON number as well, and discord.py sends numbers (ids in
    `allowed_mentions`, `recipient_id`, and an attachment's `id`, which is the index of its
    `files[n]` upload: resources/message#create-message, "attachments ... id")."""
    schemas = document["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    return document


class Spec:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document = _amend(document)
        self.routes = Routes(document["paths"])
        self._registry: Registry[Any] = Registry().with_resource(
            _URI, Resource.from_contents(document, default_specification=DRAFT202012)
        )
        union = _Union(self.schema)
        self._class = validators.extend(
            Draft202012Validator, {"oneOf": union.keyword(one_of=True), "anyOf": union.keyword(one_of=False)}
        )
        self._validators: dict[str, Validator] = {}
        self._seen: dict[tuple[str, str, tuple[str | int, ...]], list[Problem]] = {}
        self._operations: dict[tuple[str, str], Operation | None] = {}

    def operation(self, method: str, template: str) -> Operation | None:
        key = (method.lower(), template)
        if key not in self._operations:
            self._operations[key] = self._read_operation(*key)
        return self._operations[key]

    def _read_operation(self, method: str, template: str) -> Operation | None:
        item = self.document["paths"][template]
        if method not in item:
            return None
        base = f"/paths/{_escape(template)}"
        parameters: dict[tuple[str, str], tuple[str, bool]] = {}
        for where, params in (
            (base, item.get("parameters")),
            (f"{base}/{method}", item[method].get("parameters")),
        ):
            for index, param in enumerate(params or []):
                pointer = f"{where}/parameters/{index}/schema"
                parameters[(param["in"], param["name"])] = (pointer, bool(param.get("required")))
        body = item[method].get("requestBody")
        body_pointer = None
        if body is not None and "application/json" in body.get("content", {}):
            body_pointer = f"{base}/{method}/requestBody/content/application~1json/schema"
        return Operation(parameters, body_pointer, bool(body and body.get("required")))

    def validator(self, pointer: str) -> Validator:
        found = self._validators.get(pointer)
        if found is None:
            ref = {"$ref": f"{_URI}#{quote(pointer, safe='/~')}"}
            found = self._validators[pointer] = self._class(ref, registry=self._registry)
        return found

    def schema(self, pointer: str) -> dict[str, Any]:
        node: Any = self.document
        for part in pointer.strip("/").split("/"):
            key = part.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        while "$ref" in node:
            node = self.schema(node["$ref"].removeprefix("#"))
        return node

    def check(self, method: str, path: str, query: dict[str, str], body: Any) -> Outcome:
        found = self.routes.match(path)
        if found is None:
            return Outcome(None, 404, [Problem((), "UNKNOWN_ROUTE", f"Discord has no route {path}")])
        template, path_values = found
        op = self.operation(method, template)
        if op is None:
            problem = Problem((), "METHOD_NOT_ALLOWED", f"Discord has no {method} on {template}")
            return Outcome(template, 405, [problem])
        problems: list[Problem] = []
        for name, value in path_values.items():
            if ("path", name) in op.parameters:
                problems += self._errors(op.parameters[("path", name)][0], value, (name,))
        for name, value in query.items():
            if ("query", name) not in op.parameters:
                problems.append(Problem((name,), "UNKNOWN_QUERY", f"{template} takes no query {name!r}"))
                continue
            pointer = op.parameters[("query", name)][0]
            problems += self._errors(pointer, _from_query(value, self.schema(pointer)), (name,))
        for (where, name), (_, required) in op.parameters.items():
            if where == "query" and required and name not in query:
                problems.append(Problem((name,), "BASE_TYPE_REQUIRED", "This field is required"))
        if op.body is not None:
            if body is None:
                if op.body_required:
                    problems.append(Problem((), "BASE_TYPE_REQUIRED", "A JSON body is required"))
            else:
                problems += self._errors(op.body, body, ())
        return Outcome(template, 400 if problems else 200, problems)

    def _errors(self, pointer: str, instance: Any, prefix: tuple[str | int, ...]) -> list[Problem]:
        """The problems of `instance` under the schema at `pointer`; a body seen before (every
        bot start syncs the same commands) is answered from the last time."""
        key = (pointer, json.dumps(instance, sort_keys=True), prefix)
        found = self._seen.get(key)
        if found is None:
            found = []
            for error in self.validator(pointer).iter_errors(instance):
                for leaf in _leaves(error):
                    found += [p for p in _problems(leaf, prefix) if p not in found]
            if len(self._seen) >= _SEEN:
                self._seen.clear()
            self._seen[key] = found
        return list(found)


def _same(a: Any, b: Any) -> bool:
    """JSON equality for the scalars Discord's enums use (a boolean is not a number)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(a == b)


_ANNOTATIONS = {"title", "description", "const"}


class _Union:
    """`oneOf`/`anyOf` for Discord's unions, with the standard keywords' verdict.

    Discord's unions are of two kinds. Enumerations are a `oneOf` of distinct `const`s: a value
    is valid exactly when it is one of them. Object unions (components, interaction callbacks,
    scheduled events) give every branch a property with an `enum` (`type`, `entity_type`): a
    value that has that property fails every branch whose `enum` lacks it, so when exactly one
    branch is left, valid under the union means valid under that branch, and its errors are the
    ones that say why. Anything else (no discriminator, several branches left) goes to the
    standard keyword, which tries every branch.
    """

    def __init__(self, resolve: Callable[[str], dict[str, Any]]) -> None:
        self._resolve = resolve
        self._plans: dict[int, tuple[str, Any] | None] = {}

    def _branch(self, schema: Any) -> Any:
        while isinstance(schema, dict) and "$ref" in schema and schema["$ref"].startswith("#/"):
            schema = self._resolve(schema["$ref"][1:])
        return schema

    def _plan(self, branches: list[Any]) -> tuple[str, Any] | None:
        key = id(branches)
        if key not in self._plans:
            self._plans[key] = self._read(branches)
        return self._plans[key]

    def _read(self, branches: list[Any]) -> tuple[str, Any] | None:
        schemas = [self._branch(b) for b in branches]
        if not all(isinstance(s, dict) for s in schemas):
            return None
        if all("const" in s and set(s) <= _ANNOTATIONS for s in schemas):
            values = [s["const"] for s in schemas]
            distinct = all(not _same(a, b) for i, a in enumerate(values) for b in values[i + 1 :])
            return ("const", values) if distinct else None
        first = schemas[0].get("properties") or {}
        for name, prop in first.items():
            if not isinstance(prop, dict) or "enum" not in prop:
                continue
            enums = [((s.get("properties") or {}).get(name) or {}).get("enum") for s in schemas]
            if all(isinstance(e, list) for e in enums):
                return ("discriminator", (name, enums))
        return None

    def keyword(self, *, one_of: bool) -> Callable[..., Iterator[ValidationError]]:
        from jsonschema._keywords import anyOf, oneOf

        standard = oneOf if one_of else anyOf

        def union(
            validator: Any, branches: list[Any], instance: Any, schema: Any
        ) -> Iterator[ValidationError]:
            plan = self._plan(branches)
            if plan is not None and plan[0] == "const":
                if not any(_same(instance, value) for value in plan[1]):
                    yield ValidationError(
                        f"{instance!r} is not one of {plan[1]!r}", validator="enum", validator_value=plan[1]
                    )
                return
            if plan is not None and isinstance(instance, dict) and plan[1][0] in instance:
                name, enums = plan[1]
                value = instance[name]
                left = [i for i, enum in enumerate(enums) if any(_same(value, v) for v in enum)]
                if len(left) == 1:
                    yield from validator.descend(instance, branches[left[0]], schema_path=left[0])
                    return
                if not left:
                    known = [v for enum in enums for v in enum]
                    yield ValidationError(
                        f"{value!r} is not one of {known!r}",
                        validator="enum",
                        validator_value=known,
                        path=deque([name]),
                    )
                    return
            yield from standard(validator, branches, instance, schema)

        return union


def _escape(template: str) -> str:
    return template.replace("~", "~0").replace("/", "~1")


def _from_query(value: str, schema: dict[str, Any]) -> Any:
    """A query string as Discord reads it for the parameter's type (`1`/`true` are booleans)."""
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else types
    if "boolean" in types and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if "integer" in types and re.fullmatch(r"-?\d+", value):
        return int(value)
    if "number" in types and re.fullmatch(r"-?\d+(\.\d+)?", value):
        return float(value)
    return value


def _off_target(error: ValidationError) -> bool:
    """An error that shows a union's branch was not the one meant: the value is not even of the
    branch's type, or its `type` discriminator (a component's, a callback's) is another."""
    path = list(error.relative_path)
    return (not path and error.validator == "type") or (
        path == ["type"] and error.validator in ("enum", "const")
    )


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors that say why: inside a oneOf/anyOf, those of the branch the value was meant for
    (not refused on its type or discriminator; of those, the one with the fewest errors)."""
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    meant = [errs for errs in branches.values() if not any(_off_target(e) for e in errs)]
    for sub in min(meant or list(branches.values()), key=len):
        yield from _leaves(sub)


def _problems(error: ValidationError, prefix: tuple[str | int, ...]) -> list[Problem]:
    """The error in Discord's words: its code for the failed keyword, the limit in the message."""
    at = prefix + tuple(error.absolute_path)
    kind, limit = error.validator, error.validator_value
    if kind in ("maxLength", "maxItems", "maxProperties"):
        return [too_long(at, limit)]
    if kind in ("minLength", "minItems", "minProperties"):
        return [too_short(at, limit)]
    if kind == "required":
        missing = [name for name in limit if name not in error.instance]
        return [Problem((*at, name), "BASE_TYPE_REQUIRED", "This field is required") for name in missing]
    if kind in ("enum", "const"):
        return [Problem(at, "BASE_TYPE_CHOICES", f"Value must be one of {limit!r}.")]
    if kind == "maximum":
        return [Problem(at, "NUMBER_TYPE_MAX", f"Must be less than or equal to {limit}.")]
    if kind == "minimum":
        return [Problem(at, "NUMBER_TYPE_MIN", f"Must be greater than or equal to {limit}.")]
    if kind == "pattern":
        return [Problem(at, "STRING_TYPE_REGEX", "String value did not match validation regex.")]
    message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
    return [Problem(at, f"SCHEMA_{kind.upper()}", message)]
