"""Rendering a run (:class:`~passdown.conformance._stream.RunView`): the terminal summary, JSON
(``conformance/report.schema.json``), JUnit XML, Markdown for CI step summaries, a shields.io
endpoint badge, and the HTML page (:mod:`passdown.conformance._html`). Every format is a pure
function of the view, so a run re-rendered from its stream reads as it did live.

A run of one implementation reads as before; a run of several opens with a comparison: the
implementations' counts, each gate's verdicts side by side, and every case that one of them
failed with each one's verdict on it. Failures show the JSON path of each differing value,
expected and got; skips keep their reason and issue link."""

from __future__ import annotations

import json
import re

from passdown._text import paint, printable
from passdown.conformance._runner import ERRORED, FAILED, PASSED, SKIPPED_STATUS, STATUSES, XFAILED
from passdown.conformance.profiles import conforms_to, phrase

_COLUMNS = (PASSED, FAILED, ERRORED, SKIPPED_STATUS)
_BAD = (FAILED, ERRORED, XFAILED)
#: Markdown step summaries have a size limit; the rest of the failures are counted, not shown.
MARKDOWN_DETAILS = 50
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# -- shared pieces ------------------------------------------------------------------------------

def skip_reasons(results) -> list[tuple[str, str | None, int]]:
    """``(message, issue_url, count)`` per distinct skip, in first-seen order; the gates an
    implementation does not implement make one line, not one per gate."""
    reasons: dict[tuple, int] = {}
    missing: dict[str, int] = {}
    for result in results:
        if result.status != SKIPPED_STATUS:
            continue
        skip = result.skip or {}
        if skip.get("code") == "gate_not_listed":
            missing[result.case.gate] = missing.get(result.case.gate, 0) + 1
            reasons.setdefault(("", None), 0)
            continue
        key = (skip.get("message") or result.message or "skipped", skip.get("issue_url"))
        reasons[key] = reasons.get(key, 0) + 1
    gates = ", ".join(f"{gate} ({count})" for gate, count in missing.items())
    return [(message, url, count) if message else (f"gates not implemented: {gates}", None, sum(missing.values()))
            for (message, url), count in reasons.items()]


def versions_line(entry) -> str:
    """``restart 2.2.1, title 1.0.0``, or what the implementation left unsaid."""
    if entry.versions is None:
        return "not stated (every case is sent)"
    if not entry.versions:
        return "none"
    return ", ".join(f"{gate} {version}" if version else f"{gate} (version not stated)"
                     for gate, version in entry.versions.items())


def gate_cell(counts: dict) -> str:
    """One implementation's verdicts on one gate, in a few words."""
    ran = {status: n for status, n in counts.items() if n}
    if not ran:
        return "-"
    if list(ran) == [SKIPPED_STATUS]:
        return "skipped"
    return ", ".join(f"{n} {status}" for status, n in ran.items())


def failed_rows(view):
    """The comparison's case rows: cases some implementation failed, errored or knowingly
    failed; the others (passed or skipped by every one) are counted, not listed."""
    rows = view.case_rows()
    listed = [(case, by_name) for case, by_name in rows
              if any(o.status in _BAD for o in by_name.values())]
    return listed, len(rows) - len(listed)


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


# -- terminal ---------------------------------------------------------------------------------

def _table(rows: list[list[str]], right_from: int = 1) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(widths[i]) if i >= right_from else cell.ljust(widths[i])
                      for i, cell in enumerate(row)).rstrip() for row in rows]


def _gate_table(entry, suite_gates) -> list[str]:
    rows = [["gate", "version", *_COLUMNS]]
    notes = {}
    for gate, results in entry.by_gate().items():
        counts = entry.counts(results)
        rows.append([gate, suite_gates.get(gate, "?"), *(str(counts[c]) for c in _COLUMNS)])
        if counts[XFAILED]:
            notes[len(rows) - 1] = f"  ({counts[XFAILED]} expected failures)"
    lines = _table(rows, right_from=2)
    return [line + notes.get(number, "") for number, line in enumerate(lines)]


def profile_rows(view, entry) -> list[dict]:
    """The entry's verdict per conformance profile, against the suite's profile sizes."""
    return entry.profile_rows(view.suite.get("profiles"))


