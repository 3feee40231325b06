"""The one way authoring commands change a file: read-modify-write under the file's lock, a
compare-and-swap on the document's revision, an atomic write, and the revision bumped by
exactly one. A change that leaves the document as it was writes nothing and keeps the
revision, which is what makes repeated hook calls idempotent.

Creation (``create``) is the other half: an exclusive create that never replaces a file.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from passdown.formats import _fastjson
from passdown.formats._values import MAX_SAFE_INTEGER
from passdown.workspace import _atomic, _editing
from passdown.errors import PassdownError, ConflictError, RefusedError, UnreadableInput
from passdown.authoring import _document

#: Seconds a writer waits for another writer's lock before giving up (``lock_timeout``).
LOCK_TIMEOUT = 10.0

CHECKPOINT = "checkpoint"
REGISTRY = "registry"
#: Where each kind keeps its revision.
_REVISION_AT = {CHECKPOINT: ("x-passdown/checkpoint", "revision"), REGISTRY: ("revision",)}


@dataclass(frozen=True)
class Outcome:
    """What one command did. ``to_dict`` is the stable ``--format json`` shape."""

    command: str
    path: str
    changed: bool
    message: str
    revision: int | None = None
    previous_revision: int | None = None
    result: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "ok": True,
            "command": self.command,
            "path": self.path,
            "changed": self.changed,
            "revision": self.revision,
            "previous_revision": self.previous_revision,
            "message": self.message,
            "result": self.result,
        }


@dataclass
class Change:
    """Filled in by a change function: what to report. Mutate the document in place."""

    message: str = ""
    result: dict = field(default_factory=dict)
    unchanged_message: str | None = None  # shown instead of ``message`` when nothing changed


class Refusals:
    """The errors :func:`update` raises when it cannot change a file: the authoring
    commands' codes. A command family with codes of its own passes a subclass."""

    too_large_hint = "split the content or link large evidence instead of copying it"

    def missing(self, kind: str, path: str) -> PassdownError:
        return missing_error(kind, path)

    def unusable(self, kind: str, path: str, error: OSError) -> PassdownError:
        return io_error(path, error)

    def not_an_object(self, kind: str, path: str) -> PassdownError:
        return RefusedError(f"{path}: the document is not an object",
                            code="authoring.not_an_object",
                            hint="run `passdown validate` on it to see what is wrong")

    def no_revision(self, kind: str, path: str, value=None) -> PassdownError:
        """The revision is missing (``value`` None), not an integer, or negative."""
        where = _REVISION_AT[kind]
        shown = ".".join(f'["{key}"]' if "/" in key else key for key in where)
        if value is None:
            return RefusedError(
                f"{path}: {shown} is missing",
                code="authoring.no_revision",
                hint="the file was not written by Passdown: run `passdown validate` on it, and "
                     "`passdown migrate` for a legacy vBRIEF checkpoint",
            )
        return RefusedError(
            f"{path}: {shown} is {_fastjson.shown(value)}, not a non-negative integer",
            code="authoring.no_revision",
            hint=f"a revision counts the file's writes: set {shown} to the last revision it had "
                 "(a whole number, 0 or more), then run `passdown validate` on the file",
        )

    def revision_range(self, kind: str, path: str, current: int) -> PassdownError:
        return RefusedError(
            f"{path}: the {kind}'s revision {current} cannot grow: the next one would be "
            "beyond 2**53 - 1, where a digest cannot hold it",
            code="authoring.revision_range",
            hint=f"Passdown never writes a revision this high: restore the {kind} from version "
                 "control, or start a new one",
        )

    def conflict(self, kind: str, path: str, current: int, expected: int) -> PassdownError:
        return ConflictError(
            f"{path}: the revision is {current}, not the expected {expected}",
            code="authoring.revision_conflict",
            hint="read the file again (`show`) and retry with the current revision",
        )


_AUTHORING = Refusals()


#: The one command that gives a plain checkpoint its block, as every hint names it (CKP-028).
ADOPT_HINT = ("run `passdown init --outcome TEXT` in the handoff folder (TEXT: what must be "
              "delivered and how it is checked): it adds the block to the existing checkpoint and "
              "keeps every item; beside a registry it takes the goal, the session and the fencing "
              "epoch from the registry and leaves the registry as it is, and without one it also "
              "needs --goal-id and --main-id and creates the registry")


def plain_checkpoint(path: str) -> RefusedError:
    """The refusal of a command that needs the ``x-passdown/checkpoint`` block, for a plain
    xBRIEF continue checkpoint without it (spec/checkpoint.md, CKP-028)."""
    return RefusedError(f"{path} is a plain xBRIEF continue checkpoint, without the "
                        "'x-passdown/checkpoint' block this command needs (the session identity "
                        "the restart machinery reads)", code="authoring.plain_checkpoint",
                        hint=ADOPT_HINT)


