"""The YAML readers agree: the plain block reader (:mod:`passdown.formats._yamlblock`, the
first path), libyaml's parser (the fast path, ``ruamel.yaml.clib``) and ruamel's own give the
same data, or the same refusal with the same code, line and message, on every YAML text of
the suite and examples, on hostile texts, and on generated ones."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passdown.formats import _loading, _yamlblock
from passdown.workspace import _editing

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not _loading.c_yaml_available(),
                                reason="ruamel.yaml.clib is not installed: there is one loader only")


def _not_plain(text):
    raise _yamlblock.NotPlain


def _outcome(text, *, pure=False, block=False):
    """What a reader gets from the whole load (parse, then the data checks): the data (as its
    repr, so that ``1``, ``1.0`` and ``True`` differ), or each finding's code, line and
    message. ``block``: the plain block reader may answer; ``pure``: only ruamel's own loader
    reads (else libyaml's parser reads first)."""
    real_c, real_block = _loading.c_yaml_available, _yamlblock.read
    _loading.c_yaml_available = (lambda: False) if pure else real_c
    _yamlblock.read = real_block if block else _not_plain
    try:
        loaded, findings = _loading.load_bytes(text.encode("utf-8", "surrogatepass"),
                                               source="registry.yaml", syntax="yaml")
    finally:
        _loading.c_yaml_available, _yamlblock.read = real_c, real_block
    return (repr(loaded.data) if loaded is not None else None,
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

#: Texts at each edge of the plain block form: the block reader must read each as the
#: loaders do, or leave it to them.
BLOCK_EDGES = [
    "a: 00\n", "a: 010\nb: 0019\n", "a: 0\nb: -0\nc: -12\n", "a: 1.\n", "a: +1\n", "a: 1.5\nb: -0.25\nc: 00.5\n",
    "a: 1e5\n", "a: 1_0\n", "a: 0x1f\n", "a: 0o7\n", "a: 0b1\n", "a: .5\n", "a: .inf\n", "a: .nan\n",
    "a: 12:30\n", "a: 2026-10-12\n", "a: 2026-10-12T09:38:00+02:00\n", "a: 9a8b7c\n",
    "a: 'x'y\n", "a: \"x\" # c\n", "a: \"x\"# c\n", "a: 'x' #c\n", "a: x #c\n", "a: x# c\n",
    "a: 'it''s'\n", "a: \"x\\\"\"\n", "a: \"b: c\"\n", "a: 'b # c'\n", "a: \"x\": y\n",
    "a:\n- b\n- c\nd: e\n", "a:\n  - b\n  -\n  - c: d\n    e: f\n", "- a\n", "- a: b\n",
    "a: b\n  c\n", "a:\n  b\n", "a:\n  b\nc: d\n", "a:\n  b\n  c\n", "a: b:\n", "a: b: c\n",
    "a b: c\n", "a : b\n", "true: x\n", "1: x\n", "null: x\n", "2026-01-01: x\n", "a: <<\n",
    "<<: x\n", "a: =\n", "=: a\n", "a: .\n", "a: ...\n", "---\na: b\n", "a: b\n...\n",
    "a:\n    b: 1\n  c: 2\n", "a:\n  b: 1\n c: 2\n", "a: b\x7f\n", "a: b\r\nc: d\r\n",
    "a: x]\n", "a: x,y\n", "a: x:y\n", "a:b: c\n", "a: ~\n", "a: ~x\n", "a: nULL\n",
    "a: NULL\nb: Null\nc: TRUE\nd: False\ne: yes\n", "a: -\n", "- - a\n", "a:\n  - - b\n",
    "a: # c\n  b: 1\n", "a: # c\nb: 1\n", "a:\n  # c\n  b: 1\n", "a:\n# c\n- b\n",
    "a:\n  -   b: 1\n      c: 2\n", "a:\n  - b: 1\n   c: 2\n", "a:\n  - b\n  c: 1\n",
    "a: 1\na: 1\n", "a:\n  b: 1\n  b: 2\n", "  a: b\n", "a: b\n  # c\n", "a:  x  \n",
    "a: x\n- b\n", "a: ?x\n", "a: @x\n", "a: `x\n", "a: %x\n", "a: &x y\n", "a: *x\n",
    "a: !x y\n", "a: |\n  x\n", "a: >-\n  x\n", "a: [b]\n", "a: {b: c}\n", "-x: 1\n", "x-: 1\n",
    "a: " + "9" * 4301 + "\n", "a: " + "9" * 30 + "\n", "a: " + "x" * 2000 + "\n",
    "k" * 129 + ": v\n", "k" * 128 + ": v\n", "a: b\n" + "  " * 70 + "c: d\n",
    "".join("  " * depth + f"k{depth}:\n" for depth in range(70)),
    "".join("  " * depth + f"k{depth}:\n" for depth in range(60)),
    "a: \"\"\nb: ''\n", "a: é\n", "\"a\": b\n", "'a': b\n", "? a\n: b\n", "a: b\n\n\n",
    "a:\n", "a:", "a: b", "#x\na: 1\n#y", "%YAML 1.2\n---\na: b\n",
    "a: []\nb: {}\nc: [] # c\nd:\n- []\n- {}\n", "a: [ ]\nb: { }\nc: []x\nd: [],\n",
]


def test_the_suite_has_yaml_texts_to_compare():
    assert len(SUITE) > 100


@pytest.mark.parametrize("text", SUITE + HOSTILE + BLOCK_EDGES)
def test_both_loaders_give_the_same_outcome(text):
    assert _outcome(text, pure=False) == _outcome(text, pure=True)


@pytest.mark.parametrize("text", SUITE + HOSTILE + BLOCK_EDGES)
def test_the_block_reader_gives_the_loaders_outcome(text):
    assert _outcome(text, block=True) == _outcome(text, pure=True)


def test_the_block_reader_reads_the_registries_passdown_writes():
    """The example registry, and registries written by Passdown's own writer (a new file,
    and an edit keeping the example's layout), are read by the block reader itself, to the
    loaders' data."""
    raw = (ROOT / "examples" / "handoff" / "registry.yaml").read_bytes()
    data = _loading.load_bytes(raw, source="registry.yaml", syntax="yaml")[0].data
    more = [dict(copy.deepcopy(attempt), restart_id=f"{attempt['restart_id']}-{n}")
            for n in range(3) for attempt in data["attempts"]]
    grown = dict(data, attempts=data["attempts"] + more, revision=data["revision"] + 1, titles=[],
                 observation={})
    written = [raw.decode("utf-8"),
               _editing.render(data, syntax="yaml").decode("utf-8"),
               _editing.render(grown, syntax="yaml", original=raw).decode("utf-8")]
    for text in written:
        assert repr(_yamlblock.read(text)) == _outcome(text, pure=True)[0]


def test_the_block_reader_resolves_plain_scalars_by_ruamels_table():
    """The copied YAML 1.2 resolver table is ruamel's own, key by key and in order."""
    theirs = {first: [(tag, pattern.pattern) for tag, pattern in entries]
              for first, entries in _loading._plain_scalar_tags().items()}
    ours = {first: [(tag, pattern.pattern) for tag, pattern in entries]
            for first, entries in _yamlblock._resolver_table().items()}
    assert ours == theirs


def test_a_registry_written_by_passdown_is_read_without_a_yaml_library():
    example = ROOT / "examples" / "handoff" / "registry.yaml"
    code = ("import sys; from passdown.formats._loading import load_path; "
            f"loaded, findings = load_path({str(example)!r}, syntax='yaml'); "
            "assert loaded is not None and not findings; "
            "print(sorted(m for m in sys.modules if m.startswith(('ruamel', '_ruamel'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


YAML_CHARACTERS = st.sampled_from(list("ab1 :-\n\"'#&*![]{},?|>%@`\\.~") + ["\t", "\r", "\x85", "\u2028", "\u2029", "\x00", "\x1f",
                                                                          "\ufeff", "é", "\U0001f680", "0x", "!!"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.sampled_from(["", "a: ", "a:\n  ", "k: [", "k: |\n  ", "a: 1\nb: "]),
                 st.lists(YAML_CHARACTERS, max_size=40).map("".join)).map("".join))
def test_generated_texts_get_the_same_outcome(text):
    assert _outcome(text, pure=False) == _outcome(text, pure=True)
    assert _outcome(text, block=True) == _outcome(text, pure=True)


BLOCK_LINE = st.tuples(
    st.sampled_from(["", " ", "  ", "    ", "      "]),
    st.sampled_from(["", "- ", "-", "a:", "a: ", "b: ", "- a: ", "- b:", "#", "a b: "]),
    st.lists(st.sampled_from(list("ab01 :-#'\".~+") + ["true", "null", "1.5", "00", "\t", "é", "\r"]),
             max_size=6).map("".join),
).map("".join)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(BLOCK_LINE, min_size=1, max_size=8).map("\n".join))
def test_generated_block_texts_get_the_same_outcome(text):
    assert _outcome(text, block=True) == _outcome(text, pure=True)