def shown_profile_rows(view, entry) -> list[dict]:
    """The rows a report shows: the profiles with a selected case (JSON keeps them all)."""
    return [row for row in profile_rows(view, entry) if row["selected"]]


def profile_summary(view, entry) -> str:
    """``conforms to core + handoff (declares core, handoff)``."""
    line = phrase(profile_rows(view, entry))
    if entry.declared_profiles:
        line += f" (declares {', '.join(entry.declared_profiles)})"
    return line


def verdict_words(row) -> str:
    if row["verdict"] == "incomplete" and row["selected"] < row["total"]:
        return f"incomplete ({row['selected']} of {row['total']} selected)"
    return row["verdict"].replace("_", " ") + (" (declared)" if row["declared"] else "")


def _profile_table(view, entry) -> list[str]:
    rows = [["profile", "verdict", *_COLUMNS]]
    for row in shown_profile_rows(view, entry):
        rows.append([row["profile"], verdict_words(row), *(str(row[c]) for c in _COLUMNS)])
    return _table(rows, right_from=2)


def _declared_skips(entry) -> list[str]:
    skipped = entry.skipped_in_declared
    if not skipped:
        return []
    names = sorted({r.case.profile for r in skipped})
    return ["", f"{len(skipped)} cases of a declared profile ({', '.join(names)}) were skipped: "
                "a profile an implementation declares has no skips (this fails the run)"]


def focus_lines(focus, indent: str = "  ") -> list[str]:
    """The input's decisive part, each value in full by its JSON path."""
    if not focus:
        return []
    against = focus.get("against")
    head = (f"{indent}where the input differs from {against}:" if against
            else f"{indent}the input, value by value:")
    lines = [head] + [f"{indent}  {item['path']}: {item.get('value', 'absent')}" for item in focus["values"]]
    if focus.get("more"):
        lines.append(f"{indent}  ... and {focus['more']} more")
    return lines


def _details(entry, color: bool = False) -> list[str]:
    lines = []
    for result in entry.results:
        if result.status not in (FAILED, ERRORED):
            continue
        case = result.case
        lines += ["", f"{paint('error', result.status.upper(), color)} {case.id}  ({case.file} {case.path})",
                  f"  {case.description}", f"  requirements: {', '.join(case.requirements)}",
                  f"  {case.input_kind}: {case.input_excerpt}"]
        lines += focus_lines(case.input_focus)
        if result.message:
            lines.append(_indent(result.message, "  "))
        lines += [f"  {d.line()}" for d in result.differences]
        if result.more_differences:
            lines.append(f"  ... and {result.more_differences} more differences")
        if result.stdout_diff:
            lines.append(_indent(result.stdout_diff, "  "))
        if result.status == ERRORED:
            for key, value in sorted((result.context or {}).items()):
                if key != "message":
                    lines.append(f"  {key}:")
                    lines.append(_indent(value if isinstance(value, str) else json.dumps(value), "    "))
        if result.stderr and result.stderr.strip():
            lines += ["  stderr:", _indent(result.stderr.rstrip()[-4000:], "    ")]
    xfailed = [r for r in entry.results if r.status == XFAILED]
    if xfailed:
        lines.append("")
        lines += [f"XFAIL {r.case.id}  ({r.expected_failure})" for r in xfailed]
    reasons = skip_reasons(entry.results)
    if reasons:
        lines.append("")
        lines += [f"skipped {count}: {message}" + (f"  (issue: {url})" if url else "")
                  for message, url, count in reasons]
    if entry.restarts:
        times = "once" if entry.restarts == 1 else f"{entry.restarts} times"
        lines += ["", f"the harness was restarted {times}"]
    lines += _declared_skips(entry)
    if entry.error:
        lines += ["", entry.error]
    elif entry.ran_nothing:
        lines += ["", "no case ran: the implementation implements none of the selected gates"
                      " (or none of their versions)"]
    if not entry.finished:
        lines += ["", "the run stopped before this implementation's last case"]
    return lines


def _summary(entry, color: bool) -> str:
    return paint("ok" if entry.exit_code == 0 else "error", entry.summary_line(), color)


