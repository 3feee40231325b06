"""The input-safety reproducers, end to end: every content limit answers with its ``load.*``
code in every command that reads the file (never a traceback, never Python's own advice),
``1e400`` is refused one way by validation and authoring, and ``passdown digest`` of a device,
a FIFO, or a list naming one ends with a code instead of hanging or running out of memory.
Subprocess timeouts here are hang detectors, not speed claims."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from authoring_support import IDENTITY, POLICY
from blake3 import blake3

from passdown.authoring import SourceFacts, init, render_packet

DEADLINE = 60
LONG_INTEGER = "9" * 4301  # one digit past the bound (INP-013)
PYTHON_ADVICE = "set_int_max_str_digits"

needs_devices = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"),
                                   reason="needs FIFOs and /dev/zero (a POSIX system)")


def passdown(*args, cwd, stdin=None):
    result = subprocess.run([sys.executable, "-m", "passdown", *map(str, args)], cwd=cwd,
                            capture_output=True, text=True, timeout=DEADLINE,
                            input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)
    said = result.stdout + result.stderr
    assert "Traceback" not in said and PYTHON_ADVICE not in said, said
    return result.returncode, said


@pytest.fixture
def handoff(tmp_path) -> tuple[Path, str]:
    project = tmp_path / "project"
    init(project, IDENTITY, POLICY)
    restart_id = render_packet(project, source=SourceFacts(source_id="sess-a")).result["restart_id"]
    (project / "ack.json").write_text(json.dumps({
        "passdown_version": "1.0", "kind": "ack", "status": "READY_READONLY", "goal_id": "goal-parser",
        "restart_id": restart_id, "source_id": "sess-a", "target_id": "sess-b"}))
    return project, restart_id


def _registry_with(project: Path, line: str) -> None:
    registry = project / "registry.yaml"
    registry.write_text(registry.read_text().replace("\nrevision:", f"\n{line}\nrevision:", 1))


#: Each command reading the registry: every one answers an unreadable registry with the
#: loading code and exit status 2.
READERS_OF_THE_REGISTRY = [
    ("validate", "registry.yaml"),
    ("packet", "render", "--source-id", "sess-a"),
    ("attempt", "show"),
    ("attempt", "abandon", "RID", "--note", "n"),
    ("ack", "verify", "ack.json", "--packet", "continuation.packet.txt", "--registry",
     "registry.yaml", "--checkpoint", "xbrief/continue.xbrief.json"),
    ("digest", "registry.yaml"),
]


@pytest.mark.parametrize("command", READERS_OF_THE_REGISTRY, ids=lambda c: " ".join(c[:2]))
def test_a_yaml_integer_over_the_digit_bound_is_a_code_in_every_command(handoff, command):
    project, restart_id = handoff
    _registry_with(project, f"x-big: {LONG_INTEGER}")
    before = (project / "registry.yaml").read_bytes()
    args = [a.replace("RID", restart_id) for a in command]
    status, said = passdown(*args, cwd=project)
    assert "load.too_many_digits" in said, said
    assert status == 2, said
    assert (project / "registry.yaml").read_bytes() == before


@pytest.mark.parametrize("gate", ["validate", "digest"])
def test_a_yaml_integer_over_the_digit_bound_in_a_gate(tmp_path, gate):
    text = f"kind: registry\nn: {LONG_INTEGER}\n"
    envelope = {"kind": "registry", "name": "registry.yaml", "text": text} if gate == "validate" \
        else {"kind": "yaml", "text": text}
    status, said = passdown("gate", gate, cwd=tmp_path, stdin=json.dumps(envelope))
    assert "load.too_many_digits" in said
    assert status == (1 if gate == "validate" else 2)


CHECKPOINT_COMMANDS = [
    ("validate", "xbrief/continue.xbrief.json"),
    ("checkpoint", "decision", "Keep it"),
    ("checkpoint", "show"),
    ("consume",),
    ("packet", "render", "--source-id", "sess-a"),
    ("digest", "xbrief/continue.xbrief.json"),
]


@pytest.mark.parametrize(("value", "code"), [
    (LONG_INTEGER, "load.too_many_digits"),
    ("1e400", "load.non_finite"),
    ("-1e400", "load.non_finite"),
])
@pytest.mark.parametrize("command", CHECKPOINT_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_checkpoint_number_is_refused_one_way_by_every_command(handoff, command, value, code):
    # "x-foo/n": 1e400 once passed validate while authoring and digest refused it
    project, _ = handoff
    checkpoint = project / "xbrief" / "continue.xbrief.json"
    document = checkpoint.read_text()
    checkpoint.write_text(document.replace("{", '{"x-foo/n": ' + value + ", ", 1))
    before = checkpoint.read_bytes()
    status, said = passdown(*command, cwd=project)
    assert status == 2 and code in said, said
    assert checkpoint.read_bytes() == before


@needs_devices
@pytest.mark.parametrize("device", ["/dev/zero", "fifo", "zero-link"])
def test_digest_of_a_device_or_a_fifo_ends_with_a_code(tmp_path, device):
    os.mkfifo(tmp_path / "fifo")
    os.symlink("/dev/zero", tmp_path / "zero-link")
    for args in ([device], ["--kind", "raw", device], ["--kind", "json", device],
                 ["--canonical", device], ["--canonical", "--kind", "raw", device]):
        status, said = passdown("digest", *args, cwd=tmp_path)
        assert status == 2 and "load.not_regular" in said, (args, said)


@needs_devices
def test_digest_check_of_a_list_naming_devices_and_fifos_ends_with_codes(tmp_path):
    (tmp_path / "plain.txt").write_bytes(b"hello\n")
    os.mkfifo(tmp_path / "fifo")
    os.symlink("/dev/zero", tmp_path / "zero-link")
    zero = "blake3:" + "0" * 64
    listing = "".join(f"{digest}  {name}\n" for digest, name in [
        (zero, "fifo"), (zero, "/dev/zero"), (zero, "zero-link"),
        ("blake3:" + blake3(b"hello\n").hexdigest(), "plain.txt")])
    (tmp_path / "list.digest").write_text(listing)
    status, said = passdown("digest", "--check", "list.digest", cwd=tmp_path)
    assert status == 1
    assert said.splitlines()[:4] == ["fifo: FAILED (load.not_regular)",
                                     "/dev/zero: FAILED (load.not_regular)",
                                     "zero-link: FAILED (load.not_regular)",
                                     "plain.txt: OK"]
    # the list itself as a FIFO, and from stdin
    status, said = passdown("digest", "--check", "fifo", cwd=tmp_path)
    assert status == 2 and "load.not_regular" in said
    status, said = passdown("digest", "--check", "-", cwd=tmp_path, stdin=listing)
    assert status == 1 and "fifo: FAILED (load.not_regular)" in said


def test_digest_of_a_large_raw_file_streams_and_canonical_copies_it_through(tmp_path):
    big = tmp_path / "big.bin"
    with open(big, "wb") as handle:  # sparse: 64 MiB of zeros costs no disk
        handle.truncate(64 << 20)
    expected = blake3()
    expected.update(bytes(64 << 20))
    status, said = passdown("digest", "big.bin", cwd=tmp_path)
    assert status == 0 and said.split()[0] == "blake3:" + expected.hexdigest()
    result = subprocess.run([sys.executable, "-m", "passdown", "digest", "--canonical", "big.bin"],
                            cwd=tmp_path, capture_output=True, timeout=DEADLINE)
    assert result.returncode == 0 and len(result.stdout) == 64 << 20
    assert result.stdout.count(0) == 64 << 20


def test_digest_of_canonical_stdin_is_bounded(tmp_path):
    status, said = passdown("digest", "--kind", "json", "-", cwd=tmp_path,
                         stdin=" " * (10 * 1024 * 1024 + 1))
    assert status == 2 and "load.too_large" in said
