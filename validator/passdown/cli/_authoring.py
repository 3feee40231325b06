"""``passdown init``, ``checkpoint``, ``packet``, ``attempt``, ``fence``, ``consume``,
``registry`` and ``migrate``: thin click commands over :mod:`passdown.authoring`.

Every command prints one result: a line of text, or with ``--format json`` one JSON object
of a stable shape (``ok``, ``command``, ``path``, ``changed``, ``revision``,
``previous_revision``, ``message``, ``result``; on failure ``ok`` false and ``error`` with
``code``, ``message``, ``hint``), usage errors included, so hooks never parse prose. Where
a command located its handoff folder (:mod:`passdown.authoring._where`: given, or found upward
like git's repository), the JSON carries it as ``folder``, and the text form names it on
stderr when it is not the current folder. ``-q``, ``--color`` and ``-v`` shape the text form.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os

import click

from passdown.errors import PassdownError, UsageError
from passdown.cli._options import InOrder, clock_skew_option, fail, output_options, use_color, warn

_FORMATS = ("text", "json")
#: Where a command keeps the handoff folder it located, for its output (click's ctx.meta).
_FOLDER = "passdown.folder"


# -- output --------------------------------------------------------------------------------

def _print_json(value) -> None:
    click.echo(json.dumps(value, ensure_ascii=False))


def _folder() -> str | None:
    context = click.get_current_context(silent=True)
    return context.meta.get(_FOLDER) if context is not None else None


def _report(outcome, output_format: str, *, quiet: bool = False, color: bool = False,
            verbose: bool = False) -> None:
    folder = _folder()
    if output_format == "json":
        _print_json({**outcome.to_dict(), **({"folder": folder} if folder else {})})
        return
    for warning in outcome.result.get("warnings") or ():
        warn(warning["code"], warning["path"], warning["message"], color=color)
    if quiet:
        return
    from passdown.authoring import outcome_text

    click.echo(outcome_text(outcome))
    if verbose:
        if folder:
            click.echo(f"  folder: {folder}")
        click.echo(f"  file: {outcome.path}")
        if outcome.revision is not None:
            click.echo(f"  revision: {outcome.previous_revision} -> {outcome.revision}"
                       + ("" if outcome.changed else " (unchanged)"))


def _fail(error: PassdownError, command: str, output_format: str, color: bool = False):
    if output_format != "json":
        fail(error, color=color)
    folder = _folder()
    _print_json({"ok": False, "command": command, "error": error.to_dict(),
                 "exit_code": error.exit_code, **({"folder": folder} if folder else {})})
    raise SystemExit(error.exit_code)


def _run(command: str):
    """Decorate a command body: it returns an Outcome, or raises a PassdownError. The body
    gets neither the output options (``--format``, ``-q``, ``--color``, ``-v``) nor needs
    them: they only shape what is printed."""

    def decorate(body):
        @functools.wraps(body)
        def wrapper(*args, output_format="text", quiet=False, color="auto", verbose=False,
                    **kwargs):
            try:
                outcome = body(*args, **kwargs)
            except PassdownError as error:
                _fail(error, command, output_format, use_color(color, err=True))
            else:
                if outcome is not None:
                    _report(outcome, output_format, quiet=quiet,
                            color=use_color(color, err=True), verbose=verbose)

        return wrapper

    return decorate


#: ``--format``, ``-q/--quiet``, ``--color`` and ``-v/--verbose``, as every authoring command
#: takes them.
_output_options = output_options(
    _FORMATS, quiet="Print nothing on success (warnings and errors still go to stderr).",
    verbose="Also print the handoff folder, the file and the revision change.")


def _locate(given: str | None, what: str | None = None):
    """The handoff folder: ``given``, or found upward from here (said on stderr when it is
    not the current folder). ``what`` (``checkpoint`` or ``registry``) refuses a search that
    found nothing, naming where the files belong."""
    from passdown.authoring import locate_folder, require_folder

    located = locate_folder(given, needs=what)
    context = click.get_current_context()
    context.meta[_FOLDER] = located.folder
    if what is not None:
        require_folder(located, what)
    if located.searched and located.path != "." and located.found \
            and context.params.get("output_format") != "json" and not context.params.get("quiet"):
        click.echo(f"passdown: using the handoff folder {located.folder}", err=True)
    return located


def _checkpoint_file(checkpoint_path: str | None) -> str:
    """``--checkpoint`` as given, or the checkpoint of the handoff folder found upward."""
    if checkpoint_path is not None:
        return checkpoint_path
    from passdown.authoring import CHECKPOINT_PATH

    return _locate(None, "checkpoint").join(CHECKPOINT_PATH)


class _Command(click.Command):
    """A command whose usage errors are JSON too when ``--format json`` was asked for."""

    def make_context(self, info_name, args, parent=None, **extra):
        wants_json = _wants_json(args)
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as error:
            if not wants_json:
                raise
            name = " ".join(filter(None, [parent.info_name if parent and parent.parent
                                          else None, info_name]))
            _fail(UsageError(error.format_message(), code="usage",
                             hint=f"see `passdown {name} --help`"), name, "json")


def _wants_json(args) -> bool:
    args = list(args)
    for index, arg in enumerate(args):
        if arg == "--format=json" or (arg == "--format" and args[index + 1:index + 2] == ["json"]):
            return True
    return False


# -- shared options ------------------------------------------------------------------------

def _revision_options(function):
    function = click.option("--expect-revision", type=click.IntRange(min=0), default=None,
                            help="Apply only if the file is still at this revision "
                                 "(else conflict, exit 1, nothing changed).")(function)
    return function


def _checkpoint_option(function):
    return click.option("--checkpoint", "checkpoint_path", type=click.Path(dir_okay=False),
                        default=None,
                        help="The checkpoint file [default: xbrief/continue.xbrief.json of the "
                             "handoff folder, found here or in a folder above].")(function)


def _identity_options(function):
    options = [
        click.option("--goal-id", default=None,
                     help="The stable task identity (GOAL_ID) [needed unless a registry beside "
                          "a plain checkpoint records it]."),
        click.option("--main-id", default=None,
                     help="The exact session id of the MAIN session that owns the work [needed "
                          "unless a registry beside a plain checkpoint records it]."),
        click.option("--outcome", required=True,
                     help="What must be delivered and how it is checked."),
        click.option("--title", default=None, help="The plan title [default: the goal id]."),
        click.option("--mission", default=None, help="Why the work exists [default: --outcome]."),
        click.option("--task", default=None, help="The assigned task [default: the title]."),
        click.option("--session-id", "stack_session_id", default=None,
                     help="The durable Stack session id [default: --main-id]."),
        click.option("--incarnation-id", default=None,
                     help="This launch's incarnation id [default: a new ULID]."),
        click.option("--role", default="main", show_default=True, help="The session's role."),
        click.option("--config-version", default=None, help="The seat configuration version."),
        click.option("--prd-pin", default=None, help="The pinned requirements revision."),
        click.option("--constraint", "constraints", multiple=True,
                     help="A rule the work must keep (repeatable)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _authority_options(function):
    """``--authority`` and the options of the git and etcd authorities."""
    options = [
        click.option("--authority", type=click.Choice(("local", "git", "etcd")), default=None,
                     help="Who performs ownership transitions: local (this machine's registry "
                          "lock), git (a ref on the checkout's remote) or etcd; recorded in "
                          "the registry's policy [default: the recorded one, else local]."),
        click.option("--remote", default=None,
                     help="git: the remote holding refs/passdown/<goal>/owner [default: "
                          "origin]."),
        click.option("--endpoint", default=None,
                     help="etcd: the client URL [default: http://127.0.0.1:2379]."),
        click.option("--lease-ttl", type=click.IntRange(min=2, max=86400), default=None,
                     help="etcd: seconds the owner's lease lives without `passdown fence "
                          "renew` [default: 600]."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _identity(first_step, **values):
    from passdown.authoring import Identity

    return Identity(first_step=first_step, **values)


# -- init ----------------------------------------------------------------------------------

@click.command(cls=_Command)
@click.argument("directory", type=click.Path(file_okay=False), default=".")
@_identity_options
@click.option("--next", "first_step", default=None,
              help="The first remaining step; it becomes the resume point (needed unless "
                   "DIRECTORY holds a plain checkpoint, whose next pending item is kept).")
@click.option("--mode", type=click.Choice(("off", "adaptive", "daily")), default="off",
              show_default=True, help="Restart policy mode (off: checkpoint only).")
@click.option("--scope", "authorization_scope", default=None,
              help="What the owner's consent to automatic restarts covers (needed unless off).")
@click.option("--archive-consent/--no-archive-consent", default=False, show_default=True,
              help="Whether the owner consented to archiving the source after takeover.")
@click.option("--timezone", default=None,
              help="IANA zone for display titles [default: UTC, recorded as the default].")
@click.option("--timezone-source", type=click.Choice(("owner", "task")), default="owner",
              show_default=True, help="Whose zone --timezone is.")
@click.option("--registry-format", type=click.Choice(("yaml", "json")), default="yaml",
              show_default=True, help="Write registry.yaml or registry.json.")
@click.option("--nested", is_flag=True,
              help="Start a separate handoff in a folder inside another handoff folder.")
@_authority_options
@_output_options
@_run("init")
def init(directory, first_step, mode, authorization_scope, archive_consent, timezone,
         timezone_source, registry_format, nested, authority, remote, endpoint, lease_ttl,
         **identity):
    """Create xbrief/continue.xbrief.json and the registry in DIRECTORY (default: here).

    On a plain xBRIEF continue checkpoint (one without the x-passdown/checkpoint block)
    and no registry, adds the block to it, keeping every item, and creates the registry.
    Beside a registry, adds the block with the identity the registry records (its goal, the
    session that owns the goal's writes, its fencing epoch: --goal-id and --main-id may be
    left out) and leaves the registry as it is; options that disagree with it are refused.

    Refuses (exit 1, nothing written) when either file already exists, and when DIRECTORY
    lies inside another handoff folder or is the xbrief folder itself (authoring.nested,
    naming the folder to use): the other commands find the handoff folder from any folder
    below it."""
    from passdown.authoring import Policy, authority_settings, init as create

    policy = Policy(mode=mode, authorization_scope=authorization_scope,
                    archive_consent=archive_consent, timezone=timezone or "UTC",
                    timezone_source=timezone_source if timezone else "default",
                    authority=authority_settings(authority, remote=remote, endpoint=endpoint,
                                                 lease_ttl=lease_ttl))
    return create(directory, _identity(first_step, **identity), policy,
                  registry_format=registry_format, nested=nested)


# -- checkpoint ----------------------------------------------------------------------------

@click.group(cls=InOrder)
def checkpoint():
    """Update the continue checkpoint, one compare-and-swap step per command.

    Every update takes the file's lock, checks --expect-revision, writes atomically and bumps
    the revision by one; repeating an update that is already applied changes nothing.
    Without --checkpoint, the commands find the handoff folder here or in a folder above
    (as git finds its repository) and say which one on stderr when it is not this one."""


def _checkpoint_command(name, help_text=None):
    """Register a checkpoint subcommand with the options every update shares."""

    def decorate(function):
        @checkpoint.command(name, cls=_Command, help=help_text or function.__doc__)
        @_checkpoint_option
        @_revision_options
        @click.option("--epoch", type=click.IntRange(min=0), default=None,
                      help="The writer's fencing epoch; an older one than the checkpoint's "
                           "is refused.")
        @_output_options
        @_run(f"checkpoint {name}")
        @functools.wraps(function)
        def command(checkpoint_path, expect_revision, epoch, **kwargs):
            from passdown.authoring import update_checkpoint

            operation, args, options = function(**kwargs)
            return update_checkpoint(_checkpoint_file(checkpoint_path), operation, *args,
                                     expect_revision=expect_revision, epoch=epoch,
                                     **options)

        return command

    return decorate


@_checkpoint_command("add-completed")
@click.argument("title")
@click.option("--evidence", multiple=True, required=True,
              help="Where the evidence lives: a commit, test run or report (repeatable).")
@click.option("--id", "item_id", default=None, help="The item id (an existing item completes).")
@click.option("--summary", default=None, help="What was accomplished [default: the title].")
@click.option("--parent", default=None, help="Add the item under this item.")
def _add_completed(title, evidence, item_id, summary, parent):
    """Record a completed step with its evidence references."""
    return "add-completed", (title,), {"evidence": evidence, "item_id": item_id,
                                       "summary": summary, "parent": parent}


@_checkpoint_command("add-pending")
@click.argument("title")
@click.option("--id", "item_id", default=None, help="The item id [default: from the title].")
@click.option("--before", default=None, help="Insert before this item.")
@click.option("--parent", default=None, help="Add the item under this item.")
def _add_pending(title, item_id, before, parent):
    """Add a remaining step."""
    return "add-pending", (title,), {"item_id": item_id, "before": before, "parent": parent}


@_checkpoint_command("reorder")
@click.argument("item_ids", nargs=-1, required=True)
def _reorder(item_ids):
    """Move the named pending steps (siblings) to the front, in the order given."""
    return "reorder", (tuple(item_ids),), {}


@_checkpoint_command("set-resume")
@click.argument("text")
@click.option("--item", "item_id", default=None, help="The pending item to resume from.")
@click.option("--input", "required_inputs", multiple=True,
              help="A file, document or answer the step needs (repeatable).")
def _set_resume(text, item_id, required_inputs):
    """Set the resume point (the narrative on the next pending step)."""
    return "set-resume", (text,), {"item_id": item_id,
                                   "required_inputs": tuple(required_inputs) or None}


@_checkpoint_command("decision")
@click.argument("text")
def _decision(text):
    """Record a decision (the plan's Decisions narrative)."""
    return "decision", (text,), {}


@_checkpoint_command("hazard")
@click.argument("text")
def _hazard(text):
    """Record a hazard (the plan's Hazards narrative)."""
    return "hazard", (text,), {}


@_checkpoint_command("blocker")
@click.argument("summary")
@click.option("--item", "item_id", default=None, help="The blocked item.")
@click.option("--resolve", is_flag=True,
              help="Remove this open blocker instead (refused, exit 1, when none reads so).")
def _blocker(summary, item_id, resolve):
    """Record an open blocker, or resolve it."""
    return "blocker", (summary,), {"item_id": item_id, "resolve": resolve}


@_checkpoint_command("failed-attempt")
@click.argument("summary")
@click.option("--reason", required=True, help="Why it failed.")
@click.option("--item", "item_id", default=None, help="The item the attempt served.")
def _failed_attempt(summary, reason, item_id):
    """Record an approach that failed, so it is not repeated."""
    return "failed-attempt", (summary,), {"reason": reason, "item_id": item_id}


@_checkpoint_command("set")
@click.argument("field")
@click.argument("values", nargs=-1)
@click.option("--null", is_flag=True, help="Set a nullable field to null.")
@click.option("--json", "as_json", is_flag=True, help="VALUE is JSON (for record fields).")
def _set(field, values, null, as_json):
    """Set an identity field (goal_id, epoch, role, mission...), or a record field as JSON."""
    from passdown.authoring import checkpoint_value

    if as_json:
        if len(values) != 1:
            raise UsageError("--json takes exactly one VALUE", code="authoring.bad_value",
                             hint="quote the JSON value")
        from passdown.workspace import _editing

        value = _editing.parse(values[0].encode("utf-8"), source="VALUE", syntax="json")
    else:
        value = checkpoint_value(field, tuple(values), null=null)
    return "set", (field, value), {}


@_checkpoint_command("reopen")
@click.option("--incarnation-id", default=None, help="The resumed session's incarnation id.")
def _reopen(incarnation_id):
    """Take a consumed checkpoint back into use (the resumed session, before writing)."""
    return "reopen", (), {"incarnation_id": incarnation_id}


@checkpoint.command("from-transcript", cls=_Command)
@click.argument("host", type=click.Choice(("claude", "codex")))
@click.option("--transcript", type=click.Path(dir_okay=False), default=None,
              help="The dead session's file itself.")
@click.option("--session", default=None,
              help="The session id: its file is found in the host's own folder of sessions.")
@click.option("--project", type=click.Path(file_okay=False), default=None,
              help="The newest session of this working folder [default: the current folder].")
@click.option("--output", "output_path", default=None, type=click.Path(dir_okay=False),
              help="Where to write the draft [default: xbrief/continue.xbrief.json of the "
                   "handoff folder, or of the current folder].")
@_output_options
@_run("checkpoint from-transcript")
def _from_transcript(host, transcript, session, project, output_path):
    """Write a draft checkpoint from the tail of a session that left none (HOST: claude|codex).

    The latest task list the agent kept becomes completed, running and pending items: Codex's
    update_plan, Claude Code's TodoWrite, or the fold of its TaskCreate and TaskUpdate calls
    when those came later (said to be possibly partial when the read missed tasks' creation).
    The person's last request is the goal; the files the session wrote or edited and its last
    answer are narratives. Every item says it was
    reconstructed and is unverified: check it against the checkout before relying on it.
    Refuses, writing nothing, when a checkpoint exists there (authoring.exists) or the text
    holds something that looks like a secret (authoring.secret)."""
    from passdown.authoring import CHECKPOINT_PATH, Outcome, locate_folder, write_draft
    from passdown.hosts import _draft, _observe

    if sum(value is not None for value in (transcript, session, project)) > 1:
        raise UsageError("give one of --transcript, --session and --project", code="usage",
                         hint="see `passdown checkpoint from-transcript --help`")
    try:
        path = _observe.locate(host, transcript=transcript, session=session, project=project)
        document, summary = _draft.reconstruct(host, path)
    except _observe.ObserveError as error:
        raise UsageError(error.message, code=error.code, hint=error.hint) from None
    target = output_path or locate_folder(None).join(CHECKPOINT_PATH)
    write_draft(target, document)
    return Outcome(command="checkpoint from-transcript", path=target, changed=True,
                   message=f"draft checkpoint from session {summary['session_id']}: "
                           f"{summary['completed']} completed and {summary['open']} open items, "
                           f"{summary['files_written']} files written; reconstructed and "
                           f"unverified: check them against the checkout",
                   result={"summary": summary, "document": document})


@checkpoint.command("show", cls=_Command)
@_checkpoint_option
@_output_options
@_run("checkpoint show")
def _show(checkpoint_path):
    """Print the checkpoint: the plan and its revision, the steps, the next action and its
    inputs, the decisions and hazards, open blockers and failed attempts; the whole document
    with --format json."""
    from passdown.authoring import show_checkpoint

    return show_checkpoint(_checkpoint_file(checkpoint_path))


# -- consume -------------------------------------------------------------------------------

@click.command(cls=_Command)
@_checkpoint_option
@_revision_options
@_output_options
@_run("consume")
def consume(checkpoint_path, expect_revision):
    """Mark the checkpoint consumed on resume (plan completed, consumed_at set).

    A second consume changes nothing and exits 0."""
    from passdown.authoring import update_checkpoint

    return update_checkpoint(_checkpoint_file(checkpoint_path), "consume",
                             expect_revision=expect_revision)


# -- packet --------------------------------------------------------------------------------

@click.group()
def packet():
    """Render the continuation packet, and print the successor's first message."""


@packet.command("render", cls=_Command)
@click.argument("directory", type=click.Path(file_okay=False), required=False)
@click.option("--source-id", "--source-session", "source_id", default=None,
              help="The exact session handing over [default: $CODEX_THREAD_ID inside Codex "
                   "CLI; Claude Code exposes none to commands: pass it].")
@click.option("--registry", "registry_path", default=None, help="The registry [default: found "
              "in DIRECTORY].")
@click.option("--checkpoint", "checkpoint_path", default=None,
              help="The checkpoint [default: DIRECTORY/xbrief/continue.xbrief.json].")
@click.option("--output", "packet_path", default=None,
              help="The packet [default: DIRECTORY/continuation.packet.txt].")
@click.option("--restart-id", default=None,
              help="Use this RESTART_ID [default: reuse the open attempt's, or a new ULID].")
@click.option("--workspace", type=click.Path(file_okay=False), default=None,
              help="The checkout SOURCE and WORKING_STATE are read from [default: the "
                   "packet's folder, as `passdown ack write` reads it].")
@click.option("--host", default=None,
              help="The machine, container or service [default: this machine's name].")
@click.option("--harness", default=None, help="The source's harness [default: claude-code "
              "or codex when their environment says so].")
@click.option("--repository", default=None,
              help="The repository [default: the checkout's top-level folder].")
@click.option("--checkout", default=None, help="The checkout path (only where there is no "
              "checkout to read; else it must agree).")
@click.option("--branch", default=None, help="The checked-out branch (likewise).")
@click.option("--head", default=None, help="The HEAD commit (likewise).")
@click.option("--working-state", default=None,
              help="Notes on the working state: who owns which untracked work (the paths and "
                   "digests are read from the checkout).")
@click.option("--live-work", default=None, help="Workers, processes, pending sends, jobs.")
@click.option("--model-policy", default=None, help="Model and effort preference.")
@click.option("--budget", default=None, help="Hard budget requirements.")
@_revision_options
@_output_options
@_run("packet render")
def _render(directory, registry_path, checkpoint_path, packet_path, restart_id,
            expect_revision, workspace, source_id, **facts):
    """Register the restart attempt, then write the packet and read it back.

    The attempt (RESTART_ID and the packet digest) is in the registry before the packet is
    written; calling again for unchanged content reuses the attempt. --expect-revision
    applies to the registry. DIRECTORY defaults to the handoff folder, found here or in a
    folder above.

    SOURCE and WORKING_STATE are read from the checkout: repository, branch, HEAD and every
    uncommitted path with its blake3 digest (the handoff's own files left out, as the ACK
    leaves them out). Beyond 16 paths the packet links continuation.working-state.txt, which
    lists them all. Outside a git checkout both say UNKNOWN, and why."""
    from passdown.authoring import SourceFacts, host_environment, render_packet

    environment = host_environment()
    source_id = source_id or environment.session
    if not source_id or not source_id.strip():
        raise UsageError("no source session: give --source-id", code="usage",
                         hint="pass the session's exact id with --source-id (Codex CLI "
                              "exposes it as $CODEX_THREAD_ID; Claude Code gives it to hooks "
                              "as session_id, never to commands)")
    directory = _locate(directory, "registry" if registry_path is None else None).path
    return render_packet(directory, source=SourceFacts(source_id=source_id, **facts),
                         registry_path=registry_path, checkpoint_path=checkpoint_path,
                         packet_path=packet_path, restart_id=restart_id,
                         expect_revision=expect_revision, workspace=workspace,
                         environment=environment)


@packet.command("prompt", cls=_Command)
@click.argument("directory", type=click.Path(file_okay=False), required=False)
@click.option("--packet", "packet_path", default=None, type=click.Path(dir_okay=False),
              help="The packet [default: DIRECTORY/continuation.packet.txt].")
@click.option("--registry", "registry_path", default=None, type=click.Path(dir_okay=False),
              help="The registry [default: found beside the packet].")
@click.option("--host", "harness", type=click.Choice(("claude", "codex", "manual")),
              default=None, help="Print the command line that starts a fresh Claude Code or "
              "Codex CLI session with the message (printed, never run), or the MANUAL_HANDOFF "
              "prompt for a chat-only host.")
@click.option("--target-id", default=None, help="The successor's id, when it is chosen before "
              "it starts (Claude Code's --session-id takes a UUID) [default: the attempt's "
              "recorded target].")
@click.option("--model", default=None, help="Start the successor with this model (claude, codex).")
@click.option("--headless", is_flag=True, help="Without the terminal interface: `claude -p`, "
              "`codex exec`.")
@click.option("--workspace", type=click.Path(file_okay=False), default=None,
              help="The folder the successor starts in [default: the packet's folder].")
@_output_options
@_run("packet prompt")
def _prompt(directory, packet_path, registry_path, harness, target_id, model, headless,
            workspace):
    """Print the first message a host sends the fresh successor of an attempt.

    The message names only the packet's location, the goal, attempt, source and digest the
    successor must find there, the instructions it must follow, and the read-only check it
    must run (`passdown ack write`). With --host claude or codex, print instead the one
    command line that starts that harness's fresh session with the message (never run here);
    with --host manual, the MANUAL_HANDOFF prompt for a chat-only host, with the packet in
    it, and a warning on stderr that nothing persists. Refuses a packet whose digest does not
    verify (authoring.packet_unverified) and an attempt no successor waits for
    (attempt.state). Writes nothing."""
    from passdown.authoring import (NOTHING_PERSISTS, PACKET_NAME, Outcome, manual_handoff,
                                    successor_facts, successor_message, successor_target)
    from passdown.hosts import _launch

    if packet_path is None:
        packet_path = _locate(directory, "registry" if registry_path is None else None).join(
            PACKET_NAME)
    if harness in (None, "manual") and (model is not None or headless):
        raise UsageError("--model and --headless shape a harness's command line",
                         code="usage", hint="add --host claude or --host codex")
    facts = successor_facts(packet_path, registry_path=registry_path)
    target = successor_target(facts, target_id)
    result = {"host": harness, "packet": facts["packet"], "restart_id": facts["restart_id"],
              "checkpoint_digest": facts["digest"], "target_id": target, "argv": None,
              "command": None}
    if harness == "manual":
        text = manual_handoff(facts)
        result["warnings"] = [{"code": "MANUAL_HANDOFF", "path": facts["packet"],
                               "message": NOTHING_PERSISTS}]
    else:
        text = successor_message(facts, target)
    result["prompt"] = text
    shown = text.rstrip("\n")
    if harness in _launch.HARNESSES:
        folder = os.path.abspath(workspace or os.path.dirname(facts["packet"]))
        result["argv"] = _launch.argv(harness, text, target_id=target_id, model=model,
                                      headless=headless)
        result["command"] = shown = _launch.command_line(folder, result["argv"])
    return Outcome(command="packet prompt", path=facts["packet"], changed=False,
                   message=shown, result=result)


# -- attempt -------------------------------------------------------------------------------

@click.group(cls=InOrder)
def attempt():
    """Record the later steps of one restart attempt in the registry.

    Each step is refused (exit 1, code attempt.*) when the attempt's state does not allow it;
    the same step again with the same values changes nothing. Each ends with a `next:` line,
    the command to run next."""


_REGISTRY_HELP = ("The registry [default: registry.yaml or registry.json of the handoff "
                  "folder, found here or in a folder above].")


def _registry_file(registry_path: str | None) -> str:
    """``--registry`` as given, or the registry of the handoff folder found upward."""
    from passdown.authoring import locate_registry

    if registry_path is not None:
        return registry_path
    return locate_registry(_locate(None, "registry").path)


def _attempt_command(step, help_text=None):
    def decorate(function):
        @attempt.command(step, cls=_Command, help=help_text or function.__doc__)
        @click.argument("restart_id")
        @click.option("--registry", "registry_path", default=None,
                      help=_REGISTRY_HELP)
        @_revision_options
        @_output_options
        @_run(f"attempt {step}")
        @functools.wraps(function)
        def command(restart_id, registry_path, expect_revision, **kwargs):
            from passdown.authoring import attempt_step

            path = _registry_file(registry_path)
            options = function(restart_id=restart_id, registry_path=path, **kwargs)
            return attempt_step(path, step, restart_id, expect_revision=expect_revision,
                                  **options)

        return command

    return decorate


@_attempt_command("created")
@click.option("--target-id", default=None, help="The successor's exact id, read back.")
@click.option("--detail", default=None, help="The host's receipt text or reference.")
@click.option("--unknown", is_flag=True, help="The create call timed out: outcome UNKNOWN.")
def _created(restart_id, registry_path, target_id, detail, unknown):
    """Record the creation receipt (confirmed), or an UNKNOWN outcome."""
    if unknown == (target_id is not None):
        raise UsageError("give --target-id ID (confirmed) or --unknown", code="usage",
                         hint="exactly one of the two")
    return {"target_id": target_id, "detail": detail, "unknown": unknown}


@_attempt_command("reconcile")
@click.option("--target-id", default=None, help="The successor the host shows.")
@click.option("--absent", is_flag=True, help="The host shows no successor.")
@click.option("--detail", default=None, help="What the readback showed.")
def _reconcile(restart_id, registry_path, target_id, absent, detail):
    """Settle an UNKNOWN creation by what the host shows (never by creating again)."""
    return {"target_id": target_id, "absent": absent, "detail": detail}


@_attempt_command("ack")
@click.argument("ack_file", type=click.Path(dir_okay=False))
@click.option("--packet", "packet_path", default=None,
              help="The packet the ACK answers [default: continuation.packet.txt beside the "
                   "registry].")
@click.option("--checkpoint", "checkpoint_path", default=None,
              help="The checkpoint [default: the registry policy's checkpoint_path].")
@click.option("--workspace", type=click.Path(file_okay=False), default=None,
              help="The git checkout whose fingerprints the ACK must match [default: the "
                   "checkout holding the registry].")
@click.option("--no-workspace", "skip_workspace", is_flag=True,
              help="Do not compare the checkout and dirty-artifact fingerprints (no checkout "
                   "here); the skip is reported and recorded in the registry.")
@clock_skew_option
def _ack(restart_id, registry_path, ack_file, packet_path, checkpoint_path, workspace,
         skip_workspace, clock_skew):
    """Accept the target's READY_READONLY ACK after a fresh readback (as `passdown ack verify
    --workspace`): by default the checkout holding the registry is compared too."""
    from passdown.authoring import PACKET_NAME, verify_attempt_ack

    if skip_workspace and workspace is not None:
        raise UsageError("--workspace and --no-workspace exclude each other", code="usage",
                         hint="give one of the two")
    if packet_path is None:
        packet_path = os.path.join(os.path.dirname(registry_path), PACKET_NAME)
    if not skip_workspace and workspace is None:
        workspace = os.path.dirname(os.path.abspath(registry_path))
    with _outside_a_checkout("pass the checkout the target read with --workspace DIR, or "
                             "--no-workspace to accept without comparing a checkout (the skip "
                             "is reported and recorded in the registry)"):
        return verify_attempt_ack(ack_file, packet_path=packet_path,
                                  registry_path=registry_path, checkpoint_path=checkpoint_path,
                                  workspace=workspace, clock_skew=clock_skew)


@contextlib.contextmanager
def _outside_a_checkout(hint: str):
    """``git.not_a_repository`` raised inside, given ``hint``: what the command needs instead."""
    from passdown.workspace._git import GitError

    try:
        yield
    except GitError as error:
        if error.code != "git.not_a_repository":
            raise
        raise GitError(error.message, code=error.code, hint=hint) from None


@_attempt_command("commit")
@_authority_options
def _commit(restart_id, registry_path, authority, remote, endpoint, lease_ttl):
    """Commit ownership to the target with a new fencing epoch, through the goal's authority.

    Of two commits racing for one source, exactly one wins; the loser exits 1
    (authority.lost) and its registry records the winner."""
    return {"authority": authority, "remote": remote, "endpoint": endpoint,
            "lease_ttl": lease_ttl}


@_attempt_command("takeover")
@click.option("--target-id", required=True, help="The owner the target read back.")
@click.option("--fencing-epoch", type=click.IntRange(min=0), default=None,
              help="The fencing epoch the target read back [default: the committed epoch, "
                   "read from the attempt's ownership record; refused "
                   "(attempt.takeover_mismatch) when it holds none].")
@click.option("--source-retired", is_flag=True, help="The source was read back as retired.")
def _takeover(restart_id, registry_path, target_id, fencing_epoch, source_retired):
    """Record the target's readback of committed ownership (TAKEOVER)."""
    return {"target_id": target_id, "fencing_epoch": fencing_epoch,
            "source_retired": source_retired}


@_attempt_command("release")
def _release(restart_id, registry_path):
    """Record that the source was read back as retired (no longer writing)."""
    return {}


@_attempt_command("archive")
@click.option("--result", type=click.Choice(("archived", "pending", "unknown")), required=True,
              help="archived (read back), pending (ARCHIVE_PENDING) or unknown.")
def _archive(restart_id, registry_path, result):
    """Record the source archive's outcome (only after takeover and release)."""
    return {"result": result}


@_attempt_command("abandon")
@click.option("--note", required=True, help="Why the attempt ends.")
def _abandon(restart_id, registry_path, note):
    """End an attempt before any ownership commit."""
    return {"note": note}


@attempt.command("show", cls=_Command)
@click.argument("restart_id", required=False)
@click.option("--registry", "registry_path", default=None, help=_REGISTRY_HELP)
@click.option("--gate-input", is_flag=True,
              help="Print only the restart gate's registry-derived input, as JSON.")
@_output_options
@_run("attempt show")
def _attempt_show(restart_id, registry_path, gate_input):
    """Show one attempt (or the one in progress): its state, source, target, fencing epoch and
    the command to run next; --gate-input prints the restart gate input the registry implies."""
    from passdown.authoring import show_attempt

    outcome, observations = show_attempt(_registry_file(registry_path), restart_id)
    if gate_input:
        _print_json(observations)
        return None
    return outcome


# -- fence ---------------------------------------------------------------------------------

@click.group()
def fence():
    """Ask the goal's ownership authority whether this clone (and a session) may still write.

    For a host's own hooks (before `git push`, before a tool call that changes shared
    state): exit 0 current, 1 fenced, not the owner, lease expired or the authority
    unreachable (fail closed)."""


def _fence_command(name: str, help_text: str, session_help: str, *, required: bool):
    """``passdown fence NAME [--registry FILE] --session-id ID``: one call of the library's
    ``fence_NAME``, its outcome printed as every authoring command prints one."""

    @fence.command(name, cls=_Command, help=help_text)
    @click.option("--registry", "registry_path", default=None, help=_REGISTRY_HELP)
    @click.option("--session-id", required=required, default=None, help=session_help)
    @_output_options
    @_run(f"fence {name}")
    def command(registry_path, session_id):
        import passdown.authoring as authoring

        return getattr(authoring, f"fence_{name}")(_registry_file(registry_path),
                                                   session_id=session_id)

    return command


_fence_command("check", "Exit 0 when the authority names this clone's owner and epoch (and "
               "SESSION_ID as the owner, when given); 1 otherwise.",
               "Also require that this session owns the goal's writes.", required=False)
_fence_command("renew", "Keep the owner's etcd lease alive (or take back an expired one the "
               "owner held last); refused for any other session and while the authority is "
               "unreachable.", "The owner renewing its hold.", required=True)
_fence_command("release", "Give the owner's hold up (etcd: revoke its lease; the record and "
               "the epoch stay, and only this owner may take it back with `fence renew`).",
               "The owner releasing its hold.", required=True)


# -- registry ------------------------------------------------------------------------------

@click.group()
def registry():
    """Recover the restart registry, or record the owner's restart consent."""


@registry.command("policy", cls=_Command)
@click.option("--mode", type=click.Choice(("off", "adaptive", "daily")), required=True,
              help="off: checkpoint only; adaptive or daily: restarts are authorized.")
@click.option("--scope", default=None,
              help="What the owner's consent covers (needed unless off).")
@click.option("--archive-consent/--no-archive-consent", default=None,
              help="Whether the owner consents to archiving the source after takeover "
                   "[default: unchanged].")
@click.option("--registry", "registry_path", default=None,
              help="The registry [default: the handoff folder's].")
@_revision_options
@_output_options
@_run("registry policy")
def _policy(mode, scope, archive_consent, registry_path, expect_revision):
    """Record the owner's restart consent in the registry's policy (mode and scope).

    Run it only on the owner's word: a restart recommended by `passdown assess` waits for it.
    Recording the same policy again changes nothing."""
    from passdown.authoring import locate_registry, set_policy

    path = registry_path or locate_registry(_locate(None, "registry").path)
    return set_policy(path, mode=mode, scope=scope, archive_consent=archive_consent,
                      expect_revision=expect_revision)


@registry.command("recover", cls=_Command)
@click.argument("directory", type=click.Path(file_okay=False), required=False)
@click.option("--packet", "packet_path", default=None,
              help="The packet [default: DIRECTORY/continuation.packet.txt, when it exists].")
@click.option("--checkpoint", "checkpoint_path", default=None,
              help="The checkpoint [default: DIRECTORY/xbrief/continue.xbrief.json].")
@click.option("--main-id", default=None,
              help="The session that owns the goal's writes [default: the packet's source].")
@click.option("--registry-format", type=click.Choice(("yaml", "json")), default="yaml",
              show_default=True, help="Write registry.yaml or registry.json.")
@_output_options
@_run("registry recover")
def _recover(directory, packet_path, checkpoint_path, main_id, registry_format):
    """Rebuild a lost registry in DIRECTORY from the packet and the checkpoint (DIRECTORY
    defaults to the handoff folder holding the checkpoint, found here or in a folder above).

    Records only what the files prove: the packet's source as MAIN, its policy mode and
    archive consent, and the packet's attempt as creation_unknown (reconcile it from what the
    host shows; it records no checkpoint digest, so no ACK of it is accepted). The fencing
    epoch starts one above every epoch the surviving files show (the checkpoint and its
    leases, the packet's LIVE_WORK, every TAKEOVER ACK of the goal in DIRECTORY), so no
    commit hands out an epoch a session may still hold; the registry records that it was
    recovered and from which epochs. Refuses when a registry exists (authoring.exists) or the packet's digest
    does not verify (authoring.packet_unverified)."""
    from passdown.authoring import recover_registry as recover

    directory = _locate(directory, "checkpoint").path
    return recover(directory, packet_path=packet_path, checkpoint_path=checkpoint_path,
                   main_id=main_id, registry_format=registry_format)


# -- migrate -------------------------------------------------------------------------------

@click.command(cls=_Command)
@click.argument("directory", type=click.Path(file_okay=False), required=False)
@click.option("--source", "source_path", default=None,
              help="The legacy file [default: DIRECTORY/vbrief/continue.vbrief.json].")
@click.option("--target", "target_path", default=None,
              help="The new file [default: DIRECTORY/xbrief/continue.xbrief.json].")
@click.option("--goal-id", default=None, help="Needed when the legacy file has no Passdown block.")
@click.option("--main-id", default=None, help="The MAIN session id (as for init).")
@click.option("--outcome", default=None, help="What must be delivered (as for init).")
@click.option("--mission", default=None, help="Why the work exists [default: --outcome].")
@click.option("--task", default=None, help="The task [default: the plan title].")
@click.option("--session-id", "stack_session_id", default=None,
              help="The Stack session id [default: --main-id].")
@click.option("--incarnation-id", default=None, help="[default: a new ULID].")
@click.option("--role", default="main", show_default=True, help="The session's role.")
@click.option("--fix", is_flag=True,
              help="Make the mechanical fixes (a string item narrative becomes an object, a "
                   "reference type without a namespace its x- form, a reference without a uri "
                   "its url as the uri (with none, it is kept under x-vbrief/references), a "
                   "version 0.5.0 0.5, a plan without items an empty list) and print the diff.")
@_output_options
@_run("migrate")
def migrate(directory, source_path, target_path, fix, **identity):
    """Convert a legacy checkpoint (xBRIEF 0.4 to 0.7, vBRIEF) to xbrief/continue.xbrief.json.

    Nothing is lost and the legacy file is left as it is; an existing target is never
    replaced. A Passdown block is added from the options when the legacy file has none; what
    the file lacks (Decisions, a resume point) is written as a marked placeholder, and each
    placeholder is a warning on stderr. Every problem is reported at once, at the source
    file's paths, and nothing is written while one remains (authoring.migration_problems);
    those marked [--fix] are mechanical, and --fix makes them, printing the diff. DIRECTORY
    defaults to the handoff folder, found here or in a folder above. Without --target, a
    folder with no registry gets registry.yaml too, as init makes it (restart policy off,
    --main-id as MAIN): both files or neither, and nothing without --main-id."""
    from passdown.authoring import migrate as migrate_checkpoint

    if source_path is None or target_path is None:
        directory = _locate(directory).path
    return migrate_checkpoint(directory or ".", source=source_path, target=target_path,
                            identity=identity, fix=fix)


