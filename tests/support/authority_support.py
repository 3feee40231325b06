"""Two machines handing over one goal, for the ownership-authority tests: clones of one bare
remote (each standing for a machine), a registry in each whose attempt is acknowledged by its
own target for the same source, ``passdown attempt commit`` run in both at once as processes
of their own, and a real etcd server on a loopback port with a data folder of its own."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from click.testing import CliRunner
from git_support import git

from passdown.authoring import Identity, Policy, _attempt, _registry, init
from passdown.cli import cli

DIGEST = "blake3:" + "ab" * 32
ACK_DIGEST = "blake3:" + "cd" * 32
GOAL = "goal-ledger"


def bare_with_clones(root: Path, names) -> tuple[Path, list[Path]]:
    """A bare repository with one commit, and one clone of it per name."""
    seed = root / "seed"
    seed.mkdir(parents=True)
    git(seed, "init", "-q", "-b", "main")
    (seed / "README.md").write_text("# ledger\n")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "base")
    bare = root / "remote.git"
    git(root, "clone", "-q", "--bare", seed, bare)
    clones = []
    for name in names:
        git(root, "clone", "-q", bare, root / name)
        clones.append(root / name)
    return bare, clones


def project(folder: Path, source: str) -> Path:
    """A handoff folder made by ``passdown init`` (its checkpoint and ``registry.json``),
    ``source`` its MAIN session."""
    init(folder, Identity(goal_id=GOAL, main_id=source, outcome="the ledger parses csv",
                          first_step="Parse quoted fields"),
         Policy(mode="adaptive", authorization_scope="restarts of MAIN"), registry_format="json")
    return folder


def acknowledged_registry(folder: Path, *, source: str, target: str, restart_id: str,
                          epoch: int, policy_authority: dict | None = None,
                          goal: str = GOAL) -> Path:
    """``folder/registry.json``: ``source`` owns the goal at ``epoch``, and the attempt
    ``restart_id`` to ``target`` is acknowledged (the state `attempt commit` starts from)."""
    registry = _registry.new_registry(goal_id=goal, main_id=source,
                                      checkpoint_path="xbrief/continue.xbrief.json",
                                      mode="adaptive", authorization_scope="restarts of MAIN")
    registry["fencing_epoch"] = epoch
    if policy_authority is not None:
        registry["policy"]["authority"] = policy_authority
    _attempt.register(registry, source_id=source, checkpoint_digest=DIGEST,
                      restart_id=restart_id)
    _attempt.created(registry, restart_id, target_id=target)
    _attempt.acknowledge(registry, restart_id, ack_digest=ACK_DIGEST)
    path = folder / "registry.json"
    path.write_text(json.dumps(registry, indent=2) + "\n")
    return path


def passdown(*args, cwd=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "passdown", *map(str, args)], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def finish(process: subprocess.Popen) -> tuple[int, dict]:
    out, err = process.communicate(timeout=120)
    try:
        return process.returncode, json.loads(out)
    except ValueError:
        raise AssertionError(f"not JSON (exit {process.returncode}): {out}{err}") from None


def race(registries, restart_ids, *options) -> list[tuple[int, dict]]:
    """``attempt commit`` on every registry at once; each one's exit status and JSON."""
    running = [passdown("attempt", "commit", restart_id, "--registry", path, *options,
                        "--format", "json")
               for path, restart_id in zip(registries, restart_ids)]
    return [finish(process) for process in running]


def run(*args) -> tuple[int, dict]:
    """``passdown ARGS --format json`` in this process (the races use processes of their own)."""
    result = CliRunner().invoke(cli, [*map(str, args), "--format", "json"],
                                catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


def load(path: Path) -> dict:
    return json.loads(path.read_text())


# -- etcd ------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Etcd:
    """One etcd member on loopback ports, its data in ``folder``; started and stopped here."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.client, self.peer = free_port(), free_port()
        self.endpoint = f"http://127.0.0.1:{self.client}"
        self.process = None

    def start(self) -> "Etcd":
        peer = f"http://127.0.0.1:{self.peer}"
        self.log = open(self.folder / "etcd.log", "ab")
        self.process = subprocess.Popen(
            [shutil.which("etcd"), "--name", "t", "--data-dir", str(self.folder / "data"),
             "--listen-client-urls", self.endpoint, "--advertise-client-urls", self.endpoint,
             "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
             "--initial-cluster", f"t={peer}"], stdout=self.log, stderr=self.log,
            start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.endpoint + "/health", timeout=1) as answer:
                    if b"true" in answer.read():
                        return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError("etcd did not start: " + (self.folder / "etcd.log").read_text())

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(30)
        self.process = None
        if getattr(self, "log", None):
            self.log.close()
            self.log = None

    def call(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.endpoint + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.loads(answer.read())


def etcd_required() -> None:
    """Skip, saying why, where the etcd program is not installed (.ci/run installs it)."""
    import pytest

    if shutil.which("etcd") is None:
        pytest.skip("etcd is not installed (Debian: apt-get install etcd-server; .ci/run "
                    "installs it)")
