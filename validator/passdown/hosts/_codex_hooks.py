"""Codex CLI command hooks: ``passdown hook codex EVENT`` reads the hook's JSON on stdin and
answers in the output form Codex's published hook schemas give for that event (spec/hosts.md,
"Codex CLI hooks"). A thin adapter: the judging and the checkpoint reading are the Claude Code
hooks' own (:mod:`passdown.hosts._claude_hooks`, :mod:`passdown.hosts._claude_context`), since
Codex sends and reads the same JSON for these events.

- ``PreToolUse``: the guard gate on the call, the host observed by :mod:`passdown.hosts._host`.
  Codex honours only ``permissionDecision: "deny"`` (it refuses ``allow`` and ``ask``): an
  allowed call prints nothing, and where the guard, or Passdown failing, would answer ``ask``
  the call is denied, the reason saying that the person may run it themselves.
- ``SessionStart``, ``PreCompact``, ``Stop``: as for Claude Code; ``PostCompact`` counts the
  compaction (``.passdown/compactions.json``) and prints nothing.

On the command's fast path (``_entry.py``), like the Claude Code module: no json, re or click.
"""

import sys

from passdown.formats._fastjson import dumps, loads
from passdown.gates._table import read_stream
from passdown.hosts import _claude_hooks as _shared
from passdown.hosts._claude_hooks import HookError, Reply

HOST = "codex"
EVENTS = ("PreToolUse", "SessionStart", "PreCompact", "PostCompact", "Stop")
#: What a denial says where the guard (or Passdown, failing) would have asked the person.
_INSTEAD_OF_ASK = ("Codex hooks cannot ask the person, so Passdown denies this call instead of "
                   "asking. Ask the person: they may run it themselves if it is safe. ")


def _deny(reason):
    output = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                     "permissionDecision": "deny",
                                     "permissionDecisionReason": reason}}
    return Reply(dumps(output) + "\n")


def cannot_judge(error, options):
    """Passdown could not judge the call: denied, saying why and how to fix the guard."""
    asked = _shared.cannot_judge(error, options)
    return _deny(_INSTEAD_OF_ASK + loads(asked.stdout)["hookSpecificOutput"]["permissionDecisionReason"])


def pre_tool_use(hook, options):
    reply = _shared.pre_tool_use(hook, options)
    if not reply.stdout:
        return reply
    decided = loads(reply.stdout)["hookSpecificOutput"]
    reason = decided["permissionDecisionReason"]
    return _deny(_INSTEAD_OF_ASK + reason if decided["permissionDecision"] == "ask" else reason)


def _context(event, hook, options):
    from passdown.hosts import _claude_context

    return _claude_context.run(event, hook, options, HOST)


def _answer(event, raw, options):
    try:
        hook = _shared.read_input(raw, event, HOST)
        if event == "PreToolUse":
            return pre_tool_use(hook, options)
        return _context(event, hook, options)
    except HookError as error:
        return cannot_judge(error, options) if event == "PreToolUse" else _shared.failed(error)
    except Exception as error:  # a Passdown bug must still answer in the event's failure form
        crash = HookError("hook.internal_error", f"{type(error).__name__}: {error}",
                          "report this as a Passdown bug, with the hook input")
        return cannot_judge(crash, options) if event == "PreToolUse" else _shared.failed(crash)


def run(event, raw, options):
    """Answer one hook call within the event's budget (:data:`_claude_hooks.BUDGETS`)."""
    return _shared.run(event, raw, options, answer=_answer, cannot=cannot_judge)


def main(event, options_or_error):
    """Read stdin, answer, print; the exit status."""
    if isinstance(options_or_error, HookError):
        reply = cannot_judge(options_or_error, _shared.default_options()) \
            if event == "PreToolUse" else _shared.failed(options_or_error)
    else:
        reply = run(event, read_stream(sys.stdin.buffer, _shared.MAX_INPUT_BYTES + 1),
                    options_or_error)
    for stream, text in ((sys.stdout, reply.stdout), (sys.stderr, reply.stderr)):
        if text:
            stream.write(text)
            stream.flush()
    return reply.exit_code


def mcp_table(launcher):
    """The ``config.toml`` table that runs Passdown's MCP server in Codex CLI: ``launcher`` (the
    words that run Passdown) then ``mcp --folder .``; JSON strings are TOML basic strings. Then,
    as TOML comments (the text stays one valid TOML document), the ``codex mcp add`` line that
    makes Codex write the same table into the user's config.toml (HST-311)."""
    import shlex

    words = [*launcher[1:], "mcp", "--folder", "."]
    args = ", ".join(dumps(word) for word in words)
    add = shlex.join(["codex", "mcp", "add", "passdown", "--", launcher[0], *words])
    return (f"[mcp_servers.passdown]\ncommand = {dumps(launcher[0])}\nargs = [{args}]\n"
            f"\n# or let Codex write this table into ~/.codex/config.toml:\n# {add}\n")


def run_cli(args):
    """The fast path of ``passdown hook codex EVENT [OPTIONS]``, or ``None`` for the full CLI."""
    if not args or args[0] not in EVENTS or any(a in ("-h", "--help") for a in args):
        return None
    try:
        options = _shared.parse_options(args[1:], HOST)
    except HookError as error:
        options = error
    return main(args[0], options)
