"""Rendering a run's :class:`~baton.conformance._runner.Report`: the terminal summary,
JSON (``conformance/report.schema.json``), JUnit XML, Markdown for CI step summaries and a
shields.io endpoint badge. Every format is a pure function of the report."""

from __future__ import annotations

import json
import re

from baton.conformance._protocol import VERSION
from baton.conformance._runner import ERRORED, FAILED, PASSED, SKIPPED_STATUS, XFAILED
from baton.reporters import printable

_COLUMNS = (PASSED, FAILED, ERRORED, SKIPPED_STATUS)
#: Markdown step summaries have a size limit; the rest of the failures are counted, not shown.
MARKDOWN_DETAILS = 50
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _title(report) -> str:
    info = report.implementation
    title = info.get("name") or "implementation"
    if info.get("version") not in (None, "unknown"):
        title += f" {info['version']}"
    if info.get("language") not in (None, "unknown"):
        title += f" ({info['language']})"
    via = {"reference": "the built-in reference", "harness": "harness", "program": "program"}
    return f"{title}, via {via[report.mode]}"


def _skip_reasons(results) -> dict[str, int]:
    reasons: dict[str, int] = {}
    for result in results:
        if result.status == SKIPPED_STATUS:
            key = result.message or "skipped"
            reasons[key] = reasons.get(key, 0) + 1
    return reasons


def _excerpt(value, limit: int = 300) -> str:
    """A case's input for the report: as JSON (text quoted, escapes visible), cut at ``limit``."""
    text = printable(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


# -- terminal ---------------------------------------------------------------------------------

def text(report) -> str:
    lines = [f"baton conformance: {_title(report)}", ""]
    width = max([4] + [len(g) for g in report.by_gate()])
    lines.append(f"{'gate':<{width}}  " + "  ".join(f"{c:>7}" for c in _COLUMNS))
    for gate, results in report.by_gate().items():
        counts = report.counts(results)
        row = f"{gate:<{width}}  " + "  ".join(f"{counts[c]:>7}" for c in _COLUMNS)
        if counts[XFAILED]:
            row += f"  ({counts[XFAILED]} expected failures)"
        lines.append(row)
    for result in report.results:
        if result.status not in (FAILED, ERRORED):
            continue
        case = result.case
        lines += ["", f"{result.status.upper()} {case.id}  ({case.file} {case.json_path})",
                  f"  {case.description}", f"  requirements: {', '.join(case.requirements)}",
                  f"  {case.input_kind}: {_excerpt(case.input_value)}"]
        if result.message:
            lines.append(_indent(result.message, "  "))
        if result.diff:
            lines.append(_indent(result.diff, "  "))
        if result.status == ERRORED:
            for key, value in sorted((result.answer.context or {}).items()):
                if key != "message":
                    lines.append(f"  {key}:")
                    lines.append(_indent(value if isinstance(value, str) else json.dumps(value), "    "))
        if result.answer.stderr and result.answer.stderr.strip():
            lines += ["  stderr:", _indent(result.answer.stderr.rstrip()[-4000:], "    ")]
    xfailed = [r for r in report.results if r.status == XFAILED]
    if xfailed:
        lines.append("")
        lines += [f"XFAIL {r.case.id}  ({r.expected_failure})" for r in xfailed]
    reasons = _skip_reasons(report.results)
    if reasons:
        lines.append("")
        lines += [f"skipped {count}: {reason}" for reason, count in reasons.items()]
    if report.restarts:
        times = "once" if report.restarts == 1 else f"{report.restarts} times"
        lines += ["", f"the harness was restarted {times}"]
    if report.ran_nothing:
        lines += ["", "no case ran: the implementation implements none of the selected gates"]
    lines += ["", report.summary_line()]
    return "\n".join(lines) + "\n"


# -- JSON -------------------------------------------------------------------------------------

def _case_entry(result) -> dict:
    case, answer = result.case, result.answer
    entry = {
        "id": case.id, "gate": case.gate, "status": result.status,
        "requirements": list(case.requirements), "file": case.file, "path": case.json_path,
        "duration_seconds": round(result.duration, 6),
    }
    if result.message:
        entry["message"] = result.message
    if result.expected_failure:
        entry["expected_failure"] = result.expected_failure
    if result.status in (FAILED, XFAILED) and answer.kind == "answered":
        entry["expected"] = {"output": case.expected_output, "exit_code": case.expected_exit_code}
        entry["actual"] = {"output": answer.output, "exit_code": answer.exit_code}
        if case.expected_stdout is not None:
            entry["expected"]["stdout"] = case.expected_stdout
            entry["actual"]["stdout"] = answer.stdout
    if result.diff:
        entry["diff"] = result.diff
    if result.status in (ERRORED, XFAILED) and answer.context:
        entry["context"] = answer.context
    if result.status in (FAILED, ERRORED, XFAILED) and answer.stderr:
        entry["stderr"] = answer.stderr
    return entry


def to_json(report) -> dict:
    from baton._version import __version__

    counts = report.counts()
    return {
        "baton_version": "1.0",
        "kind": "conformance_report",
        "runner": {"name": "baton", "version": __version__, "protocol_version": VERSION,
                   "mode": report.mode},
        "implementation": report.implementation,
        "summary": {**counts, "total": len(report.results),
                    "duration_seconds": round(report.duration, 6), "restarts": report.restarts,
                    "exit_code": report.exit_code, "line": report.summary_line()},
        "gates": [{"gate": gate, **report.counts(results), "total": len(results)}
                  for gate, results in report.by_gate().items()],
        "cases": [_case_entry(result) for result in report.results],
    }


def json_text(report) -> str:
    return printable(json.dumps(to_json(report), indent=2, ensure_ascii=False)) + "\n"


# -- JUnit XML --------------------------------------------------------------------------------

def _xml_safe(value: str) -> str:
    return _XML_INVALID.sub("\ufffd", value)


def junit(report) -> str:
    from xml.etree import ElementTree as ET

    counts = report.counts()
    root = ET.Element("testsuites", {
        "name": "baton conformance: " + _xml_safe(_title(report)),
        "tests": str(len(report.results)), "failures": str(counts[FAILED]),
        "errors": str(counts[ERRORED]), "skipped": str(counts[SKIPPED_STATUS] + counts[XFAILED]),
        "time": f"{report.duration:.3f}",
    })
    for gate, results in report.by_gate().items():
        gate_counts = report.counts(results)
        suite = ET.SubElement(root, "testsuite", {
            "name": gate, "tests": str(len(results)), "failures": str(gate_counts[FAILED]),
            "errors": str(gate_counts[ERRORED]),
            "skipped": str(gate_counts[SKIPPED_STATUS] + gate_counts[XFAILED]),
            "time": f"{sum(r.duration for r in results):.3f}",
        })
        for result in results:
            case = result.case
            testcase = ET.SubElement(suite, "testcase", {
                "classname": f"conformance.{gate}", "name": case.id, "file": case.file,
                "time": f"{result.duration:.6f}",
            })
            message = _xml_safe(result.message or "")
            if result.status == FAILED:
                node = ET.SubElement(testcase, "failure", {"message": message, "type": "mismatch"})
                node.text = _xml_safe(result.diff or result.message or "")
            elif result.status == ERRORED:
                node = ET.SubElement(testcase, "error", {"message": message, "type": "errored"})
                node.text = _xml_safe(json.dumps(result.answer.context or {}, indent=2))
            elif result.status == SKIPPED_STATUS:
                ET.SubElement(testcase, "skipped", {"message": message})
            elif result.status == XFAILED:
                ET.SubElement(testcase, "skipped",
                              {"message": _xml_safe(f"expected failure: {result.expected_failure}")})
            if result.status != PASSED and result.answer.stderr:
                ET.SubElement(testcase, "system-err").text = _xml_safe(result.answer.stderr)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# -- Markdown ---------------------------------------------------------------------------------

def _md(value: str) -> str:
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "\\|").replace("\n", " "))


