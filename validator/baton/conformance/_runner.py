"""Running a selection of cases against one implementation: selection (gate, id glob,
requirement, tag), strict expected failures, the verdict per case, and the
:class:`Report` every output format is rendered from."""

from __future__ import annotations

import fnmatch
import os
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from baton.errors import UsageError
from baton.conformance._compare import mismatches
from baton.conformance._implementations import ANSWERED, SKIPPED, Answer, errored

PASSED, FAILED, ERRORED, SKIPPED_STATUS, XFAILED = "passed", "failed", "errored", "skipped", "xfailed"
STATUSES = (PASSED, FAILED, ERRORED, SKIPPED_STATUS, XFAILED)
#: An expected-failures file lists case ids with reasons: a megabyte is far more than any needs.
MAX_EXPECTED_FAILURES_BYTES = 1 << 20


@dataclass(frozen=True)
class Selection:
    """Which cases to run. Within one kind any entry may match; across kinds all must."""

    gates: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    requirements: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    def matches(self, case) -> bool:
        return ((not self.gates or case.gate in self.gates)
                and (not self.ids or any(fnmatch.fnmatchcase(case.id, p) for p in self.ids))
                and (not self.requirements or any(r in case.requirements for r in self.requirements))
                and (not self.tags or any(t in case.tags for t in self.tags)))

    def apply(self, cases) -> list:
        return [case for case in cases if self.matches(case)]


@dataclass(frozen=True)
class ExpectedFailure:
    pattern: str
    reason: str
    line: int


@dataclass(frozen=True)
class ExpectedFailures:
    """Cases an implementation is known to fail, by id or glob, each with a reason. Strict:
    a listed case that passes fails the run, so the list cannot rot."""

    entries: tuple[ExpectedFailure, ...] = ()
    source: str = ""

    @classmethod
    def parse(cls, text: str, source: str) -> ExpectedFailures:
        """One entry per line: ``<case id or glob> <reason>``; ``#`` starts a comment line."""
        entries = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            pattern, _, reason = line.partition(" ")
            reason = reason.strip()
            if not reason:
                raise UsageError(f"{source}:{number}: {pattern!r} has no reason",
                                 code="conformance.expected_failures",
                                 hint="write the reason after the id: restart.identity.* not implemented yet")
            entries.append(ExpectedFailure(pattern, reason, number))
        return cls(tuple(entries), source)

    @classmethod
    def read(cls, path: str | Path) -> ExpectedFailures:
        from baton.formats._files import FileRefused, read_regular

        try:
            text = read_regular(os.fspath(path), MAX_EXPECTED_FAILURES_BYTES).decode("utf-8-sig")
        except FileRefused as refused:  # a FIFO, a device, a link loop, too large
            raise UsageError(f"cannot read the expected-failures file {refused.message}",
                             code=refused.code, hint=refused.hint) from None
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read the expected-failures file {path}: {error}",
                             code="conformance.expected_failures") from None
        return cls.parse(text, str(path))

    def reason_for(self, case_id: str) -> str | None:
        for entry in self.entries:
            if fnmatch.fnmatchcase(case_id, entry.pattern):
                return entry.reason
        return None

    def check_against(self, all_ids) -> None:
        """Every entry must match a case of the suite (a stale entry is a usage error)."""
        all_ids = list(all_ids)
        for entry in self.entries:
            if not any(fnmatch.fnmatchcase(case_id, entry.pattern) for case_id in all_ids):
                raise UsageError(f"{self.source}:{entry.line}: {entry.pattern!r} matches no case of the suite",
                                 code="conformance.expected_failures",
                                 hint="remove the entry, or correct the id")


@dataclass(frozen=True)
class Result:
    """The verdict on one case."""

    case: object
    status: str
    answer: Answer
    duration: float
    message: str | None = None
    diff: str | None = None
    expected_failure: str | None = None  # the listed reason, when the case is listed


@dataclass(frozen=True)
class Report:
    """A whole run: what ran, against what, and every verdict."""

    implementation: dict
    mode: str
    results: tuple[Result, ...]
    duration: float
    restarts: int = 0
    notes: tuple[str, ...] = field(default=())

    def counts(self, results=None) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for result in self.results if results is None else results:
            counts[result.status] += 1
        return counts

    def by_gate(self) -> dict[str, list[Result]]:
        grouped: dict[str, list[Result]] = {}
        for result in self.results:
            grouped.setdefault(result.case.gate, []).append(result)
        return grouped

    @property
    def ran_nothing(self) -> bool:
        counts = self.counts()
        return counts[PASSED] + counts[FAILED] + counts[ERRORED] + counts[XFAILED] == 0

    @property
    def exit_code(self) -> int:
        counts = self.counts()
        return 1 if counts[FAILED] or counts[ERRORED] or self.ran_nothing else 0

    def summary_line(self) -> str:
        counts = self.counts()
        line = (f"{counts[PASSED]} passed, {counts[FAILED]} failed, "
                f"{counts[ERRORED]} errored, {counts[SKIPPED_STATUS]} skipped")
        if counts[XFAILED]:
            line += f", {counts[XFAILED]} expected failures"
        return line


def verdict(case, answer: Answer, duration: float, expected_failure: str | None) -> Result:
    """Compare one answer with its case, then apply the expected-failure list."""
    if answer.kind == SKIPPED:
        return Result(case, SKIPPED_STATUS, answer, duration, answer.message)
    if answer.kind == ANSWERED:
        problems, diff = mismatches(case, answer.output, answer.exit_code, answer.stdout)
        status = FAILED if problems else PASSED
        message = "; ".join(problems) if problems else None
    else:
        status, message, diff = ERRORED, answer.message, None
    if expected_failure is None:
        return Result(case, status, answer, duration, message, diff)
    if status == PASSED:
        return Result(case, FAILED, answer, duration,
                      f"passed, but it is listed as an expected failure ({expected_failure}); "
                      "remove it from the list", None, expected_failure)
    return Result(case, XFAILED, answer, duration, message, diff, expected_failure)


def run(cases, implementation, *, mode: str, expected_failures: ExpectedFailures | None = None,
        progress=None) -> Report:
    """Run ``cases`` in order against ``implementation`` (already started) and judge them."""
    expected_failures = expected_failures or ExpectedFailures()
    results = []
    began = time.perf_counter()
    for number, case in enumerate(cases, 1):
        start = time.perf_counter()
        try:
            answer = implementation.answer(case)
        except Exception as error:  # a defect of the runner: one errored case, never a traceback
            answer = errored(f"the runner failed on this case: {type(error).__name__}: {error}",
                             {"traceback": traceback.format_exc()})
        results.append(verdict(case, answer, time.perf_counter() - start,
                               expected_failures.reason_for(case.id)))
        if progress is not None:
            progress(number, len(cases))
    return Report(
        implementation=dict(implementation.info or {}), mode=mode, results=tuple(results),
        duration=time.perf_counter() - began, restarts=getattr(implementation, "restarts", 0),
    )
