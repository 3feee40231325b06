"""The fixture format and `passdown conformance check`: schema, suite lint, coverage."""

import copy
import json
import re

import jsonschema
import pytest

from passdown.conformance import check, load_suite
from passdown.conformance._check import description_problem, json_text, text
from conformance_toy import shout_gate, toy

FIXTURE = {
    "gate": "shout",
    "gate_version": "1.0.0",
    "description": "a file for the tests",
    "cases": [{
        "id": "shout.t.one",
        "description": "one case",
        "requirements": ["CNF-901"],
        "input": {"text": "x"},
        "expected": {"output": {"text": "X", "length": 1}, "exit_code": 0},
    }],
}


def write_suite(root, files):
    """``files``: {relative path: document or raw text}."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return root


def fixture(**case_changes):
    document = copy.deepcopy(FIXTURE)
    document["cases"][0].update(case_changes)
    return document


def codes(findings):
    return sorted(f.code for f in findings)


def schema():
    return json.loads((toy.REPO / "conformance" / "fixture.schema.json").read_text())


class TestSchema:
    def test_is_a_valid_draft_2020_12_schema_with_titles_everywhere(self):
        document = schema()
        jsonschema.Draft202012Validator.check_schema(document)
        assert document["$id"] == "https://spec.passdown.dev/conformance/fixture.schema.json"

        def walk(node, path):
            if isinstance(node, dict):
                for name, sub in node.get("properties", {}).items():
                    assert "title" in sub and "description" in sub, f"{path}.{name}"
                for key, value in node.items():
                    walk(value, f"{path}.{key}")
            elif isinstance(node, list):
                for item in node:
                    walk(item, path)
        walk(document, "$")

    def test_toy_suite_and_example_are_valid(self):
        validator = jsonschema.Draft202012Validator(schema())
        for path in list(toy.CASES.rglob("*.json")) + [toy.REPO / "conformance" / "examples" / "fixture.json"]:
            assert list(validator.iter_errors(json.loads(path.read_text()))) == [], path

    @pytest.mark.parametrize("change", [
        {"input_text": "{}"},  # two inputs
        {"id": "Shout.Upper"},
        {"id": "shout"},  # no dotted slug
        {"requirements": []},
        {"requirements": ["cnf-901"]},
        {"expected": {"output": 1}},
        {"expected": {"output": 1, "exit_code": 256}},
        {"expected": {"output": 1, "exit_code": 0, "extra": True}},
        {"tags": ["Not A Slug"]},
        {"surprise": 1},
        {"expected": {"output": 1, "exit_code": 77}},  # 77 means "skipped" in program mode
    ])
    def test_rejects(self, change):
        document = fixture(**change)
        assert list(jsonschema.Draft202012Validator(schema()).iter_errors(document))

    @pytest.mark.parametrize("version", [None, "1.0", "v1.0.0", "1.0.0-rc1", "01.0.0", 1])
    def test_every_file_states_its_gate_version_in_the_one_shape(self, version):
        document = copy.deepcopy(FIXTURE)
        if version is None:
            del document["gate_version"]
        else:
            document["gate_version"] = version
        assert list(jsonschema.Draft202012Validator(schema()).iter_errors(document))

    def test_rejects_a_case_without_input(self):
        document = fixture()
        del document["cases"][0]["input"]
        assert list(jsonschema.Draft202012Validator(schema()).iter_errors(document))


class TestLoadSuite:
    def test_toy_suite_loads(self):
        suite = toy.suite()
        assert suite.usable
        assert [c.id for c in suite.cases] == [
            "shout.basic.word", "shout.basic.float", "shout.basic.not_object",
            "shout.bytes.nan", "shout.bytes.not_utf8", "shout.bytes.too_large"]
        word, nan, not_utf8 = suite.cases[0], suite.cases[3], suite.cases[4]
        assert word.raw_input() == b'{"text":"hey"}'
        assert word.wire() == {"id": "shout.basic.word", "gate": "shout", "input": {"text": "hey"}}
        assert nan.raw_input() == b"NaN" and not_utf8.raw_input() == b"\xff"
        assert word.json_path == "$.cases[0]" and word.tags == ("basic",)

    @pytest.mark.parametrize("content, code", [
        ('{"gate": "shout", "gate": "shout"}', "load.duplicate_key"),
        ('{"gate": NaN}', "load.non_finite"),
        ('\ufeff{}', "load.bom"),
        ('{"gate": ', "load.syntax"),
        ("", "load.empty"),
    ])
    def test_unreadable_files_are_findings(self, tmp_path, content, code):
        suite = load_suite(write_suite(tmp_path, {"shout/x.json": content}))
        assert codes(suite.findings) == [code] and suite.cases == ()

    def test_schema_errors_name_the_path(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, {"shout/x.json": fixture(expected={"output": 1})}))
        [finding] = suite.findings
        assert (finding.code, finding.json_path) == ("fixture.schema", "$.cases[0].expected")
        assert "exit_code" in finding.message and finding.requirement == "CNF-001"

    def test_two_inputs_get_a_plain_message(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, {"shout/x.json": fixture(input_text="{}")}))
        [finding] = suite.findings
        assert finding.message == "give exactly one of input, input_text and input_base64"

    def test_a_file_without_gate_version_is_named_with_the_command_that_adds_it(self, tmp_path):
        document = fixture()
        del document["gate_version"]
        suite = load_suite(write_suite(tmp_path, {"shout/x.json": document}))
        [finding] = suite.findings
        assert (finding.code, finding.json_path) == ("fixture.gate_version_missing", "$")
        assert finding.hint == f"add it: python -m passdown.conformance.versions --write {tmp_path}/shout/x.json"

    def test_schema_errors_on_text_with_a_lone_surrogate_are_findings(self, tmp_path):
        document = fixture(description="\ud800", expected={"output": "\udc80"})
        suite = load_suite(write_suite(tmp_path, {"shout/x.json": document}))
        [finding] = suite.findings
        assert (finding.code, finding.json_path) == ("fixture.schema", "$.cases[0].expected")

    def test_file_outside_its_gate_folder(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, {"other/x.json": fixture()}))
        assert codes(suite.findings) == ["fixture.gate_folder"]

    def test_id_without_gate_prefix(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, {"shout/x.json": fixture(id="other.t.one")}))
        assert codes(suite.findings) == ["fixture.id_prefix"]

    def test_duplicate_ids_across_files(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, {"shout/a.json": fixture(), "shout/b.json": fixture()}))
        [finding] = suite.findings
        assert finding.code == "fixture.duplicate_id" and finding.file.endswith("b.json")
        assert [c.id for c in suite.cases] == ["shout.t.one"]

    def test_bad_base64_and_lone_surrogates(self, tmp_path):
        bad_base64 = fixture(input_base64="abc")
        del bad_base64["cases"][0]["input"]
        surrogate = fixture(input_text="\ud800", id="shout.t.two")
        del surrogate["cases"][0]["input"]
        suite = load_suite(write_suite(tmp_path, {"shout/a.json": bad_base64, "shout/b.json": surrogate}))
        assert codes(suite.findings) == ["fixture.base64", "fixture.input_text"]


class TestDescriptionStyle:
    @pytest.mark.parametrize("description, problem", [
        ("a fine description", None),
        ("`BLOCKED` stays blocked", None),
        ("2 compactions trigger an assessment", None),
        ("Capital start", "capital"),
        ("ends with a period.", "period"),
        ("two\nlines", "several lines"),
        ("x" * 121, "121 characters"),
        (" leading space", "white space"),
    ])
    def test_rules(self, description, problem):
        found = description_problem(description)
        assert (found is None) if problem is None else (problem in found)


def check_toy(root, catalogue=None):
    return check(load_suite(root), catalogue or toy.catalogue(), table=toy.TABLE)


class TestCheck:
    def test_toy_suite_is_clean(self):
        result = check_toy(toy.CASES)
        assert result.findings == () and result.exit_code == 0
        assert (result.cases, result.files, result.must_level, result.must_covered, result.not_testable,
                result.must_uncovered) == (6, 2, 3, 2, 1, 0)
        [gate] = result.gates
        assert gate.outcomes == ("SHOUTED", "INVALID") and gate.covered == ("SHOUTED", "INVALID")

    def test_reports_every_problem(self, tmp_path):
        broken = fixture(description="Capital and period.", requirements=["CNF-999", "CNF-904"])
        broken["description"] = "Bad file description."
        broken["cases"][0]["expected"] = {"output": {"text": "x"}, "exit_code": 0, "stdout": "{}\n"}
        result = check_toy(write_suite(tmp_path, {"shout/a.json": broken, "nope/b.json": {
            "gate": "nope", "gate_version": "1.0.0", "description": "an unknown gate", "cases": [{
                "id": "nope.one", "description": "d", "requirements": ["CNF-901"], "input": 1,
                "expected": {"output": 1, "exit_code": 0}}]}}))
        assert codes(result.findings) == sorted([
            "fixture.description", "fixture.description",
            "fixture.unknown_requirement", "fixture.untestable_requirement",
            "fixture.stdout_mismatch",
            "coverage.requirement",  # CNF-902 is named by no case now
            "suite.unknown_gate",
            "reference.fails",  # the broken case expects the wrong output
            "coverage.outcome", "coverage.outcome",  # no passing case expects SHOUTED or INVALID
        ])
        assert result.exit_code == 1
        untestable = next(f for f in result.findings if f.code == "fixture.untestable_requirement")
        assert untestable.severity == "warning"
        fails = next(f for f in result.findings if f.code == "reference.fails")
        assert fails.json_path == "$.cases[0]" and '\n$.text: expected "x", got "X"\n$.length: expected absent, got 1' in fails.message

    def test_gate_without_cases_and_gate_that_cannot_load(self, tmp_path):
        class Broken:
            pass  # no OUTCOMES

        table = {"shout": shout_gate, "empty": shout_gate, "broken": Broken}
        root = write_suite(tmp_path, {"shout/a.json": toy.CASES.joinpath("shout/basic.json").read_text(),
                                      "shout/b.json": toy.CASES.joinpath("shout/bytes.json").read_text(),
                                      "broken/c.json": {**fixture(id="broken.one"), "gate": "broken"}})
        result = check(load_suite(root), toy.catalogue(), table=table)
        assert codes(result.findings) == ["suite.gate_unavailable", "suite.gate_without_cases"]
        assert "empty gate has no cases" in next(f.message for f in result.findings
                                                 if f.code == "suite.gate_without_cases")

    @pytest.mark.parametrize("version, reason", [
        ("1.1.0", "the implementation implements shout 1.0.0, an older version"),
        ("2.0.0", "the implementation implements shout 1.0.0, another major version"),
    ])
    def test_a_file_for_a_version_the_reference_does_not_run(self, tmp_path, version, reason):
        files = {name: json.loads(toy.CASES.joinpath("shout", name).read_text()) for name in ("basic.json", "bytes.json")}
        files["bytes.json"]["gate_version"] = version
        result = check_toy(write_suite(tmp_path, {f"shout/{n}": d for n, d in files.items()}))
        [finding] = [f for f in result.findings if f.code == "fixture.gate_version"]
        assert finding.file.endswith("bytes.json") and finding.json_path == "$.gate_version"
        assert finding.message == f"the reference does not run these cases: the cases are for shout {version}; {reason}"
        assert "reference.fails" not in codes(result.findings)

    def test_an_older_version_of_the_same_major_is_run(self, tmp_path):
        files = {name: json.loads(toy.CASES.joinpath("shout", name).read_text()) for name in ("basic.json", "bytes.json")}
        files["bytes.json"]["gate_version"] = "0.9.0"
        result = check_toy(write_suite(tmp_path, {f"shout/{n}": d for n, d in files.items()}))
        assert "fixture.gate_version" in codes(result.findings)  # another major: 0 is not 1
        files["bytes.json"]["gate_version"] = "1.0.0"
        assert check_toy(write_suite(tmp_path, {f"shout/{n}": d for n, d in files.items()})).findings == ()

    def test_outcome_the_gate_does_not_list(self, tmp_path):
        class Liar:
            OUTCOMES = ("SHOUTED",)
            decide = staticmethod(shout_gate.decide)
            run = staticmethod(shout_gate.run)

        result = check(toy.suite(), toy.catalogue(), table={"shout": Liar})
        assert codes(result.findings) == ["reference.unknown_outcome"]
        assert "'INVALID'" in result.findings[0].message

    def test_text_and_json_output(self, tmp_path):
        result = check_toy(write_suite(tmp_path, {"shout/a.json": fixture(description="Bad.")}))
        rendered = text(result)
        assert re.search(r"shout/a\.json::\$\.cases\[0\]\.description: error fixture\.description: "
                         r"shout\.t\.one: the description starts with a capital letter", rendered)
        assert "  hint: one line, at most 120 characters" in rendered
        assert rendered.rstrip().endswith("check failed: 3 errors, 0 warnings")
        document = json.loads(json_text(result))
        assert document["status"] == "failed"
        assert document["coverage"]["gates"] == [{"gate": "shout", "cases": 1, "outcomes": ["SHOUTED", "INVALID"],
                                                  "covered": ["SHOUTED"], "missing": ["INVALID"]}]
        assert {f["code"] for f in document["findings"]} == {"fixture.description", "coverage.requirement",
                                                              "coverage.outcome"}


class TestSpecExample:
    def test_the_reference_passes_the_example_and_its_requirements_exist(self, tmp_path):
        from passdown.conformance import Reference, run
        from passdown.conformance.requirements import load

        (tmp_path / "title").mkdir()
        (tmp_path / "title" / "example.json").write_bytes(
            (toy.REPO / "conformance" / "examples" / "fixture.json").read_bytes())
        suite = load_suite(tmp_path)
        assert suite.findings == () and len(suite.cases) == 2
        report = run(suite.cases, Reference(), mode="reference")
        assert report.summary_line() == "2 passed, 0 failed, 0 errored, 0 skipped"
        known = load().by_id()
        assert all(r in known for case in suite.cases for r in case.requirements)

    def test_spec_page_shows_the_example_file_exactly(self):
        page = (toy.REPO / "spec" / "conformance.md").read_text(encoding="utf-8")
        example = (toy.REPO / "conformance" / "examples" / "fixture.json").read_text(encoding="utf-8")
        assert f"```json\n{example}```" in page