def _every_case(entry) -> list[str]:
    return ["", *(f"{result.status} {result.case.id}" for result in entry.results)]


def text(view, *, quiet: bool = False, verbose: bool = False, color: bool = False) -> str:
    """The terminal report. ``quiet``: the failures and the final line only (not the profile
    verdicts: the full report, or JSON, has them); ``verbose``:
    also one line per case with its status; ``color``: failures and the final line in the
    reporters' styles."""
    if not view.compared:
        [entry] = view.entries
        lines = []
        if not quiet:
            lines += [f"passdown conformance: {entry.title}", f"gates implemented: {versions_line(entry)}", ""]
            lines += _gate_table(entry, view.suite.get("gates", {}))
            lines += ["", *_profile_table(view, entry)]
            if verbose:
                lines += _every_case(entry)
        lines += _details(entry, color)
        lines += ["", _summary(entry, color)] if quiet else ["", profile_summary(view, entry), _summary(entry, color)]
        return printable("\n".join(lines[1:] if quiet else lines) + "\n")
    lines = []
    if not quiet:
        lines += [f"passdown conformance: {len(view.entries)} implementations compared", ""]
        rows = [["name", "implementation", *_COLUMNS, XFAILED]]
        for entry in view.entries:
            counts = entry.counts()
            rows.append([entry.name, entry.title, *(str(counts[c]) for c in (*_COLUMNS, XFAILED))])
        lines += _table(rows, right_from=2)
        lines.append("")
        rows = [["gate", "version", *(e.name for e in view.entries)]]
        gates = view.suite.get("gates", {})
        for gate in gates_of(view):
            rows.append([gate, gates.get(gate, "?"),
                         *(gate_cell(e.counts(e.by_gate().get(gate, []))) for e in view.entries)])
        lines += _table(rows, right_from=99)
        listed, unlisted = failed_rows(view)
        lines += ["", f"cases an implementation failed: {len(listed)}"
                      f" (the other {unlisted} passed or were skipped by every implementation)"]
        if listed:
            rows = [["case", *(e.name for e in view.entries)]]
            rows += [[case.id, *(by_name[e.name].status if e.name in by_name else "-" for e in view.entries)]
                     for case, by_name in listed]
            lines += _table(rows, right_from=99)
    for entry in view.entries:
        if not quiet:
            lines += ["", f"== {entry.name}: {entry.title}", f"gates implemented: {versions_line(entry)}",
                      "", *_profile_table(view, entry)]
            if verbose:
                lines += _every_case(entry)
        lines += _details(entry, color)
    lines.append("")
    if not quiet:
        lines += [f"{entry.name}: {profile_summary(view, entry)}" for entry in view.entries]
    lines += [f"{entry.name}: {_summary(entry, color)}" for entry in view.entries]
    if not view.finished:
        lines.append("the run did not finish")
    return printable("\n".join(lines[1:] if quiet and lines and lines[0] == "" else lines) + "\n")


def gates_of(view) -> list[str]:
    """The gates of a run's cases, in suite order."""
    gates: dict[str, None] = {}
    for case, _ in view.case_rows():
        gates.setdefault(case.gate)
    return list(gates)


# -- JSON -------------------------------------------------------------------------------------

def _entry_json(view, entry) -> dict:
    from passdown.conformance._stream import outcome_json

    counts = entry.counts()
    info = dict(entry.info or {"name": entry.name, "language": "unknown", "version": "unknown", "gates": None})
    info.setdefault("gates", None)
    info["gate_versions"] = entry.versions
    gates = view.suite.get("gates", {})
    profiles = profile_rows(view, entry)
    document = {
        "passdown_version": "1.0",
        "kind": "conformance_report",
        "name": entry.name,
        "runner": {**view.runner, "mode": entry.mode},
        "suite": {"gates": gates},
        "implementation": info,
        "summary": {**counts, "total": len(entry.results),
                    "duration_seconds": entry.duration, "restarts": entry.restarts,
                    "exit_code": entry.exit_code, "line": entry.summary_line(),
                    "finished": entry.finished},
        "profiles": profiles,
        "conforms_to": conforms_to(profiles),
        "gates": [{"gate": gate, "gate_version": gates.get(gate, "?"), **entry.counts(results),
                   "total": len(results)} for gate, results in entry.by_gate().items()],
        "cases": [outcome_json(result) for result in entry.results],
    }
    if entry.error:
        document["error"] = entry.error
    return document


