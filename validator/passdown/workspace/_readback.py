"""The fresh readback an ACK is written from and verified against: read the packet, the
registry and the continue checkpoint from disk, and the checkout and dirty-artifact
fingerprints from git, then hand everything to :func:`passdown.formats._ackcheck.verify`.

Every input goes through :mod:`passdown.formats._loading`; a file that cannot be read raises
:class:`~passdown.errors.UnreadableInput` with the loading finding's code (exit 2, unusable).
The checkpoint path a registry names never leads outside the registry's folder
(``registry.path_escape``), and the dirty-artifact fingerprint leaves out the handoff's own
files (:func:`own_files`, ACK-128): ``passdown ack write`` and ``passdown ack verify`` both read
through here, so they apply one rule.
"""

from __future__ import annotations

import os

from passdown.formats._clock import utc_now
from passdown.errors import UnreadableInput
from passdown.formats import _ackcheck, _digest, _loading, _packet
from passdown.formats._values import is_relative_path


def load_file(path, syntax, raw=None):
    """Load ``path`` (or its bytes ``raw``, already read) through every loading rule, or
    raise the first finding as an error."""
    if raw is None:
        loaded, findings = _loading.load_path(path, syntax=syntax)
    else:
        loaded, findings = _loading.load_bytes(raw, source=path, syntax=syntax)
    if loaded is None:
        first = findings[0]
        raise UnreadableInput(f"{path}: {first.message}", code=first.code, hint=first.hint)
    return loaded


def packet_text(path, raw=None):
    """The packet's text (from its bytes ``raw`` when already read); a JSON projection
    (``continuation.packet.json``) is rendered to the text form first, so both forms of one
    packet have one digest."""
    return _digest.packet_text(load_file(path, "text", raw).text, path)


def checkpoint_for(registry, registry_path, checkpoint_path=None):
    """The continue checkpoint's path: the one given, else the registry policy's
    ``checkpoint_path`` relative to the registry's folder, else ``None``. A policy path that
    is not a clean relative path, or that leads outside the registry's folder through a
    symbolic link, is refused (``registry.path_escape``), never followed."""
    if checkpoint_path is not None:
        return checkpoint_path
    policy = registry.get("policy") if isinstance(registry, dict) else None
    relative = policy.get("checkpoint_path") if isinstance(policy, dict) else None
    if not isinstance(relative, str) or not relative.strip():
        return None
    folder = os.path.dirname(os.path.abspath(registry_path))
    path = os.path.join(folder, relative)
    if not is_relative_path(relative):
        raise _escape(registry_path, relative, "is not a clean path relative to its folder")
    if not is_inside(os.path.realpath(path), os.path.realpath(folder)):
        raise _escape(registry_path, relative, "leads outside its folder through a symbolic link")
    return path


def _escape(registry_path, relative, what):
    return UnreadableInput(f"{registry_path}: policy.checkpoint_path {relative!r} {what}; "
                           "it is not followed", code="registry.path_escape",
                           hint="keep the checkpoint inside the handoff folder and name it "
                                "relative to the registry, e.g. xbrief/continue.xbrief.json")


def is_inside(path, folder):
    """Whether the absolute ``path`` is ``folder`` or lies under it (both already resolved)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def own_files(top, folder, given):
    """Which dirty paths (relative to the checkout's top level ``top``) are the handoff's own
    files, left out of the dirty-artifact fingerprint (ACK-128): in the handoff ``folder``
    (the registry's), every file named as a handoff artifact (:data:`_ackcheck.OWN_FILE_NAMES`);
    the files ``given`` (the packet, registry, checkpoint and ACK read or written); and
    everything in the ``.passdown/`` bookkeeping folder, and the packet's working-state list,
    beside any of them. Their integrity is
    covered by their own digests and revisions. Returns a predicate on a path."""
    top = os.path.realpath(top)

    def under_top(real):
        if real == top:
            return ""
        return os.path.relpath(real, top).replace(os.sep, "/") if is_inside(real, top) else None

    exact = set()
    for path in given:
        parent = under_top(os.path.realpath(os.path.dirname(os.path.abspath(path))))
        if parent is not None:
            exact.add(f"{parent}/{os.path.basename(path)}".lstrip("/"))
    home = under_top(os.path.realpath(folder))
    parents = {name.rpartition("/")[0] for name in exact} | ({home} if home is not None else set())
    bookkeeping = tuple(f"{parent}/".lstrip("/") + f"{_ackcheck.BOOKKEEPING_FOLDER}/"
                        for parent in parents)

    def leave_out(name):
        if name in exact or name.startswith(bookkeeping):
            return True
        parent, _, base = name.rpartition("/")
        if base == _packet.WORKING_STATE_NAME and parent in parents:
            return True
        return home is not None and parent == home and _ackcheck.is_own_file_name(base)

    return leave_out


def workspace_readback(workspace, ack=None, *, leave_out=None, with_status=False):
    """``(checkout, dirty)`` read fresh from the git checkout ``workspace``. Each dirty path is
    hashed with the algorithm ``ack`` used for it (blake3 where it names none); ``leave_out``
    is :func:`own_files`' predicate; ``with_status`` adds each path's ``status``
    (``packet render`` states it, the ACK does not)."""
    from passdown.workspace import _git

    algorithms = {}
    entries = ack.get("dirty_artifacts") if isinstance(ack, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            # the algorithm only: the digest itself is parsed once, where it is compared
            named = entry.get("digest")
            algorithm = named.partition(":")[0] if isinstance(named, str) else None
            if algorithm in _digest.ALGORITHMS:
                algorithms[entry["path"]] = algorithm
    return _git.readback(workspace, algorithms=algorithms, leave_out=leave_out,
                         with_status=with_status)


def read_handoff(packet_path, registry_path, checkpoint_path=None):
    """``(packet text, registry data, checkpoint data or None, checkpoint path or None)``
    read fresh; a registry that is not an object is ``ack.input_invalid``."""
    text = packet_text(packet_path)
    registry = _object(load_file(registry_path, _loading.syntax_for(registry_path)).data,
                       registry_path)
    path = checkpoint_for(registry, registry_path, checkpoint_path)
    checkpoint = _object(load_file(path, "json").data, path) if path is not None else None
    return text, registry, checkpoint, path


def _object(document, path):
    """``document``, or ``ack.input_invalid`` (unusable) when it is not an object."""
    if not isinstance(document, dict):
        raise UnreadableInput(f"{path}: the document is not a JSON object",
                              code="ack.input_invalid", hint="run `passdown validate` on it")
    return document


def own_files_of(registry_path, given):
    """:func:`own_files` for the handoff whose registry is ``registry_path``, as a function
    of the checkout's top level (known once git has been asked)."""
    folder = os.path.dirname(os.path.abspath(registry_path))
    return lambda top: own_files(top, folder, [path for path in given if path is not None])


def read_and_verify(ack_path, packet_path, registry_path, *, checkpoint_path=None,
                    workspace=None, now=None, clock_skew=None):
    """Read everything fresh and verify the ACK at ``ack_path``; a :class:`Verdict`."""
    ack = _object(load_file(ack_path, "json").data, ack_path)
    text, registry, checkpoint, path = read_handoff(packet_path, registry_path, checkpoint_path)
    checkout = dirty = None
    if workspace is not None:
        leave_out = own_files_of(registry_path, [ack_path, packet_path, registry_path, path])
        checkout, dirty = workspace_readback(workspace, ack, leave_out=leave_out)
    return _ackcheck.verify(ack, text, registry, checkout=checkout, dirty=dirty,
                            checkpoint=checkpoint, now=now or utc_now(), clock_skew=clock_skew)
