"""The ``guard`` gate: whether a tool call would restart, stop or kill the host from inside it.

The guard judges commands, not mentions. An execution tool's arguments are read as shell
commands (split at separators, wrappers peeled, interpreter and executor payloads read in
turn) and each command's head verb is asked whether it aims at this host's service, this
host's process, or the machine. A data tool's arguments are data and are never read as
commands. Code-shaped self-signals are denied in every tool. A denial names the restart tool.

The guard imports ``re`` (through :mod:`baton.gates._guard_code`) only inside :func:`decide`,
and only for a call that holds ``kill``, program source or a unit glob: most calls never load it.
"""

from baton.gates import _fields as field
from baton.gates._guard_shell import Command, read
from baton.gates._table import Decision, run_strict

NAME = "guard"
VERSION = "1.0.0"
SUMMARY = "Whether a tool call would restart, stop or kill the host from inside it."
SPEC = "spec/gates/guard.md"
INPUT_SCHEMA = "gates/guard.input.schema.json"
OUTPUT_SCHEMA = "gates/guard.output.schema.json"
MAX_INPUT_BYTES = 4 * 1024 * 1024
#: Longest command text the guard reads; a longer one is denied as ``too_long``.
MAX_COMMAND_CHARS = 65536
#: Deepest nesting of payloads (``sh -c`` in ``$(...)`` in ``bash -c`` ...) the guard reads.
MAX_DEPTH = 8
#: Deepest nesting of the arguments value itself.
MAX_ARGUMENT_DEPTH = 64

OUTCOMES = (
    "invalid_input",
    "self_signal",
    "too_long",
    "too_deep",
    "service_restart",
    "host_shutdown",
    "host_kill",
    "process_kill",
    "allow",
)

DEFAULT_RESTART_TOOL = "the restart tool"
DEFAULT_SERVICE_UNIT = "the host's service"

_MESSAGES = {
    "invalid_input": "Denied: the guard could not read this tool call. Pass the tool kind, its "
                     "arguments and the host's pid as documented.",
    "self_signal": "Denied: this code signals the host process, its parent or its process "
                   "group. To restart the host, use {tool} instead.",
    "too_long": "Denied: this command is too long or holds too many calls to judge. Split it "
                "into smaller commands; to restart the host, use {tool}.",
    "too_deep": "Denied: this command nests shells or substitutions too deeply to judge. "
                "Flatten it; to restart the host, use {tool}.",
    "service_restart": "Denied: this command restarts or stops {unit} from inside the host, "
                       "which ends this call and the turn with it. Use {tool} instead: it "
                       "records a handoff and restarts the host safely.",
    "host_shutdown": "Denied: this command shuts down or reboots the machine the host runs on. "
                     "To restart the host, use {tool} instead.",
    "host_kill": "Denied: this command signals the host process (pid {pid}) or every process. "
                 "To restart the host, use {tool} instead.",
    "process_kill": "Denied: this command kills processes by name or owner, which can match "
                    "the host. To restart the host, use {tool}; to stop another process, kill "
                    "it by its own pid.",
}

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh",
                     "rbash", "yash", "posh"})
_CODE_FLAGS = {
    "python": ("-c",), "node": ("-e", "--eval", "-p", "--print"), "nodejs": ("-e", "--eval"),
    "bun": ("-e", "--eval", "-p", "--print"), "perl": ("-e", "-E"), "ruby": ("-e",),
    "php": ("-r",), "lua": ("-e",), "pwsh": ("-c", "-command"), "powershell": ("-c", "-command"),
    "osascript": ("-e",),
}
_KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while",
                       "until", "time", "coproc", "esac", "in"})
