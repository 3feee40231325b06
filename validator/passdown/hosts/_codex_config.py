"""Codex CLI's hooks in ``config.toml``, and which of a Codex config layer's two hook files
``passdown hook install|uninstall codex`` changes (spec/hosts.md HST-308 to HST-311).

Codex reads hooks from ``hooks.json`` and from the ``[hooks]`` tables of the ``config.toml``
beside it: each ``[[hooks.EVENT]]`` is one matcher group, each ``[[hooks.EVENT.hooks]]`` one
handler of it, and ``[hooks.state."KEY"]`` tables are Codex's own record of which hooks the
person trusted. Installing writes ``config.toml`` when that is where the layer already has its
hooks, and ``hooks.json`` otherwise; uninstalling takes Passdown's entries out of both.

The file belongs to its owner, so it is edited as text and never serialised again: installing
appends one block of Passdown's groups at the end of the file (after every group already there,
so the positions Codex's trust records name stay as they were); uninstalling removes the lines
of exactly Passdown's groups or handlers and the block's own comment. Every edit is parsed back
with :mod:`tomllib` and must give exactly the intended data, or nothing is written.
"""

from __future__ import annotations

import copy
import json
import os
import re
import tomllib

from passdown.errors import RefusedError, UnreadableInput
from passdown.hosts import _claude_settings as _settings

HOST = "codex"
CONFIG_NAME = "config.toml"
#: The comment that opens Passdown's block; uninstalling removes it with the block.
MARKER = "# Passdown's hooks: `passdown hook uninstall codex` removes them."
#: The first Codex CLI release that has each thing Passdown's Codex hooks use, from Codex's
#: release notes (spec/hosts.md, "Codex CLI versions").
SINCE = (
    ("SessionStart additionalContext and Stop decision \"block\"", "0.114.0"),
    ("PreToolUse permissionDecision \"deny\"", "0.117.0"),
    ("hooks on by default, and [hooks] tables in config.toml", "0.124.0"),
    ("PreCompact and PostCompact", "0.129.0"),
)
MINIMUM_VERSION = "0.129.0"
_HEADER = re.compile(r"^\s*(\[\[?)(.+?)(\]\]?)\s*(#.*)?$")
_KEY = re.compile(r"""^(\s*)("?)command\2\s*=""")


def layer_paths(scope, environ=None, cwd=None):
    """``(hooks.json, config.toml)`` of the config layer ``scope`` names."""
    hooks_json = _settings.settings_path(scope, environ, cwd, host=HOST)
    return hooks_json, os.path.join(os.path.dirname(hooks_json), CONFIG_NAME)


def _bad(path, what, hint):
    return RefusedError(f"{path}: {what}", code="hook.bad_settings", hint=hint)


def _parse(path, raw):
    """``(text, data)`` of a config.toml's bytes, its lines as LF; malformed TOML is refused as
    ``hook.bad_config`` with the parser's message, bytes that are not UTF-8 as
    ``load.encoding``, a byte order mark as ``load.bom``."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise UnreadableInput(f"{path}: starts with a UTF-8 byte order mark", code="load.bom",
                              hint="save config.toml as UTF-8 without a byte order mark")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableInput(f"{path}: not UTF-8 (byte {error.start})", code="load.encoding",
                              hint="save config.toml as UTF-8, as Codex reads it") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UnreadableInput(f"{path}: not valid TOML: {error}", code="hook.bad_config",
                              hint="fix config.toml by hand (Codex cannot read it either), "
                                   "then retry") from None
    return text.replace("\r\n", "\n"), data


def _events(path, data):
    """The ``hooks`` table's events (every key but ``state``) as lists of matcher groups."""
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise _bad(path, '"hooks" is not a table', "write hooks as [[hooks.EVENT]] tables")
    events = {key: value for key, value in hooks.items() if key != "state"}
    for event, groups in events.items():
        if not isinstance(groups, list) or not all(
                isinstance(g, dict) and isinstance(g.get("hooks", []), list) for g in groups):
            raise _bad(path, f'"hooks.{event}" is not a list of matcher groups',
                       f"write each group as a [[hooks.{event}]] table")
    return events


def _ours(events):
    """``{event: [(group, handler), ...]}`` of Passdown's handlers."""
    found = {}
    for event, groups in events.items():
        for g, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                if isinstance(handler, dict) and _settings.is_passdown_command(
                        handler.get("command"), event, HOST):
                    found.setdefault(event, []).append((g, h))
    return found


