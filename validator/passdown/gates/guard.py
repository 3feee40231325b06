"""The ``guard`` gate: whether a tool call would restart, stop or kill the host from inside it.

The guard judges commands, not mentions. An execution tool's arguments are read as the
programs it runs (a shell string, an argv, a spawn object's command with its arguments,
program source), and each is judged by :mod:`passdown.gates._guard_command`: split at
separators, wrappers peeled, interpreter and executor payloads read in turn, each command's
head verb asked whether it aims at this host's service, this host's process, or the machine.
A data tool's arguments are data and are never read as commands. Code-shaped self-signals are
denied in every tool. A denial names the restart tool.

This module owns the gate's contract: the input, the outcome codes and their messages. The
guard imports ``re`` (through :mod:`passdown.gates._guard_code`) only inside :func:`decide`, and
only for a call that holds ``kill``, program source or a unit glob: most calls never load it.
"""

from passdown.gates import _fields as field
from passdown.gates._guard_command import (  # noqa: F401 (the bounds, named here as the gate's)
    MAX_COMMAND_CHARS, MAX_DEPTH, Judge, program_name, quote, unit_base)
from passdown.gates._table import Decision, run_strict

NAME = "guard"
VERSION = "1.0.0"
SUMMARY = "Whether a tool call would restart, stop or kill the host from inside it."
SPEC = "spec/gates/guard.md"
INPUT_SCHEMA = "gates/guard.input.schema.json"
OUTPUT_SCHEMA = "gates/guard.output.schema.json"
MAX_INPUT_BYTES = 4 * 1024 * 1024
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


def run(raw):
    """Bytes -> :class:`Decision`; unreadable input answers ``invalid_input`` (exit 2)."""
    return run_strict(raw, MAX_INPUT_BYTES, decide, _invalid)


def decide(value):
    """One JSON value -> :class:`Decision`. Never raises."""
    try:
        call = _read(value)
    except field.Invalid as error:
        return _invalid(error.path)
    # Every self-signal shape holds "kill": text without it never loads the regular expressions.
    if any("kill" in text and _code().self_signal(text, call["host_pid"]) for text in call["strings"]):
        return _deny("self_signal", call)
    if call["tool"] == "execute":
        unit = call["service_unit"]
        judge = Judge(call["host_pid"], None if unit is None else unit_base(unit),
                      call["host_names"], call["host_command_lines"])
        for kind, program in _programs(call["arguments"]):
            verdict = judge.program(kind, program)
            if verdict:
                return _deny(verdict, call)
    return Decision({"decision": "allow"}, "allow", 0)


def _code():
    """The code readers, which import ``re``: loaded only when a call needs them."""
    from passdown.gates import _guard_code

    return _guard_code


def _deny(code, call):
    message = _MESSAGES[code].format(
        tool=call["restart_tool"] or DEFAULT_RESTART_TOOL,
        unit=call["service_unit"] or DEFAULT_SERVICE_UNIT,
        pid=call["host_pid"],
    )
    return Decision({"decision": "deny", "code": code, "message": message}, code, 1)


def _programs(arguments):
    """What an execution tool runs, in argument order: ``("shell", text)``, ``("source", text)``
    (program source of unknown language) or ``("argv", words)``. A spawn object's program
    (``command`` or ``cmd``) is also judged together with its arguments (``args`` or ``argv``),
    as the one command the spawn runs."""
    if isinstance(arguments, str):
        return [("shell", arguments)]
    if isinstance(arguments, list):
        return [("argv", arguments)] if _is_argv(arguments) else []
    if not isinstance(arguments, dict):
        return []
    programs = []
    for key in ("command", "cmd"):
        if isinstance(arguments.get(key), str):
            programs.append(("shell", arguments[key]))
        elif isinstance(arguments.get(key), list):
            programs.extend(_programs(arguments[key]))
    for key in ("command", "cmd"):
        program = arguments.get(key)
        for tail_key in ("args", "argv"):
            tail = arguments.get(tail_key)
            if not _is_argv(tail):
                continue
            if isinstance(program, str) and program.strip():
                programs.append(("argv", [program] + tail))
                if program.split() != [program]:  # a spawn through a shell joins the words
                    programs.append(("shell", " ".join([program] + [quote(word) for word in tail])))
            elif _is_argv(program):
                programs.append(("argv", program + tail))
    for key in ("script", "code", "source"):
        if isinstance(arguments.get(key), str):
            programs.append(("source", arguments[key]))
    commands = arguments.get("commands")
    if isinstance(commands, list):
        programs.extend(("shell", item) for item in commands if isinstance(item, str))
    programs_named = [_first_program(arguments.get(key)) for key in ("command", "cmd")]
    programs_named = [name for name in programs_named if name]
    for key in ("argv", "args"):
        words = arguments.get(key)
        # Alone, a list is an argv only when nothing names the program, or when it names the
        # same program again (argv[0]); after a command it holds that command's arguments.
        if _is_argv(words) and (not programs_named or program_name(words[0]) in programs_named):
            programs.append(("argv", words))
    return programs


def _first_program(value):
    """The program a ``command`` or ``cmd`` field names, by base name, or ``None``."""
    if isinstance(value, list):
        value = value[0] if _is_argv(value) else None
    if not isinstance(value, str) or not value.split():
        return None
    return program_name(value.split()[0])


def _is_argv(value):
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


# -- input -----------------------------------------------------------------------------------


def _read(value):
    top = field.record(value, "$", ("tool", "arguments", "host_pid"),
                       ("service_unit", "host_names", "host_command_lines", "restart_tool"))
    names = _identifiers(top, "host_names", 64, 256)
    return {
        "tool": field.choice(top["tool"], "$.tool", ("execute", "data")),
        "arguments": top["arguments"],
        "strings": _strings(top["arguments"]),
        "host_pid": field.integer(top["host_pid"], "$.host_pid", 1),
        "service_unit": _given_text(top, "service_unit"),
        "host_names": names,
        "host_command_lines": _identifiers(top, "host_command_lines", 16, 512),
        "restart_tool": _given_text(top, "restart_tool"),
    }


def _identifiers(top, key, max_items, max_length):
    """An optional list of identifiers (absent: empty)."""
    items = field.strings(top.get(key, []), f"$.{key}", max_items, max_length)
    for index, item in enumerate(items):
        field.text(item, f"$.{key}[{index}]", max_length)
    return items


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
