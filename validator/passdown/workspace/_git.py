"""Fingerprints of a real git checkout, read fresh: the checkout fingerprint (repository,
branch, HEAD) and the dirty-artifact fingerprint (every uncommitted path with the digest of
its content on disk).

Reading a checkout executes nothing from it (spec/input-safety.md, INP-018; spec/ack.md,
ACK-127), and every git command the product runs goes through the one runner here,
:class:`_Reader`. It runs ``git`` as a subprocess with a time and an output bound, stdin
closed, and an environment of Passdown's own: no inherited ``GIT_*`` variable (``GIT_DIR``,
``GIT_EXTERNAL_DIFF``, ``GIT_CONFIG_COUNT``, ``GIT_CONFIG_PARAMETERS``...), no pager, editor or
askpass program, no system configuration. Every configuration key through which a read
could start a program or read something other than the checkout (:data:`SAFE_CONFIG`,
:data:`DRIVER_KEYS`) is set on the command line, which outranks the repository's own
configuration and every file it includes; the keys with a name of the configuration's
choosing (filter, diff and merge drivers, per-command pagers, per-URL credential helpers)
are listed first, through those includes, and each is switched off. Submodules are compared
by their recorded commit only, so no git process starts inside one under its own
configuration. A file whose attributes name a filter driver is compared with the index by
its raw bytes, so a lying clean filter cannot hide a change. Only local plumbing runs (no
transport is allowed, so no network), and no optional lock is taken (a read never rewrites
the index).

Dirty files are hashed here, over the bytes on disk, opened one folder at a time without
following a symbolic link, so no path leads outside the checkout; a FIFO, socket or device
is never opened (``git.not_regular``), a file beyond :data:`MAX_FILE_BYTES` is refused
(``git.too_large``), and hashing every dirty file shares one :data:`TIMEOUT` budget
(``git.timeout``).
"""

from __future__ import annotations

import errno
import os
import re
import selectors
import stat
import subprocess
import threading
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
#: Every configuration key a read could act on, set on git's command line (which outranks
#: every configuration file and the files they include), with why (INP-018).
SAFE_CONFIG = (
    ("core.fsmonitor", "false", "names a program status runs to learn which files changed"),
    ("core.useBuiltinFSMonitor", "false", "starts git's file-system monitor daemon (older git)"),
    ("core.hooksPath", "/dev/null", "points git's hooks at a folder of programs"),
    ("core.pager", "cat", "names the program git pipes its output through"),
    ("core.editor", "", "names the program git starts to edit a message"),
    ("sequence.editor", "", "names the program git starts to edit a todo list"),
    ("core.askPass", "", "names the program git asks for a password"),
    ("credential.helper", "", "names a program git asks for credentials (empty clears the list)"),
    ("core.sshCommand", "", "names the program git runs to reach an ssh remote"),
    ("protocol.allow", "never", "lets git reach a remote (a partial clone fetches missing "
     "objects on demand, through ssh, a proxy or a remote helper)"),
    ("diff.external", "", "names a program git runs to show a diff"),
    ("log.showSignature", "false", "makes git log run the signature program for every signed "
     "commit it shows"),
    ("gpg.program", "", "the OpenPGP signature program"),
    ("gpg.openpgp.program", "", "the OpenPGP signature program"),
    ("gpg.x509.program", "", "the X.509 signature program"),
    ("gpg.ssh.program", "", "the ssh signature program"),
    ("gpg.ssh.defaultKeyCommand", "", "a program that prints the ssh signing key"),
    ("core.useReplaceRefs", "false", "makes git read other objects in place of the ones "
     "named (refs/replace/)"),
    ("status.submoduleSummary", "false", "runs git log inside each submodule"),
    ("submodule.recurse", "false", "runs git inside each submodule, under its own "
     "configuration"),
)
#: Keys whose middle name the configuration chooses (``filter.<driver>.clean``): each one the
#: configuration defines, through its includes, is found first and switched off (INP-018).
DRIVER_KEYS = (
    ("filter.<driver>.clean", r"filter\..+\.clean", "", "a filter driver's program, run on "
     "file content"),
    ("filter.<driver>.smudge", r"filter\..+\.smudge", "", "a filter driver's program, run on "
     "file content"),
    ("filter.<driver>.process", r"filter\..+\.process", "", "a filter driver's long-running "
     "program"),
    ("filter.<driver>.required", r"filter\..+\.required", "false", "makes a switched-off "
     "filter an error"),
    ("diff.<driver>.command", r"diff\..+\.command", "", "a diff driver's program"),
    ("diff.<driver>.textconv", r"diff\..+\.textconv", "", "a diff driver's program, run on "
     "file content"),
    ("merge.<driver>.driver", r"merge\..+\.driver", "", "a merge driver's program"),
    ("pager.<command>", r"pager\..+", "false", "the pager of one git command"),
    ("credential.<url>.helper", r"credential\..+\.helper", "", "a credential helper for one "
     "URL"),
)
#: Options before git's command name: no pager at all, no replace refs, a path is a path
#: (never a pattern).
_GLOBAL_OPTIONS = ("--no-pager", "--no-replace-objects", "--literal-pathspecs")
#: Settings besides: path bytes printed raw; no cache, collection or maintenance that would
#: write to the checkout (ACK-125).
_PLAIN_CONFIG = ("core.quotepath=false", "core.untrackedCache=false", "gc.auto=0",
                 "maintenance.auto=false")
