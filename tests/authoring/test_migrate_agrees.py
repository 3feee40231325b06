"""``validate`` and ``migrate`` agree on what is fatal in a legacy checkpoint (CKP-033): over
every legacy document of the suite's validate cases, the real files of tests/data/real/ and the
examples, ``validate`` reports an error at exactly the paths where ``migrate`` (given the
identity options it asks for) reports a problem ``--fix`` cannot make, and a form ``--fix``
makes is a warning of ``validate`` (CKP-031) and a fixable problem of ``migrate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from passdown import validate_bytes
from passdown.authoring import migrate
from passdown.errors import PassdownError
from passdown.formats._detect import legacy_version

ROOT = Path(__file__).resolve().parents[2]
IDENTITY = {"goal_id": "goal-legacy", "main_id": "sess-a",
            "outcome": "The legacy work resumes from an xBRIEF 0.8 checkpoint"}
NAME = "continue.vbrief.json"


def _legacy(raw: bytes) -> bool:
    """Whether ``raw`` is a legacy checkpoint, or a file that says it is one but does not load
    (the byte order mark of a real one)."""
    try:
        return legacy_version(json.loads(raw.decode("utf-8-sig"))) is not None
    except ValueError:
        return False


def _documents():
    for path in sorted((ROOT / "conformance" / "cases" / "validate").glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            given = case.get("input")
            if isinstance(given, dict) and given.get("kind") == "checkpoint" \
                    and isinstance(given.get("document"), dict):
                yield case["id"], json.dumps(given["document"]).encode()
    for folder in ("tests/data/real", "examples"):
        for path in sorted((ROOT / folder).rglob("*.json")):
            yield path.relative_to(ROOT).as_posix(), path.read_bytes()


DOCUMENTS = [(name, raw) for name, raw in _documents() if _legacy(raw)]


def _validate(raw):
    findings = validate_bytes(raw, "checkpoint", NAME).findings
    return ({f.json_path for f in findings if f.severity == "error"},
            {f.json_path for f in findings if f.code == "checkpoint.legacy_fix"})


def _migrate(tmp_path, raw, fix=False):
    """``(fatal paths, fixable paths)`` of one ``migrate`` run; a refusal with no list of
    problems (a file that does not load) is fatal at the root."""
    source = tmp_path / "vbrief" / NAME
    source.parent.mkdir(exist_ok=True)
    source.write_bytes(raw)
    try:
        migrate(tmp_path, source=source, target=tmp_path / "out.json", identity=IDENTITY, fix=fix)
    except PassdownError as error:
        problems = getattr(error, "problems", None)
        if problems is None:
            return {"$"}, set()
        return ({p["path"] for p in problems if not p["fixable"]},
                {p["path"] for p in problems if p["fixable"]})
    return set(), set()


def test_the_corpus_holds_the_legacy_files_it_is_meant_to():
    names = [name for name, _ in DOCUMENTS]
    assert len(names) >= 16
    assert {"tests/data/real/deft-bdd-context-0.6.vbrief.json",
            "tests/data/real/deft-scope-404-0.6.vbrief.json",
            "tests/data/real/deft-spec-stale-0.5.vbrief.json",
            "validate.checkpoint.legacy.unmapped_status",
            "examples/invalid/checkpoint/legacy-fix.json"} <= set(names)


@pytest.mark.parametrize("name,raw", DOCUMENTS, ids=[name for name, _ in DOCUMENTS])
def test_validate_reports_an_error_exactly_where_migrate_finds_a_fatal_problem(tmp_path, name, raw):
    errors, fixable_forms = _validate(raw)
    fatal, fixable = _migrate(tmp_path, raw)
    if fatal == {"$"}:  # refused before any problem list: validate must refuse it too
        assert errors, name
    else:
        assert errors == fatal, name
        assert fixable_forms == fixable, name


@pytest.mark.parametrize("name,raw", DOCUMENTS, ids=[name for name, _ in DOCUMENTS])
def test_with_fix_migrate_writes_exactly_when_validate_reports_no_error(tmp_path, name, raw):
    errors, _ = _validate(raw)
    fatal, fixable = _migrate(tmp_path, raw, fix=True)
    assert fixable == set(), name
    assert (not errors) == (not fatal) == (tmp_path / "out.json").exists(), name
