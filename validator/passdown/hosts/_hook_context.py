"""The command hooks that read the handoff folder's continue checkpoint, the same for every
host whose hooks read and answer the JSON of these events (Claude Code, Codex CLI; spec/hosts.md
HST-006 to HST-011, HST-303, HST-304), a plain xBRIEF continue checkpoint or one with
Passdown's block alike:

- ``SessionStart`` (every source: ``startup``, ``resume``, ``clear``, ``compact``): a current,
  unconsumed checkpoint's summary, resume point and first safe action go into the model's
  context, with the rule that the checkpoint, not the conversation, is the source of truth;
  when the folder holds only a legacy ``vbrief/continue.vbrief.json``, a hint saying what it
  is and what to do;
- ``PreCompact`` and ``Stop``: the checkpoint is linted and compared with the last completed
  work the hook can see (the newest commit of the checkout that changes more than Passdown's own
  files); when it is invalid, or older than that work, an instruction to update it (a plain
  checkpoint that records no time is judged by its file's modification time, and the
  instruction says so; one made invalid only by the restart files beside it is given the
  command that adds its block);
- ``PostCompact`` (Codex CLI's): nothing to say; the compaction is counted.

Each event answers in the form the hosts' hook references document for it: ``SessionStart``
the JSON ``hookSpecificOutput.additionalContext`` (its stdout is the model's context);
``Stop`` the top-level ``decision: "block"`` with the instruction as its ``reason`` (the model
continues with it); ``PreCompact`` a ``systemMessage`` shown to the person, since a PreCompact
hook's stdout reaches neither the model nor the compaction: the model gets the same
instruction from ``SessionStart`` with source ``compact``, right after the compaction. A Stop
hook that already made the model continue once (``stop_hook_active``) stays silent, so it
never keeps a turn going by itself. What the hooks add from observing the session lives in
:mod:`passdown.hosts._hook_observing`; the compaction each host counts, in
:mod:`passdown.hosts._compactions`.
"""

from __future__ import annotations

import os

from passdown.authoring import (CHECKPOINT_PATH, RESUME_NARRATIVE, checkpoint_summary,
                             pending_items)
from passdown.engine._validate import validate_paths
from passdown.formats import _clock, _fastjson, _loading
from passdown.hosts import _compactions
from passdown.hosts._hooks import Reply
from passdown.workspace import _git, _readback

#: The longest checkpoint summary put into the context; the rest stays in the file.
MAX_SUMMARY_CHARS = 4000
#: Commits looked at, newest first, for the last completed work.
MAX_COMMITS = 20
#: When each event asks for the update.
_WHEN = {"SessionStart": "before anything else", "compact": "first thing after this "
         "compaction", "PreCompact": "first thing after this compaction",
         "Stop": "now, before you stop"}
#: The legacy checkpoint a SessionStart hint names when it is the folder's only one.
LEGACY_PATH = os.path.join("vbrief", "continue.vbrief.json")
_BLOCK = "x-passdown/checkpoint"
_TRUTH = ("The checkpoint, not the conversation, is the source of truth for this work: where "
          "the conversation (or a summary of it) disagrees with the checkpoint, trust the "
          "checkpoint, and read the file itself before you act.")


#: The variable in which a host names the project to its hooks, per host.
PROJECT_VARIABLES = {"claude": "CLAUDE_PROJECT_DIR"}


def folder_of(hook, options, host):
    """The handoff folder: ``--folder``, else the host's project variable
    (``$CLAUDE_PROJECT_DIR``), else the session's working folder (the input's ``cwd``)."""
    cwd = hook.get("cwd") if isinstance(hook.get("cwd"), str) else None
    variable = PROJECT_VARIABLES.get(host)
    return options["folder"] or (variable and os.environ.get(variable)) or cwd or "."


