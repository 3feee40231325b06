"""The ``guard`` gate: whether a tool call would restart, stop or kill the host from inside it.

The guard judges the host, not the text: an execution tool's arguments are read as the
programs they run (shell text of the POSIX, PowerShell or ``cmd`` dialect, an argv, a spawn
object's command with its arguments, program source), and each command is judged by the
kernel (:mod:`passdown.gates._guard_judge`) against who the host is: its pid, parent, process
group and session, its names and command lines, the units it runs in. A data tool's
arguments are data and are never read as commands; code-shaped self-signals are denied in
every tool. A piece the guard cannot read is answered ``ask``, never a silent allow.

This module owns the gate's contract: the input, the outcome codes, their decisions and their
messages. The gate path imports no regular expression module (a kill pattern is read as the
globs of its alternatives), loads the code reader (self-signals and what a program runs) only
for a call that may hold a self-signal or an interpreter given code, and the kernel only for an
execution tool.
"""

from passdown.gates import _fields as field
from passdown.gates._table import Decision, run_strict

NAME = "guard"
VERSION = "2.0.0"
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
    "service_restart",
    "host_shutdown",
    "host_kill",
    "process_kill",
    "unreadable",
    "too_long",
    "too_deep",
    "allow",
)
#: Outcomes that ask the person in the loop instead of denying.
ASKS = ("unreadable", "too_long", "too_deep")
SHELLS = ("posix", "powershell", "cmd")

DEFAULT_RESTART_TOOL = "the restart tool"

