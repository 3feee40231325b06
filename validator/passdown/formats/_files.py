"""Opening the files Passdown reads: the one way a path becomes bytes (or an open descriptor to
stream from). :mod:`passdown.formats._loading` then owns what the bytes may hold.

Every file a command reads (an artifact, a lock, a digest input or list, a fixture, a gate's
input) is opened here, so the same rules hold everywhere (spec/input-safety.md):

- only a regular file is read. The path is opened without blocking (``O_NONBLOCK``: opening
  a FIFO must not wait for a writer) and the *open descriptor* is checked with ``fstat``, so
  no swap between a check and the open can slip a FIFO or a device in. A FIFO, socket or
  device (also behind a symbolic link) is ``load.not_regular``; a directory is
  ``load.unreadable``; a symbolic link loop is ``load.symlink_loop``. A cheap ``stat``
  first keeps devices from being opened at all (opening some has side effects); the
  descriptor's ``fstat`` stays the authority;
- a folder walk is iterative and bounded: at most :data:`MAX_WALK_DEPTH` levels below the
  folder named (``load.folder_too_deep``) and :data:`MAX_WALK_ENTRIES` entries in all
  (``load.too_many_files``); it never follows a symbolic link to a folder;
- the byte bound holds while reading, not only by the size the file system reports: a file
  that grows during the read, or a procfs file that reports size 0, is read up to one byte
  past the bound and no further (``load.too_large``).

Refusals raise :class:`FileRefused` (an :class:`~passdown.errors.UnreadableInput`, exit 2) with
the code; a missing file or a denied permission stays the ``OSError`` it is, so callers
keep explaining those in their own words. Imports nothing heavy: the gate fast path reads
its input file through here.
"""

import errno
import os
import stat

from passdown.errors import UnreadableInput

#: The largest file read whole: xBRIEF recommends 10 MB as the largest document, and Passdown's
#: artifacts are far smaller.
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
#: Folder levels a walk descends below the folder it was given: far deeper than any project
#: keeps its artifacts, shallow enough that no walk meets the path length limit.
MAX_WALK_DEPTH = 64
#: Directory entries (files and folders) one walk looks at before it stops.
MAX_WALK_ENTRIES = 100_000
#: Bytes read per call when the size the file system reports cannot be trusted.
_CHUNK = 1 << 20
#: Opening never waits (a FIFO without a writer), never takes a terminal, never leaks.
_NO_WAIT = (getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
            | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))

_DIRECTORY_HINT = "name a file, or pass the directory to a command that walks folders"


class FileRefused(UnreadableInput):
    """A path Passdown does not read (``code``: ``load.not_regular``, ``load.symlink_loop``,
    ``load.unreadable`` for a directory, ``load.too_large``); ``requirement`` is the spec
    rule it enforces."""

    def __init__(self, path, code, message, hint, requirement):
        super().__init__(f"{os.fsdecode(path)}: {message}", code=code, hint=hint)
        self.path = path
        self.reason = message
        self.requirement = requirement


def _refuse_mode(path, mode):
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise FileRefused(path, "load.unreadable", "this is a directory, not a file",
                          _DIRECTORY_HINT, "INP-011")
    raise FileRefused(path, "load.not_regular",
                      f"not a regular file ({_kind_of(mode)}); not read",
                      "name a regular file: Passdown never reads a FIFO, socket or device",
                      "INP-011")


def _kind_of(mode):
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


def symlink_loop(path):
    """The refusal for a path whose symbolic links never end."""
    return FileRefused(path, "load.symlink_loop", "the path is a loop of symbolic links",
                       "point the link at a file, or name the file itself", "INP-011")


def open_regular(path):
    """An open read-only descriptor of the regular file at ``path`` (the caller closes it).

    Raises :class:`FileRefused` for anything but a regular file, ``OSError`` when the path
    is missing or not permitted."""
    try:
        _refuse_mode(path, os.stat(path).st_mode)  # never open a device at all
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise symlink_loop(path) from None
        raise
    return _open_checked(path, os.O_RDONLY, symlink_loop)


