"""The suite: fixture files read into :class:`Case` values, and the structural findings
that make a suite unusable (unreadable file, invalid against ``fixture.schema.json``,
duplicate case id, a case outside its gate's folder).

Style and coverage lint live in :mod:`passdown.conformance._check`; this module only decides
whether a case can be run at all.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from passdown._findings import ERROR, Finding, json_path
from passdown._text import cut
from passdown.formats._loading import load_path

INPUT_KINDS = ("input", "input_text", "input_base64")
#: Fixture files are small; anything larger is a mistake, not a fixture.
MAX_FIXTURE_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Case:
    """One golden case. ``input_kind`` is how the fixture gives the input (``input``,
    ``input_text`` or ``input_base64``) and ``input_value`` what it gives there; a text the
    fixture pads (``input_padded_to``) is padded only when the case runs (:meth:`given_input`),
    so a loaded suite never holds the padded copies (16 of them reach 24 MiB)."""

    id: str
    gate: str
    gate_version: str
    description: str
    requirements: tuple[str, ...]
    tags: tuple[str, ...]
    input_kind: str
    input_value: object
    expected_output: object
    expected_exit_code: int
    expected_stdout: str | None
    file: str
    index: int
    padded_to: int = 0

    def given_input(self):
        """The input as the gate is given it: ``input_value``, padded with spaces up to
        ``padded_to`` UTF-8 bytes where the fixture says so."""
        value = self.input_value
        if self.padded_to and isinstance(value, str):
            value += " " * max(0, self.padded_to - len(value.encode("utf-8", "surrogatepass")))
        return value

    @property
    def json_path(self) -> str:
        return json_path(("cases", self.index))

    @property
    def profile(self) -> str:
        """The conformance profile the case belongs to (:mod:`passdown.conformance.profiles`)."""
        from passdown.conformance.profiles import profile_of

        return profile_of(self.gate, self.tags)

    def raw_input(self) -> bytes:
        """The input bytes a program reads on stdin. A JSON value goes as compact JSON with
        every non-ASCII character escaped, which any reader decodes to the same value."""
        if self.input_kind == "input":
            return json.dumps(self.input_value, separators=(",", ":")).encode()
        if self.input_kind == "input_text":  # padded as bytes: no padded text is built
            return self.input_value.encode("utf-8").ljust(self.padded_to, b" ")
        return base64.b64decode(self.input_value, validate=True)

    def wire(self) -> dict:
        """The case as the harness protocol sends it."""
        return {"id": self.id, "gate": self.gate, self.input_kind: self.given_input()}


@dataclass(frozen=True)
class FixtureFile:
    """One fixture file that loaded: where it is, its gate and its description."""

    file: str
    gate: str
    gate_version: str
    description: str


@dataclass(frozen=True)
class Suite:
    """Every case of a suite folder, in file then case order, with the findings that kept
    files or cases out of it."""

    root: Path
    cases: tuple[Case, ...]
    files: tuple[FixtureFile, ...]
    findings: tuple[Finding, ...]
    paths: tuple[str, ...] = ()  # every fixture file found, loadable or not

    @property
    def usable(self) -> bool:
        return not self.findings

    def by_file(self) -> dict[str, list[Case]]:
        """Each fixture file's cases, in file order."""
        grouped: dict[str, list[Case]] = {}
        for case in self.cases:
            grouped.setdefault(case.file, []).append(case)
        return grouped

    def gates(self) -> dict[str, list[Case]]:
        grouped: dict[str, list[Case]] = {}
        for case in self.cases:
            grouped.setdefault(case.gate, []).append(case)
        return grouped


@cache
def fixture_schema() -> dict:
    from passdown._resources import data_dir

    return json.loads((data_dir("conformance") / "fixture.schema.json").read_text(encoding="utf-8"))


@cache
def _validator():
    from passdown.engine._schemas import compile_schema

    return compile_schema(fixture_schema())


def _finding(file, path, code, message, hint, requirement="CNF-001"):
    return Finding(file=file, json_path=path, code=code, severity=ERROR, message=message,
                   requirement=requirement, hint=hint)


def _schema_errors(document) -> list[tuple[tuple, str, str]]:
    """The fixture schema's errors on ``document``: ``(path parts, message, keyword)``, the
    keyword being ``required:<name>`` for a missing member. The fast validator cannot phrase
    an error about text holding a lone surrogate; the reference validator then does."""
    try:
        return [(tuple(e.instance_path), e.message,
                 f"required:{e.kind.property}" if type(e.kind).__name__ == "Required"
                 else "oneof" if type(e.kind).__name__.startswith("OneOf") else type(e.kind).__name__.lower())
                for e in _validator().iter_errors(document)]
    except UnicodeEncodeError:
        from passdown.engine._schemas import compile_reference_schema

        return [(tuple(e.absolute_path), e.message,
                 f"required:{e.message.split(chr(39))[1]}" if e.validator == "required" else e.validator.lower())
                for e in compile_reference_schema(fixture_schema()).iter_errors(document)]


