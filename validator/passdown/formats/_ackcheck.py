"""Verifying an ACK against a fresh readback (spec/ack.md, "Verifying an ACK").

:func:`verify` is pure: it compares every field of the ACK with values read fresh by the
caller (the packet text, the registry, the continue checkpoint, the checkout and dirty-artifact
fingerprints, the time) and answers accepted, rejected with every failed rule's code, or
unusable. Reading files and git is the caller's job (the CLI, the handoff-folder rules); the
``ack`` gate feeds it JSON.
"""

from __future__ import annotations

from passdown._text import paint
from passdown.formats import _clock, _digest, _values
from passdown.formats._fastjson import shown, shown_from_difference

ACCEPTED = "accepted"
REJECTED = "rejected"
UNUSABLE = "unusable"
_EXIT = {ACCEPTED: 0, REJECTED: 1, UNUSABLE: 2}

CONTINUE_DIGEST = _digest.CONTINUE_DIGEST_FIELD
#: Which attempt states accept which ACK status.
_STATES_FOR_STATUS = {
    "READY_READONLY": ("created", "acknowledged"),
    "TAKEOVER": ("committed", "taken_over"),
}
#: Every rule: (code, requirement, summary, fix hint), in the order the rules run and the
#: spec lists them.
RULES = (
    ("ack.wrong_status", "ACK-101", "the ACK's status is one the attempt's state accepts",
     "a READY_READONLY ACK answers a created attempt, a TAKEOVER report a committed one"),
    ("ack.goal_mismatch", "ACK-102", "the ACK names the goal of the packet, registry and checkpoint",
     "the target read another goal's files: send it this packet again"),
    ("ack.restart_mismatch", "ACK-103", "the ACK names the packet's RESTART_ID, registered once",
     "the ACK answers another attempt: wait for the ACK of this one"),
    ("ack.source_mismatch", "ACK-104", "the ACK names the attempt's source session",
     "the ACK answers a handoff from another session"),
    ("ack.target_mismatch", "ACK-105", "the ACK comes from the attempt's confirmed target",
     "only the successor whose creation was confirmed may acknowledge"),
    ("ack.digest_mismatch", "ACK-106", "the ACK's checkpoint_digest is the packet's digest now",
     "the target read another packet, or the packet changed since: send the packet again"),
    ("ack.packet_digest_mismatch", "ACK-107", "the packet's CHECKPOINT_DIGEST is its digest now",
     "the packet changed after its digest was written: register a new attempt"),
    ("ack.registry_digest_mismatch", "ACK-108", "the attempt's registered digest is the packet's digest now",
     "the packet changed after registration: register a new attempt"),
    ("ack.digest_unconfirmed", "ACK-109", "every digest compared is well-formed and verifiable",
     "write digests as blake3:<64 lowercase hex> (or sha256)"),
    ("ack.checkpoint_changed", "ACK-110", "the continue checkpoint is the one the attempt registered",
     "the checkpoint changed since registration: render a new packet and attempt"),
    ("ack.stale", "ACK-111", "the ACK was read after the attempt and the checkpoint's last write",
     "ask the target for a fresh readback"),
    ("ack.read_in_future", "ACK-112", "the ACK's read time is not later than now plus the clock-skew tolerance",
     "check the target host's clock, then ask for a fresh readback"),
    ("ack.next_action_mismatch", "ACK-113", "the ACK's first_safe_action is the packet's NEXT_SAFE_ACTION",
     "the target must start with the packet's next safe action"),
    ("ack.checkout_mismatch", "ACK-114", "the ACK read the checkout as it is now",
     "the checkout moved since the ACK (or the target read another): ask for a fresh readback"),
    ("ack.dirty_mismatch", "ACK-115", "the ACK's dirty artifacts are the checkout's dirty files now",
     "uncommitted work changed since the ACK: ask for a fresh readback"),
    ("ack.takeover_mismatch", "ACK-116", "a TAKEOVER report matches the committed ownership",
     "read the ownership record back again before reporting takeover"),
)
CODES = tuple(code for code, *_ in RULES)
#: The codes a handoff folder reports (no workspace, no clock; the packet-side and
#: registry-side digests have their own cross-file rules).
#: (``ack.digest_unconfirmed`` too: each file's own rules report a malformed or unverifiable digest.)
FOLDER_CODES = tuple(code for code in CODES if code not in (
    "ack.packet_digest_mismatch", "ack.registry_digest_mismatch", "ack.checkpoint_changed",
    "ack.digest_unconfirmed", "ack.read_in_future", "ack.checkout_mismatch", "ack.dirty_mismatch"))