def _open_checked(path, flags, on_loop):
    """``os.open`` without waiting; the descriptor it gives must be a regular file (the
    descriptor decides, not the name: nothing swapped in after a check gets through)."""
    try:
        fd = os.open(path, flags | _NO_WAIT, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise on_loop(path) from None
        if error.errno == errno.EISDIR:
            _refuse_mode(path, stat.S_IFDIR)
        raise
    try:
        _refuse_mode(path, os.fstat(fd).st_mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_at_most(fd, count):
    """At most ``count`` bytes from ``fd``, reading until end of file or ``count``; one read
    of the reported size when that is honest, chunks when it is not (a growing file, procfs)."""
    try:
        reported = os.fstat(fd).st_size
    except OSError:
        reported = 0
    first = os.read(fd, min(count, reported + 1 if reported else _CHUNK))
    if not first or len(first) >= count:
        return first
    chunks, total = [first], len(first)
    while total < count:
        chunk = os.read(fd, min(_CHUNK, count - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def too_large(path, limit):
    """The refusal for a file over its ``limit``."""
    return FileRefused(path, "load.too_large", f"the file is larger than the {limit:,}-byte bound",
                       "split the content or link large evidence instead of copying it",
                       "INP-012")


def read_regular(path, limit):
    """The bytes of the regular file at ``path``, at most ``limit`` of them: a longer file
    raises ``load.too_large`` after reading one byte past the bound, never more."""
    fd = open_regular(path)
    try:
        raw = read_at_most(fd, limit + 1)
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise too_large(path, limit)
    return raw


def read_prefix(path, count):
    """Up to ``count`` bytes of the regular file at ``path`` (its callers judge the size)."""
    fd = open_regular(path)
    try:
        return read_at_most(fd, count)
    finally:
        os.close(fd)


def open_lock(path):
    """A read-write descriptor of the lock file at ``path``, created when missing (the
    caller closes it). A lock is Passdown's own file: it is never followed through a symbolic
    link (creating through a dangling one would write outside the folder) and never a FIFO,
    device or directory (``load.not_regular``, ``load.unreadable``)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        pass
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise symlink_loop(path) from None
        raise
    else:
        if stat.S_ISLNK(mode):
            raise _linked_lock(path)
        _refuse_mode(path, mode)
    return _open_checked(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                         _linked_lock)


def _linked_lock(path):
    return FileRefused(path, "load.not_regular", "the lock file is a symbolic link; not followed",
                       "remove the link: Passdown creates its lock files itself", "INP-011")


def walk(top, *, skip=frozenset(), refused):
    """``(folder, file names)`` for ``top`` and each folder below it, depth first in name
    order (as a top-down ``os.walk`` with sorted names), without recursion. Folders named in
    ``skip`` are not entered, nor is a symbolic link to a folder (it is listed as neither);
    "file names" are every other entry (reading one decides what it is).

    Each problem is passed to ``refused`` as a :class:`FileRefused` naming the folder: one
    that cannot be listed (``load.unreadable``: the walk goes on), one whose sub-folders lie
    deeper than :data:`MAX_WALK_DEPTH` (``load.folder_too_deep``: not entered), and the
    entry beyond :data:`MAX_WALK_ENTRIES` (``load.too_many_files`` on ``top``: the walk ends)."""
    stack = [(top, 0)]
    seen = 0
    while stack:
        folder, depth = stack.pop()
        folders, names = [], []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_WALK_ENTRIES:
                        refused(FileRefused(
                            top, "load.too_many_files",
                            f"the walk met more than {MAX_WALK_ENTRIES:,} files and folders; "
                            "the rest are not checked",
                            "name the folder that holds the artifacts, not a whole tree",
                            "INP-016"))
                        return
                    kind = _entry_kind(entry)
                    if kind is not None:
                        (folders if kind else names).append(entry.name)
        except OSError as error:
            refused(FileRefused(folder, "load.unreadable",
                                f"cannot read the folder: {error.strerror or type(error).__name__}",
                                "check that the folder exists and is readable", "INP-001"))
            continue
        yield folder, sorted(names)
        below = sorted((name for name in folders if name not in skip), reverse=True)
        if below and depth >= MAX_WALK_DEPTH:
            refused(FileRefused(folder, "load.folder_too_deep",
                                f"the folder lies {MAX_WALK_DEPTH} levels down and has folders "
                                "below it; they are not checked",
                                f"keep artifacts within {MAX_WALK_DEPTH} folder levels, or name "
                                "the deeper folder", "INP-015"))
            continue
        stack.extend((os.path.join(folder, name), depth + 1) for name in below)


def _entry_kind(entry):
    """``True`` for a folder a walk enters, ``False`` for a file name, ``None`` for a
    symbolic link to a folder (listed as neither, and never followed, as ``os.walk`` does)."""
    try:
        if not entry.is_dir():
            return False
        return None if entry.is_symlink() else True
    except OSError:  # a link loop, say: reading it reports what it is
        return False


def syntax_for(name):
    """The syntax a file's name says it is written in: ``yaml``, ``json`` or ``text``."""
    lower = os.path.basename(name).lower()
    if lower.endswith((".yaml", ".yml")):
        return "yaml"
    if lower.endswith(".json"):
        return "json"
    return "text"
