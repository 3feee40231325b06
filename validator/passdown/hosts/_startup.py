"""The fresh session's start-up estimate (spec/hosts.md HST-105 to HST-108, seed 000 "inventory
every context fragment the fresh session must load"): each fragment it must read with its
purpose, its bytes and a finite bound, summed into ``fresh_input_tokens``, always labelled
``estimated`` with the method that produced it.

The fragments: the host's system prompt and tools (a stated allowance per host), the
instruction files the host loads (its ``INSTRUCTION_FILES`` in the working folder and each
folder above it, and the user's own), the continue checkpoint, the continuation packet (its
bound until it is written), the files the checkpoint's next action names as required inputs,
and the handoff procedure's own messages. Sizes come from ``stat`` only: no file is read to
count it. Tokens are bytes divided by :data:`BYTES_PER_TOKEN` (no tokenizer of these hosts is
available offline), times the calibration factor recorded after the last takeover, if any.

A fragment over its bound is flagged ``oversized`` (split or summarise it). A required input
that is missing makes the total unknown: the known part is reported as ``partial_tokens``,
never as the whole.
"""

from __future__ import annotations

import json
import math
import os

#: The stated factor of the byte-size estimate.
BYTES_PER_TOKEN = 4
#: The largest fragment a fresh session should load whole; above it the fragment is flagged.
FRAGMENT_BOUND_BYTES = 64 * 1024
#: The packet's bound before it is written: the spec's 1-2 thousand words, as bytes.
PACKET_BOUND_BYTES = 16 * 1024
#: The handoff messages the successor reads besides the files: the first message and the
#: ACK step (``passdown packet prompt``, ``passdown ack write``), as bytes.
PROCEDURE_BYTES = 4 * 1024
#: Folders looked at upward from the working folder for instruction files.
MAX_LEVELS = 32
#: The most required inputs counted.
MAX_INPUTS = 64


def tokens_of(size):
    """The byte-size estimate of ``size`` bytes, in tokens."""
    return math.ceil(size / BYTES_PER_TOKEN)


class Fragment:
    """One thing the fresh session loads: ``bytes`` None when it is missing (unknown)."""

    def __init__(self, purpose, path, size, bound=FRAGMENT_BOUND_BYTES, *, tokens=None,
                 basis="estimated", note=None):
        self.purpose, self.path, self.bytes, self.bound = purpose, path, size, bound
        self.tokens = tokens if tokens is not None else (None if size is None else tokens_of(size))
        self.basis = basis if size is not None or tokens is not None else "unknown"
        self.note = note

    @property
    def oversized(self):
        return self.bytes is not None and self.bound is not None and self.bytes > self.bound

    def to_dict(self):
        return {"purpose": self.purpose, "path": self.path, "bytes": self.bytes,
                "bound_bytes": self.bound, "tokens": self.tokens, "basis": self.basis,
                "oversized": self.oversized, **({"note": self.note} if self.note else {})}


def _size(path):
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size if os.path.isfile(path) else None


def _upward(start):
    folder = os.path.abspath(start)
    for _ in range(MAX_LEVELS):
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def instruction_fragments(reader, workspace, environ=None):
    found = []
    for folder in _upward(workspace):
        for name in reader.INSTRUCTION_FILES:
            path = os.path.join(folder, name)
            size = _size(path)
            if size is not None:
                found.append(Fragment(f"{reader.NAME} instruction file", path, size))
    user = reader.config_folder(environ)
    for name in reader.USER_INSTRUCTION_FILES:
        path = os.path.join(user, name)
        size = _size(path)
        if size is not None and all(fragment.path != path for fragment in found):
            found.append(Fragment(f"{reader.NAME} user instruction file", path, size))
    return found


def _required_inputs(checkpoint):
    try:
        with open(checkpoint, "rb") as handle:
            document = json.loads(handle.read(16 << 20))
    except (OSError, ValueError, RecursionError):
        return []
    block = document.get("x-passdown/checkpoint") if isinstance(document, dict) else None
    action = block.get("next_action") if isinstance(block, dict) else None
    inputs = action.get("required_inputs") if isinstance(action, dict) else None
    return [entry for entry in inputs if isinstance(entry, str)][:MAX_INPUTS] \
        if isinstance(inputs, list) else []


def inventory(reader, *, workspace, folder, checkpoint_path, packet_path, environ=None):
    """The fragments of the next fresh session of ``reader``'s host."""
    fragments = [Fragment(f"{reader.NAME} system prompt and tool definitions", None, None,
                          None, tokens=reader.PROMPT_ALLOWANCE_TOKENS,
                          note="a stated allowance, not measured")]
    fragments += instruction_fragments(reader, workspace, environ)
    checkpoint_size = _size(checkpoint_path)
    fragments.append(Fragment("the continue checkpoint (the task state)", checkpoint_path,
                              checkpoint_size,
                              note=None if checkpoint_size is not None else "no checkpoint yet"))
    packet_size = _size(packet_path)
    if packet_size is None:
        fragments.append(Fragment("the continuation packet (not written yet: its bound)",
                                  packet_path, PACKET_BOUND_BYTES, PACKET_BOUND_BYTES))
    else:
        fragments.append(Fragment("the continuation packet", packet_path, packet_size,
                                  PACKET_BOUND_BYTES))
    fragments.append(Fragment("the first message and the ACK step of the handoff procedure",
                              None, PROCEDURE_BYTES, PROCEDURE_BYTES))
    if checkpoint_size is not None:
        for entry in _required_inputs(checkpoint_path):
            path = entry if os.path.isabs(entry) else os.path.join(workspace, entry)
            size = _size(path)
            fragments.append(Fragment("a required input of the next action", path, size,
                                      note=None if size is not None else "missing: size unknown"))
    return fragments


class Estimate:
    """The sum of the fragments: ``tokens`` None when a fragment is unknown."""

    def __init__(self, fragments, factor=None, calibration=None):
        self.fragments = fragments
        known = [fragment.tokens for fragment in fragments if fragment.tokens is not None]
        self.partial_tokens = sum(known)
        complete = all(fragment.tokens is not None for fragment in fragments)
        self.factor = factor
        self.calibration = calibration
        raw = self.partial_tokens if complete else None
        self.tokens = None if raw is None else (round(raw * factor) if factor else raw)
        self.method = (f"bytes / {BYTES_PER_TOKEN} plus the host's stated allowance"
                       + (f", times the calibration factor {factor:g}" if factor else ""))

    @property
    def oversized(self):
        return [fragment for fragment in self.fragments if fragment.oversized]

    def to_dict(self):
        return {"tokens": self.tokens, "basis": "estimated" if self.tokens is not None else "unknown",
                "method": self.method, "partial_tokens": self.partial_tokens,
                "calibration": self.calibration,
                "oversized": [fragment.path for fragment in self.oversized],
                "fragments": [fragment.to_dict() for fragment in self.fragments]}
