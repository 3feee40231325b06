"""Arbitrary bytes for every artifact kind: validate_bytes always answers with well-formed
findings (never an exception, never a crashed rule), with the real schemas and rules."""

from __future__ import annotations

import json

from engine_support import ROOT
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import passdown
from passdown.formats import _detect
from passdown import reporters
from passdown._findings import SEVERITIES

EXAMPLES = [path.read_bytes() for path in sorted((ROOT / "examples").rglob("*")) if path.is_file()]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)

documents = (
    st.binary(max_size=2000)
    | json_values.map(lambda value: json.dumps(value).encode())
    | (st.sampled_from(EXAMPLES) if EXAMPLES else st.nothing())
    | st.tuples(st.sampled_from(EXAMPLES) if EXAMPLES else st.nothing(), st.integers(0, 10_000),
                st.binary(max_size=8)).map(lambda t: t[0][: t[1]] + t[2] + t[0][t[1]:])
    | st.text(max_size=500).map(lambda text: ("GOAL_ID: " + text).encode("utf-8", "surrogatepass"))
)


def _check(report):
    for name in reporters.names():  # every format writes any report out
        reporters.render(name, report, strict=True, color=True).encode("utf-8")
    for finding in report.findings:
        assert finding.severity in SEVERITIES
        assert finding.code and finding.message
        assert finding.json_path.startswith("$")
        assert finding.line is None or finding.line >= 1
    crashed = [f for f in report.findings if f.code == "rule.crashed"]
    assert not crashed, crashed
    assert report.exit_code() in (0, 1, 2)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=documents, kind=st.sampled_from((None, *_detect.kind_names())),
       name=st.sampled_from((None, "continue.xbrief.json", "registry.yaml", "ack.json",
                             "continuation.packet.txt", "thing.bin")))
@example(raw=b"null", kind="checkpoint", name=None)
@example(raw=b"[]", kind="packet", name="continuation.packet.json")
@example(raw=b"GOAL_ID:\n", kind=None, name=None)
@example(raw=b"a: [1, {b: 2}]\n", kind="registry", name="registry.yaml")
def test_any_bytes_any_kind(raw, kind, name):
    _check(passdown.validate_bytes(raw, kind, name=name))