def to_json(view) -> dict:
    if not view.compared:
        return _entry_json(view, view.entries[0])
    return {
        "passdown_version": "1.0",
        "kind": "conformance_comparison",
        "summary": {"exit_code": view.exit_code, "duration_seconds": view.duration, "finished": view.finished},
        "reports": [_entry_json(view, entry) for entry in view.entries],
        "cases": [{"id": case.id, "gate": case.gate,
                   "statuses": {name: outcome.status for name, outcome in by_name.items()}}
                  for case, by_name in view.case_rows()],
    }


def json_text(view) -> str:
    return json.dumps(to_json(view), indent=2) + "\n"


# -- JUnit XML --------------------------------------------------------------------------------

def _xmlsafe(value: str) -> str:
    return _XML_INVALID.sub("\ufffd", value)


def _failure_text(result) -> str:
    parts = [d.line() for d in result.differences]
    if result.more_differences:
        parts.append(f"... and {result.more_differences} more differences")
    if result.stdout_diff:
        parts.append(result.stdout_diff)
    return "\n".join(parts) or (result.message or "")


def junit(view) -> str:
    from xml.etree import ElementTree as ET

    results = [r for e in view.entries for r in e.results]
    counts = {status: sum(1 for r in results if r.status == status) for status in STATUSES}
    title = view.entries[0].title if not view.compared else f"{len(view.entries)} implementations"
    root = ET.Element("testsuites", {
        "name": "passdown conformance: " + _xmlsafe(title),
        "tests": str(len(results)), "failures": str(counts[FAILED]),
        "errors": str(counts[ERRORED]), "skipped": str(counts[SKIPPED_STATUS] + counts[XFAILED]),
        "time": f"{view.duration:.3f}",
    })
    for entry in view.entries:
        prefix = f"{entry.name}." if view.compared else ""
        verdicts = {row["profile"]: row for row in profile_rows(view, entry)}
        for gate, gate_results in entry.by_gate().items():
            gate_counts = entry.counts(gate_results)
            suite = ET.SubElement(root, "testsuite", {
                "name": prefix + gate, "tests": str(len(gate_results)), "failures": str(gate_counts[FAILED]),
                "errors": str(gate_counts[ERRORED]),
                "skipped": str(gate_counts[SKIPPED_STATUS] + gate_counts[XFAILED]),
                "time": f"{sum(r.duration for r in gate_results):.3f}",
            })
            properties = ET.SubElement(suite, "properties")
            ET.SubElement(properties, "property", {"name": "gate_version",
                                                   "value": view.suite.get("gates", {}).get(gate, "?")})
            implemented = (entry.versions or {}).get(gate)
            ET.SubElement(properties, "property", {"name": "implemented_version",
                                                   "value": implemented or "not stated"})
            for profile in dict.fromkeys(r.case.profile for r in gate_results):
                ET.SubElement(properties, "property", {"name": f"profile.{profile}",
                                                       "value": verdict_words(verdicts[profile])})
            ET.SubElement(properties, "property", {"name": "conforms_to",
                                                   "value": " + ".join(conforms_to(verdicts.values())) or "none"})
            for result in gate_results:
                _junit_case(ET, suite, prefix, gate, result)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _junit_case(ET, suite, prefix, gate, result) -> None:
    case = result.case
    testcase = ET.SubElement(suite, "testcase", {
        "classname": f"conformance.{prefix}{gate}", "name": case.id, "file": case.file,
        "time": f"{result.duration:.6f}",
    })
    message = _xmlsafe(result.message or "")
    if result.status == FAILED:
        node = ET.SubElement(testcase, "failure", {"message": message, "type": "mismatch"})
        node.text = _xmlsafe(_failure_text(result))
    elif result.status == ERRORED:
        node = ET.SubElement(testcase, "error", {"message": message, "type": "errored"})
        node.text = _xmlsafe(json.dumps(result.context or {}, indent=2))
    elif result.status == SKIPPED_STATUS:
        skip = result.skip or {}
        note = skip.get("message") or message
        if skip.get("issue_url"):
            note += f" (issue: {skip['issue_url']})"
        ET.SubElement(testcase, "skipped", {"message": _xmlsafe(note)})
    elif result.status == XFAILED:
        ET.SubElement(testcase, "skipped",
                      {"message": _xmlsafe(f"expected failure: {result.expected_failure}")})
    if result.status != PASSED and result.stderr:
        ET.SubElement(testcase, "system-err").text = _xmlsafe(result.stderr)


