"""The fresh readback (passdown.workspace._readback): which dirty paths are the handoff's own
files (ACK-128), a checkpoint path that would lead outside the handoff folder (REG-027), and
the clock at full precision (ACK-129)."""

import os

import pytest
from git_support import new_checkout

from passdown.errors import UnreadableInput
from passdown.formats import _clock
from passdown.workspace import _git, _readback

OWN_NAMES = ("continuation.packet.txt", "continuation.packet.json", "registry.json", "registry.yaml",
             "registry.yml", "ack.json", "handoff.json", "handoff.pending.json", "relaunch-receipt.json",
             "rl-1.relaunch-receipt.json")


@pytest.fixture
def checkout(tmp_path):
    return new_checkout(tmp_path / "repo", {"src.py": "a = 1\n"})


def dirty_names(repo, folder, given):
    leave_out = _readback.own_files_of(os.path.join(folder, "registry.yaml"), given)
    return [row["path"] for row in _git.dirty_fingerprint(repo, leave_out=leave_out(repo))]


@pytest.mark.parametrize("where", ["", "handoff"], ids=["at the root", "in a sub-folder"])
def test_the_handoff_files_and_bookkeeping_are_left_out_and_the_work_is_kept(checkout, where):
    folder = checkout / where if where else checkout
    (folder / "xbrief" / ".passdown").mkdir(parents=True)
    (folder / ".passdown").mkdir(exist_ok=True)
    for name in OWN_NAMES:
        (folder / name).write_text("own\n")
    (folder / "xbrief" / "continue.xbrief.json").write_text("{}\n")
    (folder / ".passdown" / "registry.yaml.lock").write_text("")  # no .gitignore: shown by git
    (folder / "xbrief" / ".passdown" / ".continue.xbrief.json.x.tmp").write_text("")
    (checkout / "src.py").write_text("a = 2\n")  # the user's work
    (checkout / "notes.txt").write_text("notes\n")
    (folder / "ack.json.bak").write_text("not an artifact name\n")
    (folder / "xbrief" / "notes.md").write_text("the user's, beside the checkpoint\n")
    os.makedirs(folder / "deeper", exist_ok=True)
    (folder / "deeper" / "registry.yaml").write_text("another folder's: the user's work\n")
    given = [str(folder / "continuation.packet.txt"), str(folder / "registry.yaml"),
             str(folder / "xbrief" / "continue.xbrief.json"), str(folder / "ack.json")]
    prefix = f"{where}/" if where else ""
    assert dirty_names(checkout, str(folder), given) == sorted(
        ["notes.txt", "src.py", f"{prefix}ack.json.bak", f"{prefix}deeper/registry.yaml",
         f"{prefix}xbrief/notes.md"])


def test_an_ack_or_checkpoint_named_elsewhere_in_the_checkout_is_left_out_too(checkout):
    (checkout / "handoff").mkdir()
    (checkout / "state").mkdir()
    (checkout / "state" / "my-checkpoint.json").write_text("{}\n")
    (checkout / "answers").mkdir()
    (checkout / "answers" / "reply.json").write_text("{}\n")
    given = [str(checkout / "state" / "my-checkpoint.json"), str(checkout / "answers" / "reply.json")]
    assert dirty_names(checkout, str(checkout / "handoff"), given) == []


def test_a_folder_outside_the_checkout_leaves_nothing_out(checkout, tmp_path):
    (checkout / "registry.yaml").write_text("the user's file\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert dirty_names(checkout, str(outside), [str(outside / "registry.yaml")]) == ["registry.yaml"]


def registry(path):
    return {"policy": {"checkpoint_path": path}}


@pytest.mark.parametrize("path", ["../elsewhere/continue.xbrief.json", "/etc/passwd",
                                  "xbrief/../../x.json", "./xbrief/continue.xbrief.json",
                                  "xbrief\\continue.xbrief.json", "C:/x.json"])
def test_a_checkpoint_path_that_leaves_the_folder_is_refused_not_followed(tmp_path, path):
    with pytest.raises(UnreadableInput) as raised:
        _readback.checkpoint_for(registry(path), str(tmp_path / "registry.yaml"))
    assert raised.value.code == "registry.path_escape"
    assert raised.value.exit_code == 2


def test_a_checkpoint_reached_through_a_symbolic_link_out_of_the_folder_is_refused(tmp_path):
    folder = tmp_path / "handoff"
    folder.mkdir()
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    (frozen / "continue.xbrief.json").write_text("{}")
    os.symlink(frozen, folder / "xbrief")
    with pytest.raises(UnreadableInput) as raised:
        _readback.checkpoint_for(registry("xbrief/continue.xbrief.json"), str(folder / "registry.yaml"))
    assert raised.value.code == "registry.path_escape"
    inside = folder / "real"
    inside.mkdir()
    os.symlink(inside, folder / "alias")
    assert _readback.checkpoint_for(registry("alias/c.json"), str(folder / "registry.yaml")) == \
        str(folder / "alias" / "c.json")


def test_the_clock_keeps_microseconds_and_reads_back_exactly():
    now = _clock.utc_now()
    assert now.endswith("Z") and len(now.split(".")[1]) == 7  # six digits and the Z
    assert _clock.parse_exact(now) is not None
    assert _clock.parse_exact("2026-10-14T09:00:00.0000001Z") > _clock.parse_exact("2026-10-14T09:00:00Z")
