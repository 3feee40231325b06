"""The rules of the procedure around the files (spec/procedure.md) that the files themselves
can show, and the packet's ban on transcripts and browser state (spec/packet.md, PKT-017).

- on the checkpoint: it was written after every completion, failure and blocker it records;
- on the packet: it holds no conversation transcript and no private browser state;
- on a handoff folder (kind ``"crossfile"``): the registry's policy names the folder's
  checkpoint; a checkpoint under a restart attempt that has not reached the ownership commit
  is neither newer than the attempt nor consumed; after a verified takeover, the checkpoint
  the source handed over was consumed.

Times are compared as moments (``2026-10-14T09:12:40+02:00`` equals ``07:12:40Z``); a value
that names no moment is the timestamp rules' to report, and is skipped here.
"""

from __future__ import annotations

import posixpath
import re

from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import moment, quoted
from passdown.rules.checkpoint import BLOCK, block, items_of
from passdown.rules.registry import OPEN_STATES

#: Attempt states before the ownership commit: the source still owns the checkpoint, and
#: the packet it handed over is meant to carry the checkpoint as it is.
BEFORE_COMMIT = tuple(state for state in OPEN_STATES if state != "committed")
#: Attempt states after a verified takeover: the target owns the work.
TAKEN_OVER = ("taken_over", "completed")


# -- the checkpoint ------------------------------------------------------------------------

def _recorded_events(artifact: Artifact):
    """``(path, timestamp, what)`` for every moment the checkpoint records as past: an item's
    completion, a failed attempt, a blocker first seen."""
    data = artifact.data
    for path, item in items_of(artifact):
        if "completed" in item:
            yield path + ("completed",), item["completed"], f"the item {quoted(item.get('id'))} was completed"
    own = block(data) or {}
    for member, stamp, what in (("failed_attempts", "at", "a failed attempt was recorded"),
                                ("blockers", "since", "a blocker was first seen")):
        entries = own.get(member)
        for index, entry in enumerate(entries if isinstance(entries, list) else ()):
            if isinstance(entry, dict) and stamp in entry:
                yield (BLOCK, member, index, stamp), entry[stamp], what


@rule("checkpoint", "checkpoint.written_at_stale", requirement="PRC-059",
      summary="the checkpoint was written after every completion, failure and blocker it records",
      hint="write the checkpoint after the work it records: `passdown checkpoint` sets written_at "
           "on every write; a tool that edits the plan alone leaves the Passdown block behind")
def _written_at_stale(artifact: Artifact):
    own = block(artifact.data)
    written = moment(own.get("written_at")) if own else None
    if written is None:
        return
    for path, stamp, what in _recorded_events(artifact):
        when = moment(stamp)
        if when is not None and when > written:
            yield Hit(path, f"{what} at {stamp}, after the checkpoint was last written "
                            f"({own['written_at']})")


# -- the packet ------------------------------------------------------------------------------

#: A packet with at least this many turns from each side holds a transcript.
TRANSCRIPT_TURNS = 2
# Where a packet line's text starts: after a continuation's two spaces or a field's key.
_LINE_START = r"^(?:  |[A-Z][A-Z0-9_]*(?: / [A-Z][A-Z0-9_]*)*: )?"
# A conversation turn: a role label opening a line (`User:`, `> **Assistant:**`,
# `### Human:`), or a JSON message of a transcript log (`"role": "user"`).
# (One character class for the decoration: a nested repetition would backtrack without end
# on a long line of dashes.)
_TURN = re.compile(_LINE_START + r"[>#*_ \t-]*(?P<label>user|human|assistant|ai)(?:\*\*|__)?[ \t]*:",
                   re.I | re.M)
_JSON_TURN = re.compile(r'"(?:role|type)"[ \t]*:[ \t]*"(?P<label>user|human|assistant)"', re.I)
_SIDE = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant"}
# Private browser state: a cookie jar (its header or one of its rows), a JSON cookie export,
# a dump of local or session storage.
_BROWSER_STATE = (
    (re.compile(_LINE_START + r"[ \t]*#[ \t]*(?:Netscape[ \t]+)?HTTP[ \t]+Cookie[ \t]+File", re.I | re.M),
     "a cookie jar"),
    (re.compile(_LINE_START + r"(?:#HttpOnly_)?[^\s]+\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)"
                r"\t\d+\t[^\t\n]+\t", re.I | re.M), "a cookie jar row"),
    (re.compile(r'"cookies"\s*:\s*\[\s*\{'), "an exported cookie list"),
    (re.compile(r'"(?:localStorage|sessionStorage)"\s*:\s*[\[{]'), "a browser storage dump"),
)


