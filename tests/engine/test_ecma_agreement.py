"""Schema patterns mean what ECMA-262 says in every validator path (GEN-017, CNF-106): the
Python validator (``jsonschema``) and the fast one (``jsonschema_rs``) give the same verdict
on every pattern of every packaged and conformance schema, for the characters where their
regular expression engines differ; and the gates' own readers of identifiers and text give
the verdict of the schema patterns they stand for."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema_rs
import pytest

from passdown.engine._ecma import to_fast, to_python
from passdown.formats._handoff_record import MAX_REASON_LENGTH, is_text
from passdown.formats._values import WHITE_SPACE, is_blank, is_id

ROOT = Path(__file__).resolve().parents[2]
#: Where Python's ``re`` and ECMA-262 part ways: Unicode digits, word characters and white
#: space, U+FEFF and U+0085, a final line feed, line terminators, astral characters.
PROBES = ("a", "1", "\u0663", "\uff11", "\u00e9", "_", " ", "\ufeff", "\x85", "\u180e", "\u2028", "\u3000",
          "a\n", "\n", "\r", "\x1c", "\x7f", "\x9f", "\u00a0", "\U0001F600", "a b", "-", "$", "\t", "")


def _patterns():
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("const", "enum", "examples", "default"):
                    continue
                if key == "pattern" and isinstance(value, str):
                    found.add(value)
                elif key == "patternProperties" and isinstance(value, dict):
                    found.update(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for path in sorted((ROOT / "schemas").rglob("*.json")) + sorted((ROOT / "conformance").glob("**/*.schema.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return sorted(found)


PATTERNS = _patterns()


@pytest.mark.parametrize("pattern", PATTERNS)
def test_both_validators_read_every_pattern_alike(pattern):
    python, fast = re.compile(to_python(pattern)), jsonschema_rs.validator_for({"pattern": to_fast(pattern)})
    for probe in PROBES:
        assert bool(python.search(probe)) is fast.is_valid(probe), (pattern, probe)


@pytest.mark.parametrize("pattern", [p for p in PATTERNS if "\\" not in p])
def test_patterns_without_class_escapes_need_no_translation_in_the_fast_validator(pattern):
    """The fixture and report schemas are checked by the fast validator as written: their
    patterns use explicit classes only, so the untranslated path agrees too."""
    raw = jsonschema_rs.validator_for({"pattern": pattern})
    fast = jsonschema_rs.validator_for({"pattern": to_fast(pattern)})
    for probe in PROBES:
        assert raw.is_valid(probe) is fast.is_valid(probe), (pattern, probe)


def _schema_pattern(relative, *path):
    node = json.loads((ROOT / "schemas" / "v1" / relative).read_text(encoding="utf-8"))
    for part in path:
        node = node[part]
    return re.compile(to_python(node["pattern"]))


IDENTIFIER = _schema_pattern("defs.schema.json", "$defs", "identifier")
REASON = _schema_pattern("handoff.schema.json", "properties", "reason")


@pytest.mark.parametrize("probe", PROBES + ("\x00a", "a\x80", "\ufeff\u3000", "\u180e\u180e", "~"))
def test_the_gates_read_identifiers_and_text_as_the_schemas_do(probe):
    assert is_id(probe) is bool(IDENTIFIER.search(probe)), repr(probe)
    assert is_text(probe, MAX_REASON_LENGTH, multiline=False) is bool(REASON.search(probe)), repr(probe)


def test_white_space_is_ecma_262_s():
    fast = jsonschema_rs.validator_for({"pattern": "^" + to_fast("\\s") + "$"})
    assert {chr(code) for code in range(0x110000) if 0xD800 > code or code > 0xDFFF
            if fast.is_valid(chr(code))} == WHITE_SPACE
    assert is_blank("") and is_blank("\ufeff\t") and not is_blank("\x85")
