"""``passdown hook``: Claude Code's command hooks (``hook claude EVENT``) and their explicit
installation (``hook install|uninstall claude``). Thin: the hooks live in :mod:`passdown.hosts`.

``passdown hook claude EVENT`` normally never reaches click: the command's fast path answers
it (``_entry.py``). This command is what ``--help`` shows, and it answers the same way.
"""

from __future__ import annotations

import os
import shlex

import click

from passdown.errors import PassdownError, UsageError
from passdown.cli._options import fail
from passdown.hosts._claude_hooks import EVENTS
from passdown.hosts._codex_hooks import EVENTS as CODEX_EVENTS

_HOSTS = ("claude", "codex")
#: What Codex CLI says of hooks it has not yet been told to trust.
_CODEX_TRUST = ("Codex CLI runs a new or changed hook only after you trust it: open /hooks in "
                "Codex to review and trust Passdown's hooks.")


@click.group("hook")
def hook():
    """Run a Claude Code or Codex CLI hook, or install or uninstall Passdown's hooks in a
    settings file.

    Nothing is installed unless `passdown hook install` is run, and it prints the exact change."""


#: The hook commands' --host-pid (not the install's: the host is observed at each call).
_host_pid_option = click.option(
    "--host-pid", type=click.IntRange(min=1), default=None,
    help="The host's pid [default: found up the hook's parent process chain].")


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


def _hook_command(name, events, folder_help):
    """``passdown hook NAME EVENT``: the event, --folder, --host-pid and the guard's options."""
    def decorate(function):
        function = _host_pid_option(_guard_options(function))
        function = click.option("--folder", default=None, type=click.Path(file_okay=False),
                                help=folder_help)(function)
        return hook.command(name)(click.argument("event", type=click.Choice(events))(function))
    return decorate


def _hook_values(options):
    """The click options as the hook modules' options (lists for repeated options)."""
    from passdown.hosts import _hooks

    values = _hooks.default_options()
    values.update({key: list(value) if isinstance(value, tuple) else value
                   for key, value in options.items()})
    return values


@_hook_command("claude", EVENTS,
               "The handoff folder [default: $CLAUDE_PROJECT_DIR, else the session's cwd].")
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

    raise SystemExit(_claude_hooks.main(event, _hook_values(options)))


@_hook_command("codex", CODEX_EVENTS, "The handoff folder [default: the session's cwd].")
def codex(event, **options):
    """Answer one Codex CLI hook call: the hook's JSON on stdin, the output Codex's hook
    schema gives for the event on stdout.

    PreToolUse: the guard gate on the call, as for Claude Code; what would stop the host is
    denied (permissionDecision "deny" with a reason naming the restart tool). Codex honours
    no "ask", so a call the guard would ask about, or one Passdown cannot judge, is denied
    too, the reason saying the person may run it themselves; an allowed call prints nothing.
    SessionStart, PreCompact and Stop: as for Claude Code. PostCompact counts the
    compaction and prints nothing. Exit status 0, except 1 when a hook other than PreToolUse
    fails (Codex shows it and goes on)."""
    from passdown.hosts import _codex_hooks

    raise SystemExit(_codex_hooks.main(event, _hook_values(options)))


def _scope_options(function):
    function = click.option("--dry-run", is_flag=True,
                            help="Print the change and write nothing.")(function)
    function = click.option("--user", "scope", flag_value="user",
                            help="The user's settings: $CLAUDE_CONFIG_DIR/settings.json "
                                 "(default ~/.claude/settings.json); for codex "
                                 "$CODEX_HOME/hooks.json or config.toml (default ~/.codex).")(function)
    return click.option("--project", "scope", flag_value="project",
                        help="The project's settings: .claude/settings.json in "
                             "$CLAUDE_PROJECT_DIR (default: here); for codex "
                             ".codex/hooks.json or .codex/config.toml here.")(function)


def _apply(plan, dry_run: bool, nothing: str, after: str | None = None) -> None:
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
    if after:
        click.echo(after)


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
                   "Python, by absolute path, started without its site set-up (-S -P) and "
                   "given the folder that holds Passdown].")
@click.option("--mcp", is_flag=True,
              help="codex only, with --dry-run: print the config.toml [mcp_servers.passdown] "
                   "table that runs Passdown's MCP server, and the `codex mcp add` line that "
                   "writes it, and write nothing.")