class State:
    """What the hook knows of the checkpoint: its ``document`` (``None`` when it cannot be
    read), the ``errors`` its lint found, and the last completed ``work`` it is older than."""

    def __init__(self, path, shown, document, errors, work):
        self.path, self.shown, self.document, self.errors, self.work = (
            path, shown, document, errors, work)
        #: The findings that say something else is stale, not the checkpoint (STALE_CODES).
        self.stale = []
        #: The file's modification time, read only when the checkpoint records no time of its
        #: own (a plain one without ``updated``): the age is then judged by it (HST-313).
        self.modified_at = None
        #: The hint of the finding that a plain checkpoint lacks the block the restart files
        #: beside it read (``crossfile.checkpoint_plain``): it names the command that adds it.
        self.adopt_hint = None

    @property
    def block(self):
        """Passdown's block, or ``{}`` for a plain xBRIEF continue checkpoint."""
        block = self.document.get(_BLOCK) if isinstance(self.document, dict) else None
        return block if isinstance(block, dict) else {}

    @property
    def plain(self):
        return not self.block

    @property
    def consumed(self):
        """Consumed: ``consumed_at`` set, or the plan status ``completed`` (the continue-here
        mark a plain checkpoint carries, CKP-022)."""
        plan = self.document.get("plan") if isinstance(self.document, dict) else None
        return (self.block.get("consumed_at") is not None
                or (isinstance(plan, dict) and plan.get("status") == "completed"))

    @property
    def written_at(self):
        """When the checkpoint was written: the block's ``written_at``, else the xBRIEF
        ``updated`` stamp of the document, else of its plan."""
        if self.block.get("written_at") is not None:
            return self.block["written_at"]
        for member in ("xBRIEFInfo", "plan"):
            node = self.document.get(member) if isinstance(self.document, dict) else None
            if isinstance(node, dict) and isinstance(node.get("updated"), str):
                return node["updated"]
        return None


def read_state(folder):
    """The checkpoint's state, or ``None`` when the folder holds no checkpoint."""
    path = os.path.join(folder, CHECKPOINT_PATH)
    if not os.path.isfile(path):
        return None
    report = validate_paths([path])
    stale = [finding for finding in report.findings if finding.code in STALE_CODES]
    errors = sorted({finding.code for finding in report.findings
                     if finding.is_error and finding.code not in STALE_CODES})
    loaded, _ = _loading.load_path(path, syntax="json")
    document = loaded.data if loaded is not None else None
    state = State(path, os.path.relpath(path, folder), document, errors, None)
    state.stale = stale
    state.adopt_hint = next((finding.hint for finding in report.findings
                             if finding.code == PLAIN_CODE), None)
    if not state.consumed:
        written = state.written_at
        if written is None:
            state.modified_at = _modified_at(path)
        state.work = _newer_work(folder, path, written or state.modified_at)
    return state


def _modified_at(path):
    """The file's modification time as a timestamp, or ``None`` when it cannot be read."""
    try:
        return _clock.format_ms(int(os.stat(path).st_mtime * 1000))
    except (OSError, OverflowError, ValueError):
        return None


# -- the last completed work ---------------------------------------------------------------

class Work:
    """A commit the checkpoint is older than."""

    def __init__(self, commit, seconds, subject):
        self.commit, self.seconds, self.subject = commit, seconds, subject

    def describe(self):
        return (f'commit {self.commit[:12]} "{self.subject}", '
                f'{_clock.format_ms(self.seconds * 1000)}')


def _newer_work(folder, checkpoint, written_at):
    """The newest commit that changes more than Passdown's own files, when it is newer than
    ``written_at`` and did not carry a checkpoint change itself; ``None`` otherwise, and when
    the folder is not in a git checkout."""
    written = _clock.parse_ms(written_at)
    if written is None:
        return None
    try:
        top = _git.toplevel(folder)
        returncode, out = _git.log(top, "-n", str(MAX_COMMITS), "--no-renames", "--name-only",
                                   "--format=%x01%H%x00%ct%x00%s")
    except _git.GitError:
        return None
    if returncode != 0:
        return None  # no commit yet
    own = os.path.relpath(os.path.realpath(checkpoint), top).replace(os.sep, "/")
    # Passdown's own files are the handoff's, as the ACK's dirty-artifact fingerprint leaves
    # them out (ACK-128): the artifacts in the folder, the checkpoint, the .passdown/ folders
    is_own = _readback.own_files(top, folder, [checkpoint])
    for record in out.decode("utf-8", "replace").split("\x01")[1:]:
        header, _, names = record.partition("\n")
        commit, seconds, subject = (header.split("\x00") + ["", ""])[:3]
        paths = [name for name in names.split("\n") if name]
        if own in paths:
            return None  # the newest work went in with a checkpoint update
        if not all(is_own(path) for path in paths):
            stamp = int(seconds) if seconds.isdigit() else 0
            return Work(commit, stamp, subject) if stamp * 1000 > written else None
    return None


# -- what goes into the context ------------------------------------------------------------

