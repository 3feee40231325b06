"""The text format: one ``file:line: severity code message`` line per finding, its hint on
the next line, and a summary line. Colour only when asked for (the CLI decides)."""

from __future__ import annotations

from passdown.reporters import paint as _paint
from passdown._text import printable


def render(report, *, strict: bool = False, color: bool = False, quiet: bool = False) -> str:
    def paint(style: str, text: str) -> str:
        return _paint(style, text, color)

    lines = []
    for finding in report.findings:
        where = finding.file or "<stdin>"
        if finding.line is not None:
            where += f":{finding.line}"
        message = finding.message
        if finding.json_path != "$":
            message = f"{finding.json_path}: {message}"
        if finding.requirement:
            message += f" [{finding.requirement}]"
        lines.append(f"{where}: {paint(finding.severity, finding.severity)} "
                     f"{paint('code', finding.code)} {message}")
        if finding.hint and not quiet:
            lines.append(paint("hint", f"  hint: {finding.hint}"))
    if not quiet:
        lines.append(summary(report, strict=strict, paint=paint))
    return printable("".join(line + "\n" for line in lines))


def summary(report, *, strict: bool = False, paint=lambda style, text: text) -> str:
    files = len(report.files)
    checked = f"{files} file{'s' if files != 1 else ''} checked"
    if not report.findings:
        return paint("ok", f"{checked}: no findings")
    errors, warnings = report.error_count, report.warning_count
    counts = f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
    if strict and warnings:
        counts += " (warnings fail under --strict)"
    return f"{checked}: {counts}"
