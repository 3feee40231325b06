"""Bytes to data and back for the files the authoring commands change.

Reading goes through :mod:`baton._loading`, so a file an agent edited by hand meets every
input-hygiene rule (a finding's code becomes the error's code). Writing keeps the data's key
order exactly (unknown fields and other tools' ``x-.../`` blocks come back where they were),
writes UTF-8 without BOM, ends with a newline, and refuses values that are not JSON. A YAML
file is edited round-trip, so its comments survive too; timestamps stay strings.
"""

from __future__ import annotations

import io
import json
import os

from baton import _loading
from baton._errors import BatonError, UnreadableInput

#: The largest file the authoring commands read (the loader's bound).
MAX_BYTES = _loading.DEFAULT_MAX_BYTES


def syntax_of(path: str | os.PathLike) -> str:
    """``json`` or ``yaml``, from the file name; anything else is a usage error."""
    syntax = _loading.syntax_for(os.fspath(path))
    if syntax == "text":
        raise BatonError(f"{os.fspath(path)}: expected a .json, .yaml or .yml file name",
                         code="authoring.file_type",
                         hint="name the file with a .json or .yaml suffix")
    return syntax


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


def read_file(path: str) -> bytes:
    """The file's bytes within :data:`MAX_BYTES`; a missing file raises ``FileNotFoundError``
    (callers explain it), any other problem the loader's finding as an error."""
    if not os.path.lexists(path):
        raise FileNotFoundError(path)
    raw, findings = _loading.read_bounded(path, MAX_BYTES)
    if raw is None:
        raise_finding(findings[0])
    return raw


def check_size(path: str) -> None:
    """Refuse, before any lock or read, a file larger than :data:`MAX_BYTES`."""
    if os.stat(path).st_size > MAX_BYTES:
        raise UnreadableInput(f"{path}: the file is larger than the {MAX_BYTES:,}-byte bound",
                              code="load.too_large",
                              hint="split the content or link large evidence instead of "
                                   "copying it")


def raise_finding(finding) -> None:
    where = f" (line {finding.line})" if finding.line else ""
    raise UnreadableInput(f"{finding.file}{where}: {finding.message}", code=finding.code,
                          hint=finding.hint)


def _round_trip_yaml():
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import RoundTripConstructor, SafeConstructor

    class _Constructor(RoundTripConstructor):
        pass

    # the same rule as the strict loader: a timestamp is the string it was written as
    _Constructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)
    yaml = YAML(typ="rt")
    yaml.Constructor = _Constructor
    yaml.preserve_quotes = True
    yaml.width = 1 << 16  # never fold a long string over lines
    yaml.representer.add_representer(
        type(None), lambda representer, _: representer.represent_scalar(
            "tag:yaml.org,2002:null", "null"))
    return yaml


def render(data, *, syntax: str) -> bytes:
    """Serialise ``data`` in key order: JSON indented by two spaces, or block YAML."""
    if syntax == "yaml":
        buffer = io.StringIO()
        _round_trip_yaml().dump(data, buffer)
        return buffer.getvalue().encode("utf-8")
    try:
        text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError:  # 1e400 reads as infinity, which JSON cannot write
        raise BatonError("the document holds a number too large for JSON (it reads as "
                         "infinity)", code="load.non_finite",
                         hint="write the number as a string, or a smaller finite number") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate read from a \\uD800 escape: keep it escaped
        return (json.dumps(data, indent=2) + "\n").encode("ascii")
