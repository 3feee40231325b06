"""Findings: what a check reports. Frozen data with a stable code, a severity, where (file,
JSON path, line), what is wrong, the requirement it enforces and how to fix it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from passdown._text import json_path  # noqa: F401 - the findings' paths, named here for callers

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)


@dataclass(frozen=True, order=True)
class Finding:
    """One finding. ``json_path`` is a JSONPath-style string (``$.plan.items[0].status``);
    ``line`` is 1-based and ``None`` where unknown. ``values``: the whole list a message
    names only in part (the allowed values of an enumeration, the members allowed in an
    object), so the JSON form carries it in full while the text form may cut it."""

    file: str | None
    json_path: str
    code: str
    severity: str
    message: str
    requirement: str | None = None
    hint: str | None = None
    line: int | None = field(default=None, compare=False)
    values: tuple | None = field(default=None, compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def evolve(self, **changes) -> Finding:
        return replace(self, **changes)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "file": self.file,
            "path": self.json_path,
            "line": self.line,
            "message": self.message,
            "requirement": self.requirement,
            "hint": self.hint,
            **({} if self.values is None else {"values": list(self.values)}),
        }


def failed(findings, *, strict: bool = False) -> bool:
    """Whether these findings fail a check: any error, or any warning under ``strict``."""
    return any(f.is_error or strict for f in findings)
