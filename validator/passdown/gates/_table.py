"""The one table of decision gates, shared by the CLI, the Python API and the conformance
runner. Gate modules load on first use, and nothing here imports more than ``_json``.

The reader of raw input every gate Passdown defines uses lives here, :func:`parse_input` (UTF-8
only); the reading of the published restart and title helpers (``json.loads`` on the raw
bytes) lives in :mod:`passdown.gates._helper_input`, loaded only by the two gates that are
byte-compatible with them.

A gate module defines:

- ``NAME``, ``VERSION`` (the gate's own contract version), ``SUMMARY`` (one line), ``SPEC``
  (its spec page, e.g. ``"spec/gates/restart.md"``);
- ``OUTCOMES``: every outcome code it can answer, in the order the spec lists them;
- ``INPUT_SCHEMA`` / ``OUTPUT_SCHEMA``: paths under ``schemas/v1/`` (or ``None``);
- ``decide(value) -> Decision``: pure; ``value`` is any parsed JSON value, never raises;
- ``run(raw: bytes) -> Decision``: parses bytes with the gate's own limits, then decides;
  never raises.
"""

import sys

from passdown.formats._fastjson import JSONError, dumps, loads

_MODULES = {
    "restart": "passdown.gates.restart",
    "title": "passdown.gates.title",
    "ack": "passdown.gates.ack",
    "digest": "passdown.gates.digest",
    "recovery": "passdown.gates.recovery",
    "handoff": "passdown.gates.handoff",
    "relaunch": "passdown.gates.relaunch",
    "lifecycle": "passdown.gates.lifecycle",
    "guard": "passdown.gates.guard",
    "validate": "passdown.gates.validate",
    "observe": "passdown.gates.observe",
}


class Decision:
    """A gate's answer: the JSON ``output``, its ``outcome`` code, the process ``exit_code``
    and ``text``, the exact bytes (as str) the CLI prints, final newline included."""

    __slots__ = ("output", "outcome", "exit_code", "text")

    def __init__(self, output, outcome, exit_code=0, text=None):
        self.output = output
        self.outcome = outcome
        self.exit_code = exit_code
        self.text = dumps(output, sort_keys=True) + "\n" if text is None else text

    def __repr__(self):
        return f"Decision(outcome={self.outcome!r}, exit_code={self.exit_code}, output={self.output!r})"

    def __eq__(self, other):
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.output, self.outcome, self.exit_code, self.text) == (
            other.output, other.outcome, other.exit_code, other.text)

    def __hash__(self):
        return hash((self.outcome, self.exit_code, self.text))


class InputError(ValueError):
    """Raw input a gate cannot read (too large, not UTF-8, not JSON, too deep)."""


class Invalid(Exception):
    """A gate's input breaks an input rule: ``path`` is the JSON path of the value (GEN-022),
    ``expected`` what the rule wanted, where the reader says. Every gate raises this one class
    and answers its documented invalid-input outcome."""

    def __init__(self, path, expected=None):
        super().__init__(path if expected is None else f"{path}: {expected}")
        self.path = path
        self.expected = expected

    @property
    def message(self):
        return self.path if self.expected is None else f"{self.path}: {self.expected}"


def parse_input(raw, limit, *, allow_constants=True, unique_keys=False):
    """Bytes -> a JSON value, as ``json.loads(raw.decode())`` with a size bound.

    Raises :class:`InputError` for anything over ``limit`` bytes, invalid UTF-8, invalid
    JSON or nesting too deep to read; with ``unique_keys``, also for an object that
    repeats a key (JSON readers disagree on which value wins)."""
    if len(raw) > limit:
        raise InputError(f"input larger than {limit} bytes")
    if len(raw) > _LONG_TAIL:
        value = _without_tail(raw, allow_constants, unique_keys)
        if value is not _NO_VALUE:
            return value
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"invalid UTF-8 at byte {error.start}") from None
    try:
        if allow_constants and not unique_keys:
            return loads(text)
        return loads(
            text,
            parse_constant=None if allow_constants else _reject_constant,
            object_pairs_hook=_unique_pairs if unique_keys else None,
        )
    except JSONError as error:
        raise InputError(f"invalid JSON: {error.located(text)}") from None
    except RecursionError:
        raise InputError("nesting too deep") from None


