"""Fingerprints of a real git checkout, read fresh: the checkout fingerprint (repository,
branch, HEAD) and the dirty-artifact fingerprint (every uncommitted path with the digest of
its content on disk).

Reading a checkout executes nothing from it (spec/ack.md, ACK-127). ``git`` runs as a
subprocess with a time and an output bound, stdin closed, and an environment of Passdown's own:
no inherited ``GIT_*`` variable (``GIT_DIR``, ``GIT_EXTERNAL_DIFF``, ``GIT_CONFIG_PARAMETERS``...),
no pager, editor or askpass program, no system configuration. Every configured command git
could start while reading is switched off on the command line, which outranks the
repository's own configuration and its includes: the fsmonitor hook, hooks, the pager, and
each clean/smudge/process filter driver the configuration defines. Submodules are compared by
their recorded commit only, so no git process starts inside one under its own configuration.
A file whose attributes name a filter driver is compared with the index by its raw bytes, so
a lying clean filter cannot hide a change. Only local plumbing runs (no network), and no
optional lock is taken (a read never rewrites the index).

Dirty files are hashed here, over the bytes on disk, opened one folder at a time without
following a symbolic link, so no path leads outside the checkout; a FIFO, socket or device
is never opened (``git.not_regular``), a file beyond :data:`MAX_FILE_BYTES` is refused
(``git.too_large``), and hashing every dirty file shares one :data:`TIMEOUT` budget
(``git.timeout``).
"""

from __future__ import annotations

import errno
import os
import selectors
import stat
import subprocess
import time

from passdown.errors import PassdownError
from passdown.formats import _digest

#: Seconds one git command may take, and the budget for hashing every dirty file (``git.timeout``).
TIMEOUT = 10.0
#: The most output one git command may print before the read is abandoned (``git.too_large``).
MAX_OUTPUT_BYTES = 64 << 20
#: The largest dirty file hashed (``git.too_large``): ignore larger files in ``.gitignore``.
MAX_FILE_BYTES = 1 << 30
#: The branch recorded for a detached HEAD, as ``git rev-parse --abbrev-ref HEAD`` prints it.
DETACHED = "HEAD"
_HEADS = "refs/heads/"
_CHUNK = 1 << 20
#: Configuration that could make a read start a program, switched off for every git call.
_SAFE_CONFIG = ("core.fsmonitor=false", "core.useBuiltinFSMonitor=false", "core.quotepath=false",
                "core.hooksPath=/dev/null", "core.pager=cat", "core.untrackedCache=false",
                "diff.external=", "status.submoduleSummary=false", "submodule.recurse=false",
                "gc.auto=0", "maintenance.auto=false")
#: Environment variables (besides ``GIT_*``) through which git could start a program.
_PROGRAM_VARIABLES = ("PAGER", "EDITOR", "VISUAL", "SSH_ASKPASS", "LESSOPEN", "LESSCLOSE")
#: The filter driver keys that name a program.
_FILTER_KEYS = ("clean", "smudge", "process")


class GitError(PassdownError):
    """The checkout could not be read: ``git.not_found`` (no git program),
    ``git.not_a_repository``, ``git.no_commit`` (HEAD names no commit yet), ``git.timeout``,
    ``git.too_large`` (git's output or a dirty file beyond its bound), ``git.not_regular``
    (a dirty path is a FIFO, socket or device, or leads through a symbolic link),
    ``git.failed``."""

    exit_code = 2
    code = "git.failed"

    #: Every code a :class:`GitError` carries (spec/ack.md's Codes table lists each).
    CODES = ("git.not_found", "git.not_a_repository", "git.no_commit", "git.timeout",
             "git.too_large", "git.not_regular", "git.failed")


def _environment():
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("GIT_") and key not in _PROGRAM_VARIABLES}
    env.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", LC_ALL="C", LANGUAGE="C",
               GIT_CONFIG_NOSYSTEM="1", GIT_PAGER="cat", GIT_ASKPASS="/bin/false")
    return env