def _schema_findings(file, document):
    findings = []
    for parts, message, keyword in _schema_errors(document):
        if not parts and keyword == "required:gate_version":
            findings.append(_finding(file, "$", "fixture.gate_version_missing",
                                     "the file does not say which version of its gate the cases are for",
                                     "add it: python -m passdown.conformance.versions --write " + file))
            continue
        if keyword == "oneof":
            message = "give exactly one of input, input_text and input_base64"
        findings.append(_finding(file, json_path(parts), "fixture.schema", cut(message, 200),
                                 "see conformance/fixture.schema.json for the fixture format"))
    return findings


def default_suite_dir() -> Path:
    from passdown._resources import data_dir

    return data_dir("conformance") / "cases"


def fixture_files(root: Path, findings: list[Finding] | None = None) -> list[Path]:
    """Every ``*.json`` file under ``root``, in path order, found by a bounded walk
    (:func:`passdown.formats._files.walk`); what the walk refuses (a folder too deep, too many
    entries, an unreadable folder) joins ``findings``."""
    from passdown.formats._files import walk

    def refused(problem):
        if findings is not None:
            findings.append(_finding(os.fsdecode(problem.path), "$", problem.code,
                                     problem.reason, problem.hint, problem.requirement))

    return sorted(Path(folder, name) for folder, names in walk(os.fspath(root), refused=refused)
                  for name in names if name.endswith(".json"))


def load_suite(root: Path | None = None) -> Suite:
    """Read every ``<gate>/<topic>.json`` under ``root`` (default: the packaged cases)."""
    root = default_suite_dir() if root is None else Path(root)
    cases, files, findings, paths = [], [], [], []
    seen: dict[str, Case] = {}
    for path in fixture_files(root, findings):
        file = path.as_posix()
        paths.append(file)
        # a fixture's strings may be as long as the fixture: the string bound has cases too
        loaded, problems = load_path(file, syntax="json", limit=MAX_FIXTURE_BYTES,
                                     max_string=MAX_FIXTURE_BYTES)
        if loaded is None:
            findings.extend(problems)
            continue
        document = loaded.data
        problems = _schema_findings(file, document)
        if problems:
            findings.extend(problems)
            continue
        folder = path.parent.relative_to(root).as_posix()
        gate = document["gate"]
        if folder != gate:
            findings.append(_finding(file, "$.gate", "fixture.gate_folder",
                                     f"the file is for gate {gate!r} but sits in {folder!r}",
                                     f"move the file to {gate}/ under the suite folder"))
            continue
        version = document["gate_version"]
        files.append(FixtureFile(file, gate, version, document["description"]))
        for index, entry in enumerate(document["cases"]):
            case = _case(file, index, gate, version, entry)
            where = json_path(("cases", index, "id"))
            if not case.id.startswith(gate + "."):
                findings.append(_finding(file, where, "fixture.id_prefix",
                                         f"the case id {case.id!r} does not start with {gate + '.'!r}",
                                         "ids are <gate>.<dotted.slug>", "CNF-002"))
                continue
            first = seen.setdefault(case.id, case)
            if first is not case:
                findings.append(_finding(file, where, "fixture.duplicate_id",
                                         f"the case id {case.id!r} is already used in {first.file}",
                                         "give the case a new id: ids are never reused", "CNF-002"))
                continue
            problem = _input_problem(case)
            if problem:
                findings.append(problem)
                continue
            cases.append(case)
    return Suite(root, tuple(cases), tuple(files), tuple(findings), tuple(paths))


def _case(file, index, gate, version, entry):
    kind = next(k for k in INPUT_KINDS if k in entry)
    expected = entry["expected"]
    value = entry[kind]
    return Case(
        id=entry["id"], gate=gate, gate_version=version, description=entry["description"],
        requirements=tuple(entry["requirements"]), tags=tuple(entry.get("tags", ())),
        input_kind=kind, input_value=value, expected_output=expected["output"],
        expected_exit_code=expected["exit_code"], expected_stdout=expected.get("stdout"),
        file=file, index=index,
        # spaces up to the stated size: a size bound without a file of that size
        padded_to=entry.get("input_padded_to", 0) if isinstance(value, str) else 0,
    )


def _input_problem(case):
    where = json_path(("cases", case.index, case.input_kind))
    if case.input_kind == "input_base64":
        try:
            base64.b64decode(case.input_value, validate=True)
        except (binascii.Error, ValueError):
            return _finding(case.file, where, "fixture.base64", "input_base64 is not valid base64",
                            "encode the bytes with standard base64 and padding", "CNF-005")
    elif case.input_kind == "input_text":
        try:
            case.input_value.encode("utf-8")
        except UnicodeEncodeError:
            return _finding(case.file, where, "fixture.input_text",
                            "input_text holds a lone surrogate, which is not UTF-8 text",
                            "give bytes that are not UTF-8 as input_base64", "CNF-005")
    return None
