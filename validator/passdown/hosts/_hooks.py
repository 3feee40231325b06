"""What the command hooks of every host share (``passdown hook claude|codex EVENT``,
spec/hosts.md): reading the hook's JSON and the command's options, the guard's verdict on a
tool call, the failure forms, and answering within each event's budget. Each host's module is
a thin adapter over it, a :class:`Host`: its events, and its PreToolUse output form
(:mod:`passdown.hosts._claude_hooks`, :mod:`passdown.hosts._codex_hooks`); the hooks that read
the checkpoint live in :mod:`passdown.hosts._hook_context`, loaded only for their events.

- The guard's verdict on a call asks the guard gate: the execution channels (``Bash``,
  ``PowerShell``, an MCP tool whose name says it executes, ``mcp__<server>__exec...`` or
  ``mcp__<server>__run...``, and any ``--execute-tool``) as an execution tool (``PowerShell``'s
  text read as PowerShell, the others' as POSIX shell text), every other tool as data; who the
  host is comes from :mod:`passdown.hosts._host` (its pid, parent, group, session, names,
  command line and units, observed), each overridden by its option when given. The verdict is
  the guard's decision (``deny`` or ``ask``) and its reason naming the restart tool, or nothing
  for an allowed call; each host says it in its own output form.
- When Passdown cannot judge a call (unreadable input, a bad option, an internal error, no
  time left), :func:`cannot_judge_reason` says what failed and how to fix the guard, and the
  host's adapter answers with it; any other event fails in one form for every host
  (:func:`failed`: exit 1, never a block).

This module is on the command's fast path (``_entry.py`` routes ``passdown hook HOST EVENT``
to the host's adapter without click): it runs before every tool call, so like the gates it
imports neither json, re, typing, dataclasses nor click.
"""

import _signal  # the C module: ``signal`` itself loads enum, 5 ms before every tool call
import sys

from passdown.gates._table import InputError, parse_input, read_stream, run_gate
from passdown.hosts import _host

#: Tools whose arguments the guard judges as commands; every other tool's are data.
EXECUTE_TOOLS = ("Bash", "PowerShell", "Monitor")
#: The shell dialect of an execution tool's text, when it is not POSIX shell text.
DIALECTS = {"PowerShell": "powershell"}
#: How an MCP tool's name (``mcp__<server>__<tool>``) says it executes: its tool part starts
#: with one of these, in any case (``mcp__ide__executeCode``, ``mcp__shell__run_command``,
#: ``mcp__shell__shell_execute``, ``Bash`` of a Claude Code serving MCP, Desktop Commander's
#: ``start_process`` and ``interact_with_process``, which types its ``input`` into a running
#: shell or interpreter).
EXECUTE_MCP_PREFIXES = ("exec", "run", "bash", "shell_exec", "start_process", "interact_with_process")
#: MCP tools that signal the process whose ``pid`` they are given (Desktop Commander's).
KILL_MCP_TOOLS = ("kill_process",)
#: The largest hook input read (a Write of a large file arrives whole).
MAX_INPUT_BYTES = 16 * 1024 * 1024
# option -> (key, converter); a list-valued key takes the option repeatedly.
_OPTIONS = {
    "--folder": ("folder", str),
    "--host-pid": ("host_pid", int),
    "--service-unit": ("service_unit", str),
    "--restart-tool": ("restart_tool", str),
    "--host-name": ("host_names", list),
    "--execute-tool": ("execute_tools", list),
    "--context-capacity": ("context_capacity", int),
}


class Reply:
    """What a hook prints: ``stdout`` (the host reads it), ``stderr`` and the exit status."""

    __slots__ = ("stdout", "stderr", "exit_code")

    def __init__(self, stdout="", exit_code=0, stderr=""):
        self.stdout, self.exit_code, self.stderr = stdout, exit_code, stderr

    def __repr__(self):
        return f"Reply(exit_code={self.exit_code}, stdout={self.stdout!r}, stderr={self.stderr!r})"


class HookError(Exception):
    """Passdown could not do what the hook asks: a stable ``code``, a message and a fix hint."""

    def __init__(self, code, message, hint):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


class Host:
    """One host's adapter: its ``name`` (``passdown hook NAME EVENT``), the ``events`` it
    answers, and the two answers in its own PreToolUse output form: ``pre_tool_use(hook,
    options)``, the guard's verdict on a call (:func:`verdict`), and ``cannot_judge(error,
    options)``, the answer when Passdown cannot judge one (:func:`cannot_judge_reason`)."""

    __slots__ = ("name", "events", "pre_tool_use", "cannot_judge")

    def __init__(self, name, events, pre_tool_use, cannot_judge):
        self.name, self.events = name, events
        self.pre_tool_use, self.cannot_judge = pre_tool_use, cannot_judge