class _Reader:
    """git calls in one checkout, with the configuration overrides that keep them inert."""

    def __init__(self, workspace):
        self.workspace = os.fspath(workspace)
        self.overrides = list(_SAFE_CONFIG)

    def run(self, *args, check=True, input_bytes=None):
        command = ["git"]
        for override in self.overrides:
            command += ["-c", override]
        command += ["-C", self.workspace, *args]
        returncode, out, err = _run_bounded(command, args[0], self.workspace, input_bytes, TIMEOUT)
        if check and returncode != 0:
            message = err.decode("utf-8", "replace").strip().splitlines()
            first = message[0] if message else f"exit status {returncode}"
            if "not a git repository" in first or "must be run in a work tree" in first:
                raise GitError(f"{self.workspace} is not inside a git working tree",
                               code="git.not_a_repository",
                               hint="pass the checkout folder with --workspace")
            raise GitError(f"`git {args[0]}` failed in {self.workspace}: {first}",
                           code="git.failed",
                           hint="run the same git command by hand to see what is wrong")
        return returncode, out

    def neutralise_filters(self):
        """Switch off every filter driver the configuration defines; the names of those
        drivers (their ``clean``, ``smudge`` or ``process`` command is never run)."""
        _, out = self.run("config", "-z", "--name-only", "--get-regexp",
                          r"^filter\..*\.(clean|smudge|process)$", check=False)
        names = set()
        for key in out.split(b"\0"):
            key = os.fsdecode(key.strip())
            if key.count(".") >= 2:
                names.add(key[len("filter."):key.rindex(".")])
        for name in sorted(names):
            if "=" in name:  # `-c filter.a=b.clean=` would set another key: fail closed
                raise GitError(f"the filter driver {name!r} in {self.workspace} cannot be "
                               "switched off on git's command line; the checkout is not read",
                               code="git.failed",
                               hint="rename the filter driver (no `=` in its name)")
            self.overrides += [f"filter.{name}.{key}=" for key in _FILTER_KEYS]
            self.overrides.append(f"filter.{name}.required=false")
        return names