#: How far (seconds) a read_at may lie after the verifier's clock before it is
#: ``ack.read_in_future`` (ACK-112): two hosts' clocks disagree by this much in practice.
CLOCK_SKEW_SECONDS = 5
#: The file names of a handoff's own files in its folder (the artifact kinds packet and its
#: working-state list, registry, ACK, handoff record, pending confirmation and relaunch
#: receipt): the dirty-artifact fingerprint leaves them out (ACK-128). A ``*`` stands for
#: any text.
OWN_FILE_NAMES = ("continuation.packet.txt", "continuation.packet.json",
                  "continuation.working-state.txt", "registry.json", "registry.yaml",
                  "registry.yml", "ack.json", "handoff.json", "handoff.pending.json",
                  "relaunch-receipt.json", "*.relaunch-receipt.json")
#: The folder beside a file that holds Passdown's locks and temporary files.
BOOKKEEPING_FOLDER = ".passdown"


def is_own_file_name(name):
    """Whether the file name ``name`` is one of :data:`OWN_FILE_NAMES`."""
    return any(name == pattern or (pattern.startswith("*") and name.endswith(pattern[1:])
                                   and len(name) > len(pattern) - 1)
               for pattern in OWN_FILE_NAMES)


class Failure:
    """One failed rule: its code, the field compared (``ack.goal_id``) and what differs.
    ``values``: the whole list a message names only in part (dirty paths), so the JSON form
    carries it in full while the text form may cut it."""

    __slots__ = ("code", "field", "message", "values")

    def __init__(self, code, field, message, values=None):
        self.code = code
        self.field = field
        self.message = message
        self.values = values

    def __eq__(self, other):
        return isinstance(other, Failure) and (self.code, self.field, self.message) == (
            other.code, other.field, other.message)

    def __hash__(self):
        return hash((self.code, self.field, self.message))

    def __repr__(self):
        return f"Failure({self.code!r}, {self.field!r}, {self.message!r})"

    def to_dict(self):
        return {"code": self.code, "field": self.field, "message": self.message,
                **({} if self.values is None else {"values": list(self.values)})}


class Verdict:
    """The answer: ``outcome`` (accepted, rejected, unusable), the failures, and the parts
    of the readback that were not given and so not compared (``skipped``)."""

    __slots__ = ("outcome", "failures", "skipped")

    def __init__(self, outcome, failures=(), skipped=()):
        self.outcome = outcome
        self.failures = tuple(failures)
        self.skipped = tuple(skipped)

    @property
    def accepted(self):
        return self.outcome == ACCEPTED

    @property
    def codes(self):
        return sorted({failure.code for failure in self.failures})

    @property
    def exit_code(self):
        return _EXIT[self.outcome]

    def to_dict(self, *, details=False):
        out = {"outcome": self.outcome, "codes": self.codes, "skipped": sorted(set(self.skipped))}
        if details:
            out["failures"] = [failure.to_dict() for failure in self.failures]
        return out


#: Why a part of the readback was not compared, as ``passdown ack verify`` says it.
SKIPPED_BECAUSE = {
    "checkout": "checkout fingerprint not compared (no --workspace)",
    "dirty_artifacts": "dirty-artifact fingerprint not compared (no --workspace)",
    "checkpoint": "no single attempt names the ACK's restart id: no checkpoint digest to compare",
    "clock": "read_at not compared with the clock",
}