#: Environment variables (besides every ``GIT_*``) through which git could start a program.
_PROGRAM_VARIABLES = ("PAGER", "EDITOR", "VISUAL", "SSH_ASKPASS", "LESSOPEN", "LESSCLOSE")
#: The environment git runs with: on top of the inherited one without ``GIT_*`` and
#: :data:`_PROGRAM_VARIABLES`.
_SAFE_VARIABLES = (("GIT_OPTIONAL_LOCKS", "0"), ("GIT_TERMINAL_PROMPT", "0"), ("LC_ALL", "C"),
                   ("LANGUAGE", "C"), ("GIT_CONFIG_NOSYSTEM", "1"), ("GIT_PAGER", "cat"),
                   ("GIT_ASKPASS", "/bin/false"), ("GIT_NO_REPLACE_OBJECTS", "1"),
                   ("GIT_NO_LAZY_FETCH", "1"))


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
    env.update(_SAFE_VARIABLES)
    return env


class _Reader:
    """The one runner of git in the product: git calls in one checkout, with every override
    that keeps them inert (:data:`SAFE_CONFIG`, and each :data:`DRIVER_KEYS` key the
    configuration defines, found before the first call)."""

    def __init__(self, workspace):
        self.workspace = os.fspath(workspace)
        self.overrides = None
        #: The filter drivers the configuration defines (each switched off).
        self.filters = set()

    def at(self, workspace):
        """A reader of the same repository run from ``workspace`` (its top level), sharing
        the overrides already found."""
        other = _Reader(workspace)
        other.overrides, other.filters = self.overrides, self.filters
        return other

    def run(self, *args, check=True, input_bytes=None):
        return self._run(args, self._prepare(), check, input_bytes)

    def _prepare(self):
        if self.overrides is None:
            self.overrides = [f"{key}={value}" for key, value, _ in SAFE_CONFIG] + list(
                _PLAIN_CONFIG)
            self.overrides += self._driver_overrides()
        return self.overrides

    def _run(self, args, overrides, check, input_bytes):
        command = ["git", *_GLOBAL_OPTIONS]
        for override in overrides:
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

    def _driver_overrides(self):
        """``key=value`` switching off each :data:`DRIVER_KEYS` key the configuration (with
        its includes) defines; a key git's command line cannot name is refused."""
        pattern = "^(" + "|".join(expression for _, expression, _, _ in DRIVER_KEYS) + ")$"
        static = [f"{key}={value}" for key, value, _ in SAFE_CONFIG]
        _, out = self._run(("config", "-z", "--name-only", "--get-regexp", pattern), static,
                           False, None)
        overrides = []
        for raw in sorted(set(out.split(b"\0"))):
            key = os.fsdecode(raw.strip())
            for _, expression, value, _ in DRIVER_KEYS:
                if key and re.fullmatch(expression, key, re.IGNORECASE | re.DOTALL):
                    break
            else:
                continue
            if "=" in key:  # `-c filter.a=b.clean=` would set another key: fail closed
                raise GitError(f"the configuration key {key!r} in {self.workspace} cannot be "
                               "switched off on git's command line; the checkout is not read",
                               code="git.failed",
                               hint="rename the driver (no `=` in its name)")
            overrides.append(f"{key}={value}")
            if key.lower().startswith("filter."):
                name = key[len("filter."):key.rindex(".")]
                self.filters.add(name)
                overrides.append(f"filter.{name}.required=false")
        return overrides

    def neutralise_filters(self):
        """The names of the filter drivers the configuration defines (each switched off:
        its ``clean``, ``smudge`` or ``process`` command is never run)."""
        self._prepare()
        return self.filters


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