# wrapper -> (options that take a value, positional words before the command, payload options)
_WRAPPERS = {
    "sudo": ({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group",
              "--host", "--prompt", "--chdir", "--role", "--type", "--other-user",
              "--close-from", "--command-timeout"}, 0, ()),
    "doas": ({"-u", "-C"}, 0, ()),
    "env": ({"-u", "--unset", "-C", "--chdir"}, 0, ("-S", "--split-string")),
    "nohup": ((), 0, ()),
    "setsid": ((), 0, ()),
    "builtin": ((), 0, ()),
    "exec": ({"-a"}, 0, ()),
    "time": ({"-f", "-o", "--format", "--output"}, 0, ()),
    "nice": ({"-n", "--adjustment"}, 0, ()),
    "ionice": ({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}, 0, ()),
    "chrt": ((), 1, ()),
    "stdbuf": ({"-i", "-o", "-e", "--input", "--output", "--error"}, 0, ()),
    "timeout": ({"-s", "-k", "--signal", "--kill-after"}, 1, ()),
    "taskset": ((), 1, ()),
    "xargs": ({"-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a", "--max-args", "--max-procs",
               "--delimiter", "--arg-file", "--replace", "--max-lines", "--eof", "--max-chars",
               "--process-slot-var"}, 0, ()),
    "chroot": ({"--userspec", "--groups"}, 1, ()),
    "unbuffer": ((), 0, ()),
    "systemd-run": ({"-u", "--unit", "-p", "--property", "-M", "--machine", "-H", "--host",
                     "--uid", "--gid", "--nice", "-E", "--setenv", "--working-directory",
                     "--description", "--slice", "--service-type"}, 0, ()),
    "flock": ({"-w", "--timeout", "-E", "--conflict-exit-code"}, 1, ("-c", "--command")),
    "busybox": ((), 0, ()),
    "command": ((), 0, ()),
    "watch": ({"-n", "--interval", "-d"}, 0, ()),
}
_SYSTEMCTL_SHUTDOWN = frozenset({"reboot", "poweroff", "halt", "kexec", "soft-reboot", "emergency",
                                 "rescue", "isolate", "default", "exit", "switch-root"})
_SYSTEMCTL_STOP = frozenset({"restart", "stop", "kill", "try-restart", "reload-or-restart",
                             "try-reload-or-restart", "condrestart", "force-reload", "freeze"})
_SYSTEMCTL_VALUE_SHORT = "sHMtponP"
_SYSTEMCTL_VALUE_LONG = frozenset({"--signal", "--host", "--machine", "--type", "--property",
                                   "--output", "--lines", "--state", "--kill-whom", "--job-mode",
                                   "--root", "--what", "--message", "--when", "--timestamp"})
_SERVICE_STOP = frozenset({"restart", "stop", "force-reload", "try-restart", "condrestart",
                           "force-stop"})
_SHUTDOWN_COMMANDS = frozenset({"reboot", "poweroff", "halt", "shutdown"})
_PKILL_VALUE = frozenset({"-g", "-G", "-P", "-s", "-t", "-u", "-U", "-F", "-d", "--signal",
                          "--session", "--pgroup", "--group", "--parent", "--terminal",
                          "--euid", "--uid", "--pidfile", "--ns", "--nslist", "--delimiter",
                          "-o", "-y", "-n", "-Z", "--user", "--older-than", "--younger-than",
                          "--context"})
_PKILL_VALUE_KILLALL_ONLY = frozenset({"-o", "-y", "-n", "-Z"})
_HELP = frozenset({"-h", "--help", "-V", "--version"})


def run(raw):
    """Bytes -> :class:`Decision`; unreadable input answers ``invalid_input`` (exit 2)."""
    return run_strict(raw, MAX_INPUT_BYTES, decide, _invalid)


def decide(value):
    """One JSON value -> :class:`Decision`. Never raises."""
    try:
        call = _read(value)
    except field.Invalid as error:
        return _invalid(error.path)
    context = _Context(call)
    # Every self-signal shape holds "kill": text without it never loads the regular expressions.
    if any("kill" in text and context.code.self_signal(text, call["host_pid"]) for text in call["strings"]):
        return context.deny("self_signal")
    if call["tool"] == "execute":
        for kind, program in _programs(call["arguments"]):
            if kind == "argv":
                verdict = context.command(_argv_command(program), 0)
            else:
                verdict = context.text(program, 0, kind == "code")
            if verdict:
                return context.deny(verdict)
    return Decision({"decision": "allow"}, "allow", 0)


