"""Safe loading: bytes to data, or findings. Owns every input-hygiene rule.

Each violation is a finding with its own code (``load.*``), never a traceback: a size bound
checked before reading, UTF-8 without BOM, no duplicate keys, no NaN/Infinity, a nesting
bound, YAML only through a safe loader (timestamps stay strings).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from baton.formats import _fastjson
from baton._findings import ERROR, Finding

#: xBRIEF recommends 10 MB as the largest document; Baton's artifacts are far smaller.
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
#: Deeper than any artifact needs, shallow enough for every recursive consumer.
MAX_DEPTH = 64


@dataclass(frozen=True)
class Loaded:
    """A document that passed every loading rule."""

    data: object
    text: str
    syntax: str  # "json", "yaml" or "text"


class _Reject(Exception):
    def __init__(self, code, message, hint, line=None, requirement="INP-001"):
        super().__init__(message)
        self.finding_args = (code, message, hint, line, requirement)


def _finding(source, code, message, hint, line=None, requirement=None):
    return Finding(
        file=source,
        json_path="$",
        code=code,
        severity=ERROR,
        message=message,
        requirement=requirement,
        hint=hint,
        line=line,
    )


_DIRECTORY = ("this is a directory, not a file",
              "name a file, or pass the directory to check its artifacts")


def read_bounded(path: str, limit: int = DEFAULT_MAX_BYTES) -> tuple[bytes | None, list[Finding]]:
    """Read at most ``limit`` bytes of ``path``; a larger file is a finding, not a read.
    Only regular files are read: a FIFO or a device could block or never end."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with open(fd, "rb") as handle:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                return None, [_finding(path, "load.unreadable", *_DIRECTORY, requirement="INP-001")]
            if not stat.S_ISREG(mode):
                return None, [_finding(path, "load.not_regular",
                                       "not a regular file (a FIFO, socket or device); not read",
                                       "name a regular file", requirement="INP-001")]
            raw = handle.read(limit + 1)
    except IsADirectoryError:
        return None, [_finding(path, "load.unreadable", *_DIRECTORY, requirement="INP-001")]
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return None, [_finding(path, "load.unreadable", f"cannot read the file: {reason}",
                               "check that the path exists and is readable",
                               requirement="INP-001")]
    if len(raw) > limit:
        return None, [too_large(path, limit)]
    return raw, []


def too_large(source: str | None, limit: int = DEFAULT_MAX_BYTES) -> Finding:
    """The finding for an input over the size bound."""
    return _finding(source, "load.too_large", f"the input is larger than the {limit:,}-byte bound",
                    "split the content or link large evidence instead of copying it",
                    requirement="INP-002")


def decode_text(raw: bytes, source: str | None) -> tuple[str | None, list[Finding]]:
    """UTF-8 without BOM, or a finding."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return None, [_finding(source, "load.bom", "the file starts with a UTF-8 byte order mark",
                               "save the file as UTF-8 without BOM", line=1,
                               requirement="INP-003")]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [_finding(source, "load.encoding", "the file is UTF-16, not UTF-8",
                               "save the file as UTF-8 without BOM", line=1,
                               requirement="INP-003")]
    if b"\x00" in raw:
        # never valid in JSON, YAML or packet text: UTF-16/32 without a BOM, or binary
        return None, [_finding(source, "load.encoding",
                               "the file holds NUL bytes: UTF-16, UTF-32 or binary, not UTF-8 text",
                               "save the file as UTF-8 without BOM",
                               line=raw[: raw.index(b"\x00")].count(b"\n") + 1,
                               requirement="INP-003")]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        return None, [_finding(source, "load.encoding",
                               f"invalid UTF-8 at byte {error.start}",
                               "save the file as UTF-8", line=line, requirement="INP-003")]


def _pairs_without_duplicates(pairs):
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _Reject("load.duplicate_key", f"the key {key!r} appears twice in one object",
                              "keep one entry per key: JSON readers disagree on which one wins",
                              requirement="INP-004")
            seen.add(key)
    return result


def _no_constants(name):
    raise _Reject("load.non_finite", f"{name} is not JSON",
                  "write a finite number, or null where the value is unknown",
                  requirement="INP-005")


_INFINITY = float("inf")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when a double cannot hold it
    (``1e400`` would read as infinity): the same ``load.non_finite`` as ``Infinity``."""
    value = float(text)
    if value in (_INFINITY, -_INFINITY):
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise _Reject("load.non_finite", f"the number {shown} is too large for a double "
                      "(it would read as infinity)",
                      "write a smaller finite number, or the value as a string",
                      requirement="INP-005")
    return value


def _line_of(text: str, pos: int | None) -> int | None:
    return None if pos is None else text.count("\n", 0, pos) + 1


def _depth_ok(value) -> bool:
    # level by level, without recursion: the document may be as deep as the parser allowed
    level, depth = [value], 1
    while level:
        if depth > MAX_DEPTH:
            return False
        children = []
        for node in level:
            if type(node) is dict:
                children.extend(node.values())
            elif type(node) is list:
                children.extend(node)
        level, depth = children, depth + 1
    return True


