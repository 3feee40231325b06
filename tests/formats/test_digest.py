"""Digest strings, canonical forms and streaming hashing (passdown.formats._digest)."""

import hashlib
import json
import os
from pathlib import Path

import pytest
from blake3 import blake3
from hypothesis import given, settings
from hypothesis import strategies as st

from passdown.formats import _digest
from passdown.errors import DigestError

HEX = "0123456789abcdef" * 4


class TestParseDigest:
    def test_blake3_and_sha256_parse(self):
        assert _digest.parse_digest("blake3:" + HEX) == ("blake3", HEX)
        assert _digest.parse_digest("sha256:" + HEX) == ("sha256", HEX)

    @pytest.mark.parametrize("text", [
        "blake3:" + HEX.upper(), "blake3:" + HEX[:-1], "sha256:" + HEX + "0", HEX, ":" + HEX,
        "blake3:", "Blake3:" + HEX, "sha-.256:ab", "sha256+:ab", "-sha:ab", "sha512:ab+/",
        "blake3: " + HEX, "x:" + "a" * 1023, "", "blake3:" + HEX + "\n",
    ])
    def test_malformed_strings_have_their_own_code(self, text):
        with pytest.raises(DigestError) as raised:
            _digest.parse_digest(text)
        assert raised.value.code == "digest.malformed"

    @pytest.mark.parametrize("value", [None, 7, b"blake3:00", ["blake3:" + HEX]])
    def test_non_strings_are_malformed_not_crashes(self, value):
        with pytest.raises(DigestError) as raised:
            _digest.parse_digest(value)
        assert raised.value.code == "digest.malformed"

    @pytest.mark.parametrize("text", ["sha512:" + "ab" * 64, "md5:abc", "multihash+base58:Qm=_-", "a.b_c-d:x"])
    def test_well_formed_unknown_algorithms_are_unverifiable(self, text):
        with pytest.raises(DigestError) as raised:
            _digest.parse_digest(text)
        assert raised.value.code == "digest.unknown_algorithm"

    def test_check_digest_answers_match_mismatch_and_why(self):
        data = b"abc"
        assert _digest.check_digest("blake3:" + blake3(data).hexdigest(), data) is None
        assert _digest.check_digest("sha256:" + hashlib.sha256(data).hexdigest(), data) is None
        assert _digest.check_digest("sha256:" + hashlib.sha256(b"abd").hexdigest(), data) == "digest.mismatch"
        assert _digest.check_digest("sha512:" + "0" * 128, data) == "digest.unknown_algorithm"
        assert _digest.check_digest("nonsense", data) == "digest.malformed"

    def test_same_digest_never_holds_for_unusable_strings(self):
        good = "blake3:" + HEX
        assert _digest.same_digest(good, good)
        assert not _digest.same_digest("md5:ab", "md5:ab")
        assert not _digest.same_digest(good, "sha256:" + HEX)


json_scalars = (st.none() | st.booleans() | st.text()
                | st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1)
                | st.floats(allow_nan=False, allow_infinity=False))
json_values = st.recursive(json_scalars, lambda children: st.lists(children, max_size=5)
                           | st.dictionaries(st.text(max_size=8), children, max_size=5), max_leaves=20)