# -- Markdown ---------------------------------------------------------------------------------

def _md(value: str) -> str:
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "\\|").replace("\n", " "))


def _fence(body: str, info: str = "") -> str:
    ticks = "```"
    while ticks in body:
        ticks += "`"
    return f"{ticks}{info}\n{body}\n{ticks}"


def _md_row(cells) -> str:
    return "| " + " | ".join(cells) + " |"


def _md_link(url: str) -> str:
    return f"[{_md(url)}](<{url.replace('>', '%3E')}>)"


def _md_details(entry, heading: str) -> list[str]:
    lines = []
    bad = [r for r in entry.results if r.status in (FAILED, ERRORED)]
    if bad:
        lines += ["", f"{heading} Failures", ""]
        for result in bad[:MARKDOWN_DETAILS]:
            summary = f"{result.status}: <code>{_md(result.case.id)}</code>: {_md(result.message or '')}"
            lines += ["<details>", f"<summary>{summary}</summary>", "",
                      f"{_md(result.case.description)} ({', '.join(result.case.requirements)})", ""]
            focus = focus_lines(result.case.input_focus, "")
            if focus:
                lines += [_fence("\n".join(focus)), ""]
            if result.differences:
                lines += [_md_row(["path", "expected", "got"]), "|---|---|---|"]
                lines += [_md_row([f"`{_md(d.path)}`", _md(d.expected or "absent"), _md(d.got or "absent")])
                          for d in result.differences]
                lines.append("")
            body = result.stdout_diff or ("" if result.differences else json.dumps(result.context or {}, indent=2))
            if result.stderr and result.stderr.strip():
                body += "\n\nstderr:\n" + result.stderr.rstrip()[-2000:]
            if body.strip():
                lines += [_fence(body.strip("\n"), "diff" if result.stdout_diff else ""), ""]
            lines.append("</details>")
        if len(bad) > MARKDOWN_DETAILS:
            lines += ["", f"... and {len(bad) - MARKDOWN_DETAILS} more failures (see the JSON report)."]
    reasons = skip_reasons(entry.results)
    if reasons:
        lines += ["", f"{heading} Skipped", ""]
        lines += [f"- {count}: {_md(message)}" + (f" ({_md_link(url)})" if url else "")
                  for message, url, count in reasons]
    if entry.error:
        lines += ["", f"**{_md(entry.error)}**"]
    return lines


def _md_profiles(view, entry) -> list[str]:
    lines = ["", _md_row(["profile", "verdict", *_COLUMNS]), "|---|---|" + "---:|" * len(_COLUMNS)]
    lines += [_md_row([row["profile"], _md(verdict_words(row)), *(str(row[c]) for c in _COLUMNS)])
              for row in shown_profile_rows(view, entry)]
    return lines


