"""The continuation packet, rendered from the checkpoint and the registry.

Owns what goes into each of the twelve fields and the order of the steps that make a packet
safe to send: the restart attempt (RESTART_ID and the packet's digest) is registered in the
registry first, then the packet is written atomically, then it is read back from disk and its
digest checked. Fields are bounded: long lists keep their newest entries and link the
checkpoint for the rest, long texts are cut with a link, never copied whole. SOURCE and
WORKING_STATE come from a fresh readback of the checkout (:mod:`passdown.authoring._working`),
taken before the locked step; the list of every uncommitted path, when WORKING_STATE cannot
hold them, is written in it, before the packet that names its digest.
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass

from passdown.workspace import _atomic
from passdown.formats import _digest, _files, _packet
from passdown.workspace._testpoints import point
from passdown.errors import RefusedError, UsageError
from passdown.authoring import _attempt, _checkpoint, _fence, _registry, _store, _working
from passdown.authoring._ids import new_ulid

#: The largest value of one field, in characters, before it is shortened with a link.
MAX_FIELD_CHARS = 2000
#: Lines are wrapped at this width (continuation lines included).
WIDTH = 88
#: Where an unknown fact is stated instead of guessed.
UNKNOWN = "UNKNOWN (not recorded)"


@dataclass(frozen=True)
class SourceFacts:
    """What the caller knows about the source and its checkout; unknown stays ``None``."""

    source_id: str
    host: str | None = None
    harness: str | None = None
    repository: str | None = None
    checkout: str | None = None
    branch: str | None = None
    head: str | None = None
    working_state: str | None = None
    live_work: str | None = None
    model_policy: str | None = None
    budget: str | None = None


def _bullets(entries: list[str], link: str, limit: int = MAX_FIELD_CHARS) -> list[str]:
    """``- entry`` lines, newest last; when they exceed ``limit`` the oldest are replaced by
    one line that says how many more the linked file holds."""
    lines = [f"- {_one_line(entry)}" for entry in entries]
    dropped = 0
    while lines and sum(len(line) + 1 for line in lines) > limit:
        lines.pop(0)
        dropped += 1
    if dropped:
        lines.insert(0, f"- ... {dropped} earlier entries: see {link}")
    return lines


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _cut(text: str, link: str, limit: int = MAX_FIELD_CHARS) -> str:
    text = _clean(text)
    if len(text) <= limit:
        return text
    return text[: limit - 60].rstrip() + f" ... (cut: the full text is in {link})"


def _clean(text: str) -> str:
    """Text the packet grammar can carry: no control characters but LF and tab, no bidi
    overrides (they would show the text in another order than it is read)."""
    return "".join(" " if (ord(ch) < 32 and ch not in "\n\t") or 0x7f <= ord(ch) <= 0x9f
                   or 0x202a <= ord(ch) <= 0x202e or 0x2066 <= ord(ch) <= 0x2069 else ch
                   for ch in str(text))


def _wrap(key: str, value: str) -> str:
    """``value`` wrapped so that every packet line (``KEY: `` or the two-space continuation
    indent included) fits :data:`WIDTH`; a bullet's wrapped lines hang under its text."""
    out = []
    for number, line in enumerate(_clean(value).split("\n")):
        lead = len(key) + 2 if number == 0 else 2
        hang = "  " if line.startswith("- ") else ""
        wrapped = textwrap.wrap(line, WIDTH, initial_indent=" " * lead,
                                subsequent_indent=" " * 2 + hang, break_long_words=False,
                                break_on_hyphens=False)
        out.extend([wrapped[0][lead:], *(w[2:] for w in wrapped[1:])] if wrapped else [""])
    return "\n".join(out)