class TestCanonicalJson:
    @settings(max_examples=200)
    @given(json_values)
    def test_jcs_bytes_read_back_as_the_same_data_and_are_stable(self, value):
        canonical = _digest.canonical_json(value)
        again = json.loads(canonical)
        assert _digest.canonical_json(again) == canonical

    @settings(max_examples=150)
    @given(st.recursive(
        st.none() | st.booleans() | st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1)
        | st.text(alphabet=st.characters(blacklist_categories=("Cs",))) | st.sampled_from(
            ["\x00\x1f\x7f\"\\\b\f\n\r\t", "\u2028\u2029", "\ue000\uffff\U0001F600"]),
        lambda children: st.lists(children, max_size=4) | st.tuples(children, children)
        | st.dictionaries(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=6)
                          | st.sampled_from(["\ufb01", "\U0001F600", "a\ue000", "\x00", "\""]),
                          children, max_size=5), max_leaves=24))
    def test_the_json_encoder_path_writes_exactly_what_rfc8785_writes(self, value):
        import rfc8785

        assert _digest.canonical_json(value) == rfc8785.dumps(value)

    def test_every_example_and_case_document_is_written_as_rfc8785_writes_it(self):
        import rfc8785

        from passdown.formats._loading import load_path

        root = Path(__file__).resolve().parents[2]
        documents = 0
        for path in sorted([*root.glob("examples/**/*.json"), *root.glob("examples/**/*.yaml"),
                            *root.glob("conformance/cases/validate/*.json")]):
            loaded, _ = load_path(str(path), syntax="yaml" if path.suffix == ".yaml" else "json")
            if loaded is None or _digest.canonical_problem(loaded.data) is not None:
                continue
            documents += 1
            assert _digest.canonical_json(loaded.data) == rfc8785.dumps(loaded.data), path
        assert documents > 50

    @given(st.dictionaries(st.text(max_size=6), st.integers(0, 9), max_size=8))
    def test_key_order_does_not_change_the_bytes(self, mapping):
        reversed_order = dict(reversed(list(mapping.items())))
        assert _digest.canonical_json(mapping) == _digest.canonical_json(reversed_order)

    def test_jcs_is_not_sorted_key_json(self):
        value = {"\ufb01": 1, "\U0001F600": 2, "n": 1.0, "m": 1e-7}
        canonical = _digest.canonical_json(value)
        assert canonical == '{"m":1e-7,"n":1,"\U0001F600":2,"\ufb01":1}'.encode()
        assert canonical != json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

    @pytest.mark.parametrize(("value", "code", "path"), [
        ({"a": float("nan")}, "digest.non_finite", "$.a"),
        ([1, float("-inf")], "digest.non_finite", "$[1]"),
        ({"n": 2**53 + 1}, "digest.integer_range", "$.n"),
        ({"n": -(2**53) - 1}, "digest.integer_range", "$.n"),
        ({"n": 10**21}, "digest.integer_range", "$.n"),
        ({"n": 10**400}, "digest.integer_range", "$.n"),
        ({"a": {"b": ["\udfff"]}}, "digest.lone_surrogate", "$.a.b[0]"),
        ({"\ud800": 1}, "digest.lone_surrogate", '$["\ud800"]'),
        ({1: "a"}, "digest.key_type", "$"),
        ({"a": b"bytes"}, "digest.value_type", "$.a"),
        ({"a": {1, 2}}, "digest.value_type", "$.a"),
    ])
    def test_values_jcs_cannot_represent_are_refused_with_code_and_path(self, value, code, path):
        with pytest.raises(DigestError) as raised:
            _digest.canonical_json(value)
        assert (raised.value.code, raised.value.path) == (code, path)

    @pytest.mark.parametrize(("number", "written"), [
        (2**53, b"9007199254740992"), (-(2**53), b"-9007199254740992"),
        (10**20, b"100000000000000000000"), (123456789012345670000, b"123456789012345670000"),
    ])
    def test_a_big_integer_that_is_the_jcs_spelling_of_a_double_is_kept(self, number, written):
        assert _digest.canonical_json([number]) == b"[" + written + b"]"

    def test_a_big_integral_double_reads_back_from_its_canonical_bytes(self):
        canonical = _digest.canonical_json({"a": 1e20, "b": 2.0**60})
        assert canonical == b'{"a":100000000000000000000,"b":1152921504606847000}'
        assert _digest.canonical_json(json.loads(canonical)) == canonical

    def test_deep_nesting_is_refused_not_a_recursion_error(self):
        deep = []
        for _ in range(5000):
            deep = [deep]
        with pytest.raises(DigestError) as raised:
            _digest.canonical_json(deep)
        assert raised.value.code == "digest.too_deep"

    def test_the_first_problem_in_document_order_is_reported(self):
        with pytest.raises(DigestError) as raised:
            _digest.canonical_json({"a": [1, 2**60], "b": float("nan")})
        assert raised.value.path == "$.a[1]"

    def test_yaml_and_json_with_the_same_data_have_one_digest(self):
        from_json = _digest.canonical_bytes(b'{"revision": 3, "kind": "registry"}', "jcs")
        from_yaml = _digest.canonical_bytes(b"# note\nkind: registry\nrevision: 3\n", "yaml")
        assert from_json == from_yaml == b'{"kind":"registry","revision":3}'


packet_lines = st.lists(st.text(alphabet="ABC: \t\u00e9\u2028xyz-", max_size=12), max_size=8)


