"""Gate versions (one shape for every gate, the restart gate's tracking the published helper,
every fixture file stamped), the stamp that adds them, and the one stated byte form of an
`input` value, checked by an encoder written from the spec's words alone."""

import json
import math
import re
import subprocess
import sys

import pytest

from passdown.conformance import load_suite
from passdown.conformance.versions import PATTERN, main, mismatch, parse, stamp_document, stamp_text
from passdown.gates import gate_names, load
from conformance_toy import toy

CASES = toy.REPO / "conformance" / "cases"
SPEC = (toy.REPO / "spec" / "conformance.md").read_text(encoding="utf-8")


class TestOneShape:
    def test_every_gate_has_a_three_part_version(self):
        for name in gate_names():
            assert re.fullmatch(PATTERN, load(name).VERSION), name

    def test_the_restart_gate_tracks_the_published_helper(self):
        assert load("restart").VERSION == "2.2.1"
        assert "byte-compatible with release v2.2.1" in (toy.REPO / "spec" / "gates" / "restart.md").read_text()

    def test_gate_list_prints_one_shape(self):
        from click.testing import CliRunner

        from passdown.cli import cli

        listed = json.loads(CliRunner().invoke(cli, ["gate", "--list", "--format", "json"]).output)
        assert [gate["version"] for gate in listed] == [load(name).VERSION for name in gate_names()]
        assert all(re.fullmatch(PATTERN, gate["version"]) for gate in listed)

    def test_every_fixture_file_states_the_version_of_its_gate(self):
        for path in sorted(CASES.rglob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            assert document.get("gate_version") == load(document["gate"]).VERSION, path
        assert {case.gate_version for case in load_suite(CASES).cases if case.gate == "restart"} == {"2.2.1"}

    @pytest.mark.parametrize("text, parsed", [("2.2.1", (2, 2, 1)), ("0.0.0", (0, 0, 0)), ("10.20.30", (10, 20, 30)),
                                              ("1.0", None), ("v1.0.0", None), ("01.0.0", None), ("1.0.0.0", None),
                                              ("1.0.0 ", None), (1, None)])
    def test_parse(self, text, parsed):
        assert parse(text) == parsed

    @pytest.mark.parametrize("implemented, expected", [
        ("2.2.1", None), ("2.3.0", None), ("2.2.9", None), (None, None),
        ("2.2.0", "the cases are for restart 2.2.1; the implementation implements restart 2.2.0, an older version"),
        ("3.0.0", "the cases are for restart 2.2.1; the implementation implements restart 3.0.0, another major version"),
        ("1.9.9", "the cases are for restart 2.2.1; the implementation implements restart 1.9.9, another major version"),
    ])
    def test_which_implementations_run_which_cases(self, implemented, expected):
        assert mismatch("restart", "2.2.1", implemented) == expected


class TestStamp:
    versions = {"title": "1.0.0", "restart": "2.2.1"}

    def test_inserted_after_gate_with_the_file_s_own_spacing(self):
        pretty = '{\n    "gate": "title",\n    "description": "d",\n    "cases": []\n}\n'
        assert stamp_text(pretty, self.versions) == (
            '{\n    "gate": "title",\n    "gate_version": "1.0.0",\n    "description": "d",\n    "cases": []\n}\n')
        compact = '{"cases":[{"gate":"restart"}],"description":"a, \\"gate\\": x","gate":"restart"}'
        assert stamp_text(compact, self.versions) == compact[:-1] + ',"gate_version":"2.2.1"}'

    @pytest.mark.parametrize("text", ['{"gate": "title", "gate_version": "1.0.0"}', '{"gate": "nope"}', "[1]",
                                      "{broken", '{"cases": []}'])
    def test_nothing_to_do(self, text):
        assert stamp_text(text, self.versions) is None

    def test_a_builder_s_document_gets_it_in_the_same_place(self):
        document = {"gate": "title", "description": "d", "cases": []}
        assert list(stamp_document(document, self.versions)) == ["gate", "gate_version", "description", "cases"]
        assert stamp_document(document, self.versions)["gate_version"] == "1.0.0"

    def test_the_command_writes_and_checks(self, tmp_path, capsys):
        (tmp_path / "title").mkdir()
        original = '{\n  "gate": "title",\n  "description": "d",\n  "cases": []\n}\n'
        (tmp_path / "title" / "a.json").write_text(original)
        assert main(["--check", str(tmp_path)]) == 1
        assert main(["--write", str(tmp_path)]) == 0
        assert (tmp_path / "title" / "a.json").read_text() == original.replace(
            '"title",\n', '"title",\n  "gate_version": "1.0.0",\n')
        assert main(["--check", str(tmp_path)]) == 0

    def test_the_packaged_suite_needs_no_stamp(self):
        done = subprocess.run([sys.executable, "-m", "passdown.conformance.versions", "--check"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


# -- the byte form of an `input` value, from the words of spec/conformance.md -----------------------

_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _string(text: str) -> str:
    out = []
    for char in text:
        code = ord(char)
        if char in _SHORT:
            out.append(_SHORT[char])
        elif 0x20 <= code <= 0x7E:
            out.append(char)
        elif code > 0xFFFF:
            high, low = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
            out.append(f"\\u{high:04x}\\u{low:04x}")
        else:
            out.append(f"\\u{code:04x}")
    return '"' + "".join(out) + '"'


def _float(value: float) -> str:
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    value = abs(value)
    if value == 0:
        return sign + "0.0"
    for precision in range(1, 18):  # the fewest significant digits that read back the same
        written = f"{value:.{precision - 1}e}"
        if float(written) == value:
            break
    mantissa, exponent = written.split("e")
    digits, x = mantissa.replace(".", ""), int(exponent)
    if -4 <= x <= 15:
        if x >= 0:
            whole, fraction = digits[:x + 1].ljust(x + 1, "0"), digits[x + 1:]
        else:
            whole, fraction = "0", "0" * (-x - 1) + digits
        return f"{sign}{whole}.{fraction or '0'}"
    rest = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{rest}e{'+' if x >= 0 else '-'}{abs(x):02d}"


def spec_bytes(value) -> bytes:
    """The bytes of an `input` value, as the spec's list states them."""
    def write(node):
        if node is True:
            return "true"
        if node is False:
            return "false"
        if node is None:
            return "null"
        if isinstance(node, int):
            return str(node)
        if isinstance(node, float):
            return _float(node)
        if isinstance(node, str):
            return _string(node)
        if isinstance(node, list):
            return "[" + ",".join(write(item) for item in node) + "]"
        return "{" + ",".join(f"{_string(key)}:{write(item)}" for key, item in node.items()) + "}"

    return write(value).encode("ascii")


class TestByteForm:
    def test_the_spec_states_it_once(self):
        assert SPEC.count("### The bytes of an `input` value") == 1
        for other in ("conformance/fixture.schema.json", "conformance/README.md",
                      "docs/guides/prove-your-host-conforms.md"):
            text = (toy.REPO / other).read_text(encoding="utf-8")
            assert "compact JSON" not in text and "every non-ASCII character escaped" not in text, other

    @pytest.mark.parametrize("value", [
        {"b": 1, "a": [1.0, -0.0, 0.0, 1e16, 1e15, 1e-5, 0.0001, 1.5e300, 123456789012345680.0, 0.1, 3.5]},
        ["\x7f\x1f\u00e9/\U0001F600\ud800\"\\\b\t\n\f\r", 10**30, -12, True, False, None],
        {"x-passdown/a b": {"": []}}, 5e-324, 1.7976931348623157e308, 2.5e-5, 9999999999999998.0,
    ])
    def test_an_encoder_written_from_the_spec_gives_the_runner_s_bytes(self, value):
        from passdown.conformance._suite import Case

        case = Case("t.a", "t", "1.0.0", "", (), (), "input", value, None, 0, None, "f", 0)
        assert case.raw_input() == spec_bytes(value)

    def test_every_input_value_of_the_suite(self):
        values = [case for case in load_suite(CASES).cases if case.input_kind == "input"]
        assert len(values) > 500
        for case in values:
            assert case.raw_input() == spec_bytes(case.input_value), case.id
