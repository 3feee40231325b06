"""Documents edited in place: the one way bytes of a JSON or YAML file Passdown changes (a
registry, a checkpoint) become data that can be changed, and go back to bytes.

Reading goes through :mod:`passdown.formats._loading`, so a file edited by hand meets every input-hygiene
rule (a finding's code becomes the error's code); a YAML file is then read again round-trip.
Writing keeps what the file's author chose: key order, comments (also those after a mapping's
last key), quoting, the file's indentation, long lines unfolded, ``null`` written as ``null``,
and timestamps as the strings they were written as. JSON is written UTF-8 without BOM, ends with
a newline, and refuses values that are not JSON.
"""

from __future__ import annotations

import io
import json

from passdown.formats import _loading
from passdown.errors import PassdownError, UnreadableInput

_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_NULL_TAG = "tag:yaml.org,2002:null"


def parse(raw: bytes, *, source: str, syntax: str, for_edit: bool = False):
    """Strict parse of ``raw``; the first loading finding is raised as :class:`UnreadableInput`
    with that finding's code (``load.duplicate_key``, ``load.bom``...). ``for_edit`` reads a
    YAML file again round-trip (after every loading rule passed), for :func:`render`."""
    loaded, findings = _loading.load_bytes(raw, source=source, syntax=syntax)
    if loaded is None:
        raise_finding(findings[0])
    if for_edit and syntax == "yaml":
        return _round_trip_yaml().load(loaded.text)
    return loaded.data


def raise_finding(finding) -> None:
    where = f" (line {finding.line})" if finding.line else ""
    raise UnreadableInput(f"{finding.file}{where}: {finding.message}", code=finding.code,
                          hint=finding.hint)


def render(data, *, syntax: str, original: bytes | None = None) -> bytes:
    """Serialise ``data`` in key order, indented the way ``original`` (the file's bytes before
    the edit) is, or by two spaces for a new file: JSON, or block YAML."""
    if syntax == "yaml":
        buffer = io.StringIO()
        text = original.decode("utf-8") if original is not None else ""
        _round_trip_yaml(text).dump(data, buffer)
        return buffer.getvalue().encode("utf-8")
    indent = _json_indent(original) if original is not None else 2
    try:
        text = json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError:  # 1e400 reads as infinity, which JSON cannot write
        raise PassdownError("the document holds a number too large for JSON (it reads as "
                         "infinity)", code="load.non_finite",
                         hint="write the number as a string, or a smaller finite number") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate read from a \\uD800 escape: keep it escaped
        return (json.dumps(data, indent=indent) + "\n").encode("ascii")


def set_beside(mapping, values: dict, *, after: str) -> None:
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
        last = keys[-1] if keys and position == len(keys) else None
        for offset, (key, value) in enumerate(new.items()):
            mapping.insert(position + offset, key, value)
        if last is not None:
            _move_trailing_comment(mapping, last, list(new)[-1])
        return
    items = list(mapping.items())
    mapping.clear()
    mapping.update(items[:position])
    mapping.update(new)
    mapping.update(items[position:])


def _move_trailing_comment(mapping, old_last, new_last) -> None:
    """Round-trip YAML keeps the blank lines and comments after a mapping on its last value;
    when keys are appended, they move to the new last key, so they stay after the mapping.
    The old key keeps its own end-of-line comment (the token's first line)."""
    entry = mapping.ca.items.get(old_last)
    token = entry[2] if entry and len(entry) > 2 else None
    if token is None:
        return
    own_line, newline, after = token.value.partition("\n")
    if not after:
        return
    from ruamel.yaml.tokens import CommentToken

    token.value = own_line + newline
    mapping.ca.items[new_last] = [None, None, CommentToken("\n" + after, token.start_mark, None), None]


class _Timestamp(str):
    """A YAML timestamp read as the text it was written as (the strict loader's rule), and
    written back the same way: plain, not quoted as a string that looks like a timestamp."""


def _round_trip_yaml(text: str = ""):
    """A round-trip YAML reader and writer that indents the way ``text`` does (two spaces
    when it says nothing), never folds a line and writes null as ``null`` (round-trip mode
    would otherwise leave it empty)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import RoundTripConstructor

    class _Constructor(RoundTripConstructor):
        pass

    _Constructor.add_constructor(
        _TIMESTAMP_TAG, lambda constructor, node: _Timestamp(constructor.construct_scalar(node)))
    yaml = YAML(typ="rt")
    yaml.Constructor = _Constructor
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never fold a long line that was not folded
    sequence_indent, sequence_offset = _sequence_indent(text)
    yaml.indent(mapping=_mapping_indent(text), sequence=sequence_indent, offset=sequence_offset)
    yaml.representer.add_representer(
        type(None), lambda representer, _: representer.represent_scalar(_NULL_TAG, "null"))
    yaml.representer.add_representer(
        _Timestamp, lambda representer, value: representer.represent_scalar(_TIMESTAMP_TAG,
                                                                            str(value)))
    return yaml


def _sequence_indent(text: str) -> tuple[int, int]:
    """The block sequences' indentation and dash offset in ``text`` (2 and 0 when none)."""
    if not text:
        return 2, 0
    from ruamel.yaml.util import load_yaml_guess_indent

    _, sequence_indent, sequence_offset = load_yaml_guess_indent(text)
    return sequence_indent or 2, sequence_offset or 0


def _mapping_indent(text: str) -> int:
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


def _json_indent(raw: bytes) -> int:
    """The indentation of the first indented line of a JSON file (2 when there is none)."""
    for line in raw.split(b"\n")[1:]:
        stripped = line.lstrip(b" ")
        if stripped and len(stripped) != len(line):
            return len(line) - len(stripped)
    return 2
