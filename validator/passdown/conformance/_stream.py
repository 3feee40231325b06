"""The report stream: a run written as JSON Lines while it goes (``--jsonl FILE``), and read
back to be rendered again (``passdown conformance report FILE``).

One object per line, each valid against ``conformance/report-stream.schema.json``: a
``header`` (runner, suite, the implementations in run order), then per implementation an
``implementation`` line (what it said it is, or why it did not start), a ``case`` line per
selected case in suite order and an ``implementation_end`` line, and last a ``footer``.
A file cut short (the run was killed) has no footer; it still reads, marked unfinished.

Every report format is rendered from a :class:`RunView`, the stream read into frozen data,
whether the run just happened or the file is a month old: one model, so a re-rendered report
is the report the run printed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from passdown.errors import UnreadableInput
from passdown.conformance._compare import Difference
from passdown.conformance._runner import FAILED, SKIPPED_STATUS, XFAILED, Tally

FORMAT = "passdown-conformance-report-stream"
VERSION = 1
#: Inputs are shown cut to this many characters.
INPUT_EXCERPT = 300
#: An answer's output larger than this (as JSON text) is kept in the stream as an excerpt.
OUTPUT_KEPT = 64 * 1024
#: A stream line longer than this is not one this runner wrote.
MAX_LINE_BYTES = 16 * 1024 * 1024


# -- the model every format is rendered from ---------------------------------------------------

@dataclass(frozen=True)
class CaseInfo:
    """What a report says about a case."""

    id: str
    gate: str
    gate_version: str
    description: str
    requirements: tuple[str, ...]
    file: str
    path: str
    input_kind: str
    input_excerpt: str
    profile: str = ""
    input_focus: dict | None = None


@dataclass(frozen=True)
class Outcome:
    """One implementation's verdict on one case, as the stream holds it."""

    case: CaseInfo
    status: str
    duration: float
    message: str | None = None
    skip: dict | None = None  # {"code", "message", "issue_url"?}
    differences: tuple[Difference, ...] = ()
    more_differences: int = 0
    stdout_diff: str | None = None
    expected: dict | None = None
    actual: dict | None = None
    expected_failure: str | None = None
    context: dict | None = None
    stderr: str | None = None
    record: dict | None = field(default=None, repr=False, compare=False)  # as the stream holds it


@dataclass(frozen=True)
class Entry(Tally):
    """One implementation of a run: its run name, how it was run, what it said it is and
    which gate versions it implements, why it did not start (if so) and its verdicts."""

    name: str
    mode: str
    info: dict | None
    versions: dict | None
    results: tuple[Outcome, ...]
    error: str | None = None
    duration: float = 0.0
    restarts: int = 0
    finished: bool = True

    @property
    def exit_code(self) -> int:
        return 1 if self.error else super().exit_code

    @property
    def declared_profiles(self) -> tuple[str, ...]:
        """The profiles the implementation says it conforms to (its ``ready`` line)."""
        return _declared(self.info)

    @property
    def title(self) -> str:
        """``toy 0.1 (python), via harness``."""
        info = self.info or {}
        title = info.get("name") or self.name
        if info.get("version") not in (None, "unknown"):
            title += f" {info['version']}"
        if info.get("language") not in (None, "unknown"):
            title += f" ({info['language']})"
        via = {"reference": "the built-in reference", "harness": "harness", "program": "program"}
        return f"{title}, via {via.get(self.mode, self.mode)}"


@dataclass(frozen=True)
class RunView:
    """A whole run: the runner, the gate versions of the suite, and each implementation."""

    runner: dict
    suite: dict
    entries: tuple[Entry, ...]
    duration: float = 0.0
    finished: bool = True

    @property
    def exit_code(self) -> int:
        return 1 if not self.finished or any(e.exit_code for e in self.entries) else 0

    @property
    def compared(self) -> bool:
        return len(self.entries) > 1

    def case_rows(self) -> list[tuple[CaseInfo, dict[str, Outcome]]]:
        """Every case any implementation has a verdict on, in suite order, with each
        implementation's verdict by run name."""
        rows: dict[str, tuple[CaseInfo, dict]] = {}
        for entry in self.entries:
            for outcome in entry.results:
                rows.setdefault(outcome.case.id, (outcome.case, {}))[1][entry.name] = outcome
        return list(rows.values())


