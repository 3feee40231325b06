"""``passdown conformance check``: the suite's own lint and coverage.

On top of the structural findings of :mod:`passdown.conformance._suite` it checks the
description style, that every requirement a case names exists, that pinned stdout parses to
the pinned output, that every gate of the gate table has cases, that every MUST-level
requirement has a case (unless the spec marks it not fixture-testable), that every fixture
file's ``gate_version`` is one the reference runs, and, by running the reference on every case, that the reference passes them all and that every outcome code of
every gate is expected by at least one case (a case's outcome is the reference's
``Decision.outcome`` on it)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from passdown._findings import ERROR, WARNING, Finding, json_path
from passdown.conformance._compare import same
from passdown.conformance._implementations import Reference
from passdown.conformance._runner import PASSED, verdict
from passdown.conformance.versions import mismatch as version_mismatch
from passdown.conformance._suite import Suite
from passdown.conformance.requirements import MUST_LEVEL

MAX_DESCRIPTION = 120


@dataclass(frozen=True)
class GateCoverage:
    gate: str
    cases: int
    outcomes: tuple[str, ...]  # every outcome the gate lists
    covered: tuple[str, ...]  # those some case expects


@dataclass(frozen=True)
class CheckResult:
    """Everything ``check`` found, and the coverage figures it printed."""

    findings: tuple[Finding, ...]
    cases: int
    files: int
    requirements: int
    must_level: int
    must_covered: int
    not_testable: int
    must_uncovered: int
    gates: tuple[GateCoverage, ...] = field(default=())

    @property
    def failed(self) -> bool:
        return any(f.severity == ERROR for f in self.findings)

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0


def _finding(file, path, code, message, hint, requirement, severity=ERROR):
    return Finding(file=file, json_path=path, code=code, severity=severity, message=message,
                   requirement=requirement, hint=hint)


def description_problem(text: str) -> str | None:
    """What is wrong with a description's style, or ``None``."""
    if "\n" in text or "\r" in text:
        return "the description spans several lines"
    if len(text) > MAX_DESCRIPTION:
        return f"the description is {len(text)} characters long (at most {MAX_DESCRIPTION})"
    if text != text.strip():
        return "the description starts or ends with white space"
    if text[:1].isupper():
        return "the description starts with a capital letter"
    if text.endswith("."):
        return "the description ends with a period"
    return None


def _style(suite: Suite):
    hint = "one line, at most 120 characters, lowercase first letter, no trailing period"
    for fixture in suite.files:
        problem = description_problem(fixture.description)
        if problem:
            yield _finding(fixture.file, "$.description", "fixture.description", problem, hint, "CNF-003")
    for case in suite.cases:
        problem = description_problem(case.description)
        if problem:
            yield _finding(case.file, json_path(("cases", case.index, "description")),
                           "fixture.description", f"{case.id}: {problem}", hint, "CNF-003")


def _references(suite: Suite, known: dict):
    for case in suite.cases:
        for position, ident in enumerate(case.requirements):
            where = json_path(("cases", case.index, "requirements", position))
            requirement = known.get(ident)
            if requirement is None:
                yield _finding(case.file, where, "fixture.unknown_requirement",
                               f"{case.id}: {ident} is not a requirement of the spec",
                               "name an existing id (conformance/requirements.json lists them)",
                               "CNF-008")
            elif not requirement.fixture_testable:
                yield _finding(case.file, where, "fixture.untestable_requirement",
                               f"{case.id}: {ident} is marked not fixture-testable, yet a case covers it",
                               "drop the marker from the spec, or the id from the case", "CNF-009",
                               WARNING)


def _pinned_stdout(suite: Suite):
    from passdown.formats._loading import load_bytes

    for case in suite.cases:
        if case.expected_stdout is None:
            continue
        loaded, _ = load_bytes(case.expected_stdout.encode(), source=None, syntax="json")
        if loaded is None or not same(case.expected_output, loaded.data):
            yield _finding(case.file, json_path(("cases", case.index, "expected", "stdout")),
                           "fixture.stdout_mismatch",
                           f"{case.id}: expected.stdout does not parse to expected.output",
                           "make the two agree: stdout is the exact printing of output", "CNF-004")


