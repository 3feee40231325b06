"""The published restart and title helpers as the differential tests see them: what a helper
answers (its independent oracle), and what Passdown answers where the helper has none.

Where a helper crashes (a traceback, nothing on stdout, exit status 1) Passdown gives one
documented answer instead; each kind of crash is a deliberate difference with its own
requirement id. Any other crash of a helper would be an undocumented difference, so
:func:`expected` refuses it.
"""

from typing import NamedTuple

import restart_oracle
import title_oracle

ORACLES = {"restart": restart_oracle, "title": title_oracle}

#: Passdown's answer where the published helper crashes (stated by the spec, not computed).
DELIBERATE = {
    "restart": ('{"action": "BLOCKED", "reason": "invalid_input"}\n', 2),
    "title": ('{"status": "TITLE_UNAVAILABLE"}\n', 2),
}

#: Every exception a helper may die of, and the requirement that states Passdown's answer.
DIFFERENCES = {
    "restart": {RecursionError: "RST-005", OverflowError: "RST-043", ValueError: "RST-045"},
    "title": {RecursionError: "TTL-013", OverflowError: "TTL-016", OSError: "TTL-017"},
}


#: What a helper leaves when it crashes: nothing on stdout, exit status 1.
CRASH_EXIT = 1


class Answer(NamedTuple):
    """What a helper does with one input: its stdout, its exit status, and the exception
    that ended it (``None`` when it answered)."""

    stdout: str
    exit_code: int
    crash: type | None = None


def _observed(work, given):
    try:
        stdout, exit_code = work(given)
    except Exception as error:  # noqa: BLE001 - what the helper leaves to the interpreter
        return Answer("", CRASH_EXIT, type(error))
    return Answer(stdout, exit_code)


def answer(gate, raw):
    """The helper's :class:`Answer` to the raw stdin bytes ``raw``."""
    return _observed(ORACLES[gate].respond, raw)


def answer_value(gate, value):
    """The helper's :class:`Answer` once ``json.loads`` has given it ``value``."""
    return _observed(ORACLES[gate].respond_value, value)


def difference(gate, crash):
    """The requirement id of the deliberate difference for ``crash``; AssertionError when
    the crash is none of the documented ones."""
    for kind, requirement in DIFFERENCES[gate].items():
        if issubclass(crash, kind):
            return requirement
    raise AssertionError(f"the {gate} helper dies of {crash.__name__}, which the spec does not document")


def resolve(gate, answer):
    """``(stdout, exit status)`` Passdown must give for a helper's :class:`Answer`."""
    if answer.crash is None:
        return answer.stdout, answer.exit_code
    difference(gate, answer.crash)
    return DELIBERATE[gate]


def expected(gate, raw):
    """``(stdout, exit status)`` Passdown must give for the raw input ``raw``."""
    return resolve(gate, answer(gate, raw))


def expected_for_value(gate, value):
    """``(stdout, exit status)`` Passdown must give for an already parsed value."""
    return resolve(gate, answer_value(gate, value))
