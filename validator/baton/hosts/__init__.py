"""Baton where agents live: integrations with the hosts that run them (spec/hosts.md).

- :mod:`baton.hosts._claude_hooks`: ``baton hook claude EVENT``, Claude Code's command
  hooks; ``PreToolUse`` runs the guard gate on the command's fast path;
- :mod:`baton.hosts._claude_context`: the hooks that read the continue checkpoint
  (``SessionStart``, ``PreCompact``, ``Stop``);
- :mod:`baton.hosts._claude_settings`: ``baton hook install|uninstall claude``, the explicit
  change to a ``settings.json``;
- :mod:`baton.hosts._jsontext`: JSON text edits that keep every other byte.

Nothing here is imported by ``import baton`` or by the gate path.
"""
