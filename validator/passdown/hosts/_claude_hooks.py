"""Claude Code command hooks: ``passdown hook claude EVENT`` reads the hook's JSON on stdin and
answers in the output form the host documents for that event (spec/hosts.md). A thin adapter
over the hooks every host shares (:mod:`passdown.hosts._hooks`):

- ``PreToolUse``: the guard's verdict on the call, as the documented JSON
  (``permissionDecision: "deny"``, exit 0) whose reason names the restart tool; an allowed
  call prints nothing, so the host's own permission rules still apply. When the guard asks,
  or Passdown cannot judge the call (unreadable input, a bad option, an internal error), the
  hook answers ``ask``: the person in the loop sees why and decides, so the guard neither
  lets the call through silently nor blocks every call for good.
- ``SessionStart``, ``PreCompact`` and ``Stop`` read the handoff folder's checkpoint
  (:mod:`passdown.hosts._hook_context`, loaded only for them).

On the command's fast path (``_entry.py``), like :mod:`passdown.hosts._hooks`: no json, re,
typing, dataclasses or click.
"""

from passdown.formats._fastjson import dumps
from passdown.hosts import _hooks
from passdown.hosts._hooks import Reply

EVENTS = ("PreToolUse", "SessionStart", "PreCompact", "Stop")


def _decision(permission, reason):
    output = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                     "permissionDecision": permission,
                                     "permissionDecisionReason": reason}}
    return Reply(dumps(output) + "\n")


def cannot_judge(error, options):
    """The answer when Passdown itself fails: ``ask``, with what failed and how to fix it."""
    return _decision("ask", _hooks.cannot_judge_reason(error, options))


def pre_tool_use(hook, options):
    """The guard's verdict on one tool call, as the hook's reply."""
    found = _hooks.verdict(hook, options, "claude")
    return Reply() if found is None else _decision(*found)


HOST = _hooks.Host("claude", EVENTS, pre_tool_use, cannot_judge)


def run(event, raw, options):
    """Answer one hook call (``raw``, the bytes the host wrote to stdin) within the event's
    budget (:data:`passdown.hosts._hooks.BUDGETS`)."""
    return _hooks.run(HOST, event, raw, options)


def main(event, options_or_error):
    """Read stdin, answer, print; the exit status."""
    return _hooks.main(HOST, event, options_or_error)


def run_cli(args):
    """The fast path of ``passdown hook claude EVENT [OPTIONS]``: the exit status, or ``None`` to
    let the full CLI answer (help, or an event this hook does not handle)."""
    return _hooks.run_cli(HOST, args)