def is_tracked(path):
    """Whether git tracks the file ``path`` in the checkout holding it; ``False`` when no
    checkout holds it (or git cannot tell)."""
    folder, name = os.path.split(os.path.abspath(path))
    try:
        code, out = _Reader(folder).run("ls-files", "-z", "--", name, check=False)
    except GitError:
        return False
    return code == 0 and bool(out.strip(b"\0"))


def checkout_fingerprint(workspace):
    """``{"repository", "branch", "head"}`` of the checkout ``workspace`` lies in.

    ``repository`` is the top-level folder; ``branch`` the checked-out branch's short name
    (``HEAD`` when detached); ``head`` the full commit id HEAD resolves to."""
    reader = _Reader(workspace)
    top = _toplevel(reader)
    reader = reader.at(top)
    branch = _branch(reader)
    code, out = reader.run("rev-parse", "-q", "--verify", "HEAD^{commit}", check=False)
    if code != 0:
        raise _no_commit(top)
    return {"repository": top, "branch": branch, "head": out.decode("ascii").strip()}


def _branch(reader):
    """The checked-out branch's short name, else the symbolic ref HEAD names, else
    :data:`DETACHED`."""
    code, out = reader.run("symbolic-ref", "-q", "HEAD", check=False)
    name = out.decode("utf-8", "backslashreplace").strip() if code == 0 else ""
    return name[len(_HEADS):] if name.startswith(_HEADS) else (name or DETACHED)


def _no_commit(top):
    return GitError(f"HEAD names no commit yet in {top}", code="git.no_commit",
                    hint="commit once, so the checkout has a HEAD to fingerprint")


def dirty_paths(workspace, *, budget=None):
    """Every path ``git status`` reports as changed, staged or untracked (ignored files
    excluded; both sides of a rename; a submodule whose checked-out commit moved), and every
    tracked file stored through a filter driver whose bytes differ from the index, relative
    to the top level, as raw bytes, sorted."""
    status = _Status(workspace, budget or _Budget())
    return status.top, sorted(status.paths)


#: What a path's two-letter ``git status --porcelain`` code says, in words, first match wins
#: (``??`` untracked; a ``U`` or both sides added or deleted: a merge conflict).
_STATUS_WORDS = ((lambda xy: xy == b"??", "untracked"),
                 (lambda xy: b"U" in xy or xy in (b"AA", b"DD"), "conflicted"),
                 (lambda xy: b"D" in xy, "deleted"),
                 (lambda xy: b"A" in xy, "added"))
#: The word for every other change (content, type or a submodule's commit).
MODIFIED = "modified"
#: ``git status --porcelain=v2`` entries: the first field, and how many space-separated fields
#: come before the path (an ordinary change, a rename or copy, an unmerged path, untracked).
_ENTRY_FIELDS = {b"1": 8, b"2": 9, b"u": 10, b"?": 1}
#: The header lines of ``--branch`` (``# branch.oid``, ``# branch.head``): HEAD's commit, else
#: ``(initial)``; the branch's short name, else ``(detached)``.
_INITIAL, _DETACHED_HEAD = b"(initial)", b"(detached)"


#: Status codes already put in words (a handful exist; each is worked out once).
_WORDS_OF = {}


def _status_word(xy):
    word = _WORDS_OF.get(xy)
    if word is None:
        word = _WORDS_OF[xy] = next((word for test, word in _STATUS_WORDS if test(xy)), MODIFIED)
    return word


