"""The procedure's checks on the files (rules/procedure.py, spec/procedure.md): the folder
rules that compare the checkpoint with the registry, and the one-file rules on cases the
conformance fixtures do not show."""

import json
import shutil
from pathlib import Path

import pytest

from passdown.formats._loading import load_path
from passdown import validate_paths
from passdown.rules import Artifact, rules_for

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "handoff"
CHECKPOINT = Path("xbrief") / "continue.xbrief.json"
CODES = {"crossfile.checkpoint_path", "crossfile.checkpoint_after_registration",
         "crossfile.consumed_checkpoint_handed_over", "crossfile.checkpoint_not_consumed"}


def found(folder):
    """``{(code, file name, json path)}`` of the folder's procedure findings."""
    report = validate_paths([str(folder)])
    return {(f.code, Path(f.file).name, f.json_path) for f in report.findings if f.code in CODES}


@pytest.fixture
def folder(tmp_path):
    """A copy of the example handoff whose registry is JSON, so tests can edit it as data."""
    target = tmp_path / "handoff"
    shutil.copytree(EXAMPLE, target)
    loaded, findings = load_path(str(target / "registry.yaml"), syntax="yaml")
    assert findings == []
    (target / "registry.yaml").unlink()
    _write(target / "registry.json", loaded.data)
    return target


