"""The conformance suite: golden fixtures per gate, the requirement catalogue they trace
to, and the runner that proves implementations against them.

- :func:`load_suite` reads the fixture files into :class:`Case` values;
- :func:`check` lints a suite and measures its coverage (``baton conformance check``);
- :func:`run` runs cases against one implementation: the built-in :class:`Reference`, a
  persistent :class:`Harness` (the JSON Lines protocol) or a :class:`Program` per case;
- :func:`run_all` runs several :class:`Entrant` implementations one after the other, as
  report-stream records, into a :class:`RunView` every report format renders;
  :func:`read_report` reads such a stream back;
- :mod:`baton.conformance.requirements` builds ``conformance/requirements.json``;
  :mod:`baton.conformance.versions` owns gate versions and stamps fixture files with them.

Names load on first use, so running a submodule (``python -m
baton.conformance.requirements``) imports nothing else.
"""

from baton._lazy import attributes

_LAZY = {
    "Case": ("baton.conformance._suite", "Case"),
    "Suite": ("baton.conformance._suite", "Suite"),
    "load_suite": ("baton.conformance._suite", "load_suite"),
    "check": ("baton.conformance._check", "check"),
    "Harness": ("baton.conformance._harness", "Harness"),
    "HarnessFailed": ("baton.conformance._harness", "HarnessFailed"),
    "Program": ("baton.conformance._implementations", "Program"),
    "Reference": ("baton.conformance._implementations", "Reference"),
    "ExpectedFailures": ("baton.conformance._runner", "ExpectedFailures"),
    "Report": ("baton.conformance._runner", "Report"),
    "Selection": ("baton.conformance._runner", "Selection"),
    "run": ("baton.conformance._runner", "run"),
    "Entrant": ("baton.conformance._plan", "Entrant"),
    "run_all": ("baton.conformance._plan", "run_all"),
    "RunView": ("baton.conformance._stream", "RunView"),
    "read_report": ("baton.conformance._stream", "read"),
}

__all__ = sorted(_LAZY)

__getattr__ = attributes(_LAZY, __name__)
