"""The requirement catalogue: every numbered requirement of the spec, read from its pages.

A requirement is a Markdown list item that opens with its id in bold and holds exactly one
RFC 2119 keyword in capitals::

    - **RST-003** The gate MUST answer BLOCKED when the source id is blank.

An item the suite cannot test with fixtures says so, with a reason, at its end::

    - **HST-011** A hook MUST NOT write any file.
      *(not fixture-testable: no fixture can observe a file a hook did not write)*

This module owns the parser, the catalogue lint (malformed or duplicate ids, keyword count,
a marker without a reason) and ``conformance/requirements.json``, the generated catalogue
packaged with the tool. Regenerate it after editing the spec::

    python -m passdown.conformance.requirements --write
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from passdown._findings import ERROR, Finding

#: Requirement id prefixes, one per spec area (CONTRIBUTING.md lists what each covers).
PREFIXES = frozenset({
    "GEN", "VER", "INP", "CKP", "PKT", "REG", "ACK", "DIG", "HND", "RST", "TTL", "REC", "RLN",
    "LCY", "GRD", "CNF", "AUT", "PRC", "HST",
})
#: Keywords whose requirements need at least one conformance case.
MUST_LEVEL = frozenset({"MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT"})
#: A test file a not-fixture-testable reason cites, from the repository's root.
_TEST_PATH = re.compile(r"\btests/[A-Za-z0-9_./-]+\.py\b")

_ID = re.compile(r"[A-Z]{3}-\d{3}")
_ITEM = re.compile(r"^(?P<indent>[ \t]*)[-*+][ \t]+(?P<text>.*)$")
# What an author meant as an id: bold, letters then digits, possibly badly formed.
_ID_ATTEMPT = re.compile(r"^\*\*(?P<id>[A-Za-z]{2,6}[-_ ]?\d+[A-Za-z]?)\*\*\s*(?P<rest>.*)$", re.S)
_KEYWORD = re.compile(
    r"\b(MUST NOT|SHALL NOT|SHOULD NOT|NOT RECOMMENDED|MUST|SHALL|SHOULD|REQUIRED|RECOMMENDED|MAY|OPTIONAL)\b"
)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_MARKER = re.compile(r"\*\(\s*not fixture-testable\s*(?::(?P<reason>[^)]*))?\)\*\s*$", re.I)
_HEADING = re.compile(r"^(#{1,6})\s+(?P<title>.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Requirement:
    """One numbered requirement. ``page`` is the spec page's path (``spec/gates/restart.md``),
    ``anchor`` its fragment on the docs site, ``section`` the heading it sits under and
    ``line`` where it starts (not kept in the catalogue file)."""

    id: str
    keyword: str
    text: str
    page: str
    anchor: str
    section: str
    fixture_testable: bool = True
    untestable_reason: str | None = None
    line: int | None = field(default=None, compare=False)

    @property
    def needs_case(self) -> bool:
        """Whether the suite must hold at least one case naming this requirement: any keyword's,
        unless it is marked not fixture-testable (CNF-009)."""
        return self.fixture_testable

    def to_dict(self) -> dict:
        # No line number: the catalogue changes only when a requirement does.
        data = asdict(self)
        del data["line"]
        if data["untestable_reason"] is None:
            del data["untestable_reason"]
        return data


@dataclass(frozen=True)
class Catalogue:
    """The requirements of the spec, in page order, and the lint findings met reading them."""

    requirements: tuple[Requirement, ...]
    findings: tuple[Finding, ...] = ()

    def by_id(self) -> dict[str, Requirement]:
        return {r.id: r for r in self.requirements}

    def to_json(self) -> str:
        document = {
            "passdown_version": "1.0",
            "kind": "requirements",
            "requirements": [r.to_dict() for r in self.requirements],
        }
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _lint(page, line, code, message, hint, severity=ERROR):
    return Finding(file=page, json_path="$", code=code, severity=severity, message=message,
                   requirement="CNF-006", hint=hint, line=line)


def _items(lines):
    """Yield ``(line_number, heading, text)`` for every top-level list item, with its
    continuation lines joined by single spaces; fenced code is skipped."""
    heading = ""
    fenced = None
    current = None  # [line, heading, [parts], indent]
    for number, raw in enumerate(lines, 1):
        fence = _FENCE.match(raw)
        if fenced is not None:
            if fence and fence.group(1) == fenced:
                fenced = None
            continue
        if fence:
            if current:
                yield current[:2] + [" ".join(current[2])]
                current = None
            fenced = fence.group(1)
            continue
        title = _HEADING.match(raw)
        item = _ITEM.match(raw)
        if title or item or not raw.strip():
            if current:
                yield current[:2] + [" ".join(current[2])]
                current = None
            if title:
                heading = title.group("title")
            elif item:
                current = [number, heading, [item.group("text").strip()]]
            continue
        if current:
            current[2].append(raw.strip())
    if current:
        yield current[:2] + [" ".join(current[2])]


def parse_page(text: str, page: str) -> tuple[list[Requirement], list[Finding]]:
    """The requirements of one spec page and the lint findings of its items."""
    requirements, findings = [], []
    for line, heading, item in _items(text.splitlines()):
        attempt = _ID_ATTEMPT.match(item)
        if attempt is None:
            continue
        ident, rest = attempt.group("id"), attempt.group("rest").strip()
        if not _ID.fullmatch(ident):
            findings.append(_lint(page, line, "requirements.malformed_id",
                                  f"{ident!r} is not a requirement id",
                                  "write ids as three capital letters, a hyphen and three digits: RST-003"))
            continue
        if ident[:3] not in PREFIXES:
            findings.append(_lint(page, line, "requirements.unknown_prefix",
                                  f"{ident}: the prefix {ident[:3]} is not one of the spec's prefixes",
                                  "use the prefix of the page's area (CONTRIBUTING.md lists them)"))
            continue
        testable, reason = True, None
        marker = _MARKER.search(rest)
        if marker:
            testable = False
            reason = (marker.group("reason") or "").strip() or None
            rest = rest[: marker.start()].rstrip()
            if reason is None:
                findings.append(_lint(page, line, "requirements.marker_without_reason",
                                      f"{ident} is marked not fixture-testable without a reason",
                                      "write the reason after a colon: *(not fixture-testable: why)*"))
        keywords = _KEYWORD.findall(_CODE_SPAN.sub("", rest))
        if len(keywords) != 1:
            found = ", ".join(keywords) if keywords else "none"
            findings.append(_lint(page, line, "requirements.keyword_count",
                                  f"{ident} holds {len(keywords)} RFC 2119 keywords ({found}); exactly one is required",
                                  "split the sentence into one requirement per keyword, or reword it"))
            continue
        requirements.append(Requirement(
            id=ident, keyword=keywords[0], text=rest, page=page, anchor=ident.lower(),
            section=heading, line=line, fixture_testable=testable, untestable_reason=reason,
        ))
    return requirements, findings


def _missing_test_paths(requirements, root: Path):
    """``requirements.test_path`` for each test file a marker's reason cites that does not
    exist (CNF-050); nothing outside a checkout, where there are no tests to find."""
    if not (root / "tests").is_dir():
        return
    for requirement in requirements:
        for cited in _TEST_PATH.findall(requirement.untestable_reason or ""):
            if not (root / cited).is_file():
                yield Finding(file=requirement.page, json_path="$", code="requirements.test_path",
                              severity=ERROR, message=f"{requirement.id} cites {cited}, which does not exist",
                              requirement="CNF-050", line=requirement.line,
                              hint="name the test file that covers it, from the repository's root")


def build(spec_dir: Path, *, root: Path | None = None) -> Catalogue:
    """Read every ``*.md`` page under ``spec_dir`` (sorted by path). Page names are relative
    to ``root`` (default: the folder holding ``spec_dir``)."""
    root = spec_dir.parent if root is None else root
    requirements, findings = [], []
    for path in sorted(spec_dir.rglob("*.md")):
        page = path.relative_to(root).as_posix()
        found, lint = parse_page(path.read_text(encoding="utf-8"), page)
        requirements.extend(found)
        findings.extend(lint)
    findings.extend(_missing_test_paths(requirements, root))
    seen = {}
    for requirement in requirements:
        first = seen.setdefault(requirement.id, requirement)
        if first is not requirement:
            findings.append(_lint(requirement.page, requirement.line, "requirements.duplicate_id",
                                  f"{requirement.id} is already used at {first.page}:{first.line}",
                                  "give the requirement a new id: ids are never reused"))
    return Catalogue(tuple(requirements), tuple(findings))


def load(path: Path | None = None) -> Catalogue:
    """The packaged catalogue (``conformance/requirements.json``)."""
    if path is None:
        path = default_catalogue_path()
    document = json.loads(path.read_text(encoding="utf-8"))
    return Catalogue(tuple(Requirement(**entry) for entry in document["requirements"]))


def default_catalogue_path() -> Path:
    from passdown._resources import data_dir

    return data_dir("conformance") / "requirements.json"


def default_spec_dir() -> Path | None:
    """The spec folder of a source checkout, or ``None`` in an installed wheel."""
    from passdown._resources import data_dir

    try:
        return data_dir("spec")
    except FileNotFoundError:
        return None


def stale_finding(catalogue: Catalogue, path: Path) -> Finding | None:
    """A finding when ``path`` does not hold exactly ``catalogue``."""
    try:
        current = path.read_text(encoding="utf-8")
    except OSError:
        current = None
    if current == catalogue.to_json():
        return None
    return Finding(file=path.as_posix(), json_path="$", code="requirements.stale",
                   severity=ERROR, message="the requirement catalogue does not match the spec",
                   requirement="CNF-007",
                   hint="regenerate it: python -m passdown.conformance.requirements --write")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m passdown.conformance.requirements",
        description="Build the requirement catalogue from the spec pages.")
    parser.add_argument("--spec", type=Path, help="the spec folder (default: the checkout's spec/)")
    parser.add_argument("--output", type=Path, help="the catalogue file (default: conformance/requirements.json)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the catalogue file")
    action.add_argument("--check", action="store_true", help="exit 1 when the catalogue file is out of date")
    args = parser.parse_args(argv)
    spec_dir = args.spec or default_spec_dir()
    if spec_dir is None or not spec_dir.is_dir():
        print("passdown: usage: no spec folder here; pass --spec DIR", file=sys.stderr)
        return 2
    catalogue = build(spec_dir)
    for finding in catalogue.findings:
        print(f"{finding.file}:{finding.line}: {finding.code}: {finding.message}", file=sys.stderr)
    if any(f.severity == ERROR for f in catalogue.findings):
        print("passdown: the spec's requirements have errors; nothing written", file=sys.stderr)
        return 1
    output = args.output or default_catalogue_path()
    if args.check:
        stale = stale_finding(catalogue, output)
        if stale:
            print(f"{stale.file}: {stale.code}: {stale.message}\n  hint: {stale.hint}", file=sys.stderr)
            return 1
        return 0
    if args.write:
        from passdown.workspace._atomic import atomic_write

        atomic_write(output, catalogue.to_json().encode("utf-8"))
        print(f"{output}: {len(catalogue.requirements)} requirements", file=sys.stderr)
        return 0
    sys.stdout.write(catalogue.to_json())
    return 0


if __name__ == "__main__":
    sys.exit(main())