def is_plain(document) -> bool:
    """Whether ``document`` is an xBRIEF 0.8 checkpoint with no Passdown block at all (a legacy
    one without it is told to migrate instead)."""
    info = document.get("xBRIEFInfo") if isinstance(document, dict) else None
    return (isinstance(info, dict) and info.get("version") == "0.8"
            and _REVISION_AT[CHECKPOINT][0] not in document)


def revision_of(document, kind: str, path: str, refusals: Refusals = _AUTHORING) -> int:
    """The document's revision: a non-negative integer, or a refusal saying how to fix it."""
    node = document
    for key in _REVISION_AT[kind]:
        node = node.get(key) if isinstance(node, dict) else None
    # not ``type(node) is int``: round-trip YAML reads ``0`` as an int subclass
    if not isinstance(node, int) or isinstance(node, bool) or node < 0:
        if node is None and kind == CHECKPOINT and is_plain(document):
            raise plain_checkpoint(path)
        raise refusals.no_revision(kind, path, node)
    return int(node)


def _set_revision(document, kind: str, value: int) -> None:
    *parents, last = _REVISION_AT[kind]
    node = document
    for key in parents:
        node = node[key]
    node[last] = value


def _fingerprint(document) -> str:
    """The document as compact JSON text, to tell whether a change changed anything (not
    ``==``: in Python ``1 == 1.0 == True``, three different JSON values; and no deep copy)."""
    return json.dumps(document, allow_nan=True, ensure_ascii=False)


def missing_error(kind: str, path: str) -> PassdownError:
    if kind == CHECKPOINT:
        legacy = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(path))),
                              "vbrief", "continue.vbrief.json")
        hint = ("a legacy checkpoint exists: run `passdown migrate` to convert it"
                if os.path.isfile(legacy) else
                "run `passdown init` to create the checkpoint and the registry")
        return UnreadableInput(f"{path}: no checkpoint here yet", code="authoring.no_checkpoint",
                               hint=hint)
    if kind == REGISTRY:
        return UnreadableInput(f"{path}: no registry here yet", code="authoring.no_registry",
                               hint="run `passdown init` to create the registry, or pass --registry")
    return UnreadableInput(f"{path}: no such file", code="load.unreadable",
                           hint="check the path")


def read_bytes(path: str | os.PathLike, kind: str) -> bytes:
    """The bytes of the ``kind`` file at ``path``, within the size bound; a missing file is
    the kind's missing error, any other problem its loading code."""
    path = os.fspath(path)
    try:
        return _document.read_file(path)
    except FileNotFoundError:
        raise missing_error(kind, path) from None
    except OSError as error:
        raise io_error(path, error) from None


def read(path: str | os.PathLike, kind: str, *, valid: bool = False) -> dict:
    """Load a document for reading only (``show``, packet rendering, ``ack write``): an
    object, or ``authoring.not_an_object``. With ``valid`` the document must also validate
    (``authoring.invalid_input``), checked on the same bytes that are returned as data."""
    path = os.fspath(path)
    raw = read_bytes(path, kind)
    document = _editing.parse(raw, source=path, syntax=_document.syntax_of(path))
    if not isinstance(document, dict):
        raise _AUTHORING.not_an_object(kind, path)
    if valid:
        require_valid_bytes(kind, raw, path)
    return document


@contextlib.contextmanager
def shape_guard(kind: str, path: str):
    """Run code that reads members of the ``kind`` document at ``path``: a member of the
    wrong type becomes ``authoring.bad_shape`` (with the validator's codes) when the file
    does not validate; on a valid file it stays the defect it is."""
    try:
        yield
    except (AttributeError, TypeError, KeyError, IndexError) as error:
        try:
            raw = read_bytes(path, kind)
        except PassdownError:
            raise error from None
        _explain_shape(kind, raw, path, error)
        raise


