"""The GitHub Actions format: one workflow command per finding
(``::error file=F,line=L,title=CODE::MESSAGE``), which the runner shows on the diff."""

from __future__ import annotations

from passdown._text import printable


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(report, *, strict: bool = False, color: bool = False, quiet: bool = False) -> str:
    lines = []
    for finding in report.findings:
        properties = [f"file={_property(finding.file or '<stdin>')}"]
        if finding.line is not None:
            properties.append(f"line={finding.line}")
        properties.append(f"title={_property(finding.code)}")
        message = finding.message
        if finding.json_path != "$":
            message = f"{finding.json_path}: {message}"
        if finding.hint and not quiet:
            message += f"\nhint: {finding.hint}"
        lines.append(f"::{finding.severity} {','.join(properties)}::{_data(message)}")
    return printable("".join(line + "\n" for line in lines))
