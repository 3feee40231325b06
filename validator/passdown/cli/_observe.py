"""``passdown observe HOST`` and ``passdown assess HOST``: read a real host session from its ends
and print the restart gate's observation fields; or observe, decide and record. Thin: the
readers are :mod:`passdown.hosts._observe`, the loop :mod:`passdown.hosts._assess`."""

from __future__ import annotations

import json

import click

from passdown.cli._options import format_option

_HOSTS = ("claude", "codex")
_NAMES = {"claude": "Claude Code", "codex": "Codex CLI"}
_WHERE = {"claude": "~/.claude/projects/<escaped folder>/<session>.jsonl ($CLAUDE_CONFIG_DIR)",
          "codex": "~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl ($CODEX_HOME)"}


def _session_options(function):
    for option in reversed((
        click.option("--transcript", type=click.Path(dir_okay=False), default=None,
                     help="The session file itself."),
        click.option("--session", default=None, help="The session id: its file is found in "
                     "the host's own folder of sessions."),
        click.option("--project", type=click.Path(file_okay=False), default=None,
                     help="The newest session of this working folder [default: the current "
                          "folder, when neither --transcript nor --session is given]."),
        click.option("--folder", type=click.Path(file_okay=False), default=None,
                     help="The handoff folder (checkpoint, registry, hook state) [default: "
                          "found here or in a folder above, else the current folder]."),
        click.option("--context-capacity", type=click.IntRange(min=1), default=None,
                     metavar="TOKENS", help="The usable context capacity, where the session "
                     "file does not state it (labelled estimated)."),
        format_option(("text", "json")),
    )):
        function = option(function)
    return function


def _folder(given):
    from passdown.authoring import locate_folder

    return locate_folder(given).path


def _fail(error, output_format, exit_code=2):
    if output_format == "json":
        click.echo(json.dumps({"ok": False, "error": {"code": error.code, "message": error.message,
                                                      "hint": error.hint},
                               "exit_code": exit_code}, indent=2))
    else:
        click.echo(f"passdown: error: {error.code}: {error.message}\n  hint: {error.hint}", err=True)
    raise SystemExit(exit_code)


def _path(host, transcript, session, project):
    from passdown.hosts._observe import locate

    given = [name for name, value in (("--transcript", transcript), ("--session", session))
             if value is not None]
    if len(given) > 1 or (given and project is not None):
        raise click.UsageError("give one of --transcript, --session and --project")
    return locate(host, transcript=transcript, session=session, project=project)


@click.group("observe")
def observe():
    """Read a host session's context size from its session file (never the whole file).

    Prints the restart gate's observation fields, each measured, estimated or unknown with
    its source, the fresh start-up inventory, and how many bytes were read in how long."""


@click.group("assess")
def assess():
    """Observe the session, run the restart gate, record both in the registry, say one line.

    Exit status as the restart gate's: 2 for BLOCKED, else 0; 1 or 2 when it cannot assess."""


def _observe_command(host):
    @observe.command(host, help=f"Observe a {_NAMES[host]} session ({_WHERE[host]}).\n\n"
                                "After a takeover, observing the successor's session records "
                                "its observed start-up beside the estimate that justified the "
                                "restart (the registry's calibration).")
    @_session_options
    def command(transcript, session, project, folder, context_capacity, output_format):
        from passdown.errors import PassdownError
        from passdown.hosts import _assess, _observe

        try:
            folder = _folder(folder)
            path = _path(host, transcript, session, project)
            registry_path = _assess.registry_of(folder)
            registry = None
            if registry_path is not None:
                from passdown.authoring import read_registry

                registry = read_registry(registry_path)
            found = _observe.observe(host, path, folder=folder, registry=registry,
                                     context_capacity=context_capacity)
            if registry is not None:
                found["calibration"] = _assess.calibrate(found, registry_path, registry)
        except (_observe.ObserveError, PassdownError) as error:
            _fail(error, output_format, getattr(error, "exit_code", 2))
        if output_format == "json":
            click.echo(json.dumps(found, indent=2))
        else:
            click.echo(_observe.text(found))
            if found.get("calibration"):
                entry = found["calibration"]
                click.echo(f"  calibration recorded: observed {entry['observed_startup_tokens']} "
                           f"tokens, estimated {entry['estimated_fresh_input_tokens']} (factor "
                           f"{entry['factor']})")

    return command


def _assess_command(host):
    @assess.command(host, help=f"Assess a {_NAMES[host]} session ({_WHERE[host]}) and record "
                               "the observation and the decision in the registry.\n\nWithout "
                               "the owner's consent a restart that would qualify is "
                               "recommended once per session and condition, never again.")
    @_session_options
    @click.option("--registry", "registry_path", type=click.Path(dir_okay=False), default=None,
                  help="The registry [default: the handoff folder's].")
    @click.option("--safe-boundary", is_flag=True,
                  help="The session is at a safe boundary (no tool call or write under way).")
    @click.option("--explicit", is_flag=True, help="The owner asked for a restart now.")
    @click.option("--pressure", is_flag=True, help="A host warning or documented observation "
                  "of context pressure holds now.")
    @click.option("--remaining-calls", type=click.IntRange(min=0), default=None,
                  help="Expected calls of the next bounded unit (labelled estimated).")
    def command(transcript, session, project, folder, context_capacity, output_format,
                registry_path, safe_boundary, explicit, pressure, remaining_calls):
        from passdown.errors import PassdownError, UsageError
        from passdown.hosts import _assess, _observe

        try:
            folder = _folder(folder)
            path = _path(host, transcript, session, project)
            registry_path = registry_path or _assess.registry_of(folder)
            if registry_path is None:
                raise UsageError(f"no registry in {folder}", code="authoring.no_registry",
                                 hint="run `passdown init` first, or pass --registry")
            found = _assess.assess(host, path, folder=folder, registry_path=registry_path,
                                   context_capacity=context_capacity,
                                   safe_boundary=safe_boundary, explicit=explicit,
                                   pressure=pressure, remaining_calls=remaining_calls)
        except _assess.AssessError as error:
            _fail(error, output_format, 1)
        except (_observe.ObserveError, PassdownError) as error:
            _fail(error, output_format, getattr(error, "exit_code", 2))
        if output_format == "json":
            click.echo(json.dumps(found, indent=2))
        else:
            click.echo(found["line"])
        raise SystemExit(found["exit_code"])

    return command


for _host in _HOSTS:
    _observe_command(_host)
    _assess_command(_host)
