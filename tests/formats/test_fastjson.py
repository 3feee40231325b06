"""The gate path's JSON reader and writer agree with the json package exactly."""

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from passdown.formats import _fastjson

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