_MESSAGES = {
    "invalid_input": "Denied: the guard could not read this tool call. Pass the tool kind, its "
                     "arguments and the host's pid as documented.",
    "self_signal": "Denied: this code signals the host process, its parent or its process "
                   "group. To restart the host, use {tool} instead.",
    "service_restart": "Denied: this command restarts or stops {unit} from inside the host, "
                       "which ends this call and the turn with it. Use {tool} instead: it "
                       "records a handoff and restarts the host safely.",
    "host_shutdown": "Denied: this command shuts down or reboots the machine the host runs on. "
                     "To restart the host, use {tool} instead.",
    "host_kill": "Denied: this command signals the host process (pid {pid}), its parent, its "
                 "process group or session, or every process. To restart the host, use {tool} "
                 "instead.",
    "process_kill": "Denied: this command kills processes by a name or pattern that matches the "
                    "host, or the shell or terminal its session hangs on. To restart the host, use "
                    "{tool}; to stop another process, name it so that the host does not match, or "
                    "kill it by its own pid.",
    "unreadable": "Ask: the guard cannot read part of this command ({why}). Allow it only if it "
                  "does not restart, stop or kill the host; to restart the host, use {tool}.",
    "too_long": "Ask: this command is too long to judge ({why}). Allow it only if it does not "
                "restart, stop or kill the host; to restart the host, use {tool}.",
    "too_deep": "Ask: this command nests too deeply to judge ({why}). Allow it only if it does "
                "not restart, stop or kill the host; to restart the host, use {tool}.",
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
    host = call["host"]
    signalling = [text for text in call["strings"] if _may_signal(text)]
    if signalling:  # its reader loads only for a call that may hold a self-signal: start-up
        from passdown.gates._guard_code import self_signal

        if any(self_signal(text, host["pid"], host["group"]) for text in signalling):
            return _answer("self_signal", call)
    if call["tool"] != "execute":
        return Decision({"decision": "allow"}, "allow", 0)
    # The kernel loads only for an execution tool: a data tool's call (most calls) skips it.
    from passdown.gates._guard_judge import Host, Judge
    from passdown.gates._guard_read import Unreadable

    judge = Judge(Host(**host))
    try:
        for kind, program in _programs(call["arguments"]):
            if kind == "shell":
                verdict = judge.shell(program, call["shell"])
            elif kind == "source":
                verdict = judge.shell(program, call["shell"]) or judge.code(program, 0)
            else:
                verdict = judge.argv(program, 0)
            if verdict:
                return _answer(verdict, call, unit=judge.unit)
    except Unreadable as error:
        return _answer(error.code, call, why=error.why)
    return Decision({"decision": "allow"}, "allow", 0)


def _may_signal(text):
    """Whether a text may hold a self-signal: a call of a kill function holds ``kill`` (or a
    signalling method's ``terminate(`` or ``send_signal(``) and either a parenthesis or, in
    Perl's list form (``kill 9, getppid``), a comma. A shell's ``kill -9 1234`` holds neither,
    and is the kernel's to judge."""
    return ("kill" in text or "terminate(" in text or "send_signal(" in text) and ("(" in text or "," in text)


def _answer(code, call, unit=None, why=""):
    message = _MESSAGES[code].format(
        tool=call["restart_tool"] or DEFAULT_RESTART_TOOL,
        unit=unit or call["service_unit"] or "the host's service",
        pid=call["host"]["pid"], why=why)
    decision = "ask" if code in ASKS else "deny"
    return Decision({"decision": decision, "code": code, "message": message}, code, 1)


def _programs(arguments):
    """What an execution tool runs, in argument order: ``("shell", text)``, ``("source",
    text)`` (program source of unknown language: a ``script``, ``code``, ``source`` or the
    ``input`` typed into a running process) or ``("argv", words)``. A spawn object's
    program (``command`` or ``cmd``) with its arguments (``args`` or ``argv``, a list or
    one string) is the one command the spawn runs; alone, each is judged as it reads."""
    if isinstance(arguments, str):
        return [("shell", arguments)]
    if isinstance(arguments, list):
        return [("argv", arguments)] if _is_argv(arguments) else []
    if not isinstance(arguments, dict):
        return []
    programs = []
    tail = next((arguments[k] for k in ("args", "argv") if _is_argv(arguments.get(k))), None)
    text_tail = next((arguments[k] for k in ("args", "argv") if isinstance(arguments.get(k), str)), "")
    for key in ("command", "cmd"):
        program = arguments.get(key)
        if isinstance(program, str) and text_tail.strip():  # arguments given as one string
            programs.append(("shell", program + " " + text_tail))
        elif isinstance(program, str) and program.strip() and tail is not None:
            programs.append(("argv", [program] + tail))
            if program.split() != [program]:  # a spawn through a shell joins the words
                programs.append(("shell", " ".join([program] + tail)))
        elif _is_argv(program) and tail is not None:
            programs.append(("argv", program + tail))
        elif isinstance(program, str):
            programs.append(("shell", program))
        elif _is_argv(program):
            programs.append(("argv", program))
    if tail is not None and not any(isinstance(arguments.get(k), (str, list)) for k in ("command", "cmd")):
        programs.append(("argv", tail))
    for key in ("script", "code", "source", "input"):
        if isinstance(arguments.get(key), str):
            programs.append(("source", arguments[key]))
    commands = arguments.get("commands")
    if isinstance(commands, list):
        programs.extend(("shell", item) for item in commands if isinstance(item, str))
    return programs


def _is_argv(value):
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


# -- input -----------------------------------------------------------------------------------


def _read(value):
    top = field.record(value, "$", ("tool", "arguments", "host_pid"),
                       ("shell", "host_parent_pid", "host_pgid", "host_sid", "service_unit",
                        "host_units", "host_names", "host_command_lines", "host_session_names",
                        "restart_tool"))
    unit = _given_text(top, "service_unit")
    units = ([unit] if unit else []) + _identifiers(top, "host_units", 16, 512)
    host = {"pid": field.integer(top["host_pid"], "$.host_pid", 1),
            **{name: _given_pid(top, f"host_{key}") for name, key in
               (("parent", "parent_pid"), ("group", "pgid"), ("session", "sid"))},
            "names": _identifiers(top, "host_names", 64, 256),
            "session_names": _identifiers(top, "host_session_names", 8, 256),
            "command_lines": _identifiers(top, "host_command_lines", 16, 512), "units": units}
    return {
        "tool": field.choice(top["tool"], "$.tool", ("execute", "data")),
        "shell": field.choice(top.get("shell", "posix"), "$.shell", SHELLS),
        "arguments": top["arguments"],
        "strings": _strings(top["arguments"]),
        "host": host,
        "service_unit": unit,
        "restart_tool": _given_text(top, "restart_tool"),
    }


def _given_pid(top, key):
    return field.integer(top[key], f"$.{key}", 1) if key in top else None


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
