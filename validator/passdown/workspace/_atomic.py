"""Writing files safely: atomically (temp file on the same file system, fsync, rename), under an
exclusive lock, and read-modify-write as one step so compare-and-swap on a revision holds.

Every file Passdown writes goes through here, so no writer anywhere can leave a torn file.

Locks and temporary files are bookkeeping, not the user's work: they live in a ``.passdown/``
folder beside the file they serve, which holds a ``.gitignore`` of ``*`` from the moment it
exists, so git never shows them (spec/authoring.md, AUT-012). A lock file is never deleted
(deleting a lock another process holds or waits on would let two writers in); it is empty,
and the kernel releases the lock when its holder ends, however it ends.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator

from passdown.errors import LockTimeout
from passdown.formats import _files
from passdown.workspace._testpoints import point

#: The folder beside a file that holds its lock and temporary files.
BOOKKEEPING = ".passdown"
_IGNORE_EVERYTHING = b"*\n"


def bookkeeping_folder(path: str | os.PathLike) -> str:
    """The ``.passdown/`` folder beside ``path``, made (with its ``.gitignore``) if missing.

    It is built under a temporary name and renamed into place, so it is never seen without
    its ``.gitignore``; two processes making it at once both end with the same folder."""
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    target = os.path.join(folder, BOOKKEEPING)
    marker = os.path.join(target, ".gitignore")
    if os.path.islink(target):  # locks and temporary files never leave the file's folder
        raise OSError(errno.ELOOP, f"{target} is a symbolic link")
    if os.path.isfile(marker):
        return target
    temp = tempfile.mkdtemp(prefix=f"{BOOKKEEPING}.", dir=folder)
    try:
        os.chmod(temp, 0o755)
        with open(os.path.join(temp, ".gitignore"), "wb") as handle:
            handle.write(_IGNORE_EVERYTHING)
        try:
            os.rename(temp, target)
            temp = None
        except OSError:  # made meanwhile by another process, or by hand without its marker
            pass
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    if os.path.isdir(target) and not os.path.isfile(marker):
        with contextlib.suppress(FileExistsError):
            atomic_write(marker, _IGNORE_EVERYTHING, exclusive=True)
    return target


def atomic_write(path: str | os.PathLike, data: bytes, *, mode: int | None = None,
                 exclusive: bool = False, scratch: bool = False) -> None:
    """Replace ``path`` with ``data`` so readers see the old bytes or the new, never a mix.

    ``exclusive`` refuses to replace an existing file (``FileExistsError``). The new file keeps
    the old file's permission bits, or ``mode`` (default 0o644) for a new one. The temporary
    file is written beside ``path``, or with ``scratch`` in the ``.passdown/`` folder beside it
    (the artifacts' writers), so that a writer killed mid-write leaves nothing git shows."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
    temp_folder = bookkeeping_folder(path) if scratch else folder
    fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                dir=temp_folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        if exclusive:
            os.link(temp, path)  # fails with FileExistsError, atomically
            os.unlink(temp)
        else:
            os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    _fsync_dir(folder)
    if temp_folder != folder:
        _fsync_dir(temp_folder)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def file_lock(path: str | os.PathLike, *, timeout: float = 10.0) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``.passdown/<name>.lock`` beside ``path``."""
    lock_path = lock_file(path)
    fd = _files.open_lock(lock_path)  # never a link, a FIFO or a device
    try:
        deadline = time.monotonic() + timeout
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if delay == 0.001:
                    point(f"lock.wait.{os.path.basename(os.fspath(path))}")
                if time.monotonic() >= deadline:
                    raise LockTimeout(
                        f"{os.fspath(path)} stayed locked for {timeout:g} s",
                        hint="another writer is busy with this file; try again",
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def sweep_temporaries(path: str | os.PathLike) -> None:
    """Remove the temporary files of writers of ``path`` that died mid-write (SIGKILL between
    the temporary write and the rename), in ``.passdown/`` and beside ``path``. Call it only
    under the file's lock, so that no live writer owns one."""
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    prefix = f".{name}."
    for where in (os.path.join(folder, BOOKKEEPING), folder):
        try:
            entries = os.listdir(where)
        except OSError:
            continue
        for entry in entries:
            if entry.startswith(prefix) and entry.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(where, entry))


def lock_file(path: str | os.PathLike) -> str:
    """Where the lock of ``path`` is kept: ``.passdown/<name>.lock`` beside it."""
    return os.path.join(bookkeeping_folder(path), os.path.basename(os.fspath(path)) + ".lock")


def read_modify_write(path: str | os.PathLike, transform: Callable[[bytes], bytes], *,
                      timeout: float = 10.0) -> bytes:
    """Under the file's lock: read the current bytes, ``transform`` them, write the result
    atomically. ``transform`` raises to abort (then nothing is written); it is where callers
    check an expected revision, which makes the whole step a compare-and-swap."""
    with file_lock(path, timeout=timeout):
        current = _files.read_regular(path, _files.DEFAULT_MAX_BYTES)  # never blocks, bounded
        new = transform(current)
        if new != current:
            atomic_write(path, new, scratch=True)
        return new
