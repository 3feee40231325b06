"""spec/authoring.md and the code agree: every code the authoring commands raise is in the
page's Codes table with its exit status, every code in the table is raised somewhere, and
the files the page names exist."""

from __future__ import annotations

import re

from authoring_support import REPO

from passdown.errors import PassdownError, ConflictError, LockTimeout, RefusedError, UsageError
from passdown.workspace._authority import AuthorityError

SPEC = REPO / "spec" / "authoring.md"
# `_record.py` is `passdown digest --record`'s step of the store: its codes are spec/digest.md's.
SOURCES = sorted(p for p in (REPO / "validator" / "passdown" / "authoring").glob("*.py")
                 if p.name != "_record.py") + [
    REPO / "validator" / "passdown" / "cli" / "_authoring.py"]


def table():
    text = SPEC.read_text()
    section = text[text.index("## Codes"):]
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^\| `([a-z_.*]+)` \| (\d) \|", section, re.M)}


def raised():
    """code -> exit status, read from the raise sites (`SomeError(..., code="x")`)."""
    classes = {"RefusedError": RefusedError, "ConflictError": ConflictError,
               "UsageError": UsageError, "UnreadableInput": 2, "PassdownError": PassdownError,
               "AuthorityError": AuthorityError}
    constructor = re.compile(r"\b(" + "|".join(classes) + r")\(")
    found = {}
    for path in SOURCES:
        text = path.read_text()
        for match in re.finditer(r'code="([a-z_.]+)"', text):
            kind = list(constructor.finditer(text, 0, match.start()))[-1].group(1)
            error = classes[kind]
            found[match.group(1)] = error if isinstance(error, int) else error.exit_code
    return found


def test_every_raised_code_is_documented_with_its_exit_status():
    documented = table()
    codes = raised()
    assert len(codes) > 30
    for code, status in codes.items():
        key = code if code in documented else "load.*" if code.startswith("load.") else code
        assert key in documented, f"{code} is not in the Codes table"
        assert documented[key] == status, code


def test_every_documented_code_is_raised():
    codes = set(raised()) | {LockTimeout.code, "usage"}
    for code in table():
        if code != "load.*":
            assert code in codes, f"{code} is documented but never raised"


def test_named_files_exist():
    text = SPEC.read_text()
    for name in re.findall(r"`((?:examples|tests|schemas)/[^`]+)`", text):
        assert (REPO / name).exists(), name
