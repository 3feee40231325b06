"""The read-modify-write framework: compare-and-swap on the revision, no-op changes, key
order and unknown members kept verbatim, hostile files refused with codes, never written."""

from __future__ import annotations

import json
import os
import threading

import pytest
from authoring_support import checkpoint_of, load, make_project, registry_of, run, run_json

from passdown.workspace import _atomic
from passdown.errors import ConflictError, LockTimeout, RefusedError, UnreadableInput
from passdown.authoring import update_checkpoint
from passdown.authoring._store import update


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path)


def test_each_update_bumps_the_revision_by_exactly_one(project):
    path = checkpoint_of(project)
    revisions = [update_checkpoint(path, "add-pending", f"step {n}").revision for n in range(5)]
    assert revisions == [2, 3, 4, 5, 6]
    assert json.loads(path.read_text())["x-passdown/checkpoint"]["revision"] == 6


def test_expect_revision_conflict_changes_nothing(project):
    path = checkpoint_of(project)
    before = path.read_bytes()
    with pytest.raises(ConflictError) as caught:
        update_checkpoint(path, "add-pending", "late step", expect_revision=7)
    assert caught.value.code == "authoring.revision_conflict"
    assert caught.value.exit_code == 1
    assert path.read_bytes() == before
    outcome = update_checkpoint(path, "add-pending", "late step", expect_revision=1)
    assert (outcome.previous_revision, outcome.revision) == (1, 2)


def test_expect_revision_conflict_through_the_cli(project):
    path = checkpoint_of(project)
    before = path.read_bytes()
    code, out = run_json("checkpoint", "hazard", "x", "--checkpoint", path,
                         "--expect-revision", 9)
    assert code == 1
    assert out == {"ok": False, "command": "checkpoint hazard", "exit_code": 1,
                   "error": {"code": "authoring.revision_conflict",
                             "message": f"{path}: the revision is 1, not the expected 9",
                             "hint": "read the file again (`show`) and retry with the current "
                                     "revision"}}
    assert path.read_bytes() == before


def test_a_change_that_changes_nothing_writes_nothing(project):
    path = checkpoint_of(project)
    update_checkpoint(path, "decision", "Use JCS")
    before, stat = path.read_bytes(), os.stat(path)
    outcome = update_checkpoint(path, "decision", "Use JCS")
    assert not outcome.changed
    assert outcome.revision == outcome.previous_revision == 2
    assert outcome.message == "this decision is already recorded"
    assert path.read_bytes() == before
    assert os.stat(path).st_ino == stat.st_ino  # not even replaced by an equal copy


def test_unknown_members_and_other_tools_blocks_survive_in_order(project):
    path = checkpoint_of(project)
    document = json.loads(path.read_text())
    # another tool's block first, an unknown root member last, unknown members inside too
    document = {"x-acme-ci/run": {"zeta": 1, "alpha": [3, 2, 1], "nested": {"b": None, "a": 1.5}},
                **document, "zz-unknown": {"keep": "me", "order": ["z", "a"]}}
    document["plan"]["x-other/plan-note"] = {"k": "v"}
    document["plan"]["items"][0]["x-other/item"] = {"big": 12345678901234567890}
    document["x-passdown/checkpoint"]["x-other/inside"] = "kept"
    path.write_text(json.dumps(document, indent=4))
    update_checkpoint(path, "add-pending", "Second step")
    after = json.loads(path.read_text())
    assert list(after) == ["x-acme-ci/run", "xBRIEFInfo", "plan", "x-passdown/checkpoint",
                           "zz-unknown"]
    assert after["x-acme-ci/run"] == document["x-acme-ci/run"]
    assert json.dumps(after["x-acme-ci/run"]) == json.dumps(document["x-acme-ci/run"])
    assert after["zz-unknown"] == document["zz-unknown"]
    assert after["plan"]["x-other/plan-note"] == {"k": "v"}
    assert after["plan"]["items"][0]["x-other/item"] == {"big": 12345678901234567890}
    assert after["x-passdown/checkpoint"]["x-other/inside"] == "kept"