#: Inputs longer than this may end in more whitespace than is worth decoding: the value
#: is read from the bytes before it (:func:`_without_tail`).
_LONG_TAIL = 1 << 20
_NO_VALUE = object()


def _without_tail(raw, allow_constants, unique_keys):
    """The value of ``raw`` read without its trailing JSON whitespace (which ``json.loads``
    skips), so a large input padded with spaces is never decoded whole; ``_NO_VALUE`` when
    the tail is short or the rest does not read cleanly (the whole input is then read as
    before, for the exact error)."""
    head = raw.rstrip(b" \t\n\r")
    if not head or len(raw) - len(head) < _LONG_TAIL:
        return _NO_VALUE
    try:
        text = head.decode("utf-8")
        if allow_constants and not unique_keys:
            return loads(text)
        return loads(text, parse_constant=None if allow_constants else _reject_constant,
                     object_pairs_hook=_unique_pairs if unique_keys else None)
    except (UnicodeDecodeError, JSONError, RecursionError, InputError):
        return _NO_VALUE


def run_strict(raw, limit, decide, invalid):
    """The ``run`` of a gate whose input is strict JSON (no NaN or Infinity, no repeated key):
    unreadable bytes answer ``invalid("$")``, anything else goes to ``decide``."""
    try:
        value = parse_input(raw, limit, allow_constants=False, unique_keys=True)
    except InputError:
        return invalid("$")
    return decide(value)


def _reject_constant(name):
    raise JSONError(f"{name} is not JSON")


def _unique_pairs(pairs):
    result = dict(pairs)
    if len(result) != len(pairs):
        raise JSONError("an object repeats a key")
    return result


def gate_names():
    """The names of the gates, in the gate table's order."""
    return tuple(_MODULES)


def load(name):
    """The gate module for ``name``; ``KeyError`` for an unknown name."""
    module_name = _MODULES[name]
    module = sys.modules.get(module_name)
    if module is None:
        __import__(module_name)
        module = sys.modules[module_name]
    return module


def run_gate(name, value):
    """Decide ``value`` with gate ``name``: a parsed JSON value, or the raw input as
    ``bytes``, read exactly as ``passdown gate NAME`` reads its standard input."""
    module = load(name)
    if isinstance(value, (bytes, bytearray)):
        return module.run(bytes(value))
    return module.decide(value)


def run_bytes(name, raw):
    """Decide raw input bytes with gate ``name``, exactly as the CLI does."""
    return load(name).run(raw)


def read_stream(stream, limit):
    """At most ``limit`` bytes of a stream, read in chunks as they come: one ``read(limit)``
    would allocate the whole bound first, which costs milliseconds on every small input."""
    chunks, total, read = [], 0, getattr(stream, "read1", stream.read)
    while total < limit:
        chunk = read(min(65536, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def read_source(module, source):
    """The raw input of a gate run: stdin for ``-``, else the file, read up to one byte past
    the gate's bound so that the gate itself can refuse an oversized input."""
    limit = getattr(module, "MAX_INPUT_BYTES", 1 << 20)
    if source == "-":
        return read_stream(sys.stdin.buffer, limit + 1)
    from passdown.formats._files import read_prefix

    return read_prefix(source, limit + 1)  # a regular file only, never blocking


def run_cli(name, source):
    """The fast path of ``passdown gate NAME [FILE|-]``: returns the exit status, or ``None``
    to let the full CLI handle (and explain) anything unusual."""
    if name not in _MODULES:
        return None
    module = load(name)
    from passdown.errors import PassdownError

    try:
        raw = read_source(module, source)
    except (OSError, PassdownError):  # the full command explains it
        return None
    decision = module.run(raw)
    sys.stdout.write(decision.text)
    sys.stdout.flush()
    return decision.exit_code
