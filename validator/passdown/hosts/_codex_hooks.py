"""Codex CLI command hooks: ``passdown hook codex EVENT`` reads the hook's JSON on stdin and
answers in the output form Codex's published hook schemas give for that event (spec/hosts.md,
"Codex CLI hooks"). A thin adapter over the hooks every host shares
(:mod:`passdown.hosts._hooks`, :mod:`passdown.hosts._hook_context`), since Codex sends and
reads the same JSON for these events as Claude Code:

- ``PreToolUse``: the guard's verdict on the call, the host observed by
  :mod:`passdown.hosts._host`. Codex honours only ``permissionDecision: "deny"`` (it refuses
  ``allow`` and ``ask``): an allowed call prints nothing, and where the guard, or Passdown
  failing, would answer ``ask`` the call is denied, the reason saying that the person may run
  it themselves.
- ``SessionStart``, ``PreCompact``, ``Stop``: as for Claude Code; ``PostCompact`` counts the
  compaction (``.passdown/compactions.json``) and prints nothing.

On the command's fast path (``_entry.py``), like :mod:`passdown.hosts._hooks`: no json, re,
typing, dataclasses or click.
"""

from passdown.formats._fastjson import dumps
from passdown.hosts import _hooks
from passdown.hosts._hooks import Reply

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
    return _deny(_INSTEAD_OF_ASK + _hooks.cannot_judge_reason(error, options))


def pre_tool_use(hook, options):
    """The guard's verdict on one tool call, as a denial or nothing."""
    found = _hooks.verdict(hook, options, "codex")
    if found is None:
        return Reply()
    decision, reason = found
    return _deny(_INSTEAD_OF_ASK + reason if decision == "ask" else reason)


HOST = _hooks.Host("codex", EVENTS, pre_tool_use, cannot_judge)


def run(event, raw, options):
    """Answer one hook call within the event's budget (:data:`passdown.hosts._hooks.BUDGETS`)."""
    return _hooks.run(HOST, event, raw, options)


def main(event, options_or_error):
    """Read stdin, answer, print; the exit status."""
    return _hooks.main(HOST, event, options_or_error)


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
    return _hooks.run_cli(HOST, args)