def text_report(ack_path, verdict, *, quiet=False, color=False, read=None):
    """``passdown ack verify``'s text output (no final newline; empty when there is nothing
    to say): ``read`` lists ``(what, path)`` first (``--verbose``), then the verdict line
    (left out when ``quiet`` and accepted), each failure, and unless ``quiet`` a note per
    part not compared."""
    lines = [f"read {what}: {path}" for what, path in read or ()]
    if not (quiet and verdict.accepted):
        severity = "ok" if verdict.accepted else "error"
        lines.append(f"{ack_path}: {paint(severity, verdict.outcome, color)}")
    lines += [f"  {paint('code', failure.code, color)}: {failure.field}: {failure.message}"
              for failure in verdict.failures]
    if not quiet:
        lines += [f"  note: {SKIPPED_BECAUSE[part]}" for part in verdict.skipped]
    return "\n".join(lines)


def unusable(field, message):
    return Verdict(UNUSABLE, [Failure("ack.input_invalid", field, message)])


def verify(ack, packet_text, registry, *, checkout=None, dirty=None, checkpoint=None, now=None,
           clock_skew=None):
    """Compare ``ack`` with the fresh readback and answer a :class:`Verdict`.

    ``checkout`` (``{repository, branch, head}``), ``dirty`` (``[{path, digest}]``),
    ``checkpoint`` (the continue checkpoint document) and ``now`` (an RFC 3339 timestamp)
    may be ``None``: their rules are then skipped and listed in ``skipped``. ``clock_skew``
    is the tolerance, in seconds, for a ``read_at`` after ``now`` (default
    :data:`CLOCK_SKEW_SECONDS`)."""
    for name, value, kinds in (("ack", ack, dict), ("packet_text", packet_text, str),
                               ("registry", registry, dict), ("checkout", checkout, (dict, type(None))),
                               ("dirty", dirty, (list, type(None))),
                               ("checkpoint", checkpoint, (dict, type(None))),
                               ("now", now, (str, type(None)))):
        if not isinstance(value, kinds):
            return unusable(name, f"{name} has the wrong type")
    if dirty is not None and _dirty_map(dirty) is None:
        return unusable("dirty", "dirty is not a list of distinct {path, digest} entries")
    now_time = _timestamp(now) if now is not None else None
    if now is not None and now_time is None:
        return unusable("now", "now is not an RFC 3339 timestamp with an offset")
    skew = _skew(CLOCK_SKEW_SECONDS if clock_skew is None else clock_skew)
    if skew is None:
        return unusable("clock_skew", "clock_skew is not a number of seconds, 0 or more")
    return _Check(ack, packet_text, registry, checkout, dirty, checkpoint, now_time, skew).run()


