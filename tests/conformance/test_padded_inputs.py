"""``input_padded_to``: a case whose input is its ``input_text`` followed by spaces up to an
exact size, so that size bounds (1 MiB, 4 MiB) are pinned without fixture files that large."""

import json

from passdown.conformance._suite import fixture_schema, load_suite


def _document(case):
    return {"gate": "recovery", "gate_version": "1.0.0", "description": "a padded input",
            "cases": [{"id": "recovery.padded.one", "description": "a padded input",
                       "requirements": ["REC-001"], **case,
                       "expected": {"output": {"outcome": "invalid_input", "field": "$"}, "exit_code": 2}}]}


def _load(tmp_path, case):
    folder = tmp_path / "recovery"
    folder.mkdir()
    (folder / "padded.json").write_text(json.dumps(_document(case)), encoding="utf-8")
    return load_suite(tmp_path)


def test_a_padded_input_is_its_text_then_spaces_up_to_the_size(tmp_path):
    suite = _load(tmp_path, {"input_text": '{"now_ms": 0}', "input_padded_to": 100})
    (case,) = suite.cases
    assert case.raw_input() == b'{"now_ms": 0}' + b" " * 87
    assert case.wire()["input_text"] == '{"now_ms": 0}' + " " * 87
    assert not suite.findings


def test_padding_counts_bytes_not_characters(tmp_path):
    suite = _load(tmp_path, {"input_text": '"\u00e9"', "input_padded_to": 10})
    (case,) = suite.cases
    assert len(case.raw_input()) == 10


def test_padding_without_text_is_refused_by_the_fixture_schema(tmp_path):
    suite = _load(tmp_path, {"input": {}, "input_padded_to": 100})
    assert [f.code for f in suite.findings] and not suite.cases


def test_the_suite_pins_the_large_bounds_with_padded_inputs():
    sizes = {}
    for case in load_suite().cases:
        if case.id.endswith("size_bound"):
            sizes[case.id] = len(case.raw_input())
    assert sizes["recovery.input.at_size_bound"] == 4 * 1024 * 1024
    assert sizes["recovery.input.past_size_bound"] == 4 * 1024 * 1024 + 1
    assert sizes["handoff.input.at_size_bound"] == 1024 * 1024
    assert sizes["handoff.input.past_size_bound"] == 1024 * 1024 + 1
    assert "input_padded_to" in fixture_schema()["$defs"]["case"]["properties"]


def test_a_padded_input_is_built_as_bytes_once_and_its_tail_never_decoded():
    """The largest size-bound case (64 MiB) is answered holding its input bytes once: no
    padded text beside them, and the gate reads the value from the bytes before the
    whitespace tail (before: the text, its bytes and the decoded text, three copies)."""
    import tracemalloc

    from passdown.conformance._implementations import Reference

    suite = load_suite()
    case = next(c for c in suite.cases if c.id == "validate.gate.at_size_bound")
    reference = Reference()
    reference.answer(next(c for c in suite.cases if c.gate == "validate" and not c.padded_to))
    tracemalloc.start()
    try:
        answer = reference.answer(case)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (answer.kind, answer.exit_code) == ("answered", case.expected_exit_code)
    assert case.padded_to <= peak < case.padded_to * 1.1


def test_a_long_whitespace_tail_reads_as_the_whole_input_does(monkeypatch):
    """``parse_input`` skips decoding a long whitespace tail: the same value, and for an
    input that does not read cleanly the same error, as reading all of it."""
    import pytest

    from passdown.gates import _table

    def both(raw, **options):
        answers = []
        for long_tail in (_table._LONG_TAIL, 1 << 40):  # the tail skipped, then read whole
            monkeypatch.setattr(_table, "_LONG_TAIL", long_tail)
            try:
                answers.append(("value", _table.parse_input(raw, 1 << 23, **options)))
            except _table.InputError as error:
                answers.append(("error", str(error)))
        return answers

    tail = b" \n\t\r" * (1 << 19)
    for head in (b'{"a": [1, 2.5, "\xc3\xa9"]}', b'"x"', b"[]"):
        assert both(head + tail) == [("value", json.loads(head))] * 2
    for head, options in ((b'{"a": 1', {}), (b'{"a": NaN}', {"allow_constants": False}),
                          (b'{"a": 1, "a": 2}', {"unique_keys": True}), (b"\xef\xbb\xbf{}", {}),
                          (b'{"a": "\xc3', {}), (b"", {}), (b"[1] 2", {})):
        first, second = both(head + tail, **options)
        assert first == second and first[0] == "error", head
