"""Running a selection of cases against one implementation: selection (gate, id glob,
requirement, tag), the version check that skips cases of a gate version the implementation
does not implement, strict expected failures (read, and written from a run), the verdict per
case, cases answered by several processes at once in program mode (results always in suite
order), and the :class:`Report` of one implementation's run."""

from __future__ import annotations

import fnmatch
import os
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from passdown._text import cut
from passdown.errors import UsageError
from passdown.conformance._compare import Mismatch, mismatch
from passdown.conformance._implementations import (
    ANSWER_SKIPPED, ANSWERED, GATE_NOT_LISTED, VERSION_MISMATCH, Answer, errored, skipped,
)
from passdown.conformance.versions import mismatch as version_mismatch

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
    profiles: tuple[str, ...] = ()

    def matches(self, case) -> bool:
        return ((not self.gates or case.gate in self.gates)
                and (not self.profiles or case.profile in self.profiles)
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
        from passdown.formats._files import FileRefused, read_regular

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
    """The verdict on one case. ``mismatch`` says how a failed answer differs."""

    case: object
    status: str
    answer: Answer
    duration: float
    message: str | None = None
    mismatch: Mismatch | None = None
    expected_failure: str | None = None  # the listed reason, when the case is listed


class Tally:
    """Counts over ``self.results`` (anything with a ``status`` and a ``case.gate``)."""

    results: tuple

    def counts(self, results=None) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for result in self.results if results is None else results:
            counts[result.status] += 1
        return counts

    def by_gate(self) -> dict[str, list]:
        grouped: dict[str, list] = {}
        for result in self.results:
            grouped.setdefault(result.case.gate, []).append(result)
        return grouped

    @property
    def ran_nothing(self) -> bool:
        counts = self.counts()
        return counts[PASSED] + counts[FAILED] + counts[ERRORED] + counts[XFAILED] == 0

    @property
    def declared_profiles(self) -> tuple[str, ...]:
        return ()

    @property
    def skipped_in_declared(self) -> list:
        """The skipped results of a profile the implementation declares (CNF-047)."""
        declared = self.declared_profiles
        return [r for r in self.results if r.status == SKIPPED_STATUS and r.case.profile in declared]

    def profile_rows(self, suite_totals: dict | None = None) -> list[dict]:
        """Each profile's counts and verdict (:func:`passdown.conformance.profiles.verdicts`)."""
        from passdown.conformance.profiles import verdicts

        return verdicts(self.results, suite_totals, self.declared_profiles)

    @property
    def exit_code(self) -> int:
        counts = self.counts()
        return 1 if (counts[FAILED] or counts[ERRORED] or self.ran_nothing
                     or self.skipped_in_declared) else 0

    def summary_line(self) -> str:
        counts = self.counts()
        line = (f"{counts[PASSED]} passed, {counts[FAILED]} failed, "
                f"{counts[ERRORED]} errored, {counts[SKIPPED_STATUS]} skipped")
        if counts[XFAILED]:
            line += f", {counts[XFAILED]} expected failures"
        return line


@dataclass(frozen=True)
class Report(Tally):
    """One implementation's run: what ran, against what, and every verdict."""

    implementation: dict
    mode: str
    results: tuple[Result, ...]
    duration: float
    restarts: int = 0
    versions: dict | None = None  # {gate: version or None} it implements; None: not said
    notes: tuple[str, ...] = field(default=())

    @property
    def declared_profiles(self) -> tuple[str, ...]:
        profiles = (self.implementation or {}).get("profiles")
        return tuple(profiles) if isinstance(profiles, list) else ()


def verdict(case, answer: Answer, duration: float, expected_failure: str | None) -> Result:
    """Compare one answer with its case, then apply the expected-failure list."""
    if answer.kind == ANSWER_SKIPPED:
        return Result(case, SKIPPED_STATUS, answer, duration, answer.message)
    found = None
    if answer.kind == ANSWERED:
        found = mismatch(case, answer.output, answer.exit_code, answer.stdout)
        status = FAILED if found else PASSED
        message = "; ".join(found.messages) if found else None
        found = found or None
    else:
        status, message = ERRORED, answer.message
    if expected_failure is None:
        return Result(case, status, answer, duration, message, found)
    if status == PASSED:
        return Result(case, FAILED, answer, duration,
                      f"passed, but it is listed as an expected failure ({expected_failure}); "
                      "remove it from the list", None, expected_failure)
    return Result(case, XFAILED, answer, duration, message, found, expected_failure)


def version_skip(case, versions: dict | None) -> Answer | None:
    """The skip of a case its implementation does not implement (its gate, or that version
    of it), decided before anything is sent; ``None`` when the case is to be run."""
    if versions is None:
        return None
    if case.gate not in versions:
        return skipped(f"the {case.gate} gate is not implemented", GATE_NOT_LISTED)
    reason = version_mismatch(case.gate, case.gate_version, versions[case.gate])
    return skipped(reason, VERSION_MISMATCH) if reason else None


def run(cases, implementation, *, mode: str, expected_failures: ExpectedFailures | None = None,
        progress=None, jobs: int = 1, on_result=None) -> Report:
    """Run ``cases`` against ``implementation`` (already started) and judge them, in suite
    order. ``jobs`` cases are answered at once where the implementation allows it (program
    mode); ``on_result(result)`` is called for each verdict, in order, as it comes."""
    expected_failures = expected_failures or ExpectedFailures()
    versions = getattr(implementation, "versions", None)

    def judge(case):
        start = time.perf_counter()
        answer = version_skip(case, versions) or _ask(implementation, case)
        result = verdict(case, answer, time.perf_counter() - start, expected_failures.reason_for(case.id))
        if result.status == PASSED:  # keep no copy of an output nobody will show
            result = Result(case, PASSED, Answer(ANSWERED, exit_code=answer.exit_code, outcome=answer.outcome),
                            result.duration)
        return result

    cases = list(cases)
    parallel = jobs if getattr(implementation, "concurrent", False) else 1
    results = []
    began = time.perf_counter()
    for number, result in enumerate(_in_order(judge, cases, parallel), 1):
        results.append(result)
        if on_result is not None:
            on_result(result)
        if progress is not None:
            progress(number, len(cases))
    return Report(
        implementation=dict(implementation.info or {}), mode=mode, results=tuple(results),
        duration=time.perf_counter() - began, restarts=getattr(implementation, "restarts", 0),
        versions=getattr(implementation, "versions", None),
    )


def _ask(implementation, case) -> Answer:
    try:
        return implementation.answer(case)
    except Exception as error:  # a defect of the runner: one errored case, never a traceback
        return errored(f"the runner failed on this case: {type(error).__name__}: {error}",
                       {"traceback": traceback.format_exc()})


def _in_order(judge, cases, jobs: int):
    """``judge(case)`` for every case, yielded in case order; up to ``jobs`` at once, with
    a bounded window of cases in flight so an interrupted run leaves little to cancel."""
    if jobs <= 1:
        yield from map(judge, cases)
        return
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="passdown-case")
    window: deque = deque()
    pending = iter(cases)
    try:
        for case in pending:
            window.append(pool.submit(judge, case))
            if len(window) >= 2 * jobs:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def expected_failures_text(results, name: str) -> str:
    """The strict expected-failures file of a run's failures: every case that failed or
    errored (and every listed one that still fails, with its reason), each new one with a
    placeholder reason to replace. A listed case that now passes is left out."""
    lines = [f"# Expected failures of {name}:",
             "# one `<case id or glob> <reason>` per line. Written by `passdown conformance run",
             f"# --write-expected-failures`: replace each {PLACEHOLDER!r} with the reason.",
             "# A listed case that passes fails the run."]
    count = 0
    for result in results:
        listed_but_passed = result.status == FAILED and result.expected_failure is not None
        if result.status not in (FAILED, ERRORED, XFAILED) or listed_but_passed:
            continue
        reason = result.expected_failure or f"{PLACEHOLDER} ({_first_line(result.message)})"
        lines.append(f"{result.case.id} {reason}")
        count += 1
    if not count:
        lines.append("# (no case failed)")
    return "\n".join(lines) + "\n"


#: The reason a written expected-failures file gives each new entry, to be replaced.
PLACEHOLDER = "TODO: say why"


def _first_line(message: str | None) -> str:
    line = (message or "failed").splitlines()[0]
    return cut(line, 80)
