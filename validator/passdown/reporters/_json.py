"""The JSON format: one stable document, described by ``schemas/v1/findings.schema.json``."""

from __future__ import annotations

from passdown.formats import _fastjson
from passdown._version import __version__

FORMAT_VERSION = "1.0"


def document(report, *, strict: bool = False) -> dict:
    """The report as the JSON value the format prints."""
    kinds = dict(report.kinds)
    return {
        "passdown_version": FORMAT_VERSION,
        "kind": "findings",
        "tool": {"name": "passdown", "version": __version__},
        "ok": not report.failed(strict=strict),
        "strict": strict,
        "exit_code": report.exit_code(strict=strict),
        "summary": {"files": len(report.files), "errors": report.error_count,
                    "warnings": report.warning_count},
        "files": [{"file": file, "kind": kinds.get(file)} for file in report.files],
        "findings": [finding.to_dict() for finding in report.findings],
    }


def render(report, *, strict: bool = False, color: bool = False, quiet: bool = False) -> str:
    return _fastjson.dumps(document(report, strict=strict), separators=(",", ": ")) + "\n"