def _json_events(raw):
    """The events of a hooks.json's bytes, leniently (``None``: it is not readable JSON)."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    hooks = data.get("hooks") if isinstance(data, dict) else None
    return {k: v for k, v in hooks.items() if isinstance(v, list)} if isinstance(hooks, dict) else {}


def install_target(scope, environ=None, cwd=None):
    """The file ``hook install codex`` changes (HST-308): the one that holds Passdown's entries;
    else ``config.toml`` when it holds hooks and ``hooks.json`` holds none; else ``hooks.json``."""
    hooks_json, config = layer_paths(scope, environ, cwd)
    json_raw = _settings._read(hooks_json)
    json_events = None if json_raw is None or not json_raw.strip() else _json_events(json_raw)
    if json_events is None and json_raw is not None and json_raw.strip():
        return hooks_json  # unreadable JSON: its own plan refuses it with its load.* code
    if json_events and _ours(json_events):
        return hooks_json
    config_raw = _settings._read(config)
    if config_raw is None:
        return hooks_json
    try:
        events = _events(config, _parse(config, config_raw)[1])
    except (UnreadableInput, RefusedError):
        if any((json_events or {}).values()):
            return hooks_json
        raise
    if _ours(events) or (any(events.values()) and not any((json_events or {}).values())):
        return config
    return hooks_json


def _basic(value):
    return json.dumps(value)  # a JSON string, ASCII-escaped, is a TOML basic string


def _block(launcher, options, wanted):
    """Passdown's groups of the events ``wanted`` as TOML lines, and the groups as data."""
    lines, groups = [MARKER], {}
    for event, _, timeout in _settings.CODEX_ENTRIES:
        if event not in wanted:
            continue
        command = _settings.hook_command(launcher, event, options or {}, HOST)
        if len(lines) > 1:
            lines.append("")
        lines += [f"[[hooks.{event}]]", f"[[hooks.{event}.hooks]]", 'type = "command"',
                  f"command = {_basic(command)}", f"timeout = {timeout}"]
        groups[event] = {"hooks": [{"type": "command", "command": command, "timeout": timeout}]}
    return lines, groups


class _Lines:
    """The file's lines and where its table headers are: ``(index, is_array, key path)``,
    multi-line strings and arrays skipped."""

    def __init__(self, text):
        self.lines = text.split("\n")
        self.headers = []
        depth, quote = 0, None
        for index, line in enumerate(self.lines):
            if quote is None and depth == 0:
                found = _HEADER.match(line)
                if found and (found.group(1) == "[[") == (found.group(3) == "]]"):
                    self.headers.append((index, found.group(1) == "[[", _path(found.group(2))))
                    continue
            depth, quote = _scan(line, depth, quote)

    def groups(self, event):
        """The header indexes of ``[[hooks.EVENT]]`` in order."""
        return [i for i, array, path in self.headers if array and path == ("hooks", event)]

    def end_of(self, start, inside):
        """Where the table opened at line ``start`` ends: the next header not ``inside``."""
        for index, array, path in self.headers:
            if index > start and not (array and path == inside):
                return index
        return len(self.lines)

    def handlers(self, start, end, event):
        return [i for i, array, path in self.headers
                if start < i < end and array and path == ("hooks", event, "hooks")]

    def set_command(self, path, event, g, h, groups, handlers, command):
        """Write ``command`` as the value of handler ``h`` of group ``g`` of ``event``."""
        starts = self.groups(event)
        if len(starts) != groups:
            raise _bad(path, f'"hooks.{event}" is not written as [[hooks.{event}]] tables',
                       "remove Passdown's entries by hand, then install again")
        end = self.end_of(starts[g], ("hooks", event, "hooks"))
        inside = self.handlers(starts[g], end, event)
        if len(inside) != handlers:
            raise _bad(path, f"a [[hooks.{event}]] group lists its handlers inline",
                       "remove Passdown's handler by hand, then install again")
        stop = next((i for i in inside if i > inside[h]), end)
        depth, quote = 0, None
        for index in range(inside[h] + 1, stop):
            line = self.lines[index]
            found = _KEY.match(line) if depth == 0 and quote is None else None
            if found:
                self.lines[index] = f"{found.group(1)}command = {_basic(command)}"
                return
            depth, quote = _scan(line, depth, quote)
        raise _bad(path, f"Passdown's [[hooks.{event}.hooks]] handler has no command line",
                   "remove Passdown's handler by hand, then install again")

    def span(self, start, end):
        """Lines ``start`` up to ``end`` without the comments that open the next table: the
        content, then the blank lines after it."""
        last = start
        for index in range(start, end):
            stripped = self.lines[index].strip()
            if stripped and not stripped.startswith("#"):
                last = index
        stop = last + 1
        while stop < end and not self.lines[stop].strip():
            stop += 1
        return start, stop