class TestCanonicalPacket:
    @given(packet_lines)
    def test_line_endings_do_not_change_the_bytes(self, lines):
        lf = "\n".join(lines)
        assert _digest.canonical_packet(lf) == _digest.canonical_packet(lf.replace("\n", "\r\n"))
        assert _digest.canonical_packet(lf) == _digest.canonical_packet(lf.replace("\n", "\r"))

    @given(packet_lines, st.integers(min_value=0, max_value=8), st.text(alphabet="abc0:", max_size=20))
    def test_a_digest_line_anywhere_is_left_out(self, lines, position, value):
        # Lines that would read as continuation lines of the digest field stay out of this property.
        lines = [line for line in lines if not line.startswith("  ") and line.strip(" \t")]
        position = min(position, len(lines))
        with_digest = lines[:position] + ["CHECKPOINT_DIGEST: " + value] + lines[position:]
        assert _digest.canonical_packet("\n".join(with_digest)) == _digest.canonical_packet("\n".join(lines))

    @given(packet_lines)
    def test_canonical_bytes_are_a_fixed_point(self, lines):
        once = _digest.canonical_packet("\n".join(lines))
        assert _digest.canonical_packet(once.decode()) == once
        assert once == b"" or once.endswith(b"\n") and not once.endswith(b"\n\n")

    def test_each_rule(self):
        assert _digest.canonical_packet("A: 1  \r\nCHECKPOINT_DIGEST:\r\n  x\r\n\r\nB: 2\t\r\n\r\n") == b"A: 1\nB: 2\n"
        assert _digest.canonical_packet("A: 1\n CHECKPOINT_DIGEST: x") == b"A: 1\n CHECKPOINT_DIGEST: x\n"
        assert _digest.canonical_packet("A: a\u2028b\u0085c\n") == "A: a\u2028b\u0085c\n".encode()

    def test_projection_and_text_forms_share_one_digest(self):
        text = "GOAL_ID: g\nNEXT_SAFE_ACTION: a\n  b\nRESTART_ID: r\nCHECKPOINT_DIGEST: blake3:00\n"
        projection = json.dumps({"passdown_version": "1.0", "kind": "packet", "goal_id": "g", "restart_id": "r",
                                 "next_safe_action": "a\nb", "checkpoint_digest": "blake3:00"})
        assert _digest.canonical_bytes(text.encode(), "packet") == _digest.canonical_bytes(projection.encode(), "packet")

    def test_loading_rules_apply_before_canonical_form(self):
        with pytest.raises(DigestError) as raised:
            _digest.canonical_bytes(b"\xef\xbb\xbfGOAL_ID: g\n", "packet")
        assert raised.value.code == "load.bom"


class TestFiles:
    @pytest.mark.parametrize(("name", "form"), [
        ("xbrief/continue.xbrief.json", "jcs"), ("registry.json", "jcs"), ("registry.yaml", "yaml"),
        ("registry.yml", "yaml"), ("ack.json", "jcs"), ("continuation.packet.txt", "packet"),
        ("continuation.packet.json", "packet"), ("notes.json", "raw"), ("README.md", "raw"),
    ])
    def test_the_form_follows_the_file_name(self, name, form):
        assert _digest.form_for_name(name) == form

    @pytest.mark.parametrize("size", [0, 1, 5, 4096, 4097, 8191, 8192, 8193, 3 * 4096 + 17])
    def test_windowed_streaming_equals_one_shot_hashing(self, tmp_path, monkeypatch, size):
        monkeypatch.setattr(_digest, "_WINDOW", 4096)  # several windows and a partial last one
        monkeypatch.setattr(_digest, "_READ_CHUNK", 1000)
        data = os.urandom(size)
        path = tmp_path / "blob.bin"
        path.write_bytes(data)
        for algorithm, reference in (("blake3", blake3(data).hexdigest()),
                                     ("sha256", hashlib.sha256(data).hexdigest())):
            assert _digest.digest_file(path, algorithm) == f"{algorithm}:{reference}"
            with open(path, "rb", buffering=0) as handle:
                handle.read(min(size, 3))  # not at the start: the chunked path reads the rest
                rest = data[min(size, 3):]
                assert _digest.digest_stream(handle, algorithm) == \
                    f"{algorithm}:{_digest.hexdigest(rest, algorithm)}"

    def test_artifacts_hash_canonically_and_other_files_raw(self, tmp_path):
        (tmp_path / "ack.json").write_text('{ "b": 1.0,\n "a": 2 }\n')
        (tmp_path / "other.json").write_text('{ "b": 1.0,\n "a": 2 }\n')
        assert _digest.digest_file(tmp_path / "ack.json") == "blake3:" + blake3(b'{"a":2,"b":1}').hexdigest()
        assert _digest.digest_file(tmp_path / "other.json") == \
            "blake3:" + blake3(b'{ "b": 1.0,\n "a": 2 }\n').hexdigest()

    def test_unreadable_files_are_errors_with_codes(self, tmp_path):
        with pytest.raises(DigestError) as raised:
            _digest.digest_file(tmp_path / "missing.bin")
        assert raised.value.code == "load.unreadable"
        with pytest.raises(DigestError) as raised:
            _digest.digest_file(tmp_path)
        assert raised.value.code == "load.unreadable"
        (tmp_path / "ack.json").write_text('{"a": 1, "a": 2}')
        with pytest.raises(DigestError) as raised:
            _digest.digest_file(tmp_path / "ack.json")
        assert raised.value.code == "load.duplicate_key"

    def test_an_unknown_algorithm_is_an_error_with_a_code(self, tmp_path):
        (tmp_path / "a.txt").write_text("a")
        with pytest.raises(DigestError) as raised:
            _digest.digest_file(tmp_path / "a.txt", "md5")
        assert raised.value.code == "digest.unknown_algorithm"

    def test_public_names_point_here(self):
        import passdown

        assert passdown.digest_file is _digest.digest_file
        assert passdown.digest_bytes(b"abc") == "blake3:" + blake3(b"abc").hexdigest()