def _requirement_coverage(suite: Suite, catalogue):
    named = {ident for case in suite.cases for ident in case.requirements}
    for requirement in catalogue.requirements:
        if requirement.needs_case and requirement.id not in named:
            yield _finding(requirement.page, "$", "coverage.requirement",
                           f"{requirement.id} ({requirement.keyword}) has no case",
                           "add a case naming it, or mark it *(not fixture-testable: reason)* in the spec",
                           "CNF-009")


def _gate_modules(names, module_of, grouped):
    """The loadable gate modules, and a finding for each gate with cases that does not load."""
    modules, findings = {}, []
    for gate in names:
        try:
            module = module_of(gate)
            modules[gate] = (module, tuple(module.OUTCOMES))
        except (ImportError, AttributeError) as error:
            if gate in grouped:
                findings.append(_finding(grouped[gate][0].file, "$.gate", "suite.gate_unavailable",
                                         f"the {gate} gate cannot be loaded: {error}",
                                         "the gate module must load and define OUTCOMES", "CNF-012"))
    return modules, findings


def _versions(suite: Suite, modules):
    """A finding for each fixture file written for a version of its gate the reference does
    not run (a newer one, or another major): its cases would be skipped, never checked."""
    for fixture in suite.files:
        if fixture.gate not in modules:
            continue
        version = getattr(modules[fixture.gate][0], "VERSION", None)
        reason = version_mismatch(fixture.gate, fixture.gate_version, version)
        if reason:
            yield _finding(fixture.file, "$.gate_version", "fixture.gate_version",
                           f"the reference does not run these cases: {reason}",
                           f"state the version the cases pin; the gate is at {version}", "CNF-026")


def _run_reference(suite: Suite, modules):
    """Findings from running the reference, and the outcomes each gate's cases expect."""
    findings, outcomes = [], {}
    reference = Reference({gate: module for gate, (module, _) in modules.items()})
    for case in suite.cases:
        if case.gate not in modules or version_mismatch(case.gate, case.gate_version,
                                                        getattr(modules[case.gate][0], "VERSION", None)):
            continue
        answer = reference.answer(case)
        result = verdict(case, answer, 0.0, None)
        if result.status == PASSED:
            outcomes.setdefault(case.gate, set()).add(answer.outcome)
            continue
        detail = result.message or "no answer"
        if result.mismatch:
            detail += "".join("\n" + d.line() for d in result.mismatch.differences)
            if result.mismatch.stdout_diff:
                detail += "\n" + result.mismatch.stdout_diff
        findings.append(_finding(case.file, json_path(("cases", case.index)), "reference.fails",
                                 f"{case.id}: the reference does not pass this case: {detail}",
                                 "fix the case's expectation or the gate", "CNF-012"))
    return findings, outcomes


