"""The title gate formats exactly as the published helper: the same line, the same failure,
for generated and chosen inputs, with or without a time-zone database."""

import json
import subprocess
import sys
import zoneinfo
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import published_helpers_model as published
from passdown.formats import _title as title_form
from passdown.gates import title
from passdown.gates._table import Decision

UNAVAILABLE = {"status": "TITLE_UNAVAILABLE"}


def test_crossing_midnight_in_the_target_zone_moves_the_date():
    decision = title.decide({"title": "Ship the parser", "started_at": "2026-09-05T23:30:00Z",
                             "timezone": "Europe/Warsaw"})
    assert decision.text == (
        '{"title_base": "Ship the parser", "started_at": "2026-09-05T23:30:00+00:00", '
        '"timezone": "Europe/Warsaw", "display_title": "Ship the parser | started 06-09"}\n'
    )
    assert decision.outcome == "TITLE_FORMATTED"
    assert decision.exit_code == 0


def test_a_run_of_stacked_suffixes_keeps_only_the_base():
    decision = title.decide({"title": "Ship it | started 01-02 | started 03-04",
                             "started_at": "2026-02-01T08:00:00+00:00"})
    assert decision.output["title_base"] == "Ship it"
    assert decision.output["display_title"] == "Ship it | started 01-02"
    assert decision.output["timezone"] == "UTC"


def test_a_resumed_session_keeps_its_original_start_date():
    # The date comes from started_at only, never from today.
    decision = title.decide({"title": "Long task", "started_at": "2020-01-31T10:00:00+01:00"})
    assert decision.output["display_title"] == "Long task | started 31-01"


def test_output_keys_keep_the_published_order_not_sorted():
    decision = title.decide({"title": "b", "started_at": "2026-01-01T00:00:00Z"})
    assert list(json.loads(decision.text)) == ["title_base", "started_at", "timezone",
                                               "display_title"]


@pytest.mark.parametrize("payload", [
    {},
    {"title": "  ", "started_at": "2026-01-01T00:00:00Z"},
    {"title": 5, "started_at": "2026-01-01T00:00:00Z"},
    {"title": "t", "started_at": "2026-01-01T00:00:00"},
    {"title": "t", "started_at": "2026-01-01"},
    {"title": "t", "started_at": 1767225600},
    {"title": "t", "started_at": "yesterday"},
    {"title": "t", "started_at": "2026-01-01T00:00:00Z", "timezone": "Mars/Olympus"},
    {"title": "t", "started_at": "2026-01-01T00:00:00Z", "timezone": None},
    {"title": "t", "started_at": "2026-01-01T00:00:00Z", "timezone": "../../etc/passwd"},
    {"title": "t", "started_at": "2026-01-01T00:00:00Z", "timezone": "Europe"},  # TTL-017
    {"title": "t", "started_at": "2026-01-01T00:00:00Z", "timezone": "a" * 300},  # TTL-017
    {"title": "t", "started_at": "0001-01-01T00:00:00+01:00"},  # TTL-016
    [], "title", None,
])
def test_every_failure_prints_title_unavailable_and_exits_2(payload):
    decision = title.decide(payload)
    assert decision.output == UNAVAILABLE
    assert decision.text == '{"status": "TITLE_UNAVAILABLE"}\n'
    assert decision.exit_code == 2
    assert published.expected_for_value("title", payload) == (decision.text, decision.exit_code)


@pytest.mark.parametrize("raw", [
    b"", b"{", b"\xef\xbb\xbf{}", b"\xfe{}", b"[" * 5000 + b"]" * 3000, b"[" * 3000 + b"]" * 3000,
    json.dumps({"title": "x" * 8200, "started_at": "2026-01-01T00:00:00Z"}).encode(),
    json.dumps({"title": "x" * 2000, "started_at": "2026-01-01T00:00:00Z"}).encode("utf-32-le"),
])
def test_unreadable_input_is_title_unavailable(raw):
    assert title.run(raw).output == UNAVAILABLE
    assert published.expected("title", raw) == (title.run(raw).text, 2)


def test_the_helper_crashes_where_the_gate_answers_unavailable():
    assert published.answer("title", b"[" * 3000 + b"]" * 3000).crash is RecursionError  # TTL-013
    calendar = {"title": "t", "started_at": "0001-01-01T00:00:00+01:00"}
    assert published.answer_value("title", calendar).crash is OverflowError  # TTL-016
    europe = published.answer_value("title", {"title": "t", "started_at": "2026-01-01T00:00:00Z",
                                              "timezone": "Europe"})
    # TTL-017: an OSError where the zone database is the tzdata package, else unavailable
    assert europe.crash is None or issubclass(europe.crash, OSError)


def test_a_lone_surrogate_in_the_title_is_printed_as_the_helper_prints_it():
    raw = '{"title": "Ship \udc80", "started_at": "2026-09-05T23:30:00Z"}'.encode("utf-8", "surrogatepass")
    decision = title.run(raw)
    assert decision.text == ('{"title_base": "Ship \\udc80", "started_at": "2026-09-05T23:30:00+00:00", '
                             '"timezone": "UTC", "display_title": "Ship \\udc80 | started 05-09"}\n')
    assert (decision.text, decision.exit_code) == published.expected("title", raw)


