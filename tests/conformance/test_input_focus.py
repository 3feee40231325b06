"""A failed case's input is shown by its decisive part: each value, in full, at a JSON path
where it differs from the nearest other case of its fixture file (CNF-040's reports)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from click.testing import CliRunner

from passdown.cli import cli
from passdown.conformance._compare import MAX_FOCUS, input_focus

LONG = "x" * 700 + "DECISIVE"


def _case(ident, value, kind="input"):
    return SimpleNamespace(id=ident, input_kind=kind, input_value=value)


def test_the_nearest_case_names_the_differing_paths_in_full():
    base = {"op": "replay", "now": "2026-05-04T10:02:00Z", "record": {"digest": "a", "ttl": 5}}
    near = {**base, "record": {"digest": LONG, "ttl": 5}}
    far = {"op": "warn", "now": "2027-01-01T00:00:00Z", "record": {"digest": "b", "ttl": 6}}
    focus = input_focus(_case("g.near", near), [_case("g.far", far), _case("g.base", base), _case("g.near", near)])
    assert focus == {"values": [{"path": "$.record.digest", "value": json.dumps(LONG)}], "against": "g.base"}


def test_a_missing_member_and_text_inputs():
    focus = input_focus(_case("g.a", {"a": 1}), [_case("g.b", {"a": 1, "b": [2]})])
    assert focus == {"values": [{"path": "$.b[0]"}], "against": "g.b"}
    assert input_focus(_case("g.t", '{"a": 1.0}', "input_text"), [_case("g.b", {"a": 1})]) == {
        "values": [{"path": "$.a", "value": "1.0"}], "against": "g.b"}
    assert input_focus(_case("g.raw", "AAAA", "input_base64"), []) is None
    assert input_focus(_case("g.t", "not json", "input_text"), []) is None


def test_alone_in_its_file_the_whole_input_is_shown_and_long_lists_are_counted():
    value = {f"k{i}": i for i in range(MAX_FOCUS + 5)}
    focus = input_focus(_case("g.only", value), [_case("g.only", value)])
    assert len(focus["values"]) == MAX_FOCUS and focus["more"] == 5 and "against" not in focus


def test_the_reports_show_the_decisive_value_whole(tmp_path):
    cases = [{"id": "title.focus.base", "description": "d", "requirements": ["TTL-009"],
              "input": {"title": "   ", "started_at": "2026-09-05T23:30:00Z"},
              "expected": {"output": {"status": "TITLE_UNAVAILABLE"}, "exit_code": 2}},
             {"id": "title.focus.long", "description": "d", "requirements": ["TTL-009"],
              "input": {"title": LONG, "started_at": "2026-09-05T23:30:00Z"},
              "expected": {"output": {"status": "TITLE_UNAVAILABLE"}, "exit_code": 2}}]
    (tmp_path / "title").mkdir()
    (tmp_path / "title" / "focus.json").write_text(json.dumps(
        {"gate": "title", "gate_version": "1.0.0", "description": "d", "cases": cases}))
    text = CliRunner().invoke(cli, ["conformance", "run", "--suite", str(tmp_path)]).output
    assert "  where the input differs from title.focus.base:\n" in text
    assert f"    $.title: {json.dumps(LONG)}\n" in text
    report = json.loads(CliRunner().invoke(cli, ["conformance", "run", "--suite", str(tmp_path),
                                                 "--format", "json"]).output)
    failed = next(c for c in report["cases"] if c["status"] == "failed")
    assert failed["input_focus"] == {"values": [{"path": "$.title", "value": json.dumps(LONG)}],
                                     "against": "title.focus.base"}
    passed = next(c for c in report["cases"] if c["status"] == "passed")
    assert "input_focus" not in passed


def test_input_nested_too_deep_to_walk_has_no_focus():
    deep = "[" * 100000 + "]" * 100000
    assert input_focus(_case("g.deep", '{"x": ' + deep + "}", "input_text"), [_case("g.b", {"x": 1})]) is None
    nested = 1
    for _ in range(5000):
        nested = [nested]
    assert input_focus(_case("g.deep", {"x": nested}), [_case("g.b", {"x": 1})]) is None
