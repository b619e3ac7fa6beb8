"""Simulated users: INTERACTION_CREATE payloads shaped the way discord.py parses them.

Mixed into `DiscordDouble`; kept apart so the REST fake and the "what a user does" side can be
read separately. The helpers refuse what a real Discord client could not do (pressing a button
that is not on the message, a disabled one, one on somebody else's ephemeral message) unless
`check=False`, so tests don't pass by sending impossible traffic.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from .records import FakeInteraction, FakeUser, StoredMessage, walk_components

OPTION_SUBCOMMAND, OPTION_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


class UserActions:
    _holding: list[FakeInteraction] | None = None

    async def slash_command(
        self,
        user: FakeUser,
        name: str,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        options: dict[str, Any] | None = None,
        channel: int | None = None,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """Run `/name [group] [subcommand] options...` as `user`; `name` may also be "rummy new".

        The command must have been synced by the bot: the interaction carries the synced id and
        guild_id (for guild commands), as Discord's would.
        """
        data = self._command_data(name, subcommand, group, options or {}, channel, focused=None)
        return await self._send_interaction(
            2, user, channel or self.channel_id, data, wait=wait, timeout=timeout
        )

    async def autocomplete(
        self,
        user: FakeUser,
        name: str,
        *,
        focused: str,
        subcommand: str | None = None,
        group: str | None = None,
        options: dict[str, Any] | None = None,
        channel: int | None = None,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Type into option `focused`; returns the choices the bot offered (callback type 8)."""
        data = self._command_data(name, subcommand, group, options or {}, channel, focused=focused)
        ix = await self._send_interaction(
            4, user, channel or self.channel_id, data, wait=True, timeout=timeout
        )
        return list(ix.response_data.get("choices", []))

    async def press_button(
        self,
        user: FakeUser,
        message: StoredMessage | dict[str, Any] | int,
        custom_id: str,
        *,
        wait: bool = True,
        timeout: float = 5.0,
        check: bool = True,
    ) -> FakeInteraction:
        """Press a button. Pass `msg.snapshot()`-style dict copies to press on a stale rendering."""
        seen, current = self._message_payload(message)
        self._check_component(user, seen, custom_id, (2,), check)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(
            3, user, int(seen["channel_id"]), data, message=current, wait=wait, timeout=timeout
        )

    async def select(
        self,
        user: FakeUser,
        message: StoredMessage | dict[str, Any] | int,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
        timeout: float = 5.0,
        check: bool = True,
    ) -> FakeInteraction:
        """Choose `values` in a string select (component type 3)."""
        seen, current = self._message_payload(message)
        comp = self._check_component(user, seen, custom_id, (3,), check)
        data = {"custom_id": custom_id, "component_type": comp["type"] if comp else 3, "values": list(values)}
        return await self._send_interaction(
            3, user, int(seen["channel_id"]), data, message=current, wait=wait, timeout=timeout
        )

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: FakeInteraction,
        values: dict[str, str],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> FakeInteraction:
        """Fill in and submit the modal the bot opened (callback type 9) in answer to `opened_by`."""
        if opened_by.response_type != 9:
            raise AssertionError(f"the bot answered with type {opened_by.response_type}, not a modal")
        modal = opened_by.response_data
        known = {c["custom_id"] for c in walk_components(modal.get("components", [])) if "custom_id" in c}
        unknown = set(values) - known
        if unknown:
            raise AssertionError(f"modal has no inputs {sorted(unknown)}; it has {sorted(known)}")
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()
        ]
        data = {"custom_id": modal["custom_id"], "components": rows}
        message = None
        if opened_by.source_message_id is not None and opened_by.source_message_id in self.messages:
            message = self.messages[opened_by.source_message_id].payload
        return await self._send_interaction(
            5, user, opened_by.channel_id, data, message=message, wait=wait, timeout=timeout
        )

    # ---------------------------------------------------------------- helpers

    def find_command(self, name: str, channel: int | None = None) -> dict[str, Any]:
        """The synced command payload: guild commands shadow global ones, as in Discord's picker."""
        gid = self.guild_of(channel or self.channel_id)
        if gid is not None and name in self.guild_commands.get(gid, {}):
            return self.guild_commands[gid][name]
        if name in self.global_commands:
            return self.global_commands[name]
        known = sorted(set(self.global_commands) | set(self.guild_commands.get(gid or 0, {})))
        raise LookupError(f"/{name} was never synced by the bot; synced: {known}")

    def _command_data(
        self,
        name: str,
        subcommand: str | None,
        group: str | None,
        options: dict[str, Any],
        channel: int | None,
        focused: str | None,
    ) -> dict[str, Any]:
        parts = name.split()
        name = parts[0]
        if len(parts) == 3:
            group, subcommand = parts[1], parts[2]
        elif len(parts) == 2:
            subcommand = parts[1]
        cmd = self.find_command(name, channel)
        defs = cmd.get("options", [])
        path: list[tuple[str, int]] = []
        for level, kind in ((group, OPTION_GROUP), (subcommand, OPTION_SUBCOMMAND)):
            if level is None:
                continue
            found = next((o for o in defs if o["name"] == level and o.get("type") == kind), None)
            if found is None:
                raise LookupError(f"/{name} has no {'group' if kind == 2 else 'subcommand'} {level!r}")
            path.append((level, kind))
            defs = found.get("options", [])
        if any(o.get("type") in (OPTION_SUBCOMMAND, OPTION_GROUP) for o in defs):
            raise LookupError(f"/{name} needs a subcommand: {[o['name'] for o in defs]}")
        resolved: dict[str, dict[str, Any]] = {}
        leaf = [self._option(d, options, resolved, focused) for d in defs if d["name"] in options]
        unknown = set(options) - {d["name"] for d in defs}
        if unknown:
            raise LookupError(f"/{name} has no options {sorted(unknown)}; it has {[d['name'] for d in defs]}")
        missing = [d["name"] for d in defs if d.get("required") and d["name"] not in options]
        if missing and focused is None:
            raise ValueError(f"Discord would not send /{name} without required options {missing}")
        for level, kind in reversed(path):
            leaf = [{"name": level, "type": kind, "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"], "name": name, "type": cmd.get("type", 1), "options": leaf}
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        if resolved and focused is None:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        definition: dict[str, Any],
        options: dict[str, Any],
        resolved: dict[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        name, kind = definition["name"], definition["type"]
        value = options[name]
        if focused is not None:  # autocomplete sends what was typed so far, unresolved
            opt = {"name": name, "type": kind, "value": value if name == focused else _raw(value)}
            if name == focused:
                opt["focused"] = True
            return opt
        if kind in (USER, MENTIONABLE):
            uid = value.id if isinstance(value, FakeUser) else int(value)
            resolved.setdefault("users", {})[str(uid)] = self.users[uid].payload()
            if uid in self.members:
                member = self.member_payload(uid, permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(uid)] = member
            value = str(uid)
        elif kind == CHANNEL:
            ch = self.channels[int(value)]
            resolved.setdefault("channels", {})[str(value)] = {**ch, "permissions": "0"}
            value = str(value)
        elif kind == ROLE:
            resolved.setdefault("roles", {})[str(value)] = self.roles[int(value)]
            value = str(value)
        elif kind == ATTACHMENT:  # a file some message carries, as the user attaches it again
            aid = int(value)
            payload = next(a for a in self._all_attachment_payloads() if int(a["id"]) == aid)
            resolved.setdefault("attachments", {})[str(aid)] = payload
            value = str(aid)
        elif kind == INTEGER:
            value = int(value)
        elif kind == NUMBER:
            value = float(value)
        elif kind == BOOLEAN:
            value = bool(value)
        else:
            value = str(value)
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(
                f"{value!r} is not one of the choices of {name}: {[c['value'] for c in choices]}"
            )
        return {"name": name, "type": kind, "value": value}

    def _message_payload(
        self, message: StoredMessage | dict[str, Any] | int
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """What the user's client shows, and what Discord puts in the interaction.

        Discord fills `message` from its own copy, so a press on a stale rendering (an old
        snapshot) arrives with the *current* components. discord.py then looks the pressed
        custom_id up in those; if it is gone, a DynamicItem is never called.
        """
        if isinstance(message, int):
            message = self.messages[message]
        seen = copy.deepcopy(message.payload if isinstance(message, StoredMessage) else message)
        stored = self.messages.get(int(seen["id"]))
        current = copy.deepcopy(stored.payload) if stored is not None else seen
        return seen, current

    def _check_component(
        self, user: FakeUser, payload: dict[str, Any], custom_id: str, types: tuple[int, ...], check: bool
    ) -> dict[str, Any] | None:
        comp = next(
            (c for c in walk_components(payload.get("components", [])) if c.get("custom_id") == custom_id),
            None,
        )
        if not check:
            return comp
        stored = self.messages.get(int(payload["id"]))
        owner = stored.to_user if stored is not None else None
        if owner is not None and owner != user.id:
            raise AssertionError(f"{user.name} cannot see message {payload['id']} (it is for user {owner})")
        if comp is None:
            ids = [c.get("custom_id") for c in walk_components(payload.get("components", []))]
            raise AssertionError(f"message {payload['id']} has no component {custom_id!r}; it has {ids}")
        if comp.get("type") not in types:
            raise AssertionError(f"component {custom_id!r} is type {comp.get('type')}, not {types}")
        if comp.get("disabled"):
            raise AssertionError(f"component {custom_id!r} is disabled; Discord clients cannot use it")
        return comp

    def _interaction_payload(
        self,
        itype: int,
        user: FakeUser,
        channel_id: int,
        data: dict[str, Any],
        message: dict[str, Any] | None,
    ) -> FakeInteraction:
        iid = self.snowflake()
        token = f"interaction-token-{iid}"
        ch = self.channels[channel_id]
        gid = self.guild_of(channel_id)
        in_guild = gid is not None
        if ch["type"] == 1 and int(ch["recipients"][0]["id"]) != user.id:
            raise AssertionError(f"{user.name} cannot act in another user's DM channel {channel_id}")
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel_id),
            "channel": copy.deepcopy(ch),
            "locale": self.locales.get(user.id, "en-US"),
            "entitlements": [],
            "app_permissions": str(self.app_permissions.get(channel_id, (1 << 53) - 1)) if in_guild else "0",
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if in_guild:
            if user.id not in self.members:
                raise AssertionError(f"{user.name} is not a member of the guild")
            payload.update(
                guild_id=str(gid),
                guild={"id": str(gid), "locale": self.guild_locale, "features": []},
                guild_locale=self.guild_locale,
                member=self.member_payload(user.id, permissions=True),
                authorizing_integration_owners={"0": str(gid)},
                context=0,
            )
        else:
            payload.update(user=user.payload(), authorizing_integration_owners={"0": str(user.id)}, context=1)
        if message is not None:
            payload["message"] = message
        return FakeInteraction(
            id=iid,
            token=token,
            type=itype,
            user=user,
            channel_id=channel_id,
            guild_id=gid,
            payload=payload,
            source_message_id=int(message["id"]) if message is not None else None,
        )

    async def _send_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel_id: int,
        data: dict[str, Any],
        *,
        message: dict[str, Any] | None = None,
        wait: bool,
        timeout: float,
    ) -> FakeInteraction:
        ix = self._interaction_payload(itype, user, channel_id, data, message)
        self.interactions[ix.id] = ix
        self._by_token[ix.token] = ix
        if self._holding is not None:
            self._holding.append(ix)
            return ix
        await self.dispatch("INTERACTION_CREATE", ix.payload)
        if wait:
            await self.wait_answered(ix, timeout=timeout)
        return ix

    async def at_once(self, *actions: Any, timeout: float = 5.0) -> list[FakeInteraction]:
        """Deliver several users' actions back to back, all built from the same message state.

        `actions` are un-awaited helper calls, e.g. `double.press_button(alice, msg, "x")`. With
        plain `asyncio.gather` the second payload could be built after the bot already edited the
        message; here every payload is built first, then all are dispatched, then all awaited.
        """
        self._holding = []
        try:
            for action in actions:
                await action
            held = self._holding
        finally:
            self._holding = None
        for ix in held:
            await self.dispatch("INTERACTION_CREATE", ix.payload)
        for ix in held:
            await self.wait_answered(ix, timeout=timeout)
        return held

    async def wait_answered(self, ix: FakeInteraction, *, timeout: float = 5.0) -> FakeInteraction:
        """Discord gives a bot 3 s to answer; here a missing answer fails the test after `timeout`."""
        try:
            await asyncio.wait_for(ix.acknowledged.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"the bot did not answer interaction {ix.id} (type {ix.type}, {ix.payload['data']}) "
                f"in {timeout}s"
            ) from None
        return ix

    def original_response(self, ix: FakeInteraction) -> StoredMessage | None:
        """The message the bot's first answer created or updated (None for modals/autocomplete)."""
        if ix.original_message_id is None:
            return None
        mid = ix.original_message_id
        return self.messages.get(mid) or self.deleted_messages.get(mid)

    def followups(self, ix: FakeInteraction) -> list[StoredMessage]:
        return [self.messages[m] for m in ix.followup_ids if m in self.messages]


def _raw(value: Any) -> Any:
    return str(value.id) if isinstance(value, FakeUser) else value
