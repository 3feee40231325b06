"""The conformance suite: golden fixtures per gate, the requirement catalogue they trace
to, and the runner that proves an implementation against them.

- :func:`load_suite` reads the fixture files into :class:`Case` values;
- :func:`check` lints a suite and measures its coverage (``baton conformance check``);
- :func:`run` runs cases against an implementation: the built-in :class:`Reference`, a
  persistent :class:`Harness` (the JSON Lines protocol) or a :class:`Program` per case;
- :mod:`baton.conformance.requirements` builds ``conformance/requirements.json``.

Names load on first use, so running a submodule (``python -m
baton.conformance.requirements``) imports nothing else.
"""

_LAZY = {
    "Case": "baton.conformance._suite",
    "Suite": "baton.conformance._suite",
    "load_suite": "baton.conformance._suite",
    "check": "baton.conformance._check",
    "Harness": "baton.conformance._harness",
    "HarnessFailed": "baton.conformance._harness",
    "Program": "baton.conformance._implementations",
    "Reference": "baton.conformance._implementations",
    "ExpectedFailures": "baton.conformance._runner",
    "Report": "baton.conformance._runner",
    "Selection": "baton.conformance._runner",
    "run": "baton.conformance._runner",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    try:
        module_name = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'baton.conformance' has no attribute {name!r}") from None
    import importlib

    return getattr(importlib.import_module(module_name), name)