def check(suite: Suite, catalogue, *, table: dict | None = None,
          extra_findings=()) -> CheckResult:
    """Lint ``suite`` against ``catalogue`` and the gate table (``table`` maps gate names to
    modules; default: Passdown's own gate table)."""
    if table is None:
        from passdown.gates import gate_names, load

        names, module_of = gate_names(), load
    else:
        names, module_of = tuple(table), table.__getitem__
    grouped = suite.gates()
    findings = list(extra_findings) + list(suite.findings)
    findings += _style(suite)
    findings += _references(suite, catalogue.by_id())
    findings += _pinned_stdout(suite)
    findings += _requirement_coverage(suite, catalogue)
    for gate in grouped:
        if gate not in names:
            findings.append(_finding(grouped[gate][0].file, "$.gate", "suite.unknown_gate",
                                     f"the suite has cases for {gate!r}, which is not in the gate table",
                                     "name a gate of the table, or add the gate", "CNF-010"))
    modules, unavailable = _gate_modules(names, module_of, grouped)
    findings += unavailable
    findings += _versions(suite, modules)
    reference_findings, outcomes = _run_reference(suite, modules)
    findings += reference_findings
    coverage = []
    for gate in names:
        if gate not in grouped:
            findings.append(_finding(None, "$", "suite.gate_without_cases",
                                     f"the {gate} gate has no cases",
                                     f"add fixture files under cases/{gate}/", "CNF-010"))
        listed = modules[gate][1] if gate in modules else ()
        seen = outcomes.get(gate, set())
        for outcome in sorted(seen - set(listed), key=str):
            findings.append(_finding(None, "$", "reference.unknown_outcome",
                                     f"the {gate} gate answered the outcome {outcome!r}, which it does not list",
                                     "list the outcome in the gate's OUTCOMES and its spec page", "CNF-011"))
        if gate in modules and gate in grouped:  # a gate without cases is reported once
            for outcome in listed:
                if outcome not in seen:
                    findings.append(_finding(None, "$", "coverage.outcome",
                                             f"no case of the {gate} gate expects the outcome {outcome!r}",
                                             "add a case whose expected output has that outcome", "CNF-011"))
        coverage.append(GateCoverage(gate, len(grouped.get(gate, ())), listed,
                                     tuple(o for o in listed if o in seen)))
    named = {ident for case in suite.cases for ident in case.requirements}
    must = [r for r in catalogue.requirements if r.keyword in MUST_LEVEL]
    return CheckResult(
        findings=tuple(findings), cases=len(suite.cases), files=len(suite.paths),
        requirements=len(catalogue.requirements), must_level=len(must),
        must_covered=sum(1 for r in must if r.needs_case and r.id in named),
        not_testable=sum(1 for r in must if not r.fixture_testable),
        must_uncovered=sum(1 for r in must if r.needs_case and r.id not in named),
        gates=tuple(coverage),
    )


def text(result: CheckResult, *, quiet: bool = False, color: bool = False) -> str:
    """The findings, then the coverage; with ``quiet`` the findings only (nothing when the
    suite is clean); with ``color`` severities, codes and hints in the reporters' styles."""
    from passdown._text import paint

    lines = []
    for finding in result.findings:
        where = finding.file or "suite"
        if finding.line:
            where += f":{finding.line}"
        if finding.json_path != "$":
            where += f"::{finding.json_path}"
        lines.append(f"{where}: {paint(finding.severity, finding.severity, color)} "
                     f"{paint('code', finding.code, color)}: {finding.message}")
        if finding.hint and not quiet:
            lines.append(paint("hint", f"  hint: {finding.hint}", color))
    if quiet:
        return "".join(line + "\n" for line in lines)
    if lines:
        lines.append("")
    lines.append(f"suite: {result.cases} cases in {result.files} files")
    lines.append(f"requirements: {result.requirements} in the spec, {result.must_level} MUST-level: "
                 f"{result.must_covered} covered, {result.not_testable} not fixture-testable, "
                 f"{result.must_uncovered} uncovered")
    for gate in result.gates:
        lines.append(f"  {gate.gate}: {gate.cases} cases, outcomes {len(gate.covered)}/{len(gate.outcomes)}")
    errors = sum(1 for f in result.findings if f.severity == ERROR)
    warnings = len(result.findings) - errors
    lines.append(f"check {'failed' if result.failed else 'passed'}: {errors} errors, {warnings} warnings")
    return "\n".join(lines) + "\n"


def to_json(result: CheckResult) -> dict:
    return {
        "status": "failed" if result.failed else "passed",
        "findings": [f.to_dict() for f in result.findings],
        "coverage": {
            "cases": result.cases, "files": result.files, "requirements": result.requirements,
            "must_level": result.must_level, "must_covered": result.must_covered,
            "not_fixture_testable": result.not_testable, "must_uncovered": result.must_uncovered,
            "gates": [{"gate": g.gate, "cases": g.cases, "outcomes": list(g.outcomes),
                       "covered": list(g.covered),
                       "missing": [o for o in g.outcomes if o not in g.covered]} for g in result.gates],
        },
    }


def json_text(result: CheckResult) -> str:
    return json.dumps(to_json(result), indent=2, ensure_ascii=False) + "\n"
