"""The gate path's JSON reader and writer agree with the json package exactly."""

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passdown.formats import _fastjson
from passdown.gates._table import _reject_constant, _unique_pairs

ROOT = Path(__file__).resolve().parents[2]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=25,
)


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


@given(json_values, st.booleans())
def test_dumps_matches_json_dumps(value, sort_keys):
    assert _fastjson.dumps(value, sort_keys=sort_keys) == json.dumps(value, sort_keys=sort_keys)


@given(json_values)
def test_loads_reads_what_json_dumps_writes(value):
    assert _same(_fastjson.loads(json.dumps(value)), json.loads(json.dumps(value)))


@given(st.text(alphabet=' \t\n\r{}[]":,0123456789.eE+-truefalsnNIinfity\\u', max_size=40))
def test_loads_accepts_and_rejects_what_json_loads_does(text):
    try:
        expected = json.loads(text)
    except (ValueError, RecursionError):
        with pytest.raises((_fastjson.JSONError, RecursionError)):
            _fastjson.loads(text)
    else:
        assert _same(_fastjson.loads(text), expected)


def test_loads_rejects_a_byte_order_mark():
    with pytest.raises(_fastjson.JSONError, match="BOM"):
        _fastjson.loads('\ufeff{}')


def test_loads_reports_where_extra_data_starts():
    with pytest.raises(_fastjson.JSONError) as error:
        _fastjson.loads('{"a": 1}  x')
    assert error.value.pos == 10


# -- the pure reader against the C scanner -----------------------------------------------------
#
# ``loads`` first tries ``_read``, a reader in Python that must be exact when it succeeds, and
# leaves everything else to the C scanner. The reference below is that C path alone: ``loads``
# with the pure reader's budget spent.


def _load_hook_bench():
    spec = importlib.util.spec_from_file_location("hook_bench", ROOT / "bench" / "hook_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook_bench = _load_hook_bench()
HOOK_INPUTS = [hook_bench._hook_input(command, tool) for command, tool in hook_bench.SHAPES.values()] + [
    path.read_bytes() for path in sorted((ROOT / "tests" / "data").glob("*_hooks/**/pre_tool_use_*.json"))
]
NUMBER = r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?"
#: The readings to compare: json's defaults, and the hooks of ``parse_input(...,
#: allow_constants=False, unique_keys=True)``, which every hook call reads its input with.
HOOKS = [{}, {"object_pairs_hook": _unique_pairs, "parse_constant": _reject_constant}]


def _with_budget(left, text, hooks):
    saved = _fastjson._pure_left
    _fastjson._pure_left = left
    try:
        return _fastjson.loads(text, **hooks)
    finally:
        _fastjson._pure_left = saved


def _c_only(text, **hooks):
    """``loads`` as it was: the C scanner alone."""
    return _with_budget(-1, text, hooks)


def _loads(text, **hooks):
    """``loads`` in a fresh process, where the pure reader may read any text within its
    bounds (in this one, ``_json`` is loaded already, and ``loads`` reads with it)."""
    return _with_budget(_fastjson._PURE_MAX_CHARS, text, hooks)


def _outcome(read, text, **hooks):
    """What a reading gives: ``("value", value)`` or the exception's type, message and
    position."""
    try:
        return ("value", read(text, **hooks))
    except RecursionError:
        return ("RecursionError",)
    except Exception as error:  # the exact exception is what is compared
        return (type(error).__name__, str(error), getattr(error, "pos", None))


def _identical(a, b):
    """The same value, to the type, the order of keys, NaN and the sign of zero."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_identical(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    return a == b


def _same_outcome(a, b):
    if a[0] == "value" and b[0] == "value":
        return _identical(a[1], b[1])
    return a == b


def _logged_hooks(log, hooks):
    """``hooks`` with every call recorded in ``log``, with a copy of its argument; the
    number hooks json's defaults (``int``, ``float``) when ``hooks`` sets none."""
    pairs_hook = hooks.get("object_pairs_hook")
    constant = hooks.get("parse_constant") or _fastjson._default_constant

    def object_pairs_hook(pairs):
        log.append(("pairs", list(pairs)))
        return pairs_hook(pairs) if pairs_hook else dict(pairs)

    def parse_constant(name):
        log.append(("constant", name))
        return constant(name)

    def parse_int(text):
        log.append(("int", text))
        return int(text)

    def parse_float(text):
        log.append(("float", text))
        return float(text)

    return {"object_pairs_hook": object_pairs_hook, "parse_constant": parse_constant,
            "parse_int": parse_int, "parse_float": parse_float}


def _pure(text, **hooks):
    return _fastjson._read(text, hooks.get("object_pairs_hook"),
                           hooks.get("parse_constant") or _fastjson._default_constant,
                           hooks.get("parse_int") or int, hooks.get("parse_float") or float)


def _check_against_c(text, expect_pure):
    """``loads`` gives what the C path gives, with each set of hooks; where ``_read`` reads
    the text, it gives the same value with the same hook calls, in the same order; and with
    ``expect_pure``, it reads every text the C path reads within its bounds."""
    expect_pure = expect_pure and (len(text) <= _fastjson._PURE_MAX_CHARS
                                   and text.count(",") <= _fastjson._PURE_MAX_COMMAS
                                   and text.count("\\u") <= _fastjson._PURE_MAX_U_ESCAPES)
    for hooks in HOOKS:
        expected = _outcome(_c_only, text, **hooks)
        assert _same_outcome(_outcome(_loads, text, **hooks), expected), (text, hooks)
        pure = _outcome(_pure, text, **hooks)
        if pure[0] == "value":
            assert _same_outcome(pure, expected), (text, hooks)
        else:
            assert not (expect_pure and expected[0] == "value"), (text, hooks, pure)
        c_log, pure_log = [], []
        c_logged = _outcome(_c_only, text, **_logged_hooks(c_log, hooks))
        pure_logged = _outcome(_pure, text, **_logged_hooks(pure_log, hooks))
        if pure_logged[0] == "value":
            assert _same_outcome(pure_logged, c_logged) and _identical(pure_log, c_log), (text, hooks)


class _Object(list):
    """An object's members as written, in order, repeated names included."""


class _Number(str):
    """A number written exactly so."""


_names = st.text(max_size=6) | st.sampled_from(["a", "b", "tool_input", "command"])
_strings = st.text(max_size=12) | st.text(st.characters(blacklist_categories=()), max_size=8) | st.text(
    alphabet='ab"\\/\b\f\n\r\t\x00\x1f\x7f é€😀\ud800\udc00\udbff\udfff', max_size=10)
_leaves = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-10**40, max_value=10**40)
           | st.floats(allow_nan=True) | st.from_regex(NUMBER, fullmatch=True).map(_Number) | _strings)
