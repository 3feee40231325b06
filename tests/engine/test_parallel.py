"""Large folder walks check their files in worker processes: the report is the one a serial
walk gives, finding for finding, in the same order."""

import json
import os
import pickle
import shutil
from pathlib import Path

import pytest

from passdown.engine import _validate
from passdown import validate_paths

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "handoff"


@pytest.fixture
def many_handoffs(tmp_path):
    checkpoint = json.loads((EXAMPLE / "xbrief" / "continue.xbrief.json").read_text())
    for index in range(_validate.PARALLEL_MIN_FILES // 2 + 10):
        folder = tmp_path / f"h{index:03}"
        shutil.copytree(EXAMPLE, folder)
        if index % 7 == 0:  # some invalid, so findings travel back from the workers
            broken = dict(checkpoint, plan=dict(checkpoint["plan"], status="nonsense"))
            (folder / "xbrief" / "continue.xbrief.json").write_text(json.dumps(broken))
    return tmp_path


def _rows(report):
    return [(f.file, f.code, f.json_path, f.line) for f in report.findings]


def test_a_parallel_walk_reports_exactly_what_a_serial_walk_does(many_handoffs, monkeypatch):
    threshold = _validate.PARALLEL_MIN_FILES
    parallel = validate_paths([many_handoffs])
    monkeypatch.setattr(_validate, "PARALLEL_MIN_FILES", 10**9)
    serial = validate_paths([many_handoffs])
    assert len(serial.files) > threshold
    assert parallel.files == serial.files
    assert _rows(parallel) == _rows(serial)
    assert any(code == "schema.enum" for _, code, _, _ in _rows(serial))


def test_named_files_are_checked_in_workers_too_and_keep_their_order(many_handoffs, monkeypatch):
    files = sorted(str(p) for p in many_handoffs.rglob("continue.xbrief.json"))
    files += files[:3]  # a file named twice is checked once
    threshold = _validate.PARALLEL_MIN_FILES
    assert len(set(files)) < threshold < 2 * len(set(files)) + 100
    named = files + sorted(str(p) for p in many_handoffs.rglob("ack.json"))
    parallel = validate_paths(named)
    monkeypatch.setattr(_validate, "PARALLEL_MIN_FILES", 10**9)
    serial = validate_paths(named)
    unique = tuple(dict.fromkeys(named))
    assert parallel.files == serial.files
    assert parallel.files[:len(unique)] == unique
    # the named files' handoff folders get their cross-file rules: the broken checkpoints no
    # longer match the digest their registry recorded, reported on those registries
    partners = parallel.files[len(unique):]
    assert partners and all(path.endswith("registry.yaml") for path in partners)
    assert {f.code for f in parallel.findings if f.file in partners} == {"crossfile.checkpoint_changed"}
    assert _rows(parallel) == _rows(serial)


def test_lone_checkpoints_beside_handoffs_report_as_a_serial_walk_does(tmp_path, monkeypatch):
    """Workers send back only the findings and kind of a file no handoff folder can hold
    (by its name); the handoff folders keep their artifacts for the cross-file rules."""
    checkpoint = json.loads((EXAMPLE / "xbrief" / "continue.xbrief.json").read_text())
    for index in range(_validate.PARALLEL_MIN_FILES + 10):
        folder = tmp_path / f"f{index:03}"
        if index % 2:
            shutil.copytree(EXAMPLE, folder)
        else:
            (folder / "xbrief").mkdir(parents=True)
        if index % 5 == 0:  # some checkpoints broken: schema findings, and digests changed
            broken = dict(checkpoint, plan=dict(checkpoint["plan"], status="nonsense"))
            (folder / "xbrief" / "continue.xbrief.json").write_text(json.dumps(broken))
        else:
            shutil.copy(EXAMPLE / "xbrief" / "continue.xbrief.json", folder / "xbrief")
    parallel = validate_paths([tmp_path])
    monkeypatch.setattr(_validate, "PARALLEL_MIN_FILES", 10**9)
    serial = validate_paths([tmp_path])
    assert parallel.files == serial.files and parallel.kinds == serial.kinds
    assert _rows(parallel) == _rows(serial)
    codes = {code for _, code, _, _ in _rows(serial)}
    assert {"schema.enum", "crossfile.checkpoint_changed"} <= codes


def _found(top):
    """``(folder, path)`` of every artifact under ``top``, as the walk lists them."""
    return [(str(path.parent), str(path)) for path in sorted(Path(top).rglob("*"))
            if path.is_file() and _validate._detect.by_filename(path.name) is not None]


def test_a_handoff_folder_is_one_work_unit_and_a_lone_file_its_own(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "h")
    (tmp_path / "lone").mkdir()
    shutil.copy(EXAMPLE / "xbrief" / "continue.xbrief.json", tmp_path / "lone")
    found = _found(tmp_path)
    kinds = {}
    for folder, path in found:
        kinds.setdefault(folder, set()).add(_validate._detect.by_filename(Path(path).name).name)
    units = _validate._units(found, _validate._handoff_groups(kinds))
    by_files = sorted(sorted(Path(found[i][1]).relative_to(tmp_path).as_posix() for i in unit)
                      for unit in units)
    assert by_files == [["h/ack.json", "h/continuation.packet.txt", "h/registry.yaml",
                         "h/xbrief/continue.xbrief.json"], ["lone/continue.xbrief.json"]]


def test_work_goes_out_by_cost_the_costliest_first_in_batches_of_about_equal_cost(tmp_path):
    """A walk's batches follow the estimated cost of each unit, not its position: a large
    registry found last is handed out first, alone, and every unit goes out exactly once."""
    paths = []
    for index in range(200):
        path = tmp_path / f"c{index:03}.xbrief.json"
        path.write_text("{}")
        paths.append(str(path))
    big = tmp_path / "zz" / "registry.yaml"
    big.parent.mkdir()
    big.write_text("attempts:\n" + "  - epoch: 1\n" * 200_000)
    paths.append(str(big))
    units = [[index] for index in range(len(paths))]
    costs = [_validate._unit_cost(unit, paths) for unit in units]
    assert costs[-1] > sum(costs[:-1])  # the registry outweighs every checkpoint together
    batches = _validate._batches(units, paths, 2)
    assert batches[0] == [len(paths) - 1]
    handed = [number for batch in batches for number in batch]
    assert sorted(handed) == list(range(len(units)))
    assert [costs[n] for n in handed] == sorted((costs[n] for n in handed), reverse=True)
    share = sum(costs) / (_validate._BATCHES_PER_PROCESS * 2)
    assert all(sum(costs[n] for n in batch) - max(costs[n] for n in batch) < share
               for batch in batches)
    folder_unit = [len(paths) - 1, 0]  # several files: the cross-file rules are counted too
    assert _validate._unit_cost(folder_unit, paths) == costs[-1] + costs[0] + _validate._CROSSFILE_COST


def test_a_unit_releases_its_artifacts_when_its_folder_is_done(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "h")
    checkpoint = tmp_path / "h" / "xbrief" / "continue.xbrief.json"
    checkpoint.write_text(checkpoint.read_text().replace('"revision": 7', '"revision": 8'))
    found = _found(tmp_path)
    outcomes, handoffs = _validate._check_unit(found, None, _validate.DEFAULT_MAX_BYTES)
    assert len(outcomes) == 4 and all(o.kind for o in outcomes)
    assert all(o.artifact is None and o.syntax is None and o.text_lines is None for o in outcomes)
    assert [folder for folder, _ in handoffs] == [str(tmp_path / "h")]
    codes = {f.code for o in outcomes for f in o.findings} | {
        f.code for _, own in handoffs for o in own for f in o.findings}
    assert "crossfile.checkpoint_changed" in codes


def _sent_by_a_worker(message: bytes, status: int):
    """``(pid, read end)`` of a forked process that writes ``message`` and exits ``status``."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(reader)
            with os.fdopen(writer, "wb") as pipe:
                pipe.write(message)
        finally:
            os._exit(status)
    os.close(writer)
    return pid, reader


def test_a_workers_answers_come_one_pickle_per_batch_and_a_damaged_message_is_worked_here():
    batches = [[(0, "checkpoint"), (2, "ack")], [(1, "registry")]]
    whole = b"".join(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL) for batch in batches)
    assert _validate._received(*_sent_by_a_worker(whole, 0)) == batches[0] + batches[1]
    assert _validate._received(*_sent_by_a_worker(b"", 0)) == []
    assert _validate._received(*_sent_by_a_worker(whole[:-3], 1)) is None  # died mid-message
    assert _validate._received(*_sent_by_a_worker(b"not a pickle" * 10_000, 0)) is None


def test_a_walk_keeps_a_clean_files_kind_alone_until_every_process_is_done():
    clean = _validate._Outcome("worker/copy", kind="ack")
    assert _validate._packed(clean) == "ack"
    assert _validate._unpacked("ack", "a/ack.json") == _validate._Outcome("a/ack.json", kind="ack")
    found = _validate._Outcome("worker/copy", kind="ack", findings=["a finding"])
    assert _validate._packed(found) is found
    assert _validate._unpacked(found, "a/ack.json").file == "a/ack.json"
