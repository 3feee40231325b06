"""``passdown observe claude|codex`` on real session files (tests/data/hosts/MANIFEST.md): the
context size of the latest main-thread call read from the tail, the session's id, start,
model and capacity from its records, each labelled, and bad input of every kind refused with
a code, never a traceback or a hang (spec/hosts.md HST-100 to HST-108)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from passdown.hosts import _compactions, _observe, _session_file, _startup
from passdown.hosts._claude_transcript import latest_call

DATA = Path(__file__).resolve().parents[1] / "data" / "hosts"
CLAUDE = DATA / "claude" / "session-2.1.39.jsonl"
SIDECHAIN = DATA / "claude" / "sidechain-2.0.46.jsonl"
CODEX = DATA / "codex" / "rollout-0.125.0.jsonl"
EDITS = DATA / "claude" / "edits-2.1.39.jsonl"
NOW = "2026-12-04T00:00:00Z"


def lines(path):
    return path.read_bytes().split(b"\n")[:-1]


def observe(host, path, folder, **kwargs):
    return _observe.observe(host, str(path), folder=str(folder), now=NOW, **kwargs)


def field(found, name):
    return found["fields"][name]["value"], found["fields"][name]["basis"]


def test_claude_reads_the_last_main_thread_call(tmp_path):
    found = observe("claude", CLAUDE, tmp_path)
    # the last assistant record: 1 + 7,330 + 98,729 (input, cache creation, cache read)
    assert field(found, "current_input_tokens") == (106060, "measured")
    assert found["session_id"]["value"] == "4d5611e5-241a-462a-8d15-5122611a9569"
    assert found["started_at"]["value"] == "2026-02-12T16:02:23.545Z"
    assert found["model"]["value"] == "claude-opus-4-6"
    assert field(found, "session_age_seconds") == (25430256, "measured")
    assert field(found, "context_capacity_tokens") == (None, "unknown")
    assert field(found, "compactions") == (None, "unknown")
    # the first call of the session: 3 + 15,005 + 11,442
    assert found["startup_observed"]["value"] == 26450
    assert found["bytes_read"] == found["file_bytes"] == CLAUDE.stat().st_size


def test_a_sidechain_call_after_the_main_thread_is_not_the_context(tmp_path):
    found = observe("claude", SIDECHAIN, tmp_path)
    assert field(found, "current_input_tokens") == (141275, "measured")


def test_after_a_compaction_with_no_call_since_the_size_is_unknown(tmp_path):
    cut = tmp_path / "cut.jsonl"
    kept = lines(CLAUDE)
    boundary = next(i for i, line in enumerate(kept) if b'"compact_boundary"' in line)
    cut.write_bytes(b"\n".join(kept[:boundary + 1]) + b"\n")
    found = observe("claude", cut, tmp_path)
    assert field(found, "current_input_tokens") == (None, "unknown")
    assert found["fields"]["current_input_tokens"]["source"] == \
        "a compaction came after the latest call: no call since"


def test_codex_reads_the_latest_token_count(tmp_path):
    found = observe("codex", CODEX, tmp_path)
    assert field(found, "current_input_tokens") == (131573, "measured")
    assert field(found, "context_capacity_tokens") == (258400, "measured")
    assert found["model"]["value"] == "gpt-5.5"
    assert found["session_id"]["value"] == "019e1625-789d-76c0-80ab-3724b5ddb799"
    assert found["started_at"]["value"] == "2026-05-11T08:26:55.042Z"
    assert found["startup_observed"]["value"] == 18703


def test_codex_after_a_compaction_the_size_is_unknown(tmp_path):
    cut = tmp_path / "rollout.jsonl"
    # the shape public Codex readers keep as their compaction record (MANIFEST.md)
    cut.write_bytes(CODEX.read_bytes() + b'{"timestamp":"2026-05-11T08:45:00.000Z","type":'
                    b'"compacted","payload":{"message":""}}\n')
    found = observe("codex", cut, tmp_path)
    assert field(found, "current_input_tokens") == (None, "unknown")


def repeated(target, source, megabytes):
    """A large file of real shape: the source's head, its middle repeated, its tail."""
    kept = lines(source)
    head, middle, tail = kept[:10], kept[10:-12], kept[-12:]
    chunk = b"\n".join(middle) + b"\n"
    with open(target, "wb") as out:
        out.write(b"\n".join(head) + b"\n")
        for _ in range(megabytes * (1 << 20) // len(chunk) + 1):
            out.write(chunk)
        out.write(b"\n".join(tail) + b"\n")


@pytest.mark.parametrize("host, source", [("claude", CLAUDE), ("codex", CODEX)])
def test_a_large_file_gives_the_same_answer_from_a_bounded_read(tmp_path, host, source):
    big = tmp_path / "big.jsonl"
    repeated(big, source, 12)
    small, large = observe(host, source, tmp_path), observe(host, big, tmp_path)
    assert large["fields"]["current_input_tokens"] == small["fields"]["current_input_tokens"]
    assert large["session_id"] == small["session_id"]
    assert large["file_bytes"] > 12 << 20
    assert large["bytes_read"] < 1 << 20  # the head and a few blocks of the tail


def test_the_tail_stops_at_its_bound(tmp_path):
    far = tmp_path / "far.jsonl"
    kept = lines(CLAUDE)
    progress = next(line for line in kept if b'"type":"progress"' in line)
    far.write_bytes(b"\n".join(kept[:9]) + b"\n" + (progress + b"\n") * 2000)
    with _session_file.SessionFile(far, tail_bytes=64 * 1024) as session_file:
        assert latest_call(session_file.tail()) is None
        assert session_file.tail_exhausted is True
        assert session_file.bytes_read == 64 * 1024


def test_a_half_written_last_line_is_skipped_and_counted(tmp_path):
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(CLAUDE.read_bytes() + b'{"parentUuid":"x","type":"assis')
    found = observe("claude", torn, tmp_path)
    assert field(found, "current_input_tokens") == (106060, "measured")
    assert found["records_skipped"] == 1


@pytest.mark.parametrize("block", [7, 100, 4096])
@pytest.mark.parametrize("source", [CLAUDE, SIDECHAIN, CODEX, EDITS])
def test_the_tail_is_every_record_newest_first_whatever_the_block_size(monkeypatch, source, block):
    # blocks far shorter than the lines: most lines span many blocks, joined once each
    monkeypatch.setattr(_session_file, "BLOCK_BYTES", block)
    with _session_file.SessionFile(source) as session_file:
        assert list(session_file.tail()) == [json.loads(line) for line in reversed(lines(source))]
        assert session_file.bytes_read == source.stat().st_size


def test_a_line_of_many_blocks_costs_its_length_not_its_square(tmp_path):
    """A 12 MiB tool result on one line after the latest call (a large file read, an image):
    the tail joins the line's blocks once, in about the time of reading and parsing it."""
    kept = lines(CLAUDE)
    result = {"type": "user", "isSidechain": False, "timestamp": "2026-02-12T21:04:00.000Z",
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
                                                       "content": "a" * (12 << 20)}]}}
    long_line = json.dumps(result).encode()
    big = tmp_path / "long-line.jsonl"
    big.write_bytes(b"\n".join(kept) + b"\n" + long_line + b"\n")
    start = time.perf_counter()
    assert json.loads(big.read_bytes().split(b"\n")[-2]) == result  # the least work possible
    least = time.perf_counter() - start
    start = time.perf_counter()
    with _session_file.SessionFile(big) as session_file:
        call = latest_call(session_file.tail())
    took = time.perf_counter() - start
    assert call[0] == 106060  # the latest call, before the long line
    assert took < 5 * least + 0.25, (took, least)