_values = st.recursive(
    _leaves,
    lambda children: (st.lists(children, max_size=5)
                      | st.lists(st.tuples(_names, children), max_size=5).map(_Object)),
    max_leaves=30,
)


@st.composite
def json_texts(draw, values=_values):
    """A JSON text of a generated value, written with white space, escapes (short, ``\\u``
    in either case, surrogate pairs for characters past the BMP) and number forms drawn
    too."""
    parts = []

    def space():
        parts.append(draw(st.text(alphabet=" \t\n\r", max_size=2)))

    def string(text):
        parts.append('"')
        for char in text:
            code = ord(char)
            escape = draw(st.integers(0, 3))
            if char in '"\\' or code < 0x20 or escape == 0:
                short = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n",
                         "\r": "\\r", "\t": "\\t"}.get(char)
                if short and draw(st.booleans()):
                    parts.append(short)
                elif code > 0xFFFF:
                    high, low = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
                    parts.append(draw(st.sampled_from(["\\u%04x\\u%04x", "\\u%04X\\u%04X"])) % (high, low))
                else:
                    parts.append(draw(st.sampled_from(["\\u%04x", "\\u%04X"])) % code)
            else:
                parts.append(char)
        parts.append('"')

    def write(node):
        space()
        if isinstance(node, _Number):
            parts.append(node)
        elif isinstance(node, str):
            string(node)
        elif isinstance(node, _Object):
            parts.append("{")
            for index, (name, value) in enumerate(node):
                if index:
                    parts.append(",")
                space()
                string(name)
                space()
                parts.append(":")
                write(value)
            space()
            parts.append("}")
        elif isinstance(node, list):
            parts.append("[")
            for index, item in enumerate(node):
                if index:
                    parts.append(",")
                write(item)
            space()
            parts.append("]")
        elif isinstance(node, float) and not math.isfinite(node):
            parts.append("NaN" if node != node else "Infinity" if node > 0 else "-Infinity")
        else:
            parts.append(json.dumps(node))
        space()

    write(draw(values))
    return "".join(parts)


GENERATED = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GENERATED
@given(json_texts())
def test_the_pure_reader_reads_json_texts_as_the_c_scanner(text):
    _check_against_c(text, expect_pure=True)


@GENERATED
@given(_values)
def test_the_pure_reader_reads_what_json_dumps_writes(value):
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, separators=(",", ":")),
                 json.dumps(value, indent=2)):
        _check_against_c(text, expect_pure=True)


_hostile = st.sampled_from(
    list('{}[]":,\\ \t\n\r0123456789.eE+-ntfuaINlsr/bx')
    + ["\x00", "\x01", "\x1f", "\x7f", "\ufeff", "\u00a0", "\ud800", "٣", "NaN", "-Infinity", "\\u",
       "\\ud800"])


