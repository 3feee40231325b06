"""Every "Codes" table of the spec agrees with what the code registers, so that the tables
cannot drift: each row's code, its severity (findings) or exit status (gate outcomes) and its
requirement id, checked against the rule registrations (``passdown.rules``), the packet grammar's and the ACK
check's own tables (``passdown.formats._packet``, ``passdown.formats._ackcheck``), the engine's codes
(``passdown.engine._codes``) and the gate modules' outcomes (whose exit status and requirement
come from the gate's conformance cases, the behaviour every implementation must show). Every
registered code appears in a table, once per page, and every table has one layout: the columns
``code``, ``severity`` or ``exit``, ``requirement``, then free text.

Not covered here, each for its reason: ``spec/authoring.md`` (its codes are raise sites,
checked by tests/authoring/test_spec_codes.py), ``spec/conformance.md`` (the check's own
findings), and the restart, title and guard gates' tables (their pages keep the layout of
their published helpers for now).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from passdown.conformance._suite import load_suite
from passdown.engine._codes import ENGINE_CODES
from passdown.gates import load
from passdown.rules import all_rules

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
PAGES = ("ack.md", "checkpoint.md", "packet.md", "registry.md", "procedure.md", "digest.md",
         "handoff-record.md", "relaunch-receipt.md", "input-safety.md", "gates/validate.md",
         "gates/handoff.md", "gates/recovery.md", "gates/relaunch.md", "gates/lifecycle.md",
         "gates/observe.md")
#: The page whose tables hold each gate's outcomes.
GATE_PAGES = {"handoff": "gates/handoff.md", "recovery": "gates/recovery.md",
              "observe": "gates/observe.md",
              "relaunch": "gates/relaunch.md", "lifecycle": "gates/lifecycle.md",
              "validate": "gates/validate.md", "digest": "digest.md", "ack": "ack.md"}
#: Codes a gate answers that another page's table documents (the loading codes).
BORROWED = {"digest": ("load.", "input-safety.md")}
REQUIREMENT = re.compile(r"^[A-Z]{3}-[0-9]{3}$")


def _tables(page):
    """``[(header, rows)]`` for every Markdown table whose first header cell is ``code``."""
    lines = (SPEC / page).read_text(encoding="utf-8").splitlines()
    found = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("|") and index + 1 < len(lines) and lines[index + 1].startswith("|---"):
            header = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows = []
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                rows.append([cell.strip() for cell in lines[index].strip().strip("|").split("|")])
                index += 1
            if header[0] in ("code", "outcome"):
                found.append((header, rows))
            continue
        index += 1
    return found


def _codes(cell):
    return re.findall(r"`([^`]+)`", cell)


def _rows():
    """``(page, table number, code, second column header, second cell, requirement)``."""
    rows = []
    for page in PAGES:
        for number, (header, table) in enumerate(_tables(page)):
            for row in table:
                row = row + [""] * (3 - len(row))
                for code in _codes(row[0]):
                    rows.append((page, number, code, header[1], row[1], row[2]))
    return rows


ROWS = _rows()


@pytest.mark.parametrize("page", PAGES)
def test_every_codes_table_has_the_one_layout(page):
    tables = _tables(page)
    assert tables, f"{page} has no Codes table"
    for header, rows in tables:
        assert header[:3] in (["code", "severity", "requirement"], ["code", "exit", "requirement"]), (page, header)
        for row in rows:
            assert len(row) == len(header), (page, row)
            assert _codes(row[0]), (page, row)
            if header[1] == "severity":
                assert row[1] in ("error", "warning"), (page, row)
            else:
                assert re.fullmatch(r"[0-2](, [0-2])*", row[1]), (page, row)
            assert REQUIREMENT.match(row[2]), (page, row)


def test_no_code_is_listed_twice_on_a_page():
    seen = defaultdict(int)
    for page, _, code, *_ in ROWS:
        seen[(page, code)] += 1
    assert [key for key, count in seen.items() if count > 1] == []


RULES = sorted({(rule.code, rule.severity, rule.requirement) for rule in all_rules()})


@pytest.mark.parametrize(("code", "severity", "requirement"), RULES, ids=[r[0] for r in RULES])
def test_every_rule_is_in_a_table_with_its_severity_and_requirement(code, severity, requirement):
    rows = [row for row in ROWS if row[2] == code]
    assert rows, f"{code} is in no Codes table"
    for page, _, _, column, value, listed in rows:
        assert listed == requirement, (page, code, listed, requirement)
        if column == "severity":
            assert value == severity, (page, code)
        else:  # a gate rejection: an error refuses (exit 1)
            assert value == ("1" if severity == "error" else "0"), (page, code)


def test_a_code_of_one_registration_is_in_one_table():
    registered = defaultdict(set)
    for rule in all_rules():
        registered[rule.code].add(rule.kind)
    for code, kinds in registered.items():
        tables = {(page, number) for page, number, listed, *_ in ROWS if listed == code}
        assert len(tables) >= 1, code
        if len(kinds) == 1:
            assert len(tables) == 1, (code, sorted(tables))


def test_every_engine_code_is_in_a_table_and_every_listed_code_is_known():
    listed = {row[2] for row in ROWS}
    for code in ENGINE_CODES:
        assert code in listed, f"{code} is in no Codes table"
    known = set(ENGINE_CODES) | {rule.code for rule in all_rules()} | {"schema.<keyword>", "gate.bad_input"}
    for gate in GATE_PAGES:
        known |= set(load(gate).OUTCOMES) | set(_gate_codes(gate))
    from passdown.workspace._git import GitError

    known |= set(GitError.CODES)
    known |= set(_gate_codes("digest"))
    from passdown.formats._ackcheck import CODES as ACK_CODES
    from passdown.formats._packet import GRAMMAR_CODES
    known |= set(GRAMMAR_CODES) | set(ACK_CODES) | {"ack.input_invalid", "ack.input_unreadable", "digest.key_type",
                               "digest.value_type", "digest.malformed_line", "digest.empty_list",
                               "digest.revision_conflict", "digest.no_revision", "digest.unknown_attempt",
                               "digest.already_recorded"}
    assert sorted({row[2] for row in ROWS} - known) == []


def test_every_ack_rule_is_in_the_ack_page_with_its_requirement():
    from passdown.formats._ackcheck import RULES as ACK_RULES

    for code, requirement, *_ in ACK_RULES:
        rows = [row for row in ROWS if row[0] == "ack.md" and row[2] == code]
        assert len(rows) == 1, code
        assert rows[0][3:] == ("exit", "1", requirement), (code, rows[0])


def test_every_packet_grammar_code_is_in_the_packet_page_with_its_requirement():
    from passdown.formats._packet import GRAMMAR_CODES

    for code, (requirement, _) in GRAMMAR_CODES.items():
        rows = [row for row in ROWS if row[0] == "packet.md" and row[2] == code]
        assert len(rows) == 1, code
        assert rows[0][3:] == ("severity", "error", requirement), (code, rows[0])


def _gate_codes(gate):
    module = load(gate)
    return tuple(getattr(module, "CHECKS", ())) + tuple(getattr(module, "RECOVER_REASONS", ())) + tuple(
        getattr(module, "LEFT_REASONS", ()))


CASES = load_suite().cases


def _observed(gate):
    """``outcome -> (exit statuses, requirement ids)`` over the gate's cases."""
    module = load(gate)
    seen = defaultdict(lambda: (set(), set()))
    for case in CASES:
        if case.gate != gate:
            continue
        decision = module.decide(case.input_value) if case.input_kind == "input" else module.run(
            case.raw_input())
        exits, requirements = seen[decision.outcome]
        exits.add(decision.exit_code)
        requirements.update(case.requirements)
        for reason in _reasons(decision.output):
            seen[reason][0].add(decision.exit_code)
            seen[reason][1].update(case.requirements)
    return seen


def _reasons(output):
    if isinstance(output, dict):
        for entry in output.get("recovered", []) + output.get("left", []):
            yield entry["reason"]


@pytest.mark.parametrize("gate", sorted(GATE_PAGES))
def test_every_gate_outcome_is_in_its_page_with_the_exit_and_requirement_its_cases_show(gate):
    page = GATE_PAGES[gate]
    observed = _observed(gate)
    codes = tuple(load(gate).OUTCOMES) + _gate_codes(gate)
    prefix, other_page = BORROWED.get(gate, (None, None))
    for code in dict.fromkeys(codes):
        where = other_page if prefix and code.startswith(prefix) else page
        rows = [row for row in ROWS if row[0] == where and row[2] == code]
        assert len(rows) == 1, f"{code} is listed {len(rows)} times in {where}"
        _, _, _, column, value, requirement = rows[0]
        if where != page:
            continue  # the other page states it as a finding
        exits, requirements = observed.get(code, (set(), set()))
        assert exits, f"no {gate} case answers {code}"
        assert column == "exit", (page, code)
        assert {int(v) for v in value.split(", ")} == exits, (page, code, value, exits)
        assert requirement in requirements, (page, code, requirement, sorted(requirements))
