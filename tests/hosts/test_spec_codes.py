"""spec/hosts.md and the code agree: every code the hooks, the settings install and the MCP
server raise is in the page's Codes table with its exit status, and every code in the table
is raised somewhere."""

from __future__ import annotations

import re

from passdown.errors import PassdownError, RefusedError, UnreadableInput, UsageError
from docs_support import ROOT

SPEC = ROOT / "spec" / "hosts.md"
PACKAGE = ROOT / "validator" / "passdown"
SOURCES = [*sorted((PACKAGE / "hosts").glob("*.py")), *sorted((PACKAGE / "mcp").glob("*.py")),
           PACKAGE / "cli" / "_hook.py", PACKAGE / "cli" / "_mcp.py"]
# A hook failure is answered in its event's failure form: `ask` (exit 0) or exit 1.
HOOK_FAILURE = "0 / 1"


def table():
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("## Codes"):]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z_.]+)` \| ([\d /]+?) \|", section, re.M)}


def raised():
    """code -> exit status as the table writes it, read from the raise sites."""
    from passdown.mcp._resources import ResourceError

    classes = {"RefusedError": RefusedError, "UsageError": UsageError, "PassdownError": PassdownError,
               "ResourceError": ResourceError, "UnreadableInput": UnreadableInput,
               "HookError": HOOK_FAILURE}
    constructor = re.compile(r"\b(" + "|".join(classes) + r")\(")
    found = {}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r'(?:code=|HookError\()"([a-z_.]+)"', text):
            kind = list(constructor.finditer(text, 0, match.end()))[-1].group(1)
            error = classes[kind]
            found[match.group(1)] = error if isinstance(error, str) else str(error.exit_code)
        for match in re.finditer(r'\bcode = "([a-z_.]+)"', text):  # a class's own code
            found[match.group(1)] = "2"
        # a JSON-RPC error the server answers itself: `_answer(id, NUMBER, "code", ...)`
        for match in re.finditer(r'\b_answer\([^,()]+, [A-Z_]+, "([a-z_.]+)"', text):
            found[match.group(1)] = "2"
    return found


def test_every_raised_code_is_documented_with_its_exit_status():
    documented, codes = table(), raised()
    assert len(codes) >= 15
    for code, status in codes.items():
        if code.startswith("load."):
            continue  # the loading codes are spec/input-safety.md's
        assert documented.get(code) == status, f"{code}: raised with exit {status}, documented {documented.get(code)}"


def test_every_documented_code_is_raised():
    codes = raised()
    for code in table():
        assert code in codes, f"{code} is documented but never raised"
