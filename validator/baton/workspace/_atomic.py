"""Writing files safely: atomically (temp file in the same folder, fsync, rename), under an
exclusive lock, and read-modify-write as one step so compare-and-swap on a revision holds.

Every file Baton writes goes through here, so no writer anywhere can leave a torn file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import tempfile
import time
from collections.abc import Callable, Iterator

from baton.errors import LockTimeout
from baton.formats import _files


def atomic_write(path: str | os.PathLike, data: bytes, *, mode: int | None = None,
                 exclusive: bool = False) -> None:
    """Replace ``path`` with ``data`` so readers see the old bytes or the new, never a mix.

    ``exclusive`` refuses to replace an existing file (``FileExistsError``). The new file keeps
    the old file's permission bits, or ``mode`` (default 0o644) for a new one."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if mode is None:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
    fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
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
    """Hold an exclusive advisory lock on ``<path>.lock`` (a file kept beside ``path``)."""
    lock_path = os.fspath(path) + ".lock"
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


def read_modify_write(path: str | os.PathLike, transform: Callable[[bytes], bytes], *,
                      timeout: float = 10.0) -> bytes:
    """Under the file's lock: read the current bytes, ``transform`` them, write the result
    atomically. ``transform`` raises to abort (then nothing is written); it is where callers
    check an expected revision, which makes the whole step a compare-and-swap."""
    with file_lock(path, timeout=timeout):
        current = _files.read_regular(path, _files.DEFAULT_MAX_BYTES)  # never blocks, bounded
        new = transform(current)
        if new != current:
            atomic_write(path, new)
        return new