# -- records, from a live run ------------------------------------------------------------------

def _declared(info) -> tuple[str, ...]:
    profiles = (info or {}).get("profiles")
    return tuple(profiles) if isinstance(profiles, list) else ()


def header(*, suite_versions: dict, suite_root: str, selected: int, plan, jobs: int,
           profiles: dict | None = None) -> dict:
    from passdown._version import __version__
    from passdown.conformance._protocol import VERSION as PROTOCOL

    return {"record": "header", "format": FORMAT, "version": VERSION,
            "runner": {"name": "passdown", "version": __version__, "protocol_version": PROTOCOL},
            "suite": {"root": suite_root, "gates": dict(suite_versions), "selected": selected,
                      **({} if profiles is None else {"profiles": dict(profiles)})},
            "implementations": [{"name": name, "mode": mode, "command": command}
                                for name, mode, command in plan],
            "jobs": jobs}


def implementation(name: str, mode: str, info: dict | None, versions: dict | None,
                   error: str | None = None) -> dict:
    record = {"record": "implementation", "name": name, "mode": mode,
              "info": dict(info) if info is not None else None,
              "gate_versions": dict(versions) if versions is not None else None}
    if error is not None:
        record["error"] = error
    return record


def case(name: str, result, siblings: dict | None = None) -> dict:
    """A case record; ``siblings`` maps a fixture file to its cases, for the input's focus."""
    return {"record": "case", "implementation": name, "result": result_entry(result, siblings)}


def implementation_end(name: str, report) -> dict:
    return {"record": "implementation_end", "name": name,
            "duration_seconds": round(report.duration, 6), "restarts": report.restarts,
            "summary": {**report.counts(), "total": len(report.results), "exit_code": report.exit_code}}


def footer(exit_code: int, duration: float) -> dict:
    return {"record": "footer", "exit_code": exit_code, "duration_seconds": round(duration, 6)}


def display_file(path: str) -> str:
    """A fixture file as reports name it: under ``conformance/`` for the packaged suite
    (the same in a checkout and an installed package), else as the suite was named."""
    from passdown._resources import data_dir

    try:
        return "conformance/" + Path(path).relative_to(data_dir("conformance")).as_posix()
    except (ValueError, FileNotFoundError):
        return path


def _input_excerpt(value) -> str:
    text = json.dumps(value, ensure_ascii=False).encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= INPUT_EXCERPT else f"{text[:INPUT_EXCERPT]}... ({len(text)} characters)"


def _kept(output):
    """An output as the stream keeps it: whole, or an excerpt when it is very large."""
    text = json.dumps(output, ensure_ascii=False)
    if len(text) <= OUTPUT_KEPT:
        return output
    return {"excerpt": text[:2000], "characters": len(text)}


def result_entry(result, siblings: dict | None = None) -> dict:
    """One live :class:`~passdown.conformance._runner.Result` as the stream and the JSON report
    hold it (``report-stream.schema.json#/$defs/result``); a failed, errored or listed case
    also carries its input's focus against the other cases of its file in ``siblings``."""
    from passdown.conformance._compare import input_focus

    case_, answer = result.case, result.answer
    entry = {
        "id": case_.id, "gate": case_.gate, "gate_version": case_.gate_version,
        "description": case_.description, "profile": case_.profile, "status": result.status,
        "requirements": list(case_.requirements), "file": display_file(case_.file),
        "path": case_.json_path, "input_kind": case_.input_kind,
        "input_excerpt": _input_excerpt(case_.input_value),
        "duration_seconds": round(result.duration, 6),
    }
    if result.message:
        entry["message"] = result.message
    if result.status == SKIPPED_STATUS:
        entry["skip"] = {"code": answer.skip_code or "by_implementation",
                         "message": answer.message or "skipped"}
        if answer.issue_url:
            entry["skip"]["issue_url"] = answer.issue_url
    if result.expected_failure:
        entry["expected_failure"] = result.expected_failure
    if result.status in (FAILED, "errored", XFAILED):
        focus = input_focus(case_, (siblings or {}).get(case_.file, ()))
        if focus is not None:
            entry["input_focus"] = focus
    if result.status in (FAILED, XFAILED) and answer.kind == "answered":
        entry["expected"] = {"output": case_.expected_output, "exit_code": case_.expected_exit_code}
        entry["actual"] = {"output": _kept(answer.output), "exit_code": answer.exit_code}
        if case_.expected_stdout is not None:
            entry["expected"]["stdout"] = case_.expected_stdout
            entry["actual"]["stdout"] = answer.stdout
    found = result.mismatch
    if found is not None:
        if found.differences:
            entry["differences"] = [d.to_json() for d in found.differences]
        if found.more:
            entry["more_differences"] = found.more
        if found.stdout_diff:
            entry["diff"] = found.stdout_diff
    if result.status in ("errored", XFAILED) and answer.context:
        entry["context"] = answer.context
    if result.status in (FAILED, "errored", XFAILED) and answer.stderr:
        entry["stderr"] = answer.stderr
    return entry