def _packet_texts(artifact: Artifact):
    """``(text, locate)`` pairs to search: the whole text of a text packet, or each field
    of a projection; ``locate(offset)`` is ``(path, line)`` of a match at that offset."""
    from passdown.rules.packet import read

    parsed, projection = read(artifact)
    if projection:
        from passdown.formats import _packet

        for field in parsed.fields:
            path = (_packet.MEMBER_BY_KEY[field.key],) if field.key in _packet.MEMBER_BY_KEY else ()
            yield field.value, lambda offset, path=path: (path, None)
        return
    if not isinstance(artifact.text, str):
        return
    text = artifact.text
    starts = sorted((field.line, field.key) for field in parsed.fields if field.line)

    def locate(offset):
        from passdown.formats import _packet

        line = text.count("\n", 0, offset) + 1
        key = next((k for start, k in reversed(starts) if start <= line), None)
        member = _packet.MEMBER_BY_KEY.get(key)
        return ((member,) if member else ()), line

    yield text, locate


@rule("packet", "packet.transcript", requirement="PKT-017",
      summary="the packet holds no conversation transcript",
      hint="replace the transcript by what it established (decisions, progress, the next "
           "step) and link the log; a fresh session resumes from the checkpoint, never from "
           "the conversation")
def _transcript(artifact: Artifact):
    turns = {"user": 0, "assistant": 0}
    first = None  # (text's position, offset, locate) of the first turn
    for position, (text, locate) in enumerate(_packet_texts(artifact)):
        for pattern in (_TURN, _JSON_TURN):
            for match in pattern.finditer(text):
                turns[_SIDE[match.group("label").lower()]] += 1
                first = min(first or (position, match.start(), locate),
                            (position, match.start(), locate), key=lambda found: found[:2])
    if first is not None and min(turns.values()) >= TRANSCRIPT_TURNS:
        path, line = first[2](first[1])
        yield Hit(path, f"the packet holds a conversation transcript: {turns['user']} user "
                        f"turns and {turns['assistant']} assistant turns", line=line)


@rule("packet", "packet.browser_state", requirement="PKT-017",
      summary="the packet holds no private browser state",
      hint="remove the browser state; name the profile or the login step the fresh session "
           "needs instead, never its cookies or storage")
def _browser_state(artifact: Artifact):
    for text, locate in _packet_texts(artifact):
        for pattern, what in _BROWSER_STATE:
            match = pattern.search(text)
            if match:
                path, line = locate(match.start())
                where = f"line {line}" if line else "the field"
                yield Hit(path, f"{where} holds {what}", line=line)


# -- the handoff folder ----------------------------------------------------------------------

def _folder_files(folder):
    """The folder's checkpoint (not a legacy one), its Passdown block and its registry's data,
    or None when the folder lacks one of them."""
    checkpoint = folder.artifacts.get("checkpoint")
    registry = folder.artifacts.get("registry")
    if checkpoint is None or checkpoint.legacy or registry is None \
            or not isinstance(registry.data, dict):
        return None
    own = block(checkpoint.data)
    return (checkpoint, own, registry) if own is not None else None


def _attempts(registry) -> list[dict]:
    attempts = registry.data.get("attempts")
    return [attempt for attempt in (attempts if isinstance(attempts, list) else ())
            if isinstance(attempt, dict)]


def _before_commit(folder):
    """The checkpoint's Passdown block and the registry's attempts that have not reached the
    ownership commit; ``(None, [])`` when the folder lacks either file."""
    found = _folder_files(folder)
    if found is None:
        return None, []
    return found[1], [attempt for attempt in _attempts(found[2])
                      if attempt.get("state") in BEFORE_COMMIT]


@rule("crossfile", "crossfile.checkpoint_path", requirement="PRC-060",
      summary="the registry's policy names the folder's checkpoint",
      hint="set policy.checkpoint_path to the checkpoint's path relative to the registry's "
           "folder (normally xbrief/continue.xbrief.json)")
