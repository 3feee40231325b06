"""``packet render`` against concurrent writers, with the interleavings forced by the
test-only pause points (passdown.workspace._testpoints), not left to timing: the packet, the
registered digests and the checkpoint always describe one revision, and the packet on disk
never names an attempt a later render superseded (spec/authoring.md, AUT-080).

Expected digests are computed here with json and blake3, never with the code under test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from authoring_support import checkpoint_of, make_project, registry_of
from blake3 import blake3
from ruamel.yaml import YAML

LOCK_WAIT = "lock.wait.continue.xbrief.json"


def jcs_digest(raw: bytes) -> str:
    """The blake3 digest of a checkpoint's canonical bytes (its keys are ASCII, its numbers
    integers: sorted compact JSON is then RFC 8785)."""
    data = json.loads(raw)
    return "blake3:" + blake3(json.dumps(data, sort_keys=True, separators=(",", ":"),
                                         ensure_ascii=False).encode()).hexdigest()


def packet_digest(text: str) -> str:
    lines = [line.rstrip(" \t") for line in text.split("\n") if not line.startswith("CHECKPOINT_DIGEST:")]
    while lines and lines[-1] == "":
        lines.pop()
    return "blake3:" + blake3("".join(line + "\n" for line in lines).encode()).hexdigest()


def field(text: str, key: str) -> str:
    return next(line.split(": ", 1)[1] for line in text.splitlines() if line.startswith(key + ": "))


class Points:
    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir()
        self.env = {**os.environ, "PASSDOWN_TEST_POINTS": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}

    def pause(self, name):
        (self.folder / f"{name}.pause").touch()

    def go(self, name):
        (self.folder / f"{name}.go").touch()

    def pids(self, name):
        path = self.folder / f"{name}.reached"
        return {int(line) for line in path.read_text().split()} if path.exists() else set()

    def start(self, *args, cwd):
        return subprocess.Popen([sys.executable, "-m", "passdown", *map(str, args)], cwd=cwd,
                                env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)

    def wait_until(self, condition, what, timeout=30.0):
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.01)


def finished(process) -> tuple[int, str]:
    out, err = process.communicate(timeout=60)
    return process.returncode, out + err


def registry(project):
    return YAML(typ="safe").load(registry_of(project).read_text())


def test_an_update_during_render_waits_and_the_digests_describe_the_revision_read(tmp_path):
    project = make_project(tmp_path / "p")
    points = Points(tmp_path / "points")
    checkpoint = checkpoint_of(project)
    points.pause("render.checkpoint_read")
    render = points.start("packet", "render", "--source-id", "sess-a", cwd=project)
    points.wait_until(lambda: render.pid in points.pids("render.checkpoint_read"),
                      "the render to read the checkpoint")
    read_by_render = checkpoint.read_bytes()
    update = points.start("checkpoint", "add-pending", "A late step", cwd=project)
    # the update cannot slip in between the render's read and its registration: it waits
    points.wait_until(lambda: update.pid in points.pids(LOCK_WAIT) or update.poll() is not None,
                      "the update to wait for the checkpoint's lock")
    assert update.poll() is None, "the update did not wait for the render"
    assert checkpoint.read_bytes() == read_by_render
    points.go("render.checkpoint_read")
    assert finished(render)[0] == 0
    assert finished(update)[0] == 0

    packet = (project / "continuation.packet.txt").read_text()
    [attempt] = registry(project)["attempts"]
    assert attempt["restart_id"] == field(packet, "RESTART_ID")
    assert attempt["checkpoint_digest"] == field(packet, "CHECKPOINT_DIGEST") == packet_digest(packet)
    assert attempt["continue_checkpoint_digest"] == jcs_digest(read_by_render)
    assert "A late step" not in packet  # rendered from the revision read, before the update
    after = checkpoint.read_bytes()
    assert json.loads(after)["x-passdown/checkpoint"]["revision"] == \
        json.loads(read_by_render)["x-passdown/checkpoint"]["revision"] + 1
    assert attempt["continue_checkpoint_digest"] != jcs_digest(after)


def test_concurrent_renders_never_leave_the_packet_naming_a_superseded_attempt(tmp_path):
    project = make_project(tmp_path / "p")
    points = Points(tmp_path / "points")
    points.pause("render.registered")
    first = points.start("packet", "render", "--source-id", "sess-a", cwd=project)
    points.wait_until(lambda: first.pid in points.pids("render.registered"),
                      "the first render to register its attempt")
    update = points.start("checkpoint", "add-pending", "A late step", cwd=project)
    points.wait_until(lambda: update.pid in points.pids(LOCK_WAIT) or update.poll() is not None,
                      "the update to wait")
    second = points.start("packet", "render", "--source-id", "sess-a", cwd=project)
    points.wait_until(lambda: second.pid in points.pids(LOCK_WAIT) or second.poll() is not None,
                      "the second render to wait")
    assert update.poll() is None and second.poll() is None, \
        "the update and the second render ran while the first render held its step"
    points.go("render.registered")
    for process in (first, update, second):
        code, output = finished(process)
        assert code == 0, output

    packet = (project / "continuation.packet.txt").read_text()
    attempts = {a["restart_id"]: a for a in registry(project)["attempts"]}
    named = attempts[field(packet, "RESTART_ID")]
    assert named["state"] == "registered"
    assert named["checkpoint_digest"] == packet_digest(packet)
    live = [a for a in attempts.values() if a["state"] != "abandoned"]
    assert live == [named]
    checkpoint = checkpoint_of(project).read_bytes()
    if "A late step" in packet:  # the update ran before the second render
        assert named["continue_checkpoint_digest"] == jcs_digest(checkpoint)
        assert len(attempts) == 2
    else:  # the second render reused the first attempt; the update came last
        assert len(attempts) == 1
        assert named["continue_checkpoint_digest"] != jcs_digest(checkpoint)