def records_of(reports, *, suite_root: str = "") -> list[dict]:
    """The stream of finished runs: ``reports`` is ``[(run name, Report), ...]``."""
    from passdown.conformance._plan import suite_versions

    cases = [result.case for _, report in reports for result in report.results]
    siblings: dict[str, list] = {}
    for case_ in {c.id: c for c in cases}.values():
        siblings.setdefault(case_.file, []).append(case_)
    from passdown.conformance.profiles import totals

    selected_cases = [result.case for result in reports[0][1].results] if reports else []
    records = [header(suite_versions=suite_versions(cases), suite_root=suite_root,
                      profiles=totals(selected_cases),
                      selected=len(reports[0][1].results) if reports else 0, jobs=1,
                      plan=[(name, report.mode, None) for name, report in reports])]
    for name, report in reports:
        records.append(implementation(name, report.mode, report.implementation, report.versions))
        records += [case(name, result, siblings) for result in report.results]
        records.append(implementation_end(name, report))
    records.append(footer(max((r.exit_code for _, r in reports), default=0),
                          sum(r.duration for _, r in reports)))
    return records


def view_of(*reports) -> RunView:
    """The view of one or more finished :class:`~passdown.conformance._runner.Report` values,
    each named by its mode (for the library and the tests; the CLI streams as it runs)."""
    modes = [report.mode for report in reports]
    named = [(mode if modes.count(mode) == 1 else f"{mode}-{modes[:n + 1].count(mode)}", report)
             for n, (mode, report) in enumerate(zip(modes, reports))]
    return view(records_of(named))


# -- reading -----------------------------------------------------------------------------------

def outcome_of(entry: dict) -> Outcome:
    from passdown.conformance.profiles import profile_of

    info = CaseInfo(entry["id"], entry["gate"], entry["gate_version"], entry.get("description", ""),
                    tuple(entry["requirements"]), entry["file"], entry["path"],
                    entry.get("input_kind", "input"), entry.get("input_excerpt", ""),
                    entry.get("profile") or profile_of(entry["gate"]), entry.get("input_focus"))
    return Outcome(
        case=info, status=entry["status"], duration=entry["duration_seconds"],
        message=entry.get("message"), skip=entry.get("skip"),
        differences=tuple(Difference.from_json(d) for d in entry.get("differences", ())),
        more_differences=entry.get("more_differences", 0), stdout_diff=entry.get("diff"),
        expected=entry.get("expected"), actual=entry.get("actual"),
        expected_failure=entry.get("expected_failure"), context=entry.get("context"),
        stderr=entry.get("stderr"), record=entry,
    )


def outcome_json(outcome: Outcome) -> dict:
    """The verdict as the stream and the JSON report hold it."""
    return outcome.record


@dataclass
class _Building:
    name: str
    mode: str
    info: dict | None = None
    versions: dict | None = None
    error: str | None = None
    results: list = field(default_factory=list)
    duration: float = 0.0
    restarts: int = 0
    finished: bool = False


