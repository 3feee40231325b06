"""The files the authoring commands change: which syntax a file name says, and its bytes read
within the size bound. Bytes to data and back is :mod:`passdown.workspace._editing`.
"""

from __future__ import annotations

import os

from passdown.formats import _files, _loading
from passdown.workspace._editing import raise_finding
from passdown.errors import PassdownError, UnreadableInput

#: The largest file the authoring commands read (the loader's bound).
MAX_BYTES = _loading.DEFAULT_MAX_BYTES


def syntax_of(path: str | os.PathLike) -> str:
    """``json`` or ``yaml``, from the file name; anything else is a usage error."""
    syntax = _loading.syntax_for(os.fspath(path))
    if syntax == "text":
        raise PassdownError(f"{os.fspath(path)}: expected a .json, .yaml or .yml file name",
                         code="authoring.file_type",
                         hint="name the file with a .json or .yaml suffix")
    return syntax


def read_file(path: str) -> bytes:
    """The file's bytes within :data:`MAX_BYTES`; a missing file raises ``FileNotFoundError``
    (callers explain it), any other problem the loader's finding as an error."""
    if not os.path.lexists(path):
        raise FileNotFoundError(path)
    raw, findings = _loading.read_bounded(path, MAX_BYTES)
    if raw is None:
        raise_finding(findings[0])
    return raw


def check_size(path: str, *, hint: str = "split the content or link large evidence instead "
                                         "of copying it") -> None:
    """Refuse, before any lock or read, anything but a regular file of at most
    :data:`MAX_BYTES` (the size the open descriptor reports: a FIFO or a device is refused
    by :mod:`passdown.formats._files` before it could block; the read under the lock is bounded
    again, for a file that grows meanwhile)."""
    fd = _files.open_regular(path)
    try:
        size = os.fstat(fd).st_size
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise UnreadableInput(f"{path}: the file is larger than the {MAX_BYTES:,}-byte bound",
                              code="load.too_large", hint=hint)
