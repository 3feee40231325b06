"""The requirement catalogue: parsing spec pages, its lint, and requirements.json kept current."""

import json
import subprocess
import sys

import pytest

from passdown.conformance import requirements
from passdown.conformance.requirements import build, parse_page
from conformance_toy import toy


def codes(findings):
    return [f.code for f in findings]


class TestParsePage:
    def test_reads_id_keyword_text_section_and_anchor(self):
        found, lint = parse_page("# Page\n\n## Order\n\n- **RST-003** The gate MUST block it.\n", "spec/p.md")
        assert lint == []
        [requirement] = found
        assert (requirement.id, requirement.keyword, requirement.text) == ("RST-003", "MUST", "The gate MUST block it.")
        assert (requirement.page, requirement.anchor, requirement.section, requirement.line) == ("spec/p.md", "rst-003", "Order", 5)
        assert requirement.fixture_testable and requirement.needs_case

    def test_joins_continuation_lines(self):
        text = "- **PKT-001** The packet MUST list\n  the twelve fields\n  in order.\n\nNext paragraph MUST not join.\n"
        [requirement], _ = parse_page(text, "p.md")
        assert requirement.text == "The packet MUST list the twelve fields in order."

    @pytest.mark.parametrize("keyword", ["MUST NOT", "SHALL NOT", "SHOULD NOT", "NOT RECOMMENDED", "REQUIRED",
                                         "SHOULD", "MAY", "OPTIONAL", "RECOMMENDED", "SHALL"])
    def test_recognises_each_keyword_as_one(self, keyword):
        [requirement], lint = parse_page(f"- **GEN-001** A host {keyword} do it.\n", "p.md")
        assert lint == [] and requirement.keyword == keyword

    def test_every_keyword_needs_a_case_unless_marked(self):
        found, _ = parse_page("- **GEN-001** It SHOULD do it.\n- **GEN-002** It MUST NOT do it.\n"
                              "- **GEN-003** It is REQUIRED.\n- **GEN-004** It MAY.\n"
                              "- **GEN-005** It MAY. *(not fixture-testable: host behaviour)*\n", "p.md")
        assert [r.needs_case for r in found] == [True, True, True, True, False]

    def test_a_cited_test_file_that_does_not_exist_is_a_finding(self, tmp_path):
        (tmp_path / "spec").mkdir()
        (tmp_path / "tests" / "rules").mkdir(parents=True)
        (tmp_path / "tests" / "rules" / "test_there.py").write_text("")
        (tmp_path / "spec" / "a.md").write_text(
            "- **GEN-001** It MUST be. *(not fixture-testable: covered by tests/rules/test_there.py)*\n"
            "- **GEN-002** It MUST be. *(not fixture-testable: covered by tests/test_there.py)*\n")
        catalogue = build(tmp_path / "spec")
        assert [(f.code, f.requirement, f.line) for f in catalogue.findings] == [
            ("requirements.test_path", "CNF-050", 2)]
        assert "GEN-002 cites tests/test_there.py, which does not exist" in catalogue.findings[0].message
        (tmp_path / "tests" / "rules" / "test_there.py").unlink()
        (tmp_path / "tests" / "rules").rmdir()
        (tmp_path / "tests").rmdir()  # outside a checkout nothing is checked
        assert build(tmp_path / "spec").findings == ()

    def test_zero_or_two_keywords_are_findings(self):
        found, lint = parse_page("- **GEN-001** It does it.\n- **GEN-002** It MUST and SHOULD do it.\n", "p.md")
        assert found == []
        assert codes(lint) == ["requirements.keyword_count", "requirements.keyword_count"]
        assert "holds 0" in lint[0].message and "MUST, SHOULD" in lint[1].message

    def test_keywords_inside_code_spans_do_not_count(self):
        [requirement], lint = parse_page("- **GEN-001** The list `MUST, MAY` MUST be kept.\n", "p.md")
        assert lint == [] and requirement.keyword == "MUST"

    def test_lowercase_and_underscored_words_are_not_keywords(self):
        [requirement], lint = parse_page("- **GEN-001** It must ACK_REQUIRED, and MUST stop.\n", "p.md")
        assert lint == [] and requirement.keyword == "MUST"

    @pytest.mark.parametrize("ident", ["RST-03", "rst-003", "RST003", "RSTX-001", "RS-0001"])
    def test_malformed_ids_are_findings(self, ident):
        found, lint = parse_page(f"- **{ident}** It MUST do it.\n", "p.md")
        assert found == [] and codes(lint) == ["requirements.malformed_id"]

    def test_unknown_prefix_is_a_finding(self):
        found, lint = parse_page("- **XYZ-001** It MUST do it.\n", "p.md")
        assert found == [] and codes(lint) == ["requirements.unknown_prefix"]

    def test_bold_words_that_are_not_ids_are_ordinary_items(self):
        found, lint = parse_page("- **Note** this MUST be read.\n- plain item\n", "p.md")
        assert found == [] and lint == []

    def test_code_blocks_are_skipped(self):
        text = "```markdown\n- **GEN-001** It MUST do it.\n```\n~~~\n- **GEN-002** x\n~~~\n"
        assert parse_page(text, "p.md") == ([], [])

    def test_marker_with_reason(self):
        [requirement], lint = parse_page(
            "- **CNF-001** It MUST hold.\n  *(not fixture-testable: a property of terminals)*\n", "p.md")
        assert lint == []
        assert not requirement.fixture_testable and not requirement.needs_case
        assert requirement.untestable_reason == "a property of terminals"
        assert requirement.text == "It MUST hold."

    @pytest.mark.parametrize("marker", ["*(not fixture-testable)*", "*(not fixture-testable:  )*"])
    def test_marker_without_reason_is_a_finding(self, marker):
        _, lint = parse_page(f"- **CNF-001** It MUST hold. {marker}\n", "p.md")
        assert codes(lint) == ["requirements.marker_without_reason"]