def _check_yaml_data(value, text: str) -> None:
    """YAML can hold what JSON cannot, and aliases can repeat one node without end: the
    data must be plain JSON data (string keys; no binary, sets or non-finite numbers), at
    most ``MAX_DEPTH`` deep, and not much larger than its text once aliases are expanded."""
    budget = 2 * len(text) + 10_000
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise _Reject("load.too_large", "YAML aliases expand the document far beyond its size",
                          "write the values out instead of repeating anchors", requirement="INP-002")
        if depth > MAX_DEPTH:
            raise _Reject("load.too_deep", f"the document nests deeper than {MAX_DEPTH} levels",
                          f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006")
        if isinstance(node, dict):
            for key, child in node.items():
                if not isinstance(key, str):
                    raise _Reject("load.yaml_type", f"the key {key!r} is not a string",
                                  "quote the key: keys are strings in Baton's data",
                                  requirement="INP-007")
                stack.append((child, depth + 1))
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
        elif isinstance(node, float):
            if node != node or node in (float("inf"), float("-inf")):
                _no_constants(".nan or .inf")
        elif not (node is None or isinstance(node, (str, int))):
            raise _Reject("load.yaml_type", f"a YAML {type(node).__name__} value is not JSON data",
                          "write plain strings, numbers, booleans, lists and mappings",
                          requirement="INP-007")


def parse_json(text: str):
    """Strict JSON: raises :class:`_Reject` on any loading rule."""
    try:
        return _fastjson.loads(
            text, object_pairs_hook=_pairs_without_duplicates, parse_constant=_no_constants,
            parse_float=_finite_float,
        )
    except _fastjson.JSONError as error:
        raise _Reject("load.syntax", f"not valid JSON: {error}",
                      "fix the JSON syntax at the line shown", _line_of(text, error.pos),
                      requirement="INP-001") from None
    except RecursionError:
        raise _Reject("load.too_deep", "the document nests too deeply to read",
                      f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006") from None


def _yaml_loader():
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import SafeConstructor

    class _Constructor(SafeConstructor):
        pass

    # Timestamps stay the strings they were written as: schemas check their form.
    _Constructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)
    yaml = YAML(typ="safe", pure=True)
    yaml.Constructor = _Constructor
    yaml.allow_duplicate_keys = False
    return yaml


def parse_yaml(text: str):
    """Safe YAML: one document, no custom tags, no duplicate keys."""
    from ruamel.yaml.error import YAMLError

    try:
        documents = list(_yaml_loader().load_all(text))
    except RecursionError:
        raise _Reject("load.too_deep", "the document nests too deeply to read",
                      f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006") from None
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        message = str(getattr(error, "problem", None) or error).strip().splitlines()[0]
        if "duplicate key" in str(error):
            raise _Reject("load.duplicate_key", f"a key appears twice in one mapping: {message}",
                          "keep one entry per key", line, requirement="INP-004") from None
        if "could not determine a constructor" in str(error):
            raise _Reject("load.yaml_tag", f"an unsafe or unknown YAML tag: {message}",
                          "remove the tag: Baton reads plain YAML data only", line,
                          requirement="INP-007") from None
        raise _Reject("load.syntax", f"not valid YAML: {message}",
                      "fix the YAML syntax at the line shown", line,
                      requirement="INP-001") from None
    if len(documents) != 1:
        raise _Reject("load.syntax", f"expected one YAML document, found {len(documents)}",
                      "keep one document per file", requirement="INP-001")
    return documents[0]


def load_bytes(raw: bytes, *, source: str | None, syntax: str) -> tuple[Loaded | None, list[Finding]]:
    """Decode and parse ``raw`` as ``syntax`` ("json", "yaml" or "text")."""
    text, findings = decode_text(raw, source)
    if text is None:
        return None, findings
    if syntax == "text":
        return Loaded(None, text, syntax), []
    if not text.strip():
        return None, [_finding(source, "load.empty", "the file is empty",
                               "write the artifact, or remove the empty file",
                               requirement="INP-001")]
    try:
        if syntax == "json":
            data = parse_json(text)
            if not _depth_ok(data):
                raise _Reject("load.too_deep", f"the document nests deeper than {MAX_DEPTH} levels",
                              f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006")
        else:
            data = parse_yaml(text)
            _check_yaml_data(data, text)
    except _Reject as reject:
        code, message, hint, line, requirement = reject.finding_args
        return None, [_finding(source, code, message, hint, line, requirement)]
    return Loaded(data, text, syntax), []


def load_path(path: str, *, syntax: str, limit: int = DEFAULT_MAX_BYTES):
    """Read and load a file; ``(Loaded | None, findings)``."""
    raw, findings = read_bounded(path, limit)
    if raw is None:
        return None, findings
    return load_bytes(raw, source=path, syntax=syntax)


def syntax_for(name: str) -> str:
    lower = os.path.basename(name).lower()
    if lower.endswith((".yaml", ".yml")):
        return "yaml"
    if lower.endswith(".json"):
        return "json"
    return "text"