@st.composite
def mutated_texts(draw):
    """A JSON text cut short, with characters put in, taken out or changed, a part repeated,
    a byte order mark before it or more data after it."""
    text = draw(json_texts() | st.sampled_from([raw.decode() for raw in HOOK_INPUTS]))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.integers(0, 6))
        if kind == 0:
            text = text[:at]
        elif kind == 1:
            text = text[:at] + draw(_hostile) + text[at:]
        elif kind == 2:
            text = text[:at] + text[at + 1:]
        elif kind == 3:
            text = text[:at] + draw(_hostile) + text[at + 1:]
        elif kind == 4:
            end = draw(st.integers(at, len(text)))
            text = text[:end] + text[at:end] + text[end:]
        elif kind == 5:
            text = "\ufeff" + text
        else:
            text = text + draw(st.sampled_from([" x", "1", "{}", ",", " \t", "\x00", '"']))
    return text


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_texts())
def test_the_pure_reader_gives_up_on_what_it_cannot_read_exactly(text):
    _check_against_c(text, expect_pure=False)


#: Texts the C scanner refuses, or reads in ways the pure reader must match or leave alone.
HOSTILE = [
    "", " ", "\ufeff{}", "\ufeff", '{"a": 1, "a": 2}', '{"a": NaN}', "[Infinity, -Infinity]", "NaN", "-NaN",
    "[1,]", '{"a":1,}', "[1 2]", '{"a" 1}', '{1: 2}', "01", "-", "-01", "1.", ".5", "1e", "1e+", "1.5E-3",
    "1E400", "-0", "-0.0", "0e0", "[1]x", "{} {}", '"\t"', '"a\nb"', '"\x00"', '"\x1f"', '"\x7f"', '"\\x"',
    '"\\u12"', '"\\u12g4"', '"\\u+123"', '"\\u 123"', '"\\u١٢٣٤"', '"\\ud800"', '"\\udc00\\ud800"',
    '"\\ud800\\udc00"', '"\\ud800\\u0041"', '"\\ud800\\\\udc00"', '"\\ud800\\ud800\\udc00"', '"\\ud800\\"',
    '"\\ud800\\u"', '"\\ud800\\udc0"', '"\\udbff\\udfff"', '"\\ud800\\udfff"', '"\\udbff\\udc00"',
    '"\\ud7ff\\udc00"', '"\\ue000\\udc00"', '"\\udbff\\ue000"', "01.5", "-01.5", "00.5", "01e5", "[01.5]",
    "[-00]", "1.5e+5", "1E-0", "0.0e0", "1.e5", "1e5.5", "1e+-5",
    '"\\\\"', '"\\\\\\""', '"\\"', '"a\\', '"\\/\\b\\f\\n\\r\\t"',
    '"\ud800"', '"é€😀"', "١", "[١]", "1" * 5000, "-" + "9" * 5000, "[" + "1" * 4301 + "]",
    "[" + "1" * 4300 + "]",
    "[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000, "[" * 129 + "]" * 129, "[" * 128 + "]" * 128,
    "[" * 5000, "tru", "nul", "true false", " \t\n\r[\r\n\t 1 \t]\n ", "\u00a0[]", "[\u00a0]", "[\x0b]",
    '"\x00\x01"', '["\\\\", "\\""]', '{"\\u0000": "\\u0001"}', '"\\u005c\\u0022"',
    "[" + ",".join("1" * 200) + "]",
    '"' + "\\u0041" * 100 + '"', '{"a": {"b": [], "c": {}}, "d": [{}, []]}',
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_texts_read_as_the_c_scanner_reads_them(text):
    _check_against_c(text, expect_pure=False)


@pytest.mark.parametrize("raw", HOOK_INPUTS, ids=range(len(HOOK_INPUTS)))
def test_the_pure_reader_reads_every_hook_input(raw):
    text = raw.decode()
    _check_against_c(text, expect_pure=True)
    assert _pure(text, object_pairs_hook=_unique_pairs, parse_constant=_reject_constant) == json.loads(text)


def test_a_hook_error_is_the_c_scanner_s():
    def boom(_):
        raise TypeError("boom")

    for hooks in ({"object_pairs_hook": boom}, {"parse_int": boom}, {"parse_float": boom},
                  {"parse_constant": boom}):
        for text in ('{"a": [1, 2.5, NaN]}', "[1.5]", "[NaN]", "{}"):
            assert _outcome(_loads, text, **hooks) == _outcome(_c_only, text, **hooks)
    with pytest.raises(_fastjson.JSONError, match="repeats a key") as error:
        _loads('{"a": 1, "a": 2}', object_pairs_hook=_unique_pairs)
    assert error.value.pos is None


def test_a_deep_stack_leaves_the_reading_to_the_c_scanner():
    """On a stack close to the recursion limit the C scanner refuses nesting the pure reader
    could read: ``loads`` answers as it does, with a RecursionError."""
    text = "[" * 100 + "]" * 100

    def at_depth(levels, read):
        if levels:
            return at_depth(levels - 1, read)
        return _outcome(read, text)

    limit = sys.getrecursionlimit()
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    sys.setrecursionlimit(depth + 400)
    try:
        expected = at_depth(340, _c_only)
        got = at_depth(340, _loads)
    finally:
        sys.setrecursionlimit(limit)
    assert expected == ("RecursionError",)
    assert got == expected
    assert _outcome(_loads, text)[0] == "value"


def test_the_bounds_send_large_texts_to_the_c_scanner(monkeypatch):
    many_values, many_escapes = "[" + "1," * 200 + "1]", '"' + "\\u0041" * 65 + '"'
    long = '{"a": "' + "x" * _fastjson._PURE_MAX_CHARS + '"}'
    for text in (many_values, many_escapes, long):
        assert _same_outcome(_outcome(_loads, text), _outcome(_c_only, text))
    for text in (many_values, many_escapes):
        with pytest.raises(ValueError):
            _pure(text)
    read = []
    monkeypatch.setattr(_fastjson, "_read", lambda text, *hooks: read.append(text))
    monkeypatch.setattr(_fastjson, "_pure_left", _fastjson._PURE_MAX_CHARS)
    assert _fastjson.loads(long) == {"a": "x" * _fastjson._PURE_MAX_CHARS} and read == []


def test_the_pure_reader_reads_a_bounded_number_of_characters_in_a_process(monkeypatch):
    """Its budget is spent text by text, and all at once when ``_json`` loads: from then on
    the C scanner reads everything."""
    read = []
    pure_read = _fastjson._read
    monkeypatch.setattr(_fastjson, "_read", lambda text, *hooks: read.append(text) or pure_read(text, *hooks))
    monkeypatch.setattr(_fastjson, "_pure_left", 10)
    assert _fastjson.loads("[1, 2]") == [1, 2] and read == ["[1, 2]"] and _fastjson._pure_left == 4
    assert _fastjson.loads("[1, 2]") == [1, 2] and read == ["[1, 2]"] and _fastjson._pure_left == 0
    monkeypatch.setattr(_fastjson, "_pure_left", 10)
    with pytest.raises(_fastjson.JSONError, match="Expecting value"):
        _fastjson.loads("[1, ]")  # given up by the pure reader: the C scanner's error
    assert read[-1] == "[1, ]" and _fastjson._pure_left == 0
    monkeypatch.setattr(_fastjson, "_pure_left", 10)
    monkeypatch.setattr(_fastjson, "_encode_ascii", None)
    assert _fastjson.dumps(["a", "é"]) == '["a", "\\u00e9"]' and _fastjson._pure_left == 0


@pytest.mark.parametrize("raw", HOOK_INPUTS, ids=range(len(HOOK_INPUTS)))
def test_a_hook_call_loads_no_json_module(raw):
    """In a fresh process, reading a hook input as a hook does and writing a reply loads
    neither ``json`` nor ``_json``: the start-up the pure reader exists for."""
    script = (
        "import sys\n"
        "from passdown.gates._table import parse_input\n"
        "from passdown.formats._fastjson import dumps\n"
        "value = parse_input(sys.stdin.buffer.read(), 1 << 22, allow_constants=False, unique_keys=True)\n"
        "assert isinstance(value, dict) and value['hook_event_name'] == 'PreToolUse', value\n"
        "reply = dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'deny',\n"
        "               'permissionDecisionReason': 'Passdown guard: kill -9 $PPID stops the agent'}})\n"
        "assert reply.startswith('{\"hookSpecificOutput\": {'), reply\n"
        "print(sorted(name for name in sys.modules if name in ('_json', 'json', 'json.decoder')))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "validator"))
    result = subprocess.run([sys.executable, "-c", script], input=raw, env=env, capture_output=True,
                            check=False)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().strip() == "[]"


_plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
    | st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E)) | st.text()
    | st.text(st.characters(blacklist_categories=())),
    lambda children: st.lists(children) | st.dictionaries(
        st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E)) | st.text(), children),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_plain, st.booleans(), st.sampled_from([(", ", ": "), (",", ":")]))
def test_dumps_writes_what_json_dumps_writes(value, sort_keys, separators):
    assert _fastjson.dumps(value, sort_keys=sort_keys, separators=separators) == json.dumps(
        value, sort_keys=sort_keys, separators=separators)


@given(st.text(st.characters(blacklist_categories=())))
def test_a_string_is_written_as_json_writes_it(text):
    from json.encoder import encode_basestring_ascii

    assert _fastjson._encode_string(text) == encode_basestring_ascii(text)
