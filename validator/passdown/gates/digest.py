"""The ``digest`` gate: one artifact in, its canonical bytes and digest out.

Input ``{kind, document | text | base64, algorithm?, syntax?, expected?}``; output
``{form, canonical | canonical_base64, digest}`` (exit 0), plus ``check`` when an ``expected``
digest is given (exit 1 unless it is ``match``), or ``{error, path?}`` (exit 2) when the input
cannot be put in canonical form. The canonical forms themselves live in
:mod:`passdown.formats._digest`; this module only reads the gate's input and shapes its output.
"""

from passdown.formats._digest import FORM_BY_KIND
from passdown.gates._table import Decision, InputError, parse_input

NAME = "digest"
VERSION = "1.0.0"
SUMMARY = "Canonical bytes and digest of one artifact."
SPEC = "spec/digest.md"
INPUT_SCHEMA = "gates/digest.input.schema.json"
OUTPUT_SCHEMA = "gates/digest.output.schema.json"
#: A 10 MB artifact in base64 fits, with room for the envelope.
MAX_INPUT_BYTES = 16 << 20

_SOURCES = ("document", "text", "base64")
_KEYS = frozenset(("kind", "algorithm", "syntax", "expected", *_SOURCES))
#: ``check`` values: the expected digest matched, or why it did not.
CHECKS = ("match", "digest.mismatch", "digest.malformed", "digest.unknown_algorithm")

OUTCOMES = (
    "digest",
    *CHECKS,
    "digest.input_invalid",
    "digest.input_unreadable",
    "digest.non_finite",
    "digest.integer_range",
    "digest.lone_surrogate",
    "digest.too_deep",
    "load.bom",
    "load.encoding",
    "load.syntax",
    "load.duplicate_key",
    "load.non_finite",
    "load.too_deep",
    "load.yaml_tag",
    "load.yaml_type",
    "load.empty",
    "load.too_many_digits",
    "load.string_too_long",
)


def _error(code, path=None):
    output = {"error": code}
    if path is not None:
        output["path"] = path
    return Decision(output, code, 2)


def run(raw):
    try:
        value = parse_input(raw, MAX_INPUT_BYTES)
    except InputError:
        return _error("digest.input_unreadable")
    return decide(value)


def decide(value):
    if not isinstance(value, dict) or not set(value) <= _KEYS:
        return _error("digest.input_invalid")
    kind = value.get("kind")
    form = FORM_BY_KIND.get(kind) if isinstance(kind, str) else None
    sources = [name for name in _SOURCES if name in value]
    if form is None or len(sources) != 1:
        return _error("digest.input_invalid")
    source = sources[0]
    algorithm = value.get("algorithm", "blake3")
    syntax = value.get("syntax")
    expected = value.get("expected")
    if not isinstance(algorithm, str) or ("syntax" in value and syntax not in ("json", "yaml")) or (
            "expected" in value and not isinstance(expected, str)):
        return _error("digest.input_invalid")
    if "syntax" in value:
        if source == "document" or form not in ("jcs", "yaml"):
            return _error("digest.input_invalid")
        form = "yaml" if syntax == "yaml" else "jcs"

    from passdown.formats import _digest

    check = None
    if expected is not None:
        try:
            expected_algorithm = _digest.parse_digest(expected)[0]
        except _digest.DigestError as error:
            check = error.code
        else:
            if "algorithm" in value and algorithm != expected_algorithm:
                return _error("digest.input_invalid")
            algorithm = expected_algorithm
    if algorithm not in _digest.ALGORITHMS:
        return _error("digest.unknown_algorithm")
    try:
        canonical = _canonical(form, source, value[source])
    except _digest.DigestError as error:
        return _error(error.code, error.path)
    if canonical is None:
        return _error("digest.input_invalid")
    digest = _digest.digest_bytes(canonical, algorithm)
    if form == "raw":
        import base64

        output = {"form": form, "canonical_base64": base64.b64encode(canonical).decode("ascii"),
                  "digest": digest}
    else:
        output = {"form": form, "canonical": canonical.decode("utf-8"), "digest": digest}
    if expected is None:
        return Decision(output, "digest", 0)
    if check is None:
        check = "match" if digest == expected else "digest.mismatch"
    output["check"] = check
    return Decision(output, check, 0 if check == "match" else 1)


def _canonical(form, source, given):
    """Canonical bytes, or ``None`` when ``given`` has the wrong type for its source."""
    from passdown.formats import _digest

    if source == "document":
        if form in ("packet", "raw"):
            return None
        return _digest.canonical_json(given)
    if not isinstance(given, str):
        return None
    if source == "base64":
        import binascii

        try:
            raw = binascii.a2b_base64(given.encode("ascii"), strict_mode=True)
        except (binascii.Error, UnicodeEncodeError, ValueError):
            return None
    else:
        try:
            raw = given.encode("utf-8")
        except UnicodeEncodeError:
            raise _digest.DigestError("the text holds a lone UTF-16 surrogate",
                                      code="digest.lone_surrogate") from None
    return _digest.canonical_bytes(raw, form)