def test_the_bound_is_8192_bytes():
    raw = json.dumps({"title": "t", "started_at": "2026-01-01T00:00:00Z"}).encode()
    assert title.run(raw + b" " * (8192 - len(raw))).outcome == "TITLE_FORMATTED"
    assert title.run(raw + b" " * (8193 - len(raw))).output == UNAVAILABLE


@pytest.fixture
def no_zone_database(monkeypatch):
    """A machine with neither system zone files nor the tzdata package."""
    for name in [name for name in sys.modules if name.split(".")[0] == "tzdata"] + ["tzdata"]:
        monkeypatch.setitem(sys.modules, name, None)
    zoneinfo.reset_tzpath(to=[])
    zoneinfo.ZoneInfo.clear_cache()
    yield
    zoneinfo.reset_tzpath()
    zoneinfo.ZoneInfo.clear_cache()


def test_utc_needs_no_zone_database(no_zone_database):
    with pytest.raises(zoneinfo.ZoneInfoNotFoundError):
        zoneinfo.ZoneInfo("Europe/Warsaw")
    decision = title.decide({"title": "t", "started_at": "2026-09-05T23:30:00Z"})
    assert decision.output["display_title"] == "t | started 05-09"
    explicit = title.decide({"title": "t", "started_at": "2026-09-05T23:30:00Z",
                             "timezone": "UTC"})
    assert explicit.output == decision.output
    assert title.decide({"title": "t", "started_at": "2026-09-05T23:30:00Z",
                         "timezone": "Europe/Warsaw"}).output == UNAVAILABLE


def test_utc_works_when_zoneinfo_cannot_even_be_imported(monkeypatch):
    monkeypatch.setitem(sys.modules, "zoneinfo", None)
    assert title.decide({"title": "t", "started_at": "2026-09-05T23:30:00Z"}).exit_code == 0
    assert title.decide({"title": "t", "started_at": "2026-09-05T23:30:00Z",
                         "timezone": "Asia/Tokyo"}).output == UNAVAILABLE


def test_suffix_digits_are_any_decimal_digits_like_the_published_pattern():
    assert title_form.strip_date_suffixes("a | started ٠١-٠٢") == "a"
    assert title_form.strip_date_suffixes("a | started 1-02") == "a | started 1-02"
    assert title_form.strip_date_suffixes("a | started 01-02  | started 03-04") == (
        "a | started 01-02 ")


suffix = st.sampled_from([" | started 01-02", " | started 31-12", " | started 1-2", "|started",
                          " | started ٠١-٠٢", " ", "  | started 05-06", " | started 0a-01"])
titles = st.builds(lambda head, tail: head + "".join(tail),
                   st.text(max_size=6), st.lists(suffix, max_size=3))
stamps = st.one_of(
    st.datetimes(timezones=st.sampled_from([None, *map(zoneinfo.ZoneInfo, ["UTC", "Asia/Kolkata"])]
                                           )).map(lambda moment: moment.isoformat()),
    st.datetimes().map(lambda moment: moment.isoformat() + "Z"),
    st.sampled_from(["2026-09-05T23:30:00Z", "20260905T233000Z", "2026-09-05 23:30+02:00",
                     "2026-09-05T23:30:00.123456-11:30", "2026-13-01T00:00:00Z", ""]),
    st.text(max_size=8),
)
zones = st.one_of(st.sampled_from(["UTC", "Europe/Warsaw", "Pacific/Kiritimati",
                                   "America/St_Johns", "Etc/GMT+12", "utc", "", "Nowhere/Land"]),
                  st.text(max_size=4))


@settings(max_examples=1500, deadline=None)
@given(titles, stamps, st.one_of(st.none(), zones))
def test_generated_payloads_match_the_oracle(title_text, stamp, zone):
    payload = {"title": title_text, "started_at": stamp}
    if zone is not None:
        payload["timezone"] = zone
    raw = json.dumps(payload).encode()
    decision = title.run(raw)
    assert (decision.text, decision.exit_code) == published.expected("title", raw)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["title", "started_at", "timezone"]) | st.text(max_size=3), children,
        max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_arbitrary_json_values_give_a_documented_outcome(value):
    decision = title.decide(value)
    assert decision.outcome in title.OUTCOMES
    assert (decision.text, decision.exit_code) == published.expected_for_value("title", value)


@given(st.binary(max_size=200))
def test_arbitrary_bytes_give_a_documented_outcome(raw):
    decision = title.run(raw)
    assert isinstance(decision, Decision)
    assert decision.outcome in title.OUTCOMES
    assert decision.exit_code == (2 if decision.outcome == "TITLE_UNAVAILABLE" else 0)


PASSDOWN = Path(sys.executable).with_name("passdown")


@pytest.mark.parametrize("payload", [
    {"title": "Ship it", "started_at": "2026-09-05T23:30:00Z", "timezone": "Europe/Warsaw"},
    {"title": "", "started_at": "2026-09-05T23:30:00Z"},
])
def test_the_command_prints_the_oracle_line_and_exit_status(payload):
    raw = json.dumps(payload).encode()
    result = subprocess.run([str(PASSDOWN), "gate", "title"], input=raw, capture_output=True,
                            timeout=60, check=False)
    assert (result.stdout.decode(), result.returncode) == published.expected("title", raw)
