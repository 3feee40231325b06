"""The conformance suite: golden fixtures per gate, the requirement catalogue they trace
to, and the runner that proves an implementation against them.

- :func:`load_suite` reads the fixture files into :class:`Case` values;
- :func:`check` lints a suite and measures its coverage (``baton conformance check``);
- :func:`run` runs cases against an implementation: the built-in :class:`Reference`, a
  persistent :class:`Harness` (the JSON Lines protocol) or a :class:`Program` per case;
- :mod:`baton.conformance.requirements` builds ``conformance/requirements.json``.
"""

from baton.conformance._check import check
from baton.conformance._harness import Harness, HarnessFailed
from baton.conformance._implementations import Program, Reference
from baton.conformance._runner import ExpectedFailures, Report, Selection, run
from baton.conformance._suite import Case, Suite, load_suite

__all__ = [
    "Case", "ExpectedFailures", "Harness", "HarnessFailed", "Program", "Reference", "Report",
    "Selection", "Suite", "check", "load_suite", "run",
]
