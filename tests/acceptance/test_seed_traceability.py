"""The seed traceability table (spec/sources/seed-traceability.tsv, spec/sources.md): every
seed rule is stated by requirements that exist, changed for a reason the sources page gives,
or out of scope with its reason; nothing is missing or changed silently."""

import re
from pathlib import Path

import pytest

from passdown.conformance.requirements import build

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "spec" / "sources" / "seed-traceability.tsv"
SOURCES = ROOT / "spec" / "sources.md"
HEADER = ["seed", "item", "requirement_ids", "status", "note"]
STATUSES = {"stated", "changed-with-reason", "out-of-scope"}
SEEDS = {"000", "001", "002", "003", "004"}


def _rows():
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == HEADER
    return [(number, line.split("\t")) for number, line in enumerate(lines[1:], 2)]


ROWS = _rows()


def _ids(row):
    return [] if row[2] == "-" else row[2].split(",")


def _section(title):
    text = SOURCES.read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


def test_every_row_has_five_columns_and_names_a_seed():
    assert len(ROWS) == 293
    for number, row in ROWS:
        assert len(row) == 5, f"line {number}: {len(row)} columns"
        assert row[0] in SEEDS, f"line {number}: seed {row[0]!r}"
        assert row[1].strip(), f"line {number}: no rule"


def test_no_row_is_missing_or_changed_silently():
    forbidden = [(number, row[3]) for number, row in ROWS if row[3] not in STATUSES]
    assert forbidden == []


def test_every_requirement_id_the_table_names_exists_in_the_spec():
    catalogue = build(ROOT / "spec").by_id()
    unknown = [(number, ident) for number, row in ROWS for ident in _ids(row) if ident not in catalogue]
    assert unknown == []
    malformed = [(number, row[2]) for number, row in ROWS
                 if row[2] != "-" and not re.fullmatch(r"[A-Z]{3}-\d{3}(,[A-Z]{3}-\d{3})*", row[2])]
    assert malformed == []


def test_a_stated_or_changed_rule_names_the_requirements_that_state_it():
    bare = [number for number, row in ROWS if row[3] != "out-of-scope" and not _ids(row)]
    assert bare == []


@pytest.mark.parametrize("status", ["changed-with-reason", "out-of-scope"])
def test_a_change_or_an_exclusion_carries_its_reason(status):
    unexplained = [number for number, row in ROWS if row[3] == status and not row[4].strip()]
    assert unexplained == []


def test_every_change_is_explained_on_the_sources_page():
    changes = _section("Changes, with their reasons")
    for number, row in ROWS:
        if row[3] == "changed-with-reason":
            assert "sources.md" in row[4], f"line {number}: the note does not point at sources.md"
            assert any(ident in changes for ident in _ids(row)), \
                f"line {number}: no reason on the sources page names {row[2]}"


def test_every_exclusion_is_explained_on_the_sources_page():
    excluded = _section("Out of scope, with their reasons")
    seeds = {row[0] for _, row in ROWS if row[3] == "out-of-scope"}
    assert seeds == set(re.findall(r"^- \*\*(\d{3}):", excluded, re.M))


def test_the_sources_page_links_the_table_and_asks_for_its_rendering():
    text = SOURCES.read_text(encoding="utf-8")
    assert "](sources/seed-traceability.tsv)" in text
    assert "<!-- passdown:seed-traceability -->" in text
