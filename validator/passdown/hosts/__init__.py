"""Passdown where agents live: integrations with the hosts that run them (spec/hosts.md).

- :mod:`passdown.hosts._hooks`: what the command hooks of every host share (the input, the
  options, the guard's verdict on a tool call, the budget, the failure forms), on the
  command's fast path; :mod:`passdown.hosts._claude_hooks` (``passdown hook claude EVENT``)
  and :mod:`passdown.hosts._codex_hooks` (``passdown hook codex EVENT``) are its adapters,
  each host's events and output forms;
- :mod:`passdown.hosts._hook_context`: the hooks that read the continue checkpoint
  (``SessionStart``, ``PreCompact``, ``Stop``, Codex CLI's ``PostCompact``), and
  :mod:`passdown.hosts._hook_observing`, what they add from observing the session;
- :mod:`passdown.hosts._claude_settings`: ``passdown hook install|uninstall claude``, the explicit
  change to a ``settings.json``;
- :mod:`passdown.hosts._jsontext`: JSON text edits that keep every other byte;
- :mod:`passdown.hosts._launch`: the command line that starts a fresh Claude Code or Codex CLI
  session with the successor's first message (``passdown packet prompt --host``).

Nothing here is imported by ``import passdown`` or by the gate path.
"""