def field_values(checkpoint: dict, registry: dict, source: SourceFacts, *,
                 checkpoint_ref: str, checkout: _working.Checkout | None = None,
                 environment: _working.Environment | None = None,
                 list_ref: str = _packet.WORKING_STATE_NAME) -> dict[str, str]:
    """The first ten fields (GOAL_ID ... NEXT_SAFE_ACTION) as text, each non-blank.
    ``checkout`` is the readback SOURCE and WORKING_STATE state (without one, only the
    options and the registry's session row speak, and WORKING_STATE is unknown)."""
    block = _checkpoint.block_of(checkpoint)
    policy = _registry.policy_of(registry)
    plan = checkpoint.get("plan") or {}
    narratives = plan.get("narratives") if isinstance(plan.get("narratives"), dict) else {}
    link = checkpoint_ref

    constraints = [c for c in block.get("constraints") or () if isinstance(c, str)]
    authority = ["Constraints:", *_bullets(constraints, link)] if constraints else [
        "No constraints recorded in the checkpoint."]
    if policy.get("mode") in ("adaptive", "daily"):
        authority.append(f"Restart consent covers: {_one_line(policy.get('authorization_scope'))}")
    else:
        authority.append("Automatic restarts are not authorized (policy mode off).")

    consent = "granted" if policy.get("archive_consent") is True else "not granted"
    policy_text = (f"mode {policy.get('mode')}; archive consent {consent}; model policy "
                   f"{source.model_policy or UNKNOWN}; hard budget {source.budget or 'none recorded'}")

    row = next((s for s in registry.get("sessions") or () if isinstance(s, dict)
                and s.get("thread_id") == source.source_id), {})
    if checkout is None:
        facts = [
            ("session", source.source_id),
            ("host", source.host or row.get("host_id")),
            ("harness", source.harness or row.get("harness")),
            ("repository", source.repository or row.get("repository")),
            ("checkout", source.checkout or row.get("checkout")),
            ("branch", source.branch or row.get("branch")),
            ("HEAD", source.head or row.get("head_commit")),
        ]
        working = _cut(source.working_state or f"{UNKNOWN}: inspect the checkout before "
                       "writing; never reset, clean or commit to restart", link)
    else:
        facts = _working.source_facts(checkout, environment or _working.Environment(), row,
                                      source)
        notes = _one_line(_cut(source.working_state, link, MAX_FIELD_CHARS // 2)) \
            if source.working_state else None
        working = _working.working_state(checkout, notes, list_ref)
    source_text = "; ".join(f"{name} {_shown(value) if value else UNKNOWN}"
                            for name, value in facts)

    completed = [f"{w.get('summary')} (evidence: {'; '.join(map(str, w.get('evidence_refs') or ()))})"
                 for w in block.get("completed_work") or () if isinstance(w, dict)]
    pending = [item.get("title") for item in _checkpoint.pending_items(checkpoint)]
    blockers = [b.get("summary") for b in block.get("blockers") or () if isinstance(b, dict)]
    failed = [f"{a.get('summary')}: {a.get('reason')}"
              for a in block.get("failed_attempts") or () if isinstance(a, dict)]
    share = MAX_FIELD_CHARS // 4
    progress = ["Accepted:", *(_bullets(completed, link, share) or ["- none yet"]),
                "Unfinished:", *(_bullets(pending, link, share) or ["- none"]),
                "Blockers:", *(_bullets(blockers, link, share) or ["- none"])]
    if failed:
        progress += ["Failed attempts (do not repeat):", *_bullets(failed, link, share)]

    decisions = []
    for name in (_checkpoint.DECISIONS, _checkpoint.HAZARDS):
        if isinstance(narratives.get(name), str) and narratives[name].strip():
            decisions.append(f"{name}:\n{_cut(narratives[name], link, MAX_FIELD_CHARS // 2)}")

    leases = [f"lease {lease.get('lease_id')} on {lease.get('resource')} at fencing epoch "
              f"{lease.get('fencing_epoch')} until {lease.get('expires_at')}"
              for lease in block.get("leases") or () if isinstance(lease, dict)]
    operations = [f"operation {op.get('operation_id')} ({op.get('status')}): {op.get('summary')}"
                  for op in block.get("external_operations") or () if isinstance(op, dict)]
    live = _bullets(leases + operations, link)
    if source.live_work:
        live.append(_cut(source.live_work, link, MAX_FIELD_CHARS // 2))

    action = block.get("next_action") if isinstance(block.get("next_action"), dict) else {}
    inputs = [str(i) for i in action.get("required_inputs") or ()]
    next_text = f"Read {checkpoint_ref}, then: {action.get('summary') or UNKNOWN}"
    if inputs:
        next_text += f"\nRequired inputs: {', '.join(inputs)}"

    return {
        "GOAL_ID": str(block.get("goal_id")),
        "OUTCOME / ACCEPTANCE": _cut(str(block.get("outcome")), link),
        "AUTHORITY": "\n".join(authority),
        "POLICY": policy_text,
        "SOURCE": source_text,
        "WORKING_STATE": working,
        "PROGRESS": "\n".join(progress),
        "DECISIONS": "\n".join(decisions) or "None recorded.",
        "LIVE_WORK": "\n".join(live) or "No leases or external operations recorded.",
        "NEXT_SAFE_ACTION": _cut(next_text, link),
    }


def _shown(value) -> str:
    """A SOURCE fact on one line: a path or name with a line break or a control character is
    written as a JSON string (PKT-020), so it cannot open a line or a field of its own."""
    return _packet.shown_path(str(value)) if _packet.forbidden_char(str(value)) or "\n" in str(
        value) else str(value)


def _entries_kept(key: str, value: str) -> str:
    """``value`` wrapped, but for WORKING_STATE's ``- `` lines (its entries and the line
    naming the list file), kept whole (PKT-019): a path or digest never breaks over two lines."""
    if key != "WORKING_STATE":
        return _wrap(key, value)
    out, prose = [], []
    for line in value.split("\n"):
        if not line.startswith("- "):
            prose.append(line)
            continue
        if prose:
            out.append(_wrap(key if not out else "", "\n".join(prose)))
            prose = []
        out.append(line)
    if prose:
        out.append(_wrap(key if not out else "", "\n".join(prose)))
    return "\n".join(out)


def packet_text(values: dict[str, str], restart_id: str) -> tuple[str, str]:
    """The packet with its digest: ``(text, digest)``; the digest covers every field but
    CHECKPOINT_DIGEST, which carries it."""
    fields = [(key, _entries_kept(key, values[key])) for key in _packet.KEYS[:10]]
    fields.append(("RESTART_ID", restart_id))
    unsigned = _packet.render(fields)
    digest = _digest.digest_bytes(_digest.canonical_packet(unsigned))
    return _packet.render([*fields, ("CHECKPOINT_DIGEST", digest)]), digest


def render(directory: str | os.PathLike = ".", *, source: SourceFacts,
           registry_path: str | None = None, checkpoint_path: str | None = None,
           packet_path: str | None = None, restart_id: str | None = None,
           expect_revision: int | None = None, workspace: str | os.PathLike | None = None,
           environment: _working.Environment | None = None,
           unread: str | None = None) -> _store.Outcome:
    """Register the attempt, write the packet atomically, read it back and check its digest.

    SOURCE and WORKING_STATE are read fresh from the checkout ``workspace`` lies in (default:
    the packet's folder, as ``passdown ack write`` reads it), with the environment's harness
    (``environment``, default: this process's); a ``source`` branch, HEAD or checkout the
    readback contradicts is refused (``authoring.source_mismatch``) before anything changes.
    ``unread`` says why the checkout is not read at all (a caller bound to one folder inside
    it): both fields then say UNKNOWN with that reason.

    One locked step (AUT-080): the checkpoint's lock and the packet's are held from the
    checkpoint's read to the packet's readback, so the packet, the registered
    ``continue_checkpoint_digest`` and the checkpoint describe one revision, and a concurrent
    render never leaves a packet naming the attempt it superseded. ``expect_revision``
    applies to the registry, the file this step changes."""
    directory = os.fspath(directory)
    registry_path = _registry.locate(directory, registry_path)
    checkpoint_path = os.fspath(checkpoint_path or os.path.join(directory, _checkpoint.PATH))
    packet_path = os.fspath(packet_path or os.path.join(directory, _packet.TEXT_NAME))
    if not os.path.lexists(checkpoint_path):
        raise _store.missing_error(_store.CHECKPOINT, checkpoint_path)
    _fence.guard(registry_path)
    folder = os.fspath(workspace or os.path.dirname(os.path.abspath(packet_path)))
    checkout = _working.Checkout(os.path.abspath(folder), missing=unread) if unread else \
        _working.read(folder, registry_path=registry_path,
                      given=[packet_path, registry_path, checkpoint_path])
    contradicted = _working.disagreements(checkout, source)
    if contradicted:
        raise UsageError(f"the checkout read at {checkout.folder} has "
                         f"{'; '.join(contradicted)}", code="authoring.source_mismatch",
                         hint="leave out --branch, --head and --checkout: they are read from "
                              "the checkout (give them only where there is no checkout)")
    environment = environment if environment is not None else _working.from_environment()
    try:
        with _atomic.file_lock(checkpoint_path), _atomic.file_lock(packet_path):
            return _render_locked(registry_path, checkpoint_path, packet_path, source,
                                  restart_id, expect_revision, checkout, environment)
    except OSError as error:  # a lock that cannot be taken (the folder is not writable)
        raise _store.io_error(packet_path, error) from None


def _render_locked(registry_path, checkpoint_path, packet_path, source, restart_id,
                   expect_revision, checkout, environment):
    checkpoint = _store.read(checkpoint_path, _store.CHECKPOINT, valid=True)
    _checkpoint.check_open(checkpoint)
    _store.read(registry_path, _store.REGISTRY, valid=True)  # refused before anything changes
    packet_folder = os.path.dirname(os.path.abspath(packet_path))
    checkpoint_ref = os.path.relpath(checkpoint_path, packet_folder)
    list_path = os.path.join(packet_folder, _packet.WORKING_STATE_NAME)
    # the digest of the very document read above, never of a second read of the file
    continue_digest = _digest.digest_bytes(_digest.canonical_json(checkpoint))
    point("render.checkpoint_read")
    made: dict = {}

    def change(registry: dict) -> _store.Change:
        policy = _registry.policy_of(registry)
        goal = _checkpoint.block_of(checkpoint).get("goal_id")
        if goal != policy.get("goal_id"):
            raise RefusedError(f"the checkpoint's goal {goal!r} is not the registry's "
                               f"{policy.get('goal_id')!r}", code="authoring.goal_mismatch",
                               hint="point --registry and --checkpoint at the same goal's files")
        values = field_values(checkpoint, registry, source, checkpoint_ref=checkpoint_ref,
                              checkout=checkout, environment=environment)
        reuse = None if restart_id else _open_attempt_id(registry, source.source_id)
        candidate = restart_id or reuse or new_ulid()
        text, digest = packet_text(values, candidate)
        if reuse and not any(isinstance(a, dict) and a.get("restart_id") == reuse
                             and _attempt.same_content(a, source.source_id, digest,
                                                       continue_digest)
                             for a in registry.get("attempts") or ()):
            candidate = new_ulid()  # the content changed since that attempt: a new attempt
            text, digest = packet_text(values, candidate)
        made.update(text=text, digest=digest)
        return _attempt.register(registry, source_id=source.source_id, checkpoint_digest=digest,
                                 restart_id=candidate, continue_digest=continue_digest)

    registered = _store.update(registry_path, _store.REGISTRY, change, command="packet render",
                               expect_revision=expect_revision)
    point("render.registered")
    data = made["text"].encode("utf-8")
    try:
        unchanged = _files.read_prefix(packet_path, len(data) + 1) == data
    except (OSError, _files.FileRefused):  # missing, or no file to keep: written anew
        unchanged = False
    try:
        _write_list(list_path, checkout)
        if not unchanged:
            _atomic.atomic_write(packet_path, data, scratch=True)
        check = _readback(packet_path, made["digest"])
    except OSError as error:  # the attempt stays registered: rendering again reuses it
        raise _store.io_error(packet_path, error) from None
    restart = registered.result["restart_id"]
    return _store.Outcome(
        command="packet render", path=packet_path, changed=registered.changed or not unchanged,
        message=(f"packet for attempt {restart} written and read back"
                 if registered.changed else f"attempt {restart} reused; packet read back"),
        revision=registered.revision, previous_revision=registered.previous_revision,
        result={"restart_id": restart, "checkpoint_digest": check, "registry": registry_path,
                "checkpoint": checkpoint_path, _attempt.CONTINUE_DIGEST: continue_digest,
                "superseded": registered.result.get("superseded", []),
                "bytes": len(data), **_state_result(checkout, list_path)})


def _state_result(checkout: _working.Checkout, list_path: str) -> dict:
    """What the outcome says of the working state: the paths read, those the packet lists,
    and the list file when there is one (or why no checkout was read)."""
    if checkout.missing is not None:
        return {"working_state": {"checkout": None, "reason": checkout.missing}}
    return {"working_state": {"checkout": checkout.fingerprint, "paths": len(checkout.rows),
                              "listed": len(checkout.inline),
                              "list": list_path if checkout.overflow else None}}


def _write_list(list_path: str, checkout: _working.Checkout) -> None:
    """Write the list of every uncommitted path atomically when the packet links it, else
    remove a list an earlier render left (it no longer describes the checkout)."""
    if checkout.fingerprint is not None and checkout.overflow:
        data = _working.list_bytes(checkout)
        try:
            if _files.read_prefix(list_path, len(data) + 1) == data:
                return
        except (OSError, _files.FileRefused):
            pass
        with _atomic.file_lock(list_path):
            _atomic.atomic_write(list_path, data, scratch=True)
    elif os.path.lexists(list_path) and not os.path.isdir(list_path):
        os.unlink(list_path)


def _open_attempt_id(registry: dict, source_id: str) -> str | None:
    for attempt in registry.get("attempts") or ():
        if isinstance(attempt, dict) and attempt.get("state") == _attempt.REGISTERED \
                and attempt.get("source_id") == source_id:
            return attempt.get("restart_id")
    return None


def _readback(packet_path: str, digest: str) -> str:
    """Read the packet back from disk and check that it still has ``digest``."""
    raw = _files.read_regular(packet_path, _files.DEFAULT_MAX_BYTES)
    found = _digest.digest_bytes(_digest.canonical_packet(raw.decode("utf-8", "replace")))
    if found != digest:
        raise RefusedError(f"{packet_path}: the packet read back has digest {found}, not the "
                           f"registered {digest}", code="attempt.readback_mismatch",
                           hint="another writer replaced the packet: render it again")
    return digest