def _run_bounded(command, name, workspace, input_bytes, timeout):
    """Run ``command``; ``(returncode, stdout, stderr)``, with stdout bounded by
    :data:`MAX_OUTPUT_BYTES` and the whole run by ``timeout`` seconds."""
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE if input_bytes is not None
                                   else subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=_environment(),
                                   start_new_session=True)
    except FileNotFoundError:
        raise GitError("the git program is not installed or not on PATH", code="git.not_found",
                       hint="install git, or verify without a workspace") from None
    deadline = time.monotonic() + timeout
    chunks = {process.stdout: [], process.stderr: []}
    sizes = {process.stdout: 0, process.stderr: 0}
    pending = memoryview(input_bytes) if input_bytes is not None else None
    problem = None
    with selectors.DefaultSelector() as selector:
        for stream in chunks:
            selector.register(stream, selectors.EVENT_READ)
        if pending is not None:
            os.set_blocking(process.stdin.fileno(), False)
            selector.register(process.stdin, selectors.EVENT_WRITE)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                problem = "timeout"
                break
            for key, _ in selector.select(left):
                if key.fileobj is process.stdin:
                    try:
                        written = os.write(process.stdin.fileno(), pending[:65536])
                    except BrokenPipeError:
                        written = len(pending)
                    pending = pending[written:]
                    if not pending:
                        selector.unregister(process.stdin)
                        process.stdin.close()
                    continue
                data = os.read(key.fileobj.fileno(), 65536)
                if not data:
                    selector.unregister(key.fileobj)
                    continue
                sizes[key.fileobj] += len(data)
                if sizes[key.fileobj] > MAX_OUTPUT_BYTES:
                    problem = "too_large"
                    break
                chunks[key.fileobj].append(data)
            if problem:
                break
    if problem:
        _kill(process)
    try:
        process.wait(max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        _kill(process)
        process.wait()
        problem = problem or "timeout"
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None and not stream.closed:
            stream.close()
    if problem == "timeout":
        raise GitError(f"`git {name}` took longer than {timeout:g} s in {workspace}",
                       code="git.timeout", hint="retry when the checkout is less busy")
    if problem == "too_large":
        raise GitError(f"`git {name}` printed more than {MAX_OUTPUT_BYTES:,} bytes in {workspace}",
                       code="git.too_large",
                       hint="ignore generated files in .gitignore, so that git lists fewer paths")
    return process.returncode, b"".join(chunks[process.stdout]), b"".join(chunks[process.stderr])


def _kill(process):
    """End git and anything it started (its own session)."""
    try:
        os.killpg(process.pid, 9)
    except OSError:
        process.kill()


def toplevel(workspace):
    """The working tree's top-level folder, as git prints it (absolute, symlinks resolved)."""
    return _toplevel(_Reader(workspace))


def _toplevel(reader):
    if not os.path.isdir(reader.workspace):
        raise GitError(f"{reader.workspace} is not a folder", code="git.not_a_repository",
                       hint="pass the checkout folder with --workspace")
    _, out = reader.run("rev-parse", "--show-toplevel")
    return os.fsdecode(out.rstrip(b"\n"))


def log(workspace, *args):
    """``git log ARGS`` in the checkout, as inert as every other read here (no pager, hook,
    filter or other configured command); ``(returncode, stdout)``."""
    return _Reader(workspace).run("log", *args, check=False)


def checkout_fingerprint(workspace):
    """``{"repository", "branch", "head"}`` of the checkout ``workspace`` lies in.

    ``repository`` is the top-level folder; ``branch`` the checked-out branch's short name
    (``HEAD`` when detached); ``head`` the full commit id HEAD resolves to."""
    top = toplevel(workspace)
    reader = _Reader(top)
    code, out = reader.run("symbolic-ref", "-q", "HEAD", check=False)
    name = out.decode("utf-8", "backslashreplace").strip() if code == 0 else ""
    branch = name[len(_HEADS):] if name.startswith(_HEADS) else (name or DETACHED)
    code, out = reader.run("rev-parse", "-q", "--verify", "HEAD^{commit}", check=False)
    if code != 0:
        raise GitError(f"HEAD names no commit yet in {top}", code="git.no_commit",
                       hint="commit once, so the checkout has a HEAD to fingerprint")
    return {"repository": top, "branch": branch, "head": out.decode("ascii").strip()}


def dirty_paths(workspace, *, budget=None):
    """Every path ``git status`` reports as changed, staged or untracked (ignored files
    excluded; both sides of a rename; a submodule whose checked-out commit moved), and every
    tracked file stored through a filter driver whose bytes differ from the index, relative
    to the top level, as raw bytes, sorted."""
    top, statuses = _dirty_statuses(workspace, budget)
    return top, sorted(statuses)


#: What a path's two-letter ``git status --porcelain`` code says, in words, first match wins
#: (``??`` untracked; a ``U`` or both sides added or deleted: a merge conflict).
_STATUS_WORDS = ((lambda xy: xy == b"??", "untracked"),
                 (lambda xy: b"U" in xy or xy in (b"AA", b"DD"), "conflicted"),
                 (lambda xy: b"D" in xy, "deleted"),
                 (lambda xy: b"A" in xy, "added"))
#: The word for every other change (content, type or a submodule's commit).
MODIFIED = "modified"


def _status_word(xy):
    return next((word for test, word in _STATUS_WORDS if test(xy)), MODIFIED)


def _dirty_statuses(workspace, budget):
    """``(top, {raw path: status word})`` for :func:`dirty_paths`' paths."""
    top = toplevel(workspace)
    reader = _Reader(top)
    filters = reader.neutralise_filters()
    _, out = reader.run("status", "--porcelain=v1", "-z", "--untracked-files=all",
                        "--ignore-submodules=dirty", "--no-renames")
    statuses = {}
    for entry in out.split(b"\0"):
        if len(entry) >= 4:
            statuses[entry[3:]] = _status_word(entry[:2])
    if filters:
        for path in _filtered_changes(reader, top, statuses, budget or _Budget()):
            statuses[path] = MODIFIED
    return top, statuses


def _filtered_changes(reader, top, known, budget):
    """Tracked files whose attributes name a filter driver and whose raw bytes are not the
    blob the index holds: git compared them through the (switched off) filter, or trusted
    stat data an earlier filter run left, so Passdown compares the bytes itself."""
    _, listing = reader.run("ls-files", "-s", "-z")
    blobs = {}
    for entry in listing.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and fields[0].startswith(b"100") and path not in known:
            blobs[path] = fields[1].decode("ascii")
    if not blobs:
        return []
    _, attributes = reader.run("check-attr", "-z", "--stdin", "filter",
                               input_bytes=b"\0".join(blobs) + b"\0")
    parts = attributes.split(b"\0")
    filtered = [parts[i] for i in range(0, len(parts) - 2, 3)
                if parts[i + 2] not in (b"unspecified", b"unset")]
    if not filtered:
        return []
    _, format_out = reader.run("rev-parse", "--show-object-format", check=False)
    algorithm = "sha256" if format_out.strip() == b"sha256" else "sha1"
    with _Tree(top) as tree:
        return [path for path in filtered
                if _blob_id(tree, path, algorithm, budget) != blobs.get(path)]


def dirty_fingerprint(workspace, algorithm=_digest.DEFAULT_ALGORITHM, *, algorithms=None,
                      leave_out=None, with_status=False):
    """``[{"path", "digest"}, ...]`` for every dirty path, sorted by path.

    A file is hashed over its raw bytes; a symbolic link over its target text (what git
    stores); a path absent from disk (deleted) over zero bytes; a submodule folder over the
    text of its HEAD commit id. ``algorithms`` maps a path to the algorithm to use for it
    (to reproduce a fingerprint someone wrote with another algorithm); ``leave_out(path)``
    says which paths the fingerprint does not cover (the handoff's own files). With
    ``with_status`` each row also says what changed (``status``: ``untracked``, ``added``,
    ``deleted``, ``conflicted`` or ``modified``), which the fingerprint itself leaves out."""
    budget = _Budget()
    top, statuses = _dirty_statuses(workspace, budget)
    rows = []
    with _Tree(top) as tree:
        for raw_path in sorted(statuses):
            name = raw_path.decode("utf-8", "backslashreplace")
            if leave_out is not None and leave_out(name):
                continue
            chosen = (algorithms or {}).get(name, algorithm)
            row = {"path": name, "digest": _path_digest(tree, raw_path, chosen, budget)}
            if with_status:
                row["status"] = statuses[raw_path]
            rows.append(row)
    return rows


class _Budget:
    """The time every dirty file's hashing shares (:data:`TIMEOUT`)."""

    def __init__(self, seconds=None):
        self.seconds = TIMEOUT if seconds is None else seconds
        self.deadline = time.monotonic() + self.seconds

    def check(self, path):
        if time.monotonic() > self.deadline:
            raise GitError(f"hashing the dirty files took longer than {self.seconds:g} s "
                           f"(at {os.fsdecode(path)})", code="git.timeout",
                           hint="commit or ignore large generated files, then read again")


class _Tree:
    """The checkout's folders, opened one at a time from the top level without following a
    symbolic link; the open chain is kept while the (sorted) paths stay in it."""

    def __init__(self, top):
        self.top = top
        self.chain = []  # [(folder name, fd)], the top level first

    def __enter__(self):
        self.chain = [(b"", os.open(self.top, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))]
        return self

    def __exit__(self, *exc):
        for _, fd in self.chain:
            os.close(fd)
        self.chain = []

    def folder(self, parts, shown):
        """The fd of the folder ``parts`` (names below the top level), or None when one of
        them does not exist; a name that is a link or a file is ``git.not_regular``."""
        keep = 1
        while keep < len(self.chain) and keep - 1 < len(parts) \
                and self.chain[keep][0] == parts[keep - 1]:
            keep += 1
        for _, fd in self.chain[keep:]:
            os.close(fd)
        del self.chain[keep:]
        for part in parts[keep - 1:]:
            try:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                                dir_fd=self.chain[-1][1])
            except FileNotFoundError:
                return None
            except OSError as error:
                if isinstance(error, NotADirectoryError) or error.errno == errno.ELOOP:
                    raise _not_regular(shown, "leads through a symbolic link or a file") from None
                raise _unreadable(shown, error) from None
            self.chain.append((part, inner))
        return self.chain[-1][1]


