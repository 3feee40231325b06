"""Paths and helpers shared by the conformance tests."""

import sys
from pathlib import Path

from passdown.conformance import load_suite
from passdown.conformance.requirements import build

from . import shout_gate

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
SPEC = HERE / "spec"
HARNESS = HERE / "toy_harness.py"
REPO = HERE.parents[2]
TABLE = {"shout": shout_gate}


def harness_argv():
    return [sys.executable, str(HARNESS)]


def suite():
    return load_suite(CASES)


def catalogue():
    return build(SPEC)


def env(mode="", case=""):
    """The environment for the toy harness, misbehaving as ``mode`` on case ``case``."""
    import os

    environment = dict(os.environ)
    environment["TOY_MODE"] = mode
    environment["TOY_CASE"] = case
    return environment