class _Context:
    def __init__(self, call):
        self.call = call
        self.pid = call["host_pid"]
        unit = call["service_unit"]
        self.unit = None if unit is None else _unit_base(unit)
        self.names = [name.lower() for name in call["host_names"]]

    @property
    def code(self):
        """The code readers, which import ``re``: loaded only when a call needs them."""
        from baton.gates import _guard_code

        return _guard_code

    def deny(self, code):
        message = _MESSAGES[code].format(
            tool=self.call["restart_tool"] or DEFAULT_RESTART_TOOL,
            unit=self.call["service_unit"] or DEFAULT_SERVICE_UNIT,
            pid=self.pid,
        )
        return Decision({"decision": "deny", "code": code, "message": message}, code, 1)

    # -- text and commands --------------------------------------------------------------

    def text(self, text, depth, code=False):
        """Judge shell text (``code``: a program's source, which may also hold executor calls)."""
        if depth > MAX_DEPTH:
            return "too_deep"
        if len(text) > MAX_COMMAND_CHARS:
            return "too_long"
        for command in read(text):
            for payload in command.payloads:
                verdict = self.text(payload, depth + 1)
                if verdict:
                    return verdict
            verdict = self.command(command, depth)
            if verdict:
                return verdict
        if code:
            programs = self.code.executor_calls(text)
            if programs is None:
                return "too_long"
            for kind, program in programs:
                if kind == "argv":
                    verdict = self.command(_argv_command(program), depth + 1)
                else:
                    verdict = self.text(program, depth + 1, True)
                if verdict:
                    return verdict
        return None

    def command(self, command, depth):
        items = list(zip(command.words, command.word_payloads))
        while items:
            head = _program(items[0][0])
            if _is_assignment(items[0][0]) or head in _KEYWORDS:
                items = items[1:]
            elif head in ("su", "runuser", "sg"):
                payload = _option_value([w for w, _ in items[1:]], ("-c", "--command"))
                return None if payload is None else self.text(payload, depth + 1)
            elif head == "command" and any(w in ("-v", "-V") for w, _ in items[1:2]):
                return None
            elif head == "watch":
                rest, _ = _peel(items, _WRAPPERS[head])
                return self.text(" ".join(w for w, _ in rest), depth + 1) if rest else None
            elif head in _WRAPPERS:
                items, payload = _peel(items, _WRAPPERS[head])
                if payload is not None:
                    return self.text(payload, depth + 1)
            else:
                break
        if not items:
            return None
        head = _program(items[0][0])
        words = [w for w, _ in items[1:]]
        if head in _SHELLS or _interpreter(head) is not None:
            return self._interpreter(head, words, command, depth)
        if head == "eval":
            return self.text(" ".join(words), depth + 1)
        if head == "systemctl":
            return self._systemctl(words)
        if head == "service":
            if len(words) >= 2 and words[1] in _SERVICE_STOP and self._aims_at_unit(words[0]):
                return "service_restart"
            return None
        if head in _SHUTDOWN_COMMANDS:
            if any(w in ("--help", "--version") for w in words) or (head == "shutdown" and "-c" in words):
                return None
            return "host_shutdown"
        if head in ("init", "telinit"):
            return "host_shutdown" if words[:1] in (["0"], ["1"], ["6"], ["s"], ["S"]) else None
        if head == "loginctl":
            if any(w in ("poweroff", "reboot", "halt") for w in words):
                return "host_shutdown"
            if any(w in ("terminate-user", "kill-user", "terminate-session", "kill-session")
                   for w in words):
                return "process_kill"
            return None
        if head == "kill":
            return self._kill(items[1:], command, depth)
        if head == "killall5":
            return "host_kill"
        if head in ("pkill", "killall", "skill"):
            return self._by_name(head, words)
        if "-c" in words:
            payload = _option_value(words, ("-c",))
            if payload is not None:
                return self.text(payload, depth + 1)
        return None

    def _interpreter(self, head, words, command, depth):
        is_shell = head in _SHELLS
        flags = ("-c",) if is_shell else _interpreter(head)
        payload = _payload(words, flags, is_shell)
        if payload is None and head == "deno" and words[:1] == ["eval"] and len(words) > 1:
            payload = words[1]
        if payload is not None:
            return self.text(payload, depth + 1, not is_shell)
        if any(not w.startswith("-") for w in words):
            return None  # runs a script file: its content is out of reach
        fed = list(command.stdin)
        source = command.piped_from
        if source is not None and source.words and _program(source.words[0]) in ("echo", "printf"):
            fed.append(" ".join(w for w in source.words[1:] if not w.startswith("-")))
        for text in fed:
            verdict = self.text(text, depth + 1, not is_shell)
            if verdict:
                return verdict
        return None

    # -- verbs --------------------------------------------------------------------------

    def _systemctl(self, words):
        verb, units, now, index = None, [], False, 0
        while index < len(words):
            word = words[index]
            if word == "--":
                units.extend(words[index + 1:])
                break
            if word.startswith("--"):
                name = word.split("=", 1)[0]
                if name in ("--host", "--machine"):
                    return None  # aimed at another machine or container
                if name in _SYSTEMCTL_VALUE_LONG and "=" not in word:
                    index += 1
                now = now or name == "--now"
            elif word.startswith("-") and len(word) > 1:
                letters = word[1:]
                if "H" in letters or "M" in letters:
                    return None
                for position, letter in enumerate(letters):
                    if letter in _SYSTEMCTL_VALUE_SHORT:
                        index += position == len(letters) - 1
                        break
            elif verb is None:
                verb = word
            else:
                units.append(word)
            index += 1
        if verb in _SYSTEMCTL_SHUTDOWN:
            return "host_shutdown"
        stops = verb in _SYSTEMCTL_STOP or (verb in ("disable", "mask") and now)
        if stops and any(self._aims_at_unit(unit) for unit in units):
            return "service_restart"
        return None

    def _aims_at_unit(self, word):
        if self.unit is None or "$" in word or "`" in word:
            return True
        base = _unit_base(word)
        if any(c in base for c in "*?["):
            from fnmatch import fnmatchcase

            return fnmatchcase(self.unit, base)
        return base == self.unit

    def _kill(self, items, command, depth):
        words = [w for w, _ in items]
        if any(w in ("-l", "-L", "--list", "--table") for w in words):
            return None
        targets, index, signal_given = [], 0, False
        while index < len(items):
            word = items[index][0]
            if word == "--":
                targets.extend(items[index + 1:])
                break
            if not signal_given and word in ("-s", "-n", "--signal"):
                signal_given, index = True, index + 2
                continue
            # Only the first word can be the signal, and only when a target follows it.
            if not signal_given and not targets and (word.startswith("--signal=") or (
                    word.startswith("-") and index + 1 < len(items))):
                signal_given, index = True, index + 1
                continue
            targets.append(items[index])
            index += 1
        for word, payloads in targets:
            if word in ("-1", "0", "-0", "$PPID", "${PPID}", "-$PPID"):
                return "host_kill"
            number = word[1:] if word.startswith("-") else word
            if number.isdigit() and number.isascii() and int(number) == self.pid:
                return "host_kill"
            for payload in payloads:
                verdict = self._pid_lookup(payload)
                if verdict:
                    return verdict
        source = command.piped_from
        if not targets and source is not None and source.words:
            return self._lookup_words(source.words)
        return None

    def _pid_lookup(self, payload):
        """``kill $(pgrep node)`` kills by name, like ``pkill node``."""
        for command in read(payload):
            if command.words:
                verdict = self._lookup_words(command.words)
                if verdict:
                    return verdict
        return None

    def _lookup_words(self, words):
        head = _program(words[0])
        if head in ("pgrep", "pidof"):
            return self._by_name(head, words[1:])
        return None

    def _by_name(self, head, words):
        if any(w in _HELP or w in ("-l", "--list") for w in words):
            return None
        patterns, index = [], 0
        while index < len(words):
            word = words[index]
            if word == "--":
                patterns.extend(words[index + 1:])
                break
            if word.startswith("-") and len(word) > 1:
                name = word.split("=", 1)[0]
                takes_value = name in _PKILL_VALUE and (
                    head == "killall" or name not in _PKILL_VALUE_KILLALL_ONLY)
                index += 2 if takes_value and "=" not in word else 1
                continue
            patterns.append(word)
            index += 1
        if not patterns or not self.names:
            return "process_kill"
        for pattern in patterns:
            literal = pattern.lower().strip("^$")
            if any(literal and (literal in name or name in literal) for name in self.names):
                return "process_kill"
        return None