class _Status:
    """One ``git status --porcelain=v2 -z --branch`` of the checkout ``workspace`` lies in:
    the top level, HEAD's commit (``None`` before the first commit), the branch header and
    ``paths``, every dirty path (raw bytes, relative to the top level) with its status
    word. Tracked files behind a (switched-off) filter driver whose raw bytes differ from the
    index are added as modified."""

    def __init__(self, workspace, budget, meanwhile=None):
        reader = _Reader(workspace)
        self.top = _toplevel(reader)
        self.reader = reader = reader.at(self.top)
        filters = reader.neutralise_filters()
        if meanwhile is not None:
            meanwhile(self.top)
        _, out = reader.run("status", "--porcelain=v2", "-z", "--branch",
                            "--untracked-files=all", "--ignore-submodules=dirty", "--no-renames")
        self.head = self.branch_head = None
        self.paths = paths = {}
        entries = out.split(b"\0")
        index = 0
        while index < len(entries):
            entry = entries[index]
            index += 1
            kind = entry[:1]
            if kind == b"#":
                key, _, value = entry[2:].partition(b" ")
                if key == b"branch.oid":
                    self.head = None if value == _INITIAL else value.decode("ascii")
                elif key == b"branch.head":
                    self.branch_head = value
                continue
            fields = _ENTRY_FIELDS.get(kind)
            if fields is None:
                continue
            parts = entry.split(b" ", fields)
            if len(parts) <= fields:
                continue
            xy = b"??" if kind == b"?" else parts[1]
            paths[parts[fields]] = _status_word(xy)
            if kind == b"2" and index < len(entries):  # the rename's source path follows
                paths[entries[index]] = _status_word(xy)
                index += 1
        if filters:
            for path in _filtered_changes(reader, self.top, paths, budget):
                paths[path] = MODIFIED

    def checkout(self):
        """The checkout fingerprint, from the branch header (the symbolic ref asked only
        when the header says detached, which a branch could also be named)."""
        if self.head is None:
            raise _no_commit(self.top)
        if self.branch_head is None or self.branch_head == _DETACHED_HEAD:
            branch = _branch(self.reader)
        else:
            branch = self.branch_head.decode("utf-8", "backslashreplace")
        return {"repository": self.top, "branch": branch, "head": self.head}


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
    return readback(workspace, algorithm, algorithms=algorithms,
                    leave_out=(lambda top: leave_out) if leave_out is not None else None,
                    with_status=with_status)[1]


def readback(workspace, algorithm=_digest.DEFAULT_ALGORITHM, *, algorithms=None,
             leave_out=None, with_status=False):
    """``(checkout fingerprint, dirty fingerprint)`` from one ``git status``: as
    :func:`checkout_fingerprint` and :func:`dirty_fingerprint` give them, except that
    ``leave_out`` is a function of the top level giving the predicate. When ``algorithms``
    names many paths (an ACK's list), those files are hashed while ``git status`` runs, and
    each one git then lists takes that digest."""
    budget = _Budget()
    algorithms = algorithms or {}
    early = _Early(algorithms, budget) if len(algorithms) >= _EARLY_FROM else None
    try:
        status = _Status(workspace, budget, early.start_at if early is not None else None)
    finally:
        digests = early.finish() if early is not None else {}
    checkout = status.checkout()
    skip = leave_out(status.top) if leave_out is not None else None
    rows = []
    with _Tree(status.top) as tree:
        for raw_path in sorted(status.paths):
            name = raw_path.decode("utf-8", "backslashreplace")
            if skip is not None and skip(name):
                continue
            chosen = algorithms.get(name, algorithm)
            digest = digests.get((raw_path, chosen))
            if digest is None:
                digest = _path_digest(tree, raw_path, chosen, budget)
            row = {"path": name, "digest": digest}
            if with_status:
                row["status"] = status.paths[raw_path]
            rows.append(row)
    return checkout, rows


#: From how many expected dirty paths on :func:`readback` hashes them while git runs.
_EARLY_FROM = 32


class _Early:
    """The files a caller expects to be dirty (``{path: algorithm}``), hashed on a thread of
    their own while ``git status`` runs, exactly as :func:`readback` hashes them: a digest is
    only ever used for a path git then lists, and a path that cannot be hashed here (a
    folder, a FIFO, a link on the way, a name that is not UTF-8) is left to the readback
    itself, which reports it as it always does."""

    def __init__(self, algorithms, budget):
        self.algorithms = algorithms
        self.budget = budget
        self.digests = {}
        self.thread = None

    def start_at(self, top):
        self.thread = threading.Thread(target=self._run, args=(top,), daemon=True)
        self.thread.start()

    def finish(self):
        if self.thread is not None:
            self.stop = True
            self.thread.join()
        return self.digests

    stop = False

    def _run(self, top):
        try:
            with _Tree(top) as tree:
                for name in sorted(self.algorithms):
                    if self.stop:
                        return
                    try:
                        raw = name.encode("utf-8")
                    except UnicodeEncodeError:
                        continue
                    self._hash(tree, raw, self.algorithms[name])
        except (GitError, OSError):
            return

    def _hash(self, tree, raw, algorithm):
        hasher = _digest.new_hasher(algorithm)
        try:
            kind = _read_beneath(tree, raw, hasher.update, self.budget)
        except (GitError, OSError):
            return
        if kind != "directory":  # a submodule's digest needs git: the readback asks it
            self.digests[(raw, algorithm)] = f"{algorithm}:{hasher.hexdigest()}"


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
