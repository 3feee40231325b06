"""``passdown hook``: Claude Code's command hooks (``hook claude EVENT``) and their explicit
installation (``hook install|uninstall claude``). Thin: the hooks live in :mod:`passdown.hosts`.

``passdown hook claude EVENT`` normally never reaches click: the command's fast path answers
it (``_entry.py``). This command is what ``--help`` shows, and it answers the same way.
"""

from __future__ import annotations

import shlex

import click

from passdown.errors import PassdownError, UsageError
from passdown.cli._options import fail
from passdown.hosts._claude_hooks import EVENTS

_HOSTS = ("claude",)


@click.group("hook")
def hook():
    """Run a Claude Code hook, or install or uninstall Passdown's hooks in a settings file.

    Nothing is installed unless `passdown hook install` is run, and it prints the exact change."""


def _guard_options(function):
    options = [
        click.option("--restart-tool", default=None,
                     help="The host's restart tool, named in every denial."),
        click.option("--service-unit", default=None,
                     help="The service unit that supervises the host (e.g. dsh.service) "
                          "[default: the units read from the host's cgroup]."),
        click.option("--host-name", "host_names", multiple=True,
                     help="A process name of the host, for kills by name (repeatable) "
                          "[default: the host's name and command line, read from /proc]."),
        click.option("--execute-tool", "execute_tools", multiple=True,
                     help="Another tool whose arguments are commands, besides Bash (repeatable)."),
        click.option("--context-capacity", type=click.IntRange(min=1), default=None,
                     metavar="TOKENS",
                     help="The model's usable context capacity, for SessionStart and Stop to "
                          "assess occupancy (Claude Code's transcripts do not state it)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


@hook.command("claude")
@click.argument("event", type=click.Choice(EVENTS))
@click.option("--folder", default=None, type=click.Path(file_okay=False),
              help="The handoff folder [default: $CLAUDE_PROJECT_DIR, else the session's cwd].")
@click.option("--host-pid", type=click.IntRange(min=1), default=None,
              help="The host's pid [default: found up the hook's parent process chain].")
@_guard_options
def claude(event, **options):
    """Answer one Claude Code hook call: the hook's JSON on stdin, the event's documented
    output on stdout.

    PreToolUse: the guard gate on the call (Bash, PowerShell and MCP tools named
    mcp__<server>__exec... or mcp__<server>__run... as execution channels, other tools as
    data), judged against the host the hook observes (its pid, parent, group, session, name,
    command line and units, from /proc; each option overrides what it names): what would
    stop the host is denied with the documented deny JSON naming the restart tool, a kill or
    restart of anything else prints nothing, and a call the guard or Passdown cannot read is
    answered `ask`. SessionStart (every
    source, clear and compact included): a current checkpoint's summary, resume point and
    first safe action as context, a plain xBRIEF checkpoint too, or a hint when only a legacy
    vbrief/continue.vbrief.json exists. PreCompact (a systemMessage for the person) and Stop
    (decision "block", the model continues with the reason): an instruction to update the
    checkpoint when it is invalid or older than the last commit of work. With a registry in
    the handoff folder, SessionStart and Stop also assess the session from its transcript
    (`passdown assess claude`), Stop saying so only when a restart is recommended for the
    first time or the decision changed; PreCompact counts the compaction. Each hook answers
    within a budget inside its installed timeout (6 s for PreToolUse, which then answers
    `ask`; 20 s for the others, which then fail with hook.timeout). Exit status 0, except 1
    when a SessionStart, PreCompact or Stop hook fails (the host shows it and goes on)."""
    from passdown.hosts import _claude_hooks

    values = _claude_hooks.default_options()
    values.update({key: list(value) if isinstance(value, tuple) else value
                   for key, value in options.items()})
    raise SystemExit(_claude_hooks.main(event, values))


def _scope_options(function):
    function = click.option("--dry-run", is_flag=True,
                            help="Print the change and write nothing.")(function)
    function = click.option("--user", "scope", flag_value="user",
                            help="The user's settings: $CLAUDE_CONFIG_DIR/settings.json "
                                 "(default ~/.claude/settings.json).")(function)
    return click.option("--project", "scope", flag_value="project",
                        help="The project's settings: .claude/settings.json in "
                             "$CLAUDE_PROJECT_DIR (default: here).")(function)


def _apply(plan, dry_run: bool, nothing: str) -> None:
    from passdown.hosts._claude_settings import shown_path

    shown = shown_path(plan.path)
    if not plan.changed:
        click.echo(f"{shown}: {nothing}; nothing changed")
        return
    click.echo(plan.diff(), nl=False)
    if dry_run:
        click.echo(f"{shown}: dry run, nothing written")
        return
    try:
        plan.write()
    except PassdownError as error:
        fail(error)
    except OSError as error:
        fail(PassdownError(f"cannot write {shown}: {error.strerror}", code="hook.unwritable",
                        hint="check the folder's permissions"))
    click.echo(f"{shown}: written")


def _scope(scope):
    if scope is None:
        fail(UsageError("say which settings file: --project or --user", code="usage",
                        hint="see `passdown hook install --help`"))
    return scope


@hook.command("install")
@click.argument("host", type=click.Choice(_HOSTS))
@_scope_options
@click.option("--command", "launcher", default=None,
              help="How the hooks run Passdown, e.g. `passdown` [default: this installation's "
                   "launcher, by absolute path].")
@_guard_options
def install(host, scope, dry_run, launcher, **guard):
    """Add Passdown's hooks (PreToolUse, SessionStart, PreCompact, Stop) to a Claude Code
    settings.json, printing the exact change.

    Everything else in the file stays byte for byte (CRLF line endings too); running it again
    changes nothing. A settings.json that is a symbolic link is written through the link, at
    its target. A FIFO, device or folder there, or a file beyond 10 MiB, is refused with its
    load.* code (exit 2)."""
    from passdown.hosts import _claude_settings as settings

    path = settings.settings_path(_scope(scope))
    words = shlex.split(launcher) if launcher else settings.default_launcher()
    try:
        plan = settings.plan_install(path, words, guard)
    except PassdownError as error:
        fail(error)
    _apply(plan, dry_run, "Passdown's hooks are already installed")


@hook.command("uninstall")
@click.argument("host", type=click.Choice(_HOSTS))
@_scope_options
def uninstall(host, scope, dry_run):
    """Remove Passdown's hooks from a Claude Code settings.json, printing the exact change.

    Exactly what `passdown hook install` added goes: an entry whose command is a passdown
    launcher, `hook claude EVENT` and the hook's own options, nothing else. Another tool's
    command that mentions `hook claude EVENT` stays, as does everything else, byte for byte."""
    from passdown.hosts import _claude_settings as settings

    try:
        plan = settings.plan_uninstall(settings.settings_path(_scope(scope)))
    except PassdownError as error:
        fail(error)
    _apply(plan, dry_run, "no Passdown hooks to remove")