class TestDigestLists:
    @given(st.text(alphabet="ab \\\n\r*\u00e9", min_size=1, max_size=12))
    def test_every_file_name_round_trips_through_a_list_line(self, name):
        digest = "blake3:" + HEX
        line = _digest.format_line(digest, name)
        assert "\n" not in line and "\r" not in line
        assert _digest.parse_line(line) == (digest, name)

    @given(st.text(alphabet="ab ()=*\\\n\r\u00e9", min_size=1, max_size=12),
           st.sampled_from(_digest.LINE_STYLES), st.sampled_from(_digest.ALGORITHMS))
    def test_every_file_name_round_trips_through_every_line_style(self, name, style, algorithm):
        digest = f"{algorithm}:" + HEX
        line = _digest.format_line(digest, name, style)
        assert "\n" not in line and "\r" not in line
        assert _digest.parse_styled_line(line, bare_algorithm=algorithm) == (digest, name, style)

    @pytest.mark.parametrize("line, bare, expected", [
        (f"{HEX}  a.txt", None, (f"blake3:{HEX}", "a.txt", "bare")),
        (f"{HEX} *a.txt", "sha256", (f"sha256:{HEX}", "a.txt", "bare")),
        (f"{HEX.upper()}  a.txt", "sha256", (f"sha256:{HEX}", "a.txt", "bare")),
        (f"SHA256 (a (1).txt) = {HEX}", None, (f"sha256:{HEX}", "a (1).txt", "tag")),
        (f"BLAKE3 (a.txt) = {HEX}", "sha256", (f"blake3:{HEX}", "a.txt", "tag")),
        (f"MD5 (a.txt) = {HEX[:32]}", None, (f"md5:{HEX[:32]}", "a.txt", "tag")),
        (f"blake3:{HEX}  a.txt", "sha256", (f"blake3:{HEX}", "a.txt", "passdown")),
    ])
    def test_bare_and_tagged_lines_name_their_algorithm(self, line, bare, expected):
        assert _digest.parse_styled_line(line, bare_algorithm=bare) == expected

    def test_a_malformed_line_says_how_to_write_one(self):
        with pytest.raises(DigestError) as raised:
            _digest.parse_line("garbage")
        assert raised.value.hint.startswith("write `<digest>  <file>` (`blake3:<hex>  <file>`)")

    @pytest.mark.parametrize("line", ["blake3:00 file", "blake3:00", "blake3:00  ", "  file", "\\blake3:00  a\\qb"])
    def test_malformed_lines_have_their_own_code(self, line):
        with pytest.raises(DigestError) as raised:
            _digest.parse_line(line)
        assert raised.value.code == "digest.malformed_line"


_JCS_SCALARS = (st.none() | st.booleans() | st.floats() | st.text(max_size=4)
                | st.sampled_from(["\ud800", "a\udfff", 2**53 - 1, -(2**53), 2**53, 10**20, 2**70, 1.5])
                | st.integers())
_JCS_VALUES = st.recursive(
    _JCS_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=3) | st.sampled_from(["\udc00", 1, None]), inner, max_size=3),
    max_leaves=12)


def _problem_of_the_exact_walk(value):
    quick_pass = _digest._plainly_in_jcs_domain
    _digest._plainly_in_jcs_domain = lambda value, max_depth: False
    try:
        return _digest.canonical_problem(value)
    finally:
        _digest._plainly_in_jcs_domain = quick_pass


@settings(max_examples=400)
@given(_JCS_VALUES)
def test_the_quick_domain_pass_answers_as_the_exact_walk(value):
    quick, exact = _digest.canonical_problem(value), _problem_of_the_exact_walk(value)
    assert (quick and (quick.code, quick.parts, quick.what)) == (exact and (exact.code, exact.parts, exact.what))


def test_the_quick_domain_pass_leaves_the_depth_bound_to_the_exact_walk():
    from passdown.formats._loading import MAX_DEPTH

    for depth in (MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1):
        value: object = "leaf"
        for _ in range(depth):
            value = [value]
        quick, exact = _digest.canonical_problem(value), _problem_of_the_exact_walk(value)
        assert (quick and quick.code) == (exact and exact.code)
    assert _digest.canonical_problem(value).code == "digest.too_deep"