def default_options():
    return {"folder": None, "host_pid": None, "service_unit": None, "restart_tool": None,
            "host_names": [], "execute_tools": [], "context_capacity": None}


def parse_options(args, host):
    """``--name value`` / ``--name=value`` pairs -> the options; :class:`HookError` for an
    unknown option, a missing value or a pid that is not a positive integer. ``host`` names
    the command the help hint gives."""
    options = default_options()
    index = 0
    while index < len(args):
        name, equals, value = args[index].partition("=")
        if name not in _OPTIONS:
            raise HookError("hook.bad_option", f"unknown option {args[index]!r}",
                            f"see `passdown hook {host} --help` for the options")
        if not equals:
            index += 1
            if index >= len(args):
                raise HookError("hook.bad_option", f"{name} needs a value",
                                f"write {name} VALUE")
            value = args[index]
        key, kind = _OPTIONS[name]
        if kind is list:
            options[key].append(value)
        elif kind is int:
            if not (value.isascii() and value.isdigit() and int(value) >= 1):
                raise HookError("hook.bad_option", f"{name} must be a positive integer, not {value!r}",
                                "pass the host's process id" if name == "--host-pid"
                                else "pass the context capacity in tokens")
            options[key] = int(value)
        else:
            options[key] = value
        index += 1
    return options


def read_input(raw, event, host):
    """The hook's JSON object, checked to be for ``event``; ``host`` names the command a wrong
    event's hint gives."""
    try:
        value = parse_input(raw, MAX_INPUT_BYTES, allow_constants=False, unique_keys=True)
    except InputError as error:
        raise HookError("hook.bad_input", f"the hook input is not readable JSON: {error}",
                        "the host sends one JSON object on stdin; run the hook from the host") from None
    if not isinstance(value, dict):
        raise HookError("hook.bad_input", "the hook input is not a JSON object",
                        "the host sends one JSON object on stdin; run the hook from the host")
    named = value.get("hook_event_name", event)
    if named != event:
        raise HookError("hook.wrong_event", f"the input is for {named!r}, but this hook "
                        f"handles {event!r}", f"register `passdown hook {host} {named}` for {named}")
    return value


# -- PreToolUse ----------------------------------------------------------------------------

def is_execution_channel(tool_name, extra=()):
    """Whether the guard judges ``tool_name``'s arguments as commands (spec/hosts.md HST-024)."""
    return tool_name in EXECUTE_TOOLS or tool_name in extra or \
        _mcp_tool(tool_name).startswith(EXECUTE_MCP_PREFIXES)


def _mcp_tool(tool_name):
    """The tool part of an MCP tool's name (``mcp__<server>__<tool>``, a non-empty server), in
    lower case; ``""`` for another tool."""
    prefix, _, rest = tool_name.partition("__")
    server, _, tool = rest.partition("__")
    return tool.lower() if prefix == "mcp" and server else ""


def verdict(hook, options, program):
    """The guard's verdict on one tool call: ``None`` when it is allowed, else the guard's
    decision (``deny`` or ``ask``) and the reason; :class:`HookError` when the input or an
    option cannot be judged. ``program`` is the host's own program name, its name where the
    system does not say (no ``/proc``: macOS, Windows)."""
    tool_name = hook.get("tool_name")
    if not isinstance(tool_name, str) or not tool_name or "tool_input" not in hook:
        raise HookError("hook.bad_input", "the PreToolUse input lacks tool_name or tool_input",
                        "register this hook for PreToolUse only")
    execute = is_execution_channel(tool_name, options["execute_tools"])
    value = {"tool": "execute" if execute else "data", "arguments": hook["tool_input"]}
    pid = hook["tool_input"].get("pid") if isinstance(hook["tool_input"], dict) else None
    if _mcp_tool(tool_name) in KILL_MCP_TOOLS and isinstance(pid, int) and not isinstance(pid, bool):
        value = {"tool": "execute", "arguments": ["kill", str(pid)]}  # judged as the kill it is
    if execute and tool_name in DIALECTS:
        value["shell"] = DIALECTS[tool_name]
    value.update(_host.observe(options["host_pid"]))
    value.setdefault("host_names", [program])
    if options["service_unit"] is not None:  # an option overrides what was observed
        value["service_unit"] = options["service_unit"]
        value.pop("host_units", None)
    if options["host_names"]:
        value["host_names"] = options["host_names"]
    if options["restart_tool"] is not None:
        value["restart_tool"] = options["restart_tool"]
    decision = run_gate("guard", value)
    if decision.outcome == "allow":
        return None
    path = decision.output.get("path", "$.arguments")
    if decision.outcome == "invalid_input" and not path.startswith("$.arguments"):
        raise HookError("hook.bad_option", f"the guard refused the option behind {path}",
                        "check --service-unit, --restart-tool, --host-name and --host-pid "
                        "in the hook command")
    return (decision.output["decision"],
            f"{decision.output['message']} (passdown guard: {decision.outcome})")


