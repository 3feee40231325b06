"""The decision gates: pure functions from a JSON value to a :class:`Decision`.

One table (:mod:`passdown.gates._table`) serves the CLI, the Python API and the conformance
runner; each gate lives in its own module and loads on first use.
"""

from passdown.gates._table import Decision, InputError, gate_names, load, parse_input, run_bytes, run_gate

__all__ = ["Decision", "InputError", "gate_names", "load", "parse_input", "run_bytes", "run_gate"]