def instruction(state, event):
    """The short instruction to update the checkpoint, or ``None`` when it is current."""
    when = _WHEN[event]
    others = [code for code in state.errors if code != PLAIN_CODE]
    if state.adopt_hint and all(code.startswith(_FOLDER_PREFIXES) for code in others):
        # The block comes first: the other folder findings compare against it (the
        # checkpoint's own errors come before it: `passdown init` adopts a valid one only).
        then = (f" Then `passdown validate {state.shown}` names what else to fix "
                f"({', '.join(others)})." if others else "")
        return (f"Passdown: the checkpoint {state.shown} is a plain xBRIEF continue checkpoint, "
                f"but the restart files beside it read its x-passdown/checkpoint block "
                f"({PLAIN_CODE}). Fix it {when}: {state.adopt_hint}.{then}")
    if state.errors:
        return (f"Passdown: the checkpoint {state.shown} is not valid ({', '.join(state.errors)}). "
                f"Fix it {when}: `passdown validate {state.shown}` names each finding and how to "
                f"fix it.")
    if state.work is not None:
        written = (f"the checkpoint was written {state.written_at}" if state.written_at else
                   f"the checkpoint records no time it was written, so its file's modification "
                   f"time stands in: {state.modified_at}")
        return (f"Passdown: the checkpoint {state.shown} is older than the last completed work "
                f"({state.work.describe()}; {written}). Update it {when}: "
                f"{_HOW_TO_UPDATE[state.plain]}")
    return None


#: The finding of a plain checkpoint beside the restart files (CKP-027), whose hint names the
#: one command that fixes it (CKP-035).
PLAIN_CODE = "crossfile.checkpoint_plain"
#: Codes of findings about the folder around the checkpoint, not the checkpoint on its own.
_FOLDER_PREFIXES = ("crossfile.", "ack.")

#: How to update a checkpoint, with Passdown's commands or, for a plain one, by hand.
_HOW_TO_UPDATE = {
    False: "record each completed step with its evidence (`passdown checkpoint add-completed "
           "TITLE --evidence REF`) and set the resume point (`passdown checkpoint set-resume "
           "TEXT`).",
    True: "mark each finished item `completed`, record the decisions taken in the plan's "
          "`Decisions` narrative, and put the exact next step in the `ResumePoint` narrative of "
          "the next `pending` item.",
}


def _summary(document):
    lines, used = [], 0
    all_lines = checkpoint_summary(document).split("\n")
    for index, line in enumerate(all_lines):
        if used + len(line) > MAX_SUMMARY_CHARS:
            lines.append(f"... {len(all_lines) - index} more lines: read the checkpoint")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def _next_item(document, item_id):
    pending = pending_items(document)
    named = [item for item in pending if item.get("id") == item_id]
    return (named or pending or [{}])[0]


def _described(state):
    block = state.block
    if state.plain:
        written = f", written {state.written_at}" if state.written_at else ""
        return f"a plain xBRIEF continue checkpoint{written}"
    return f"revision {block.get('revision')}, written {block.get('written_at')}"


#: Findings on a valid checkpoint that say another file is behind it, which the commands
#: permit (the checkpoint may change while an attempt is open, HST-205): the context says
#: what is stale instead of withholding the checkpoint.
STALE_CODES = frozenset({"crossfile.checkpoint_changed"})


def _stale_note(state):
    """What is stale beside a current checkpoint, or ``None``."""
    if not state.stale:
        return None
    what = "; ".join(f"{finding.message} ({finding.code})" for finding in state.stale)
    return (f"Passdown: note: {what}. The checkpoint above is current; the open restart "
            f"attempt was registered with an earlier version of it, so a packet rendered for "
            f"that attempt describes the older one. Before handing over, render a new packet "
            f"(`passdown packet render`); until then nothing needs fixing in the checkpoint.")


def resume_context(state, when="SessionStart"):
    """The SessionStart context of a current, unconsumed checkpoint."""
    block = state.block
    action = block.get("next_action") if isinstance(block.get("next_action"), dict) else {}
    item = _next_item(state.document, action.get("item_id"))
    narrative = item.get("narrative") if isinstance(item.get("narrative"), dict) else {}
    resume = narrative.get(RESUME_NARRATIVE, "none recorded")
    parts = [f"Passdown: this project has a continue checkpoint, {state.shown} "
             f"({_described(state)}). {_TRUTH}",
             _summary(state.document),
             f"Resume point ({item.get('id', item.get('title'))}): {resume}"
             f"\nFirst safe action: {action.get('summary', resume)}"]
    inputs = [str(entry) for entry in action.get("required_inputs") or ()]
    if inputs:
        parts[-1] += f"\nRequired inputs: {', '.join(inputs)}"
    update = instruction(state, when)
    if update:
        parts.append(update)
    note = _stale_note(state)
    if note:
        parts.append(note)
    return "\n\n".join(parts)


