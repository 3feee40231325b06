"""Recording a packet's digest in the registry attempt that names it.

One locked read-modify-write (:func:`baton._atomic.read_modify_write`) with a compare-and-swap
on the registry's ``revision``: a writer that read an older revision loses with a conflict,
never a lost update. YAML registries are edited round-trip (comments, key order and quoting
kept); JSON registries are rewritten with their key order and indentation kept.
"""

from __future__ import annotations

import io
import os

from baton import _digest
from baton._errors import ConflictError, RefusedError, UnreadableInput

#: Where the registry keeps its attempts, and the fields of one attempt this module writes.
ATTEMPTS = "attempts"
RESTART_ID = "restart_id"
CHECKPOINT_DIGEST = "checkpoint_digest"
CONTINUE_DIGEST = _digest.CONTINUE_DIGEST_FIELD
REVISION = "revision"


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
    registry_path = os.fspath(registry_path)
    syntax = "yaml" if registry_path.lower().endswith((".yaml", ".yml")) else "json"
    seen = {}

    def transform(raw):
        document = _load_for_edit(raw, syntax, registry_path)
        revision = document.get(REVISION) if isinstance(document, dict) else None
        if type(revision) is not int or revision < 0:
            raise RefusedError(f"{registry_path}: the registry has no non-negative integer revision",
                               code="digest.no_revision",
                               hint="run `baton validate` on the registry")
        seen["previous"] = seen["revision"] = revision
        if expect_revision is not None and revision != expect_revision:
            raise ConflictError(
                f"{registry_path}: the revision is {revision}, not the expected {expect_revision}",
                code="digest.revision_conflict",
                hint="read the registry again and retry with its current revision")
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
        if not pending:
            return raw
        _set_beside(attempt, pending, after=CHECKPOINT_DIGEST)
        document[REVISION] = revision + 1
        seen["revision"] = revision + 1
        return _render(document, syntax, raw)

    try:
        _atomic_read_modify_write(registry_path, transform, timeout)
    except FileNotFoundError:
        raise UnreadableInput(f"{registry_path}: no registry here", code="load.unreadable",
                              hint="pass the path of registry.json or registry.yaml") from None
    except IsADirectoryError:
        raise UnreadableInput(f"{registry_path} is a directory", code="load.unreadable",
                              hint="pass the path of registry.json or registry.yaml") from None
    return Recorded(registry_path, restart_id, dict(digests), seen["previous"], seen["revision"])


def _set_beside(mapping, values, *, after):
    """Set ``values`` on ``mapping``; new keys go right after the key ``after``, so they sit
    beside it and a YAML comment after the mapping's last entry stays where it was."""
    new = {key: value for key, value in values.items() if key not in mapping}
    for key, value in values.items():
        if key not in new:
            mapping[key] = value
    if not new:
        return
    keys = list(mapping)
    position = keys.index(after) + 1 if after in keys else len(keys)
    if hasattr(mapping, "insert"):  # a round-trip YAML mapping
        for offset, (key, value) in enumerate(new.items()):
            mapping.insert(position + offset, key, value)
        return
    items = list(mapping.items())
    mapping.clear()
    mapping.update(items[:position])
    mapping.update(new)
    mapping.update(items[position:])


def _atomic_read_modify_write(path, transform, timeout):
    from baton._atomic import read_modify_write
    from baton._loading import DEFAULT_MAX_BYTES

    if os.path.getsize(path) > DEFAULT_MAX_BYTES:
        raise UnreadableInput(f"{path}: the file is larger than the {DEFAULT_MAX_BYTES:,}-byte bound",
                              code="load.too_large", hint="keep the registry within the bound")
    read_modify_write(path, transform, timeout=timeout)


def _find_attempt(document, restart_id, path):
    attempts = document.get(ATTEMPTS)
    matches = [a for a in attempts if isinstance(a, dict) and a.get(RESTART_ID) == restart_id] \
        if isinstance(attempts, list) else []
    if len(matches) != 1:
        problem = "no attempt" if not matches else "more than one attempt"
        raise RefusedError(f"{path}: {problem} with restart id {restart_id!r}",
                           code="digest.unknown_attempt",
                           hint="register the attempt first (`baton packet`), then record its digest")
    return matches[0]


def _load_for_edit(raw, syntax, path):
    """Parse for editing. Every loading rule applies first (the strict loader); a YAML
    document is then read again round-trip, so comments and formatting survive the edit."""
    from baton._loading import load_bytes

    loaded, findings = load_bytes(raw, source=path, syntax=syntax)
    if loaded is None:
        first = findings[0]
        raise UnreadableInput(f"{path}: {first.message}", code=first.code, hint=first.hint)
    if syntax == "json":
        return loaded.data
    return _round_trip_yaml(loaded.text).load(loaded.text)


def _round_trip_yaml(text):
    """A round-trip YAML reader and writer that indents the way ``text`` does and writes null
    as ``null`` (round-trip mode would otherwise leave it empty)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.util import load_yaml_guess_indent

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never fold a long line that was not folded
    _, sequence_indent, sequence_offset = load_yaml_guess_indent(text)
    yaml.indent(mapping=_mapping_indent(text), sequence=sequence_indent or 2,
                offset=sequence_offset or 0)
    yaml.representer.add_representer(
        type(None), lambda representer, _: representer.represent_scalar("tag:yaml.org,2002:null", "null"))
    return yaml


def _mapping_indent(text):
    """The indentation of the first mapping nested directly in a top-level key (2 when none)."""
    previous = ""
    for line in text.splitlines():
        content = line.lstrip(" ")
        if not content or content.startswith("#"):
            continue
        if previous.endswith(":") and not previous.startswith((" ", "-")) and not content.startswith("-"):
            indent = len(line) - len(content)
            if indent:
                return indent
        previous = line.rstrip()
    return 2


def _render(document, syntax, original):
    if syntax == "yaml":
        text = original.decode("utf-8")
        buffer = io.StringIO()
        _round_trip_yaml(text).dump(document, buffer)
        return buffer.getvalue().encode("utf-8")
    import json

    indent = _json_indent(original)
    return (json.dumps(document, indent=indent, ensure_ascii=False) + "\n").encode("utf-8")


def _json_indent(raw):
    """The indentation of the first indented line of a JSON file (2 when there is none)."""
    for line in raw.split(b"\n")[1:]:
        stripped = line.lstrip(b" ")
        if stripped and len(stripped) != len(line):
            return len(line) - len(stripped)
    return 2


def record_packet(registry_path, restart_id, packet_path, *, checkpoint_path=None,
                  algorithm=_digest.DEFAULT_ALGORITHM, expect_revision=None):
    """Record the packet's digest (and, given ``checkpoint_path``, the continue checkpoint's)
    on attempt ``restart_id``. A packet whose own ``CHECKPOINT_DIGEST`` holds a digest that
    disagrees with its content is refused (``digest.mismatch``)."""
    from baton import _packet
    from baton._readback import load_file

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
