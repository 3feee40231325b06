"""The harness protocol, version 1: JSON Lines on a harness's stdin and stdout, one message
per line. The runner writes ``start``, then ``run`` per case, then ``stop``; the harness
answers ``start`` with ``ready`` and each ``run`` with one ``result``. Every message has a
JSON Schema under ``conformance/protocol/v1/`` (and so does the skip object a program prints
with exit status 77); this module owns reading them, encoding the runner's lines, checking
every line a harness sends and reading the gates (and versions) a ``ready`` line lists."""

from __future__ import annotations

import json
from functools import cache

from passdown._findings import json_path
from passdown._text import cut
from passdown.formats._loading import load_bytes

VERSION = 1
#: A reply longer than this is not an answer to one case (every gate's output is a few KiB).
MAX_REPLY_BYTES = 1024 * 1024


class ProtocolError(Exception):
    """A line from the harness that breaks the protocol (message says how)."""


@cache
def schema(name: str) -> dict:
    from passdown._resources import data_dir

    path = data_dir("conformance") / "protocol" / f"v{VERSION}" / f"{name}.schema.json"
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def _validator(name: str):
    from passdown.engine._schemas import compile_schema

    return compile_schema(schema(name))


def encode(message: dict) -> bytes:
    """One protocol line: compact JSON, ASCII (every other character escaped, so strings
    with lone surrogates travel too), newline-terminated, never NaN."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"


def start() -> bytes:
    return encode({"cmd": "start", "version": VERSION})


def run(seq: int, case) -> bytes:
    return encode({"cmd": "run", "seq": seq, "case": case.wire()})


def stop() -> bytes:
    return encode({"cmd": "stop"})


def decode(line: bytes, name: str) -> dict:
    """Parse one harness line and check it against message ``name`` (``ready`` or ``result``)."""
    if not line.strip():
        raise ProtocolError(f"an empty line where a {name} message was expected")
    loaded, findings = load_bytes(line, source=None, syntax="json")
    if loaded is None:
        raise ProtocolError(f"the line is not strict JSON ({findings[0].code}: {findings[0].message}): "
                            f"{excerpt(line)!r}")
    errors = list(_validator(name).iter_errors(loaded.data))
    if errors:
        best = min(errors, key=lambda e: len(e.instance_path))
        where = json_path(best.instance_path)
        raise ProtocolError(f"not a valid {name} message: {where}: {cut(best.message, 200)}")
    return loaded.data


def gate_versions(ready: dict) -> dict[str, str | None]:
    """``{gate: version}`` from a ``ready`` message; a version is ``None`` where the harness
    lists the gate in the protocol's first form (a list of names, no versions)."""
    gates = ready["implementation"]["gates"]
    if isinstance(gates, dict):
        return dict(gates)
    return dict.fromkeys(gates)


def excerpt(line: bytes, limit: int = 300) -> str:
    """The start of a line, for error messages."""
    text = line[:limit].decode("utf-8", "replace")
    return text + ("..." if len(line) > limit else "")