def update(path: str | os.PathLike, kind: str, change: Callable[[dict], Change], *,
           command: str, expect_revision: int | None = None,
           finish: Callable[[dict], None] | None = None,
           validate: bool = True,
           syntax: str | None = None,
           refusals: Refusals = _AUTHORING,
           timeout: float = LOCK_TIMEOUT) -> Outcome:
    """Apply ``change`` to the document at ``path`` as one compare-and-swap step.

    ``change`` mutates the parsed document in place and returns a :class:`Change`; it raises
    a :class:`PassdownError` to refuse (then nothing is written). ``expect_revision`` makes the
    step conditional: a different current revision is ``authoring.revision_conflict``.
    ``finish`` runs only when something changed (timestamps). With ``validate`` the new file
    must validate clean before it is written (``authoring.invalid_result`` otherwise).
    ``syntax`` overrides the one the file name says; ``refusals`` words the errors."""
    path = os.fspath(path)
    syntax = syntax or _document.syntax_of(path)
    seen: dict = {}

    def transform(raw: bytes) -> bytes:
        document = _editing.parse(raw, source=path, syntax=syntax, for_edit=True)
        if not isinstance(document, dict):
            raise refusals.not_an_object(kind, path)
        current = revision_of(document, kind, path, refusals)
        seen["previous"] = current
        if current >= MAX_SAFE_INTEGER:  # the bump would leave canonical bytes (CKP-025, REG-027)
            raise refusals.revision_range(kind, path, current)
        if expect_revision is not None and expect_revision != current:
            raise refusals.conflict(kind, path, current, expect_revision)
        before = _fingerprint(document)
        try:
            outcome = change(document)
        except (AttributeError, TypeError, KeyError, IndexError) as error:
            _explain_shape(kind, raw, path, error)
            raise
        seen["change"] = outcome
        if _fingerprint(document) == before:
            seen["revision"] = current
            return raw
        if finish is not None:
            finish(document)
        _atomic.sweep_temporaries(path)
        _set_revision(document, kind, current + 1)
        new = _editing.render(document, syntax=syntax, original=raw)
        if validate:
            check_valid(kind, new, path, before=raw)
        seen["revision"] = current + 1
        return new

    try:
        _document.check_size(path, hint=refusals.too_large_hint)
        _atomic.read_modify_write(path, transform, timeout=timeout)
    except FileNotFoundError:
        raise refusals.missing(kind, path) from None
    except OSError as error:
        raise refusals.unusable(kind, path, error) from None
    changed = seen["revision"] != seen["previous"]
    outcome: Change = seen["change"]
    message = outcome.message if changed or outcome.unchanged_message is None \
        else outcome.unchanged_message
    return Outcome(command=command, path=path, changed=changed, message=message,
                   revision=seen["revision"], previous_revision=seen["previous"],
                   result=outcome.result)


def io_error(path: str, error: OSError) -> PassdownError:
    return UnreadableInput(f"{path}: {error.strerror or type(error).__name__}",
                           code="authoring.io_error",
                           hint="check that the path is a file you may read and write")


def check_valid(kind: str, raw: bytes, path: str, *, before: bytes | None = None) -> None:
    """Refuse to write ``raw`` when it has a validation error (warnings allowed) that the
    file's ``before`` bytes did not already have: a change never makes a file worse, and a
    file that is already broken can still be repaired one change at a time."""
    errors = _errors(kind, raw, path)
    if errors and before is not None:
        known = {(f.code, f.json_path) for f in _errors(kind, before, path)}
        errors = [f for f in errors if (f.code, f.json_path) not in known]
    if errors:
        first = errors[0]
        raise RefusedError(f"{path}: the result would not validate ({_codes(errors)}): "
                           f"{first.json_path}: {first.message}",
                           code="authoring.invalid_result",
                           hint=first.hint or "fix the value named above; nothing was written")


def _explain_shape(kind: str, raw: bytes, path: str, error: Exception) -> None:
    """A change met a member of the wrong type: when the file was already invalid that is
    the file's fault, reported with the validator's codes (``authoring.bad_shape``) instead
    of a traceback; on a valid file it is a defect and the caller re-raises it."""
    errors = _errors(kind, raw, path)
    if errors:
        raise RefusedError(f"{path}: the file does not have the shape this change needs "
                           f"({_codes(errors)})", code="authoring.bad_shape",
                           hint="run `passdown validate` on it and fix what it reports first") \
            from error


def require_valid(kind: str, path: str) -> None:
    """Refuse (``authoring.invalid_input``) a file that does not validate: a packet is
    rendered only from a checkpoint and a registry that do."""
    require_valid_bytes(kind, read_bytes(path, kind), path)


def require_valid_bytes(kind: str, raw: bytes, path: str) -> None:
    """:func:`require_valid` on bytes already read (the ones the caller goes on to use)."""
    errors = _errors(kind, raw, path)
    if errors:
        raise RefusedError(f"{path} does not validate ({_codes(errors)})",
                           code="authoring.invalid_input",
                           hint="run `passdown validate` on it and fix what it reports first")


def errors_of(kind: str, raw: bytes, path: str) -> list:
    """Every error finding of ``raw`` as a ``kind`` document named like ``path``."""
    return _errors(kind, raw, path)


def _errors(kind: str, raw: bytes, path: str) -> list:
    from passdown.engine._validate import validate_bytes

    report = validate_bytes(raw, kind, os.path.basename(path))
    return [finding for finding in report.findings if finding.is_error]


def _codes(findings) -> str:
    return ", ".join(sorted({finding.code for finding in findings}))


def create(path: str | os.PathLike, data: bytes) -> None:
    """Write a new file; an existing one is ``authoring.exists`` and stays untouched."""
    path = os.fspath(path)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        _atomic.atomic_write(path, data, exclusive=True, scratch=True)
    except FileExistsError:
        raise exists_error(path) from None
    except OSError as error:
        raise io_error(path, error) from None


def exists_error(path: str) -> RefusedError:
    return RefusedError(f"{path} already exists", code="authoring.exists",
                        hint="Passdown never overwrites an artifact: update it with the "
                             "`checkpoint` commands, or move it away first")