def _path(inner):
    """The key path of a header's inside (``hooks . "Stop"`` is ``("hooks", "Stop")``)."""
    try:
        data = tomllib.loads(f"{inner} = 0")
    except tomllib.TOMLDecodeError:
        return None
    path = []
    while isinstance(data, dict) and len(data) == 1:
        key, data = next(iter(data.items()))
        path.append(key)
    return tuple(path)


def _scan(line, depth, quote):
    """The bracket depth and open multi-line string after ``line``."""
    i = 0
    while i < len(line):
        if quote is not None:
            if line.startswith(quote, i) and (quote == "'''" or not _escaped(line, i)):
                quote, i = None, i + 3
                continue
            i += 1
            continue
        char = line[i]
        if char == "#":
            break
        if line.startswith('"""', i) or line.startswith("'''", i):
            quote, i = line[i:i + 3], i + 3
            continue
        if char in "\"'":
            end = i + 1
            while end < len(line) and (line[end] != char or (char == '"' and _escaped(line, end))):
                end += 1
            i = end + 1
            continue
        depth += 1 if char in "[{" else -1 if char in "]}" else 0
        i += 1
    return max(depth, 0), quote


def _escaped(line, i):
    backslashes = 0
    while i - backslashes - 1 >= 0 and line[i - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _normal(data):
    """``data`` without empty hook lists and an empty ``hooks`` table, for comparing."""
    data = copy.deepcopy(data)
    hooks = data.get("hooks")
    if isinstance(hooks, dict):
        for event in [k for k, v in hooks.items() if k != "state" and v == []]:
            del hooks[event]
        if not hooks:
            del data["hooks"]
    return data


def _result(path, text, crlf, intended):
    """The new bytes, after checking that they parse to ``intended``."""
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        parsed = None
    if parsed is None or _normal(parsed) != _normal(intended):
        raise _bad(path, "its hooks are written in a form Passdown does not edit (an inline "
                         "table or array, or [hooks.EVENT] tables)",
                   "write them as [[hooks.EVENT]] tables with [[hooks.EVENT.hooks]] handlers "
                   "(the form Codex documents), or install into hooks.json, then retry")
    return (text.replace("\n", "\r\n") if crlf else text).encode("utf-8")


def _crlf(raw):
    return raw is not None and b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")


def plan_install(path, launcher, options=None):
    """The change that adds Passdown's hooks to the config.toml at ``path`` (appended for the
    events that have none), or brings their commands up to date where they are, so that no
    group moves and Codex's trust records keep naming the hooks they named."""
    before = _settings._read(path)
    text, data = ("", {}) if before is None else _parse(path, before)
    events = _events(path, data)
    ours = _ours(events)
    intended = copy.deepcopy(data)
    found = _Lines(text)
    for event, places in ours.items():
        command = _settings.hook_command(launcher, event, options or {}, HOST)
        for g, h in places:
            handler = intended["hooks"][event][g]["hooks"][h]
            if handler.get("command") != command:
                found.set_command(path, event, g, h, len(events[event]),
                                  len(events[event][g]["hooks"]), command)
                handler["command"] = command
    text = "\n".join(found.lines)
    missing = [event for event, _, _ in _settings.CODEX_ENTRIES if event not in ours]
    if missing:
        lines, groups = _block(launcher, options, missing)
        for event, group in groups.items():
            intended.setdefault("hooks", {}).setdefault(event, []).append(group)
        if text and not text.endswith("\n"):
            text += "\n"
        text += ("\n" if text else "") + "\n".join(lines) + "\n"
    if intended == data:
        return _settings.Plan(path, before, before)  # installed as it would be now
    return _settings.Plan(path, before, _result(path, text, _crlf(before), intended))


def plan_uninstall(path):
    """The change that removes every Passdown hook from the config.toml at ``path``."""
    before = _settings._read(path)
    if before is None:
        return _settings.Plan(path, None, None)
    text, data = _parse(path, before)
    events = _events(path, data)
    ours = _ours(events)
    if not ours:
        return _settings.Plan(path, before, before)
    text, intended = _removed(path, text, data, events, ours)
    return _settings.Plan(path, before, _result(path, text, _crlf(before), intended))


def _removed(path, text, data, events, ours):
    """``(text, data)`` without Passdown's handlers (a group of Passdown's alone goes whole)."""
    found = _Lines(text)
    cut = []  # (start, stop) line ranges
    intended = copy.deepcopy(data)
    for event, places in ours.items():
        headers = found.groups(event)
        if len(headers) != len(events[event]):
            raise _bad(path, f'"hooks.{event}" is not written as [[hooks.{event}]] tables',
                       "remove Passdown's entries by hand, or rewrite them as tables")
        mine = {}
        for g, h in places:
            mine.setdefault(g, []).append(h)
        for g, handlers in mine.items():
            start = headers[g]
            end = found.end_of(start, ("hooks", event, "hooks"))
            if len(handlers) == len(events[event][g].get("hooks", [])):
                cut.append(found.span(start, end))
                continue
            starts = found.handlers(start, end, event)
            if len(starts) != len(events[event][g]["hooks"]):
                raise _bad(path, f"a [[hooks.{event}]] group lists its handlers inline",
                           "remove Passdown's handler by hand")
            for h in handlers:
                following = [i for i in starts if i > starts[h]]
                cut.append(found.span(starts[h], following[0] if following else end))
        kept = []
        for g, group in enumerate(intended["hooks"][event]):
            if g in mine and len(mine[g]) == len(group.get("hooks", [])):
                continue  # a group of Passdown's alone goes whole
            if g in mine:
                group["hooks"] = [x for h, x in enumerate(group["hooks"]) if h not in mine[g]]
            kept.append(group)
        intended["hooks"][event] = kept
    lines = found.lines
    drop = set()
    for start, stop in cut:
        if lines[stop - 1].strip() and start > 0 and not lines[start - 1].strip():
            start -= 1  # no blank line after it: the one that set it apart goes with it
        drop.update(range(start, stop))
    first = min(start for start, _ in cut)
    marker = first - 1
    if marker >= 0 and lines[marker].strip() == MARKER:
        drop.add(marker)
        if marker >= 1 and not lines[marker - 1].strip():
            drop.add(marker - 1)
    end = len(lines) - 1 if text.endswith("\n") else len(lines)  # lines[end]: after the last newline
    drop.discard(end)
    for start, stop in _runs(drop):
        if stop < end and not lines[start].strip():
            while stop > start and not lines[stop - 1].strip():
                stop -= 1  # a run set apart on both sides keeps the blank lines after it
                drop.discard(stop)
    return "\n".join(line for index, line in enumerate(lines) if index not in drop), intended


def _runs(indexes):
    """The maximal runs of consecutive ``indexes`` as ``(start, stop)``."""
    runs = []
    for index in sorted(indexes):
        if runs and runs[-1][1] == index:
            runs[-1][1] = index + 1
        else:
            runs.append([index, index + 1])
    return [tuple(run) for run in runs]


def plan_uninstall_layer(scope, environ=None, cwd=None):
    """The changes that remove Passdown's hooks from both of the layer's files: hooks.json,
    then config.toml (a config.toml that cannot be read is refused, unless hooks.json held
    Passdown's hooks, which are then removed alone)."""
    hooks_json, config = layer_paths(scope, environ, cwd)
    first = _settings.plan_uninstall(hooks_json, HOST)
    try:
        return [first, plan_uninstall(config)]
    except (UnreadableInput, RefusedError):
        if first.changed:
            return [first]
        raise


def turned_off(scope, environ=None, cwd=None):
    """``(path, key)`` of each config.toml, the layer's and the user's, that turns Codex's hooks
    off (``[features] hooks = false``, or the older ``codex_hooks = false`` without ``hooks``);
    a file that cannot be read turns nothing off here (HST-312)."""
    paths = [layer_paths(scope, environ, cwd)[1]]
    if scope == "project":
        paths.append(layer_paths("user", environ, cwd)[1])
    found = []
    for path in dict.fromkeys(paths):
        try:
            raw = _settings._read(path)
            features = _parse(path, raw)[1].get("features") if raw is not None else None
        except (UnreadableInput, RefusedError):
            continue
        key = "hooks" if isinstance(features, dict) and "hooks" in features else "codex_hooks"
        if isinstance(features, dict) and features.get(key) is False:
            found.append((path, key))
    return found
