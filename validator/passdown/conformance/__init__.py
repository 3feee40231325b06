"""The conformance suite: golden fixtures per gate, the requirement catalogue they trace
to, and the runner that proves implementations against them.

- :func:`load_suite` reads the fixture files into :class:`Case` values;
- :func:`check` lints a suite and measures its coverage (``passdown conformance check``);
- :func:`run` runs cases against one implementation: the built-in :class:`Reference`, a
  persistent :class:`Harness` (the JSON Lines protocol) or a :class:`Program` per case;
- :func:`run_all` runs several :class:`Entrant` implementations one after the other, as
  report-stream records, into a :class:`RunView` every report format renders;
  :func:`read_report` reads such a stream back;
- :mod:`passdown.conformance.requirements` builds ``conformance/requirements.json``;
  :mod:`passdown.conformance.versions` owns gate versions and stamps fixture files with them.

Names load on first use, so running a submodule (``python -m
passdown.conformance.requirements``) imports nothing else.
"""

from passdown._lazy import attributes

_LAZY = {
    "Case": ("passdown.conformance._suite", "Case"),
    "Suite": ("passdown.conformance._suite", "Suite"),
    "load_suite": ("passdown.conformance._suite", "load_suite"),
    "check": ("passdown.conformance._check", "check"),
    "Harness": ("passdown.conformance._harness", "Harness"),
    "HarnessFailed": ("passdown.conformance._harness", "HarnessFailed"),
    "Program": ("passdown.conformance._implementations", "Program"),
    "Reference": ("passdown.conformance._implementations", "Reference"),
    "ExpectedFailures": ("passdown.conformance._runner", "ExpectedFailures"),
    "Report": ("passdown.conformance._runner", "Report"),
    "Selection": ("passdown.conformance._runner", "Selection"),
    "run": ("passdown.conformance._runner", "run"),
    "Entrant": ("passdown.conformance._plan", "Entrant"),
    "run_all": ("passdown.conformance._plan", "run_all"),
    "RunView": ("passdown.conformance._stream", "RunView"),
    "read_report": ("passdown.conformance._stream", "read"),
}

__all__ = sorted(_LAZY)

__getattr__ = attributes(_LAZY, __name__)
