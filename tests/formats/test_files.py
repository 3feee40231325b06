"""Opening the files Passdown reads (:mod:`passdown.formats._files`): regular files only, opened
without blocking and judged on the open descriptor, bounded while reading whatever size the
file system reports, locks never followed through a link, and folder walks bounded in depth
and size without recursion."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from passdown.formats import _files
from passdown.formats._files import FileRefused

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def refusal(call, *args):
    with pytest.raises(FileRefused) as caught:
        call(*args)
    return caught.value.code


def test_a_regular_file_is_read_whole(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * 5000)
    assert _files.read_regular(path, 5000) == b"x" * 5000
    assert _files.read_prefix(path, 10) == b"x" * 10


def test_one_byte_over_the_bound_is_too_large(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * 5001)
    assert refusal(_files.read_regular, path, 5000) == "load.too_large"


@needs_fifo
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    outcome = []
    worker = threading.Thread(target=lambda: outcome.append(refusal(_files.read_regular, fifo, 10)),
                              daemon=True)
    worker.start()
    worker.join(30)  # a blocking open would still be waiting: nobody ever writes
    assert outcome == ["load.not_regular"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused_directly_and_through_a_link(tmp_path, device):
    assert refusal(_files.read_regular, device, 10) == "load.not_regular"
    link = tmp_path / "link.json"
    os.symlink(device, link)
    assert refusal(_files.read_regular, link, 10) == "load.not_regular"
    assert refusal(_files.open_regular, link) == "load.not_regular"


def test_a_symlink_loop_and_a_directory(tmp_path):
    loop = tmp_path / "loop.json"
    os.symlink(loop.name, loop)
    assert refusal(_files.read_regular, loop, 10) == "load.symlink_loop"
    assert refusal(_files.read_regular, tmp_path, 10) == "load.unreadable"


def test_a_missing_file_stays_the_os_error_it_is(tmp_path):
    with pytest.raises(FileNotFoundError):
        _files.read_regular(tmp_path / "missing", 10)


def test_the_descriptor_decides_not_the_name(tmp_path, monkeypatch):
    # A FIFO swapped in after the name was checked: the open descriptor's fstat refuses it.
    path = tmp_path / "a.json"
    path.write_text("{}")
    real_open = os.open

    def swapped(name, flags, *rest, **kwargs):
        if os.fspath(name) == os.fspath(path):
            os.unlink(path)
            os.mkfifo(path)
        return real_open(name, flags, *rest, **kwargs)

    monkeypatch.setattr(os, "open", swapped)
    assert refusal(_files.read_regular, path, 10) == "load.not_regular"


def test_the_bound_holds_while_reading_when_the_reported_size_is_wrong(tmp_path, monkeypatch):
    # A file that grew after fstat (or a procfs file) reports less than it holds.
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * 100_000)
    real_fstat = os.fstat

    def shrunk(fd):
        found = real_fstat(fd)
        if stat.S_ISREG(found.st_mode):
            return os.stat_result((*found[:6], 10, *found[7:]))
        return found

    monkeypatch.setattr(os, "fstat", shrunk)
    assert refusal(_files.read_regular, path, 50_000) == "load.too_large"
    assert _files.read_regular(path, 100_000) == b"x" * 100_000
    assert _files.read_prefix(path, 20) == b"x" * 20


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="no procfs")
def test_a_procfs_file_that_reports_size_zero_is_read_to_its_bound():
    assert os.stat("/proc/self/status").st_size == 0
    text = _files.read_regular("/proc/self/status", 1 << 20)
    assert b"Pid:" in text
    assert refusal(_files.read_regular, "/proc/self/status", 16) == "load.too_large"


def test_a_lock_is_created_as_a_regular_file(tmp_path):
    lock = tmp_path / "a.json.lock"
    fd = _files.open_lock(lock)
    os.close(fd)
    assert stat.S_ISREG(os.lstat(lock).st_mode)


@needs_fifo
def test_a_lock_is_never_a_link_a_fifo_or_a_directory(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    link = tmp_path / "a.lock"
    os.symlink(elsewhere, link)  # dangling: following it would create a file elsewhere
    assert refusal(_files.open_lock, link) == "load.not_regular"
    assert not elsewhere.exists()
    loop = tmp_path / "b.lock"
    os.symlink(loop.name, loop)
    assert refusal(_files.open_lock, loop) == "load.not_regular"
    fifo = tmp_path / "c.lock"
    os.mkfifo(fifo)
    assert refusal(_files.open_lock, fifo) == "load.not_regular"
    folder = tmp_path / "d.lock"
    folder.mkdir()
    assert refusal(_files.open_lock, folder) == "load.unreadable"


def _walked(top, **kwargs):
    problems = []
    found = list(_files.walk(os.fspath(top), refused=problems.append, **kwargs))
    return found, [(os.path.relpath(p.path, top), p.code) for p in problems]


def test_a_walk_visits_folders_in_the_order_of_a_sorted_os_walk(tmp_path):
    for name in ("b/z", "b/a", "a", "c/.git"):
        (tmp_path / name).mkdir(parents=True)
    for name in ("b/z/f2", "b/f1", "a/f0", "top", "c/.git/ignored"):
        (tmp_path / name).write_text("x")
    os.symlink(tmp_path / "a", tmp_path / "b" / "link-to-a")  # never followed
    expected = []
    for folder, dirs, names in os.walk(tmp_path):
        dirs[:] = sorted(d for d in dirs if d != ".git" and not os.path.islink(os.path.join(folder, d)))
        expected.append((folder, sorted(names)))
    found, problems = _walked(tmp_path, skip={".git"})
    assert found == expected and problems == []
    assert all("link-to-a" not in names for _, names in found)


def test_a_walk_ends_at_the_depth_bound_without_recursion(deep_tree):
    # 1,000 levels: os.walk recursion used to fail here; the walk stops at the bound.
    tmp_path = deep_tree
    found, problems = _walked(tmp_path)
    assert len(found) == _files.MAX_WALK_DEPTH + 1
    assert problems == [(os.path.join(*["d"] * _files.MAX_WALK_DEPTH), "load.folder_too_deep")]


def test_a_walk_stops_after_its_entry_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(_files, "MAX_WALK_ENTRIES", 25)
    for index in range(30):
        (tmp_path / f"f{index:02}").write_text("x")
    found, problems = _walked(tmp_path)
    assert found == [] and problems == [(".", "load.too_many_files")]
    monkeypatch.setattr(_files, "MAX_WALK_ENTRIES", 30)
    found, problems = _walked(tmp_path)
    assert len(found[0][1]) == 30 and problems == []


def test_a_folder_that_cannot_be_listed_is_reported_and_the_walk_goes_on(tmp_path, monkeypatch):
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "f").write_text("x")
    real_scandir = os.scandir

    def denied(path):
        if os.fspath(path).endswith("bad"):
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", denied)
    found, problems = _walked(tmp_path)
    assert problems == [("bad", "load.unreadable")]
    assert (os.path.join(tmp_path, "good"), ["f"]) in found
