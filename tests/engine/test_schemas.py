"""The packaged schemas, their one registry and the two validators: never a remote
retrieval, one compiled validator per schema, and the fast validator agreeing with the
reference validator on every example and fixture document, valid and invalid."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from authoring_support import replaced
from engine_support import ACK, CHECKPOINT, REGISTRY, ROOT, TEST_SCHEMAS, isolated  # noqa: F401
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from passdown.engine import _schemas
from passdown.formats import _detect
from passdown.formats import _loading, _packet
from passdown.engine._schemas import SchemaMissing, Store, store

REAL = store()


def _load(raw: bytes, name: str, kind: str | None = None):
    """(kind, data) of a document that loads, or None."""
    placed = _detect.get(kind) if kind else _detect.by_filename(name)
    syntax = placed.syntax_for(name, raw) if placed else _loading.syntax_for(name)
    loaded, _ = _loading.load_bytes(raw, source=name, syntax=syntax)
    if loaded is None:
        return None
    if placed is None:
        placed = _detect.by_content(loaded.data, loaded.text if syntax == "text" else None)
    if placed is None:
        return None
    data = _packet.projection(_packet.parse(loaded.text)) if syntax == "text" else loaded.data
    return placed.name, data


def _example_documents():
    for path in sorted((ROOT / "examples").rglob("*")):
        if path.is_file():
            found = _load(path.read_bytes(), path.name)
            if found:
                yield str(path.relative_to(ROOT)), *found


def _fixture_documents():
    for path in sorted((ROOT / "conformance").rglob("*.json")):
        try:
            fixture = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if not isinstance(fixture, dict) or fixture.get("gate") != "validate":
            continue
        for case in fixture.get("cases", ()):
            value = case.get("input")
            try:
                if value is None and "input_text" in case:
                    value = json.loads(case["input_text"])
                elif value is None and "input_base64" in case:
                    value = json.loads(base64.b64decode(case["input_base64"]))
            except ValueError:  # gate input that is not JSON holds no document
                continue
            if not isinstance(value, dict) or value.get("kind") not in _detect.kind_names():
                continue
            # a kind with no file name of its own (xbrief) is read as JSON (CNF-102)
            name = value.get("name") or next(iter(_detect.get(value["kind"]).names), "document.json")
            if "document" in value:
                yield case["id"], value["kind"], value["document"]
            elif isinstance(value.get("text"), str):
                found = _load(value["text"].encode("utf-8", "surrogatepass"), name, value["kind"])
                if found:
                    yield case["id"], *found


def _kind_schema(kind: str) -> str:
    return _detect.get(kind).schema


DOCUMENTS = list(_example_documents()) + list(_fixture_documents())


def test_there_are_documents_to_compare():
    kinds = {kind for _, kind, _ in DOCUMENTS}
    assert {"checkpoint", "packet", "registry", "ack"} <= kinds


@pytest.mark.parametrize(("label", "kind", "document"), DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_fast_and_reference_validators_agree(label, kind, document):
    schema = _kind_schema(kind)
    reference = not any(REAL.reference_validator(schema).iter_errors(document))
    assert REAL.is_valid(schema, document) is reference


def _variants(document):
    """The document, and a copy of it with every string leaf replaced in turn."""
    leaves = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, child in node.items():
                walk(child, path + (key,))
        elif isinstance(node, list):
            for index, child in enumerate(node):
                walk(child, path + (index,))
        elif isinstance(node, str):
            leaves.append(path)

    walk(document, ())
    return leaves


SAMPLES = [(label, kind, document, path) for label, kind, document in DOCUMENTS
           for path in _variants(document)[:40]]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLES) if SAMPLES else st.nothing(),
       st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
       | st.sampled_from(["", " ", "\x85", "\u00a0", "\ufeff", "\u2028", "\u180e", "\u0663",
                          "a\nb", "2026-10-12T09:41:00+02:00", "2026-10-12T09:41:00",
                          "blake3:" + "0" * 64, "sha256:" + "a" * 64]))
def test_validators_agree_on_changed_strings(sample, value):
    """Both validators read patterns alike: a schema pattern written with a class one of
    them reads differently (``\\d``, ``\\w``, ``\\s`` beyond ASCII) shows up here."""
    label, kind, document, path = sample
    changed = replaced(document, path, value)
    schema = _kind_schema(kind)
    reference = not any(REAL.reference_validator(schema).iter_errors(changed))
    assert REAL.is_valid(schema, changed) is reference, (label, path, value)


def test_every_packaged_schema_is_a_valid_2020_12_schema_with_its_own_id():
    files = REAL.files()
    assert {"checkpoint", "packet", "registry", "ack", "findings"} <= set(files)
    for name, schema_file in files.items():
        schema = REAL.contents(name)
        Draft202012Validator.check_schema(schema)
        assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema", name
        relative = schema_file.path.relative_to(REAL.root).as_posix()
        assert schema_file.id == f"https://spec.passdown.dev/schemas/{relative}", name


def test_every_kind_names_a_packaged_schema_or_none_yet():
    for kind in _detect.KINDS:
        path = REAL.root / "v1" / kind.schema
        if path.exists():
            assert REAL.find(kind.schema).path == path


def test_lookup_by_name_file_and_id():
    ack = REAL.find("ack")
    assert REAL.find("ack.schema.json") == ack == REAL.find(ack.id) == REAL.find(str(ack.path))
    assert REAL.find("schemas/v1/ack.schema.json") == ack
    with pytest.raises(SchemaMissing):
        REAL.find("no-such-schema")


def test_validators_are_built_once():
    assert REAL.reference_validator("ack") is REAL.reference_validator("ack.schema.json") \
        or REAL.reference_validator("ack") is REAL.reference_validator("ack")
    assert REAL._rs_validator("ack") is REAL._rs_validator("ack")
    assert store() is store()
    assert REAL.registry is REAL.registry


def _store_with(tmp_path: Path, schemas: dict) -> Store:
    folder = tmp_path / "v1"
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas.items():
        (folder / f"{name}.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    return Store(tmp_path)


def test_nothing_outside_the_package_is_ever_retrieved(tmp_path, monkeypatch):
    import urllib.request

    def no_network(*args, **kwargs):
        raise AssertionError("a network retrieval was attempted")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    test_store = _store_with(tmp_path, {"thing": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://spec.passdown.dev/schemas/v1/thing.schema.json",
        "properties": {"a": {"$ref": "https://example.com/remote.schema.json"}},
    }})
    assert test_store.is_valid("thing", {"a": 1}) is None
    [(parts, finding)] = test_store.check("thing", {"a": 1}, file="x.json")
    assert finding.code == "schema.unresolvable"
    assert "https://example.com/remote.schema.json" in finding.message


def test_format_is_an_annotation_in_both_validators(tmp_path):
    test_store = _store_with(tmp_path, {"dated": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://spec.passdown.dev/schemas/v1/dated.schema.json",
        "properties": {"at": {"type": "string", "format": "date-time"},
                       "mail": {"format": "email"}},
    }})
    document = {"at": "not a time", "mail": "nobody"}
    assert test_store.is_valid("dated", document) is True
    assert test_store.check("dated", document, file=None) == []
    assert not list(test_store.reference_validator("dated").iter_errors(document))


def test_values_the_fast_validator_cannot_take_go_to_the_reference(isolated):
    test_store = _schemas.store()
    huge = {**REGISTRY, "revision": 10**30}
    assert test_store.is_valid("registry", huge) in (None, True)
    assert test_store.check("registry", huge, file=None) == []


def test_test_schemas_differ_from_the_real_ones():
    assert Store(TEST_SCHEMAS).contents("ack")["title"] == "test ack"


def test_too_many_errors_are_capped(tmp_path):
    test_store = _store_with(tmp_path, {"many": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://spec.passdown.dev/schemas/v1/many.schema.json",
        "type": "array", "items": {"type": "string"},
    }})
    found = test_store.check("many", list(range(1000)), file=None)
    codes = [finding.code for _, finding in found]
    assert codes.count("schema.type") == _schemas.MAX_SCHEMA_FINDINGS
    assert codes[-1] == "schema.too_many_errors"


def test_the_valid_path_imports_neither_jsonschema_nor_click():
    script = (
        "import sys, passdown\n"
        "report = passdown.validate_paths(['examples/handoff'])\n"
        "assert report.ok, report.findings\n"
        "print(sorted(m for m in ('jsonschema', 'referencing', 'click') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_example_checkpoint_names_no_schema_by_url_that_is_not_packaged():
    ids = {schema_file.id for schema_file in REAL.files().values()}
    for name in REAL.files():
        text = json.dumps(REAL.contents(name))
        for ref in _refs(REAL.contents(name)):
            if ref.startswith("https://") and not ref.startswith("https://json-schema.org/"):
                assert ref.split("#")[0] in ids, (name, ref, text[:0])


def _refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("$ref", "$dynamicRef") and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def test_engine_documents_agree_too(isolated):
    test_store = _schemas.store()
    for kind, document in (("checkpoint", CHECKPOINT), ("ack", ACK), ("registry", REGISTRY),
                           ("ack", {**ACK, "goal_id": "Not Valid"}), ("checkpoint", {})):
        schema = _kind_schema(kind)
        reference = not any(test_store.reference_validator(schema).iter_errors(document))
        assert test_store.is_valid(schema, document) is reference


# What ECMA-262 answers, written down from its definitions (not computed by either validator).
ECMA_CASES = [
    ("^abc$", "abc", True), ("^abc$", "abc\n", False),
    ("^a.c$", "abc", True), ("^a.c$", "a\rc", False), ("^a.c$", "a\u2028c", False),
    ("^\\d+$", "123", True), ("^\\d+$", "\u0663", False),
    ("^\\w+$", "a_1", True), ("^\\w+$", "\u00e9", False), ("^\\W$", "\u00e9", True),
    ("\\S", "\x85", True), ("\\S", "\ufeff", False), ("\\S", "\u00a0", False), ("\\S", "\x1c", True),
    ("^\\s$", "\ufeff", True), ("^\\s$", "\x85", False), ("^\\D$", "\u0663", True),
    ("^[\\s]$", "\u3000", True), ("^[^\\s]$", "\x85", True), ("^[\\d.]+$", "1.2", True),
    ("^[\\d.]+$", "1\u06632", False), ("^[$.]+$", "$.", True), ("^\\$\\.$", "$.", True),
    ("^[^\\x00-\\x1f]*[^\\s\\x00-\\x1f][^\\x00-\\x1f]*$", "\x85", True),
    ("^[^\\x00-\\x1f]*[^\\s\\x00-\\x1f][^\\x00-\\x1f]*$", "\ufeff ", False),
    ("^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$", "1.0\n", False),
    # look-around: the fast validator's own reading of \\s changes there
    ("^[^\\s](?![\\s\\S])", "\x85", True), ("^[^\\s](?![\\s\\S])", "\ufeff", False),
    ("^\\S+(?![\\s\\S])", "a\x85", True), ("^a(?![\\s\\S])", "a\n", False),
    ("^a(?![\\s\\S])", "a", True), ("^[\\s\\S]$", "\x85", True), ("^[\\S]$", "\U0001f600", True),
    ("^[\\w\\-\\]]+$", "a-]", True), ("^[^\\]\\\\]$", "\\", False),
]


@pytest.mark.parametrize(("pattern", "text", "expected"), ECMA_CASES)
def test_patterns_mean_what_ecma_262_says_in_both_validators(pattern, text, expected):
    import re

    import jsonschema_rs

    from passdown.engine._ecma import original, to_fast, to_python

    fast = to_fast(pattern)
    assert jsonschema_rs.validator_for({"pattern": fast}).is_valid(text) is expected
    translated = to_python(pattern)
    assert bool(re.search(translated, text)) is expected
    assert original(translated) == original(fast) == pattern


def test_translation_leaves_data_and_names_alone():
    from passdown.engine._ecma import translate_schema

    schema = {
        "properties": {"pattern": {"type": "string", "pattern": "^\\d$"},
                       "const": {"pattern": "a$"}},
        "patternProperties": {"^x-\\w+$": {"const": {"pattern": "$"}}},
        "examples": [{"pattern": "$"}], "enum": ["$"], "default": {"pattern": "$"},
    }
    assert translate_schema(schema) == {
        "properties": {"pattern": {"type": "string", "pattern": "^[\\x30-\\x39]\\Z"},
                       "const": {"pattern": "a\\Z"}},
        "patternProperties": {"^x-[\\x30-\\x39\\x41-\\x5a\\x5f\\x61-\\x7a]+\\Z": {"const": {"pattern": "$"}}},
        "examples": [{"pattern": "$"}], "enum": ["$"], "default": {"pattern": "$"},
    }


def test_pattern_messages_show_the_pattern_as_written(isolated):
    import passdown

    report = passdown.validate_bytes(json.dumps({**ACK, "goal_id": "goal\n"}).encode(), "ack")
    (finding,) = report.findings
    assert finding.code == "schema.pattern"
    assert finding.message.endswith("(pattern ^[a-z0-9-]+$)")
