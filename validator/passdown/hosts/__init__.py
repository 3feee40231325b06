"""Passdown where agents live: integrations with the hosts that run them (spec/hosts.md).

- :mod:`passdown.hosts._claude_hooks`: ``passdown hook claude EVENT``, Claude Code's command
  hooks; ``PreToolUse`` runs the guard gate on the command's fast path;
- :mod:`passdown.hosts._claude_context`: the hooks that read the continue checkpoint
  (``SessionStart``, ``PreCompact``, ``Stop``);
- :mod:`passdown.hosts._claude_settings`: ``passdown hook install|uninstall claude``, the explicit
  change to a ``settings.json``;
- :mod:`passdown.hosts._jsontext`: JSON text edits that keep every other byte;
- :mod:`passdown.hosts._launch`: the command line that starts a fresh Claude Code or Codex CLI
  session with the successor's first message (``passdown packet prompt --host``).

Nothing here is imported by ``import passdown`` or by the gate path.
"""