def _additional_context(event, text):
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return Reply(_fastjson.dumps(output) + "\n")


def _when(hook):
    return "compact" if hook.get("source") == "compact" else "SessionStart"


def legacy_hint(folder):
    """The SessionStart context when the folder holds only a legacy checkpoint, or ``None``."""
    path = os.path.join(folder, LEGACY_PATH)
    if not os.path.isfile(path):
        return None
    loaded, _ = _loading.load_path(path, syntax="json")
    data = loaded.data if loaded is not None else None
    shown = LEGACY_PATH.replace(os.sep, "/")
    if isinstance(data, dict) and ("vBRIEFInfo" in data or "xBRIEFInfo" in data):
        return (f"Passdown: this project's continue checkpoint is the legacy {shown}; there is "
                f"no {CHECKPOINT_PATH}. Read it before anything else: it records where the "
                f"previous session stopped. `passdown migrate`, run in this folder, converts it "
                f"to {CHECKPOINT_PATH} (`--fix` makes the mechanical fixes it needs, with a "
                f"diff).")
    return (f"Passdown: this project has a file at the legacy checkpoint path {shown}, but it is "
            f"not an xBRIEF document (it has no vBRIEFInfo or xBRIEFInfo header), so no tool can "
            f"read it as a checkpoint. Read it as notes left by an earlier session, then record "
            f"the state in a continue checkpoint at {CHECKPOINT_PATH} (an xBRIEF 0.8 document: "
            f"completed and pending items, Decisions, a ResumePoint on the next pending item).")


def session_start(state, hook, folder):
    if state is None:
        hint = legacy_hint(folder)
        return _additional_context("SessionStart", hint) if hint else Reply()
    if state.consumed:
        return Reply()
    if state.errors:
        return _additional_context("SessionStart", instruction(state, _when(hook)))
    return _additional_context("SessionStart", resume_context(state, _when(hook)))


def pre_compact(state, hook, folder):
    """A systemMessage for the person: PreCompact's stdout reaches neither the model nor the
    compaction; SessionStart (source ``compact``) gives the model the same instruction."""
    text = None if state is None or state.consumed else instruction(state, "PreCompact")
    return Reply(_fastjson.dumps({"systemMessage": text}) + "\n") if text else Reply()


def stop(state, hook, folder):
    if state is None or state.consumed or hook.get("stop_hook_active") is True:
        return Reply()
    text = instruction(state, "Stop")
    if not text:
        return Reply()
    return Reply(_fastjson.dumps({"decision": "block", "reason": text}) + "\n")


def post_compact(state, hook, folder):
    """Nothing to say: the compaction is counted, and SessionStart (source ``compact``) or the
    next Stop gives the model the instruction."""
    return Reply()


_EVENTS = {"SessionStart": session_start, "PreCompact": pre_compact, "PostCompact": post_compact,
           "Stop": stop}


def _with_line(event, reply, line):
    """``reply`` with the observer's ``line`` (passdown.hosts._hook_observing) added in the
    event's form: SessionStart's context, Stop's ``reason`` to continue with."""
    if not line:
        return reply
    if event == "Stop":
        if not reply.stdout:
            return Reply(_fastjson.dumps({"decision": "block", "reason": line}) + "\n")
        output = _fastjson.loads(reply.stdout)
        output["reason"] += "\n\n" + line
        return Reply(_fastjson.dumps(output) + "\n")
    if not reply.stdout:
        return _additional_context(event, line)
    output = _fastjson.loads(reply.stdout)
    output["hookSpecificOutput"]["additionalContext"] += "\n\n" + line
    return Reply(_fastjson.dumps(output) + "\n")


def run(event, hook, options, host):
    """The reply to ``event`` of ``host``'s hook (``claude`` or ``codex``)."""
    if event == "Stop" and hook.get("stop_hook_active") is True:
        return Reply()  # already continued once: never keep the turn going by itself
    from passdown.hosts import _hook_observing

    folder = folder_of(hook, options, host)
    if event == _compactions.EVENTS.get(host):
        _hook_observing.count_compaction(hook, folder, host)
    state = read_state(folder)
    reply = _EVENTS[event](state, hook, folder)
    if event == "SessionStart":
        return _with_line(event, reply,
                          _hook_observing.session_start(hook, folder, options, state, host))
    if event == "Stop":
        return _with_line(event, reply, _hook_observing.stop(hook, folder, options, state, host))
    return reply
