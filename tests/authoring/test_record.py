"""``passdown digest --record``: the packet's digest written into its registry attempt as one locked
compare-and-swap, round-trip, never a lost update, never a partial file."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from blake3 import blake3
from click.testing import CliRunner

from passdown.cli import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "handoff"
RESTART_ID = "rst-20261014-0915-parser"
PACKET_BODY = "GOAL_ID: g\nRESTART_ID: {rid}\n"

YAML_REGISTRY = """\
# The registry (a comment that must survive).
passdown_version: "1.0"
kind: registry
revision: 7
attempts:
  # the first attempt
  - restart_id: rst-a
    state: registered
    checkpoint_digest: ""
    source_id: 'sess-src'   # quoted on purpose
    target_id: null
  - restart_id: rst-b
    state: registered
    source_id: sess-src
    target_id: null

# a trailing comment block
observation: null
"""


def b3(data: bytes) -> str:
    return "blake3:" + blake3(data).hexdigest()


def write_packet(folder, rid, name="continuation.packet.txt", digest_line=""):
    path = folder / name
    path.write_text(PACKET_BODY.format(rid=rid) + digest_line)
    return path, b3(PACKET_BODY.format(rid=rid).encode())


def record(*args):
    return CliRunner().invoke(cli, ["digest", "--record", *args])


@pytest.fixture
def registry(tmp_path):
    path = tmp_path / "registry.yaml"
    path.write_text(YAML_REGISTRY)
    return path


def assert_refused(result, code, registry, before=YAML_REGISTRY.encode()):
    assert result.exit_code == 1
    assert code in result.stderr
    assert registry.read_bytes() == before


def test_yaml_registry_keeps_comments_quoting_order_and_nulls(tmp_path, registry):
    packet, digest = write_packet(tmp_path, "rst-b")
    result = record(str(registry), "--restart-id", "rst-b", "--expect-revision", "7", str(packet))
    assert result.exit_code == 0, result.output
    # A new key goes right after checkpoint_digest where there is one, else at the end of the
    # attempt: before the blank line and the comment that follow the mapping.
    expected = YAML_REGISTRY.replace("revision: 7", "revision: 8").replace(
        "    source_id: sess-src\n    target_id: null\n",
        f"    source_id: sess-src\n    target_id: null\n    checkpoint_digest: {digest}\n")
    assert registry.read_text() == expected


def test_an_empty_digest_placeholder_is_filled_in_place(tmp_path, registry):
    packet, digest = write_packet(tmp_path, "rst-a")
    assert record(str(registry), "--restart-id", "rst-a", str(packet)).exit_code == 0
    # The value keeps its place and the author's double quotes.
    assert f'    checkpoint_digest: "{digest}"\n    source_id: \'sess-src\'   # quoted on purpose\n' in registry.read_text()


def test_json_registry_keeps_key_order_and_indentation(tmp_path):
    registry = tmp_path / "registry.json"
    document = {"kind": "registry", "revision": 2, "attempts": [
        {"restart_id": "rst-a", "checkpoint_digest": None, "source_id": "s", "z": 1}], "passdown_version": "1.0"}
    registry.write_text(json.dumps(document, indent=4) + "\n")
    packet, digest = write_packet(tmp_path, "rst-a")
    checkpoint = tmp_path / "continue.xbrief.json"
    checkpoint.write_text('{"b": [1.0], "a": null}')
    result = record(str(registry), "--restart-id", "rst-a", "--checkpoint", str(checkpoint), str(packet))
    assert result.exit_code == 0, result.output
    document["revision"] = 3
    document["attempts"][0] = {"restart_id": "rst-a", "checkpoint_digest": digest,
                               "continue_checkpoint_digest": b3(b'{"a":null,"b":[1]}'), "source_id": "s", "z": 1}
    assert registry.read_text() == json.dumps(document, indent=4) + "\n"


def test_recording_the_same_digest_again_changes_nothing(tmp_path, registry):
    packet, _ = write_packet(tmp_path, "rst-b")
    assert record(str(registry), "--restart-id", "rst-b", str(packet)).exit_code == 0
    before = registry.read_bytes()
    result = record(str(registry), "--restart-id", "rst-b", "--format", "json", str(packet))
    assert result.exit_code == 0
    assert json.loads(result.output)["changed"] is False
    assert registry.read_bytes() == before


def test_a_stale_expected_revision_is_a_conflict_and_writes_nothing(tmp_path, registry):
    packet, _ = write_packet(tmp_path, "rst-b")
    result = record(str(registry), "--restart-id", "rst-b", "--expect-revision", "6", str(packet))
    assert_refused(result, "digest.revision_conflict", registry)


def test_an_unknown_attempt_is_refused(tmp_path, registry):
    packet, _ = write_packet(tmp_path, "rst-zz")
    assert_refused(record(str(registry), "--restart-id", "rst-zz", str(packet)), "digest.unknown_attempt", registry)


def test_a_recorded_digest_is_never_replaced(tmp_path, registry):
    packet, _ = write_packet(tmp_path, "rst-b")
    assert record(str(registry), "--restart-id", "rst-b", str(packet)).exit_code == 0
    packet.write_text(PACKET_BODY.format(rid="rst-b") + "PROGRESS: more\n")
    before = registry.read_bytes()
    result = record(str(registry), "--restart-id", "rst-b", str(packet))
    assert_refused(result, "digest.already_recorded", registry, before)


def test_a_packet_whose_own_digest_disagrees_is_refused(tmp_path, registry):
    packet, _ = write_packet(tmp_path, "rst-b", digest_line=f"CHECKPOINT_DIGEST: {b3(b'other')}\n")
    assert_refused(record(str(registry), "--restart-id", "rst-b", str(packet)), "digest.mismatch", registry)


def test_a_packet_whose_own_digest_agrees_is_recorded(tmp_path, registry):
    _, digest = write_packet(tmp_path, "rst-b")
    packet, _ = write_packet(tmp_path, "rst-b", digest_line=f"CHECKPOINT_DIGEST: {digest}\n")
    assert record(str(registry), "--restart-id", "rst-b", str(packet)).exit_code == 0


@pytest.mark.parametrize(("content", "code"), [
    ("\ufeffrevision: 1\n", "load.bom"), ("revision: 1\nrevision: 2\n", "load.duplicate_key"),
    ("kind: registry\n", "digest.no_revision"), ("revision: -1\n", "digest.no_revision"),
    ("- a\n", "digest.no_revision"),
])
def test_unusable_registries_are_refused_with_a_code_and_left_alone(tmp_path, content, code):
    registry = tmp_path / "registry.yaml"
    registry.write_text(content)
    packet, _ = write_packet(tmp_path, "rst-b")
    result = record(str(registry), "--restart-id", "rst-b", str(packet))
    assert result.exit_code in (1, 2)
    assert code in result.stderr
    assert registry.read_text() == content


def test_a_missing_registry_exits_2(tmp_path):
    packet, _ = write_packet(tmp_path, "rst-b")
    result = record(str(tmp_path / "registry.yaml"), "--restart-id", "rst-b", str(packet))
    assert result.exit_code == 2
    assert "load.unreadable" in result.stderr


def test_the_example_registry_already_holds_the_example_packets_digest(tmp_path):
    for name in ("registry.yaml", "continuation.packet.txt"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    before = (tmp_path / "registry.yaml").read_bytes()
    result = record(str(tmp_path / "registry.yaml"), "--restart-id", RESTART_ID, "--format", "json",
                    str(tmp_path / "continuation.packet.txt"))
    assert result.exit_code == 0
    assert json.loads(result.output)["changed"] is False
    assert (tmp_path / "registry.yaml").read_bytes() == before


def _spawn(registry, packet, restart_id, expect=None):
    args = [sys.executable, "-m", "passdown", "digest", "--record", str(registry), "--restart-id", restart_id]
    if expect is not None:
        args += ["--expect-revision", str(expect)]
    return subprocess.Popen([*args, str(packet)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _finish(process):
    _, stderr = process.communicate(timeout=60)
    return process.returncode, stderr


def _many_attempts(count):
    attempts = "".join(f"  - restart_id: rst-{i}\n    state: registered\n" for i in range(count))
    return f"# shared registry\nkind: registry\nrevision: 0\nattempts:\n{attempts}"


def test_concurrent_writers_never_lose_an_update(tmp_path):
    count = 8
    registry = tmp_path / "registry.yaml"
    registry.write_text(_many_attempts(count))
    digests = {}
    processes = []
    for i in range(count):
        packet, digests[f"rst-{i}"] = write_packet(tmp_path, f"rst-{i}", name=f"p{i}.txt")
        processes.append(_spawn(registry, packet, f"rst-{i}"))
    results = [_finish(p) for p in processes]
    assert [code for code, _ in results] == [0] * count, results
    from passdown.formats._loading import load_path

    data = load_path(str(registry), syntax="yaml")[0].data
    assert data["revision"] == count
    assert {a["restart_id"]: a["checkpoint_digest"] for a in data["attempts"]} == digests
    assert registry.read_text().startswith("# shared registry\n")
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_concurrent_writers_expecting_one_revision_let_exactly_one_win(tmp_path):
    count = 6
    registry = tmp_path / "registry.yaml"
    registry.write_text(_many_attempts(count))
    processes = []
    for i in range(count):
        packet, _ = write_packet(tmp_path, f"rst-{i}", name=f"p{i}.txt")
        processes.append(_spawn(registry, packet, f"rst-{i}", expect=0))
    results = [_finish(p) for p in processes]
    assert sorted(code for code, _ in results) == [0] + [1] * (count - 1)
    for code, stderr in results:
        if code == 1:
            assert b"digest.revision_conflict" in stderr
    from passdown.formats._loading import load_path

    data = load_path(str(registry), syntax="yaml")[0].data
    assert data["revision"] == 1
    assert sum(1 for a in data["attempts"] if "checkpoint_digest" in a) == 1