def _read(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _write(path, data):
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _edit(path, change):
    data = _read(path)
    change(data)
    _write(path, data)


def _block(data):
    return data["x-passdown/checkpoint"]


def test_the_example_folder_passes_the_procedure_rules(folder):
    assert found(EXAMPLE) == set()
    assert found(folder) == set()


# -- the policy's checkpoint path ----------------------------------------------------------

def test_a_policy_naming_another_checkpoint_is_caught(folder):
    _edit(folder / "registry.json",
          lambda r: r["policy"].update(checkpoint_path="vbrief/continue.vbrief.json"))
    assert found(folder) == {("crossfile.checkpoint_path", "registry.json", "$.policy.checkpoint_path")}


@pytest.mark.parametrize("path", ["./xbrief/continue.xbrief.json", "xbrief/../xbrief/continue.xbrief.json"])
def test_a_checkpoint_path_is_compared_as_a_path_not_as_text(folder, path):
    _edit(folder / "registry.json", lambda r: r["policy"].update(checkpoint_path=path))
    assert found(folder) == set()


def test_the_checkpoint_path_is_relative_to_the_registry_folder(tmp_path):
    nested = tmp_path / "task"
    shutil.copytree(EXAMPLE, nested)
    report = validate_paths([str(tmp_path)])
    assert not [f for f in report.findings if f.code in CODES]


# -- a checkpoint newer than the attempt that hands it over --------------------------------

def _without_checkpoint_digest(registry):
    del registry["attempts"][1]["continue_checkpoint_digest"]


def test_a_checkpoint_written_after_registration_is_caught_without_its_digest(folder):
    _edit(folder / "registry.json", _without_checkpoint_digest)
    _edit(folder / CHECKPOINT, lambda c: _block(c).update(written_at="2026-10-14T09:14:03+02:00"))
    assert found(folder) == {("crossfile.checkpoint_after_registration", "continue.xbrief.json",
                              '$["x-passdown/checkpoint"].written_at')}


@pytest.mark.parametrize("written_at", ["2026-10-14T09:14:02+02:00", "2026-10-14T07:14:02Z"])
def test_a_checkpoint_written_at_the_registration_moment_passes(folder, written_at):
    _edit(folder / "registry.json", _without_checkpoint_digest)
    _edit(folder / CHECKPOINT, lambda c: _block(c).update(written_at=written_at))
    assert found(folder) == set()


def test_with_the_checkpoint_digest_recorded_the_bytes_decide_not_the_times(folder):
    _edit(folder / CHECKPOINT, lambda c: _block(c).update(written_at="2026-10-14T09:20:00+02:00"))
    report = validate_paths([str(folder)])
    codes = {f.code for f in report.findings}
    assert "crossfile.checkpoint_changed" in codes  # DIG-054, the same fault seen in the bytes
    assert "crossfile.checkpoint_after_registration" not in codes


@pytest.mark.parametrize("state", ["committed", "taken_over", "completed", "abandoned"])
def test_from_the_commit_on_the_checkpoint_is_the_new_owners(folder, state):
    def change(registry):
        _without_checkpoint_digest(registry)
        registry["attempts"][1]["state"] = state

    _edit(folder / "registry.json", change)
    _edit(folder / CHECKPOINT, lambda c: _block(c).update(written_at="2026-10-14T10:00:00+02:00"))
    assert ("crossfile.checkpoint_after_registration", "continue.xbrief.json",
            '$["x-passdown/checkpoint"].written_at') not in found(folder)


# -- a consumed checkpoint handed over ---------------------------------------------------------

def _consume(checkpoint, at="2026-10-14T09:13:00+02:00"):
    checkpoint["plan"]["status"] = "completed"
    _block(checkpoint).update(consumed_at=at)


def test_an_attempt_handing_over_a_consumed_checkpoint_is_caught(folder):
    _edit(folder / "registry.json", _without_checkpoint_digest)
    _edit(folder / CHECKPOINT, _consume)
    assert found(folder) == {("crossfile.consumed_checkpoint_handed_over", "continue.xbrief.json",
                              '$["x-passdown/checkpoint"].consumed_at')}


def test_a_consumed_checkpoint_without_an_open_attempt_is_left_in_place(folder):
    def change(registry):
        registry["attempts"][1]["state"] = "abandoned"

    _edit(folder / "registry.json", change)
    _edit(folder / CHECKPOINT, _consume)
    assert found(folder) == set()


# -- after a verified takeover ------------------------------------------------------------------

def _taken_over(registry, epoch=5, verified=True):
    attempt = registry["attempts"][1]
    attempt["state"] = "taken_over"
    attempt["ownership"] = {"committed_at": "2026-10-14T09:17:00+02:00", "fencing_epoch": epoch,
                            "from_id": attempt["source_id"], "to_id": attempt["target_id"],
                            "authority": "lease-ledger-main-write"}
    attempt["takeover"] = {"readback_at": "2026-10-14T09:17:20+02:00", "verified": verified,
                           "source_retired": False}
    registry["fencing_epoch"] = epoch


def test_the_handed_over_checkpoint_left_unconsumed_after_takeover_is_caught(folder):
    _edit(folder / "registry.json", _taken_over)
    assert found(folder) == {("crossfile.checkpoint_not_consumed", "continue.xbrief.json",
                              '$["x-passdown/checkpoint"].consumed_at')}


def test_a_consumed_checkpoint_after_takeover_passes(folder):
    _edit(folder / "registry.json", _taken_over)
    _edit(folder / CHECKPOINT, lambda c: _consume(c, "2026-10-14T09:18:00+02:00"))
    assert found(folder) == set()


def test_a_checkpoint_the_new_owner_wrote_at_its_epoch_passes(folder):
    _edit(folder / "registry.json", _taken_over)
    _edit(folder / CHECKPOINT, lambda c: _block(c).update(epoch=5))
    assert found(folder) == set()


def test_a_checkpoint_reopened_after_the_commit_is_the_new_owners(folder):
    _edit(folder / "registry.json", _taken_over)
    _edit(folder / CHECKPOINT, lambda c: _block(c).update(written_at="2026-10-14T09:30:00+02:00"))
    assert found(folder) == set()


def test_a_checkpoint_written_at_the_commit_moment_is_still_the_sources(folder):
    _edit(folder / "registry.json", _taken_over)
    _edit(folder / CHECKPOINT, lambda c: _block(c).update(written_at="2026-10-14T07:17:00Z"))
    assert found(folder) == {("crossfile.checkpoint_not_consumed", "continue.xbrief.json",
                              '$["x-passdown/checkpoint"].consumed_at')}


def test_an_unverified_takeover_asks_nothing_of_the_checkpoint(folder):
    _edit(folder / "registry.json", lambda r: _taken_over(r, verified=False))
    assert found(folder) == set()


def test_an_abandoned_attempt_after_the_takeover_does_not_hide_it(folder):
    def change(registry):
        _taken_over(registry)
        later = json.loads(json.dumps(registry["attempts"][0]))
        later.update(restart_id="rst-20261014-1000-parser", state="abandoned", ownership=None,
                     takeover=None, archive={"status": "NOT_STARTED"})
        registry["attempts"].append(later)

    _edit(folder / "registry.json", change)
    assert ("crossfile.checkpoint_not_consumed", "continue.xbrief.json",
            '$["x-passdown/checkpoint"].consumed_at') in found(folder)


def test_a_legacy_checkpoint_is_not_compared(folder):
    shutil.rmtree(folder / "xbrief")
    (folder / "vbrief").mkdir()
    legacy = {"vBRIEFInfo": {"version": "0.6"},
              "plan": {"title": "t", "status": "running",
                       "items": [{"id": "a", "title": "a", "status": "pending",
                                  "narrative": {"ResumePoint": "start"}}]}}
    _write(folder / "vbrief" / "continue.vbrief.json", legacy)
    assert found(folder) == set()


# -- the one-file rules, beyond the conformance cases ------------------------------------------

def _hits(kind, code, data, text=""):
    rule = next(r for r in rules_for(kind) if r.code == code)
    return list(rule.check(Artifact(kind, None, data, text)))


def test_a_nested_sub_item_completed_late_is_found_where_it_is():
    checkpoint = _read(EXAMPLE / CHECKPOINT)
    checkpoint["plan"]["items"][0]["subItems"] = [
        {"id": "inventory.grep", "title": "grep the callers", "status": "completed",
         "completed": "2026-10-15T00:00:00Z"}]
    hits = _hits("checkpoint", "checkpoint.written_at_stale", checkpoint)
    assert [hit.path for hit in hits] == [("plan", "items", 0, "subItems", 0, "completed")]


@pytest.mark.parametrize("written_at", [None, "not a time", "2026-02-30T00:00:00Z", 7])
def test_a_written_at_that_names_no_moment_is_left_to_the_other_rules(written_at):
    checkpoint = _read(EXAMPLE / CHECKPOINT)
    _block(checkpoint)["written_at"] = written_at
    assert _hits("checkpoint", "checkpoint.written_at_stale", checkpoint) == []


def _packet_with(lines):
    text = (EXAMPLE / "continuation.packet.txt").read_text(encoding="utf-8")
    return text.replace("  Blockers: none.\n", "  Blockers: none.\n" + "".join(f"  {line}\n" for line in lines))


@pytest.mark.parametrize("lines, flagged", [
    (["User: a", "Assistant: b", "User: c", "Assistant: d"], True),
    (["> **Human:** a", "> **AI:** b", "### Human: c", "### AI: d"], True),
    (['{"type": "user", "message": "a"}', '{"type": "assistant", "message": "b"}'] * 2, True),
    (["User: a", "User: b", "User: c", "Assistant: d"], False),
    (["Username: a", "Assistants: b", "User: c", "Assistant: d"], False),
])
def test_a_transcript_needs_two_turns_from_each_side(lines, flagged):
    text = _packet_with(lines)
    hits = _hits("packet", "packet.transcript", None, text)
    assert bool(hits) is flagged
    if flagged:
        assert hits[0].line == text.splitlines().index("  " + lines[0]) + 1
        assert hits[0].path == ("progress",)


def test_long_lines_of_decoration_are_read_in_one_pass():
    text = _packet_with(["-" * 20000 + "x", "#" * 20000 + "\tTRUE", "> " * 10000 + "Userx"])
    assert _hits("packet", "packet.transcript", None, text) == []
    assert _hits("packet", "packet.browser_state", None, text) == []


@pytest.mark.parametrize("line, flagged", [
    ("#HttpOnly_.ci.example.org\tTRUE\t/\tTRUE\t1792000000\tsid\tabc", True),
    ('"sessionStorage": {"draft": "x"}', True),
    ("ci.example.org FALSE / TRUE 1792000000 prefs compact", False),
    ("the cookies the dashboard sets are listed in docs/ci.md", False),
])
def test_browser_state_is_found_by_its_shape(line, flagged):
    hits = _hits("packet", "packet.browser_state", None, _packet_with([line]))
    assert bool(hits) is flagged