@pytest.mark.parametrize("make, code", [
    (lambda p: None, "observe.no_transcript"),
    (lambda p: p.mkdir(), "observe.no_transcript"),
    (lambda p: os.mkfifo(p), "observe.no_transcript"),
    (lambda p: p.write_bytes(b""), "observe.not_a_transcript"),
    (lambda p: p.write_bytes(b"not json\n[1, 2]\n" + b"[" * 100000 + b"\n"), "observe.not_a_transcript"),
    (lambda p: p.write_bytes(CODEX.read_bytes()), "observe.not_a_transcript"),
])
def test_bad_input_is_refused_with_a_code(tmp_path, make, code):
    path = tmp_path / "session.jsonl"
    make(path)
    with pytest.raises(_observe.ObserveError) as raised:
        observe("claude", path, tmp_path)
    assert raised.value.code == code


def test_the_compactions_the_hook_counted_are_measured(tmp_path):
    session = "4d5611e5-241a-462a-8d15-5122611a9569"
    assert _compactions.record(str(tmp_path), "claude", session, "auto") == 1
    assert _compactions.record(str(tmp_path), "claude", session, "manual") == 2
    found = observe("claude", CLAUDE, tmp_path)
    assert field(found, "compactions") == (2, "measured")
    (tmp_path / ".passdown" / "compactions.json").write_bytes(b"{not json")
    assert field(observe("claude", CLAUDE, tmp_path), "compactions") == (None, "unknown")
    assert _compactions.record(str(tmp_path), "claude", session) == 1


