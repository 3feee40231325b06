"""``passdown validate --kind xbrief``: any xBRIEF 0.8 document linted against the core and
upstream's own DAG, edge and id rules, without the checkpoint profile (CNF-113)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import shared_reference

from passdown import validate_paths
from xbrief_fixtures import appendix_c

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "data" / "real"


def _codes(path):
    report = validate_paths([str(path)], kind="xbrief")
    return sorted(f.code for f in report.findings), report.exit_code()


def _write(tmp_path, document, name="plan.xbrief.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def _appendix():
    folder = shared_reference.require("xbrief-upstream", "xbrief-spec-0.8.md")  # fails in CI without it
    return appendix_c((folder / "xbrief-spec-0.8.md").read_text(encoding="utf-8"))


def test_every_complete_example_of_the_upstream_spec_is_clean(tmp_path):
    """Upstream's own examples, as they are: no block, no narratives the profile wants."""
    examples = _appendix()
    assert sorted(examples) == ["C.1", "C.2", "C.3", "C.4"]
    for name, document in examples.items():
        assert _codes(_write(tmp_path, document, f"{name}.json")) == ([], 0), name


def test_the_dag_and_edge_rules_of_the_core(tmp_path):
    document = {"xBRIEFInfo": {"version": "0.8"},
                "plan": {"title": "P", "status": "running",
                         "items": [{"id": "a", "title": "A", "status": "pending"},
                                   {"id": "b", "title": "B", "status": "auto"},
                                   {"id": "a", "title": "A again", "status": "pending"}],
                         "edges": [{"from": "a", "to": "b", "type": "blocks"},
                                   {"from": "b", "to": "a", "type": "blocks"},
                                   {"from": "a", "to": "nowhere", "type": "blocks"}]}}
    assert _codes(_write(tmp_path, document)) == (
        ["xbrief.auto_on_leaf", "xbrief.duplicate_id", "xbrief.edge_cycle",
         "xbrief.edge_dangling"], 1)


def test_nothing_of_the_checkpoint_profile_applies(tmp_path):
    """No pending item, no Decisions, no ResumePoint, no block: a finished plan is fine."""
    document = {"xBRIEFInfo": {"version": "0.8"},
                "plan": {"title": "Done", "status": "completed",
                         "items": [{"id": "a", "title": "A", "status": "completed"}]}}
    assert _codes(_write(tmp_path, document)) == ([], 0)


def test_a_core_schema_violation_is_reported(tmp_path):
    document = {"xBRIEFInfo": {"version": "0.8"}, "plan": {"title": "P", "status": "later"}}
    codes, status = _codes(_write(tmp_path, document))
    assert (status, set(codes)) == (1, {"schema.enum", "schema.required"})


@pytest.mark.parametrize("name", ["deft-scope-704.vbrief.json", "deft-specification-0.5.vbrief.json"])
def test_a_real_legacy_plan_is_told_to_convert_first_and_nothing_else(name):
    report = validate_paths([str(REAL / name)], kind="xbrief")
    assert [(f.code, f.json_path) for f in report.findings] == [
        ("xbrief.legacy_version", "$.vBRIEFInfo")]


def test_the_kind_is_never_found_by_name_or_content(tmp_path):
    document = {"xBRIEFInfo": {"version": "0.8"},
                "plan": {"title": "P", "status": "running", "items": []}}
    path = _write(tmp_path, {**document, "kind": "xbrief"}, "plan.json")
    report = validate_paths([str(path)])
    assert report.kinds == ((str(path), "checkpoint"),)  # its xBRIEFInfo places it
    path = _write(tmp_path, {"kind": "xbrief"}, "other.json")
    assert [f.code for f in validate_paths([str(path)]).findings] == ["detect.unknown_kind"]
