"""The two YAML loaders agree: libyaml's parser (the fast path, ``ruamel.yaml.clib``) and
ruamel's own give the same data, or the same refusal with the same code, line and message,
on every YAML text of the suite and examples, on hostile texts, and on generated ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passdown.formats import _loading

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not _loading.c_yaml_available(),
                                reason="ruamel.yaml.clib is not installed: there is one loader only")


def _outcome(text, *, pure):
    """What a reader gets from the whole load (parse, then the data checks): the data, or
    each finding's code, line and message."""
    real = _loading.c_yaml_available
    _loading.c_yaml_available = (lambda: False) if pure else real
    try:
        loaded, findings = _loading.load_bytes(text.encode("utf-8", "surrogatepass"),
                                               source="registry.yaml", syntax="yaml")
    finally:
        _loading.c_yaml_available = real
    return (loaded.data if loaded is not None else None,
            [(finding.code, finding.line, finding.message) for finding in findings])


def _texts_in(node):
    if isinstance(node, str):
        if "\n" in node:
            yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _texts_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from _texts_in(value)


def _suite_texts():
    texts = [path.read_text(encoding="utf-8") for folder in ("examples", "conformance", "tests/data")
             for path in sorted((ROOT / folder).rglob("*.y*ml"))]
    for path in sorted((ROOT / "conformance" / "cases").rglob("*.json")):
        texts.extend(_texts_in(json.loads(path.read_text(encoding="utf-8"))))
    return texts


SUITE = _suite_texts()

HOSTILE = [
    "a: 1\na: 2\n",                                # duplicate key
    "a: !!python/object:os.system x\n",            # unsafe tag
    "a: &x [*x]\n",                                # a recursive alias
    "a: b\n---\nc: d\n",                           # two documents
    "key: value\t\n",                              # a tab where the two scanners part ways
    "a:\n\t- b\n",                                 # tab indentation
    '"\\ud800": x\n',                              # a lone surrogate escape
    "a: 0x" + "f" * 5000 + "\n",                   # an integer beyond the digit bound
    "a: " + "[" * 300 + "]" * 300 + "\n",          # nesting beyond the depth bound
    "a: {b: [c, d, {e: f}]\n",                     # unclosed flow
    "? complex\n: key\n",                          # explicit key
    "a: 2026-12-04\nb: 2026-12-04T01:02:03Z\n",   # timestamps stay strings
    "a: 1_000\nb: 0o17\nc: 190:20:30\nd: .inf\n",  # YAML 1.1 integer forms and infinity
    "a: yes\nb: No\nc: ~\nd: null\n",
    "a: 'it''s'\nb: \"\\x41\\u00e9\"\nc: |\n  x\n  y\nd: >\n  p\n  q\n",
    "a: b\x85c: d\n", "a: b\u2028c: d\n", "\ufeffa: b\n", "a: \x07\n",
    "%YAML 1.1\n---\na: b\n", "%TAG ! tag:x,2000:\n---\n!a b\n",
    "", "\n", "# only a comment\n", "-", ":", "a: [", "a: 'b", 'a: "b',
]


def test_the_suite_has_yaml_texts_to_compare():
    assert len(SUITE) > 100


@pytest.mark.parametrize("text", SUITE + HOSTILE)
def test_both_loaders_give_the_same_outcome(text):
    assert _outcome(text, pure=False) == _outcome(text, pure=True)


YAML_CHARACTERS = st.sampled_from(list("ab1 :-\n\"'#&*![]{},?|>%@`\\.~") + ["\t", "\r", "\x85", "\u2028", "\u2029", "\x00", "\x1f",
                                                                          "\ufeff", "é", "\U0001f680", "0x", "!!"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.sampled_from(["", "a: ", "a:\n  ", "k: [", "k: |\n  ", "a: 1\nb: "]),
                 st.lists(YAML_CHARACTERS, max_size=40).map("".join)).map("".join))
def test_generated_texts_get_the_same_outcome(text):
    assert _outcome(text, pure=False) == _outcome(text, pure=True)