@_guard_options
def install(host, scope, dry_run, launcher, mcp, **guard):
    """Add Passdown's hooks (PreToolUse, SessionStart, PreCompact, Stop) to a Claude Code
    settings.json, or (PreToolUse, SessionStart, PreCompact, PostCompact, Stop) to Codex CLI's
    config.toml when the project (or user) keeps its Codex hooks there, else its hooks.json,
    printing the exact change. Codex then asks you to trust the new hooks (/hooks); they need
    Codex CLI 0.129.0 or later, and a warning says when a config.toml turns Codex's hooks off.

    Everything else in the file stays byte for byte (comments and CRLF line endings too: a
    config.toml is edited as text, never rewritten); running it again changes nothing. A
    config.toml that is not valid TOML is refused as hook.bad_config (exit 2). A settings.json that is a symbolic link is written through the link, at
    its target. A FIFO, device or folder there, or a file beyond 10 MiB, is refused with its
    load.* code (exit 2)."""
    from passdown.hosts import _claude_settings as settings

    words = shlex.split(launcher) if launcher else \
        settings.default_launcher() if mcp else settings.hook_launcher()
    if mcp:
        _print_mcp(host, dry_run, words)
        return
    try:
        plan = _codex_install(_scope(scope), words, guard) if host == "codex" else \
            settings.plan_install(settings.settings_path(_scope(scope)), words, guard, host)
    except PassdownError as error:
        fail(error)
    _apply(plan, dry_run, "Passdown's hooks are already installed",
           _codex_after(scope) if host == "codex" else None)


def _codex_install(scope, words, guard):
    """Codex: into config.toml when the layer's hooks are there, else hooks.json (HST-308)."""
    from passdown.hosts import _claude_settings as settings, _codex_config

    path = _codex_config.install_target(scope)
    if os.path.basename(path) == _codex_config.CONFIG_NAME:
        return _codex_config.plan_install(path, words, guard)
    return settings.plan_install(path, words, guard, "codex")


def _codex_after(scope):
    """What install says after writing for Codex: trust the hooks (HST-307), the release they
    need (HST-310), and a config.toml that turns Codex's hooks off (HST-312)."""
    from passdown.hosts._claude_settings import shown_path
    from passdown.hosts._codex_config import MINIMUM_VERSION, turned_off

    lines = [_CODEX_TRUST, f"The hooks need Codex CLI {MINIMUM_VERSION} or later (PreCompact and "
                           f"PostCompact arrived then); check with `codex --version`."]
    lines += [f"warning: {shown_path(path)} turns Codex's hooks off ([features] {key} = false): "
              f"no hook runs, Passdown's included, until you remove that line or set it to true."
              for path, key in turned_off(scope)]
    return "\n".join(lines)


def _print_mcp(host, dry_run, launcher):
    """``--mcp --dry-run``: the config.toml table that runs ``passdown mcp`` (HST-306)."""
    if host != "codex" or not dry_run:
        fail(UsageError("--mcp prints Codex CLI's config.toml table and writes nothing",
                        code="usage", hint="run `passdown hook install codex --mcp --dry-run` "
                                           "and paste the table into config.toml"))
    from passdown.hosts._codex_hooks import mcp_table

    click.echo(mcp_table(launcher), nl=False)


@hook.command("uninstall")
@click.argument("host", type=click.Choice(_HOSTS))
@_scope_options
def uninstall(host, scope, dry_run):
    """Remove Passdown's hooks from a Claude Code settings.json, or from a Codex CLI
    hooks.json and config.toml, printing the exact change.

    Exactly what `passdown hook install` added goes: an entry whose command is a passdown
    launcher, `hook claude EVENT` and the hook's own options, nothing else. Another tool's
    command that mentions `hook claude EVENT` stays, as does everything else, byte for byte."""
    from passdown.hosts import _claude_settings as settings, _codex_config

    try:
        plans = _codex_config.plan_uninstall_layer(_scope(scope)) if host == "codex" else \
            [settings.plan_uninstall(settings.settings_path(_scope(scope)), host)]
    except PassdownError as error:
        fail(error)
    changed = [plan for plan in plans if plan.changed]
    for plan in changed or plans[:1]:
        _apply(plan, dry_run, "no Passdown hooks to remove")
