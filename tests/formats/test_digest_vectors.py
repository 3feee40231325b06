"""The digest and ack conformance vectors: every expected digest is recomputed here with the
blake3 and hashlib packages over the fixture's own canonical bytes (so a host in any language
can reproduce it from the fixture alone), and the gates answer every case exactly."""

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest
from blake3 import blake3

from passdown.gates import load

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "conformance" / "cases"


def _cases(gate):
    out = []
    for path in sorted((CASES / gate).glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["gate"] == gate
        out.extend((path.name, case) for case in document["cases"])
    return out


DIGEST_CASES = _cases("digest")
ACK_CASES = _cases("ack")
WITH_DIGEST = [(f, c) for f, c in DIGEST_CASES if "digest" in c["expected"]["output"]]


def _independent_digest(data: bytes, algorithm: str) -> str:
    if algorithm == "blake3":
        return "blake3:" + blake3(data).hexdigest()
    assert algorithm == "sha256"
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _run(gate, case):
    module = load(gate)
    if "input_text" in case:
        raw = case["input_text"].encode("utf-8")
        # input_padded_to: spaces up to an exact size (a size bound without a large file)
        return module.run(raw + b" " * max(0, case.get("input_padded_to", 0) - len(raw)))
    if "input_base64" in case:
        return module.run(base64.b64decode(case["input_base64"]))
    return module.decide(case["input"])


def test_the_suite_holds_at_least_forty_digest_vectors():
    assert len(WITH_DIGEST) >= 40
    assert len({case["id"] for _, case in DIGEST_CASES + ACK_CASES}) == len(DIGEST_CASES + ACK_CASES)


@pytest.mark.parametrize(("file", "case"), WITH_DIGEST, ids=[c["id"] for _, c in WITH_DIGEST])
def test_expected_digest_is_the_hash_of_the_fixtures_canonical_bytes(file, case):
    output = case["expected"]["output"]
    if "canonical" in output:
        canonical = output["canonical"].encode("utf-8")
    else:
        canonical = base64.b64decode(output["canonical_base64"])
    algorithm = output["digest"].split(":")[0]
    assert output["digest"] == _independent_digest(canonical, algorithm)


@pytest.mark.parametrize(("file", "case"), DIGEST_CASES, ids=[c["id"] for _, c in DIGEST_CASES])
def test_digest_gate_answers_every_vector_exactly(file, case):
    decision = _run("digest", case)
    expected = case["expected"]
    assert json.dumps(decision.output, sort_keys=True) == json.dumps(expected["output"], sort_keys=True)
    assert decision.exit_code == expected["exit_code"]


@pytest.mark.parametrize(("file", "case"), ACK_CASES, ids=[c["id"] for _, c in ACK_CASES])
def test_ack_gate_answers_every_vector_exactly(file, case):
    decision = _run("ack", case)
    expected = case["expected"]
    assert decision.output == expected["output"]
    assert decision.exit_code == expected["exit_code"]


def _ack_base():
    case = next(c for _, c in ACK_CASES if c["id"] == "ack.accept.full_readback")
    return case["input"]


def test_ack_vectors_carry_the_true_packet_digest():
    base = _ack_base()
    text = base["packet_text"]
    lines = text.split("\n")
    assert lines[-2].startswith("CHECKPOINT_DIGEST: ")
    canonical = "\n".join(lines[:-2]) + "\n"  # the digest line is the last line
    assert base["ack"]["checkpoint_digest"] == _independent_digest(canonical.encode(), "blake3")
    assert lines[-2] == "CHECKPOINT_DIGEST: " + base["ack"]["checkpoint_digest"]


def test_ack_vectors_carry_the_true_continue_checkpoint_digest():
    base = _ack_base()
    block = base["checkpoint"]["x-passdown/checkpoint"]
    handwritten = ('{"plan":{"title":"move the parser"},"x-passdown/checkpoint":{"goal_id":"%s",'
                   '"revision":%d,"written_at":"%s"}}' % (block["goal_id"], block["revision"], block["written_at"]))
    attempt = base["registry"]["attempts"][1]
    assert attempt["continue_checkpoint_digest"] == _independent_digest(handwritten.encode(), "blake3")


def test_the_spec_example_is_the_fixture_case_it_names():
    page = (ROOT / "spec" / "digest.md").read_text(encoding="utf-8")
    blocks = re.findall(r"`([\w.]+)` in `(conformance/cases/[\w/]+\.json)`:\n\n```json\n(.*?)\n```", page, re.S)
    assert blocks, "spec/digest.md shows a vector and names its file"
    for case_id, fixture, text in blocks:
        shown = json.loads(text)
        cases = json.loads((ROOT / fixture).read_text(encoding="utf-8"))["cases"]
        assert shown == next(c for c in cases if c["id"] == case_id)
