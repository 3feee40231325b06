"""The published restart and title helpers as the differential tests see them: what a helper
answers (its independent oracle), and what Baton answers where the helper has none.

Where a helper crashes (a traceback, nothing on stdout, exit status 1) Baton gives one
documented answer instead; each kind of crash is a deliberate difference with its own
requirement id. Any other crash of a helper would be an undocumented difference, so
:func:`expected` refuses it.
"""

import gates1_restart_oracle
import gates1_title_oracle

ORACLES = {"restart": gates1_restart_oracle, "title": gates1_title_oracle}

#: Baton's answer where the published helper crashes (stated by the spec, not computed).
DELIBERATE = {
    "restart": ('{"action": "BLOCKED", "reason": "invalid_input"}\n', 2),
    "title": ('{"status": "TITLE_UNAVAILABLE"}\n', 2),
}

#: Every exception a helper may die of, and the requirement that states Baton's answer.
DIFFERENCES = {
    "restart": {RecursionError: "RST-005", OverflowError: "RST-043"},
    "title": {RecursionError: "TTL-013", OverflowError: "TTL-016", OSError: "TTL-017"},
}


def difference(gate, crash):
    """The requirement id of the deliberate difference for ``crash``; AssertionError when
    the crash is none of the documented ones."""
    for kind, requirement in DIFFERENCES[gate].items():
        if issubclass(crash, kind):
            return requirement
    raise AssertionError(f"the {gate} helper dies of {crash.__name__}, which the spec does not document")


def resolve(gate, answer):
    """``(stdout, exit status)`` Baton must give for a helper's :class:`Answer`."""
    if answer.crash is None:
        return answer.stdout, answer.exit_code
    difference(gate, answer.crash)
    return DELIBERATE[gate]


def expected(gate, raw):
    """``(stdout, exit status)`` Baton must give for the raw input ``raw``."""
    return resolve(gate, ORACLES[gate].answer_bytes(raw))


def expected_for_value(gate, value):
    """``(stdout, exit status)`` Baton must give for an already parsed value."""
    return resolve(gate, ORACLES[gate].answer_object(value))