def checkpoint(folder, required_inputs):
    path = folder / "xbrief" / "continue.xbrief.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"x-passdown/checkpoint": {"next_action": {
        "item_id": "a", "summary": "go", "required_inputs": required_inputs}}}))
    return path


def test_the_fresh_start_up_is_an_estimate_of_stated_fragments(tmp_path):
    (tmp_path / "CLAUDE.md").write_bytes(b"x" * 400)
    (tmp_path / "big.log").write_bytes(b"y" * (_startup.FRAGMENT_BOUND_BYTES + 1))
    size = checkpoint(tmp_path, ["big.log"]).stat().st_size
    found = observe("claude", CLAUDE, tmp_path, workspace=str(tmp_path),
                    environ={"HOME": str(tmp_path / "home")})
    startup = found["startup"]
    expected = (_startup.tokens_of(400) + 20000 + _startup.tokens_of(size) + 4096 + 1024
                + _startup.tokens_of(_startup.FRAGMENT_BOUND_BYTES + 1))
    assert field(found, "fresh_input_tokens") == (expected, "estimated")
    assert startup["oversized"] == [str(tmp_path / "big.log")]
    assert startup["method"] == "bytes / 4 plus the host's stated allowance"


def test_a_missing_required_input_leaves_the_total_unknown(tmp_path):
    checkpoint(tmp_path, ["gone.txt"])
    found = observe("claude", CLAUDE, tmp_path, workspace=str(tmp_path),
                    environ={"HOME": str(tmp_path / "home")})
    assert field(found, "fresh_input_tokens") == (None, "unknown")
    assert found["startup"]["partial_tokens"] > 0
    assert found["startup"]["fragments"][-1]["note"] == "missing: size unknown"


def test_a_calibration_factor_scales_the_estimate(tmp_path):
    checkpoint(tmp_path, [])
    plain = observe("claude", CLAUDE, tmp_path, environ={"HOME": str(tmp_path)})
    registry = {"calibration": {"records": [{"restart_id": "R", "factor": 1.5}]}}
    scaled = observe("claude", CLAUDE, tmp_path, registry=registry, environ={"HOME": str(tmp_path)})
    assert field(scaled, "fresh_input_tokens")[0] == round(field(plain, "fresh_input_tokens")[0] * 1.5)
    assert scaled["startup"]["method"].endswith("times the calibration factor 1.5")


def run(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "passdown", *args], capture_output=True,
                          env={**os.environ, **(env or {})}, cwd=cwd, timeout=60)


def test_the_command_finds_a_session_in_the_hosts_own_folders(tmp_path):
    project = tmp_path / "work" / "my app"
    project.mkdir(parents=True)
    claude = tmp_path / "claude-config" / "projects" / str(project).replace("/", "-").replace(" ", "-")
    claude.mkdir(parents=True)
    (claude / "4d5611e5-241a-462a-8d15-5122611a9569.jsonl").write_bytes(CLAUDE.read_bytes())
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude-config")}
    by_project = run("observe", "claude", "--project", str(project), "--format", "json", env=env,
                     cwd=tmp_path)
    by_session = run("observe", "claude", "--session", "4d5611e5-241a-462a-8d15-5122611a9569",
                     "--format", "json", env=env, cwd=tmp_path)
    for done in (by_project, by_session):
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["fields"]["current_input_tokens"]["value"] == 106060
    codex = tmp_path / "codex-home" / "sessions" / "2026" / "05" / "11"
    codex.mkdir(parents=True)
    (codex / "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl").write_bytes(
        CODEX.read_bytes())
    found = run("observe", "codex", "--session", "019e1625-789d-76c0-80ab-3724b5ddb799",
                env={"CODEX_HOME": str(tmp_path / "codex-home")}, cwd=tmp_path)
    assert found.returncode == 0, found.stderr
    assert "current_input_tokens           131573  measured" in found.stdout.decode()


def test_the_command_refuses_with_a_code_and_a_hint(tmp_path):
    missing = run("observe", "claude", "--session", "nope", cwd=tmp_path,
                  env={"CLAUDE_CONFIG_DIR": str(tmp_path)})
    assert missing.returncode == 2
    assert missing.stderr.decode() == (
        "passdown: error: observe.no_session: no Claude Code session file found for session "
        "nope\n  hint: pass the session file with --transcript FILE\n")
    wrong = run("observe", "codex", "--transcript", str(CLAUDE), "--format", "json", cwd=tmp_path)
    assert wrong.returncode == 2
    assert json.loads(wrong.stdout)["error"]["code"] == "observe.not_a_transcript"
    both = run("observe", "claude", "--transcript", str(CLAUDE), "--session", "x", cwd=tmp_path)
    assert both.returncode == 2