def _skew(value):
    """``value`` (seconds) as an exact number, or ``None`` when it is not one, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e9:
        return None
    from fractions import Fraction

    return Fraction(value)


class _Check:
    def __init__(self, ack, packet_text, registry, checkout, dirty, checkpoint, now, skew):
        from passdown.formats import _packet

        self.ack = ack
        self.packet_text = packet_text
        self.packet = _packet.parse(packet_text).values()
        self.registry = registry
        self.checkout = checkout
        self.dirty = dirty
        self.checkpoint = checkpoint
        self.block = checkpoint.get("x-passdown/checkpoint") if checkpoint is not None else None
        self.now = now
        self.skew = skew
        self.failures = []
        self.skipped = []
        self.attempt = find_attempt(registry, ack.get("restart_id"))
        self._canonical = None

    def fail(self, code, field, message, values=None):
        self.failures.append(Failure(code, field, message, values))

    def run(self):
        for rule in (self.status, self.goal, self.restart, self.source, self.target, self.digests,
                     self.continue_checkpoint, self.freshness, self.next_action, self.checkout_rule,
                     self.dirty_rule, self.takeover):
            rule()
        return Verdict(REJECTED if self.failures else ACCEPTED, self.failures, self.skipped)

    # -- identity -----------------------------------------------------------------------------

    def status(self):
        status = self.ack.get("status")
        states = _STATES_FOR_STATUS.get(status) if isinstance(status, str) else None
        if states is None:
            self.fail("ack.wrong_status", "ack.status",
                      f"the ACK status is {shown(status)}, not READY_READONLY or TAKEOVER")
            return
        state = self.attempt.get("state") if self.attempt else None
        if self.attempt is not None and state not in states:
            self.fail("ack.wrong_status", "ack.status",
                      f"a {status} ACK is not accepted while the attempt's state is {shown(state)} "
                      f"(expected {' or '.join(states)})")

    def goal(self):
        goal = self.ack.get("goal_id")
        policy = self.registry.get("policy")
        for field, fresh in (("packet GOAL_ID", self.packet.get("GOAL_ID")),
                             ("registry policy.goal_id",
                              policy.get("goal_id") if isinstance(policy, dict) else None),
                             ("checkpoint goal_id", self._block_value("goal_id"))):
            if fresh is _SKIP:
                continue
            if goal != fresh:
                self.fail("ack.goal_mismatch", "ack.goal_id",
                          f"the ACK names goal {shown(goal)}, the {field} is {shown(fresh)}")

    def restart(self):
        restart_id = self.ack.get("restart_id")
        packet_id = self.packet.get("RESTART_ID")
        if restart_id != packet_id:
            self.fail("ack.restart_mismatch", "ack.restart_id",
                      f"the ACK names restart {shown(restart_id)}, the packet's RESTART_ID is {shown(packet_id)}")
        if self.attempt is None:
            self.fail("ack.restart_mismatch", "ack.restart_id",
                      f"the registry holds no single attempt with restart id {shown(restart_id)}")

    def source(self):
        if self.attempt is None:
            return
        source, fresh = self.ack.get("source_id"), self.attempt.get("source_id")
        if source != fresh:
            self.fail("ack.source_mismatch", "ack.source_id",
                      f"the ACK names source {shown(source)}, the attempt's source is {shown(fresh)}")

    def target(self):
        if self.attempt is None:
            return
        target = self.ack.get("target_id")
        fresh = self.attempt.get("target_id")
        if fresh is None or target != fresh:
            self.fail("ack.target_mismatch", "ack.target_id",
                      f"the ACK names target {shown(target)}, the attempt's target is {shown(fresh)}")
        creation = self.attempt.get("creation")
        receipt = creation.get("receipt") if isinstance(creation, dict) else None
        if isinstance(receipt, dict) and receipt.get("target_id") != target:
            self.fail("ack.target_mismatch", "ack.target_id",
                      f"the ACK names target {shown(target)}, the creation receipt names "
                      f"{shown(receipt.get('target_id'))}")

    # -- digests ------------------------------------------------------------------------------

    def canonical_packet(self):
        if self._canonical is None:
            self._canonical = _digest.canonical_packet(self.packet_text)
        return self._canonical

    def digests(self):
        checks = [("ack.digest_mismatch", "ack.checkpoint_digest", self.ack.get("checkpoint_digest"),
                   "the ACK's checkpoint_digest"),
                  ("ack.packet_digest_mismatch", "packet CHECKPOINT_DIGEST",
                   self.packet.get("CHECKPOINT_DIGEST"), "the packet's CHECKPOINT_DIGEST")]
        if self.attempt is not None:
            checks.append(("ack.registry_digest_mismatch", "attempt.checkpoint_digest",
                           self.attempt.get("checkpoint_digest"),
                           "the digest registered for the attempt"))
        try:
            canonical = self.canonical_packet()
        except _digest.DigestError as error:
            self.fail("ack.digest_mismatch", "packet", f"the packet cannot be hashed: {error.message}")
            return
        for code, field, stated, label in checks:
            self._compare_digest(code, field, stated, canonical, label, "the packet as read now")

    def _compare_digest(self, code, field, stated, canonical, label, what):
        problem = _digest.check_digest(stated, canonical)
        if problem is None:
            return
        if problem == "digest.mismatch":
            self.fail(code, field, f"{label} {stated} is not the digest of {what}")
        elif problem == "digest.unknown_algorithm":
            self.fail("ack.digest_unconfirmed", field,
                      f"{label} {stated} uses an algorithm Passdown cannot verify")
        else:
            self.fail("ack.digest_unconfirmed", field, f"{label} {shown(stated)} is not a digest string")

    def continue_checkpoint(self):
        if self.attempt is None:
            self.skipped.append("checkpoint")  # ACK-103 failed: no attempt to read it from
            return
        stated = self.attempt.get(CONTINUE_DIGEST)
        if stated is None:
            self.fail("ack.checkpoint_changed", f"attempt.{CONTINUE_DIGEST}",
                      "the attempt records no continue_checkpoint_digest, so nothing confirms "
                      "that the continue checkpoint is the one the packet was rendered from")
            return
        if self.checkpoint is None:
            self.fail("ack.checkpoint_changed", "checkpoint",
                      "the attempt records the continue checkpoint's digest, but no checkpoint "
                      "was read to confirm it is unchanged")
            return
        try:
            canonical = _digest.canonical_json(self.checkpoint)
        except _digest.DigestError as error:
            self.fail("ack.checkpoint_changed", "checkpoint",
                      f"the continue checkpoint cannot be hashed: {error.message}")
            return
        problem = _digest.check_digest(stated, canonical)
        if problem == "digest.mismatch":
            self.fail("ack.checkpoint_changed", f"attempt.{CONTINUE_DIGEST}",
                      "the continue checkpoint changed since the attempt was registered")
        elif problem is not None:
            self._compare_digest("ack.checkpoint_changed", f"attempt.{CONTINUE_DIGEST}", stated,
                                 canonical, "the registered continue checkpoint digest",
                                 "the continue checkpoint")

    # -- time ---------------------------------------------------------------------------------

    def freshness(self):
        read_at = _timestamp(self.ack.get("read_at"))
        if read_at is None:
            self.fail("ack.stale", "ack.read_at",
                      f"the ACK's read_at {shown(self.ack.get('read_at'))} is not a timestamp with an "
                      "offset, so its freshness cannot be measured")
            return
        bounds = [("the attempt was registered",
                   self.attempt.get("registered_at") if self.attempt else None),
                  ("the checkpoint was last written", self._block_value("written_at"))]
        for event, stamp in bounds:
            if stamp is _SKIP or stamp is None:
                continue
            moment = _timestamp(stamp)
            if moment is None:
                self.fail("ack.stale", "ack.read_at",
                          f"cannot tell whether the ACK is older than when {event} ({shown(stamp)})")
            elif read_at < moment:
                self.fail("ack.stale", "ack.read_at",
                          f"the ACK was read at {self.ack.get('read_at')}, before {event} ({stamp})")
        if self.now is None:
            self.skipped.append("clock")
        elif read_at > self.now + self.skew:
            self.fail("ack.read_in_future", "ack.read_at",
                      f"the ACK claims a read at {self.ack.get('read_at')}, more than "
                      f"{float(self.skew):g} s after now")

    # -- content ------------------------------------------------------------------------------

    def next_action(self):
        action, fresh = self.ack.get("first_safe_action"), self.packet.get("NEXT_SAFE_ACTION")
        if not isinstance(action, str) or fresh is None or _values.words(action) != _values.words(fresh):
            self.fail("ack.next_action_mismatch", "ack.first_safe_action",
                      f"the ACK's first_safe_action {shown_from_difference(action, fresh)} is "
                      f"not the packet's NEXT_SAFE_ACTION {shown_from_difference(fresh, action)}")

    def checkout_rule(self):
        if self.checkout is None:
            self.skipped.append("checkout")
            return
        stated = self.ack.get("checkout")
        stated = stated if isinstance(stated, dict) else {}
        for part in ("repository", "branch", "head"):
            if stated.get(part) != self.checkout.get(part):
                self.fail("ack.checkout_mismatch", f"ack.checkout.{part}",
                          f"the ACK read {part} {shown(stated.get(part))}, the checkout has "
                          f"{shown(self.checkout.get(part))}")

    def dirty_rule(self):
        if self.dirty is None:
            self.skipped.append("dirty_artifacts")
            return
        stated = _dirty_map(self.ack.get("dirty_artifacts"))
        fresh = _dirty_map(self.dirty)
        if stated is None:
            self.fail("ack.dirty_mismatch", "ack.dirty_artifacts",
                      "the ACK's dirty_artifacts is not a list of distinct {path, digest} entries")
            return
        missing = sorted(set(fresh) - set(stated))
        extra = sorted(set(stated) - set(fresh))
        changed = sorted(p for p in set(stated) & set(fresh)
                         if not _digest.same_digest(stated[p], fresh[p]))
        for label, paths in (("dirty now but not in the ACK", missing),
                             ("in the ACK but not dirty now", extra),
                             ("changed since the ACK was read", changed)):
            if paths:
                listed = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
                self.fail("ack.dirty_mismatch", "ack.dirty_artifacts", f"{label}: {listed}",
                          values=paths)

    def takeover(self):
        if self.ack.get("status") != "TAKEOVER":
            return
        report = self.ack.get("takeover")
        ownership = self.attempt.get("ownership") if self.attempt else None
        if not isinstance(report, dict) or not isinstance(ownership, dict):
            self.fail("ack.takeover_mismatch", "ack.takeover",
                      "a TAKEOVER report needs its takeover readback and a committed ownership record")
            return
        target = self.ack.get("target_id")
        for field, stated, fresh in (("owner_id", report.get("owner_id"), ownership.get("to_id")),
                                     ("owner_id", report.get("owner_id"), target),
                                     ("fencing_epoch", report.get("fencing_epoch"),
                                      ownership.get("fencing_epoch")),
                                     ("committed_at", report.get("committed_at"),
                                      ownership.get("committed_at")),
                                     ("checkpoint_revision", report.get("checkpoint_revision"),
                                      self._block_value("revision"))):
            if fresh is not _SKIP and stated != fresh:
                self.fail("ack.takeover_mismatch", f"ack.takeover.{field}",
                          f"the takeover report reads {field} {shown(stated)}, the readback has {shown(fresh)}")

    def _block_value(self, name):
        """A value of the checkpoint's ``x-passdown/checkpoint`` block, or ``_SKIP`` with no checkpoint."""
        if self.checkpoint is None:
            return _SKIP
        return self.block.get(name) if isinstance(self.block, dict) else None


_SKIP = object()


def find_attempt(registry, restart_id):
    """The registry's single attempt with ``restart_id``, else ``None`` (ACK-103)."""
    attempts = registry.get("attempts")
    if not isinstance(attempts, list) or not isinstance(restart_id, str):
        return None
    matches = [a for a in attempts if isinstance(a, dict) and a.get("restart_id") == restart_id]
    return matches[0] if len(matches) == 1 else None


def _dirty_map(entries):
    if not isinstance(entries, list):
        return None
    out = {}
    for entry in entries:
        if not isinstance(entry, dict):
            return None
        path, digest = entry.get("path"), entry.get("digest")
        if not isinstance(path, str) or not isinstance(digest, str) or path in out:
            return None
        out[path] = digest
    return out


def _timestamp(text):
    """An RFC 3339 timestamp with an offset as exact seconds since the epoch (every digit of
    its fraction kept: ACK-111 and ACK-112 compare at full precision), else ``None``."""
    return _clock.parse_exact(text)
