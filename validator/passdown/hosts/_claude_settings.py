"""``passdown hook install|uninstall claude|codex``: Passdown's hook entries merged into, or
removed from, one Claude Code ``settings.json`` or one Codex CLI ``hooks.json`` (the same
shape), only when asked, with the exact change printed.

The file belongs to its owner. Only Passdown's entries change: every other byte stays as it was
(key order, indentation, spacing, other hooks and settings), installing twice changes
nothing, and uninstalling removes exactly what installing added, so install then uninstall
gives back the original bytes. The file is written atomically under its lock, and the new
text is parsed and compared with the intended data before anything is written.

Passdown's entries are recognised by their exact command (a ``passdown`` launcher, ``hook claude
EVENT`` and only the hook's own options), so uninstall finds them whatever options they were
installed with and never takes another tool's. The file is read through the one safe reader
(never a FIFO, a device or a folder, and bounded), a symbolic link is written through at its
target, and CRLF line endings stay CRLF.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import shlex
import sys

from passdown.errors import RefusedError, UnreadableInput
from passdown.formats import _files
from passdown.hosts import _codex_rollout, _jsontext
from passdown.hosts._hooks import HookError, parse_options
from passdown.workspace import _atomic, _editing

#: What gets installed: (event, matcher or None for every occurrence, timeout in seconds).
ENTRIES = (
    ("PreToolUse", "*", 10),
    ("SessionStart", "startup|resume|clear|compact", 30),
    ("PreCompact", None, 30),
    ("Stop", None, 30),
)
#: Codex CLI's hooks.json has the same shape (spec/hosts.md HST-305); its matchers are
#: regular expressions, so every entry leaves the matcher out to match every occurrence.
CODEX_ENTRIES = (
    ("PreToolUse", None, 10),
    ("SessionStart", None, 30),
    ("PreCompact", None, 30),
    ("PostCompact", None, 30),
    ("Stop", None, 30),
)
ENTRIES_OF = {"claude": ENTRIES, "codex": CODEX_ENTRIES}
SCOPES = ("project", "user")
_PASSED_ON = (("--restart-tool", "restart_tool"), ("--service-unit", "service_unit"),
              ("--host-name", "host_names"), ("--execute-tool", "execute_tools"))


def settings_path(scope: str, environ=None, cwd: str | None = None, host: str = "claude") -> str:
    """``--user``: ``$CLAUDE_CONFIG_DIR/settings.json`` (default ``~/.claude``); ``--project``:
    ``.claude/settings.json`` in ``$CLAUDE_PROJECT_DIR`` (default: the current folder). For
    Codex CLI: ``$CODEX_HOME/hooks.json`` (default ``~/.codex``), or ``.codex/hooks.json``
    in the current folder."""
    environ = os.environ if environ is None else environ
    if host == "codex":
        return _codex_hooks_path(scope, environ, cwd)
    if scope == "user":
        base = environ.get("CLAUDE_CONFIG_DIR") or os.path.join(
            environ.get("HOME") or os.path.expanduser("~"), ".claude")
        return os.path.join(base, "settings.json")
    project = environ.get("CLAUDE_PROJECT_DIR") or cwd or os.getcwd()
    return os.path.join(project, ".claude", "settings.json")


def _codex_hooks_path(scope, environ, cwd):
    if scope == "user":
        return os.path.join(_codex_rollout.config_folder(environ), "hooks.json")
    return os.path.join(cwd or os.getcwd(), ".codex", "hooks.json")


def default_launcher() -> list[str]:
    """How the hooks run Passdown: the ``passdown`` launcher of this installation (an absolute
    path, so the hook does not depend on the host's PATH), else ``python -m passdown``."""
    launcher = os.path.join(os.path.dirname(sys.executable), "passdown")
    if os.path.isfile(launcher):
        return [launcher]
    return [sys.executable, "-m", "passdown"]


#: What the hooks' Python runs (HST-207): the folder after it, the word it takes from the
#: arguments, is put on the import path, then Passdown runs as ``python -m passdown`` would.
HOOK_CODE = "import sys; sys.path.append(sys.argv.pop(1)); import passdown.__main__"


def hook_launcher() -> list[str]:
    """How the hooks run Passdown (HST-207): this interpreter by absolute path, without its site
    set-up (``-S``) or the current folder on the import path (``-P``), given :data:`HOOK_CODE`
    and the folder that holds this installation's Passdown. The PreToolUse hook runs before
    every tool call, and the site set-up is about a sixth of its time (bench/hook_bench.py).
    A missing folder fails as a Python error (exit 1), which the hosts report and pass; a
    missing script would exit 2, which they take for a block."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # passdown/hosts/ -> passdown/
    if os.path.isfile(os.path.join(package, "_entry.py")):
        return [sys.executable, "-S", "-P", "-c", HOOK_CODE, os.path.dirname(package)]
    return default_launcher()


def hook_command(launcher: list[str], event: str, options: dict, host: str = "claude") -> str:
    """The command line of Passdown's hook for ``event``; the guard's options go to PreToolUse,
    the context capacity to SessionStart and Stop (they assess the session)."""
    words = [*launcher, "hook", host, event]
    if event in ("SessionStart", "Stop") and options.get("context_capacity"):
        words += ["--context-capacity", str(options["context_capacity"])]
    if event == "PreToolUse":
        for flag, key in _PASSED_ON:
            value = options.get(key)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if item:
                    words += [flag, item]
    return shlex.join(words)


def is_passdown_command(command, event: str, host: str = "claude") -> bool:
    """Whether a hook command is exactly one Passdown writes for ``event`` (HST-202): a launcher
    (a program named ``passdown``, ``PYTHON -m passdown`` or ``PYTHON -S -P -c HOOK_CODE FOLDER``),
    then ``hook claude EVENT``,
    then only options ``passdown hook claude`` takes, each with its value; nothing else, so
    another tool's command that merely mentions ``hook claude EVENT`` is never taken."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    for size in (1, 3, 6):
        launcher, rest = words[:size], words[size:]
        if len(launcher) < size or rest[:3] != ["hook", host, event]:
            continue
        program = launcher[0].replace("\\", "/").rsplit("/", 1)[-1]  # of a Windows path too
        if size == 1 and program != "passdown":
            continue
        if size > 1 and not program.startswith("python"):
            continue
        if size == 3 and launcher[1:] != ["-m", "passdown"]:
            continue
        if size == 6 and launcher[1:5] != ["-S", "-P", "-c", HOOK_CODE]:
            continue
        try:
            parse_options(rest[3:], host)
        except HookError:
            continue
        return True
    return False


def _entry(event: str, matcher, timeout: int, command: str) -> dict:
    group = {} if matcher is None else {"matcher": matcher}
    group["hooks"] = [{"type": "command", "command": command, "timeout": timeout}]
    return group


class Plan:
    """One change to a settings file: its bytes ``before`` (``None``: no file) and ``after``.
    ``path`` is the file as named; a symbolic link there is written through, at its target
    (HST-201)."""

    def __init__(self, path: str, before: bytes | None, after: bytes | None):
        self.path, self.before, self.after = path, before, after
        self.target = _target(path)

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        """The change as a unified diff (empty when nothing changes)."""
        if not self.changed:
            return ""
        shown = shown_path(self.path)
        old = [] if self.before is None else self.before.decode("utf-8").splitlines(keepends=True)
        new = [] if self.after is None else self.after.decode("utf-8").splitlines(keepends=True)
        lines = difflib.unified_diff(old, new, "/dev/null" if self.before is None else shown, shown)
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                       for line in lines)

    def write(self) -> None:
        """Write ``after`` atomically, under the file's lock, if the file still holds
        ``before``; nothing happens when nothing changes. Through a symbolic link, the
        link's target is replaced and the link stays."""
        if not self.changed:
            return
        if self.target == self.path:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        with _atomic.file_lock(self.target):
            if _read(self.path) != self.before:
                raise RefusedError(f"{self.path} changed while the change was being prepared",
                                   code="hook.settings_changed", hint="run the command again")
            _atomic.atomic_write(self.target, self.after)


