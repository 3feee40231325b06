"""The last check before an authoring command writes: the new file must validate clean
(schema and semantic rules, warnings allowed). A command never writes an invalid artifact;
it refuses with ``authoring.invalid_result`` and the validator's codes instead."""

from __future__ import annotations

import os

from baton._errors import RefusedError


def check(kind: str, raw: bytes, path: str) -> None:
    """Validate ``raw`` as the artifact ``kind`` about to be written to ``path``."""
    from baton._validate import validate_bytes

    report = validate_bytes(raw, kind, os.path.basename(path))
    errors = [finding for finding in report.findings if finding.is_error]
    if errors:
        codes = sorted({finding.code for finding in errors})
        first = errors[0]
        raise RefusedError(
            f"{path}: the result would not validate ({', '.join(codes)}): {first.json_path}: "
            f"{first.message}", code="authoring.invalid_result",
            hint=first.hint or "fix the value named above; nothing was written")