def cannot_judge_reason(error, options):
    """Why Passdown could not judge a call: what failed, the rule for deciding it by hand, and
    how to fix the guard."""
    tool = options.get("restart_tool") or "the restart tool"
    return (f"Passdown's guard could not judge this call ({error.code}: {error.message}). "
            f"Allow it only if it does not restart, stop or kill the host; to restart the host, "
            f"use {tool}. To fix the guard: {error.hint}.")


# -- the command ---------------------------------------------------------------------------

def failed(error):
    """How a hook other than PreToolUse reports that Passdown failed: a non-blocking error the
    host shows to the person (exit 1, the code and hint on stderr), never a block."""
    return Reply(exit_code=1, stderr=f"passdown hook: {error.code}: {error.message}\n  hint: {error.hint}\n")


#: Seconds each hook may work before it answers anyway (HST-206): well inside the timeouts
#: ``passdown hook install`` writes (10 s for PreToolUse, 30 s for the others), with room
#: for starting Python and reading a 16 MiB input. PreToolUse then answers as the host's
#: adapter answers a call Passdown cannot judge; the others fail with ``hook.timeout`` (exit
#: 1, never a block).
BUDGETS = {"PreToolUse": 6.0, "SessionStart": 20.0, "PreCompact": 20.0, "PostCompact": 20.0,
           "Stop": 20.0}


class _OutOfTime(BaseException):
    """Raised by the timer inside whatever the hook is doing (a BaseException, so that no
    ``except Exception`` on the way swallows it)."""


def _out_of_time(signum, frame):
    raise _OutOfTime()


def _failure(host, event, error, options):
    """The event's answer when Passdown failed: the host's own for PreToolUse."""
    return host.cannot_judge(error, options) if event == "PreToolUse" else failed(error)


def answer(host, event, raw, options):
    """The reply of ``host``'s hook for ``event`` to ``raw``, the bytes the host wrote to
    stdin; Passdown failing answers in the event's failure form, never with a traceback."""
    try:
        hook = read_input(raw, event, host.name)
        if event == "PreToolUse":
            return host.pre_tool_use(hook, options)
        from passdown.hosts import _hook_context

        return _hook_context.run(event, hook, options, host.name)
    except HookError as error:
        return _failure(host, event, error, options)
    except Exception as error:  # a Passdown bug must still answer in the event's failure form
        crash = HookError("hook.internal_error", f"{type(error).__name__}: {error}",
                          "report this as a Passdown bug, with the hook input")
        return _failure(host, event, crash, options)


def run(host, event, raw, options):
    """:func:`answer` within the event's :data:`BUDGETS` seconds, or the answer for running out
    of time."""
    budget = BUDGETS.get(event)
    timer = budget is not None and hasattr(_signal, "setitimer")
    if timer:
        try:
            previous = _signal.signal(_signal.SIGALRM, _out_of_time)
        except ValueError:  # not the main thread (a caller's thread): no timer
            timer = False
        else:
            _signal.setitimer(_signal.ITIMER_REAL, budget)
    try:
        return answer(host, event, raw, options)
    except _OutOfTime:
        late = HookError("hook.timeout", f"the hook did not finish within {budget:g} s",
                         "the input is too large to judge in time: split the change, or "
                         "run the step by hand")
        return _failure(host, event, late, options)
    finally:
        if timer:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            _signal.signal(_signal.SIGALRM, previous)


def main(host, event, options_or_error):
    """Read stdin, answer, print; the exit status. ``options_or_error`` is the parsed options,
    or the :class:`HookError` that parsing them raised."""
    if isinstance(options_or_error, HookError):
        reply = _failure(host, event, options_or_error, default_options())
    else:
        raw = read_stream(sys.stdin.buffer, MAX_INPUT_BYTES + 1)
        reply = run(host, event, raw, options_or_error)
    for stream, text in ((sys.stdout, reply.stdout), (sys.stderr, reply.stderr)):
        if text:
            stream.write(text)
            stream.flush()
    return reply.exit_code


def run_cli(host, args):
    """The fast path of ``passdown hook NAME EVENT [OPTIONS]``: the exit status, or ``None`` to
    let the full CLI answer (help, or an event the host's hook does not handle)."""
    if not args or args[0] not in host.events or any(a in ("-h", "--help") for a in args):
        return None
    try:
        options = parse_options(args[1:], host.name)
    except HookError as error:
        options = error
    return main(host, args[0], options)