def test_yaml_registry_keeps_comments_and_order(tmp_path):
    project = make_project(tmp_path)
    path = registry_of(project)
    text = path.read_text()
    text = "# owned by the release team\n" + text.replace(
        "titles: []", "titles: []  # filled in by the title gate\nx-acme/extra:\n  z: 1\n  a: 2")
    path.write_text(text)
    from passdown.authoring._render import SourceFacts, render

    render(project, source=SourceFacts(source_id="sess-a"))
    after = path.read_text()
    assert after.startswith("# owned by the release team\n")
    assert "titles: []  # filled in by the title gate" in after
    assert "x-acme/extra:\n  z: 1\n  a: 2\n" in after
    assert "revision: 2\n" in after


@pytest.mark.parametrize(("content", "code"), [
    (b"\xef\xbb\xbf{}", "load.bom"),
    (b'{"a": 1, "a": 2}', "load.duplicate_key"),
    (b'{"a": NaN}', "load.non_finite"),
    (b"{\"a\": \"\xff\"}", "load.encoding"),
    (b"[" * 5000 + b"]" * 5000, "load.too_deep"),
    (b'{"a": ', "load.syntax"),
    (b"", "load.empty"),
])
def test_hostile_files_are_refused_with_their_loading_code(project, content, code):
    path = checkpoint_of(project)
    path.write_bytes(content)
    with pytest.raises(UnreadableInput) as caught:
        update_checkpoint(path, "add-pending", "x")
    assert caught.value.code == code
    assert path.read_bytes() == content


def test_a_file_over_the_size_bound_is_not_read(project, monkeypatch):
    from passdown.authoring import _document

    monkeypatch.setattr(_document, "MAX_BYTES", 100)
    path = checkpoint_of(project)
    before = path.read_bytes()
    with pytest.raises(UnreadableInput) as caught:
        update_checkpoint(path, "add-pending", "x")
    assert caught.value.code == "load.too_large"
    assert path.read_bytes() == before


@pytest.mark.parametrize(("mutate", "code"), [
    (lambda d: d["x-passdown/checkpoint"].pop("revision"), "authoring.no_revision"),
    (lambda d: d["x-passdown/checkpoint"].update(revision="3"), "authoring.no_revision"),
    (lambda d: d["x-passdown/checkpoint"].update(revision=-1), "authoring.no_revision"),
    (lambda d: d["x-passdown/checkpoint"].update(revision=True), "authoring.no_revision"),
    (lambda d: d.pop("x-passdown/checkpoint"), "authoring.plain_checkpoint"),
])
def test_a_document_without_a_usable_revision_is_refused(project, mutate, code):
    path = checkpoint_of(project)
    document = json.loads(path.read_text())
    mutate(document)
    path.write_text(json.dumps(document))
    before = path.read_bytes()
    with pytest.raises(RefusedError) as caught:
        update_checkpoint(path, "add-pending", "x")
    assert caught.value.code == code
    assert path.read_bytes() == before


REVISION_AT = '["x-passdown/checkpoint"].revision'


@pytest.mark.parametrize(("revision", "message", "hint"), [
    (None, f"{REVISION_AT} is missing", "the file was not written by Passdown: run "
     "`passdown validate` on it, and `passdown migrate` for a legacy vBRIEF checkpoint"),
    (-5, f"{REVISION_AT} is -5, not a non-negative integer", "a revision counts the file's "
     f"writes: set {REVISION_AT} to the last revision it had (a whole number, 0 or more), then "
     "run `passdown validate` on the file"),
    ("3", f'{REVISION_AT} is "3", not a non-negative integer', None),
    (True, f"{REVISION_AT} is true, not a non-negative integer", None),
])
def test_an_unusable_revision_says_what_is_wrong_and_how_to_fix_it(project, revision, message,
                                                                   hint):
    path = checkpoint_of(project)
    document = json.loads(path.read_text())
    document["x-passdown/checkpoint"].pop("revision")
    if revision is not None:
        document["x-passdown/checkpoint"]["revision"] = revision
    path.write_text(json.dumps(document))
    with pytest.raises(RefusedError) as caught:
        update_checkpoint(path, "add-pending", "x")
    assert (caught.value.code, caught.value.message) == ("authoring.no_revision",
                                                         f"{path}: {message}")
    if hint is not None:
        assert caught.value.hint == hint


