"""The continuation packet's grammar: parsing, rendering, the JSON projection, and the
secret detector the packet rule uses."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from passdown.formats import _packet, _secrets

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "handoff" / "continuation.packet.txt"


def _codes(parsed):
    return [(p.code, p.line) for p in parsed.problems]


def test_a_value_continues_on_lines_indented_by_two_spaces():
    parsed = _packet.parse("GOAL_ID: g\nPROGRESS: first\n  second\n    indented\nRESTART_ID: r\n")
    assert parsed.problems == ()
    assert [(f.key, f.value, f.line) for f in parsed.fields] == [
        ("GOAL_ID", "g", 1), ("PROGRESS", "first\nsecond\n  indented", 2), ("RESTART_ID", "r", 5)]


def test_a_value_may_start_on_the_next_line():
    parsed = _packet.parse("PROGRESS:\n  - one\n  - two\n")
    assert parsed.fields == (_packet.Field("PROGRESS", "- one\n- two", 1),)


def test_an_empty_line_inside_a_value_is_kept_and_one_between_fields_is_not():
    parsed = _packet.parse("PROGRESS: a\n\n  b\n\nDECISIONS: c\n\n")
    assert parsed.values() == {"PROGRESS": "a\n\nb", "DECISIONS": "c"}


def test_trailing_spaces_are_not_part_of_a_value():
    assert _packet.parse("GOAL_ID: g   \n  more\t\n").values() == {"GOAL_ID": "g\nmore"}


def test_the_slash_key_is_read_as_written():
    parsed = _packet.parse("OUTCOME / ACCEPTANCE: done\nOUTCOME/ACCEPTANCE: again\n")
    assert [f.key for f in parsed.fields] == ["OUTCOME / ACCEPTANCE", "OUTCOME/ACCEPTANCE"]
    assert parsed.values() == {"OUTCOME / ACCEPTANCE": "done"}


@pytest.mark.parametrize("text, problems", [
    ("GOAL_ID: g\n one space\n", [("packet.syntax", 2)]),
    ("GOAL_ID: g\n\tTab\n", [("packet.syntax", 2)]),
    ("  orphan continuation\nGOAL_ID: g\n", [("packet.syntax", 1)]),
    ("goal_id: lower case\n", [("packet.syntax", 1)]),
    ("GOAL_ID:no space\n", [("packet.syntax", 1)]),
    ("GOAL_ID: g\r\nPOLICY: p\r\n", [("packet.line_ending", 1)]),
    ("GOAL_ID: g\nPOLICY: p\rSOURCE: s\n", [("packet.line_ending", 2)]),
    ("GOAL_ID: g\x00\n", [("packet.control_char", 1)]),
    ("GOAL_ID: g\nPOLICY: a \u202e b\n", [("packet.control_char", 2)]),
    ("GOAL_ID: g\nPOLICY: \x1b[31mred\n", [("packet.control_char", 2)]),
    ("GOAL_ID: tab\tis fine\n", []),
])
def test_grammar_problems_carry_their_line(text, problems):
    assert _codes(_packet.parse(text)) == problems


def test_grammar_problems_carry_a_requirement_and_a_hint():
    problem = _packet.parse(" x\n").problems[0]
    assert problem.requirement == "PKT-006" and "two spaces" in problem.hint
    assert {p.requirement for p in (_packet.parse("A: \x01\r\n").problems)} == {"PKT-007", "PKT-008"}


def test_a_line_ending_problem_still_reads_the_fields():
    parsed = _packet.parse("GOAL_ID: g\r\nPOLICY: p\r\n  more\r\n")
    assert parsed.values() == {"GOAL_ID": "g", "POLICY": "p\nmore"}


def test_the_example_round_trips_byte_for_byte():
    text = EXAMPLE.read_text(encoding="utf-8")
    parsed = _packet.parse(text)
    assert parsed.problems == ()
    assert [f.key for f in parsed.fields] == list(_packet.KEYS)
    assert _packet.render(parsed.fields) == text


def test_render_accepts_pairs_mappings_and_fields():
    expected = "GOAL_ID: g\nPROGRESS: - a\n\n  - b\n"
    # leading and trailing empty lines are not part of a value (canonical form)
    assert _packet.render([("GOAL_ID", "g"), ("PROGRESS", "\n- a\n\n- b\n")]) == expected
    assert _packet.render({"GOAL_ID": "g", "PROGRESS": "- a\n\n- b"}) == expected
    assert _packet.render([("LIVE_WORK", "")]) == "LIVE_WORK:\n"
    assert _packet.render([_packet.Field("GOAL_ID", "g")]) == "GOAL_ID: g\n"


def test_the_projection_maps_keys_to_snake_case_members():
    projection = _packet.projection(_packet.parse(EXAMPLE.read_text(encoding="utf-8")))
    assert projection["passdown_version"] == "1.0" and projection["kind"] == "packet"
    assert set(projection) - {"passdown_version", "kind"} == set(_packet.KEY_BY_MEMBER)
    assert projection["outcome_acceptance"].startswith("ledger.parsing.csv is the only")
    back = _packet.from_projection(projection)
    assert _packet.render(back.fields) == EXAMPLE.read_text(encoding="utf-8")


def test_the_projection_leaves_out_unknown_keys_and_keeps_the_first_duplicate():
    projection = _packet.projection(_packet.parse("GOAL_ID: a\nNOTES: n\nGOAL_ID: b\n"))
    assert projection == {"passdown_version": "1.0", "kind": "packet", "goal_id": "a"}


def test_from_projection_ignores_what_is_not_text():
    assert _packet.from_projection({"goal_id": 7, "policy": "p"}).values() == {"POLICY": "p"}
    assert _packet.from_projection(["not", "an", "object"]).fields == ()


@pytest.mark.parametrize("text, expected", [
    ('{"goal_id": "g"}', True), ('  \n{', True), ("GOAL_ID: {", False), ("", False)])
def test_is_projection(text, expected):
    assert _packet.is_projection(text) is expected


# -- properties --------------------------------------------------------------------------

_line_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\u2028\u2029\x85"
                           "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
    max_size=30,
).map(lambda s: s.rstrip(" \t"))
_values = st.lists(_line_text, min_size=1, max_size=6).map("\n".join).map(_packet.canonical_value)
_keys = st.sampled_from(_packet.KEYS) | st.from_regex(r"[A-Z][A-Z0-9_]{0,12}( / [A-Z][A-Z0-9_]{0,8})?", fullmatch=True)


@given(st.lists(st.tuples(_keys, _values), max_size=14))
def test_parse_of_render_gives_the_fields_back(pairs):
    fields = [_packet.Field(key, value) for key, value in pairs]
    parsed = _packet.parse(_packet.render(fields))
    assert parsed.problems == ()
    assert [(f.key, f.value) for f in parsed.fields] == [(f.key, f.value) for f in fields]


@given(st.text(max_size=400))
def test_parse_never_raises_and_lines_are_in_range(text):
    parsed = _packet.parse(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert all(1 <= f.line <= lines for f in parsed.fields)
    assert all(1 <= p.line <= lines for p in parsed.problems)


@given(st.text(alphabet="AB_ :/\n\r\t x\x00\u202e", max_size=200))
def test_render_of_parse_is_stable(text):
    once = _packet.render(_packet.parse(text).fields)
    assert _packet.render(_packet.parse(once).fields) == once


# -- secrets -----------------------------------------------------------------------------

SECRETS = {
    "a private key block": "-----BEGIN RSA PRIVATE KEY-----",
    "a GitHub token": "ghp_" + "a1B2" * 9,
    "a GitHub fine-grained token": "github_pat_" + "11ABCDEFG0" * 3,
    "a Slack token": "xoxb-1234567890-abcdefghij",
    "an API secret key": "sk-proj-" + "Ab3" * 10,
    "an AWS access key id": "AKIA" + "IOSFODNN7EXAMPLE",
    "a JSON Web Token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "a bearer credential": "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "a cookie header": "Set-Cookie: session=8f14e45fceea167a5a36dedd4bea2543; HttpOnly",
    "a password assignment": "DB_PASSWORD=hunter2hunter2",
}


@pytest.mark.parametrize("label", sorted(SECRETS))
def test_each_secret_shape_is_found_and_never_echoed(label):
    text = f"PROGRESS: deployed.\n  {SECRETS[label]}\n"
    found = _secrets.find_secrets(text)
    assert [(s.label, s.line) for s in found] == [(label, 2)]
    described = _secrets.describe(found[0])
    assert _secrets.REDACTED in described
    assert text[found[0].start:found[0].end] not in described


@pytest.mark.parametrize("text", [
    "Bearer authentication is required by the API gateway",
    "password: see the vault entry ledger/db",
    "password=<from the vault>",
    "api_key: $LEDGER_API_KEY",
    "secret_key=[REDACTED]",
    "sk-learn is not scikit-learn",
    "the token shape ghp_ is checked by the linter",
    "AKIA prefixes are AWS ids",
    "Cookie handling moved to ledger/http.py",
    "-----BEGIN PUBLIC KEY-----",
])
def test_ordinary_text_is_not_a_secret(text):
    assert _secrets.find_secrets(text) == []


def test_the_packet_rule_redacts_every_secret():
    import passdown

    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "LIVE_WORK: No workers,", "LIVE_WORK: token " + SECRETS["a GitHub token"] + " No workers,")
    report = passdown.validate_bytes(text.encode(), "packet", "continuation.packet.txt")
    secrets = [f for f in report.findings if f.code == "packet.secret"]
    assert [(f.json_path, f.line) for f in secrets] == [("$.live_work", 26)]
    assert all(SECRETS["a GitHub token"] not in str(f.to_dict()) for f in report.findings)


@given(st.text(max_size=300))
def test_find_secrets_never_raises(text):
    for secret in _secrets.find_secrets(text):
        assert 0 <= secret.start < secret.end <= len(text)