def view(records) -> RunView:
    """The run a sequence of records (valid, in stream order) describes."""
    runner, suite, building, duration, finished = {}, {}, {}, 0.0, False
    for record in records:
        kind = record["record"]
        if kind == "header":
            runner, suite = record["runner"], record["suite"]
            for planned in record["implementations"]:
                building[planned["name"]] = _Building(planned["name"], planned["mode"])
        elif kind == "implementation":
            entry = building.setdefault(record["name"], _Building(record["name"], record["mode"]))
            entry.info, entry.versions, entry.error = record["info"], record["gate_versions"], record.get("error")
        elif kind == "case":
            building[record["implementation"]].results.append(outcome_of(record["result"]))
        elif kind == "implementation_end":
            entry = building[record["name"]]
            entry.duration, entry.restarts, entry.finished = (record["duration_seconds"], record["restarts"], True)
        elif kind == "footer":
            duration, finished = record["duration_seconds"], True
    entries = tuple(Entry(b.name, b.mode, b.info, b.versions, tuple(b.results), b.error, b.duration,
                          b.restarts, b.finished) for b in building.values())
    return RunView(runner, suite, entries, duration, finished)


@cache
def schema() -> dict:
    from passdown._resources import data_dir

    return json.loads((data_dir("conformance") / "report-stream.schema.json").read_text(encoding="utf-8"))


@cache
def _validator():
    from passdown.engine._schemas import compile_schema

    return compile_schema(schema())


def read(path: str | Path) -> RunView:
    """Read a report stream; :class:`UnreadableInput` (exit status 2) says which line is
    broken and how."""
    from passdown._findings import json_path
    from passdown._text import cut
    from passdown.formats._loading import load_bytes

    def refuse(line_number, message, hint="give a file written by `passdown conformance run --jsonl`"):
        where = f"{path}:{line_number}: " if line_number else f"{path}: "
        raise UnreadableInput(where + message, code="conformance.report_file", hint=hint)

    handle = _open_regular(path, lambda message: refuse(0, message))
    records = []
    with handle:
        for number, line in enumerate(_lines(handle, lambda n: refuse(n, f"a line longer than {MAX_LINE_BYTES} bytes")), 1):
            if not line.strip():
                continue
            loaded, findings = load_bytes(line, source=None, syntax="json")
            if loaded is None:
                refuse(number, f"not a JSON line ({findings[0].code}: {findings[0].message})")
            errors = list(_validator().iter_errors(loaded.data))
            if errors:
                best = min(errors, key=lambda e: len(e.instance_path))
                refuse(number, f"not a report stream line: {json_path(best.instance_path)}: {cut(best.message, 200)}")
            record = loaded.data
            if not records and record["record"] != "header":
                refuse(number, "the first line is not the header")
            if records and record["record"] == "header":
                refuse(number, "a second header: one file holds one run")
            if record["record"] == "header" and record["version"] != VERSION:
                refuse(number, f"stream version {record['version']}; this runner reads version {VERSION}",
                       "render it with the passdown version that wrote it")
            _check_order(record, records, lambda message: refuse(number, message))
            records.append(record)
    if not records:
        refuse(0, "the file is empty")
    return view(records)


def _open_regular(path, refuse):
    """The file opened for reading, if it is a regular file: a FIFO or a device is refused,
    never waited on or read without end."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        refuse(f"cannot read the report stream: {error.strerror or error}")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        refuse("cannot read the report stream: not a regular file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _lines(handle, too_long):
    number = 0
    while True:
        line = handle.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES:
            too_long(number)
        yield line


def _check_order(record, records, refuse) -> None:
    """Lines name implementations the header announced, and nothing follows the footer."""
    if records and records[-1]["record"] == "footer":
        refuse("a line after the footer")
    if record["record"] in ("implementation", "case", "implementation_end"):
        name = record.get("name") or record.get("implementation")
        planned = {i["name"] for i in records[0]["implementations"]} if records else set()
        if name not in planned:
            refuse(f"the implementation {name!r} is not in the header")


class Writer:
    """Appends records to a stream file, one flushed line each, as the run goes."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._handle = open(self.path, "w", encoding="utf-8")

    def write(self, record: dict) -> None:
        # ASCII: every string travels, lone surrogates included
        try:
            self._handle.write(json.dumps(record, separators=(",", ":")) + "\n")
            self._handle.flush()
        except OSError as error:
            raise UnreadableInput(f"cannot write the report stream {self.path}: {error.strerror or error}",
                                  code="conformance.report_file", hint="free some space, or name another file") from None

    def close(self) -> None:
        try:
            self._handle.close()
        except OSError:  # what could not be written was said when it was written
            pass
