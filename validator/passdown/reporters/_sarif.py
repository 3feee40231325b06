"""The SARIF 2.1.0 format, for code-scanning dashboards: one run, a rule (id, short
description, help text, help URI at the requirement's spec anchor) per code reported, one
result per finding with its physical (file, line) and logical (JSON path) location."""

from __future__ import annotations

from passdown.formats import _fastjson
from passdown._version import __version__

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SPEC_SITE = "https://spec.passdown.dev/"


def _uri(file: str | None) -> str:
    import os
    from pathlib import Path, PurePath
    from urllib.parse import quote

    if not file:
        return "stdin"
    path = PurePath(file)
    if path.is_absolute():
        return Path(file).as_uri()
    # the name's own bytes, percent-encoded: a file name need not be UTF-8
    return quote(os.fsencode(path.as_posix()), safe="/")


def _rules_by_code() -> dict:
    try:
        from passdown.rules import all_rules

        return {rule.code: rule for rule in all_rules()}
    except Exception:  # a broken rule module must not cost the report
        return {}


def _rule_metadata(code: str, first, registered) -> dict:
    from passdown.engine._codes import describe
    from passdown.reporters._links import anchor_url

    rule = registered.get(code)
    description = (rule.summary if rule else None) or describe(code) or first.message
    help_text = (rule.hint if rule else None) or first.hint or description
    requirement = (rule.requirement if rule else None) or first.requirement
    entry = {
        "id": code,
        "name": code,
        "shortDescription": {"text": description},
        "help": {"text": help_text},
        "defaultConfiguration": {"level": first.severity},
    }
    uri = anchor_url(requirement) if requirement else None
    if uri:
        entry["helpUri"] = uri
    if requirement:
        entry["properties"] = {"requirement": requirement}
    return entry


def document(report, *, strict: bool = False) -> dict:
    registered = _rules_by_code()
    index: dict[str, int] = {}
    rules: list[dict] = []
    results: list[dict] = []
    for finding in report.findings:
        if finding.code not in index:
            index[finding.code] = len(rules)
            rules.append(_rule_metadata(finding.code, finding, registered))
        physical = {"artifactLocation": {"uri": _uri(finding.file)}}
        if finding.line is not None:
            physical["region"] = {"startLine": finding.line}
        result = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": finding.severity,
            "message": {"text": finding.message},
            "locations": [{
                "physicalLocation": physical,
                "logicalLocations": [{"fullyQualifiedName": finding.json_path, "kind": "member"}],
            }],
            "properties": {"jsonPath": finding.json_path},
        }
        if finding.hint:
            result["properties"]["hint"] = finding.hint
        if finding.requirement:
            result["properties"]["requirement"] = finding.requirement
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "passdown", "version": __version__, "semanticVersion": __version__,
                "informationUri": SPEC_SITE, "rules": rules,
            }},
            "artifacts": [{"location": {"uri": _uri(file)}} for file in report.files],
            "results": results,
            "invocations": [{"executionSuccessful": not report.unreadable,
                             "exitCode": report.exit_code(strict=strict)}],
        }],
    }


def render(report, *, strict: bool = False, color: bool = False, quiet: bool = False) -> str:
    return _fastjson.dumps(document(report, strict=strict), separators=(",", ":")) + "\n"