def _checkpoint_path(folder):
    found = _folder_files(folder)
    if found is None:
        return
    checkpoint, _, registry = found
    policy = registry.data.get("policy")
    stated = policy.get("checkpoint_path") if isinstance(policy, dict) else None
    if not isinstance(stated, str) or not stated.strip() or checkpoint.file is None \
            or registry.file is None:
        return
    folder_of_registry = posixpath.dirname(_posix(registry.file))
    named = posixpath.normpath(posixpath.join(folder_of_registry, _posix(stated)))
    actual = posixpath.normpath(_posix(checkpoint.file))
    if named != actual:
        yield Hit(("registry", "policy", "checkpoint_path"),
                  f"checkpoint_path {stated!r} names {named}, but the folder's checkpoint is {actual}")


@rule("crossfile", "crossfile.checkpoint_after_registration", requirement="PRC-061",
      summary="a checkpoint under an attempt before its commit is not newer than the attempt",
      hint="the checkpoint changed after the attempt was registered, so the packet does not "
           "carry it: render a new packet (`passdown packet render`) to register a new attempt")
def _after_registration(folder):
    own, attempts = _before_commit(folder)
    written = moment(own.get("written_at")) if own else None
    for attempt in attempts:
        registered = moment(attempt.get("registered_at"))
        if "continue_checkpoint_digest" in attempt or written is None or registered is None:
            continue  # with the checkpoint's digest recorded, DIG-054 compares the bytes
        if written > registered:
            yield Hit(("checkpoint", BLOCK, "written_at"),
                      f"the checkpoint was written at {own['written_at']}, after attempt "
                      f"{quoted(attempt.get('restart_id'))} was registered at "
                      f"{attempt['registered_at']}")


@rule("crossfile", "crossfile.consumed_checkpoint_handed_over", requirement="PRC-062",
      summary="no attempt before its commit hands over a consumed checkpoint",
      hint="a consumed checkpoint is the previous handoff's state: reopen it "
           "(`passdown checkpoint reopen`), bring it up to date, then render a new packet")
def _consumed_handed_over(folder):
    own, attempts = _before_commit(folder)
    if own is None or not isinstance(own.get("consumed_at"), str):
        return
    for attempt in attempts:
        yield Hit(("checkpoint", BLOCK, "consumed_at"),
                  f"the checkpoint was consumed at {own['consumed_at']}, yet attempt "
                  f"{quoted(attempt.get('restart_id'))} ({attempt.get('state')}) hands it over")


@rule("crossfile", "crossfile.checkpoint_not_consumed", requirement="PRC-063",
      summary="after a verified takeover, the checkpoint the source handed over was consumed",
      hint="the session that took over marks the checkpoint consumed when it resumes "
           "(`passdown consume`), then reopens it for its own writes")
def _not_consumed(folder):
    found = _folder_files(folder)
    if found is None:
        return
    _, own, registry = found
    live = [attempt for attempt in _attempts(registry) if attempt.get("state") != "abandoned"]
    attempt = live[-1] if live else {}
    ownership, takeover = attempt.get("ownership"), attempt.get("takeover")
    if attempt.get("state") not in TAKEN_OVER or not isinstance(ownership, dict) \
            or not isinstance(takeover, dict) or takeover.get("verified") is not True \
            or own.get("consumed_at") is not None:
        return
    committed, epoch = ownership.get("fencing_epoch"), own.get("epoch")
    written, commit = moment(own.get("written_at")), moment(ownership.get("committed_at"))
    # The source's checkpoint: written at an older epoch, and not after the commit (a write
    # after it is the new owner's, which reopened the consumed checkpoint).
    if _is_int(committed) and _is_int(epoch) and epoch < committed \
            and (written is None or commit is None or written <= commit):
        yield Hit(("checkpoint", BLOCK, "consumed_at"),
                  f"attempt {quoted(attempt.get('restart_id'))} was taken over at fencing epoch "
                  f"{committed}, but the checkpoint the source wrote at epoch {epoch} was never "
                  f"consumed")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _posix(path: str) -> str:
    return path.replace("\\", "/")
