"""Conformance profiles (spec/conformance.md, "Profiles"): the named parts of the suite an
implementation can conform to, which profile each case belongs to, and each profile's verdict
over a run's results. The table is the only statement of which gates make up which profile; it
does not depend on how many cases a gate has."""

from __future__ import annotations

CORE = "core"
#: Byte compatibility with the published Python helpers beyond the core's language-neutral
#: rules: the cases tagged :data:`COMPAT_TAG` belong to it instead of their gate's profile.
PYTHON_HELPER_COMPAT = "python-helper-compat"
COMPAT_TAG = "python_helper_compat"
#: Every profile, in the order reports list them, with the gates whose cases it holds.
PROFILES = {
    CORE: ("validate", "digest", "ack", "restart", "title"),
    "handoff": ("handoff",),
    "recovery": ("recovery",),
    "relaunch": ("relaunch",),
    "lifecycle": ("lifecycle",),
    "guard": ("guard",),
    "observe": ("observe",),
    PYTHON_HELPER_COMPAT: (),
}
_PROFILE_OF_GATE = {gate: name for name, gates in PROFILES.items() for gate in gates}
#: A profile's verdict over a run: every one of its cases in the suite ran and passed, and the
#: suite has cases of each of its gates; some
#: failed or errored (or failed as listed); none failed but not all ran and passed (skipped,
#: or left out of the selection); none ran.
CONFORMS, FAILS, INCOMPLETE, NOT_RUN = "conforms", "fails", "incomplete", "not_run"


def profile_of(gate: str, tags=()) -> str:
    """The profile a case of ``gate`` with ``tags`` belongs to."""
    if COMPAT_TAG in tags:
        return PYTHON_HELPER_COMPAT
    return _PROFILE_OF_GATE.get(gate, gate)


def totals(cases) -> dict[str, int]:
    """How many cases of ``cases`` (a whole suite) each profile holds, in table order."""
    counts = dict.fromkeys(PROFILES, 0)
    for case in cases:
        name = profile_of(case.gate, case.tags)
        counts[name] = counts.get(name, 0) + 1
    return {name: count for name, count in counts.items() if count}


def unknown(names) -> list[str]:
    """The names of ``names`` that are not profiles."""
    return [name for name in names if name not in PROFILES]


def verdicts(results, suite_totals: dict[str, int] | None, declared=()) -> list[dict]:
    """Per profile with a case in the suite or the results: its counts, its verdict and
    whether the implementation declares it. ``results`` have ``status`` and ``case.profile``;
    ``suite_totals`` is :func:`totals` of the whole suite (``None``: the results are all)."""
    from passdown.conformance._runner import ERRORED, FAILED, PASSED, STATUSES, XFAILED

    grouped: dict[str, dict[str, int]] = {}
    gates_seen: dict[str, set] = {}
    for result in results:
        counts = grouped.setdefault(result.case.profile, dict.fromkeys(STATUSES, 0))
        counts[result.status] += 1
        gates_seen.setdefault(result.case.profile, set()).add(result.case.gate)
    names = [n for n in PROFILES if n in grouped or (suite_totals or {}).get(n)]
    names += [n for n in grouped if n not in names]
    rows = []
    for name in names:
        counts = grouped.get(name, dict.fromkeys(STATUSES, 0))
        ran = sum(counts.values())
        total = (suite_totals or {}).get(name, ran) if suite_totals is not None else ran
        if counts[FAILED] or counts[ERRORED] or counts[XFAILED]:
            verdict = FAILS
        elif (counts[PASSED] and counts[PASSED] == total
              and set(PROFILES.get(name, ())) <= gates_seen.get(name, set())):
            verdict = CONFORMS
        elif counts[PASSED]:
            verdict = INCOMPLETE
        else:
            verdict = NOT_RUN
        rows.append({"profile": name, "gates": list(PROFILES.get(name, ())), **counts,
                     "total": total, "selected": ran, "verdict": verdict,
                     "declared": name in declared})
    return rows


def conforms_to(rows) -> list[str]:
    """The profiles whose verdict is :data:`CONFORMS`, in table order."""
    return [row["profile"] for row in rows if row["verdict"] == CONFORMS]


def phrase(rows) -> str:
    """``conforms to core + handoff``, or ``conforms to no profile``."""
    names = conforms_to(rows)
    return "conforms to " + (" + ".join(names) if names else "no profile")
