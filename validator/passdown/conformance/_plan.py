"""A run of one or several implementations, one after the other, over the same cases: each
is started (a harness that does not start is recorded as such and the run goes on), run, and
ended with everything it started. Every step becomes a report-stream record
(:mod:`passdown.conformance._stream`), handed to ``emit`` as it happens, and the whole run is
read back from those records: the live report and a re-rendered one are the same."""

from __future__ import annotations

import time
from dataclasses import dataclass

from passdown.conformance import _stream
from passdown.conformance.versions import parse


@dataclass(frozen=True)
class Entrant:
    """One implementation to run: its name in the run, its mode and its command line
    (``None`` for the built-in reference)."""

    name: str
    mode: str
    command: tuple[str, ...] | None = None

    def build(self, *, timeout: float, restarts: int, env: dict | None = None):
        from passdown.conformance._harness import Harness
        from passdown.conformance._implementations import Program, Reference

        if self.mode == "harness":
            return Harness(list(self.command), timeout=timeout, restarts=restarts, env=env)
        if self.mode == "program":
            return Program(list(self.command), timeout=timeout, env=env)
        return Reference()


def suite_versions(cases) -> dict[str, str]:
    """Each gate of ``cases`` with the version its fixtures are for (the highest, where files
    of one gate differ)."""
    versions: dict[str, str] = {}
    for case in cases:
        known = versions.get(case.gate)
        if known is None or parse(case.gate_version) > parse(known):
            versions[case.gate] = case.gate_version
    return versions


def run_all(entrants, cases, *, suite_root: str, timeout: float, restarts: int, jobs: int,
            expected_failures: dict | None = None, emit=None, progress=None,
            env: dict | None = None, profiles: dict | None = None,
            siblings: dict | None = None) -> _stream.RunView:
    """Run ``cases`` against every entrant in turn; ``expected_failures`` maps run names to
    their :class:`~passdown.conformance._runner.ExpectedFailures`; ``profiles``, each
    conformance profile's case count in the whole suite, lets the reports tell a profile that
    ran whole from one the selection cut (default: the selected cases are the whole);
    ``siblings``, each fixture file's cases, lets a failure's input be shown by where it
    differs from the nearest other case of its file (default: the selected cases)."""
    from passdown.conformance.profiles import totals
    from passdown.conformance._harness import HarnessFailed
    from passdown.conformance._runner import run

    cases = list(cases)
    expected_failures = expected_failures or {}
    if siblings is None:
        siblings = {}
        for case in cases:
            siblings.setdefault(case.file, []).append(case)
    records = []

    def record(item):
        records.append(item)
        if emit is not None:
            emit(item)

    began = time.perf_counter()
    record(_stream.header(
        suite_versions=suite_versions(cases), suite_root=suite_root, selected=len(cases), jobs=jobs,
        profiles=totals(cases) if profiles is None else profiles,
        plan=[(e.name, e.mode, list(e.command) if e.command else None) for e in entrants]))
    for entrant in entrants:
        implementation = entrant.build(timeout=timeout, restarts=restarts, env=env)
        try:
            if entrant.mode == "harness":
                try:
                    implementation.start()
                except HarnessFailed as error:
                    message = error.message + (f"\n  hint: {error.hint}" if error.hint else "")
                    record(_stream.implementation(entrant.name, entrant.mode, None, None, message))
                    continue
            record(_stream.implementation(entrant.name, entrant.mode, implementation.info,
                                          implementation.versions))
            report = run(cases, implementation, mode=entrant.mode,
                         expected_failures=expected_failures.get(entrant.name), progress=progress,
                         jobs=jobs, on_result=lambda result, name=entrant.name: record(_stream.case(name, result, siblings)))
            record(_stream.implementation_end(entrant.name, report))
        finally:
            implementation.close()
            if progress is not None:
                progress.finish()
    so_far = _stream.view(records)
    record(_stream.footer(so_far.entries and max(e.exit_code for e in so_far.entries) or 0,
                          time.perf_counter() - began))
    return _stream.view(records)
