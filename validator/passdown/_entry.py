"""The command's front door.

The hot commands take fast paths that import neither click nor anything they do not use,
because hooks and agents run them on every turn:

- ``passdown gate NAME [FILE|-]`` with no options goes straight to the gate table;
- ``passdown hook claude|codex EVENT [OPTIONS]`` straight to the hook;
- ``passdown validate PATH...`` and ``passdown digest FILE...`` with no options straight to the
  library, printing exactly what the click command prints.

A fast path answers ``None`` for anything it does not handle exactly as the click command
would (an option, stdin, an error to report, output click would change, a shell asking for
completions), and everything else goes to the click CLI in :mod:`passdown.cli`, which then
does the whole work itself. An interrupt or a closed pipe ends a fast path as click ends
a command.
"""

import os
import sys

#: Set by a shell asking click for completions: such a call always goes to click.
_COMPLETION = "_PASSDOWN_COMPLETE"


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
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
    fast = _FAST_PATHS.get(args[0]) if args else None
    if fast is not None and len(args) >= 2 and not any(a.startswith("-") for a in args[1:]) \
            and _COMPLETION not in os.environ:
        status = _as_click_ends(fast, args[1:])
        if status is not None:
            return status
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
    os._exit(status)


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


def _validate(paths):
    """``passdown validate PATH...`` (plain paths, no option), as :mod:`passdown.cli._validate`
    prints it; ``None`` when the library refuses (the click command then reports it)."""
    from passdown import reporters
    from passdown.engine._validate import validate_paths
    from passdown.errors import PassdownError
    from passdown.reporters import _progress

    progress = _progress.Progress() if _progress.wanted(False) else None
    try:
        report = validate_paths(list(dict.fromkeys(paths)), progress=progress)
    except PassdownError:
        return None
    finally:
        if progress is not None:
            progress.close()
    colored = reporters.use_color("auto")
    output = reporters.render("text", report, color=colored)
    if not colored and "\x1b" in output:  # click strips escape sequences from plain output
        return None
    _write(output)
    return report.exit_code()


def _digest(files):
    """``passdown digest FILE...`` (plain files, no option), as :mod:`passdown.cli._digest`
    prints it; ``None`` for anything that is not a digest line per file (a directory or an
    unreadable name, which click refuses, or a file that cannot be hashed)."""
    from passdown.errors import PassdownError
    from passdown.formats import _digest

    lines = []
    for name in files:
        if "\x1b" in name or os.path.isdir(name) or (os.path.lexists(name) and not os.access(name, os.R_OK)):
            return None
        try:
            digest = _digest.digest_file(name, _digest.DEFAULT_ALGORITHM, form=_digest.form_for_name(name))
        except PassdownError:
            return None
        lines.append(_digest.format_line(digest, name) + "\n")
    _write("".join(lines))
    return 0


def _write(text):
    sys.stdout.write(text)
    sys.stdout.flush()


_FAST_PATHS = {"validate": _validate, "digest": _digest}
