"""The command's front door.

``baton gate NAME [FILE|-]`` with no options is routed straight to the gate table, and
``baton hook claude EVENT [OPTIONS]`` straight to the hook, without importing click or any
validator: hooks run them on every turn or tool call, so their cold start must stay close to
Python's own. Everything else goes to the click CLI in :mod:`baton.cli`.
"""

import sys


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if 2 <= len(args) <= 3 and args[0] == "gate" and not any(
        a.startswith("-") and a != "-" for a in args[1:]
    ):
        from baton.gates._table import run_cli

        status = run_cli(args[1], args[2] if len(args) == 3 else "-")
        if status is not None:
            return status
    if len(args) >= 3 and args[0] == "hook" and args[1] == "claude":
        from baton.hosts._claude_hooks import run_cli as run_hook

        status = run_hook(args[2:])
        if status is not None:
            return status
    from baton.cli import cli

    return cli.main(args=args, prog_name="baton")