def markdown(view) -> str:
    gates = view.suite.get("gates", {})
    if not view.compared:
        [entry] = view.entries
        lines = [f"## Passdown conformance: {_md(entry.title)}", "", f"**{entry.summary_line()}**", "",
                 f"Profiles: {_md(profile_summary(view, entry))}", "",
                 f"Gates implemented: {_md(versions_line(entry))}", "",
                 _md_row(["gate", "version", *_COLUMNS]), "|---|---|" + "---:|" * len(_COLUMNS)]
        for gate, results in entry.by_gate().items():
            counts = entry.counts(results)
            lines.append(_md_row([gate, gates.get(gate, "?"), *(str(counts[c]) for c in _COLUMNS)]))
        lines += _md_profiles(view, entry)
        lines += _md_details(entry, "###")
        return printable("\n".join(lines) + "\n")
    lines = [f"## Passdown conformance: {len(view.entries)} implementations compared", "",
             _md_row(["name", "implementation", *_COLUMNS, XFAILED]), "|---|---|" + "---:|" * 5]
    for entry in view.entries:
        counts = entry.counts()
        lines.append(_md_row([f"**{_md(entry.name)}**", _md(entry.title),
                              *(str(counts[c]) for c in (*_COLUMNS, XFAILED))]))
    lines += ["", _md_row(["gate", "version", *(_md(e.name) for e in view.entries)]),
              "|---|---|" + "---|" * len(view.entries)]
    for gate in gates_of(view):
        lines.append(_md_row([gate, gates.get(gate, "?"),
                              *(gate_cell(e.counts(e.by_gate().get(gate, []))) for e in view.entries)]))
    listed, quiet = failed_rows(view)
    lines += ["", f"### Cases an implementation failed: {len(listed)}", "",
              f"The other {quiet} passed or were skipped by every implementation."]
    if listed:
        lines += ["", _md_row(["case", *(_md(e.name) for e in view.entries)]),
                  "|---|" + "---|" * len(view.entries)]
        lines += [_md_row([f"`{_md(case.id)}`", *((by_name[e.name].status if e.name in by_name else "-")
                                                  for e in view.entries)])
                  for case, by_name in listed[:MARKDOWN_DETAILS * 4]]
    for entry in view.entries:
        lines += ["", f"### {_md(entry.name)}: {_md(entry.title)}", "", f"**{entry.summary_line()}**",
                  "", f"Profiles: {_md(profile_summary(view, entry))}",
                  "", f"Gates implemented: {_md(versions_line(entry))}"]
        lines += _md_profiles(view, entry)
        lines += _md_details(entry, "####")
    return printable("\n".join(lines) + "\n")


# -- badge ------------------------------------------------------------------------------------

def _share(entry) -> tuple[int, str]:
    """The share of the cases that ran (not skipped) that passed, floored: 99.9% is never 100%."""
    counts = entry.counts()
    ran = len(entry.results) - counts[SKIPPED_STATUS]
    return (counts[PASSED] * 100 // ran if ran else 0), (f"{counts[PASSED] * 100 // ran}%" if ran else "none ran")


def _colour(entry) -> str:
    """brightgreen only when every case that ran passed; yellowgreen when the only failures
    are listed expected ones; else by the share that passed, never green."""
    counts = entry.counts()
    if entry.exit_code == 0 and not counts[XFAILED]:
        return "brightgreen"
    if entry.exit_code == 0:
        return "yellowgreen"
    if entry.ran_nothing or entry.error:
        return "lightgrey"
    percent, _ = _share(entry)
    return "yellow" if percent >= 90 else "orange" if percent >= 75 else "red"


_RANK = ("brightgreen", "yellowgreen", "yellow", "orange", "red", "lightgrey")


def badge(view) -> dict:
    """A shields.io endpoint badge per implementation: the profiles it conforms to
    (``core + handoff``), with the share of the cases that ran that passed when not all did,
    or that share alone when it conforms to none; coloured by the worst result."""
    parts = []
    for entry in view.entries:
        _, share = _share(entry)
        skipped = entry.counts()[SKIPPED_STATUS]
        conforming = conforms_to(profile_rows(view, entry))
        part = f"{share} passing" if share != "none ran" else "none ran"
        if conforming:
            part = " + ".join(conforming) + ("" if share == "100%" else f", {part}")
            skipped = 0
        if view.compared:
            part = f"{entry.name} {part}"
        elif skipped and share != "none ran":
            part += f", {skipped} skipped"
        parts.append(part)
    colour = max((_colour(e) for e in view.entries), key=_RANK.index)
    return {"schemaVersion": 1, "label": "passdown conformance", "message": " | ".join(parts), "color": colour}


def badge_text(view) -> str:
    return json.dumps(badge(view)) + "\n"


def html(view) -> str:
    from passdown.conformance._html import page

    return page(view)


#: Every format, by the name ``--format`` takes.
FORMATS = {"text": text, "json": json_text, "markdown": markdown, "html": html, "junit": junit,
           "badge": badge_text}
