"""Gate versions in the conformance suite: the one version shape every gate has
(``MAJOR.MINOR.PATCH``), the rule that says whether an implementation's version of a gate
runs cases written for a given version, and the mechanical stamp that gives a fixture file
the version of its gate.

Every fixture file states ``gate_version``. A file written without it (by hand, or by a tool
that predates the field) gets it from the gate table, inserted after ``"gate"`` with the
file's own indentation and nothing else changed::

    python -m passdown.conformance.versions --write conformance/cases   # add what is missing
    python -m passdown.conformance.versions --check conformance/cases   # exit 1 when a file lacks it
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

#: The one shape of a gate version: three decimal numbers without leading zeros.
PATTERN = r"^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$"
_SHAPE = re.compile(PATTERN)
FIELD = "gate_version"


def parse(text) -> tuple[int, int, int] | None:
    """``"2.2.1"`` -> ``(2, 2, 1)``; ``None`` for anything of another shape."""
    match = _SHAPE.match(text) if isinstance(text, str) else None
    return tuple(int(part) for part in match.groups()) if match else None


def mismatch(gate: str, cases_version: str, implemented: str | None) -> str | None:
    """Why an implementation of ``gate`` at version ``implemented`` does not run cases written
    for ``cases_version``, or ``None`` when it runs them: same major version, and not older.
    An implementation that states no version runs every case."""
    if implemented is None:
        return None
    have, want = parse(implemented), parse(cases_version)
    if have is None or want is None:  # both are checked by their schemas; never guess
        return f"the version {implemented!r} of the {gate} gate cannot be compared with {cases_version!r}"
    if have[0] != want[0]:
        how = "another major version"
    elif have < want:
        how = "an older version"
    else:
        return None
    return (f"the cases are for {gate} {cases_version}; the implementation implements "
            f"{gate} {implemented}, {how}")


def reference_versions(table: dict | None = None) -> dict[str, str]:
    """``{gate: version}`` of a gate table (default: Passdown's own)."""
    if table is not None:
        return {name: getattr(module, "VERSION", None) for name, module in table.items()}
    from passdown.gates import gate_names, load

    return {name: load(name).VERSION for name in gate_names()}


# -- the stamp ---------------------------------------------------------------------------------

def stamp_document(document: dict, versions: dict[str, str] | None = None) -> dict:
    """``document`` with ``gate_version`` right after ``gate`` (for fixture builders)."""
    versions = versions or reference_versions()
    if FIELD in document or document.get("gate") not in versions:
        return document
    version = versions[document["gate"]]
    stamped = {}
    for key, value in document.items():
        stamped[key] = value
        if key == "gate":
            stamped[FIELD] = version
    return stamped


def stamp_text(text: str, versions: dict[str, str]) -> str | None:
    """The fixture text with ``"gate_version": "X.Y.Z"`` inserted after the top-level ``gate``
    member, spaced as that member is; ``None`` when there is nothing to do (the field is there,
    the text is not a fixture object, or its gate is unknown)."""
    try:
        document = json.loads(text)
    except ValueError:
        return None
    if not isinstance(document, dict) or FIELD in document or document.get("gate") not in versions:
        return None
    found = _gate_member(text)
    if found is None:
        return None
    key_start, colon_gap, value_end = found
    after = text[value_end:]
    separator = re.match(r"\s*,(\s*)", after)
    if separator:  # "gate" has a successor: copy the gap between the two members
        gap = separator.group(1)
        insertion = f",{gap}\"{FIELD}\"{colon_gap}{json.dumps(versions[document['gate']])}"
    else:  # "gate" is the last member: take the gap before it
        before = re.search(r"(\s*)$", text[:key_start]).group(1)
        insertion = f",{before}\"{FIELD}\"{colon_gap}{json.dumps(versions[document['gate']])}"
    return text[:value_end] + insertion + after


def _gate_member(text: str) -> tuple[int, str, int] | None:
    """Where the top-level ``"gate": "..."`` member is: its key's start, the text between key
    and value (``": "``), and the end of its value. A forward scan keeping a stack of the
    containers it is in, so that only a key of the outermost object matches."""
    stack: list[str] = []
    expect_key = False
    index = 0
    while index < len(text):
        char = text[index]
        if char == '"':
            value, end = json.decoder.scanstring(text, index + 1)
            if stack == ["{"] and expect_key and value == "gate":
                gap = re.match(r"\s*:\s*", text[end:])
                if gap is None:
                    return None
                _, value_end = json.JSONDecoder().raw_decode(text, end + gap.end())
                return index, gap.group(0), value_end
            index, expect_key = end, False
            continue
        if char in "{[":
            stack.append(char)
            expect_key = char == "{"
        elif char in "}]":
            stack.pop()
        elif char == ",":
            expect_key = bool(stack) and stack[-1] == "{"
        index += 1
    return None


def fixture_paths(targets) -> list[Path]:
    paths = []
    for target in targets:
        target = Path(target)
        paths.extend(sorted(target.rglob("*.json")) if target.is_dir() else [target])
    return paths


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m passdown.conformance.versions",
        description="Give every fixture file the gate_version of its gate (inserted after \"gate\").")
    parser.add_argument("paths", nargs="*", type=Path,
                        help="fixture files or folders (default: the checkout's conformance/cases)")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="add gate_version where it is missing")
    action.add_argument("--check", action="store_true", help="exit 1 when a file lacks gate_version")
    args = parser.parse_args(argv)
    if not args.paths:
        from passdown.conformance._suite import default_suite_dir

        args.paths = [default_suite_dir()]
    versions = reference_versions()
    missing = 0
    for path in fixture_paths(args.paths):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            print(f"{path}: cannot read: {error}", file=sys.stderr)
            return 2
        stamped = stamp_text(text, versions)
        if stamped is None:
            continue
        missing += 1
        if args.write:
            from passdown.workspace._atomic import atomic_write

            atomic_write(path, stamped.encode("utf-8"))
            print(f"{path}: gate_version {json.loads(stamped)[FIELD]}", file=sys.stderr)
        else:
            print(f"{path}: no gate_version", file=sys.stderr)
    return 1 if args.check and missing else 0


if __name__ == "__main__":
    sys.exit(main())
