"""Comparing an implementation's answer with a case's expectation, and showing the
difference: JSON compared by type (an integer is not a float, ``true`` is not ``1``, key
order never matters), exact text where a case pins the printed bytes, and a unified diff
for every mismatch."""

from __future__ import annotations

import difflib
import json

from baton.reporters import printable


def same(expected, actual) -> bool:
    """JSON equality that keeps JSON types apart: ``1 != 1.0``, ``True != 1``, ``{} != []``."""
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and all(same(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(same(e, a) for e, a in zip(expected, actual))
    return expected == actual


def render(value) -> str:
    """A value as stable, readable JSON (sorted keys; ``1`` and ``1.0`` stay distinct; a lone
    surrogate as its ``\\uXXXX`` escape, so that the report can always be written)."""
    return printable(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False))


def unified(expected: str, actual: str, *, label: str) -> str:
    """A unified diff of two texts; line ends are shown where they are the difference."""
    if expected.splitlines() == actual.splitlines():
        expected, actual = repr(expected), repr(actual)
    lines = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(),
        fromfile=f"expected {label}", tofile=f"actual {label}", lineterm="",
    )
    return "\n".join(lines)


def mismatches(case, output, exit_code, stdout) -> tuple[list[str], str | None]:
    """What differs between ``case``'s expectation and an answer: short messages and one
    diff (of the printed text where the case pins it, else of the JSON output)."""
    messages, diff = [], None
    if case.expected_stdout is not None:
        if stdout is None:
            messages.append("the case pins the exact printed text, and the implementation gave none")
        elif stdout != case.expected_stdout:
            messages.append("the printed text differs")
            diff = unified(case.expected_stdout, stdout, label="stdout")
    if not same(case.expected_output, output):
        messages.append("the output differs")
        if diff is None:
            diff = unified(render(case.expected_output), render(output), label="output")
    if exit_code != case.expected_exit_code:
        messages.append(f"exit code {exit_code!r}, expected {case.expected_exit_code}")
    return messages, diff