def _target(path: str) -> str:
    """Where the settings are written: ``path``, or the file a symbolic link there leads to
    (every link on the way followed)."""
    return os.path.realpath(path) if os.path.islink(path) else path


def shown_path(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


#: The largest settings file read (INP-002's bound).
MAX_SETTINGS_BYTES = _files.DEFAULT_MAX_BYTES


def _read(path: str) -> bytes | None:
    """The settings file's bytes through the one safe reader (INP-011, INP-012): ``None`` when
    there is none; a FIFO, device, folder, loop of links or a file beyond the bound is
    refused with its ``load.*`` code (HST-200)."""
    try:
        return _files.read_regular(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise UnreadableInput(f"{path}: a folder stands where the settings file is read",
                              code="load.unreadable",
                              hint="move the folder away; settings.json is a file") from None
    except OSError as error:
        raise UnreadableInput(f"{path}: cannot read the settings file: "
                              f"{error.strerror or error}", code="load.unreadable",
                              hint="check that the file is readable") from None


def _bad(path: str, what: str) -> RefusedError:
    return RefusedError(f"{path}: {what}", code="hook.bad_settings",
                        hint="fix the settings file by hand (it must be a JSON object whose "
                             "\"hooks\" maps event names to lists of matcher groups), then retry")


class _Editor:
    """The settings text and its data, edited together: every text splice is mirrored on
    the data, and the text must parse back to exactly that data."""

    def __init__(self, path: str, raw: bytes | None):
        self.path = path
        #: Whether the file ends its lines with CRLF: edited as LF, written back as CRLF
        #: (HST-203).
        self.crlf = raw is not None and b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")
        if raw is None or not raw.strip():
            self.text, self.data = "{}\n", {}
        else:
            self.data = _editing.parse(raw, source=path, syntax="json")
            self.text = raw.decode("utf-8")
            if self.crlf:
                self.text = self.text.replace("\r\n", "\n")
        if not isinstance(self.data, dict):
            raise _bad(path, "the file is not a JSON object")
        self.unit = _jsontext.indent_unit(self.text)

    def tree(self):
        return _jsontext.parse(self.text)

    def hooks(self):
        """``(data, node)`` of the ``hooks`` object, or ``(None, None)``."""
        if "hooks" not in self.data:
            return None, None
        if not isinstance(self.data["hooks"], dict):
            raise _bad(self.path, '"hooks" is not an object')
        return self.data["hooks"], self.tree().member("hooks")[1]

    def groups(self, event):
        hooks, node = self.hooks()
        if hooks is None or event not in hooks:
            return None, None
        groups = hooks[event]
        if not isinstance(groups, list) or not all(
                isinstance(g, dict) and isinstance(g.get("hooks", []), list) for g in groups):
            raise _bad(self.path, f'"hooks.{event}" is not a list of matcher groups')
        return groups, node.member(event)[1]

    def result(self) -> bytes:
        try:
            parsed = json.loads(self.text)
        except ValueError:
            parsed = None
        if parsed != self.data:  # never write a file that is not the intended data
            raise RefusedError(f"the edit of {self.path} did not give the intended settings",
                               code="hook.edit_failed",
                               hint="report this as a Passdown bug, with the settings file")
        return (self.text.replace("\n", "\r\n") if self.crlf else self.text).encode("utf-8")


def plan_install(path: str, launcher: list[str], options: dict | None = None,
                 host: str = "claude") -> Plan:
    """The change that adds Passdown's hooks to ``path`` (or brings their commands up to date)."""
    before = _read(path)
    editor = _Editor(path, before)
    for event, matcher, timeout in ENTRIES_OF[host]:
        command = hook_command(launcher, event, options or {}, host)
        entry = _entry(event, matcher, timeout, command)
        hooks, hooks_node = editor.hooks()
        if hooks is None:
            editor.text = _jsontext.add_member(editor.text, editor.tree(), "hooks", {event: [entry]},
                                               editor.unit)
            editor.data["hooks"] = {event: [copy.deepcopy(entry)]}
            continue
        groups, groups_node = editor.groups(event)
        if groups is None:
            editor.text = _jsontext.add_member(editor.text, hooks_node, event, [entry], editor.unit)
            hooks[event] = [copy.deepcopy(entry)]
            continue
        ours = [(g, h) for g, group in enumerate(groups) for h, handler in enumerate(group.get("hooks", []))
                if isinstance(handler, dict) and is_passdown_command(handler.get("command"), event, host)]
        if not ours:
            editor.text = _jsontext.add_element(editor.text, groups_node, entry, editor.unit)
            groups.append(copy.deepcopy(entry))
        for g, h in ours:
            group = groups[g]
            if matcher is not None and group.get("matcher") != matcher \
                    and len(group.get("hooks", [])) == 1:
                # a matcher group of Passdown's alone, installed with an older matcher
                matcher_node = groups_node.child(g).member("matcher")[1]
                if matcher_node is not None:
                    editor.text = _jsontext.replace(editor.text, matcher_node, matcher, editor.unit)
                    group["matcher"] = matcher
                    groups_node = editor.groups(event)[1]
            handler = groups[g]["hooks"][h]
            if handler.get("command") != command:
                group_node = groups_node.child(g).member("hooks")[1].child(h)
                command_node = group_node.member("command")[1]
                editor.text = _jsontext.replace(editor.text, command_node, command, editor.unit)
                handler["command"] = command
                groups_node = editor.groups(event)[1]
    return Plan(path, before, editor.result())


def plan_uninstall(path: str, host: str = "claude") -> Plan:
    """The change that removes every Passdown hook from ``path``, and each matcher group, event
    list and ``hooks`` object that held nothing else."""
    before = _read(path)
    if before is None:
        return Plan(path, None, None)
    editor = _Editor(path, before)
    emptied_any = False
    for event, _, _ in ENTRIES_OF[host]:
        groups, _ = editor.groups(event)
        removed = False
        for g in reversed(range(len(groups or ()))):
            handlers = groups[g].get("hooks", [])
            mine = [h for h, handler in enumerate(handlers)
                    if isinstance(handler, dict) and is_passdown_command(handler.get("command"), event, host)]
            if not mine:
                continue
            removed = True
            if len(mine) == len(handlers):
                editor.text = _jsontext.remove(editor.text, editor.groups(event)[1], g)
                del groups[g]
                continue
            for h in reversed(mine):
                handlers_node = editor.groups(event)[1].child(g).member("hooks")[1]
                editor.text = _jsontext.remove(editor.text, handlers_node, h)
                del handlers[h]
        if removed and groups == []:
            hooks, hooks_node = editor.hooks()
            editor.text = _jsontext.remove(editor.text, hooks_node, hooks_node.member(event)[0])
            del hooks[event]
            emptied_any = True
    if emptied_any and editor.hooks()[0] == {}:
        tree = editor.tree()
        editor.text = _jsontext.remove(editor.text, tree, tree.member("hooks")[0])
        del editor.data["hooks"]
    return Plan(path, before, editor.result())