# -- helpers ---------------------------------------------------------------------------------


def _program(word):
    """``/usr/bin/kill`` -> ``kill``."""
    name = word.rsplit("/", 1)[-1]
    return name or word


def _is_assignment(word):
    name, equals, _ = word.partition("=")
    name = name[:-1] if name.endswith("+") else name
    return bool(equals) and name.isidentifier() and name.isascii()


def _interpreter(head):
    """The payload flags of a code interpreter, or ``None`` if ``head`` is not one."""
    if head.startswith("python"):
        return _CODE_FLAGS["python"]
    if head == "deno":
        return ()
    return _CODE_FLAGS.get(head)


def _payload(words, flags, is_shell):
    """The word after a payload flag (``-c``; for a shell also grouped, as in ``-lc``)."""
    for index, word in enumerate(words[:-1]):
        if word == "--":
            return None
        grouped = is_shell and word.startswith("-") and not word.startswith("--") and "c" in word
        if word in flags or word.lower() in flags or grouped:
            return words[index + 1]
        if not word.startswith("-"):
            return None
    return None


def _option_value(words, names):
    for index, word in enumerate(words[:-1]):
        if word in names:
            return words[index + 1]
    for word in words:
        for name in names:
            if name.startswith("--") and word.startswith(name + "="):
                return word[len(name) + 1:]
    return None


