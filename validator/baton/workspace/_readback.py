"""The fresh readback an ACK is verified against: read the ACK, the packet, the registry and
the continue checkpoint from disk, and the checkout and dirty-artifact fingerprints from git,
then hand everything to :func:`baton.formats._ackcheck.verify`.

Every input goes through :mod:`baton.formats._loading`; a file that cannot be read raises
:class:`~baton.errors.UnreadableInput` with the loading finding's code (exit 2, unusable).
"""

from __future__ import annotations

import datetime
import os

from baton.formats import _ackcheck, _digest, _loading
from baton.errors import UnreadableInput


def load_file(path, syntax):
    """Load ``path`` through every loading rule, or raise the first finding as an error."""
    loaded, findings = _loading.load_path(path, syntax=syntax)
    if loaded is None:
        first = findings[0]
        raise UnreadableInput(f"{path}: {first.message}", code=first.code, hint=first.hint)
    return loaded


def packet_text(path):
    """The packet's text; a JSON projection (``continuation.packet.json``) is rendered to the
    text form first, so both forms of one packet have one digest."""
    return _digest.packet_text(load_file(path, "text").text, path)


def checkpoint_for(registry, registry_path, checkpoint_path=None):
    """The continue checkpoint's path: the one given, else the registry policy's
    ``checkpoint_path`` relative to the registry's folder, else ``None``."""
    if checkpoint_path is not None:
        return checkpoint_path
    policy = registry.get("policy") if isinstance(registry, dict) else None
    relative = policy.get("checkpoint_path") if isinstance(policy, dict) else None
    if not isinstance(relative, str) or not relative.strip():
        return None
    return os.path.join(os.path.dirname(os.path.abspath(registry_path)), relative)


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def workspace_readback(workspace, ack):
    """``(checkout, dirty)`` read fresh from the git checkout ``workspace``. Each dirty path is
    hashed with the algorithm the ACK used for it (blake3 where the ACK names none)."""
    from baton.workspace import _git

    algorithms = {}
    entries = ack.get("dirty_artifacts") if isinstance(ack, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            try:
                algorithms[entry["path"]] = _digest.parse_digest(entry.get("digest"))[0]
            except _digest.DigestError:
                pass
    return _git.checkout_fingerprint(workspace), _git.dirty_fingerprint(workspace, algorithms=algorithms)


def read_and_verify(ack_path, packet_path, registry_path, *, checkpoint_path=None,
                    workspace=None, now=None):
    """Read everything fresh and verify the ACK at ``ack_path``; a :class:`Verdict`."""
    ack = load_file(ack_path, "json").data
    text = packet_text(packet_path)
    registry = load_file(registry_path, _loading.syntax_for(registry_path)).data
    if not isinstance(ack, dict) or not isinstance(registry, dict):
        which = ack_path if not isinstance(ack, dict) else registry_path
        raise UnreadableInput(f"{which}: the document is not a JSON object", code="ack.input_invalid",
                              hint="run `baton validate` on it")
    path = checkpoint_for(registry, registry_path, checkpoint_path)
    checkpoint = load_file(path, "json").data if path is not None else None
    checkout = dirty = None
    if workspace is not None:
        checkout, dirty = workspace_readback(workspace, ack)
    return _ackcheck.verify(ack, text, registry, checkout=checkout, dirty=dirty,
                            checkpoint=checkpoint, now=now or utc_now())