@pytest.mark.parametrize("revision", [2 ** 53 - 1, 2 ** 53, 2 ** 60])
def test_a_registry_writer_never_writes_a_revision_past_2_53(project, revision):
    path = registry_of(project)
    document = load(path)
    document["revision"] = revision  # JSON text is YAML too
    path.write_text(json.dumps(document, indent=2))
    before = path.read_bytes()
    code, out = run_json("attempt", "abandon", "r1", "--note", "n", "--registry", path)
    assert (code, out["error"]["code"]) == (1, "authoring.revision_range")
    assert out["error"]["message"] == (f"{path}: the registry's revision {revision} cannot "
                                       "grow: the next one would be beyond 2**53 - 1, where a "
                                       "digest cannot hold it")
    assert out["error"]["hint"] == ("Passdown never writes a revision this high: restore the "
                                    "registry from version control, or start a new one")
    assert path.read_bytes() == before


def test_a_non_object_document_is_refused(project):
    path = checkpoint_of(project)
    path.write_text("[1, 2]")
    with pytest.raises(RefusedError) as caught:
        update_checkpoint(path, "add-pending", "x")
    assert caught.value.code == "authoring.not_an_object"


def test_lone_surrogates_and_huge_numbers_round_trip_or_refuse(project):
    path = checkpoint_of(project)
    text = path.read_text()
    path.write_text(text.replace('"xBRIEFInfo": {', '"xBRIEFInfo": {"x-t/s": "a\\ud800b", ', 1))
    update_checkpoint(path, "add-pending", "x")
    assert json.loads(path.read_text())["xBRIEFInfo"]["x-t/s"] == "a\ud800b"
    path.write_text(path.read_text().replace('"x-t/s"', '"x-t/n": 1e400, "x-t/s"', 1))
    before = path.read_bytes()
    with pytest.raises(Exception) as caught:
        update_checkpoint(path, "add-pending", "y")
    assert getattr(caught.value, "code", None) == "load.non_finite"
    assert path.read_bytes() == before


def test_missing_checkpoint_says_run_init(tmp_path):
    path = tmp_path / "xbrief" / "continue.xbrief.json"
    result = run("checkpoint", "add-pending", "x", "--checkpoint", path)
    assert result.exit_code == 2
    assert "authoring.no_checkpoint" in result.stderr
    assert "run `passdown init`" in result.stderr
    assert not path.exists() and not (tmp_path / "xbrief").exists()


def test_missing_checkpoint_beside_a_legacy_one_says_migrate(tmp_path):
    (tmp_path / "vbrief").mkdir()
    (tmp_path / "vbrief" / "continue.vbrief.json").write_text("{}")
    code, out = run_json("checkpoint", "show", "--checkpoint",
                         tmp_path / "xbrief" / "continue.xbrief.json")
    assert code == 2
    assert out["error"]["code"] == "authoring.no_checkpoint"
    assert "passdown migrate" in out["error"]["hint"]


def test_an_invalid_result_is_never_written(project):
    path = checkpoint_of(project)
    before = path.read_bytes()
    with pytest.raises(RefusedError) as caught:  # a role with a control character
        update_checkpoint(path, "set", "role", "main\x07")
    assert caught.value.code == "authoring.invalid_result"
    assert "schema." in caught.value.message
    assert path.read_bytes() == before


def test_lock_timeout_is_a_clear_error(project):
    path = checkpoint_of(project)
    held, release = threading.Event(), threading.Event()

    def holder():
        with _atomic.file_lock(path):
            held.set()
            release.wait(5)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(5)
    try:
        with pytest.raises(LockTimeout) as caught:
            update(path, "checkpoint", lambda d: None, command="x", timeout=0.05)
        assert caught.value.code == "lock_timeout"
        assert caught.value.exit_code == 1
    finally:
        release.set()
        thread.join()


def test_a_directory_in_place_of_the_file_is_refused_by_the_loading_rules(project):
    path = checkpoint_of(project)
    path.unlink()
    path.mkdir()
    with pytest.raises(UnreadableInput) as caught:
        update_checkpoint(path, "add-pending", "x")
    assert caught.value.code == "load.unreadable" and "directory" in caught.value.message