def _fence(body: str, info: str = "") -> str:
    ticks = "```"
    while ticks in body:
        ticks += "`"
    return f"{ticks}{info}\n{body}\n{ticks}"


def markdown(report) -> str:
    lines = [f"## Baton conformance: {_md(_title(report))}", "", f"**{report.summary_line()}**", "",
             "| gate | " + " | ".join(_COLUMNS) + " |", "|---|" + "---:|" * len(_COLUMNS)]
    for gate, results in report.by_gate().items():
        counts = report.counts(results)
        lines.append(f"| {gate} | " + " | ".join(str(counts[c]) for c in _COLUMNS) + " |")
    bad = [r for r in report.results if r.status in (FAILED, ERRORED)]
    if bad:
        lines += ["", "### Failures", ""]
        for result in bad[:MARKDOWN_DETAILS]:
            summary = f"{result.status}: <code>{_md(result.case.id)}</code>: {_md(result.message or '')}"
            body = result.diff or json.dumps(result.answer.context or {}, indent=2)
            if result.answer.stderr and result.answer.stderr.strip():
                body += "\n\nstderr:\n" + result.answer.stderr.rstrip()[-2000:]
            lines += ["<details>", f"<summary>{summary}</summary>", "",
                      f"{_md(result.case.description)} ({', '.join(result.case.requirements)})", "",
                      _fence(body, "diff" if result.diff else ""), "", "</details>"]
        if len(bad) > MARKDOWN_DETAILS:
            lines += ["", f"... and {len(bad) - MARKDOWN_DETAILS} more failures (see the JSON report)."]
    return "\n".join(lines) + "\n"


# -- badge ------------------------------------------------------------------------------------

def badge(report) -> dict:
    """A shields.io endpoint badge: the share of selected cases that passed (floored, so
    99.9% never shows as 100%)."""
    total = len(report.results)
    percent = (report.counts()[PASSED] * 100 // total) if total else 0
    color = ("brightgreen" if percent == 100 else "green" if percent >= 90
             else "yellow" if percent >= 75 else "red")
    return {"schemaVersion": 1, "label": "baton conformance", "message": f"{percent}% passing",
            "color": color}


def badge_text(report) -> str:
    return json.dumps(badge(report)) + "\n"


