"""The ``validate`` gate: one document in, whether it is a valid artifact of its kind out.

Input ``{"kind": "checkpoint", "name": "continue.xbrief.json", "document": {...}}`` (or
``"text": "..."`` for the document's exact text, which is how loading rules such as
duplicate keys or a BOM are exercised). Output ``{"valid", "errors", "warnings"}``: the
sorted, unique codes of the findings, by severity. The same engine as ``passdown validate``;
cross-file rules do not run (one document has no folder).
"""

from passdown.gates._table import Decision, InputError, dumps, parse_input

NAME = "validate"
VERSION = "1.0.0"
SUMMARY = "Whether one document is a valid artifact of its kind, as finding codes."
SPEC = "spec/gates/validate.md"
INPUT_SCHEMA = "gates/validate.input.schema.json"
OUTPUT_SCHEMA = "gates/validate.output.schema.json"
#: The document's own bound is the loading bound (10 MiB); the envelope may escape it.
MAX_INPUT_BYTES = 64 * 1024 * 1024

OUTCOMES = ("valid", "invalid", "bad_input")


def _bad_input():
    return Decision({"valid": False, "errors": ["gate.bad_input"], "warnings": []}, "bad_input", 2)


def run(raw):
    try:
        value = parse_input(raw, MAX_INPUT_BYTES)
    except InputError:
        return _bad_input()
    return decide(value)


def decide(value):
    from passdown.formats import _detect

    if not isinstance(value, dict) or set(value) - {"kind", "name", "document", "text"}:
        return _bad_input()
    kind, name = value.get("kind"), value.get("name")
    if kind not in _detect.kind_names() or ("document" in value) == ("text" in value):
        return _bad_input()
    # a `name` given is a non-blank string: `null` is not "absent" (CNF-102)
    if "name" in value and (not isinstance(name, str) or not name.strip()):
        return _bad_input()
    if "text" in value:
        if not isinstance(value["text"], str):
            return _bad_input()
        # lone surrogates survive as invalid UTF-8, which loading reports
        raw, syntax = value["text"].encode("utf-8", "surrogatepass"), None
    else:
        raw, syntax = dumps(value["document"]).encode("utf-8", "surrogatepass"), "json"
    return decide_bytes(raw, kind, name, syntax)


def check(raw, kind, name=None, syntax=None):
    """The validation outcome of one document's bytes, read as the gate reads them: under
    ``name``, else the kind's first file name (its first ``.json`` one for JSON); a kind with
    no file name of its own (``xbrief``, CNF-113) is read as JSON."""
    from passdown.formats import _detect
    from passdown.engine._validate import check_bytes

    if name is None:
        names = _detect.get(kind).names
        name = next((n for n in names if syntax != "json" or n.endswith(".json")),
                    names[0] if names else None)
    if name is None:
        syntax = syntax or "json"
    return check_bytes(raw, file=name or "-", filename=name, kind=kind, syntax=syntax)


def decide_bytes(raw, kind, name=None, syntax=None):
    """The decision on one document's bytes."""
    outcome = check(raw, kind, name, syntax)
    errors = sorted({f.code for f in outcome.findings if f.is_error})
    warnings = sorted({f.code for f in outcome.findings if not f.is_error})
    output = {"valid": not errors, "errors": errors, "warnings": warnings}
    return Decision(output, "invalid" if errors else "valid", 1 if errors else 0)
