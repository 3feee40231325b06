"""Large folder walks check their files in worker processes: the report is the one a serial
walk gives, finding for finding, in the same order."""

import json
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
