"""The authority interface's own parts (spec/authority.md): the network file systems the
``local`` authority refuses, read from a mount table; the settings each kind accepts; a
stored record that Passdown did not write; git ref names; and the Codes table, which lists
every code an :class:`AuthorityError` carries, each raised somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from passdown.workspace import _authority
from passdown.workspace._authority import AuthorityError, Local, Transition
from passdown.workspace._authority_git import ref_name

ROOT = Path(__file__).resolve().parents[2]
MOUNTS = """\
overlay / overlay rw,relatime 0 0
proc /proc proc rw,nosuid 0 0
server:/export /mnt/shared nfs4 rw,vers=4.2 0 0
//fileserver/team /mnt/team cifs rw 0 0
user@host:/home /mnt/remote\\040home fuse.sshfs rw 0 0
/dev/sda1 /mnt/shared/local ext4 rw 0 0
"""
MOVE = Transition(goal_id="g", source_id="src", epoch=3, target_id="tgt",
                  checkpoint_digest="blake3:" + "ab" * 32, restart_id="r1", at="2026-12-04T00:00:00Z")


@pytest.mark.parametrize("path, kind", [
    ("/work/registry.yaml", "overlay"), ("/mnt/shared/registry.yaml", "nfs4"),
    ("/mnt/shared/local/registry.yaml", "ext4"), ("/mnt/team/x/registry.json", "cifs"),
    ("/mnt/remote home/registry.yaml", "fuse.sshfs"), ("/mnt/sharedx/registry.yaml", "overlay")])
def test_the_file_system_is_the_longest_mount_point_above_the_file(path, kind):
    assert _authority.filesystem_type(path, MOUNTS) == kind


@pytest.mark.parametrize("folder, refused", [
    ("/mnt/shared", True), ("/mnt/team", True), ("/mnt/remote home", True),
    ("/mnt/shared/local", False), ("/work", False)])
def test_local_refuses_a_registry_on_a_network_file_system(folder, refused):
    local = Local(f"{folder}/registry.yaml", mounts=MOUNTS)
    if refused:
        with pytest.raises(AuthorityError) as caught:
            local.transition(MOVE)
        assert caught.value.code == "authority.untrusted_filesystem"
        assert "--authority git" in caught.value.hint
    else:
        assert local.transition(MOVE).fencing_epoch == 4


def test_no_mount_table_means_no_check(monkeypatch, tmp_path):
    monkeypatch.setattr(_authority, "MOUNTS", str(tmp_path / "absent"))
    assert _authority.filesystem_type(tmp_path) is None
    assert Local(str(tmp_path / "registry.yaml")).transition(MOVE).owner_id == "tgt"


@pytest.mark.parametrize("kind, options, code", [
    ("zookeeper", {}, "authority.unknown_kind"),
    ("local", {"remote": "origin"}, "authority.bad_setting"),
    ("git", {"endpoint": "http://127.0.0.1:2379"}, "authority.bad_setting"),
    ("etcd", {"endpoint": "127.0.0.1:2379"}, "authority.bad_setting"),
    ("etcd", {"lease_ttl": 1}, "authority.bad_setting"),
])
def test_settings_that_do_not_fit_the_kind_are_refused(kind, options, code):
    with pytest.raises(AuthorityError) as caught:
        _authority.settings_for(kind, **options)
    assert caught.value.code == code


def test_settings_record_the_defaults():
    assert _authority.settings_for("git") == {"kind": "git", "remote": "origin"}
    assert _authority.settings_for("etcd", lease_ttl=30) == {
        "kind": "etcd", "endpoint": "http://127.0.0.1:2379", "prefix": "/passdown/",
        "lease_ttl": 30}


@pytest.mark.parametrize("raw", [b"", b"not json", b"[]", b'{"owner_id": "", "fencing_epoch": 1}',
                                 b'{"owner_id": "a", "fencing_epoch": -1}',
                                 b'{"owner_id": "a", "fencing_epoch": true}'])
def test_a_record_passdown_did_not_write_is_refused(raw):
    with pytest.raises(AuthorityError) as caught:
        _authority.decode(raw, "the ref")
    assert caught.value.code == "authority.bad_record"


def test_a_transition_from_another_record_loses_before_it_is_tried():
    winner = _authority.Record(owner_id="other", fencing_epoch=4, restart_id="r9")
    with pytest.raises(AuthorityError) as caught:
        MOVE.check_source(winner, "the ref")
    assert (caught.value.code, caught.value.winner) == ("authority.lost", winner)
    MOVE.check_source(_authority.Record(owner_id="src", fencing_epoch=3), "the ref")
    MOVE.check_source(None, "the ref")  # the first transition binds the authority


@pytest.mark.parametrize("goal", ["a..b", "x.lock", "with space", "-lead", "a/b", ""])
def test_a_goal_id_that_cannot_name_a_ref_is_refused(goal):
    with pytest.raises(AuthorityError) as caught:
        ref_name(goal)
    assert caught.value.code == "authority.bad_setting"


def test_the_codes_table_lists_every_code_and_each_is_raised():
    text = (ROOT / "spec" / "authority.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| `(authority\.[a-z_]+)` \| (\d) \| REG-\d{3} \|", text, re.M))
    assert sorted(table) == sorted(AuthorityError.CODES)
    assert set(table.values()) == {str(AuthorityError.exit_code)}
    sources = "".join(path.read_text(encoding="utf-8") for path in [
        *(ROOT / "validator" / "passdown" / "workspace").glob("_authority*.py"),
        ROOT / "validator" / "passdown" / "authoring" / "_fence.py"])
    for code in AuthorityError.CODES:
        assert f'code="{code}"' in sources, code
