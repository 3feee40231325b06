"""The command's front door.

The hot commands take fast paths that import neither click nor anything they do not use,
because hooks and agents run them on every turn:

- ``passdown gate NAME [FILE|-]`` with no options goes straight to the gate table;
- ``passdown hook claude|codex EVENT [OPTIONS]`` straight to the hook;
- ``passdown validate PATH...`` and ``passdown digest FILE...`` with no options straight to the
  library, printing exactly what the click command prints;
- ``passdown ack verify ACK`` with its path options and ``--format``, ``-q``, ``-v``, the same
  (the ACK check a source runs before it lets a target take over).

The validate, digest and ack paths live in :mod:`passdown._fast_paths`, loaded only for them,
so that a gate or a hook loads no more than it runs. A fast path answers ``None`` for anything
it does not handle exactly as the click command
would (an option, stdin, an error to report, output click would change, a shell asking for
completions), and everything else goes to the click CLI in :mod:`passdown.cli`, which then
does the whole work itself. An interrupt or a closed pipe ends a fast path as click ends
a command.
"""

import gc
import sys

try:  # os's own C module: os costs about 1.2 ms to import where Python started without site
    from posix import _exit  # (``python -S``, as the hooks start it: spec/hosts.md HST-207)
except ImportError:
    from nt import _exit

#: Set by a shell asking click for completions: such a call always goes to click.
_COMPLETION = "_PASSDOWN_COMPLETE"


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    if not (args[:1] == ["hook"] and args[2:3] == ["PreToolUse"]):
        _site_set_up()
    if args[:1] in (["gate"], ["hook"]):
        # A gate or a hook answers one bounded call and ends. The collections its imports set
        # off (a full one among them, about half a millisecond, a quarter of its start-up over
        # a bare interpreter: bench/hook_bench.py) would free nothing the exit does not.
        gc.disable()
    if 2 <= len(args) <= 3 and args[0] == "gate" and not any(
        a.startswith("-") and a != "-" for a in args[1:]
    ):
        from passdown.gates._table import run_cli

        status = _as_click_ends(lambda rest: run_cli(rest[0], rest[1] if len(rest) == 2 else "-"), args[1:])
        if status is not None:
            return status
    if len(args) >= 3 and args[0] == "hook" and args[1] in ("claude", "codex"):
        if args[1] == "codex":
            from passdown.hosts._codex_hooks import run_cli as run_hook
        else:
            from passdown.hosts._claude_hooks import run_cli as run_hook

        status = _as_click_ends(run_hook, args[2:])
        if status is not None:
            return status
    if len(args) >= 3 and args[:2] == ["ack", "verify"] and _COMPLETION not in _environ():
        from passdown._fast_paths import ack_verify

        status = _as_click_ends(ack_verify, args[2:])
        if status is not None:
            return status
    if args[:1] in (["validate"], ["digest"]) and len(args) >= 2 and \
            not any(a.startswith("-") for a in args[1:]) and _COMPLETION not in _environ():
        from passdown._fast_paths import FAST_PATHS

        status = _as_click_ends(FAST_PATHS[args[0]], args[1:])
        if status is not None:
            return status
    gc.enable()  # click's commands may run long: collected as any program is
    _site_set_up()  # click lives in site-packages
    from passdown.cli import cli

    return cli.main(args=args, prog_name="passdown")


def run():
    """The ``passdown`` command itself (the launcher and ``python -m passdown``): :func:`main`
    on ``sys.argv``, then the exit. A fast path's answer is flushed and the process ends at
    once (``os._exit``): the interpreter's own teardown of the modules a hook loaded costs more
    CPU than the guard's judging (bench/hook_bench.py), and a fast path leaves nothing else to
    finish. Whatever click runs exits as click exits it."""
    status = main()
    if not isinstance(status, int):
        sys.exit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed stream: the interpreter reports it as always
        sys.exit(status)
    _exit(status)


def _site_set_up():
    """Python's site set-up, where the hooks' Python started without it (``-S``, HST-207) and it
    has not run: every command but the per-call PreToolUse hook loads libraries from
    site-packages, which ``.pth`` files and ``sitecustomize`` may place (HST-208)."""
    if sys.flags.no_site and "site" not in sys.modules:
        import site

        site.main()


def _environ():
    import os  # not on a gate's or a hook's path (see the top)

    return os.environ


def _as_click_ends(fast, args):
    """``fast(args)``, ending as click ends a command on an interrupt (a blank line, then
    ``Aborted!``, exit 1) or on a closed pipe (exit 1, and no error when Python flushes)."""
    try:
        return fast(args)
    except (EOFError, KeyboardInterrupt):
        sys.stderr.write("\nAborted!\n")
        return 1
    except OSError as error:
        import errno

        if error.errno != errno.EPIPE:
            raise
        from click.utils import _PacifyFlushWrapper

        sys.stdout, sys.stderr = _PacifyFlushWrapper(sys.stdout), _PacifyFlushWrapper(sys.stderr)
        return 1
