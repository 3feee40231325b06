"""The Claude Code hooks that read the handoff folder's continue checkpoint (spec/hosts.md):

- ``SessionStart``: a current, unconsumed checkpoint's summary, resume point and first safe
  action go into the model's context, with the rule that the checkpoint, not the
  conversation, is the source of truth;
- ``PreCompact`` and ``Stop``: the checkpoint is linted and compared with the last completed
  work the hook can see (the newest commit of the checkout that changes more than Passdown's own
  files); when it is invalid, or older than that work, a short instruction to update it goes
  into the model's context.

Each event answers in the form the host documents for it: ``SessionStart`` and ``Stop`` the
JSON ``hookSpecificOutput.additionalContext``, ``PreCompact`` plain text (the host hands a
PreCompact hook's stdout to the compaction as its instructions; that event takes no
``hookSpecificOutput``). A Stop hook that already made the model continue once
(``stop_hook_active``) stays silent, so it never keeps a turn going by itself.
"""

from __future__ import annotations

import os

from passdown.authoring import (CHECKPOINT_PATH, RESUME_NARRATIVE, checkpoint_block,
                             checkpoint_summary, pending_items)
from passdown.engine._validate import validate_paths
from passdown.formats import _clock, _fastjson, _loading
from passdown.hosts._claude_hooks import Reply
from passdown.workspace import _git, _readback

#: The longest checkpoint summary put into the context; the rest stays in the file.
MAX_SUMMARY_CHARS = 4000
#: Commits looked at, newest first, for the last completed work.
MAX_COMMITS = 20
#: When each event asks for the update.
_WHEN = {"SessionStart": "before anything else", "PreCompact": "first thing after this "
         "compaction", "Stop": "now, before you stop"}
_TRUTH = ("The checkpoint, not the conversation, is the source of truth for this work: where "
          "the conversation (or a summary of it) disagrees with the checkpoint, trust the "
          "checkpoint, and read the file itself before you act.")


def folder_of(hook, options):
    """The handoff folder: ``--folder``, else ``$CLAUDE_PROJECT_DIR``, else the session's
    working folder (the input's ``cwd``)."""
    cwd = hook.get("cwd") if isinstance(hook.get("cwd"), str) else None
    return options["folder"] or os.environ.get("CLAUDE_PROJECT_DIR") or cwd or "."


class State:
    """What the hook knows of the checkpoint: its ``document`` (``None`` when it cannot be
    read), the ``errors`` its lint found, and the last completed ``work`` it is older than."""

    def __init__(self, path, shown, document, errors, work):
        self.path, self.shown, self.document, self.errors, self.work = (
            path, shown, document, errors, work)

    @property
    def block(self):
        block = checkpoint_block(self.document) if isinstance(self.document, dict) else None
        return block if isinstance(block, dict) else {}

    @property
    def consumed(self):
        return self.block.get("consumed_at") is not None


def read_state(folder):
    """The checkpoint's state, or ``None`` when the folder holds no checkpoint."""
    path = os.path.join(folder, CHECKPOINT_PATH)
    if not os.path.isfile(path):
        return None
    report = validate_paths([path])
    errors = sorted({finding.code for finding in report.findings if finding.is_error})
    loaded, _ = _loading.load_path(path, syntax="json")
    document = loaded.data if loaded is not None else None
    state = State(path, os.path.relpath(path, folder), document, errors, None)
    if not state.consumed:
        state.work = _newer_work(folder, path, state.block.get("written_at"))
    return state


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
    if state.errors:
        return (f"Passdown: the checkpoint {state.shown} is not valid ({', '.join(state.errors)}). "
                f"Fix it {when}: `passdown validate {state.shown}` names each finding and how to "
                f"fix it.")
    if state.work is not None:
        return (f"Passdown: the checkpoint {state.shown} is older than the last completed work "
                f"({state.work.describe()}; the checkpoint was written "
                f"{state.block.get('written_at')}). Update it {when}: record each completed "
                f"step with its evidence (`passdown checkpoint add-completed TITLE --evidence "
                f"REF`) and set the resume point (`passdown checkpoint set-resume TEXT`).")
    return None


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


def resume_context(state):
    """The SessionStart context of a current, unconsumed checkpoint."""
    block = state.block
    action = block.get("next_action") if isinstance(block.get("next_action"), dict) else {}
    item = _next_item(state.document, action.get("item_id"))
    narrative = item.get("narrative") if isinstance(item.get("narrative"), dict) else {}
    parts = [f"Passdown: this project has a continue checkpoint, {state.shown} (revision "
             f"{block.get('revision')}, written {block.get('written_at')}). {_TRUTH}",
             _summary(state.document),
             f"Resume point ({item.get('id')}): {narrative.get(RESUME_NARRATIVE, 'none recorded')}"
             f"\nFirst safe action: {action.get('summary', 'none recorded')}"]
    inputs = [str(entry) for entry in action.get("required_inputs") or ()]
    if inputs:
        parts[-1] += f"\nRequired inputs: {', '.join(inputs)}"
    update = instruction(state, "SessionStart")
    if update:
        parts.append(update)
    return "\n\n".join(parts)


def _additional_context(event, text):
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return Reply(_fastjson.dumps(output) + "\n")


def session_start(state, hook):
    if state is None or state.consumed:
        return Reply()
    if state.errors:
        return _additional_context("SessionStart", instruction(state, "SessionStart"))
    return _additional_context("SessionStart", resume_context(state))


def pre_compact(state, hook):
    text = None if state is None or state.consumed else instruction(state, "PreCompact")
    return Reply(text + "\n") if text else Reply()


def stop(state, hook):
    if state is None or state.consumed or hook.get("stop_hook_active") is True:
        return Reply()
    text = instruction(state, "Stop")
    return _additional_context("Stop", text) if text else Reply()


_EVENTS = {"SessionStart": session_start, "PreCompact": pre_compact, "Stop": stop}


def _with_line(event, reply, line):
    """``reply`` with the observer's ``line`` added to its context (passdown.hosts._claude_observing)."""
    if not line:
        return reply
    if not reply.stdout:
        return _additional_context(event, line)
    output = _fastjson.loads(reply.stdout)
    output["hookSpecificOutput"]["additionalContext"] += "\n\n" + line
    return Reply(_fastjson.dumps(output) + "\n")


def run(event, hook, options):
    if event == "Stop" and hook.get("stop_hook_active") is True:
        return Reply()  # already continued once: never keep the turn going by itself
    from passdown.hosts import _claude_observing

    folder = folder_of(hook, options)
    if event == "PreCompact":
        _claude_observing.pre_compact(hook, folder)
    reply = _EVENTS[event](read_state(folder), hook)
    if event == "SessionStart":
        return _with_line(event, reply, _claude_observing.session_start(hook, folder, options))
    if event == "Stop":
        return _with_line(event, reply, _claude_observing.stop(hook, folder, options))
    return reply