def _peel(items, spec):
    """Drop a wrapper and its options: (the wrapped command's items, a payload option's value)."""
    with_value, positional, payload_options = spec
    if payload_options:
        payload = _option_value([word for word, _ in items[1:]], payload_options)
        if payload is not None:
            return [], payload
    index = 1
    while index < len(items):
        word = items[index][0]
        if word == "--":
            index += 1
            break
        if not word.startswith("-") or len(word) == 1:
            break
        name = word.split("=", 1)[0]
        index += 2 if name in with_value and "=" not in word else 1
    return items[index + positional:], None


def _unit_base(unit):
    return unit[:-len(".service")] if unit.endswith(".service") else unit


def _argv_command(words):
    command = Command()
    command.words = list(words)
    command.word_payloads = [[] for _ in words]
    return command


def _programs(arguments):
    """What an execution tool runs: ``("shell", text)``, ``("code", text)`` or ``("argv", words)``."""
    if isinstance(arguments, str):
        return [("shell", arguments)]
    if isinstance(arguments, list):
        if arguments and all(isinstance(item, str) for item in arguments):
            return [("argv", arguments)]
        return []
    if not isinstance(arguments, dict):
        return []
    programs = []
    for key in ("command", "cmd"):
        if isinstance(arguments.get(key), str):
            programs.append(("shell", arguments[key]))
        elif isinstance(arguments.get(key), list):
            programs.extend(_programs(arguments[key]))
    for key in ("script", "code", "source"):
        if isinstance(arguments.get(key), str):
            programs.append(("code", arguments[key]))
    commands = arguments.get("commands")
    if isinstance(commands, list):
        programs.extend(("shell", item) for item in commands if isinstance(item, str))
    for key in ("argv", "args"):
        value = arguments.get(key)
        if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            programs.append(("argv", value))
    return programs


# -- input -----------------------------------------------------------------------------------


def _read(value):
    top = field.record(value, "$", ("tool", "arguments", "host_pid"),
                       ("service_unit", "host_names", "restart_tool"))
    names = field.strings(top.get("host_names", []), "$.host_names", 64, 256)
    for index, name in enumerate(names):
        field.text(name, f"$.host_names[{index}]", 256)
    return {
        "tool": field.choice(top["tool"], "$.tool", ("execute", "data")),
        "arguments": top["arguments"],
        "strings": _strings(top["arguments"]),
        "host_pid": field.integer(top["host_pid"], "$.host_pid", 1),
        "service_unit": _given_text(top, "service_unit"),
        "host_names": names,
        "restart_tool": _given_text(top, "restart_tool"),
    }


def _given_text(top, key):
    """An optional text field: absent is ``None``; present, it must be a non-blank string."""
    return field.text(top[key], f"$.{key}") if key in top else None


def _strings(arguments):
    """Every string in the arguments (object keys too), walked without recursion."""
    found, stack = [], [(arguments, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_ARGUMENT_DEPTH:
            raise field.Invalid("$.arguments", f"nests deeper than {MAX_ARGUMENT_DEPTH} levels")
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            for key, item in node.items():
                if isinstance(key, str):
                    found.append(key)
                stack.append((item, depth + 1))
        elif isinstance(node, list):
            stack.extend((item, depth + 1) for item in node)
    return found


def _invalid(path):
    output = {"decision": "deny", "code": "invalid_input", "message": _MESSAGES["invalid_input"],
              "path": path}
    return Decision(output, "invalid_input", 2)
