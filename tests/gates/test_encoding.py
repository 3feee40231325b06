"""The restart and title gates read bytes exactly as the published helpers do (``json.loads``
on the raw bytes): differential tests against the helpers' independent oracles, through the
library (``run_gate`` with bytes) and as processes (``passdown gate`` against the real published
helpers in ``../shared/reference/published-helpers/``), over byte order marks, UTF-16 and UTF-32 in both orders with and without a
mark, lone surrogates, 2- and 3-byte inputs, bytes invalid in each guessed encoding, and every
other input class of the conformance suite re-encoded in each encoding.

Where a helper crashes, Passdown must give the deliberate answer of a documented difference
(``published_helpers_model``); any other difference fails."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import published_helpers_model as published
import shared_reference
from gate_cases import README
from gate_fixtures_restart import MARKS, WARSAW
from passdown import run_gate
from passdown.conformance._suite import load_suite
from passdown.gates._helper_input import guess_encoding

ROOT = Path(__file__).resolve().parents[2]
PASSDOWN = Path(sys.executable).with_name("passdown")
GATES = ("restart", "title")
LIMITS = {"restart": 65536, "title": 8192}

#: Every way of writing text the helpers read: (name, codec, with a byte order mark).
WRITINGS = (
    ("utf-8", "utf-8", False), ("utf-8 with mark", "utf-8", True),
    ("utf-16-le", "utf-16-le", False), ("utf-16-le with mark", "utf-16-le", True),
    ("utf-16-be", "utf-16-be", False), ("utf-16-be with mark", "utf-16-be", True),
    ("utf-32-le", "utf-32-le", False), ("utf-32-le with mark", "utf-32-le", True),
    ("utf-32-be", "utf-32-be", False), ("utf-32-be with mark", "utf-32-be", True),
)


def written(text, codec, mark):
    return (MARKS[codec] if mark else b"") + text.encode(codec, "surrogatepass")


def assert_library_matches(gate, raw):
    decision = run_gate(gate, raw)
    assert (decision.text, decision.exit_code) == published.expected(gate, raw), raw[:120]


# -- the encoding guess itself --------------------------------------------------------------

GUESSES = [b"", b"\x00", b"\x00\x00", b"\x001", b"1\x00", b"\x00\x00\x00", b"\xff\xfe\x00\x00",
           b"\xff\xfe\x00", b"\x00\x00\xfe\xff", b"\xef\xbb\xbf", b"\xfe\xff\x00\x00", b"a\x00\x00\x00",
           b"a\x00\x00b", b"a\x00b\x00", b"\x00a\x00b", b"\x00\x00\x00a", b"\xef\xbb", b"ab"]


@pytest.mark.parametrize("raw", GUESSES, ids=repr)
def test_the_guess_is_json_detect_encoding_on_the_edges(raw):
    assert guess_encoding(raw) == json.detect_encoding(raw)


@given(st.binary(max_size=8))
def test_the_guess_is_json_detect_encoding(raw):
    assert guess_encoding(raw) == json.detect_encoding(raw)


# -- explicit tables --------------------------------------------------------------------------

# Objects of every input class, per gate: decided at each step, unknown numbers, NaN literals,
# repeated keys, non-ASCII and lone surrogates in strings, numbers too large (the helper
# crashes), a result too long to print, nesting read and too deep, not objects, not JSON.
RESTART_TEXTS = {
    "create_fresh": json.dumps(README),
    "blocked_schema": json.dumps({**README, "schema": 2}),
    "blank_source": json.dumps({**README, "source_id": "\u3000"}),
    "finish": json.dumps({**README, "remaining_work": False}),
    "mode_off": json.dumps({**README, "mode": "off"}),
    "confirmed": json.dumps({**README, "creation_status": "confirmed", "target_id": "t", "ack_matches": True}),
    "committed": json.dumps({**README, "ownership_committed": True, "target_id": "t"}),
    "nan_literal": json.dumps(README).replace("80000", "NaN"),
    "infinity_literal": json.dumps(README).replace("15000", "-Infinity"),
    "repeated_key": '{"schema": 2, ' + json.dumps(README)[1:],
    "non_ascii_source": json.dumps({**README, "source_id": "źródło 🚀"}, ensure_ascii=False),
    "surrogate_source": json.dumps({**README, "source_id": "\ud800"}, ensure_ascii=False),
    "surrogate_escape": json.dumps({**README, "source_id": "\ud800"}),
    "surrogate_target_is_source": json.dumps({**README, "creation_status": "confirmed", "source_id": "\udfff",
                                              "target_id": "\udfff"}, ensure_ascii=False),
    "huge_integer": json.dumps({**README, "current_input_tokens": 10**400}),
    "huge_quotient": json.dumps({**README, "current_input_tokens": 10**400, "context_capacity_tokens": 1}),
    "too_long_to_print": json.dumps({**README, "current_input_tokens": 1, "fresh_input_tokens": int("9" * 4300),
                                     "restart_overhead_tokens": 0}),
    "nesting_read": json.dumps(README)[:-1] + ', "x": ' + "[" * 500 + "]" * 500 + "}",
    "nesting_too_deep": '{"x": ' + "[" * 3000 + "]" * 3000 + "}",
    "array": "[]",
    "number": "1",
    "string": '"x"',
    "not_json": "schema: 1",
    "empty": "",
    "space": " ",
    "leading_mark": "\ufeff" + json.dumps(README),
    "nul_after": json.dumps(README) + "\x00",
}
TITLE_TEXTS = {
    "formatted": json.dumps(WARSAW),
    "default_zone": json.dumps({"title": "t", "started_at": "2026-09-05T23:30:00+05:30"}),
    "suffixes": json.dumps({"title": "a | started 01-02 | started 03-04", "started_at": "2026-09-05T23:30:00Z"}),
    "blank_title": json.dumps({"title": " \t", "started_at": "2026-09-05T23:30:00Z"}),
    "no_offset": json.dumps({"title": "t", "started_at": "2026-09-05T23:30:00"}),
    "unknown_zone": json.dumps({**WARSAW, "timezone": "Mars/Olympus"}),
    "zone_folder": json.dumps({**WARSAW, "timezone": "Europe"}),
    "zone_too_long": json.dumps({**WARSAW, "timezone": "a" * 300}),
    "zone_null": json.dumps({**WARSAW, "timezone": None}),
    "non_ascii_title": json.dumps({**WARSAW, "title": "Zażółć gęślą jaźń 🚀"}, ensure_ascii=False),
    "surrogate_title": json.dumps({**WARSAW, "title": "\udc80 x"}, ensure_ascii=False),
    "surrogate_separator": json.dumps({"title": "t", "started_at": "2026-09-05\ud80023:30:00Z"}, ensure_ascii=False),
    "surrogate_zone": json.dumps({**WARSAW, "timezone": "Europe/Warsaw\ud800"}, ensure_ascii=False),
    "outside_calendar": json.dumps({"title": "t", "started_at": "0001-01-01T00:30:00+01:00"}),
    "after_calendar": json.dumps({"title": "t", "started_at": "9999-12-31T23:30:00+00:00", "timezone": "Asia/Tokyo"}),
    "nan_title": '{"title": NaN, "started_at": "2026-09-05T23:30:00Z"}',
    "repeated_key": '{"title": 1, "title": "t", "started_at": "2026-09-05T23:30:00Z"}',
    "nesting_read": '{"title": "t", "started_at": "2026-09-05T23:30:00Z", "x": ' + "[" * 500 + "]" * 500 + "}",
    "nesting_too_deep": '{"x": ' + "[" * 1200 + "]" * 1200 + "}",
    "array": '["t", "2026-09-05T23:30:00Z"]',
    "not_json": "title: t",
    "empty": "",
    "leading_mark": "\ufeff" + json.dumps(WARSAW),
}
TEXTS = {"restart": RESTART_TEXTS, "title": TITLE_TEXTS}
TABLE = [(gate, name, writing) for gate in GATES for name in TEXTS[gate] for writing in WRITINGS]


@pytest.mark.parametrize(("gate", "name", "writing"), TABLE,
                         ids=[f"{g}-{n}-{w[0]}" for g, n, w in TABLE])
def test_every_input_class_in_every_encoding_matches_the_helper(gate, name, writing):
    _, codec, mark = writing
    assert_library_matches(gate, written(TEXTS[gate][name], codec, mark))


def test_the_table_reaches_every_documented_crash_and_every_encoding():
    seen = set()
    for gate, name, (_, codec, mark) in TABLE:
        answer = published.answer(gate, written(TEXTS[gate][name], codec, mark))
        if answer.crash is not None:
            seen.add((gate, published.difference(gate, answer.crash)))
    assert seen == {("restart", "RST-005"), ("restart", "RST-043"), ("restart", "RST-045"), ("title", "TTL-013"),
                    ("title", "TTL-016"), ("title", "TTL-017")}


# Bytes that do not decode in the encoding they are guessed to be, and the shortest inputs.
INVALID_BYTES = [
    b"\xff", b"\xfe", b"\x80", b"{\xff}", b'{"a": "\xc0\x80"}', b'{"a": "\xe0\x80\x80"}',
    b'{"a": "\xed\xa0"}', b'{"a": "\xf0\x8d\xa0\x80"}', b'{"a": "\xf4\x90\x80\x80"}', b'{"a": "\xed\xa0\x80\xff"}',
    b"\xef\xbb\xbf\xff", b"\xef\xbb\xbf\xef\xbb\xbf{}", b"\xef\xbb",
    "{}".encode("utf-16-le") + b"\x00", b"\xff\xfe" + "{}".encode("utf-16-le") + b"\x7b",
    b"\xfe\xff" + "{}".encode("utf-16-le"), b"\xff\xfe" + "{}".encode("utf-16-be"),
    b"\xff\xfe\x00\x00" + "{}".encode("utf-32-le")[:-1], b"\x00\x00\xfe\xff\x00\x11\x00\x00",
    "{".encode("utf-32-le") + b"\x00\x00\x11\x00" + "}".encode("utf-32-le"),
    "{".encode("utf-32-be") + b"\xff\xff\xff\xff" + "}".encode("utf-32-be"),
    b"\x00{\x00", b"{\x00\x00", b"\x00\x00\x00", b"\x00\x00\x00\x00", b"{\x00}\x00\x00",
    b"\x00", b"\x00\x00", b"\x001", b"1\x00", b"{}", b"[]", b"\x00{", b"{\x00", b"\xfe\xff", b"\xff\xfe",
    b"{}\x00", b"\x00{}", b"1\x00\x00", b"\xff\xfe\x00", b"\xff\xfe1", b"\xfe\xff\x001",
    b'"\xed\xa0\x80"', b'["\xed\xb2\x80"]', b'{"\xed\xa0\x80": 1}',
]


@pytest.mark.parametrize("gate", GATES)
@pytest.mark.parametrize("raw", INVALID_BYTES, ids=[repr(raw)[:40] for raw in INVALID_BYTES])
def test_short_and_undecodable_bytes_match_the_helper(gate, raw):
    assert_library_matches(gate, raw)


@pytest.mark.parametrize("gate", GATES)
@pytest.mark.parametrize("writing", WRITINGS, ids=[w[0] for w in WRITINGS])
def test_the_bound_counts_raw_bytes_in_every_encoding(gate, writing):
    _, codec, mark = writing
    value = README if gate == "restart" else WARSAW
    text = json.dumps(value)
    unit = len(written(" ", codec, False))
    fill = (LIMITS[gate] - len(written(text, codec, mark))) // unit
    exact = written(text + " " * fill, codec, mark)
    assert len(exact) <= LIMITS[gate] < len(exact) + unit
    over = written(text + " " * (fill + 1), codec, mark)
    for raw in (exact, over):
        assert_library_matches(gate, raw)
    assert run_gate(gate, exact).exit_code == 0
    assert run_gate(gate, over).exit_code == 2


# -- the whole suite, re-encoded ----------------------------------------------------------------

SUITE = [case for case in load_suite(ROOT / "conformance" / "cases").cases if case.gate in GATES]


def _texts_of(case):
    """The case's input as text: its value written as JSON (escaped, and with its characters
    as they are), or its bytes decoded as the helper decodes them; None for bytes that do
    not decode."""
    if case.input_kind == "input":
        return [json.dumps(case.input_value), json.dumps(case.input_value, ensure_ascii=False)]
    raw = case.raw_input()
    try:
        return [raw.decode(json.detect_encoding(raw), "surrogatepass")]
    except UnicodeDecodeError:
        return []


SUITE_INPUTS = [(case.gate, case.id, text, writing) for case in SUITE for text in dict.fromkeys(_texts_of(case))
                for writing in WRITINGS]


def test_every_suite_case_is_re_encoded():
    assert len(SUITE_INPUTS) > 2000
    assert {gate for gate, *_ in SUITE_INPUTS} == set(GATES)


@pytest.mark.parametrize("gate", GATES)
def test_every_suite_case_in_every_encoding_matches_the_helper(gate):
    for case_gate, ident, text, (name, codec, mark) in SUITE_INPUTS:
        if case_gate != gate:
            continue
        raw = written(text, codec, mark)
        decision = run_gate(gate, raw)
        assert (decision.text, decision.exit_code) == published.expected(gate, raw), (ident, name)


# -- generated inputs ------------------------------------------------------------------------

surrogates = st.integers(0xD800, 0xDFFF).map(chr)
texts_with_surrogates = st.lists(st.one_of(st.characters(), surrogates), max_size=6).map("".join)
writings = st.sampled_from(WRITINGS)
json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                        st.floats(allow_nan=True, allow_infinity=True), texts_with_surrogates)


@st.composite
def restart_objects(draw):
    """The reference example with a few members changed to odd values, surrogates included."""
    obs = dict(README)
    for name in draw(st.lists(st.sampled_from(sorted(README) + ["target_id", "context_capacity_tokens"]),
                              max_size=4)):
        obs[name] = draw(json_leaves)
    if draw(st.booleans()):
        obs[draw(texts_with_surrogates)] = draw(json_leaves)
    return obs


@st.composite
def title_objects(draw):
    payload = {
        "title": draw(st.one_of(st.just("Ship it | started 01-02"), texts_with_surrogates, json_leaves)),
        "started_at": draw(st.one_of(
            st.sampled_from(["2026-09-05T23:30:00Z", "2026-09-05 23:30+02:00", "0001-01-01T00:30:00+01:00",
                             "9999-12-31T23:30:00-01:00", "2026-09-05\ud80023:30:00Z"]),
            texts_with_surrogates, json_leaves)),
    }
    if draw(st.booleans()):
        payload["timezone"] = draw(st.one_of(
            st.sampled_from(["UTC", "Europe/Warsaw", "Asia/Tokyo", "Europe", "Etc", "a" * 300, "Nope/Zone"]),
            texts_with_surrogates, json_leaves))
    return payload


def _mutated(raw, cut, extra):
    """``raw`` cut short by ``cut`` bytes (if any) with ``extra`` appended: broken code units,
    stray bytes, a second mark."""
    return (raw[:-cut] if cut else raw) + extra


GENERATED = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


OBJECTS = {"restart": restart_objects(), "title": title_objects()}
TAILS = st.sampled_from([b"", b"", b"", b"\x00", b"\xff", b"\xed\xa0\x80", b"\xef\xbb\xbf", b" "])


@pytest.mark.parametrize("gate", GATES)
@GENERATED
@given(data=st.data(), writing=writings, ascii_only=st.booleans(), cut=st.integers(0, 3), extra=TAILS)
def test_generated_inputs_match_the_helper(gate, data, writing, ascii_only, cut, extra):
    _, codec, mark = writing
    raw = written(json.dumps(data.draw(OBJECTS[gate]), ensure_ascii=ascii_only), codec, mark)
    assert_library_matches(gate, _mutated(raw, cut, extra))


@settings(max_examples=800, deadline=None)
@given(st.sampled_from(GATES), st.one_of(
    st.binary(max_size=6),
    st.builds(lambda head, body: head + body,
              st.sampled_from([b"", *MARKS.values(), b"\x00", b"\x00\x00", b"{\x00", b"\x00{"]),
              st.binary(max_size=24)),
))
def test_generated_short_bytes_match_the_helper(gate, raw):
    assert_library_matches(gate, raw)


# -- as processes: the command against the real published helper -----------------------------

def _process(argv, raw):
    result = subprocess.run(argv, input=raw, capture_output=True, timeout=60, check=False)
    return result.stdout, result.returncode, result.stderr


PROCESS_INPUTS = [
    (gate, name, codec, mark)
    for gate, names in (("restart", ["create_fresh", "surrogate_source", "huge_integer", "nesting_too_deep",
                                     "too_long_to_print", "repeated_key", "not_json"]),
                        ("title", ["formatted", "surrogate_title", "surrogate_separator", "outside_calendar",
                                   "nesting_too_deep", "non_ascii_title", "zone_folder"]))
    for name in names
    for (_, codec, mark) in (WRITINGS[1], WRITINGS[2], WRITINGS[5], WRITINGS[7], WRITINGS[8])
]


@pytest.mark.parametrize(("gate", "name", "codec", "mark"), PROCESS_INPUTS,
                         ids=[f"{g}-{n}-{c}{'-mark' if m else ''}" for g, n, c, m in PROCESS_INPUTS])
def test_the_command_prints_the_helpers_bytes_and_status(gate, name, codec, mark):
    raw = written(TEXTS[gate][name], codec, mark)
    helper_out, helper_status, helper_err = _process([sys.executable, str(shared_reference.helper(gate))], raw)
    passdown_out, passdown_status, passdown_err = _process([str(PASSDOWN), "gate", gate], raw)
    assert passdown_err == b""
    if helper_status == 1 and helper_out == b"":
        assert b"Traceback" in helper_err
        assert (passdown_out.decode(), passdown_status) == published.DELIBERATE[gate]
    else:
        assert (passdown_out, passdown_status) == (helper_out, helper_status)
    # the library path gives the command's bytes
    decision = run_gate(gate, raw)
    assert (decision.text.encode(), decision.exit_code) == (passdown_out, passdown_status)


def _nested(gate, depth):
    head = json.dumps(README if gate == "restart" else WARSAW)[:-1]
    return (head + ', "x": ' + "[" * depth + "]" * depth + "}").encode()


#: How many levels deeper than the published helper the command reads at least: the helper's
#: bound is its Python's stack, which a host's wrapper around it may deepen (RST-008).
FRAMES_TO_SPARE = 8


@pytest.mark.parametrize("gate", GATES)
def test_the_command_reads_every_nesting_the_helper_reads(gate):
    """Around the helper's bound on this Python: wherever the helper program answers, the
    command answers the same bytes, and a few levels deeper too, since the real helper may
    call its parser from fewer frames (RST-008, TTL-018); far beyond it the command refuses."""
    program = shared_reference.helper(gate)

    def helper(depth):
        return _process([sys.executable, str(program)], _nested(gate, depth))

    low, high = 100, 3500  # the helper reads `low` levels and crashes on `high`
    assert helper(low)[0] and helper(high)[:2] == (b"", 1)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if helper(middle)[0] else (low, middle)
    answered = helper(low)[:2]
    for depth in (low - 1, low, low + 1, low + FRAMES_TO_SPARE):
        assert _process([str(PASSDOWN), "gate", gate], _nested(gate, depth))[:2] == answered, depth
    refused = _process([str(PASSDOWN), "gate", gate], _nested(gate, 2000))
    assert (refused[0].decode(), refused[1]) == published.DELIBERATE[gate]