class TestBuild:
    def test_duplicate_ids_across_pages(self, tmp_path):
        (tmp_path / "spec" / "gates").mkdir(parents=True)
        (tmp_path / "spec" / "a.md").write_text("- **GEN-001** It MUST be.\n")
        (tmp_path / "spec" / "gates" / "b.md").write_text("\n- **GEN-001** It MAY be.\n")
        catalogue = build(tmp_path / "spec")
        assert codes(catalogue.findings) == ["requirements.duplicate_id"]
        assert catalogue.findings[0].file == "spec/gates/b.md" and "spec/a.md:1" in catalogue.findings[0].message

    def test_toy_catalogue(self):
        catalogue = toy.catalogue()
        assert catalogue.findings == ()
        assert [(r.id, r.keyword, r.needs_case) for r in catalogue.requirements] == [
            ("CNF-901", "MUST", True), ("CNF-902", "MUST", True), ("CNF-903", "SHOULD", False),
            ("CNF-904", "MUST NOT", False)]

    def test_json_round_trip(self, tmp_path):
        catalogue = toy.catalogue()
        path = tmp_path / "requirements.json"
        path.write_text(catalogue.to_json())
        loaded = requirements.load(path)
        assert loaded.requirements == catalogue.requirements
        document = json.loads(path.read_text())
        assert document["passdown_version"] == "1.0" and document["kind"] == "requirements"
        assert set(document["requirements"][0]) == {"id", "keyword", "text", "page", "anchor", "section",
                                                    "fixture_testable"}
        assert document["requirements"][3]["untestable_reason"] == "a property of terminals"


class TestRepositoryCatalogue:
    def test_requirements_json_is_up_to_date(self):
        spec = toy.REPO / "spec"
        catalogue = build(spec)
        assert catalogue.findings == (), [f"{f.file}:{f.line}: {f.code}: {f.message}" for f in catalogue.findings]
        current = (toy.REPO / "conformance" / "requirements.json").read_text(encoding="utf-8")
        assert current == catalogue.to_json(), "run: python -m passdown.conformance.requirements --write"

    def test_every_spec_prefix_is_known_and_ids_are_unique(self):
        catalogue = requirements.load()
        ids = [r.id for r in catalogue.requirements]
        assert len(ids) == len(set(ids))
        assert {i[:3] for i in ids} <= requirements.PREFIXES


class TestCommand:
    def run(self, *args):
        return subprocess.run([sys.executable, "-m", "passdown.conformance.requirements", *args],
                              capture_output=True, text=True, timeout=60)

    def test_check_passes_on_a_current_file_and_fails_on_a_stale_one(self, tmp_path):
        output = tmp_path / "requirements.json"
        written = self.run("--spec", str(toy.SPEC), "--output", str(output), "--write")
        assert written.returncode == 0, written.stderr
        assert "RuntimeWarning" not in written.stderr
        assert self.run("--spec", str(toy.SPEC), "--output", str(output), "--check").returncode == 0
        output.write_text(output.read_text().replace("CNF-901", "CNF-900"))
        stale = self.run("--spec", str(toy.SPEC), "--output", str(output), "--check")
        assert stale.returncode == 1 and "requirements.stale" in stale.stderr

    def test_lint_errors_write_nothing(self, tmp_path):
        (tmp_path / "spec").mkdir()
        (tmp_path / "spec" / "p.md").write_text("- **GEN-001** It MUST and MAY.\n")
        output = tmp_path / "requirements.json"
        result = self.run("--spec", str(tmp_path / "spec"), "--output", str(output), "--write")
        assert result.returncode == 1 and "requirements.keyword_count" in result.stderr
        assert not output.exists()

    def test_prints_the_catalogue_by_default(self):
        result = self.run("--spec", str(toy.SPEC))
        assert result.returncode == 0
        assert [r["id"] for r in json.loads(result.stdout)["requirements"]] == ["CNF-901", "CNF-902", "CNF-903", "CNF-904"]

    def test_missing_spec_folder_is_a_usage_error(self, tmp_path):
        assert self.run("--spec", str(tmp_path / "nope")).returncode == 2