def _path_digest(tree, raw_path, algorithm, budget):
    hasher = _digest.new_hasher(algorithm)
    kind = _read_beneath(tree, raw_path, hasher.update, budget)
    if kind == "directory":
        code, out = _Reader(os.path.join(tree.top, os.fsdecode(raw_path))).run(
            "rev-parse", "-q", "--verify", "HEAD", check=False)
        hasher.update(out.strip() if code == 0 else b"")
    return f"{algorithm}:{hasher.hexdigest()}"


def _blob_id(tree, raw_path, algorithm, budget):
    """The git object id of the file's raw bytes as a blob (what ``git hash-object
    --no-filters`` prints), or None when the path is not a regular file."""
    import hashlib

    hasher = hashlib.new(algorithm)
    sizes = []

    def begin(size):
        sizes.append(size)
        hasher.update(b"blob %d\0" % size)

    def update(chunk):
        sizes.append(len(chunk))
        hasher.update(chunk)

    if _read_beneath(tree, raw_path, update, budget, begin=begin) != "file" \
            or sum(sizes[1:]) != sizes[0]:  # not a file, or it changed size while read
        return None
    return hasher.hexdigest()


def _read_beneath(tree, raw_path, consume, budget, *, begin=None):
    """Feed the content of ``raw_path`` (relative to the top level) to ``consume`` and say
    what it is: ``file`` (its bytes), ``link`` (its target text), ``missing`` (nothing:
    deleted) or ``directory`` (nothing: a submodule or a nested repository). Every folder on
    the way is opened without following a symbolic link; a FIFO, socket or device is never
    opened. ``begin`` is told a file's size before its bytes."""
    shown = os.fsdecode(raw_path)
    *parts, name = raw_path.split(b"/")
    folder = tree.folder(parts, shown)
    if folder is None:
        return "missing"
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return "missing"
    if stat.S_ISLNK(info.st_mode):
        consume(os.readlink(name, dir_fd=folder))
        return "link"
    if stat.S_ISDIR(info.st_mode):
        return "directory"
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(shown, "is a FIFO, socket or device")
    if begin is not None:
        begin(info.st_size)
    _hash_file(folder, name, info, shown, consume, budget)
    return "file"


def _hash_file(folder, name, info, shown, consume, budget):
    if info.st_size > MAX_FILE_BYTES:
        raise _too_large(shown)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     dir_fd=folder)
    except OSError as error:
        raise _unreadable(shown, error) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode) or (opened.st_dev, opened.st_ino) != (
                info.st_dev, info.st_ino):
            raise _not_regular(shown, "was replaced while it was read")
        total = 0
        while True:
            budget.check(shown)
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                return
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                raise _too_large(shown)
            consume(chunk)
    except OSError as error:
        raise _unreadable(shown, error) from None
    finally:
        os.close(fd)


def _not_regular(shown, what):
    return GitError(f"the dirty path {shown} {what}; it is not read", code="git.not_regular",
                    hint="remove it, or ignore it in .gitignore: only regular files, symbolic "
                         "links and folders are fingerprinted")


def _too_large(shown):
    return GitError(f"the dirty file {shown} is larger than {MAX_FILE_BYTES:,} bytes",
                    code="git.too_large",
                    hint="commit it, or ignore it in .gitignore, then read again")


def _unreadable(shown, error):
    return GitError(f"cannot read the dirty path {shown}: {error.strerror or error}",
                    code="git.failed", hint="check the file's permissions")
