"""Many writers on one checkpoint: no update lost or doubled, every revision bumped exactly
once; with --expect-revision every update is applied or refused as a conflict, checked by
content. And a writer killed (SIGKILL) at random moments never leaves a torn or invalid file."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from authoring_support import checkpoint_of, errors_in, make_project

from passdown.errors import ConflictError
from passdown.authoring import update_checkpoint

WORKERS = 8
UPDATES = 50
_FORK = multiprocessing.get_context("fork")


def _read(path):
    with open(path) as handle:
        return json.load(handle)


# The workers skip the per-write validation (the final file is validated once): these tests
# are about the lock and the compare-and-swap, and validating a 400-item plan 400 times would
# only make them slow. bench/authoring_contention.py measures the validated path.
def _plain_worker(path, worker):
    for n in range(UPDATES):
        update_checkpoint(path, "add-pending", f"w{worker} u{n}", timeout=60, validate=False)


def _cas_worker(path, worker, results):
    applied, refused = [], []
    for n in range(UPDATES):
        title = f"w{worker} u{n}"
        revision = _read(path)["x-passdown/checkpoint"]["revision"]
        try:
            update_checkpoint(path, "add-pending", title, expect_revision=revision, timeout=60,
                              validate=False)
        except ConflictError as error:
            assert error.code == "authoring.revision_conflict"
            refused.append(title)
        else:
            applied.append(title)
    results.put((applied, refused))


def _titles(path):
    items = _read(path)["plan"]["items"]
    return [item["title"] for item in items[1:]]  # the first is init's step


def _run(target, args_for):
    processes = [_FORK.Process(target=target, args=args_for(w)) for w in range(WORKERS)]
    for process in processes:
        process.start()
    return processes


def test_eight_writers_lose_and_double_nothing(tmp_path):
    path = str(checkpoint_of(make_project(tmp_path)))
    processes = _run(_plain_worker, lambda w: (path, w))
    for process in processes:
        process.join(120)
        assert process.exitcode == 0
    titles = _titles(path)
    expected = {f"w{w} u{n}" for w in range(WORKERS) for n in range(UPDATES)}
    assert len(titles) == len(expected) == 400
    assert set(titles) == expected
    for w in range(WORKERS):  # each writer's own updates land in its order
        own = [t for t in titles if t.startswith(f"w{w} ")]
        assert own == [f"w{w} u{n}" for n in range(UPDATES)]
    assert _read(path)["x-passdown/checkpoint"]["revision"] == 1 + 400
    assert errors_in(path) == []


def test_with_expect_revision_every_update_is_applied_or_refused(tmp_path):
    path = str(checkpoint_of(make_project(tmp_path)))
    results = _FORK.Queue()
    processes = _run(_cas_worker, lambda w: (path, w, results))
    outcomes = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(120)
        assert process.exitcode == 0
    applied = [t for a, _ in outcomes for t in a]
    refused = [t for _, r in outcomes for t in r]
    assert len(applied) + len(refused) == 400
    titles = _titles(path)
    assert sorted(titles) == sorted(applied)  # every applied one present, exactly once
    assert not set(refused) & set(titles)  # no refused one slipped in
    assert refused, "eight writers on one file should conflict at least once"
    assert _read(path)["x-passdown/checkpoint"]["revision"] == 1 + len(applied)


def test_cli_writers_in_subprocesses(tmp_path):
    path = checkpoint_of(make_project(tmp_path))
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    runs = [subprocess.Popen(
        [sys.executable, "-c",
         "import subprocess, sys\n"
         f"for n in range(4):\n"
         f"    subprocess.run([sys.executable, '-m', 'passdown', 'checkpoint', 'add-pending', "
         f"'cli w{w} u' + str(n), '--checkpoint', {str(path)!r}], check=True, "
         f"capture_output=True)\n"], env=env) for w in range(4)]
    for process in runs:
        assert process.wait(120) == 0
    titles = _titles(path)
    assert sorted(titles) == sorted(f"cli w{w} u{n}" for w in range(4) for n in range(4))
    assert json.loads(path.read_text())["x-passdown/checkpoint"]["revision"] == 1 + 16
    assert errors_in(path) == []


def _crash_writer(path, started):
    started.set()
    n = 0
    while True:
        update_checkpoint(path, "add-pending", f"crash step {os.getpid()} {n}", timeout=60)
        n += 1


def test_a_writer_killed_at_random_points_never_leaves_a_torn_file(tmp_path):
    project = make_project(tmp_path)
    path = checkpoint_of(project)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    rng = random.Random(20261014)
    revision = 1
    for _ in range(40):
        started = _FORK.Event()
        process = _FORK.Process(target=_crash_writer, args=(str(path), started))
        process.start()
        started.wait(10)
        time.sleep(rng.uniform(0.0, 0.03))
        os.kill(process.pid, signal.SIGKILL)
        process.join(10)
        document = json.loads(path.read_text())  # parses: never torn
        block = document["x-passdown/checkpoint"]
        assert block["revision"] >= revision
        revision = block["revision"]
        # each completed write added exactly one step and one revision: nothing half-applied
        assert len(document["plan"]["items"]) == revision
        assert errors_in(path) == []
    # the kernel released the dead writers' locks: the next update goes through
    assert update_checkpoint(path, "add-pending", "after the crashes", timeout=5).revision \
        == revision + 1
    # and it swept away the temporary files the killed writers left behind; the lock and
    # the temporary files live in .passdown/, which git never shows
    assert sorted(p.name for p in path.parent.iterdir()) == [".passdown", "continue.xbrief.json"]
    assert sorted(p.name for p in (path.parent / ".passdown").iterdir()) == [
        ".gitignore", "continue.xbrief.json.lock"]
    status = subprocess.run(["git", "-C", str(project), "status", "--porcelain",
                             "--untracked-files=all"], capture_output=True, text=True, check=True)
    assert status.stdout.splitlines() == ["?? registry.yaml", "?? xbrief/continue.xbrief.json"]


@pytest.mark.parametrize("registry_format", ["yaml", "json"])
def test_registry_writers_do_not_lose_attempt_steps(tmp_path, registry_format):
    """Two sessions race to record the same creation receipt: one applies, the other is a
    no-op (same content), the revision moves once."""
    from authoring_support import registry_of

    from passdown.authoring import SourceFacts, attempt_step, render_packet

    project = make_project(tmp_path, registry_format=registry_format)
    outcome = render_packet(project, source=SourceFacts(source_id="sess-a"))
    restart_id = outcome.result["restart_id"]
    registry = str(registry_of(project))
    results = _FORK.Queue()

    def record(_):
        step = attempt_step(registry, "created", restart_id, target_id="sess-b", timeout=60)
        results.put(step.changed)

    processes = [_FORK.Process(target=record, args=(w,)) for w in range(WORKERS)]
    for process in processes:
        process.start()
    changed = [results.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(60)
    assert sorted(changed) == [False] * (WORKERS - 1) + [True]
    assert errors_in(registry) == []
