"""Recording a packet's digest in the registry attempt that names it.

One step of the authoring store (:func:`passdown.authoring._store.update`): a locked
read-modify-write with a compare-and-swap on the registry's ``revision``, so a writer that read
an older revision loses with a conflict, never a lost update; the registry is edited in place
(:mod:`passdown.workspace._editing`: comments, key order, quoting and indentation kept). The refusals carry
this command's ``digest.*`` codes.
"""

from __future__ import annotations

import os

from passdown.formats import _digest
from passdown.workspace import _editing
from passdown.errors import ConflictError, RefusedError, UnreadableInput

#: Where the registry keeps its attempts, and the fields of one attempt this module writes.
ATTEMPTS = "attempts"
RESTART_ID = "restart_id"
CHECKPOINT_DIGEST = "checkpoint_digest"
CONTINUE_DIGEST = _digest.CONTINUE_DIGEST_FIELD


class Recorded:
    """What a record step did: the attempt's digests and the revision before and after."""

    __slots__ = ("path", "restart_id", "digests", "previous_revision", "revision")

    def __init__(self, path, restart_id, digests, previous_revision, revision):
        self.path = path
        self.restart_id = restart_id
        self.digests = digests
        self.previous_revision = previous_revision
        self.revision = revision

    @property
    def changed(self):
        return self.revision != self.previous_revision

    def to_dict(self):
        return {"registry": self.path, "restart_id": self.restart_id, "changed": self.changed,
                "previous_revision": self.previous_revision, "revision": self.revision,
                **self.digests}


def record_digests(registry_path, restart_id, digests, *, expect_revision=None, timeout=10.0):
    """Set ``digests`` (field -> digest string) on the attempt ``restart_id`` of the registry
    at ``registry_path``, bumping its revision by one; nothing changes (and the revision stays)
    when the attempt already holds exactly these digests.

    Raises :class:`ConflictError` (``digest.revision_conflict``) when ``expect_revision`` is
    not the current revision, :class:`RefusedError` when the attempt is missing
    (``digest.unknown_attempt``) or already holds another digest (``digest.already_recorded``),
    and :class:`UnreadableInput` when the registry cannot be read."""
    from passdown.authoring import _store

    registry_path = os.fspath(registry_path)
    syntax = "yaml" if registry_path.lower().endswith((".yaml", ".yml")) else "json"

    def change(document):
        attempt = _find_attempt(document, restart_id, registry_path)
        pending = {}
        for field, digest in digests.items():
            current = attempt.get(field)
            if current == digest:
                continue
            if current is not None and not (isinstance(current, str) and not current.strip()):
                raise RefusedError(
                    f"{registry_path}: attempt {restart_id} already records {field} {current}",
                    code="digest.already_recorded",
                    hint="a registered digest never changes: register a new restart attempt "
                         "for changed content")
            pending[field] = digest
        _editing.set_beside(attempt, pending, after=CHECKPOINT_DIGEST)
        return _store.Change()

    outcome = _store.update(registry_path, _store.REGISTRY, change, command="digest",
                            expect_revision=expect_revision, validate=False, syntax=syntax,
                            refusals=_digest_refusals(), timeout=timeout)
    return Recorded(registry_path, restart_id, dict(digests), outcome.previous_revision,
                    outcome.revision)


def _digest_refusals():
    """The store's refusals worded with this command's codes."""
    from passdown.authoring._store import Refusals

    where = "pass the path of registry.json or registry.yaml"

    class DigestRefusals(Refusals):
        too_large_hint = "keep the registry within the bound"

        def missing(self, kind, path):
            return UnreadableInput(f"{path}: no registry here", code="load.unreadable", hint=where)

        def unusable(self, kind, path, error):
            if isinstance(error, IsADirectoryError):
                return UnreadableInput(f"{path} is a directory", code="load.unreadable", hint=where)
            return super().unusable(kind, path, error)

        def not_an_object(self, kind, path):
            return self.no_revision(kind, path)

        def no_revision(self, kind, path, value=None):
            return RefusedError(f"{path}: the registry has no non-negative integer revision",
                                code="digest.no_revision", hint="run `passdown validate` on the registry")

        def conflict(self, kind, path, current, expected):
            return ConflictError(f"{path}: the revision is {current}, not the expected {expected}",
                                 code="digest.revision_conflict",
                                 hint="read the registry again and retry with its current revision")

    return DigestRefusals()


def _find_attempt(document, restart_id, path):
    attempts = document.get(ATTEMPTS)
    matches = [a for a in attempts if isinstance(a, dict) and a.get(RESTART_ID) == restart_id] \
        if isinstance(attempts, list) else []
    if len(matches) != 1:
        problem = "no attempt" if not matches else "more than one attempt"
        raise RefusedError(f"{path}: {problem} with restart id {restart_id!r}",
                           code="digest.unknown_attempt",
                           hint="register the attempt first (`passdown packet`), then record its digest")
    return matches[0]


def record_packet(registry_path, restart_id, packet_path, *, checkpoint_path=None,
                  algorithm=_digest.DEFAULT_ALGORITHM, expect_revision=None):
    """Record the packet's digest (and, given ``checkpoint_path``, the continue checkpoint's)
    on attempt ``restart_id``. A packet whose own ``CHECKPOINT_DIGEST`` holds a digest that
    disagrees with its content is refused (``digest.mismatch``)."""
    from passdown.formats import _packet
    from passdown.workspace._readback import load_file

    text = _digest.packet_text(load_file(packet_path, "text").text, packet_path)
    canonical = _digest.canonical_packet(text)
    stated = _packet.parse(text).values().get(_digest.DIGEST_FIELD)
    if stated and _digest.check_digest(stated, canonical) == "digest.mismatch":
        raise RefusedError(f"{packet_path}: its CHECKPOINT_DIGEST {stated} does not match its content",
                           code="digest.mismatch",
                           hint="fix or empty the CHECKPOINT_DIGEST line, then record again")
    digests = {CHECKPOINT_DIGEST: _digest.digest_bytes(canonical, algorithm)}
    if checkpoint_path is not None:
        digests[CONTINUE_DIGEST] = _digest.digest_file(checkpoint_path, algorithm, form="jcs")
    return record_digests(registry_path, restart_id, digests, expect_revision=expect_revision)
