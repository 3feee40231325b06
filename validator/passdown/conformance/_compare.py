"""Comparing an implementation's answer with a case's expectation, and showing the
difference: JSON compared by type (an integer is not a float, ``true`` is not ``1``, key
order never matters), exact text where a case pins the printed bytes. A difference in the
output is shown field by field (the JSON path of each differing value, what was expected and
what came), a difference in the printed text as a unified diff. A failed case's input is
shown by its decisive part: each value, in full, at a JSON path where it differs from the
nearest other case of its fixture file."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass

from passdown._findings import json_path
from passdown._text import cut, printable

#: Differences listed per case at most; the rest are counted.
MAX_DIFFERENCES = 100
#: A value shown in a difference is cut to this many characters.
VALUE_LIMIT = 300


@dataclass(frozen=True)
class Difference:
    """One place where the output differs: its JSON path, and the expected and actual values
    there as compact JSON text (``None`` where the member or item is absent). ``path`` is
    ``exit_code`` for a different exit status."""

    path: str
    expected: str | None
    got: str | None

    def to_json(self) -> dict:
        entry = {"path": self.path}
        if self.expected is not None:
            entry["expected"] = self.expected
        if self.got is not None:
            entry["got"] = self.got
        return entry

    @classmethod
    def from_json(cls, entry: dict) -> Difference:
        return cls(entry["path"], entry.get("expected"), entry.get("got"))

    def line(self) -> str:
        """``$.assessment.horizon_calls: expected 3, got 10``."""
        expected = "absent" if self.expected is None else self.expected
        got = "absent" if self.got is None else self.got
        return f"{self.path}: expected {expected}, got {got}"


def same(expected, actual) -> bool:
    """JSON equality that keeps JSON types apart: ``1 != 1.0``, ``True != 1``, ``{} != []``."""
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and all(same(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(same(e, a) for e, a in zip(expected, actual))
    return expected == actual


def show(value) -> str:
    """A value as compact JSON (``1`` and ``1.0`` stay distinct; a lone surrogate as its
    ``\\uXXXX`` escape, so the report can always be written), cut to :data:`VALUE_LIMIT`."""
    text = printable(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))
    return cut(text, VALUE_LIMIT)


def differences(expected, actual, parts=()) -> list[Difference]:
    """Every place where ``actual`` differs from ``expected``, deepest first found, in the
    expected value's order (members the answer adds come after)."""
    if same(expected, actual):
        return []
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key, value in expected.items():
            if key not in actual:
                found.append(Difference(json_path(parts + (key,)), show(value), None))
            else:
                found += differences(value, actual[key], parts + (key,))
        found += [Difference(json_path(parts + (key,)), None, show(value))
                  for key, value in actual.items() if key not in expected]
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        found = []
        for index in range(max(len(expected), len(actual))):
            where = parts + (index,)
            if index >= len(actual):
                found.append(Difference(json_path(where), show(expected[index]), None))
            elif index >= len(expected):
                found.append(Difference(json_path(where), None, show(actual[index])))
            else:
                found += differences(expected[index], actual[index], where)
        return found
    return [Difference(json_path(parts), show(expected), show(actual))]


def unified(expected: str, actual: str, *, label: str) -> str:
    """A unified diff of two texts; line ends are shown where they are the difference."""
    if expected.splitlines() == actual.splitlines():
        expected, actual = repr(expected), repr(actual)
    lines = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(),
        fromfile=f"expected {label}", tofile=f"actual {label}", lineterm="",
    )
    return "\n".join(lines)


@dataclass(frozen=True)
class Mismatch:
    """What differs between a case's expectation and an answer: short messages, the output's
    field-level differences (and the exit status's), and a diff of the printed text."""

    messages: tuple[str, ...] = ()
    differences: tuple[Difference, ...] = ()
    more: int = 0  # differences beyond MAX_DIFFERENCES, counted, not listed
    stdout_diff: str | None = None

    def __bool__(self) -> bool:
        return bool(self.messages)


def mismatch(case, output, exit_code, stdout) -> Mismatch:
    """Compare one answer with ``case``'s expectation. The printed text's diff is given
    where it is the only difference: otherwise the output's differences say more."""
    messages, stdout_diff = [], None
    found = differences(case.expected_output, output)
    if case.expected_stdout is not None:
        if stdout is None:
            messages.append("the case pins the exact printed text, and the implementation gave none")
        elif stdout != case.expected_stdout:
            messages.append("the printed text differs")
            if not found:
                stdout_diff = unified(case.expected_stdout, stdout, label="stdout")
    if found:
        messages.append("the output differs")
    if exit_code != case.expected_exit_code:
        messages.append(f"exit code {exit_code!r}, expected {case.expected_exit_code}")
        found.append(Difference("exit_code", show(case.expected_exit_code), show(exit_code)))
    return Mismatch(tuple(messages), tuple(found[:MAX_DIFFERENCES]),
                    max(0, len(found) - MAX_DIFFERENCES), stdout_diff)


# -- the input's decisive part ----------------------------------------------------------------

#: Input values a report shows in full for one case at most; the rest are counted.
MAX_FOCUS = 20
_ABSENT = object()


def _leaves(value, path=()):
    """``(path, value)`` of every scalar and empty container of a JSON value, in order."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path, value


def json_input(case):
    """The case's input as a JSON value: its ``input``, or its ``input_text`` when that text
    is JSON; ``None`` when the input is bytes or text that is not JSON."""
    if case.input_kind == "input":
        return case.input_value
    if case.input_kind == "input_text":
        try:
            return json.loads(case.input_value)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to read here
            return None
    return None


def _differing(mine: dict, theirs: dict) -> list:
    paths = [path for path, value in mine.items()
             if path not in theirs or not same(value, theirs[path])]
    return paths + [path for path in theirs if path not in mine]


def input_focus(case, siblings) -> dict | None:
    """The part of a case's JSON input that makes it this case: each value at a JSON path
    where its input differs from the nearest other case of its fixture file (the one that
    differs at the fewest paths), shown in full; the whole input, value by value, when no
    other case of the file has a JSON input. ``None`` when the input is not JSON, or nested
    too deep to walk (the excerpt shows it)."""
    try:
        return _focus(case, siblings)
    except RecursionError:
        return None


def _focus(case, siblings) -> dict | None:
    value = json_input(case)
    if value is None and case.input_kind != "input":
        return None
    mine = dict(_leaves(value))
    best, against = None, None
    for other in siblings:
        if other.id == case.id:
            continue
        theirs = json_input(other)
        if theirs is None and other.input_kind != "input":
            continue
        paths = _differing(mine, dict(_leaves(theirs)))
        if paths and (best is None or len(paths) < len(best)):
            best, against = paths, other.id
    paths = best if best is not None else list(mine)
    shown = [{"path": json_path(path),
              "value": _full(mine[path]) if path in mine else None} for path in paths[:MAX_FOCUS]]
    focus = {"values": [{k: v for k, v in item.items() if v is not None} for item in shown]}
    if against is not None:
        focus["against"] = against
    if len(paths) > MAX_FOCUS:
        focus["more"] = len(paths) - MAX_FOCUS
    return focus


def _full(value) -> str:
    """A JSON value as compact JSON text, whole: lone surrogates as escapes."""
    text = json.dumps(value, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
